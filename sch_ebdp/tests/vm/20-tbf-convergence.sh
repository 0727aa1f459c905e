#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 60  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# aq-vm-timeout: 1800  (498 guest seconds measured in CI)
# (the shaped rate must be the one the guest clock sees, however loaded the host)
#
# eBDP under a rate limiter, no Wi-Fi: ebdp (defaults: Tmax 200 ms, c 5,
# Qmax 400, W 1/64) is the child of tbf on a veth between two namespaces,
# with one TCP bulk flow (iperf3) and a 20 Hz ping through the same queue.
#
# The service time is known: tbf sends one packet of L bytes every
# L * 8 / rate seconds, and Tserv comes from dequeue spacing.  Asserts:
#   - Tserv within 10% of the mean packet length / rate;
#   - Q (median over the measurement window) within 10% of
#     Tmax / Tserv_known + c, at 4 Mbit/s, then again after tbf is changed
#     to 2 Mbit/s (Q must follow the service rate);
#   - the 95th percentile of ping RTT (queueing delay) <= 1.1 * Tmax;
#   - the shaped link is busy >= 85% of the time (the buffer is big enough);
#   - packet conservation: packets offered to the root qdisc (clsact
#     matchall counter) = ebdp sent + dropped + backlog; drops by cause add
#     up; the veth transmitted what ebdp sent.
# Samples and ping output go to $AQ_RESULTS/sch_ebdp-tbf/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

PLAN=13
tap_plan $PLAN
ebdp_require $PLAN iperf3 jq ethtool ping

out="$AQ_RESULTS/sch_ebdp-tbf"
rm -rf "$out"
mkdir -p "$out"

TMAX_US=200000
C=5
# Shaped rates, bit/s: low enough that a TCG guest on a busy host still
# saturates them (the service time must be the shaper's, not the CPU's).
RATE1=${EBDP_RATE1:-4000000}
RATE2=${EBDP_RATE2:-2000000}

setup() {
	path_up &&
	A tc qdisc add dev va clsact &&
	A tc filter add dev va egress matchall action pass &&
	A tc qdisc add dev va root handle 1: tbf rate ${RATE1}bit burst 3000 latency 1s &&
	A tc qdisc add dev va parent 1: handle 10: ebdp
}
if setup; then
	tap_ok "veth path with tbf $RATE1 bit/s -> ebdp and clsact counter"
else
	tap_notok "veth path with tbf $RATE1 bit/s -> ebdp and clsact counter"
	path_down
	tap_skip_rest $PLAN "setup failed"
fi

# sample LABEL SECONDS: raw tc -s -j every second (parsed afterwards, so
# that sampling costs the guest one process per second: each costs ~0.2 s
# in the TCG guest)
sample() {
	local i
	for i in $(seq 1 "$2"); do
		echo "$1 $EPOCHREALTIME $(A tc -s -j qdisc show dev va)"
		sleep 1
	done >>"$out/raw.txt"
}

# raw.txt -> samples.txt: label limit tserv source bytes packets qlen time
# (one jq for all the samples)
parse_samples() {
	jq -R -r 'capture("^(?<l>[^ ]+) (?<t>[^ ]+) (?<j>.*)$") as $s |
		$s.j | fromjson | .[] | select(.kind == "ebdp") |
		"\($s.l) \(.limit) \(.tserv) \(.source) \(.bytes) \(.packets) \(.qlen) \($s.t)"' \
		"$out/raw.txt" >"$out/samples.txt"
}

# Q expected from the known service time: mean length of the packets ebdp
# sent during the window (bytes, packets deltas) at RATE bit/s.
# check_q LABEL RATE_BPS -> "median expected tserv_meas tserv_known util"
check_q() {
	awk -v l="$1" -v rate="$2" -v tmax=$TMAX_US -v c=$C '
		$1 == l { n++; lim[n] = $2; ts[n] = $3; by[n] = $5; pk[n] = $6
			  tm[n] = $8 }
		END {
			if (n < 4) { print "0 0 0 0 0"; exit }
			# median of the limit over the window
			for (i = 1; i <= n; i++) s[i] = lim[i]
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
			med = s[int((n + 1) / 2)]
			len = (by[n] - by[1]) / (pk[n] - pk[1])
			tk = len * 8 / rate * 1e6		# us
			exp_q = int(tmax / tk) + c
			util = (by[n] - by[1]) * 8 / (tm[n] - tm[1]) / rate
			printf "%d %d %.1f %.1f %.3f\n", med, exp_q, ts[n] / 1000, tk, util
		}' "$out/samples.txt"
}

within() { # a b pct: |a - b| <= pct% of b
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(b > 0 && d <= b * p / 100) }'
}

# Counters at the start (the path's own set-up traffic came before).
counters() { # -> offered sent dropped tx_packets tx_dropped
	local f
	f=$(A tc -s filter show dev va egress | awk '/Sent/ { print $4; exit }')
	A tc -s -j qdisc show dev va | jq -r --arg f "$f" \
		'.[] | select(.kind == "ebdp") | "\($f) \(.packets) \(.drops)"'
	A cat /sys/class/net/va/statistics/tx_packets \
	      /sys/class/net/va/statistics/tx_dropped
}
# The filter's, the qdisc's and the veth's counters are read one after the
# other: a stray packet (IPv6, ARP, TCP teardown) passing between two reads
# is counted by one and not the other.  Seen at both ends: the veth one
# short of ebdp's dequeue count (54137 vs 54138), the filter one ahead of
# ebdp (offered 54156, sent 54106 + dropped 49 + backlog 0).  So every
# snapshot is read until two reads 0.5 s apart agree (with the backlog,
# last field, and the whole qdisc dump in $out/qdisc-<name>.json).
stable_counters() { # NAME: COUNTERS="offered sent dropped tx tx_dropped qlen"
	local i prev=
	for i in $(seq 10); do
		A tc -s -j qdisc show dev va >"$out/qdisc-$1.json"
		COUNTERS="$(counters | tr '\n' ' ') $(jq -r '.[] | select(.kind == "ebdp") | .qlen' "$out/qdisc-$1.json")"
		[ "$COUNTERS" = "$prev" ] && break
		prev=$COUNTERS
		sleep 0.5
	done
	echo "# counters ($1) read $i times until two agreed: $COUNTERS"
}
stable_counters start
read -r off0 sent0 drop0 tx0 txd0 _ <<<"$COUNTERS"

B iperf3 -s -D -1 --logfile "$out/iperf3-server.txt"
sleep 1
A iperf3 -c 10.77.0.2 -t 300 -J >"$out/iperf3.json" 2>&1 &
iperf=$!

# RATE1: warm up 5 s, then 10 s of samples with a 20 Hz ping running.
# (Tserv's EWMA, W = 1/64 at 165-340 packets/s, settles within a second;
# the warm-up is for TCP to fill the queue.  The ping's 200 probes keep
# the p95 over at least 100 replies.)
sleep 5
A ping -i 0.05 -c 200 -W 2 10.77.0.2 >"$out/ping.txt" 2>&1 &
pingpid=$!
sample r1 10
wait $pingpid
# RATE2: the service time doubles, Q must halve (less c).
A tc qdisc change dev va root handle 1: tbf rate ${RATE2}bit burst 3000 latency 1s
sleep 5
sample r2 8
kill -INT $iperf 2>/dev/null
wait $iperf

parse_samples
read -r med exp_q tsm tsk util < <(check_q r1 $RATE1)
read -r med5 exp_q5 tsm5 tsk5 util5 < <(check_q r2 $RATE2)
echo "# $RATE1 bit/s: Q median $med, expected $exp_q; Tserv $tsm us, known $tsk us; utilisation $util"
echo "# $RATE2 bit/s: Q median $med5, expected $exp_q5; Tserv $tsm5 us, known $tsk5 us; utilisation $util5"
# The service time is the shaper's only if the guest keeps it busy.
if awk -v a="$util" -v b="$util5" 'BEGIN { exit !(a < 0.8 || b < 0.8) }'; then
	why="guest too slow to saturate the shaper (utilisation $util, $util5): host overloaded? try --clock virtual"
	for d in "Tserv at rate 1" "Q at rate 1" "Tserv source" "Tserv at rate 2" \
		 "Q at rate 2" "p95 delay" "link utilisation"; do
		tap_skip "$d" "$why"
	done
else
tap_check "$RATE1 bit/s: Tserv $tsm us within 10% of $tsk us" within "$tsm" "$tsk" 10
tap_check "$RATE1 bit/s: Q $med within 10% of Tmax/Tserv+c = $exp_q" within "$med" "$exp_q" 10
src=$(awk '$1 == "r1" { s = $4 } END { print s }' "$out/samples.txt")
tap_check "Tserv source is dequeue spacing (got $src)" [ "$src" = dequeue ]

tap_check "$RATE2 bit/s: Tserv $tsm5 us within 10% of $tsk5 us" within "$tsm5" "$tsk5" 10
tap_check "$RATE2 bit/s: Q $med5 within 10% of Tmax/Tserv+c = $exp_q5" within "$med5" "$exp_q5" 10

# p95 of the ping RTT: queueing delay at ebdp (the rest is < 1 ms)
p95=$(grep -o 'time=[0-9.]*' "$out/ping.txt" | cut -d= -f2 | sort -n |
      awk '{ v[NR] = $1 } END { if (NR < 100) { print -1; exit }
			       i = int(NR * 0.95 + 0.5); print v[i] }')
nrep=$(grep -c 'time=' "$out/ping.txt")
echo "# ping: $nrep replies, p95 RTT $p95 ms"
tap_check "p95 queueing delay $p95 ms <= 1.1 x Tmax (220 ms), $nrep samples" \
	awk -v p="$p95" 'BEGIN { exit !(p >= 0 && p <= 220) }'

# The buffer is big enough: the shaped link stays busy.
tap_check "link utilisation $util and $util5 >= 0.85" \
	awk -v a="$util" -v b="$util5" 'BEGIN { exit !(a >= 0.85 && b >= 0.85) }'
fi

# Conservation, with the queue drained (read as at the start).
sleep 2
stable_counters final
A tc -s filter show dev va egress >"$out/filter-final.txt"
read -r off1 sent1 drop1 tx1 txd1 backlog <<<"$COUNTERS"
offered=$((off1 - off0))
sent=$((sent1 - sent0))
dropped=$((drop1 - drop0))
dl=$(jq -r '.[] | select(.kind == "ebdp") | .drops_limit' "$out/qdisc-final.json")
da=$(jq -r '.[] | select(.kind == "ebdp") | .drops_ackq' "$out/qdisc-final.json")
dc=$(jq -r '.[] | select(.kind == "ebdp") | .drops_change' "$out/qdisc-final.json")
echo "# during the test: offered $offered sent $sent dropped $dropped backlog $backlog (drops: limit $dl ackq $da change $dc)"
tap_check "conservation: offered $offered = sent $sent + dropped $dropped + backlog $backlog" \
	[ "$offered" -gt 0 -a "$offered" = $((sent + dropped + backlog)) ]
tap_check "drops by cause add up ($dl + $da + $dc = $drop1), some at the limit" \
	[ $((dl + da + dc)) = "$drop1" -a "$dl" -gt 0 ]
tap_check "veth sent what ebdp dequeued ($((tx1 - tx0)) + $((txd1 - txd0)) dropped = $sent)" \
	[ $((tx1 - tx0 + txd1 - txd0)) = "$sent" ]

path_down
tap_check "no kernel warnings" dmesg_clean
modprobe -r sch_ebdp
tap_check "module unloads after the test" sh -c '! grep -q "^sch_ebdp " /proc/modules'
