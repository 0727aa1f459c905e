#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 120  (host seconds, quick count, estimated: balances make check's guests)
#
# tcp_airtime loaded and unloaded under traffic (issue #20's stress).  A
# helper in namespace a opens TCP connections to a sink in namespace b
# (veth), sends 32 kB on each and closes it, over and over, with a's
# default congestion control.  AIRTIME_ROUNDS rounds (20; 1000 with
# AQ_STRESS=full, the default on the debug kernel) of:
#  - modprobe tcp_airtime;
#  - airtime becomes a's default: the helper's next connections run it
#    (seen in a's /proc/net/tcp_airtime within 5 s);
#  - reno becomes a's default again;
#  - the module's reference count falls to 0 within 10 s (the airtime
#    connections close);
#  - rmmod tcp_airtime.
# Asserts every load and unload, airtime connections in every round, the
# references drained in every round, and that the helper's connections
# kept succeeding throughout.  The kernel log check (WARN, BUG, refcount_t,
# and on the debug kernel KASAN, lockdep, kmemleak) is run-tests' and make
# check's.  Counts: $AQ_RESULTS/stress/airtime-load-cycles.txt.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

ROUNDS=${AIRTIME_ROUNDS:-$(aq_stress_count 20 1000)}
N=5
tap_plan $N
sysfs=/sys/module/tcp_airtime
SOCKS="$AQ_TOP/tcp_cong_airtime/tests/vm/airtime_socks.py"
W=$AQ_TMP/loadcycles
mkdir -p "$W" "$AQ_RESULTS/stress"
cleanup() {
	kill "${sink:-}" "${churn:-}" 2>/dev/null
	ip netns del la 2>/dev/null
	ip netns del lb 2>/dev/null
	modprobe -r tcp_airtime 2>/dev/null
}
trap cleanup EXIT
exec {nap}<> <(:)	# read -t on it: a sleep without a process

modprobe -r tcp_airtime 2>/dev/null
if grep -q '^tcp_airtime ' /proc/modules; then
	for i in $(seq $N); do tap_skip "load cycles" "tcp_airtime is loaded and in use"; done
	exit 0
fi
netns_new la && netns_new lb && veth_link la va lb vb 10.66.0.1/24 10.66.0.2/24 || {
	for i in $(seq $N); do tap_fail "load cycles: veth pair"; done
	exit 1
}
ip netns exec la sysctl -qw net.ipv4.tcp_congestion_control=reno
ip netns exec lb python3 "$SOCKS" sink 10.66.0.2 5400 &
sink=$!
read -r -t 0.5 -u "$nap"
ip netns exec la python3 "$SOCKS" churn 10.66.0.2 5400 >"$W/churn.out" 2>&1 &
churn=$!
air=/proc/$churn/net/tcp_airtime	# a's, read without a fork

load_fail=0 unload_fail=0 seen=0 drained=0 first=
t0=$(date +%s)
for i in $(seq "$ROUNDS"); do
	if ! modprobe tcp_airtime; then
		load_fail=$((load_fail + 1)); first=${first:-"round $i: modprobe"}
		continue
	fi
	ip netns exec la sysctl -qw net.ipv4.tcp_congestion_control=airtime
	for k in $(seq 50); do
		if [ -r "$air" ] && read -r l <"$air" && [ -n "$l" ]; then
			seen=$((seen + 1)); break
		fi
		read -r -t 0.1 -u "$nap"
	done
	ip netns exec la sysctl -qw net.ipv4.tcp_congestion_control=reno
	for k in $(seq 100); do
		read -r ref <"$sysfs/refcnt" 2>/dev/null
		[ "${ref:-x}" = 0 ] && { drained=$((drained + 1)); break; }
		read -r -t 0.1 -u "$nap"
	done
	[ "${ref:-x}" = 0 ] || first=${first:-"round $i: refcnt $ref after 10 s"}
	if ! rmmod tcp_airtime 2>"$W/rmmod.err"; then
		unload_fail=$((unload_fail + 1))
		first=${first:-"round $i: rmmod: $(cat "$W/rmmod.err")"}
		# wait it out, so the next round starts unloaded
		for k in $(seq 100); do
			rmmod tcp_airtime 2>/dev/null && break
			read -r -t 0.1 -u "$nap"
		done
	fi
done
secs=$(( $(date +%s) - t0 ))
kill -TERM "$churn"
wait "$churn" 2>/dev/null
read -r _ _ c_ok _ c_fail < <(grep '^churn ok' "$W/churn.out")
tap_diag "$ROUNDS rounds in $secs s: loads failed $load_fail, unloads failed $unload_fail, rounds with airtime connections $seen, references drained $drained (first problem: ${first:-none}); the helper's connections: ${c_ok:-?} made, ${c_fail:-?} failed"
tap_is "$load_fail/$unload_fail" 0/0 "$ROUNDS loads and unloads of tcp_airtime under traffic"
tap_is "$seen" "$ROUNDS" "every round's new connections ran airtime (a's default)"
tap_is "$drained" "$ROUNDS" "every round the references fell to 0 within 10 s of reno's return"
tap_in_range "${c_ok:-0}" "$ROUNDS" 100000000 "the helper's connections went on through the rounds (made)"
tap_in_range "${c_fail:-1}" 0 0 "none of the helper's connections failed"
{
	echo "# tcp_airtime load/unload under traffic, $(date -u +%Y-%m-%dT%H:%M:%SZ), kernel $(uname -r)"
	echo "# command: AQ_STRESS=${AQ_STRESS:-} AIRTIME_ROUNDS=$ROUNDS tcp_cong_airtime/tests/vm/09-load-cycles.sh"
	echo "rounds $ROUNDS load_failed $load_fail unload_failed $unload_fail airtime_seen $seen drained $drained seconds $secs"
	echo "connections made ${c_ok:-?} failed ${c_fail:-?}"
} >"$AQ_RESULTS/stress/airtime-load-cycles.txt"
tap_done
