#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime and event D, ->rate_change(): a rate change is kept in
# tcp_airtime's own state, keyed by the peer's address, and applies to the
# connections whose next hop is that peer until the next view.  It is never
# written into the published view (an RCU copy whose readers hold no lock),
# and a change toward one peer leaves the rate toward the others alone.
# The fake feedback (tests/vm/fakefb/) pushes a view every 2 s and, on
# request, calls ->rate_change() right after a push, then pauses until the
# test has looked; tcp_airtime's n=16 (a configured slot of 1.6 s) keeps
# those views fresh for 3.3 s.
#
#  A. Our station's view (source sta-bss-load) lists the station itself at
#     6 Mbit/s.  A rate change toward another peer (02:00:00:00:00:99, say
#     a TDLS peer) changes neither the published view nor the rate of our
#     connection, whose next hop is the veth peer; one toward the veth peer
#     sets the connection's rate to 54 Mbit/s until the next view
#     (6 Mbit/s again).
#  B. An AP's view lists the veth peer at 6 and 02:00:00:00:00:99 at
#     54 Mbit/s.  A rate change of 02:00:00:00:00:99 leaves the published
#     view and our connection alone; one of the veth peer sets our rate.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

fakefb_setup 13
par=/sys/module/tcp_airtime/parameters
fpar=/sys/module/airtime_fakefb/parameters
other=02:00:00:00:00:99
cport=40123	# the data connection's local port (iperf3 --cport)
exec {nap}<> <(:)	# read -t on it: a sleep without a process

# flow: a long capped upload from the initial netns, data connection on
# $cport; the rest of the script ends it
flow_start() {
	iperf3 -c 10.7.0.2 -C airtime --cport "$cport" -t 120 >/dev/null 2>&1 &
	flow=$!
}
flow_stop() { kill -INT "$flow" 2>/dev/null; wait "$flow" 2>/dev/null; }
# wait_air KEY VALUE: up to 15 s for the data connection's KEY to be VALUE
wait_air() {
	local i
	for i in {1..150}; do
		[ "$(air_get "$cport" "$1")" = "$2" ] && return 0
		read -r -t 0.1 -u "$nap"
	done
	return 1
}
# view_seq: the seq of aqv0's view
view_seq() {
	local l
	while read -r l; do
		[[ $l == "view aqv0 "* ]] || continue
		l=${l#* seq }
		echo "${l%% *}"
		return
	done <$par/views
}
# rate_change MAC KBPS: ->rate_change() right after the fake feedback's
# next push, which then pauses (resume: fakefb_resume), and 0.5 s for the
# connection to recompute on its next ACK
fakefb_resume() { echo N >$fpar/paused; }
rate_change() {
	local done0 i
	done0=$(cat $fpar/rc_done)
	echo "$1 $2" >$fpar/rate_change
	for i in {1..50}; do
		[ "$(cat $fpar/rc_done)" != "$done0" ] && break
		read -r -t 0.1 -u "$nap"
	done
	read -r -t 0.5 -u "$nap"
}
# sta_rate MAC: the published rate of MAC in aqv0's view
sta_rate() { awk -v m="$1" '$1 == "sta" && $2 == m { print $6; exit }' $par/views; }

# --- A. a station's view ---------------------------------------------------
insmod "$FAKEFB_KO" ifname=aqv0 source=1 n_active=2 period_ms=2000 \
	addrs="$OWN" occ=0 rate=6000
modprobe tcp_airtime n=16
flow_start
wait_air rate 6000 && [ "$(air_get $cport source)" = mac80211-sta-bss-load ]
tap_ok_if "$(( $? == 0 ))" "station view: the connection is capped at 6 Mbit/s" \
	"$(grep -A 1 '^view aqv0' $par/views | tr '\n' ' ') / $(grep "^10.7.0.1:$cport " /proc/net/tcp_airtime)"

rate_change "$other" 54000
views=$(cat $par/views)
tap_is "$(sta_rate "$OWN")" 6000 "a rate change toward $other leaves the published view alone"
grep -q "^ rate_change $other rate 54000" <<<"$views" &&
	tap_ok "it is kept beside the view" ||
	tap_fail "it is kept beside the view" "$(tr '\n' ' ' <<<"$views")"
tap_is "$(air_get $cport rate)" 6000 "the connection toward $PEER keeps 6 Mbit/s"
fakefb_resume

rate_change "$PEER" 54000
rate=$(air_get $cport rate)
theta=$(air_get $cport theta)
tap_diag "after a rate change toward $PEER: rate $rate, theta $theta B/s"
tap_is "$rate" 54000 "a rate change toward the next hop applies to the connection"
tap_in_range "${theta:-0}" 712500 3000000 "its theta follows (54 Mbit/s: >= 5.7 Mbit/s)"
tap_is "$(sta_rate "$OWN")" 6000 "the published view still says 6 Mbit/s"
seq0=$(view_seq)
fakefb_resume
for i in {1..40}; do
	[ "$(view_seq)" != "$seq0" ] && break
	read -r -t 0.1 -u "$nap"
done
wait_air rate 6000
tap_is "$(air_get $cport rate)" 6000 "the next view's rate replaces the change (view $seq0 -> $(view_seq))"
flow_stop

# --- B. an AP's view -------------------------------------------------------
rmmod airtime_fakefb
modprobe -r tcp_airtime
insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=2 period_ms=2000 \
	addrs="$PEER,$other" occ=0,150000 rate=6000,54000
modprobe tcp_airtime n=16
flow_start
wait_air rate 6000 && [ "$(air_get $cport source)" = mac80211-ap ]
tap_ok_if "$(( $? == 0 ))" "AP view: the connection to $PEER is capped at 6 Mbit/s" \
	"$(grep -A 2 '^view aqv0' $par/views | tr '\n' ' ')"
rate_change "$other" 6000
tap_is "$(sta_rate "$other")" 54000 "a rate change of $other leaves the published view alone"
tap_is "$(air_get $cport rate)" 6000 "the connection to $PEER keeps its rate"
fakefb_resume
rate_change "$PEER" 54000
tap_is "$(air_get $cport rate)" 54000 "a rate change of $PEER applies to the connection to it"
fakefb_resume
flow_stop

rmmod airtime_fakefb
modprobe -r tcp_airtime
kernel_log_clean
ip link del aqv0 2>/dev/null
tap_done
