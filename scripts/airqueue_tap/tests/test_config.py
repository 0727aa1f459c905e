# SPDX-License-Identifier: GPL-2.0
"""tc filter generation, EDCA/hostapd lines, apply/remove with a fake tc."""

import copy
import json
import os
import shlex
import struct
import tempfile
import unittest

from airqueue_tap import TapError, edca, tcfilter
from airqueue_tap.phy import make_phy


def ipv4(tcp_flags, payload=0, doff=5, ihl=5, frag=0, proto=6):
    opts = bytes(4 * (ihl - 5))
    tcp = struct.pack("!HHIIBBHHH", 1234, 80, 1, 1, doff << 4, tcp_flags,
                      1000, 0, 0) + bytes(4 * (doff - 5))
    tot = 4 * ihl + len(tcp) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tot, 0, frag, 64, proto, 0,
                     bytes(4), bytes(4)) + opts
    return ip + tcp + bytes(payload)


def ipv6(tcp_flags, payload=0, doff=5, nexthdr=6):
    tcp = struct.pack("!HHIIBBHHH", 1234, 80, 1, 1, doff << 4, tcp_flags,
                      1000, 0, 0) + bytes(4 * (doff - 5))
    ip = struct.pack("!IHBB16s16s", 0x60000000, len(tcp) + payload, nexthdr, 64,
                     bytes(16), bytes(16))
    return ip + tcp + bytes(payload)


ACK, SYN, FIN, RST, PSH, ECE = 0x10, 0x02, 0x01, 0x04, 0x08, 0x40


def matched(pkt, cmds):
    fam = "ip" if pkt[0] >> 4 == 4 else "ipv6"
    return any(tcfilter.u32_matches(c, pkt) for c in cmds
               if tcfilter.protocol_of(c) == fam)


class Filters(unittest.TestCase):
    cmds = tcfilter.filter_commands("wlan0", 16)

    def test_shape(self):
        self.assertEqual(len(self.cmds), 22)
        for c in self.cmds:
            self.assertEqual(c[-5:], ["action", "skbedit", "priority", "0:106",
                                      "continue"])
            fam = tcfilter.protocol_of(c)
            self.assertEqual(c[c.index("prio") + 1], "16" if fam == "ip" else "17")
            self.assertEqual(c[:5], ["filter", "add", "dev", "wlan0", "egress"])
        self.assertEqual(int("106", 16), tcfilter.SKB_PRIO_AC_VO)
        self.assertEqual(tcfilter.SKB_PRIO_AC_VO - 256, 6)     # 802.1d 6 = AC_VO

    def test_pure_acks_match(self):
        for mk in (ipv4, ipv6):
            for doff in range(5, 16):
                for extra in (0, PSH, ECE, PSH | ECE):
                    p = mk(ACK | extra, 0, doff)
                    self.assertTrue(matched(p, self.cmds), (mk.__name__, doff, extra))
                    self.assertTrue(tcfilter.is_pure_ack(p))

    def test_others_do_not_match(self):
        cases = []
        for mk in (ipv4, ipv6):
            for doff in (5, 8, 10, 15):
                cases += [mk(ACK, 1, doff), mk(ACK | PSH, 1024, doff),
                          mk(ACK, 4, doff), mk(ACK, 12, doff),
                          mk(SYN, 0, doff), mk(SYN | ACK, 0, doff),
                          mk(FIN | ACK, 0, doff), mk(RST | ACK, 0, doff),
                          mk(RST, 0, doff), mk(0, 0, doff), mk(PSH, 0, doff)]
        # not a pure ACK by the filter's definition (documented)
        cases += [ipv4(ACK, 0, 5, frag=0x2000), ipv4(ACK, 0, 5, frag=0x0001),
                  ipv4(ACK, 0, 5, proto=17), ipv6(ACK, 0, 5, nexthdr=17)]
        for p in cases:
            self.assertFalse(matched(p, self.cmds), p[:60].hex())

    def test_documented_misses(self):
        # A real pure ACK behind IPv4 options or an IPv6 extension header
        # is left at normal priority (never misclassified).
        self.assertFalse(matched(ipv4(ACK, 0, 8, ihl=6), self.cmds))
        self.assertFalse(matched(ipv6(ACK, 0, 8, nexthdr=0), self.cmds))

    def test_reference_predicate_agrees(self):
        for mk in (ipv4, ipv6):
            for doff in range(5, 16):
                for fl in (ACK, ACK | PSH, SYN, SYN | ACK, FIN | ACK, RST | ACK):
                    for pl in (0, 1, 40):
                        p = mk(fl, pl, doff)
                        self.assertEqual(matched(p, self.cmds), tcfilter.is_pure_ack(p))


class Edca(unittest.TestCase):
    def test_vo_params(self):
        p = make_phy("b", rate=11)
        vo = edca.vo_params(p, 4)
        ex = edca.ack_exchange_us(p)
        # QoS data 30 + LLC 8 + 52 = 90 B at 11 Mbit/s; MAC ACK at 1 Mbit/s
        self.assertAlmostEqual(ex, 192 + 66 + 1 + 10 + 304 + 1)
        self.assertAlmostEqual(vo["_txop_us"], 3 * ex + 2 * 10)
        self.assertEqual((vo["aifs"], vo["cwmin"], vo["cwmax"]), (1, 1, 3))
        b = int(vo["burst"].replace(".", ""))
        self.assertGreaterEqual((b * 100 + 16) // 32 * 32, vo["_txop_us"])
        self.assertEqual(edca.vo_params(p, 1)["burst"], "0.0")
        self.assertEqual(edca.vo_params(p, 2)["burst"], "0.0")   # one frame: no TXOP

    def test_burst_rounding(self):
        for us in range(1, 20000, 7):
            b = edca.burst_tenths_ms(us)
            self.assertGreaterEqual((b * 100 + 16) // 32 * 32, us)
            self.assertLess((b - 1) * 100, us + 100)    # not more than needed + 0.1 ms

    def test_hostapd_accepts(self):
        # hostapd config_file.c: aifs 0..255; cw in {1,3,...,1023}
        for phy, rate in (("b", 11), ("a", 54), ("g", 6), ("n", 65)):
            for n in range(1, 10):
                vo = edca.vo_params(make_phy(phy, rate=rate), n)
                self.assertIn(vo["cwmin"], (1, 3, 7, 15, 31, 63, 127, 255, 511, 1023))
                self.assertTrue(0 <= vo["aifs"] <= 255)
        with self.assertRaises(TapError):
            edca.vo_params(make_phy("b"), 4, cwmax=2)
        with self.assertRaises(TapError):
            edca.vo_params(make_phy("b"), 0)

    def test_rewrite_config(self):
        vo = {"aifs": 1, "cwmin": 1, "cwmax": 3, "burst": "1.8"}
        orig = ("interface=wlan0\n# tx_queue_data0_aifs=7\n"
                "tx_queue_data0_cwmin=3\nssid=x\ntx_queue_data0_cwmin=7\nwmm_enabled=1")
        new = edca.rewrite_config(orig, vo)
        self.assertEqual(edca.read_values(new), {
            "tx_queue_data0_cwmin": "1", "tx_queue_data0_aifs": "1",
            "tx_queue_data0_cwmax": "3", "tx_queue_data0_burst": "1.8"})
        self.assertIn("# tx_queue_data0_aifs=7\n", new)       # comments untouched
        self.assertIn("wmm_enabled=1\n", new)
        self.assertEqual(edca.rewrite_config(new, vo), new)   # idempotent
        lines = edca.hostapd_lines(vo, ["c"])
        self.assertEqual(lines[0], "# c")
        self.assertIn("tx_queue_data0_burst=1.8", lines)


class FakeTc(tcfilter.Runner):
    """Enough of ip/tc (text output as iproute2 6.1 prints it) to exercise
    apply/remove, with failure injection."""

    def __init__(self, root=True, fail_filter_at=None, clsact=False, filters=None):
        self.root = root
        self.fail_at = fail_filter_at
        self.links = {"wlan0": 7}
        self.clsact = clsact
        self.egress = copy.deepcopy(filters or [])     # (proto, pref, kind, pkts)
        self.adds = 0
        self.log = []
        self.root_qdisc = "noqueue 0:"
        self.fail_root = False

    def is_root(self):
        return self.root

    def netns_id(self):
        return 4026531840

    def qdisc_text(self):
        t = f"qdisc {self.root_qdisc} root refcnt 2 \n"
        if self.clsact:
            t += "qdisc clsact ffff: parent ffff:fff1 \n"
        return t

    def filter_text(self, stats):
        out = []
        seen = {}
        for proto, pref, kind, pk in self.egress:
            if (pref, proto) not in seen:
                seen[(pref, proto)] = 0x800
                out.append(f"filter protocol {proto} pref {pref} {kind} chain 0 ")
                if kind == "u32":
                    out.append(f"filter protocol {proto} pref {pref} u32 chain 0 "
                               f"fh 800: ht divisor 1 ")
            h = seen[(pref, proto)]
            seen[(pref, proto)] += 1
            if kind == "u32":
                out.append(f"filter protocol {proto} pref {pref} u32 chain 0 "
                           f"fh 800::{h:x} order {h} key ht 800 bkt 0 not_in_hw ")
                out.append("  match 00450000/00ff0000 at 0")
                out.append("\taction order 1: skbedit  priority :106 continue")
                out.append("\t index 1 ref 1 bind 1" + (" installed 3 sec" if stats else ""))
                if stats:
                    out.append("\tAction statistics:")
                    out.append(f"\tSent {66 * pk} bytes {pk} pkt (dropped 0, "
                               f"overlimits 0 requeues 0) ")
                out.append("")
        return "\n".join(out) + ("\n" if out else "")

    def run(self, argv):
        self.log.append(argv)
        if argv[:2] == ["ip", "-j"]:
            dev = argv[-1]
            if dev in self.links:
                return 0, json.dumps([{"ifindex": self.links[dev], "ifname": dev}]), ""
            return 1, "", f'Device "{dev}" does not exist.'
        a = argv[1:]
        stats = a[0] == "-s"
        if stats:
            a = a[1:]
        if a[:2] == ["qdisc", "show"]:
            return 0, self.qdisc_text(), ""
        if a[:2] == ["filter", "show"]:
            if not self.clsact:
                return 2, "", "Error: Parent Qdisc doesn't exists."
            return 0, self.filter_text(stats) if a[-1] == "egress" else "", ""
        if a[:2] == ["qdisc", "replace"] and a[3:5] == ["wlan0", "root"]:
            if self.fail_root:
                return 2, "", "Error: Specified qdisc kind is unknown."
            self.root_qdisc = a[5] + " 8001:"
            return 0, "", ""
        if a[:2] == ["qdisc", "del"] and a[-1] == "root":
            self.root_qdisc = "noqueue 0:"
            return 0, "", ""
        if a[:2] == ["qdisc", "add"]:
            if self.clsact:
                return 2, "", "Error: Exclusivity flag on, cannot modify."
            self.clsact = True
            return 0, "", ""
        if a[:2] == ["qdisc", "del"]:
            if not self.clsact:
                return 2, "", "Error: Invalid handle."
            self.clsact = False
            self.egress = []
            return 0, "", ""
        if a[:2] == ["filter", "add"]:
            self.adds += 1
            if self.fail_at is not None and self.adds == self.fail_at:
                return 2, "", "Error: Failed to load TC action module."
            if not self.clsact:
                return 2, "", "Error: Parent Qdisc doesn't exists."
            pref = int(a[a.index("prio") + 1])
            proto = a[a.index("protocol") + 1]
            self.egress.append((proto, pref, "u32", pref))
            return 0, "", ""
        if a[:2] == ["filter", "del"]:
            pref = int(a[a.index("prio") + 1])
            n = len(self.egress)
            self.egress = [f for f in self.egress if f[1] != pref]
            return (0, "", "") if len(self.egress) != n else (2, "", "Error: not found")
        return 99, "", "unexpected " + shlex.join(argv)

    def tc_state(self):
        return self.qdisc_text() + self.filter_text(False)


class ApplyRemove(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.sd = os.path.join(self.tmp.name, "state")
        self.conf = os.path.join(self.tmp.name, "hostapd.conf")
        self.orig = "interface=wlan0\nwmm_enabled=1\ntx_queue_data0_cwmin=3\n"
        with open(self.conf, "w") as f:
            f.write(self.orig)
        self.vo = edca.vo_params(make_phy("b"), 4)

    def tearDown(self):
        self.tmp.cleanup()

    def conf_text(self):
        with open(self.conf) as f:
            return f.read()

    def test_apply_status_remove_restores(self):
        for pre in (False, True):
            r = FakeTc(clsact=pre, filters=[("all", 100, "basic", 0)] if pre else None)
            before = r.tc_state()
            tcfilter.apply(r, "wlan0", 16, self.sd, self.conf, self.vo, {"n_star": 4})
            self.assertEqual(len([f for f in r.egress if f[2] == "u32"]), 22)
            self.assertEqual(edca.read_values(self.conf_text())["tx_queue_data0_cwmin"], "1")
            ok, lines = tcfilter.status(r, "wlan0", self.sd)
            self.assertTrue(ok)
            txt = "\n".join(lines)
            self.assertIn("protocol ip: 11 u32 keys", txt)
            self.assertIn(f"{11 * 16} packets", txt)          # fake counters summed
            with self.assertRaises(TapError):                  # twice: refused
                tcfilter.apply(r, "wlan0", 16, self.sd)
            msgs = tcfilter.remove(r, "wlan0", self.sd)
            self.assertEqual(r.tc_state(), before, pre)
            self.assertEqual(self.conf_text(), self.orig)
            self.assertIn("wlan0: tc state identical to before apply", msgs)
            self.assertFalse(os.listdir(self.sd))
            self.assertFalse(tcfilter.status(r, "wlan0", self.sd)[0])

    def test_release_adds_and_removes_the_root(self):
        r = FakeTc()
        before = r.tc_state()
        st = tcfilter.apply(r, "wlan0", 16, self.sd, release=2, quantum_ms=30)
        self.assertTrue(st["added_root"])
        self.assertIn(["tc", "qdisc", "replace", "dev", "wlan0", "root", "ebdp",
                       "ackprio", "release", "2", "quantum", "30ms"], r.log)
        self.assertIn("qdisc ebdp", r.tc_state())
        ok, lines = tcfilter.status(r, "wlan0", self.sd)
        self.assertIn("root ebdp releasing 2 stations' ACKs", "\n".join(lines))
        msgs = tcfilter.remove(r, "wlan0", self.sd)
        self.assertEqual(r.tc_state(), before)
        self.assertIn("wlan0: tc state identical to before apply", msgs)
        # over another root: refused, nothing touched
        r = FakeTc()
        r.root_qdisc = "fq_codel 1:"
        before = r.tc_state()
        with self.assertRaises(TapError) as cm:
            tcfilter.apply(r, "wlan0", 16, self.sd, release=2)
        self.assertIn("only the default noqueue", str(cm.exception))
        self.assertEqual(r.tc_state(), before)
        # the qdisc refused (no sch_ebdp): everything rolled back
        r = FakeTc()
        r.fail_root = True
        before = r.tc_state()
        with self.assertRaises(TapError) as cm:
            tcfilter.apply(r, "wlan0", 16, self.sd, self.conf, self.vo, release=2)
        self.assertIn("rolled back", str(cm.exception))
        self.assertEqual(r.tc_state(), before)
        self.assertEqual(self.conf_text(), self.orig)

    def test_failure_rolls_back(self):
        for at in (1, 7, 12, 22):
            r = FakeTc(fail_filter_at=at)
            before = r.tc_state()
            with self.assertRaises(TapError) as cm:
                tcfilter.apply(r, "wlan0", 16, self.sd, self.conf, self.vo)
            self.assertIn("rolled back", str(cm.exception))
            self.assertEqual(r.tc_state(), before)
            self.assertEqual(self.conf_text(), self.orig)
            self.assertFalse(os.path.exists(self.sd) and os.listdir(self.sd))

    def test_bad_input_touches_nothing(self):
        cases = [(FakeTc(root=False), "wlan0", 16, None, "root"),
                 (FakeTc(), "nosuch0", 16, None, "no interface"),
                 (FakeTc(), "wlan0", 0, None, "prio"),
                 (FakeTc(clsact=True, filters=[("ip", 17, "u32", 0)]),
                  "wlan0", 16, None, "already in use"),
                 (FakeTc(), "wlan0", 16, "/nonexistent/hostapd.conf", "cannot read")]
        for r, dev, prio, conf, msg in cases:
            before = r.tc_state()
            with self.assertRaises(TapError) as cm:
                tcfilter.apply(r, dev, prio, self.sd, conf, self.vo)
            self.assertIn(msg, str(cm.exception))
            self.assertEqual(r.tc_state(), before)
            self.assertFalse([c for c in r.log if "add" in c])

    def test_conf_edited_after_apply(self):
        r = FakeTc()
        tcfilter.apply(r, "wlan0", 16, self.sd, self.conf, self.vo)
        with open(self.conf, "a") as f:
            f.write("ssid=later\n")
        msgs = tcfilter.remove(r, "wlan0", self.sd)
        self.assertTrue(any("edited after apply" in m for m in msgs))
        self.assertEqual(edca.read_values(self.conf_text()),
                         {"tx_queue_data0_cwmin": "3"})
        self.assertIn("ssid=later\n", self.conf_text())

    def test_parse_real_tc_output(self):
        # iproute2 6.1 'tc -s filter show' text (u32 with actions)
        text = (
            "filter protocol ip pref 16 u32 chain 0 \n"
            "filter protocol ip pref 16 u32 chain 0 fh 800: ht divisor 1 \n"
            "filter protocol ip pref 16 u32 chain 0 fh 800::800 order 2048 key ht "
            "800 bkt 0 terminal flowid not_in_hw \n"
            "  match 45000028/ff00ffff at 0\n"
            "\taction order 1: mirred (Egress Mirror to device d1) continue\n"
            "\tindex 1 ref 1 bind 1 installed 0 sec used 0 sec\n"
            "\tAction statistics:\n"
            "\tSent 120 bytes 3 pkt (dropped 0, overlimits 0 requeues 0) \n"
            "\tbacklog 0b 0p requeues 0\n\n"
            "filter protocol ip pref 16 u32 chain 0 fh 800::801 order 2049 key ht "
            "800 bkt 0 terminal flowid not_in_hw \n"
            "\tSent 80 bytes 2 pkt (dropped 0, overlimits 0 requeues 0) \n"
            "filter protocol ipv6 pref 17 u32 chain 0 \n"
            "filter protocol ipv6 pref 17 u32 chain 0 fh 801: ht divisor 1 \n"
            "filter protocol ipv6 pref 17 u32 chain 0 fh 801::800 order 2048 key "
            "ht 801 bkt 0 terminal flowid not_in_hw \n"
            "filter protocol all pref 200 basic chain 0 \n"
            "filter protocol all pref 200 basic chain 0 handle 0x1 \n"
            "\tSent 7 bytes 1 pkt (dropped 0, overlimits 0 requeues 0) \n")
        f = {(x["pref"], x["protocol"]): x for x in tcfilter.parse_filters(text)}
        self.assertEqual((f[16, "ip"]["keys"], f[16, "ip"]["packets"],
                          f[16, "ip"]["bytes"]), (2, 5, 200))
        self.assertEqual(f[17, "ipv6"]["keys"], 1)
        self.assertEqual((f[200, "all"]["keys"], f[200, "all"]["packets"]), (1, 1))

    def test_remove_after_interface_vanished(self):
        r = FakeTc()
        tcfilter.apply(r, "wlan0", 16, self.sd, self.conf, self.vo)
        del r.links["wlan0"]
        msgs = tcfilter.remove(r, "wlan0", self.sd)
        self.assertTrue(any("no longer exists" in m for m in msgs))
        self.assertEqual(self.conf_text(), self.orig)
        self.assertFalse(os.listdir(self.sd))

    def test_remove_without_apply(self):
        with self.assertRaises(TapError):
            tcfilter.remove(FakeTc(), "wlan0", self.sd)
