#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry: the backpressure count returns to zero on every path a
# frame can take, on stock mac80211_hwsim (issue #16).
#
# With a root pfifo on the AP and a depth of 8, the AP sends bursts of 24
# UDP datagrams (three times the depth) to its station:
#  - broadcast and multicast with the station awake;
#  - unicast, then broadcast and multicast, with the station in power save
#    (mac80211 buffers them for the dozing station until a beacon's TIM,
#    broadcast until a DTIM beacon; beacon interval 200 TU, DTIM period 3,
#    so they wait up to 600 ms, far longer than the 100 ms stall timer);
#  - unicast to an address no station has (mac80211 drops them before its
#    TXQs);
# and after each phase phyN/backpressure/stats must show the count back at
# 0, the queue not stopped and no stall-timer wake ("stalls" 0): a frame
# counted but never counted down holds the queue stopped until the timer
# fires.  Finally an interface down/up leaves the count at 0.
. "$AQ_TOP/testbed/lib/guest.sh"

N=13
tap_plan $N
trap aq_cleanup_all EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

skip_all() { for i in $(seq "$1"); do tap_skip "backpressure leaks" "$2"; done; exit 0; }
hwsim_load 2 || skip_all $N "mac80211_hwsim does not load"
phys=($(hwsim_phys))
B=/sys/kernel/debug/ieee80211/${phys[0]}/backpressure
[ -d "$B" ] || skip_all $N "mac80211 is not patched (no $B)"

DEPTH=8
BURST=24
topo_ap_sta_server 1 g beacon_int=200 dtim_period=3 >"$AQ_TMP/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"; skip_all $N "AP/STA topology failed"; }

PY=$(command -v python3)
# The station's sink: counts the datagrams it receives on port 9999
# (unicast, broadcast and the multicast group), so nothing answers them.
cat >"$AQ_TMP/sink.py" <<'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9999))
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
             struct.pack("4s4s", socket.inet_aton("239.1.2.3"),
                         socket.inet_aton("10.0.0.2")))
n = 0
while True:
    s.recv(2048)
    n += 1
    with open(sys.argv[1], "w") as f:
        f.write("%d\n" % n)
EOF
# bursts DST COUNT: COUNT bursts of $BURST datagrams, 0.6 s apart (the
# station dozes again in between)
cat >"$AQ_TMP/burst.py" <<'EOF'
import socket, sys, time
dst, bursts, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
             socket.inet_aton("10.0.0.1"))
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
for b in range(bursts):
    for i in range(size):
        s.sendto(b"x" * 200, (dst, 9999))
    time.sleep(0.6)
EOF
echo 0 >"$AQ_TMP/sink.count"
aq_bg ip netns exec sta "$PY" "$AQ_TMP/sink.py" "$AQ_TMP/sink.count"
# ready once it has joined the group (after binding): a slow guest takes
# a while to start python
for i in $(seq 100); do
	ip -n sta maddr show dev "$STA_IF" | grep -q 239.1.2.3 && break
	sleep 0.1
done
bursts() { ip netns exec ap "$PY" "$AQ_TMP/burst.py" "$1" "$2" "$BURST"; }
received() { cat "$AQ_TMP/sink.count"; }
# got_bursts R0 N DESC: the sink received at least 90 % of N bursts since R0
got_bursts() {
	tap_in_range "$(( $(received) - $1 ))" $(($2 * BURST * 9 / 10)) $(($2 * BURST)) "$3"
}

ip netns exec ap tc qdisc replace dev "$AP_IF" root pfifo limit 1000
printf '%s' "$DEPTH" >"$B/depth"
tap_diag "mode $(cat "$B/mode"), depth $(cat "$B/depth"), root pfifo on $AP_IF"

# stat COLUMN: the AP interface's row of stats
# (interface inflight stopped stops stalls max_inflight)
stat() { awk -v i="$AP_IF" -v c="$1" '$1 == i {print $c}' "$B/stats"; }
# settle DESC: traffic has stopped; give every buffered frame time to be
# delivered (the station wakes at the next beacon with its TIM bit), then
# the count is 0, the queue open and the stall timer never fired
settle() {
	local i
	for i in $(seq 30); do
		[ "$(stat 2)" = 0 ] && break
		sleep 0.1
	done
	sleep 0.3
	tap_diag "after $1: $(grep -v '^#' "$B/stats" | grep "^$AP_IF ")"
	tap_is "$(stat 2)/$(stat 3)" 0/0 "$1: inflight back to 0, queue not stopped"
	tap_is "$(stat 5)" 0 "$1: no stall-timer wake"
}

# 1. station awake: group addressed frames
ip netns exec sta iw dev "$STA_IF" set power_save off
r0=$(received)
bursts 10.0.0.255 3
bursts 239.1.2.3 3
settle "broadcast+multicast, station awake"
got_bursts "$r0" 6 "station awake: the station received the group addressed bursts"

# 2. station in power save
ip netns exec sta iw dev "$STA_IF" set power_save on
tap_diag "station power save: $(ip netns exec sta iw dev "$STA_IF" get power_save)"
sleep 1
# a frame for a dozing station waits for a beacon (200 TU apart): some
# of three pings, 1 s apart, take longer than 20 ms
rtt=$(ip netns exec ap ping -q -c 3 -i 1 -W 2 10.0.0.2 |
	awk -F/ '/^rtt|^round-trip/ {printf "%d", $6}')
tap_diag "largest ping RTT to the station in power save: ${rtt:-none} ms"
tap_in_range "${rtt:-0}" 20 2000 "the station dozes (frames to it are buffered)"
sleep 1

r0=$(received)
bursts 10.0.0.2 6
settle "unicast to a dozing station"
got_bursts "$r0" 6 "power save: the station received the unicast bursts"

r0=$(received)
bursts 10.0.0.255 4
bursts 239.1.2.3 4
settle "broadcast+multicast with a dozing station"
got_bursts "$r0" 8 "power save: the station received the group addressed bursts"

# 3. frames mac80211 drops before its TXQs: no station has this address
ip -n ap neigh replace 10.0.0.99 lladdr 02:00:00:00:99:99 dev "$AP_IF" nud permanent
bursts 10.0.0.99 3
settle "unicast to an unknown station"

# 4. interface down and up
ip -n ap link set "$AP_IF" down
ip -n ap link set "$AP_IF" up
tap_is "$(stat 2)/$(stat 3)" 0/0 "interface down/up: inflight 0, queue not stopped"
tap_diag "$(cat "$B/stats")"
tap_done
