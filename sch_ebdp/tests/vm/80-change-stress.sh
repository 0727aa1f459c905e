#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 28  (host seconds, measured (CPU seconds of its guest's QEMU) on 2026-11-28)
#
# EBDP_CHANGES (300; 1000 with AQ_STRESS=full, the default on the debug
# kernel) `tc qdisc change` of ebdp under traffic (issue #20's stress):
# ebdp is the child of a 5 Mbit/s tbf on va, so a standing queue is there
# to cut, and 10 Mbit/s of UDP flows for the whole test.  The changes
# cycle through every parameter (qmax down to 5 and up to 1000, tmax, c,
# weight, mode ebdp/alt/astar, ackprio on and off, acklimit, interval,
# qmin, alt_a, alt_b; the longest period is 64, so 300 changes take every
# value of each), in batches of 50 (one tc -batch each).  Asserts: every
# change is accepted; after each batch the qdisc reads back the batch's
# last values; packets are conserved through every cut (a matchall filter
# on clsact egress counts what entered the root; entered = the tbf's sent
# + dropped + queued, and ebdp's own drops, those of its cuts among them,
# are a part of the tbf's); ebdp's queue never holds more than its limit
# at a read; no kernel warning.  Counts go to
# $AQ_RESULTS/stress/ebdp-change-stress.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

N=${EBDP_CHANGES:-$(aq_stress_count 300 1000)}
BATCH=50
PLAN=6
tap_plan $PLAN
ebdp_require $PLAN iperf3
path_up || tap_skip_rest $PLAN "veth path setup failed"

# the qdiscs first, then the counter: a packet sent while the root is
# still the veth's noqueue would be counted by the filter and by no qdisc
# (path_up makes the neighbours permanent, so no ARP packet is sent at all)
A tc qdisc add dev va root handle 1: tbf rate 5mbit burst 15k latency 2s
A tc qdisc add dev va parent 1: handle 10: ebdp qmax 300
A tc qdisc add dev va clsact
A tc filter add dev va egress matchall action ok
warn0=$(dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN')

B iperf3 -s -D --logfile /dev/null
sleep 1
A iperf3 -c 10.77.0.2 -u -b 10M -l 1400 -t 3600 >/dev/null 2>&1 &
traffic=$!
sleep 2

# change K: the K-th set of values, every parameter varied with a period
# of its own so that the sets do not repeat within 1000
QMAX=(300 5 50 1000 20 400 7 120)
TMAX=(200ms 20ms 5ms 1s 50ms 100ms 2ms)
MODE=(ebdp alt astar ebdp astar)
ACKP=(ackprio noackprio noackprio)
line() {	# qmin (1..5) is never above qmax (5..1000)
	local k=$1
	printf 'qdisc change dev va parent 1: handle 10: ebdp qmax %s qmin %s tmax %s c %s weight 1/%s mode %s %s acklimit %s interval %sms alt_a %s alt_b %s\n' \
		"${QMAX[$((k % ${#QMAX[@]}))]}" $((1 + k % 5)) \
		"${TMAX[$((k % ${#TMAX[@]}))]}" $((k % 11)) \
		$((1 + k % 29)) "${MODE[$((k % ${#MODE[@]}))]}" \
		"${ACKP[$((k % ${#ACKP[@]}))]}" $((1 + k % 64)) \
		$((100 + 100 * (k % 13))) $((k % 17)) $((1 + k % 3))
}

mkdir -p "${AQ_TMP:-/tmp/aq}"
batchf=${AQ_TMP:-/tmp/aq}/ebdp-change.batch
accepted=0 rejected=0 readback_bad=0 over_limit=0 reads=0
first_bad= t0=$(date +%s)
for ((b = 0; b < N; b += BATCH)); do
	n=$((N - b < BATCH ? N - b : BATCH))
	: >"$batchf"
	for ((k = b; k < b + n; k++)); do line "$k" >>"$batchf"; done
	errs=$(A tc -force -batch "$batchf" 2>&1 | grep -c -iE 'error|invalid|failed')
	rejected=$((rejected + errs))
	accepted=$((accepted + n - errs))
	# the last change of the batch, read back, and ebdp's queue against
	# its limit (both in its xstats): one tc and one jq a batch
	want=$(line $((b + n - 1)))
	[[ $want =~ \ qmax\ ([0-9]+)\ .*\ mode\ ([a-z]+)\ .*\ acklimit\ ([0-9]+)\ .*\ alt_a\ ([0-9]+)\  ]]
	w="${BASH_REMATCH[1]:-?} ${BASH_REMATCH[2]:-?} ${BASH_REMATCH[3]:-?} ${BASH_REMATCH[4]:-?}"
	read -r g_qmax g_mode g_ackl g_alta qlen limit < <(A tc -s -j qdisc show dev va parent 1: |
		jq -r '[.[] | select(.kind == "ebdp")][0] |
			"\(.options.qmax) \(.options.mode) \(.options.acklimit) \(.options.alt_a) \(.qlen) \(.limit)"')
	got="$g_qmax $g_mode $g_ackl $g_alta"
	if [ "$got" != "$w" ]; then
		readback_bad=$((readback_bad + 1))
		[ -n "$first_bad" ] || first_bad="wanted '$want' ($w), read qmax mode acklimit alt_a $got"
	fi
	reads=$((reads + 1))
	[ "${qlen:-0}" -le "${limit:-0}" ] 2>/dev/null || over_limit=$((over_limit + 1))
done
secs=$(($(date +%s) - t0))

pkill -f 'iperf3 -c 10.77.0.2' 2>/dev/null
kill $traffic 2>/dev/null
wait $traffic 2>/dev/null
sleep 3		# the queue drains at the tbf's pace

warn=$(dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN' |
	tail -n +"$((warn0 + 1))")
cuts=$(ebdp_stat drops_change va)
echo "# $N changes in ${secs} s: $accepted accepted, $rejected rejected, $readback_bad batches read back wrong, ${cuts:-?} packets dropped by cuts"
mkdir -p "$AQ_RESULTS/stress"
{
	echo "# command: EBDP_CHANGES=$N sch_ebdp/tests/vm/80-change-stress.sh ($(uname -r))"
	echo "changes=$N accepted=$accepted rejected=$rejected readback_bad=$readback_bad over_limit=$over_limit drops_change=${cuts:-?} seconds=$secs"
} >"$AQ_RESULTS/stress/ebdp-change-stress.txt"

if [ "$accepted" = "$N" ]; then
	tap_ok "all $N changes accepted under traffic ($secs s)"
else
	tap_notok "all $N changes accepted under traffic"
	echo "# $rejected rejected"
fi
if [ "$readback_bad" = 0 ]; then
	tap_ok "every batch's last change reads back ($((N / BATCH)) read-backs)"
else
	tap_notok "every batch's last change reads back"
	echo "# $readback_bad wrong; first: $first_bad"
fi
if [ "$over_limit" = 0 ]; then
	tap_ok "ebdp's queue never above its limit at a read ($reads reads)"
else
	tap_notok "ebdp's queue never above its limit at a read"
	echo "# $over_limit of $reads reads"
fi
if [ "${cuts:-0}" -gt 0 ] 2>/dev/null; then
	tap_ok "the cuts dropped queued packets ($cuts): the changes met a standing queue"
else
	tap_notok "the cuts dropped queued packets: the changes met a standing queue"
	echo "# drops_change '${cuts:-}'"
fi
# conservation, read up to 3 times (lib-ebdp.sh), ebdp's drops among the root's
edrops_in() { edrops=$(ebdp_stat drops va); [ "${edrops:-0}" -le "$dropped" ]; }
held=0
ebdp_conserved edrops_in && held=1
if [ $held = 1 ]; then
	tap_ok "conservation: $entered entered = $sent sent + $dropped dropped ($edrops by ebdp) + $backlog queued"
else
	tap_notok "conservation: entered = sent + dropped + queued, ebdp's drops among them"
	echo "# entered $entered, sent $sent, dropped $dropped (ebdp $edrops), queued $backlog"
	A tc -s qdisc show dev va | sed 's/^/# /'
fi
if [ -z "$warn" ]; then
	tap_ok "no kernel warning"
else
	tap_notok "no kernel warning"
	echo "$warn" | head -n 2 | sed 's/^/# /'
fi
path_down
modprobe -r sch_ebdp 2>/dev/null
exit 0
