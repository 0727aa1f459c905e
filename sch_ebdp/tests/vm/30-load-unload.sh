#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 77  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# (the shaped rate must be the one the guest clock sees, however loaded the host)
#
# Load and unload sch_ebdp 60 times (1000 with AQ_STRESS=full, the
# default on the debug kernel; EBDP_ROUNDS overrides) while UDP traffic
# flows through a veth: each round loads the module, attaches ebdp
# (alternating root and tbf child, ackprio, changing to a smaller limit
# under load), lets packets queue, deletes the qdisc and unloads the
# module.  Asserts every load, attach and unload worked, the module could not be unloaded while a qdisc
# used it, no kernel warning, and no skb leak (skbuff_head_cache objects
# back to within a margin of the start).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

ROUNDS=${EBDP_ROUNDS:-$(aq_stress_count 60 1000)}
PLAN=6
tap_plan $PLAN
ebdp_require $PLAN iperf3
modprobe -r sch_ebdp
path_up || tap_skip_rest $PLAN "veth path setup failed"

skbs() { awk '$1 == "skbuff_head_cache" { print $2 }' /proc/slabinfo; }

B iperf3 -s -D --logfile /dev/null
sleep 1
# 10 Mbit/s of UDP through va for the whole test
A iperf3 -c 10.77.0.2 -u -b 10M -l 1400 -t 3600 >/dev/null 2>&1 &
traffic=$!
sleep 1
skb0=$(skbs)

# Each process costs ~0.2 s in the TCG guest: one tc per step (-batch, in
# the namespace with -n) and rmmod rather than modprobe -r keep a round to
# five processes, ~1 s of host time a round (200 rounds took ~3 min
# instead of ~8).  make check's 60 rounds are a smoke of it (both
# attachments, 30 rounds each): the 1000 of the debug campaign are the
# stress.
T() { tc -s -n ebdp-a -force -batch -; }
fail_load=0 fail_attach=0 fail_unload=0 busy_ok=0 queued=0
for i in $(seq 1 "$ROUNDS"); do
	modprobe sch_ebdp || { fail_load=$((fail_load + 1)); continue; }
	if [ $((i % 2)) = 0 ]; then
		echo "qdisc add dev va root handle 1: tbf rate 20mbit burst 3000 latency 1s"
		echo "qdisc add dev va parent 1: handle 2: ebdp ackprio qmax 200"
	else
		echo "qdisc add dev va root handle 1: ebdp mode astar qmax 300"
	fi | T || fail_attach=$((fail_attach + 1))
	# the module is in use: unloading must fail (meanwhile packets queue)
	rmmod sch_ebdp 2>/dev/null || busy_ok=$((busy_ok + 1))
	# shrink under load (drains with qdisc_tree_reduce_backlog), read the
	# counters, delete
	out=$( {
		if [ $((i % 2)) = 0 ]; then
			echo "qdisc change dev va parent 1: handle 2: ebdp qmax 10"
		else
			echo "qdisc change dev va root handle 1: ebdp qmax 10"
		fi
		echo "qdisc show dev va"
		echo "qdisc del dev va root"
	} | T) || fail_attach=$((fail_attach + 1))
	# "Sent BYTES bytes PKTS pkt" of the last qdisc listed: ebdp
	q=0
	while read -r w1 _ _ w4 _; do
		[ "$w1" = Sent ] && q=$w4
	done <<<"$out"
	[ "${q:-0}" -gt 0 ] && queued=$((queued + 1))
	rmmod sch_ebdp || fail_unload=$((fail_unload + 1))
done

kill $traffic 2>/dev/null
wait $traffic 2>/dev/null
path_down
sleep 2
skb1=$(skbs)

echo "# $ROUNDS rounds: load failures $fail_load, attach/change/del failures $fail_attach, unload failures $fail_unload, refused while in use $busy_ok, rounds with traffic $queued; skbuff_head_cache $skb0 -> $skb1"
tap_check "$ROUNDS loads, attaches and unloads without failure" \
	[ $((fail_load + fail_attach + fail_unload)) = 0 ]
tap_check "unload refused while a qdisc uses the module ($busy_ok/$ROUNDS)" \
	[ "$busy_ok" = "$ROUNDS" ]
tap_check "traffic went through ebdp in every round ($queued/$ROUNDS)" \
	[ "$queued" = "$ROUNDS" ]
tap_check "module not loaded at the end" sh -c '! grep -q "^sch_ebdp " /proc/modules'
tap_check "no skb leak: skbuff_head_cache $skb0 -> $skb1 (margin 512)" \
	[ "${skb1:-0}" -le $((${skb0:-0} + 512)) ]
tap_check "no kernel warnings" dmesg_clean
