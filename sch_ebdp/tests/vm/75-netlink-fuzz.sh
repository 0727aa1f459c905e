#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 48  (host seconds with two guests side by side on 2 cores, 2026-11-26: balances make check's guests)
# aq-vm-timeout: 3600  (1254 guest seconds measured: the virtual clock runs ahead while the guest waits on 9p)
#
# Random RTM_NEWQDISC messages for ebdp while traffic flows (issue #20's
# netlink stress): netlink_fuzz.py (next to this script) sends EBDP_FUZZ_N
# messages (default 10000: 2 s of guest time), seed
# EBDP_FUZZ_SEED (default 1), as changes of the ebdp root of va, which
# carries 10 Mbit/s of UDP, and as creations on an idle dummy.  Asserts:
# every rejection carries an extack message, every accepted message reads
# back identically and no malformed one is accepted; no kernel warning and
# no "truncated extack"; the qdisc still forwards afterwards; and packet
# conservation on va: every packet that entered the root qdisc (counted by
# a matchall filter on clsact egress, which runs before it) was sent,
# dropped or is still queued.  The counts go to the TAP diagnostics and to
# $AQ_RESULTS/stress/ebdp-netlink-fuzz.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

N=${EBDP_FUZZ_N:-10000}
SEED=${EBDP_FUZZ_SEED:-1}
PLAN=8
tap_plan $PLAN
ebdp_require $PLAN iperf3 python3
modprobe dummy 2>/dev/null
path_up || tap_skip_rest $PLAN "veth path setup failed"
A ip link add nl1 type dummy && A ip link set nl1 up ||
	tap_skip_rest $PLAN "cannot add a dummy device"

# before the root qdisc: count every packet that enters it
A tc qdisc add dev va clsact
A tc filter add dev va egress matchall action ok
A tc qdisc add dev va root handle 1: ebdp qmax 300

cost=$(sysctl -n net.core.message_cost)
sysctl -qw net.core.message_cost=0
trunc0=$(dmesg | grep -c 'truncated extack')
warn0=$(dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN')

B iperf3 -s -D --logfile /dev/null
sleep 1
A iperf3 -c 10.77.0.2 -u -b 10M -l 1400 -t 3600 >/dev/null 2>&1 &
traffic=$!
sleep 1

out=$AQ_RESULTS/ebdp-netlink-fuzz.out
t0=$(date +%s)
A env PYTHONPATH="$here" python3 "$here/netlink_fuzz.py" va nl1 "$N" "$SEED" \
	>"$out" 2>"$out.err"
rc=$?
secs=$(($(date +%s) - t0))

tx0=$(A cat /sys/class/net/va/statistics/tx_packets)
sleep 1
tx1=$(A cat /sys/class/net/va/statistics/tx_packets)
# $! is the subshell of A(), not iperf3: stop the client itself
pkill -f 'iperf3 -c 10.77.0.2' 2>/dev/null
kill $traffic 2>/dev/null
wait $traffic 2>/dev/null
sleep 2		# the queue drains at the veth's pace

sysctl -qw net.core.message_cost="$cost"
trunc=$(dmesg | grep 'truncated extack' | tail -n +"$((trunc0 + 1))")
warn=$(dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN' |
	tail -n +"$((warn0 + 1))")

counts=$(sed -n 's/^counts\t//p' "$out")
get() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$counts"; }
echo "# $N messages, seed $SEED, ${secs} s: $counts"
mkdir -p "$AQ_RESULTS/stress"
{
	echo "# command: EBDP_FUZZ_N=$N EBDP_FUZZ_SEED=$SEED sch_ebdp/tests/vm/75-netlink-fuzz.sh ($(uname -r))"
	echo "$counts seconds=$secs"
} >"$AQ_RESULTS/stress/ebdp-netlink-fuzz.txt"

if [ "$rc" = 0 ] && [ "$(get sent)" = "$N" ]; then
	tap_ok "netlink_fuzz.py sent all $N messages"
else
	tap_notok "netlink_fuzz.py sent all $N messages"
	echo "# exit $rc, counts '$counts'; $(tail -n 2 "$out.err" | tr '\n' ' ')"
fi
defects=$(grep -c '^defect' "$out")
if [ "$defects" = 0 ] && [ "$(get rejected_noextack)" = 0 ] &&
   [ "$(get inconsistent)" = 0 ] && [ "$(get malformed_accepted)" = 0 ]; then
	tap_ok "every rejection has an extack message, every acceptance reads back, no malformed message accepted"
else
	tap_notok "every rejection has an extack message, every acceptance reads back, no malformed message accepted"
	grep '^defect' "$out" | head -n 2 | sed 's/^defect\t/# /'
fi
if [ "$(get accepted)" -gt 0 ] 2>/dev/null && [ "$(get rejected_extack)" -gt 0 ] 2>/dev/null; then
	tap_ok "the messages reach both outcomes (accepted $(get accepted), rejected $(get rejected_extack))"
else
	tap_notok "the messages reach both outcomes"
	echo "# counts '$counts'"
fi
if [ -z "$trunc" ]; then
	tap_ok "no \"truncated extack\" in the kernel log"
else
	tap_notok "no \"truncated extack\" in the kernel log"
	echo "# $(echo "$trunc" | head -n 1)"
fi
if [ -z "$warn" ]; then
	tap_ok "no kernel warning"
else
	tap_notok "no kernel warning"
	echo "$warn" | head -n 2 | sed 's/^/# /'
fi
if [ "$tx1" -gt "$tx0" ]; then
	tap_ok "va still forwards after the messages ($((tx1 - tx0)) packets in 1 s)"
else
	tap_notok "va still forwards after the messages"
	echo "# tx_packets $tx0 -> $tx1"
fi
kind=$(A tc -j qdisc show dev va root | jq -r '.[0].kind')
if [ "$kind" = ebdp ]; then
	tap_ok "ebdp is still the root qdisc of va"
else
	tap_notok "ebdp is still the root qdisc of va"
	echo "# root qdisc: $kind"
fi
# conservation, read up to 3 times (lib-ebdp.sh)
held=0
ebdp_conserved && held=1
if [ $held = 1 ]; then
	tap_ok "conservation: $entered entered = $sent sent + $dropped dropped + $backlog queued"
else
	tap_notok "conservation: entered = sent + dropped + queued"
	echo "# entered $entered, sent $sent, dropped $dropped, queued $backlog (after $reads reads)"
	A tc -s qdisc show dev va | sed 's/^/# /'
fi
path_down
modprobe -r sch_ebdp 2>/dev/null
exit 0
