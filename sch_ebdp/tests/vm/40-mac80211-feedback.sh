#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_ebdp's mac80211 service-time source and its run-time binding, with
# a test stand-in for the patched mac80211 (fbmock/ebdp_fbmock.c exports
# ieee80211_feedback_register/unregister and injects tx status):
#   - sch_ebdp has no module dependency (modinfo -F depends is empty);
#   - loaded after the provider, it registers (stats: mac80211 bound);
#   - injected service times drive Tserv and Q = Tmax/Tserv + c, source
#     mac80211; unacknowledged frames are ignored; frames of another
#     device do not touch the qdisc; the subframes of an A-MPDU each count
#     the aggregate's service time divided by their number;
#   - A-MPDUs are summed per receiver and TID: two receivers' aggregates
#     reported interleaved, and aggregates of which only some subframes
#     are reported (the rest sent again later), still count the
#     aggregate's time / ampdu_len per subframe;
#   - feedback is matched to the tx queue the frame left: under mq, only
#     the ebdp child of that queue takes it; an ebdp below a classful
#     parent (prio) takes none and keeps its dequeue-spacing source;
#   - unloading sch_ebdp unregisters it from the provider;
#   - unloading the provider first detaches sch_ebdp (->detach(NULL)),
#     which then falls back and unloads cleanly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

PLAN=17
tap_plan $PLAN
[ "$(id -u)" = 0 ] || tap_skip_rest $PLAN "needs root (run in the VM)"
[ -f "$TC_LIB_DIR/q_ebdp.so" ] || tap_skip_rest $PLAN "q_ebdp.so not built"
modprobe -n sch_ebdp 2>/dev/null || tap_skip_rest $PLAN "sch_ebdp not installed"
if grep -q '^mac80211 ' /proc/modules; then
	modprobe -r mac80211_hwsim mac80211 2>/dev/null ||
		tap_skip_rest $PLAN "mac80211 is loaded and cannot be removed"
fi

# The stand-in is built on the host by scripts/build-testmods (testmod_build
# of testbed/lib/guest.sh builds it here if that build is missing).  It
# exports mac80211's feedback symbols: unload mac80211 first.
modprobe -r mac80211_hwsim mac80211 2>/dev/null
if ! mock=$(bash -c '. "$AQ_TOP/testbed/lib/guest.sh" && testmod_build "$1"' _ \
	"$here/fbmock" 2>"${AQ_TMP:-/tmp}/fbmock-build.err"); then
	echo "1..1"
	echo "not ok 1 - build the feedback stand-in ebdp_fbmock"
	echo "# $(tail -n 2 "${AQ_TMP:-/tmp}/fbmock-build.err" | tr '\n' ' ')"
	exit 1
fi
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
dbg=/sys/kernel/debug/ebdp_fbmock

dep=$(modinfo -F depends sch_ebdp)
tap_check "sch_ebdp depends on no module (got '$dep')" [ -z "$dep" ]

insmod "$mock/ebdp_fbmock.ko" || tap_skip_rest $PLAN "insmod ebdp_fbmock failed"
modprobe sch_ebdp
ip link add fbd0 type dummy
ip link add fbd1 type dummy
ip link set fbd0 up
ip link set fbd1 up
tc qdisc add dev fbd0 root ebdp tmax 200ms c 5 weight 1/16

st() { tc -s -j qdisc show dev "${2:-fbd0}" | jq -r ".[0].$1"; }

tap_check "registered with the provider at load" grep -qx sch_ebdp "$dbg/consumers"
tap_check "stats say mac80211 bound" [ "$(st mac80211)" = bound ]

echo "fbd0 2000 50" >"$dbg/inject"
echo "# after 50 x 2000 us: tserv $(st tserv) ns limit $(st limit) source $(st source)"
tap_check "Tserv 2 ms from mac80211, Q = 200/2 + 5 = 105" \
	[ "$(st tserv)" = 2000000 -a "$(st limit)" = 105 -a "$(st source)" = mac80211 ]

echo "fbd0 4000 100" >"$dbg/inject"
# (1 - 1/16)^100 of the step remains: 4000 - 2000 * 0.0016 = 3996.8 us
ts=$(st tserv)
echo "# after 100 x 4000 us: tserv $ts ns limit $(st limit)"
tap_check "EWMA W=1/16 follows a step to 4 ms (tserv $ts ns), Q = 55" \
	[ "$ts" -ge 3990000 -a "$ts" -le 4000000 -a "$(st limit)" = 55 ]

# not acknowledged (flags 0) and another device: ignored
echo "fbd0 100 100 0" >"$dbg/inject"
echo "fbd1 100 100" >"$dbg/inject"
tap_check "unacked frames and other devices ignored (samples $(st samples_mac80211))" \
	[ "$(st samples_mac80211)" = 150 -a "$(st limit)" = 55 ]

# A-MPDU: 4 aggregates of 16 subframes (flags ACKED|AMPDU), 16 ms each.
# The subframes complete together; each must count 16 ms / 16 = 1 ms, so
# Tserv = 1000 + 2996.8 * (15/16)^64 = 1048.2 us and Q = 190 + 5 = 195.
# (Taken one by one they would be one 16 ms sample and fifteen 0 us ones.)
echo "fbd0 1000 64 3 16" >"$dbg/inject"
ts=$(st tserv)
echo "# after 4 A-MPDUs of 16 x 1000 us: tserv $ts ns limit $(st limit) samples $(st samples_mac80211)"
tap_check "A-MPDU subframes count the aggregate's time / 16 (tserv $ts ns, Q $(st limit))" \
	[ "$ts" -ge 1045000 -a "$ts" -le 1051000 -a "$(st limit)" = 195 -a \
	  "$(st samples_mac80211)" = 214 ]

# Two receivers, aggregates of 16 x 1 ms each, their subframes reported
# interleaved (r0 s0, r1 s0, r0 s1, ...).  Per receiver, each subframe
# counts 16 ms / 16 = 1 ms: Tserv goes to 1 ms (from 1.048 ms: 1000 +
# 48.2 * (15/16)^256 = 1000.0 us, still a hair above, so Q = 199 + 5,
# Tmax / Tserv rounded down).  One sum for both would count 2 ms then
# 0 ms per 16 subframes and end low (525 us, measured with the old code).
echo "fbd0 1000 256 3 16 0 2" >"$dbg/inject"
ts=$(st tserv)
echo "# after 8 interleaved A-MPDUs of 2 receivers: tserv $ts ns limit $(st limit) samples $(st samples_mac80211)"
tap_check "interleaved receivers' A-MPDUs summed apart (tserv $ts ns)" \
	[ "$ts" -ge 995000 -a "$ts" -le 1005000 -a "$(st limit)" -ge 204 -a \
	  "$(st limit)" -le 205 -a \
	  "$(st samples_mac80211)" = 470 ]

# Aggregates of 16 x 500 us of which 12 subframes are reported: each
# closes when the next aggregate's first report comes, and its 12
# subframes count 8 ms / 16 = 500 us.  10 aggregates: 9 closed, 108
# samples; Tserv = 500 + 500 * (15/16)^108 = 500.5 us, Q = 399 + 5 = 404,
# capped at qmax 400.  Waiting for 16 reports would merge aggregates
# (837 us, measured with the old code).
echo "fbd0 500 120 3 16 0 1 12" >"$dbg/inject"
ts=$(st tserv)
echo "# after 10 A-MPDUs with 12 of 16 reported: tserv $ts ns limit $(st limit) samples $(st samples_mac80211)"
tap_check "partly reported A-MPDUs count the aggregate's time / 16 (tserv $ts ns)" \
	[ "$ts" -ge 498000 -a "$ts" -le 503000 -a "$(st limit)" = 400 -a \
	  "$(st samples_mac80211)" = 578 ]

# mq with an ebdp per tx queue: feedback for queue 1 reaches 1:2 only
ip link add fbq0 numtxqueues 4 type dummy
ip link set fbq0 up
tc qdisc add dev fbq0 root handle 1: mq
tc qdisc add dev fbq0 parent 1:1 ebdp
tc qdisc add dev fbq0 parent 1:2 ebdp
stq() { tc -s -j qdisc show dev fbq0 | jq -r ".[] | select(.kind == \"ebdp\" and .parent == \"$2\") | .$1"; }
echo "fbq0 2000 50 1 1 1" >"$dbg/inject"
echo "# mq: 1:1 samples $(stq samples_mac80211 1:1) source $(stq source 1:1); 1:2 samples $(stq samples_mac80211 1:2) tserv $(stq tserv 1:2)"
tap_check "mq: the child of the frames' tx queue takes them" \
	[ "$(stq samples_mac80211 1:2)" = 50 -a "$(stq tserv 1:2)" = 2000000 ]
tap_check "mq: the other child takes none" \
	[ "$(stq samples_mac80211 1:1)" = 0 ]

# below a classful parent: the tx queue's qdisc is prio, not ebdp
tc qdisc add dev fbd1 root handle 1: prio
tc qdisc add dev fbd1 parent 1:1 handle 10: ebdp
stp() { tc -s -j qdisc show dev fbd1 | jq -r '.[] | select(.kind == "ebdp") | .'"$1"; }
echo "fbd1 2000 50" >"$dbg/inject"
echo "# ebdp below prio: samples $(stp samples_mac80211) source $(stp source)"
tap_check "below a classful parent: no MAC feedback taken (samples $(stp samples_mac80211))" \
	[ "$(stp samples_mac80211)" = 0 -a "$(stp source)" != mac80211 ]
tc qdisc del dev fbd1 root
ip link del fbq0


tc qdisc del dev fbd0 root
modprobe -r sch_ebdp
tap_check "unloading sch_ebdp unregisters it" \
	sh -c "! grep -q . $dbg/consumers && ! grep -q '^sch_ebdp ' /proc/modules"

modprobe sch_ebdp
tc qdisc add dev fbd0 root ebdp
tap_check "registered again after reload" grep -qx sch_ebdp "$dbg/consumers"
rmmod ebdp_fbmock
tap_check "provider unloaded first: sch_ebdp detached (mac80211 $(st mac80211))" \
	[ "$(st mac80211)" = unbound ]
tc qdisc del dev fbd0 root
ip link del fbd0
ip link del fbd1
timeout 20 modprobe -r sch_ebdp
tap_check "sch_ebdp unloads after the provider went away" \
	sh -c '! grep -q "^sch_ebdp " /proc/modules'
tap_check "no kernel warnings" dmesg_clean
