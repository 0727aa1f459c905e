#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Default `make testbed` scenario (guest side): the eBDP paper's question on
# a real (emulated) 802.11g channel.  mac80211_hwsim with the testbed's
# patches, the airqueue medium (CSMA/CA, airtime, 54 Mbit/s), an AP
# forwarding to a wired server 10 ms away (netem), one station.  For each
# queue discipline on the AP's Wi-Fi interface, a TCP download (server ->
# station) runs while the station pings the server: throughput against
# queueing delay.
#
#   fifo     legacy: a 1000-packet pfifo root qdisc (what drivers had before
#            mac80211's TXQs), held by the mac80211-retry backpressure
#   default  today's Linux: noqueue root, mac80211's fq_codel TXQs and AQL
#   codel    a CoDel root qdisc (backpressure holds the queue in it)
#   ebdp     sch_ebdp with its defaults (Tmax 200 ms), Tserv from the
#            patched mac80211's MAC feedback
#
# Writes bufferbloat.json and the raw iperf3/ping/tc/medium outputs to
# $AQ_RESULTS.  Environment: AQ_DURATION (seconds per flow, default 10),
# AQ_QDISCS (default "fifo default codel ebdp").
# aq-vm-clock: virtual
# (airtime-bound rates need the guest clock to follow the medium)
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

dur=${AQ_DURATION:-10}
# tc finds the ebdp plugin (q_ebdp.so, `make tc`) here
export TC_LIB_DIR=$AQ_BUILD/sch_ebdp/tc
qdiscs=${AQ_QDISCS:-fifo default codel ebdp}
# Work in the guest's tmpfs, copy to $AQ_RESULTS (9p) at the end.
out=/tmp/aq/bufferbloat
mkdir -p "$out"
trap 'medium_stop; cp -a "$out/." "$AQ_RESULTS/"' EXIT
say() { echo "[guest] $(date +%H:%M:%S) $*"; }

say "loading mac80211_hwsim ($(modinfo -n mac80211_hwsim)) and the medium"
hwsim_load 2 || exit 1
medium_config_bss "$out/medium.json" g 1 5
medium_start "$out/medium.json" || exit 1
topo_bss 1 1 g || { say "topology failed: $(tail -n 3 "$AQ_TMP/medium.log")"; exit 1; }
netem srv eth0 delay 5ms limit 10000
netem ap eth-srv delay 5ms limit 10000
say "AP and station associated through the medium; wired RTT 10 ms (netem)"
phy=$(basename "$(readlink -f "/sys/class/net/$AP_IF/phy80211" 2>/dev/null)" 2>/dev/null)
bp=/sys/kernel/debug/ieee80211/$phy/backpressure
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

ping_run() { # count interval file
	ip netns exec sta1 ping -n -c "$1" -i "$2" -W 2 -w $(($1 / 5 + 30)) 10.9.0.2 >"$3" 2>&1
}
ping_run 20 0.1 "$out/ping-idle.txt"
iperf3_server srv

set_qdisc() {
	ip netns exec ap tc qdisc del dev "$AP_IF" root 2>/dev/null
	case "$1" in
	fifo) ip netns exec ap tc qdisc add dev "$AP_IF" root pfifo limit 1000 ;;
	default) true ;;
	codel) ip netns exec ap tc qdisc add dev "$AP_IF" root codel ;;
	ebdp) modprobe sch_ebdp && ip netns exec ap tc qdisc add dev "$AP_IF" root ebdp ;;
	*) return 1 ;;
	esac
}

for q in $qdiscs; do
	if ! set_qdisc "$q" 2>"$out/tc-$q.err"; then
		say "$q: cannot install ($(head -n 1 "$out/tc-$q.err")), skipped"
		continue
	fi
	[ -w "$bp/mode" ] && echo auto >"$bp/mode"
	say "$q: TCP download for ${dur}s with ping alongside"
	medium_stats >"$out/medium-$q-before.json"
	ping_run $((dur * 10 - 10)) 0.1 "$out/ping-$q.txt" &
	pp=$!
	# tc samples every 0.5 s: the standing queue in the root qdisc
	( while kill -0 $pp 2>/dev/null; do
		ip netns exec ap tc -s -j qdisc show dev "$AP_IF"; echo
		sleep 0.5
	  done ) >"$out/tc-$q-samples.jsonl" 2>/dev/null &
	ts=$!
	# a stalled queue must not hang the run: iperf3 -R has no timeout
	timeout $((dur + 30)) ip netns exec sta1 iperf3 -c 10.9.0.2 -J -t "$dur" -i 1 -R \
		>"$out/iperf3-$q.json" 2>&1 || say "$q: iperf3 failed or timed out"
	wait $pp
	kill $ts 2>/dev/null
	wait $ts
	medium_stats >"$out/medium-$q-after.json"
	ip netns exec ap tc -s -j qdisc show dev "$AP_IF" >"$out/tc-$q.json" 2>/dev/null
	[ -r "$bp/stats" ] && cat "$bp/stats" >"$out/backpressure-$q.txt"
	cp -a "$out/." "$AQ_RESULTS/"
done
ip netns exec ap tc qdisc del dev "$AP_IF" root 2>/dev/null

python3 - "$out" "$qdiscs" <<'PY'
import json, re, sys, os
out, qdiscs = sys.argv[1], sys.argv[2].split()
sys.path.insert(0, os.path.join(os.environ["AQ_TOP"], "testbed", "lib"))
from pingstats import pings, pct
def root_backlog(samples):
    pk = []
    for l in open(samples, errors="replace"):
        l = l.strip()
        if not l:
            continue
        try:
            q = json.loads(l)
        except ValueError:
            continue
        for e in q:
            if e.get("root"):
                pk.append(e.get("qlen", 0))
    return pk
res = {"scenario": "bufferbloat", "kernel": os.uname().release,
       "setup": "802.11g 54 Mbit/s through the airqueue medium (hwsim + "
                "testbed patches), AP forwards to a wired server, 10 ms wired "
                "RTT (netem), TCP download server -> station, ping station -> "
                "server every 100 ms",
       "idle_rtt_ms": {}, "runs": {}}
idle = [r for _, r in pings(f"{out}/ping-idle.txt")]
res["idle_rtt_ms"] = {"median": pct(idle, 50), "p95": pct(idle, 95), "n": len(idle)}
for q in qdiscs:
    f = f"{out}/iperf3-{q}.json"
    if not os.path.exists(f):
        continue
    try:
        j = json.load(open(f))
    except ValueError:
        continue
    if "end" not in j or "sum_received" not in j["end"]:
        res["runs"][q] = {"error": j.get("error", "iperf3 failed")}
        continue
    rtt = pings(f"{out}/ping-{q}.txt")
    vals = [r for _, r in rtt]
    run = {
        "mbps": j["end"]["sum_received"]["bits_per_second"] / 1e6,
        "retransmits": j["end"]["sum_sent"].get("retransmits"),
        "interval_mbps": [i["sum"]["bits_per_second"] / 1e6 for i in j["intervals"]],
        "rtt_ms": {"median": pct(vals, 50), "p95": pct(vals, 95),
                   "max": max(vals) if vals else None, "n": len(vals)},
        "ping_lost": None,
        "rtt_series": rtt,
    }
    txt = open(f"{out}/ping-{q}.txt", errors="replace").read()
    m = re.search(r"(\d+) packets transmitted, (\d+) received", txt)
    if m:
        run["ping_lost"] = int(m.group(1)) - int(m.group(2))
    pk = root_backlog(f"{out}/tc-{q}-samples.jsonl")
    run["root_qlen"] = {"median": pct(pk, 50), "max": max(pk) if pk else None,
                        "n": len(pk)}
    try:
        tc = json.load(open(f"{out}/tc-{q}.json"))
        root = [e for e in tc if e.get("root")]
        if root:
            run["root_qdisc"] = root[0].get("kind")
            run["root_drops"] = root[0].get("drops")
    except (OSError, ValueError):
        pass
    try:
        a = json.load(open(f"{out}/medium-{q}-before.json"))
        b = json.load(open(f"{out}/medium-{q}-after.json"))
        ap = lambda d: [r for r in d["radios"] if r["name"] == "ap"][0]
        ra, rb = ap(a), ap(b)
        run["ap_busy_fraction"] = ((rb["busy_us"] - ra["busy_us"]) /
                                   max(1.0, b["time_us"] - a["time_us"]))
        run["ap_be_discards"] = (rb["ac"]["BE"]["discards"] -
                                 ra["ac"]["BE"]["discards"])
    except (OSError, ValueError, KeyError, IndexError):
        pass
    res["runs"][q] = run
json.dump(res, open(f"{out}/bufferbloat.json", "w"), indent=1)
PY
say "done"
