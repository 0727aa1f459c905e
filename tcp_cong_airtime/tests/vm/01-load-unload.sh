#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime: module load/unload, parameter validation, and the module
# reference count while connections (and the netns default) use "airtime".
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

tap_plan 18

sysfs=/sys/module/tcp_airtime
avail=/proc/sys/net/ipv4/tcp_available_congestion_control

modprobe -r tcp_airtime 2>/dev/null
ok modprobe tcp_airtime -- "modprobe tcp_airtime"
ok grep -qw airtime "$avail" -- "airtime in tcp_available_congestion_control"
deps=$(modinfo -F depends tcp_airtime 2>/dev/null)
case ",$deps," in
*,mac80211,*) tap_fail "no module dependency on mac80211" "depends: $deps" ;;
*) tap_ok "no module dependency on mac80211 (depends: '${deps}')" ;;
esac
fb=$(cat "$sysfs/parameters/feedback" 2>/dev/null)
case "$fb" in
mac80211|"none (NewReno)") tap_ok "feedback source reported: $fb" ;;
*) tap_fail "feedback source reported" "got '$fb'" ;;
esac

# parameter validation: out of range refused, in range accepted
bad=0
for kv in r=0 r=100 n=0 n=17 b=0 b=9 beacon_tu=5 phy=11b; do
	if echo "${kv#*=}" >"$sysfs/parameters/${kv%%=*}" 2>/dev/null; then
		bad=$((bad + 1)); tap_diag "accepted ${kv}"
	fi
done
tap_is "$bad" 0 "out-of-range parameters refused (r, n, b, beacon_tu, phy)"
good=0
for kv in r=50 n=5 b=1 beacon_tu=200 phy=11g-prot phy=auto r=80 n=3 b=2 beacon_tu=100; do
	echo "${kv#*=}" >"$sysfs/parameters/${kv%%=*}" 2>/dev/null && good=$((good + 1))
done
tap_is "$good" 10 "valid parameter values accepted"
tap_is "$(cat $sysfs/parameters/phy)" auto "phy reads back 'auto'"

# client in the initial netns (ss runs there directly), server in "b",
# a 10 ms delay each way so that connections last
netns_new b || exit 1
ip link add aqv0 type veth peer name vb netns b || exit 1
ip addr add 10.7.0.1/24 dev aqv0 && ip link set aqv0 up
ip -n b addr add 10.7.0.2/24 dev vb && ip -n b link set vb up
tc qdisc replace dev aqv0 root netem delay 10ms
netem b vb delay 10ms
iperf3_server b >/dev/null
# a long run, stopped once the checks are done (the guest may be slow)
iperf3 -c 10.7.0.2 -C airtime -t 120 -P 4 -J >"$AQ_TMP/ul.json" 2>&1 &
client=$!
n_air=0
# up to 2 min: the debug kernel under TCG took over 30 s to set the four up
for i in $(seq 240); do
	n_air=$(ss -tin state established dst 10.7.0.2 | grep -c ' airtime ')
	[ "$n_air" -ge 4 ] && break
	sleep 0.5
done
tap_in_range "$n_air" 4 5 "iperf3 -C airtime: sockets use airtime"
ref=$(cat $sysfs/refcnt)
tap_in_range "$ref" 4 1000 "module refcount held by the connections"
if modprobe -r tcp_airtime 2>/dev/null; then
	tap_fail "modprobe -r refused while connections use airtime"
else
	tap_ok "modprobe -r refused while connections use airtime"
fi
sleep 2
kill -INT "$client"
wait "$client"
bytes=$(jq -r '.end.sum_sent.bytes' "$AQ_TMP/ul.json" 2>/dev/null)
tap_in_range "$bytes" 1 1e15 "iperf3 with airtime moved data (stopped with SIGINT)"
tap_diag "4 airtime flows over veth: $(iperf3_mbps "$AQ_TMP/ul.json" received) Mbit/s"
for i in $(seq 20); do
	[ "$(cat $sysfs/refcnt)" = 0 ] && break
	sleep 0.25
done
tap_is "$(cat $sysfs/refcnt)" 0 "refcount back to 0 when the connections are closed"
pkill -x iperf3
ip link del aqv0

# a netns default holds a reference too (allowed: TCP_CONG_NON_RESTRICTED)
ok ip netns exec b sysctl -qw net.ipv4.tcp_congestion_control=airtime -- \
	"airtime as the default of a non-initial netns"
tap_is "$(cat $sysfs/refcnt)" 1 "refcount held while airtime is a netns default"
ip netns exec b sysctl -qw net.ipv4.tcp_congestion_control=reno
ip netns del b
sleep 1

ok modprobe -r tcp_airtime -- "modprobe -r once no socket uses airtime"
ok test ! -d "$sysfs" -- "module gone"
ok modprobe tcp_airtime -- "reload"
if dmesg | grep -E -q 'BUG:|WARNING:|Oops|refcount_t'; then
	tap_fail "no kernel warning" "$(dmesg | grep -E 'BUG:|WARNING:|Oops|refcount_t' | head -n 2)"
else
	tap_ok "no kernel warning"
fi
modprobe -r tcp_airtime
tap_done
