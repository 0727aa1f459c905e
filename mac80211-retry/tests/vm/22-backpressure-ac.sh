#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aq-vm-clock: virtual
# aq-vm-cost: 105  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# (the RTTs are the medium's airtime: they must be guest time)
#
# mac80211-retry: backpressure per access category.  A saturated best
# effort flow must not hold voice back: the AP's wlan netdev has a tx
# queue per AC, frames go to their AC's queue, and backpressure stops only
# the AC at its depth.  Through the testbed's medium (802.11g, the AP 5 m
# from its station), root mq with a pfifo per AC:
#
#  - the netdev has 4 tx queues and mq attaches to it;
#  - a UDP flood at TOS 0 (AC_BE, four iperf3 streams: each UDP socket
#    holds at most its send buffer, about 40 packets, in the qdisc) fills
#    BE's pfifo beyond twice the depth (backpressure holds the queue in
#    the qdisc), stops BE's queue and never VO's; mac80211 holds at most
#    the depth of BE frames;
#  - ping at TOS 0xb8 (EF, AC_VO) during the flood (40 pings 50 ms
#    apart): no more than 5 % lost and p95 RTT within 15 ms, while ping at
#    TOS 0 (AC_BE) side by side in the same flood waits behind BE's
#    backlog, its median at least 5 times VO's p95 and at least 5 ms;
#  - with a single root pfifo instead of mq the ACs share one FIFO, so the
#    voice ping waits like best effort: reported, not asserted (documented
#    in Documentation/networking/mac80211-retry.rst);
#  - an explicit 802.1d priority survives the queue choice: with that root
#    pfifo, 20 UDP datagrams at TOS 0 given priority 256 + 6 by tc skbedit
#    at clsact egress (as TAP's classification of pure ACKs does) go out on
#    AC_VO, as the medium counts the AP's UDP frames per AC.  The queue choice used to leave the bare tag
#    6 in skb->priority, which mac80211's own choice then took from the
#    DSCP instead: BE.
#
# Before per-AC backpressure (one netdev tx queue, netif_tx_stop_all_queues)
# mq does not attach and the voice checks fail.
. "$AQ_TOP/testbed/lib/guest.sh"

N=12
tap_plan $N
trap 'medium_stop; aq_cleanup_all' EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

skip_all() { for i in $(seq "$1"); do tap_skip "backpressure per AC" "$2"; done; exit 0; }
[ -x "$MEDIUM_BIN" ] || skip_all $N "the medium is not built ($MEDIUM_BIN)"
hwsim_load 2 || skip_all $N "mac80211_hwsim does not load"
phys=($(hwsim_phys))
B=/sys/kernel/debug/ieee80211/${phys[0]}/backpressure
[ -d "$B" ] || skip_all $N "mac80211 is not patched (no $B)"

medium_config_bss "$AQ_TMP/medium.json" g 1 5
medium_start "$AQ_TMP/medium.json" || skip_all $N "the medium did not start"
topo_ap_sta_server 1 g >"$AQ_TMP/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"; skip_all $N "AP/STA topology failed"; }

depth=8
printf '%s' $depth >"$B/depth"
# ac_stat AC COLUMN: phyN/backpressure/stats of the AP's AC (VO, VI, BE, BK);
# columns: 2 inflight, 3 stopped, 4 stops, 5 stalls, 6 max_inflight
ac_stat() { awk -v i="$AP_IF:$1" -v c="$2" '$1 == i {print $c}' "$B/stats"; }

ntx=$(ip netns exec ap sh -c "ls -d /sys/class/net/$AP_IF/queues/tx-*" | wc -l)
tap_is "$ntx" 4 "the AP's netdev has a tx queue per AC"

if ip netns exec ap tc qdisc replace dev "$AP_IF" root handle 1: mq 2>"$AQ_TMP/mq.err"; then
	tap_ok "root mq attaches"
	# mq's class 1:N is tx queue N-1: VO, VI, BE, BK
	for c in 1 2 3 4; do
		ip netns exec ap tc qdisc replace dev "$AP_IF" parent 1:$c pfifo limit 1000
	done
else
	tap_fail "root mq attaches" "$(cat "$AQ_TMP/mq.err")"
fi

iperf3_server sta >/dev/null 2>&1
sleep 0.5
# be_backlog: the BE child's backlog (packets), from tc's text with shell
# built-ins (the loop below must not start more than one process a round)
be_backlog() {
	local l in=0 q=0
	while IFS= read -r l; do
		case "$l" in
		qdisc\ *\ parent\ 1:3\ *) in=1 ;;
		qdisc\ *) in=0 ;;
		*backlog\ *) [ $in = 1 ] && [[ $l =~ backlog\ [0-9]+b\ ([0-9]+)p ]] &&
			q=${BASH_REMATCH[1]} ;;
		esac
	done < <(ip netns exec ap tc -s qdisc show dev "$AP_IF")
	echo "$q"
}
# nap SECONDS: sleep with a built-in (read's time-out on a pipe nobody
# writes to)
exec {nap_fd}<> <(:)
nap() { read -rt "$1" -u "$nap_fd"; }
# under_flood poll|nopoll TOS OUT [TOS OUT]: $PINGS pings 50 ms apart at
# each TOS (side by side) during a UDP flood at TOS 0 from the AP to the
# station (4 s, the pings from 1 s in); with "poll", prints the largest BE
# backlog seen (sampled every 0.2 s)
PINGS=40
under_flood() {
	ip netns exec ap iperf3 -c 10.0.0.2 -u -b 500M -P 4 -l 1400 -t 4 >/dev/null 2>&1 &
	local pid=$! max=0 b pings=() poll=$1
	shift
	sleep 1
	while [ $# -ge 2 ]; do
		ip netns exec ap ping -n -Q "$1" -i 0.05 -c $PINGS -W 2 10.0.0.2 >"$2" 2>&1 &
		pings+=($!)
		shift 2
	done
	if [ "$poll" = poll ]; then
		while kill -0 "${pings[0]}" 2>/dev/null; do
			b=$(be_backlog)
			[ "${b:-0}" -gt "$max" ] && max=$b
			nap 0.2
		done
		echo "$max"
	fi
	wait "${pings[@]}" $pid
}
# pingsum OUT -> "REPLIES P50 P95" (ms, "none" without replies): the
# replies' RTTs in ping's output, percentiles by nearest rank as
# testbed/lib/pingstats.py's pct() (Python's round(), half to even), in
# awk: a python3 start costs seconds under TCG
pingsum() {
	sed -n 's/.*icmp_seq=[0-9][0-9]* .*time=\([0-9.][0-9.]*\) ms.*/\1/p' "$1" | sort -g |
		awk '{ v[n++] = $1 }
		function pct(p,   x, r) {
			x = p / 100 * (n - 1); r = int(x)
			if (x - r > 0.5 || (x - r == 0.5 && r % 2 == 1)) r++
			if (r > n - 1) r = n - 1
			return sprintf("%.1f", v[r])
		}
		END { if (n) print n, pct(50), pct(95); else print 0, "none", "none" }'
}

vo_stops0=$(ac_stat VO 4)
be_max=$(under_flood poll 0xb8 "$AQ_TMP/ping-vo.txt" 0 "$AQ_TMP/ping-be.txt")
read -r vo_n vo50 vo95 < <(pingsum "$AQ_TMP/ping-vo.txt")
vo_lost=$((PINGS - vo_n))
tap_diag "voice ping under a BE flood: p50 $vo50 ms," \
	"p95 $vo95 ms, $vo_lost of $PINGS lost; BE backlog up to $be_max packets" \
	"$(cat "$B/stats")"
tap_in_range "$be_max" $((2 * depth)) 1000 "BE's pfifo holds the flood's backlog (more than twice the depth)"
tap_in_range "$(ac_stat BE 4)" 1 100000000 "BE's queue was stopped"
tap_in_range "$(ac_stat BE 6)" 1 $((depth + 4)) \
	"mac80211 held at most the depth of BE frames ($depth, +4 for concurrent queues)"
tap_in_range "$(ac_stat VO 6)" 1 100000 "voice frames were counted as VO"
tap_is "$(ac_stat VO 4)" "$vo_stops0" "VO's queue was never stopped"
tap_in_range "$vo_lost" 0 $((PINGS / 20)) "voice ping: at most 5 % lost under the BE flood"
tap_in_range "${vo95/none/9999}" 0 15 "voice ping: p95 RTT within 15 ms under the BE flood"

read -r be_n be50 _ < <(pingsum "$AQ_TMP/ping-be.txt")
tap_diag "best effort ping (side by side with the voice one): p50 $be50 ms, $((PINGS - be_n)) lost"
if awk -v b="$be50" -v v="$vo95" 'BEGIN { exit !(b != "none" && v != "none" &&
	b + 0 >= 5 * v && b + 0 >= 5) }'; then
	tap_ok "best effort ping waits behind BE's backlog: p50 $be50 ms >= 5 x voice p95 $vo95 ms, >= 5 ms"
else
	tap_fail "best effort ping waits behind BE's backlog: p50 >= 5 x voice p95, >= 5 ms" \
		"best effort p50 $be50 ms, voice p95 $vo95 ms"
fi

# The same with one root FIFO shared by every AC: not asserted.
ip netns exec ap tc qdisc replace dev "$AP_IF" root pfifo limit 1000
under_flood nopoll 0xb8 "$AQ_TMP/ping-fifo.txt"
read -r fifo_n fifo50 _ < <(pingsum "$AQ_TMP/ping-fifo.txt")
tap_diag "root pfifo (one FIFO for all ACs): voice ping p50 $fifo50 ms," \
	"$((PINGS - fifo_n)) of $PINGS lost"

# An explicit priority through the root pfifo: AC_VO
udp_frames() { # -> "VO BE": the AP's UDP frames per AC, as the medium saw them
	medium_stats | jq -r '[.radios[] | select(.name == "ap")][0].ac |
		"\(.VO.l4.udp.frames) \(.BE.l4.udp.frames)"'
}
ip netns exec ap tc qdisc add dev "$AP_IF" clsact
ip netns exec ap tc filter add dev "$AP_IF" egress protocol ip prio 1 u32 \
	match ip protocol 17 0xff action skbedit priority 0:106
read -r vo0 be0 < <(udp_frames)
ip netns exec ap bash -c 'for i in $(seq 20); do echo x >/dev/udp/10.0.0.2/9; done'
sleep 1
read -r vo1 be1 < <(udp_frames)
tap_diag "UDP frames of the AP with priority 256 + 6: VO $((vo1 - vo0)), BE $((be1 - be0))"
tap_in_range $((vo1 - vo0)) 20 20 \
	"priority 256 + 6 from tc skbedit, root pfifo: 20 UDP datagrams at TOS 0 go out on VO"
ip netns exec ap tc qdisc del dev "$AP_IF" clsact

tap_in_range "$(ac_stat BE 5)" 0 0 "no stall-timer wake-up"
tap_done
