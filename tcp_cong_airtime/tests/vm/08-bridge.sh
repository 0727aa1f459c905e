#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime behind a bridge: on an OpenWrt AP the Wi-Fi interface is a
# port of br-lan and a local sender's route goes through the bridge, whose
# device has no airtime view.  tcp_airtime takes the view of the bridge
# port whose AP view lists the next hop (or the bridge's only port with a
# view).  Here the fake feedback (tests/vm/fakefb/) publishes an AP view on
# aqv0, which is a port of br-aq; the sender's address is on br-aq.
#  A. The AP view lists the veth peer at 6 Mbit/s: the connection through
#     br-aq is capped from aqv0's view (source mac80211-ap, rate 6000).
#  B. The view lists only another station: the bridge's one port with a
#     view still applies; it knows no rate for the peer (source no-rate,
#     where a route without any view says no-view).
#  C. Without the bridge (the address back on aqv0): the same cap, as a
#     reference.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

fakefb_setup 7
par=/sys/module/tcp_airtime/parameters
other=02:00:00:00:00:99
exec {nap}<> <(:)

# Each part has its own iperf3 server and local port: a server frees
# itself only a while after its last client went ("the server is busy"),
# and the last part's 4-tuple may still be in TIME_WAIT.
iperf3_server b 5202 >/dev/null
iperf3_server b 5203 >/dev/null
part=0
flow_start() {
	part=$((part + 1))
	cport=$((40123 + part))
	iperf3 -c 10.7.0.2 -p $((5200 + part)) -C airtime --cport "$cport" -t 120 \
		>"$AQ_TMP/bridge-flow$part.log" 2>&1 &
	flow=$!
}
flow_stop() { kill -INT "$flow" 2>/dev/null; wait "$flow" 2>/dev/null; }
wait_air() {
	local i
	for i in {1..150}; do
		[ "$(air_get "$cport" "$1")" = "$2" ] && return 0
		read -r -t 0.1 -u "$nap"
	done
	return 1
}
line() {
	grep "^10.7.0.1:$cport " /proc/net/tcp_airtime ||
		echo "no connection from port $cport: $(tail -n 2 "$AQ_TMP/bridge-flow$part.log" | tr '\n' ' ')"
}

# aqv0 becomes a port of br-aq, which takes its address
ip link add br-aq type bridge &&
	ip link set br-aq up &&
	ip addr del 10.7.0.1/24 dev aqv0 &&
	ip link set aqv0 master br-aq &&
	ip addr add 10.7.0.1/24 dev br-aq
ok ping -c 2 -W 2 10.7.0.2 -- "aqv0 is a port of br-aq, 10.7.0.1 on the bridge"
tap_is "$(ip route get 10.7.0.2 | grep -o 'dev [^ ]*')" "dev br-aq" "the route to the peer is through br-aq"

# --- A. the view lists the peer -----------------------------------------------
insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=2 period_ms=2000 \
	addrs="$PEER,$other" occ=0,150000 rate=6000,54000
modprobe tcp_airtime n=16
flow_start
wait_air source mac80211-ap && [ "$(air_get $cport rate)" = 6000 ]
tap_ok_if "$(( $? == 0 ))" "behind br-aq: capped from aqv0's AP view, the peer at 6 Mbit/s" \
	"$(line) / $(grep -A 2 '^view aqv0' $par/views | tr '\n' ' ')"
theta=$(air_get $cport theta)
tap_in_range "${theta:-0}" 1 3000000 "its theta is set (B/s)"
flow_stop

# --- B. the view lists only another station ---------------------------------------
rmmod airtime_fakefb
# tcp_airtime only binds at load: wait until the last flow's sockets let
# it go (a plain modprobe -r can fail while they close, and the reloaded
# provider would then have no consumer)
airtime_unload || tap_diag "tcp_airtime could not be unloaded"
insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=1 period_ms=2000 \
	addrs="$other" occ=150000 rate=54000
modprobe tcp_airtime n=16
flow_start
# the view applies, but it has no rate for a station it does not list
# (as on aqv0 directly): no-rate, where a route without a view says no-view
wait_air source no-rate
tap_ok_if "$(( $? == 0 ))" "peer not in the view yet: the bridge's only port with a view applies (no-rate, not no-view)" \
	"$(line)"
flow_stop

# --- C. the same without the bridge -------------------------------------------------
rmmod airtime_fakefb
# tcp_airtime only binds at load: wait until the last flow's sockets let
# it go (a plain modprobe -r can fail while they close, and the reloaded
# provider would then have no consumer)
airtime_unload || tap_diag "tcp_airtime could not be unloaded"
ip addr del 10.7.0.1/24 dev br-aq
ip link set aqv0 nomaster
ip link del br-aq
ip addr add 10.7.0.1/24 dev aqv0
ping -c 1 -W 2 10.7.0.2 >/dev/null
insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=2 period_ms=2000 \
	addrs="$PEER,$other" occ=0,150000 rate=6000,54000
modprobe tcp_airtime n=16
flow_start
wait_air source mac80211-ap && [ "$(air_get $cport rate)" = 6000 ]
tap_ok_if "$(( $? == 0 ))" "without the bridge: the same cap from aqv0's view" "$(line)"
theta0=$(air_get $cport theta)
flow_stop
tap_diag "theta behind the bridge $theta B/s, on aqv0 directly $theta0 B/s"
rmmod airtime_fakefb
airtime_unload
kernel_log_clean
tap_done
