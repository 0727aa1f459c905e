# SPDX-License-Identifier: GPL-2.0
"""tc rules that send pure TCP ACKs to AC_VO, with exact undo.

Where the priority has to be set: mac80211 picks the access category in
__ieee80211_subif_start_xmit (ieee80211_select_queue ->
cfg80211_classify8021d), which overwrites skb->priority from the DSCP
unless skb->priority is 256..263, the "explicit 802.1d priority" range.
clsact egress runs earlier, in __dev_queue_xmit, so an skbedit priority of
0x106 (256 + 6: user priority 6, TID 6, AC_VO) set there survives
classification. A plain value 6 would be overwritten from the DSCP.

What is matched (u32, one key set per TCP data offset):
  IPv4: version 4 and IHL 5 (no IP options), not a fragment
        (MF = 0, offset = 0), protocol 6, total length = 20 + 4 * doff,
        TCP data offset = doff, flags & (ACK|RST|SYN|FIN) == ACK.
  IPv6: version 6, next header 6 (no extension headers),
        payload length = 4 * doff, TCP data offset = doff, same flags.
  for doff = 5 .. 15 (11 keys per family).
The payload length is IP length minus IP header minus TCP header; u32 has
no arithmetic, so the pair (IP length, doff) is enumerated instead, which
is exact for the headers listed. Not matched (left at their normal
priority, never misclassified): IPv4 with options, IPv6 with extension
headers, VLAN- or otherwise encapsulated packets. PSH, URG, ECE and CWR
are ignored, so a pure ACK carrying ECN echo is still a pure ACK.

flower is not used: it matches tcp_flags but has no key for the IP total
or payload length, and almost every data segment carries ACK.

Every filter ends with "continue", so filters the user has at higher
preference numbers still run after ours.
"""

import json
import os
import re
import subprocess

from . import TapError
from . import edca

DEFAULT_PRIO = 16           # ours are prio P (IPv4) and P + 1 (IPv6)
SKB_PRIO_AC_VO = 0x106      # 256 + 6: explicit 802.1d priority 6
SKB_PRIO_TC = "0:106"       # as tc's skbedit syntax writes it (hex minor)
DOFF_RANGE = range(5, 16)
TCP_FLAGS_MASK = 0x17       # ACK | RST | SYN | FIN
TCP_FLAG_ACK = 0x10
STATE_DIR = "/run/airqueue-tap"


def filter_commands(iface, prio=DEFAULT_PRIO):
    """tc argument vectors (without 'tc') that install the classifier."""
    cmds = []
    act = ["action", "skbedit", "priority", SKB_PRIO_TC, "continue"]
    for d in DOFF_RANGE:
        cmds.append(["filter", "add", "dev", iface, "egress", "protocol", "ip",
                     "prio", str(prio), "u32",
                     "match", "u8", "0x45", "0xff", "at", "0",
                     "match", "u16", str(20 + 4 * d), "0xffff", "at", "2",
                     "match", "u16", "0x0", "0x3fff", "at", "6",
                     "match", "u8", "0x6", "0xff", "at", "9",
                     "match", "u8", hex(d << 4), "0xf0", "at", "32",
                     "match", "u8", hex(TCP_FLAG_ACK), hex(TCP_FLAGS_MASK),
                     "at", "33"] + act)
    for d in DOFF_RANGE:
        cmds.append(["filter", "add", "dev", iface, "egress", "protocol", "ipv6",
                     "prio", str(prio + 1), "u32",
                     "match", "u8", "0x60", "0xf0", "at", "0",
                     "match", "u16", str(4 * d), "0xffff", "at", "4",
                     "match", "u8", "0x6", "0xff", "at", "6",
                     "match", "u8", hex(d << 4), "0xf0", "at", "52",
                     "match", "u8", hex(TCP_FLAG_ACK), hex(TCP_FLAGS_MASK),
                     "at", "53"] + act)
    return cmds


def is_pure_ack(pkt):
    """Reference predicate over raw IP bytes: what the filters should match.

    Used by the host tests to check the u32 keys against packets.
    """
    if len(pkt) < 1:
        return False
    v = pkt[0] >> 4
    if v == 4:
        ihl = (pkt[0] & 0xf) * 4
        if ihl != 20 or len(pkt) < 40:
            return False
        tot = int.from_bytes(pkt[2:4], "big")
        if int.from_bytes(pkt[6:8], "big") & 0x3fff or pkt[9] != 6:
            return False
        tcp = pkt[20:]
        payload = tot - ihl - (tcp[12] >> 4) * 4
    elif v == 6:
        if len(pkt) < 60 or pkt[6] != 6:
            return False
        tcp = pkt[40:]
        payload = int.from_bytes(pkt[4:6], "big") - (tcp[12] >> 4) * 4
    else:
        return False
    doff = tcp[12] >> 4
    return doff >= 5 and payload == 0 and tcp[13] & TCP_FLAGS_MASK == TCP_FLAG_ACK


def u32_matches(cmd, pkt):
    """Evaluate the 'match uN V M at OFF' keys of one command on pkt."""
    i = 0
    while i < len(cmd):
        if cmd[i] == "match":
            width = {"u8": 1, "u16": 2, "u32": 4}[cmd[i + 1]]
            val, mask, off = int(cmd[i + 2], 0), int(cmd[i + 3], 0), int(cmd[i + 5])
            if off + width > len(pkt):
                return False
            if int.from_bytes(pkt[off:off + width], "big") & mask != val & mask:
                return False
            i += 6
        else:
            i += 1
    return True


def protocol_of(cmd):
    return cmd[cmd.index("protocol") + 1]


class Runner:
    """Runs tc/ip; tests substitute a fake."""

    def run(self, argv):
        try:
            p = subprocess.run(argv, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise TapError(f"{argv[0]} not found: install iproute2") from None
        return p.returncode, p.stdout, p.stderr

    def is_root(self):
        return os.geteuid() == 0

    def netns_id(self):
        try:
            return os.stat("/proc/self/ns/net").st_ino
        except OSError:
            return 0


def _tc(r, args, what):
    rc, out, err = r.run(["tc"] + args)
    if rc != 0:
        raise TapError(f"{what} failed: tc {' '.join(args)}: {err.strip() or out.strip()}")
    return out


def _json(text):
    text = text.strip()
    if not text:
        return []
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return []


# tc's JSON output is not used for filters: iproute2 6.1 prints u32 and
# basic filters with -j as invalid JSON (plain-text fragments inside).
FILTER_RE = re.compile(r"^filter (?:parent \S+ )?protocol (\S+) pref (\d+) (\S+)")
SENT_RE = re.compile(r"^\s*Sent (\d+) bytes (\d+) pkt")


def parse_filters(text):
    """Filter blocks of 'tc [-s] filter show' text.

    Returns [{"protocol", "pref", "kind", "keys", "packets", "bytes",
    "text"}], one entry per (pref, protocol); keys counts u32 key nodes
    ("fh ...::..."), packets/bytes sum the action statistics.
    """
    out = {}
    cur = None
    for line in text.splitlines():
        m = FILTER_RE.match(line)
        if m:
            k = (int(m.group(2)), m.group(1))
            cur = out.setdefault(k, {"protocol": m.group(1), "pref": k[0],
                                     "kind": m.group(3), "keys": 0,
                                     "packets": 0, "bytes": 0, "text": []})
            if re.search(r" fh [0-9a-f]+:[0-9a-f]*:[0-9a-f]+ ", line + " ") or \
               (cur["kind"] != "u32" and " handle " in line):
                cur["keys"] += 1
        m = SENT_RE.match(line)
        if m and cur is not None:
            cur["bytes"] += int(m.group(1))
            cur["packets"] += int(m.group(2))
        if cur is not None:
            cur["text"].append(line)
    return list(out.values())


def snapshot(r, iface):
    """The tc state we may touch: qdiscs and egress/ingress filters, as
    tc prints them without statistics (so snapshots compare config only)."""
    q = _tc(r, ["qdisc", "show", "dev", iface], "reading qdiscs")
    kinds = [line.split()[1] for line in q.splitlines()
             if line.startswith("qdisc ") and len(line.split()) > 1]
    snap = {"qdiscs": q, "clsact": "clsact" in kinds,
            "ingress_qdisc": "ingress" in kinds, "egress": "", "ingress": ""}
    if snap["clsact"]:
        for d in ("egress", "ingress"):
            snap[d] = _tc(r, ["filter", "show", "dev", iface, d], "reading filters")
    return snap


def _prios_in_use(text):
    return {f["pref"] for f in parse_filters(text)}


def state_path(state_dir, r, iface):
    return os.path.join(state_dir, f"{r.netns_id()}-{iface}.json")


def load_state(state_dir, r, iface):
    path = state_path(state_dir, r, iface)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), path
    except FileNotFoundError:
        return None, path
    except (OSError, json.JSONDecodeError) as e:
        raise TapError(f"cannot read state {path}: {e}") from None


def check_iface(r, iface):
    if not iface or "/" in iface or len(iface) > 15:
        raise TapError(f"invalid interface name '{iface}'")
    rc, out, err = r.run(["ip", "-j", "link", "show", "dev", iface])
    if rc != 0:
        raise TapError(f"no interface '{iface}' in this network namespace")
    links = _json(out)
    return links[0].get("ifindex") if links else None


def _root_kind(qdiscs):
    """The kind of the root qdisc in 'tc qdisc show' text, or None."""
    for line in qdiscs.splitlines():
        w = line.split()
        if len(w) > 3 and w[0] == "qdisc" and " root " in f" {line} ":
            return w[1]
    return None


def release_command(iface, release, quantum_ms):
    """tc arguments of the root qdisc that releases the ACKs of RELEASE
    stations at a time (sch_ebdp, Documentation/networking/sch_ebdp.rst)."""
    return ["qdisc", "replace", "dev", iface, "root", "ebdp", "ackprio",
            "release", str(release), "quantum", f"{quantum_ms}ms"]


def apply(r, iface, prio=DEFAULT_PRIO, state_dir=STATE_DIR, hostapd_conf=None,
          vo=None, info=None, release=None, quantum_ms=30):
    """Install the classifier (and hostapd lines, and with RELEASE the root
    qdisc releasing that many stations' ACKs at a time); all or nothing."""
    if not r.is_root():
        raise TapError("apply needs root (CAP_NET_ADMIN): run as root")
    if not 1 <= prio <= 0xfffe:
        raise TapError(f"prio {prio} outside 1..65534")
    ifindex = check_iface(r, iface)
    state, spath = load_state(state_dir, r, iface)
    if state is not None:
        raise TapError(f"TAP already applied on {iface} (state {spath}); "
                       f"run 'tap-setup remove {iface}' first")
    before = snapshot(r, iface)
    if before["ingress_qdisc"]:
        raise TapError(f"{iface} has an 'ingress' qdisc; clsact cannot coexist "
                       f"with it (tc replaces ingress by clsact)")
    if release is not None:
        if not 1 <= release <= 16:
            raise TapError(f"--release {release} outside 1..16")
        if not 1 <= quantum_ms <= 10000:
            raise TapError(f"--quantum {quantum_ms} ms outside 1..10000")
        kind = _root_kind(before["qdiscs"])
        if kind not in (None, "noqueue"):
            raise TapError(f"{iface} has a root qdisc '{kind}'; --release replaces "
                           f"only the default noqueue: delete it first")
    used = _prios_in_use(before["egress"])
    if prio in used or prio + 1 in used:
        raise TapError(f"egress filter prio {prio} or {prio + 1} already in use on "
                       f"{iface}; choose another with --prio")
    hconf = None
    if hostapd_conf:
        if vo is None:
            raise TapError("internal: hostapd parameters missing")
        try:
            with open(hostapd_conf, encoding="utf-8") as f:
                orig = f.read()
            mode = os.stat(hostapd_conf).st_mode & 0o7777
        except OSError as e:
            raise TapError(f"cannot read hostapd config {hostapd_conf}: {e.strerror}") \
                from None
        if not os.access(hostapd_conf, os.W_OK) or \
           not os.access(os.path.dirname(os.path.abspath(hostapd_conf)), os.W_OK):
            raise TapError(f"hostapd config {hostapd_conf} is not writable")
        hconf = {"path": os.path.abspath(hostapd_conf), "original": orig,
                 "mode": mode, "written": edca.rewrite_config(orig, vo),
                 "original_values": edca.read_values(orig)}
    try:
        os.makedirs(state_dir, exist_ok=True)
    except OSError as e:
        raise TapError(f"cannot create state directory {state_dir}: {e.strerror}") \
            from None

    added_clsact = False
    added_root = False
    wrote_conf = False
    try:
        if not before["clsact"]:
            _tc(r, ["qdisc", "add", "dev", iface, "clsact"], "adding clsact")
            added_clsact = True
        for cmd in filter_commands(iface, prio):
            _tc(r, cmd, "adding filter")
        if release is not None:
            _tc(r, release_command(iface, release, quantum_ms),
                "adding the releasing root qdisc (sch_ebdp and q_ebdp.so installed?)")
            added_root = True
        if hconf:
            edca.write_atomic(hconf["path"], hconf["written"], hconf["mode"])
            wrote_conf = True
        state = {"version": 1, "iface": iface, "ifindex": ifindex,
                 "netns": r.netns_id(), "prio": prio, "added_clsact": added_clsact,
                 "added_root": added_root, "release": release,
                 "before": before, "hostapd": hconf, "info": info or {}}
        edca.write_atomic(spath, json.dumps(state, indent=1) + "\n", 0o600)
    except (TapError, OSError) as e:
        if added_root:
            r.run(["tc", "qdisc", "del", "dev", iface, "root"])
        _rollback(r, iface, prio, added_clsact)
        if wrote_conf:
            try:
                edca.write_atomic(hconf["path"], hconf["original"], hconf["mode"])
            except OSError:
                pass
        msg = str(e) if isinstance(e, TapError) else f"{e.filename}: {e.strerror}"
        raise TapError(f"{msg}; rolled back, {iface} unchanged") from None
    return state


def _rollback(r, iface, prio, added_clsact):
    for proto, p in (("ip", prio), ("ipv6", prio + 1)):
        r.run(["tc", "filter", "del", "dev", iface, "egress", "protocol", proto,
               "prio", str(p)])
    if added_clsact:
        r.run(["tc", "qdisc", "del", "dev", iface, "clsact"])


def remove(r, iface, state_dir=STATE_DIR):
    """Undo apply. Returns a list of messages (warnings about drift)."""
    if not r.is_root():
        raise TapError("remove needs root (CAP_NET_ADMIN): run as root")
    state, spath = load_state(state_dir, r, iface)
    if state is None:
        raise TapError(f"TAP is not applied on {iface} (no state {spath})")
    msgs = []
    try:
        ifindex = check_iface(r, iface)
    except TapError:
        # The interface is gone, and its tc state with it.
        msgs.append(f"warning: {iface} no longer exists; only the hostapd "
                    f"config (if any) restored")
        if state.get("hostapd"):
            msgs += _restore_conf(state["hostapd"])
        os.unlink(spath)
        return msgs
    if state.get("ifindex") is not None and ifindex != state["ifindex"]:
        msgs.append(f"warning: {iface} was re-created since apply "
                    f"(ifindex {state['ifindex']} -> {ifindex}); its tc state is gone")
    prio = state["prio"]
    if state.get("added_root"):
        kind = _root_kind(snapshot(r, iface)["qdiscs"])
        if kind == "ebdp":
            _tc(r, ["qdisc", "del", "dev", iface, "root"], "deleting the root qdisc")
        else:
            msgs.append(f"warning: the root qdisc of {iface} is now '{kind}', not "
                        f"the ebdp apply added; left in place")
    now = snapshot(r, iface)
    if now["clsact"]:
        for proto, p in (("ip", prio), ("ipv6", prio + 1)):
            if p in _prios_in_use(now["egress"]):
                _tc(r, ["filter", "del", "dev", iface, "egress", "protocol", proto,
                        "prio", str(p)], "deleting filter")
        if state["added_clsact"]:
            left = snapshot(r, iface)
            if left["egress"] or left["ingress"]:
                msgs.append(f"warning: clsact on {iface} now holds filters added "
                            f"after apply; left in place")
            else:
                _tc(r, ["qdisc", "del", "dev", iface, "clsact"], "deleting clsact")
    h = state.get("hostapd")
    if h:
        msgs += _restore_conf(h)
    after = snapshot(r, iface)
    if after != state["before"]:
        msgs.append(f"warning: tc state of {iface} differs from before apply "
                    f"(changed by something else meanwhile)")
    else:
        msgs.append(f"{iface}: tc state identical to before apply")
    os.unlink(spath)
    return msgs


def _restore_conf(h):
    path = h["path"]
    try:
        with open(path, encoding="utf-8") as f:
            cur = f.read()
    except OSError as e:
        return [f"warning: hostapd config {path}: {e.strerror}; not restored"]
    if cur == h["written"]:
        edca.write_atomic(path, h["original"], h["mode"])
        return [f"{path}: restored byte for byte"]
    # Edited since apply: put back only the keys we changed.
    orig = h["original_values"]
    out = []
    for line in cur.splitlines(keepends=True):
        k = edca._key_of(line)
        if line.startswith("# airqueue tap-setup"):
            continue
        if k and k.startswith(edca.VO_QUEUE + "_"):
            if k in orig:
                out.append(f"{k}={orig[k]}\n")
            continue
        out.append(line)
    edca.write_atomic(path, "".join(out), h["mode"])
    return [f"warning: {path} was edited after apply; restored the "
            f"{edca.VO_QUEUE}_* keys only"]


def counters(r, iface, prio):
    """Packets/bytes through our skbedit actions and key count, per family."""
    out = _tc(r, ["-s", "filter", "show", "dev", iface, "egress"],
              "reading filter counters")
    res = {"ip": [0, 0, 0], "ipv6": [0, 0, 0]}     # packets, bytes, keys
    for f in parse_filters(out):
        fam = {prio: "ip", prio + 1: "ipv6"}.get(f["pref"])
        if fam is not None and f["protocol"] == fam:
            res[fam] = [f["packets"], f["bytes"], f["keys"]]
    return res


def status(r, iface, state_dir=STATE_DIR, verbose=False):
    """(applied, lines) describing the installed state and counters."""
    check_iface(r, iface)
    state, spath = load_state(state_dir, r, iface)
    lines = []
    if state is None:
        lines.append(f"{iface}: TAP not applied")
        return False, lines
    prio = state["prio"]
    info = state.get("info", {})
    lines.append(f"{iface}: TAP applied (state {spath})")
    if info:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in info.items()))
    lines.append(f"  clsact added by tap-setup: {'yes' if state['added_clsact'] else 'no'}")
    if state.get("added_root"):
        lines.append(f"  root ebdp releasing {state.get('release')} stations' ACKs "
                     f"at a time, added by tap-setup")
    c = counters(r, iface, prio)
    for fam, p in (("ip", prio), ("ipv6", prio + 1)):
        pk, by, n = c[fam]
        lines.append(f"  egress prio {p} protocol {fam}: {n} u32 keys, "
                     f"pure ACKs -> skb priority {SKB_PRIO_AC_VO:#x} (AC_VO): "
                     f"{pk} packets, {by} bytes")
        if n != len(DOFF_RANGE):
            lines.append(f"  warning: expected {len(DOFF_RANGE)} filters for {fam}, "
                         f"found {n}")
    h = state.get("hostapd")
    if h:
        lines.append(f"  hostapd config {h['path']}: "
                     + ", ".join(f"{k}={v}" for k, v in
                                 edca.read_values(h["written"]).items()))
    if verbose:
        lines.append(_tc(r, ["-s", "filter", "show", "dev", iface, "egress"],
                         "reading filters").rstrip())
    return True, lines
