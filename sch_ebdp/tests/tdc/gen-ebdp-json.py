#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate ebdp.json, the tc-testing (tdc.py) cases of sch_ebdp.

Run after changing a default, an option or an extack message; the ids are
derived from the case names so they stay stable.  10-tdc.sh in
../vm/ runs the result with the kernel's own tdc.py.
"""
import hashlib
import json
import os
cases = []
def cid(name):
    return hashlib.sha1(name.encode()).hexdigest()[:4]
DEF = "tmax 200ms c 5 qmax 400p weight 0.015625 mode ebdp noackprio acklimit 64p interval 1s qmin 5p alt_a 10 alt_b 1"
def show(fields):
    return "qdisc ebdp 1: root refcnt [0-9]+ " + fields
def case(name, cmd, exp, verify, pattern, count="1", setup=None, teardown=None, extra=None):
    c = {"id": cid(name), "name": name, "category": ["qdisc", "ebdp"],
         "plugins": {"requires": "nsPlugin"},
         "setup": setup if setup is not None else [],
         "cmdUnderTest": cmd, "expExitCode": exp, "verifyCmd": verify,
         "matchPattern": pattern, "matchCount": count,
         "teardown": teardown if teardown is not None else ["$TC qdisc del dev $DUMMY handle 1: root"]}
    if extra: c.update(extra)
    cases.append(c)
ADD = "$TC qdisc add dev $DUMMY handle 1: root ebdp"
SHOW = "$TC qdisc show dev $DUMMY"
case("Create EBDP with default setting", ADD, "0", SHOW, show(DEF))
def opt(o, shown_from, shown_to, desc=None):
    case("Create EBDP with %s" % (desc or o), ADD + " " + o, "0", SHOW,
         show(DEF.replace(shown_from, shown_to)))
opt("tmax 50ms", "tmax 200ms", "tmax 50ms")
opt("tmax 10s", "tmax 200ms", "tmax 10s", "tmax at its ceiling 10s")
opt("c 0", "c 5", "c 0")
opt("c 12", "c 5", "c 12")
opt("qmax 1000", "qmax 400p", "qmax 1000p")
opt("qmax 65535", "qmax 400p", "qmax 65535p", "qmax at its ceiling 65535")
opt("weight 1/1024", "weight 0.015625", "weight 0.000976562")
opt("weight 0.25", "weight 0.015625", "weight 0.25")
opt("weight 1", "weight 0.015625", "weight 1", "weight 1 (no smoothing)")
opt("mode alt", "mode ebdp", "mode alt")
opt("mode astar", "mode ebdp", "mode astar")
opt("mode ebdp", "mode ebdp", "mode ebdp", "explicit mode ebdp")
opt("ackprio", "noackprio", "ackprio")
opt("noackprio", "noackprio", "noackprio", "explicit noackprio")
opt("acklimit 16", "acklimit 64p", "acklimit 16p")
opt("interval 100ms", "interval 1s", "interval 100ms")
opt("qmin 2", "qmin 5p", "qmin 2p")
opt("alt_a 20", "alt_a 10", "alt_a 20")
opt("alt_b 3", "alt_b 1", "alt_b 3")
# TAP's release: shown in text only when on; acklimit 2048 unless given
REL = DEF.replace("noackprio acklimit 64p", "ackprio acklimit 2048p")
opt("ackprio release 2", DEF, REL + " release 2 quantum 100ms", "ackprio release 2")
opt("ackprio release 3 quantum 20ms acklimit 100", DEF,
    DEF.replace("noackprio acklimit 64p", "ackprio acklimit 100p") + " release 3 quantum 20ms",
    "release, quantum and acklimit")
opt("ackprio release 16 quantum 10s", DEF, REL + " release 16 quantum 10s", "release and quantum at their ceilings")
opt("ackprio release 1 quantum 1ms", DEF, REL + " release 1 quantum 1ms", "release and quantum at their floors")
case("Change EBDP release off, ACKs still first", "$TC qdisc change dev $DUMMY handle 1: root ebdp release 0",
     "0", SHOW, show(REL) + "(?!.*release)", setup=[ADD + " ackprio release 2"])
case("Change EBDP release on, acklimit kept as set", "$TC qdisc change dev $DUMMY handle 1: root ebdp release 4",
     "0", SHOW, show(DEF.replace("noackprio acklimit 64p", "ackprio acklimit 32p") + " release 4 quantum 100ms"),
     setup=[ADD + " ackprio acklimit 32"])
case("Reject EBDP noackprio while release is on", "$TC qdisc change dev $DUMMY handle 1: root ebdp noackprio",
     "2", "sh -c '$TC qdisc change dev $DUMMY handle 1: root ebdp noackprio 2>&1; $TC qdisc show dev $DUMMY'",
     r"Error: release holds ACKs: it needs ackprio\..*" + show(REL + " release 2 quantum 100ms"),
     setup=[ADD + " ackprio release 2"])
case("Reject EBDP release without ackprio on create", ADD + " release 2", "2",
     "sh -c '%s release 2 2>&1; $TC qdisc show dev $DUMMY'" % ADD,
     r"Error: release holds ACKs: it needs ackprio\.(?!.*qdisc ebdp)", teardown=[])
case("Create EBDP with every option", ADD + " tmax 100ms c 3 qmax 200 weight 1/8 mode astar ackprio acklimit 32 interval 500ms qmin 4 alt_a 15 alt_b 2",
     "0", SHOW, show("tmax 100ms c 3 qmax 200p weight 0.125 mode astar ackprio acklimit 32p interval 500ms qmin 4p alt_a 15 alt_b 2"))
case("Create EBDP with every option at its lower bound",
     ADD + " tmax 1us c 0 qmax 1 weight 1/65536 mode ebdp noackprio acklimit 1 interval 1ms qmin 1 alt_a 0 alt_b 0",
     "0", SHOW, show(r"tmax 1us c 0 qmax 1p weight 1\.52588e-05 mode ebdp noackprio acklimit 1p interval 1ms qmin 1p alt_a 0 alt_b 0"))
case("Create EBDP with every option at its upper bound",
     ADD + " tmax 10s c 65535 qmax 65535 weight 1 mode astar ackprio acklimit 65535 interval 60s qmin 65535 alt_a 100000 alt_b 100000",
     "0", SHOW, show("tmax 10s c 65535 qmax 65535p weight 1 mode astar ackprio acklimit 65535p interval 60s qmin 65535p alt_a 100000 alt_b 100000"))
case("Change EBDP tmax and qmax, other options kept", "$TC qdisc change dev $DUMMY handle 1: root ebdp tmax 100ms qmax 50",
     "0", SHOW, show(DEF.replace("tmax 200ms", "tmax 100ms").replace("qmax 400p", "qmax 50p").replace("mode ebdp noackprio", "mode alt ackprio")),
     setup=[ADD + " mode alt ackprio"])
case("Change EBDP mode and ackprio", "$TC qdisc change dev $DUMMY handle 1: root ebdp mode astar noackprio weight 1/2",
     "0", SHOW, show(DEF.replace("mode ebdp", "mode astar").replace("weight 0.015625", "weight 0.5")),
     setup=[ADD + " ackprio"])
case("Replace EBDP with new options", "$TC qdisc replace dev $DUMMY handle 1: root ebdp c 2 qmin 3",
     "0", SHOW, show(DEF.replace("c 5", "c 2").replace("qmin 5p", "qmin 3p")), setup=[ADD])
case("Replace root pfifo with EBDP", "$TC qdisc replace dev $DUMMY root ebdp tmax 20ms",
     "0", SHOW, "qdisc ebdp [0-9a-f]+: root refcnt [0-9]+ " + DEF.replace("tmax 200ms", "tmax 20ms"),
     setup=["$TC qdisc add dev $DUMMY handle 1: root pfifo"], teardown=["$TC qdisc del dev $DUMMY root"])
case("Delete EBDP", "$TC qdisc del dev $DUMMY handle 1: root", "0", SHOW, "qdisc ebdp", count="0",
     setup=[ADD], teardown=[])
case("Create EBDP as child of tbf", "$TC qdisc add dev $DUMMY parent 1: handle 2: ebdp qmax 100", "0", SHOW,
     "qdisc ebdp 2: parent 1: .*qmax 100p", setup=["$TC qdisc add dev $DUMMY handle 1: root tbf rate 10mbit burst 10k latency 100ms"])
case("Show EBDP statistics", ADD, "0", "$TC -s qdisc show dev $DUMMY",
     "tserv 0ns source none mac80211 (un)?bound limit 400p ebdp_limit 400p alt_limit 400p.*data_qlen 0 ack_qlen 0 ack_packets 0 drops_limit 0 drops_ackq 0 drops_change 0.*samples_mac80211 0 samples_dequeue 0 gso_split 0 data_tserv 0ns.*ack_held 0 release_members 0 release_joins 0 release_unkeyed 0 hold_max 0ns")
case("Show EBDP as JSON", ADD + " mode astar ackprio", "0", "$TC -j qdisc show dev $DUMMY", "", count="0",
     extra={"matchJSON": [{"kind": "ebdp", "handle": "1:", "root": True, "options": {
         "tmax": 200000, "c": 5, "qmax": 400, "weight": 0.015625, "mode": "astar", "ackprio": True,
         "acklimit": 64, "interval": 1000000, "qmin": 5, "alt_a": 10, "alt_b": 1,
         "release": 0, "quantum": 100000}}]})
case("Show EBDP statistics as JSON", ADD, "0", "$TC -s -j qdisc show dev $DUMMY", "", count="0",
     extra={"matchJSON": [{"kind": "ebdp", "handle": "1:", "version": 4, "tserv": 0, "source": "none",
         "limit": 400, "bdp_limit": 400, "alt_limit": 400, "data_qlen": 0, "ack_qlen": 0,
         "drops_limit": 0, "drops_ackq": 0, "drops_change": 0, "ack_packets": 0,
         "samples_mac80211": 0, "samples_dequeue": 0, "gso_split": 0, "data_tserv": 0,
         "ack_held": 0, "release_members": 0, "release_joins": 0, "release_unkeyed": 0,
         "hold_max": 0,
         "qlen": 0, "backlog": 0}]})
# rejected values: extack text from the kernel, qdisc unchanged
def bad(o, msg, rc="2"):
    name = "Reject EBDP %s on change, qdisc unchanged" % o
    case(name, "$TC qdisc change dev $DUMMY handle 1: root ebdp " + o, rc,
         "sh -c '$TC qdisc change dev $DUMMY handle 1: root ebdp %s 2>&1; $TC qdisc show dev $DUMMY'" % o,
         msg + ".*" + show(DEF), setup=[ADD])
K = "Error: "
# Out-of-range values are rejected by the policy (strict parsing) with the
# netlink core's message; it points at the attribute (NLMSGERR_ATTR_OFFS) and
# reports the bounds (NLMSGERR_ATTR_POLICY), which tc does not print.
R = K + r"integer out of range\."
bad("tmax 0", R)
bad("tmax 11s", R)
bad("c 65536", R)
bad("qmax 0", R)
bad("qmax 65536", R)
bad("weight 0", R)
bad("weight 1.5", R)
bad("weight 0.000001", R)
# 13107200: the message that used to name the value took 81 bytes, and
# extack's buffer holds 80 ("truncated extack")
bad("weight 200", R)
bad("acklimit 0", R)
bad("acklimit 65536", R)
bad("interval 500us", R)
bad("interval 61s", R)
bad("qmin 0", R)
bad("qmin 65536", R)
bad("qmin 500", K + r"TCA_EBDP_QMIN \(qmin\) 500 must not exceed TCA_EBDP_QMAX \(qmax\) 400")
bad("qmax 3", K + r"TCA_EBDP_QMIN \(qmin\) 5 must not exceed TCA_EBDP_QMAX \(qmax\) 3")
bad("release 17", R)
bad("quantum 500us", R)
bad("quantum 11s", R)
bad("release 2", r"Error: release holds ACKs: it needs ackprio\.")
bad("alt_a 100001", R)
bad("alt_b 100001", R)
bad("tmax 100ms qmax 0", R)
bad("mode foo", r"Illegal \"mode\": foo \(ebdp, alt or astar\)", rc="1")
bad("c -1", r"Illegal \"c\": -1 \(a non-negative integer\)", rc="1")
bad("weight abc", r"Illegal \"weight\": abc", rc="1")
bad("bogus 1", r"What is \"bogus\"\?", rc="1")
case("Reject EBDP tmax 0 on create, no qdisc added", ADD + " tmax 0", "2",
     "sh -c '%s tmax 0 2>&1; $TC qdisc show dev $DUMMY'" % ADD,
     R + r"(?!.*qdisc ebdp)", teardown=[])
case("Reject EBDP qmin above qmax on create", ADD + " qmax 10 qmin 20", "2",
     "sh -c '%s qmax 10 qmin 20 2>&1; $TC qdisc show dev $DUMMY'" % ADD,
     K + r"TCA_EBDP_QMIN \(qmin\) 20 must not exceed TCA_EBDP_QMAX \(qmax\) 10(?!.*qdisc ebdp)", teardown=[])
ids = [c["id"] for c in cases]
assert len(ids) == len(set(ids)), ids
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ebdp.json")
with open(out, "w") as f:
    json.dump(cases, f, indent=4)
    f.write("\n")
print("%d cases -> %s" % (len(cases), out))
