#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry: MAC feedback to a registered consumer (fbcount/, a test
# module counting ->tx_status() calls), on stock mac80211_hwsim.
#  - the consumer binds with symbol_get(ieee80211_feedback_register);
#  - traffic produces one call per data frame, ACKed, with a service time
#    (enqueue to tx status), on the netdev tx queue of its AC (BE);
#  - the context contract: a report made with bottom halves disabled
#    reaches the consumer; one made from process context with them enabled
#    is dropped with a warning (once per boot), and no ->tx_status() call
#    (traffic or probe) ever ran with bottom halves enabled;
#  - unloading the consumer unregisters it;
#  - unloading mac80211 with the consumer registered calls ->detach(NULL),
#    after which the consumer unloads.
. "$AQ_TOP/testbed/lib/guest.sh"

N=12
tap_plan $N
trap aq_cleanup_all EXIT
skip_all() { for i in $(seq "$1"); do tap_skip "feedback" "$2"; done; exit 0; }

. "$AQ_BUILD/kernel/env" 2>/dev/null
# Built on the host by scripts/build-testmods (or here if missing).
if ! FB=$(testmod_build "$AQ_TOP/mac80211-retry/tests/vm/fbcount" 2>"$AQ_TMP/fbcount-build.err"); then
	tap_fail "build the test consumer fbcount" "$(tail -n 2 "$AQ_TMP/fbcount-build.err")"
	exit 1
fi
P=/sys/module/fbcount/parameters

hwsim_load 2 || skip_all $N "mac80211_hwsim does not load"
[ -f "$AQ_TOP/include/net/mac80211_feedback.h" ] &&
	grep -q ieee80211_feedback_register /proc/kallsyms ||
	skip_all $N "mac80211 is not patched (no ieee80211_feedback_register)"

ok insmod "$FB/fbcount.ko" -- "consumer loads"
tap_is "$(cat $P/bound)" 1 "consumer registered with mac80211"

topo_ap_sta_server 1 g >"$AQ_TMP/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"; skip_all $((N - 2)) "AP/STA topology failed"; }
c0=$(cat $P/calls) o0=$(cat $P/queue_other)
ip netns exec sta ping -q -i 0.02 -c 100 10.0.0.1 >/dev/null 2>&1
calls=$(( $(cat $P/calls) - c0 ))
tap_in_range "$calls" 200 100000 "one call per data frame (100 pings each way)"
tap_in_range "$(cat $P/acked)" 200 100000 "frames reported acknowledged"
mean=$(( $(cat $P/service_us_sum) / ($(cat $P/calls) - $(cat $P/no_enqueue) + 1) ))
tap_in_range "$mean" 1 1000000 "mean service time (us) from enqueue to tx status"
# hwsim has four hardware queues, so the interfaces have a netdev tx queue
# per AC and a report names the frame's AC: pings at TOS 0 are best effort
tap_is "$(( $(cat $P/queue_other) - o0 ))" 0 "pings are reported on the BE queue (2)"
tap_diag "calls $(cat $P/calls) acked $(cat $P/acked) no_enqueue $(cat $P/no_enqueue) service_us_sum $(cat $P/service_us_sum) queue_be $(cat $P/queue_be) queue_other $(cat $P/queue_other)"

# The context contract, probed through ieee80211_tx_feedback_report()
echo bh >$P/probe
tap_is "$(cat $P/probe_calls)" 1 "a report with bottom halves disabled reaches the consumer"
# The warning is expected here (this test's own): the kernel log check of
# the test run (scripts/check) skips what lies between these two marks.
# Never clear the log instead: that would hide any other report before it.
echo "airqueue-test: expected report begins" >/dev/kmsg
echo task >$P/probe
tap_is "$(cat $P/probe_calls)" 1 "a report from process context with bottom halves enabled is dropped"
echo "airqueue-test: expected report ends" >/dev/kmsg
expected=$(dmesg | sed -n '/airqueue-test: expected report begins$/,/airqueue-test: expected report ends$/p')
warn=$(grep -cE 'WARNING: .*net/mac80211/feedback\.c' <<<"$expected")
tap_diag "$(grep -E 'WARNING|symbol_get' <<<"$expected" | head -n 3)"
tap_is "$(cat $P/bad_context)/$warn" 0/1 "no callback with bottom halves enabled; one warning for the bad report"

ok rmmod fbcount -- "consumer unloads (unregisters)"

insmod "$FB/fbcount.ko"
# removing hwsim may take mac80211 with it (modprobe -r)
aq_cleanup_all >/dev/null 2>&1
grep -q '^mac80211 ' /proc/modules && rmmod mac80211 2>"$AQ_TMP/rmmod.err"
if ! grep -q '^mac80211 ' /proc/modules; then
	tap_ok "mac80211 unloads with a consumer registered"
	tap_is "$(cat $P/detached)" 1 "consumer was detached (->detach(NULL))"
else
	tap_skip "mac80211 unloads with a consumer registered" "mac80211 busy: $(cat "$AQ_TMP/rmmod.err")"
	tap_skip "consumer was detached" "mac80211 still loaded"
fi
rmmod fbcount 2>/dev/null
