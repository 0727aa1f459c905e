#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Default `make testbed` scenario (guest side): the hwsim AP / station /
# wired-server topology with today's Linux default on the AP (noqueue root,
# mac80211 fq_codel TXQs), 10 ms wired RTT added by netem on the server link.
# For each direction: idle ping RTT, then a TCP bulk flow (iperf3) with ping
# running beside it (RTT under load).  Writes baseline.json and the raw
# iperf3/ping/tc outputs to $AQ_RESULTS.
#
# Environment: AQ_DURATION (seconds per flow, default 20).
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

dur=${AQ_DURATION:-20}
# Work in the guest's own tmpfs and copy to $AQ_RESULTS (9p) at the end:
# reading back a file just written through the 9p results mount can see it
# empty.
out=/tmp/aq/baseline
mkdir -p "$out"
trap 'cp -a "$out/." "$AQ_RESULTS/"' EXIT
say() { echo "[guest] $(date +%H:%M:%S) $*"; }

say "loading mac80211_hwsim ($(modinfo -n mac80211_hwsim))"
hwsim_load 2 || exit 1
topo_ap_sta_server 1 g || { say "topology failed"; exit 1; }
netem srv eth0 delay 5ms limit 10000
netem ap eth-srv delay 5ms limit 10000
say "associated; wired RTT 10 ms added with netem"

ping_run() { # count interval file
	ip netns exec sta ping -n -c "$1" -i "$2" -W 2 10.9.0.2 >"$3" 2>&1
}
ping_run 20 0.1 "$out/ping-idle.txt"
iperf3_server srv

for dir in down up; do
	flag=
	[ $dir = down ] && flag=-R
	say "TCP $dir for ${dur}s with ping alongside"
	ping_run $((dur * 10 - 20)) 0.1 "$out/ping-$dir.txt" &
	pp=$!
	iperf3_client sta 10.9.0.2 -t "$dur" -i 1 $flag >"$out/iperf3-$dir.json" 2>&1
	wait $pp
	ip netns exec ap tc -s -j qdisc show dev "$AP_IF" >"$out/tc-ap-$dir.json" 2>/dev/null
done

python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
sys.path.insert(0, os.path.join(os.environ["AQ_TOP"], "testbed", "lib"))
from pingstats import pings, pct
res = {"scenario": "baseline", "kernel": os.uname().release,
       "note": "mac80211_hwsim without the medium emulator: no airtime "
               "model, throughput is bound by the CPU of the VM",
       "idle_rtt_ms": {}, "flows": {}}
idle = [r for _, r in pings(f"{out}/ping-idle.txt")]
res["idle_rtt_ms"] = {"median": pct(idle, 50), "p95": pct(idle, 95), "n": len(idle)}
for d in ("down", "up"):
    j = json.load(open(f"{out}/iperf3-{d}.json"))
    rtt = pings(f"{out}/ping-{d}.txt")
    vals = [r for _, r in rtt]
    res["flows"][d] = {
        "mbps": j["end"]["sum_received"]["bits_per_second"] / 1e6,
        "retransmits": j["end"]["sum_sent"].get("retransmits"),
        "interval_mbps": [i["sum"]["bits_per_second"] / 1e6 for i in j["intervals"]],
        "rtt_ms": {"median": pct(vals, 50), "p95": pct(vals, 95),
                   "max": max(vals) if vals else None, "n": len(vals)},
        "rtt_series": rtt,
    }
json.dump(res, open(f"{out}/baseline.json", "w"), indent=1)
PY
say "done"
