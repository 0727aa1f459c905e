# SPDX-License-Identifier: GPL-2.0
"""tap-setup as a command: exit codes, messages, outputs."""

import json
import os
import subprocess
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(__file__), "..", "..", "tap-setup")


def run(*args):
    p = subprocess.run([TOOL] + list(args), capture_output=True, text=True,
                       check=False)
    return p.returncode, p.stdout, p.stderr


class Cli(unittest.TestCase):
    def test_nstar_default(self):
        rc, out, err = run("nstar")
        self.assertEqual(rc, 0, err)
        self.assertIn("n = 7.526", out)
        self.assertIn("W=32, m=5", out)
        # TAP's release: n* - 1 stations (basic 3 -> 2, RTS/CTS 6 -> 5)
        self.assertIn("release 2 quantum 30ms", out)
        self.assertIn("release 5 quantum 30ms", out)

    def test_nstar_json_table(self):
        rc, out, _ = run("nstar", "--phy", "a", "--rate", "24", "--json",
                         "--nmax", "20")
        self.assertEqual(rc, 0)
        d = json.loads(out)
        self.assertEqual([r["access"] for r in d["results"]], ["basic", "rts"])
        self.assertEqual(len(d["results"][0]["curve"]), 20)
        for r in d["results"]:
            self.assertEqual(r["release"], max(r["nstar_int"] - 1, 1))
        rc, out, _ = run("nstar", "--table", "--nmax", "12", "--access", "rts")
        self.assertEqual(out.count("<- n*"), 1)

    def test_bad_input(self):
        for args, msg in ((["nstar", "--rate", "54"], "not one of"),
                          (["nstar", "--phy", "n", "--rate", "100"], "no MCS"),
                          (["nstar", "--size", "9000"], "outside"),
                          (["nstar", "--cwmin", "20"], "2^k - 1"),
                          (["hostapd", "--nstar", "0"], "outside"),
                          (["status", "no-such-if0"], "no interface")):
            rc, out, err = run(*args)
            self.assertEqual(rc, 1, args)
            self.assertIn(msg, err)
            self.assertNotIn("Traceback", err)

    def test_hostapd_lines(self):
        rc, out, _ = run("hostapd", "--phy", "g", "--rate", "54", "--access", "rts")
        self.assertEqual(rc, 0)
        self.assertIn("tx_queue_data0_aifs=1", out)
        self.assertIn("tx_queue_data0_cwmin=1", out)
        self.assertRegex(out, r"tx_queue_data0_burst=\d+\.\d")
        with tempfile.TemporaryDirectory() as d:
            conf = os.path.join(d, "h.conf")
            with open(conf, "w") as f:
                f.write("interface=wlan0\n")
            rc, _, _ = run("hostapd", "--write", conf)
            self.assertEqual(rc, 0)
            with open(conf) as f:
                self.assertIn("tx_queue_data0_cwmin=1\n", f.read())
            with open(conf + ".tap-orig") as f:
                self.assertEqual(f.read(), "interface=wlan0\n")

    def test_plot(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib not installed (python3-matplotlib)")
        with tempfile.TemporaryDirectory() as d:
            png = os.path.join(d, "s.png")
            rc, _, err = run("nstar", "--plot", png)
            self.assertEqual(rc, 0, err)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
