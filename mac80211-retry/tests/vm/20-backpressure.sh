#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry: netdev queue backpressure on stock mac80211_hwsim.
#
#  - phyN/backpressure/ exists, defaults "auto", depth 32; bad writes EINVAL;
#  - with noqueue (the default root) nothing is counted or stopped;
#  - with a root pfifo and a UDP flood from the AP, the qdisc shows a
#    backlog while mac80211's count stays at or under the depth;
#  - "off" never stops the queue: the root qdisc holds nothing.
#
# With the testbed's medium (build/medium/aqmedium) the radio is airtime
# bound (802.11g) and the depth is 8; without it hwsim completes frames at
# once, so the test uses depth 1 to make the MAC the bottleneck.
. "$AQ_TOP/testbed/lib/guest.sh"

N=12
tap_plan $N
trap aq_cleanup_all EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

skip_all() { for i in $(seq "$1"); do tap_skip "backpressure" "$2"; done; exit 0; }
hwsim_load 2 || skip_all $N "mac80211_hwsim does not load"
phys=($(hwsim_phys))
B=/sys/kernel/debug/ieee80211/${phys[0]}/backpressure
[ -d "$B" ] || skip_all $N "mac80211 is not patched (no $B)"

wr() { printf '%s' "$1" >"$2" 2>"$AQ_TMP/wr.err"; }
reject() { # FILE VALUE DESC
	local before after
	before=$(cat "$1")
	if wr "$2" "$1"; then tap_fail "$3: '$2' rejected" "write succeeded"; return; fi
	after=$(cat "$1")
	if grep -q "Invalid argument" "$AQ_TMP/wr.err"; then
		tap_is "$after" "$before" "$3: '$2' rejected with EINVAL, unchanged"
	else
		tap_fail "$3: '$2' rejected with EINVAL" "$(cat "$AQ_TMP/wr.err")"
	fi
}

tap_is "$(cat "$B/mode")" auto "default mode auto"
tap_is "$(cat "$B/depth")" 32 "default depth 32"
reject "$B/mode" bogus "mode"
reject "$B/depth" 0 "depth"
reject "$B/depth" 100000 "depth"

MED=${AQ_BUILD:-$AQ_TOP/build}/medium/aqmedium
depth=1
med_pid=
if [ -x "$MED" ]; then
	"$MED" -c "$AQ_TOP/testbed/medium/configs/live-default.json" \
		>"$AQ_TMP/medium.out" 2>"$AQ_TMP/medium.log" &
	med_pid=$!
	depth=8
	sleep 0.5
	trap 'kill $med_pid 2>/dev/null; aq_cleanup_all' EXIT
fi
tap_diag "medium: $([ -n "$med_pid" ] && echo running || echo absent), depth $depth"

topo_ap_sta_server 1 g >"$AQ_TMP/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"; skip_all $((N - 5)) "AP/STA topology failed"; }

iperf3_server sta >/dev/null 2>&1
sleep 0.5
# flood SECONDS: UDP from the AP to the STA; prints the largest qdisc
# backlog (packets) seen in 0.1 s samples
flood() {
	ip netns exec ap iperf3 -c 10.0.0.2 -u -b 2G -l 1400 -t "$1" >/dev/null 2>&1 &
	local pid=$! max=0 b
	while kill -0 $pid 2>/dev/null; do
		b=$(ip netns exec ap tc -s -j qdisc show dev "$AP_IF" |
			jq '[.[] | select(.root == true) | .qlen // 0] | max // 0')
		[ "${b:-0}" -gt "$max" ] && max=$b
		sleep 0.1
	done
	echo "$max"
}
iface_stat() { awk -v i="$AP_IF" -v c="$1" '$1 == i {print $c}' "$B/stats"; }

max=$(flood 2)
tap_is "$max" 0 "noqueue root: no qdisc backlog"
tap_is "$(iface_stat 4)" 0 "noqueue root, auto: the queue was never stopped"

ip netns exec ap tc qdisc replace dev "$AP_IF" root pfifo limit 1000
wr "$depth" "$B/depth"
max=$(flood 3)
tap_diag "root pfifo, depth $depth: largest qdisc backlog $max packets" \
	"$(cat "$B/stats")"
tap_in_range "$max" 1 1000 "root pfifo, auto: the qdisc holds a backlog"
tap_in_range "$(iface_stat 4)" 1 100000000 "root pfifo, auto: the queue was stopped"
tap_in_range "$(iface_stat 6)" 1 $((depth + 4)) "mac80211 held at most the depth ($depth, +4 for concurrent queues)"
ip netns exec ap tc -s qdisc show dev "$AP_IF" | sed 's/^/# /'

wr off "$B/mode"
stops=$(iface_stat 4)
max=$(flood 2)
tap_is "$max" 0 "mode off: the root qdisc holds nothing"
tap_is "$(iface_stat 4)" "$stops" "mode off: the queue is never stopped"
tap_done
