#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime is selectable the usual ways: sysctl default, per-route
# "ip route ... congctl airtime", setsockopt(TCP_CONGESTION), iperf3 -C.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

modprobe tcp_airtime || { echo "1..0 # SKIP tcp_airtime not loadable"; exit 0; }
tap_plan 9

# client in the initial netns, server in "b" (also reachable as 10.8.0.2)
netns_new b || exit 1
ip link add aqv0 type veth peer name vb netns b || exit 1
ip addr add 10.7.0.1/24 dev aqv0 && ip link set aqv0 up
ip -n b addr add 10.7.0.2/24 dev vb && ip -n b link set vb up
ip -n b link add d0 type dummy && ip -n b link set d0 up &&
	ip -n b addr add 10.8.0.2/24 dev d0
tc qdisc replace dev aqv0 root netem delay 10ms
iperf3_server b >/dev/null
old=$(sysctl -n net.ipv4.tcp_congestion_control)

cc_of_flow() { # DST -> congestion control of its established flows
	ss -tin state established dst "$1" 2>/dev/null |
		grep -o -E ' (airtime|reno|cubic|bbr) ' | tr -d ' ' | sort -u | tr '\n' ' '
}
# flow DST IPERF-ARGS...: the CC seen while an iperf3 flow runs
flow() {
	local dst=$1 pid got= i
	shift
	iperf3 -c "$dst" -t 120 "$@" -J >"$AQ_TMP/flow.json" 2>&1 &
	pid=$!
	for i in $(seq 60); do
		got=$(cc_of_flow "$dst")
		[ -n "$got" ] && break
		sleep 0.5
	done
	kill -INT "$pid"
	wait "$pid"
	echo "$got"
}

# 1. sysctl default
ok sysctl -qw net.ipv4.tcp_congestion_control=airtime -- \
	"sysctl net.ipv4.tcp_congestion_control=airtime"
tap_is "$(flow 10.7.0.2)" "airtime " "new connections use the sysctl default"
sysctl -qw net.ipv4.tcp_congestion_control=cubic
ok ip netns exec b sysctl -qw net.ipv4.tcp_congestion_control=airtime -- \
	"sysctl default in a non-initial netns (TCP_CONG_NON_RESTRICTED)"

# 2. per route
ok ip route add 10.8.0.0/24 via 10.7.0.2 congctl airtime -- \
	"ip route add ... congctl airtime"
shown=$(ip route show 10.8.0.0/24)
case "$shown" in
*"congctl airtime"*) tap_ok "route shows congctl airtime" ;;
*) tap_fail "route shows congctl airtime" "$shown" ;;
esac
tap_is "$(flow 10.8.0.2)" "airtime " "connections on that route use airtime (default cubic)"
ip route del 10.8.0.0/24

# 3. setsockopt(TCP_CONGESTION) before connect and on an established socket
out=$(python3 - <<'PY' 2>&1
import socket
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"airtime")
s.connect(("10.7.0.2", 5201))
a = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"reno")
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"airtime")
c = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode()
print(a, c)
s.close()
PY
)
tap_is "$out" "airtime airtime" "setsockopt(TCP_CONGESTION) before connect and switching on an established socket"

# 4. unprivileged setsockopt (allowed like reno)
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c '
import socket
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"airtime")
print(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode())' 2>&1)
tap_is "$out" airtime "unprivileged setsockopt(TCP_CONGESTION, airtime)"

# 5. iperf3 -C airtime
iperf3 -c 10.7.0.2 -C airtime -t 2 -J >"$AQ_TMP/c.json" 2>&1
tap_is "$(jq -r '.end.sender_tcp_congestion + " " + .end.receiver_tcp_congestion' "$AQ_TMP/c.json" 2>/dev/null)" \
	"airtime airtime" "iperf3 -C airtime (sender and receiver)"
sysctl -qw net.ipv4.tcp_congestion_control="$old"
ip link del aqv0 2>/dev/null
tap_done
