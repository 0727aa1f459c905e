#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 56  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
#
# tcp_airtime's receiver on an asymmetric link, with mac80211's own airtime
# view (mac80211-retry patch 0006 carries the receive rate in it): an AP and
# one station through the testbed's medium, 802.11g.  The AP reaches sta1
# at SNR 15 dB (a one-way link, "symmetric": false) and may use only 6 and
# 54 Mbit/s, so its data frames go at 6 Mbit/s (54 Mbit/s fails at 15 dB);
# sta1 reaches the AP over the path-loss model (5 m, about 50 dB) and sends
# at 54 Mbit/s.  sta1 downloads from the AP with airtime as its congestion
# control, i.e. as a receiver (clamp of the advertised window).  20 ms of
# netem on sta1's egress give the clamp theta * RTT_min room above its
# floor of two segments (without it RTT_min is 0.4 ms and the floor, not
# theta, sets the window).
#
#  - the set-up: the AP's tx bitrate to sta1 is 6 Mbit/s, sta1's own 36 to
#    54, in at least 80 % of the station dumps taken every 0.5 s during the
#    download (the bitrate is the last frame's: one dump at the end read
#    54 Mbit/s for the AP once, a rate control probe; in a CI run,
#    2026-11-29, 2 of sta1's 8 dumps read a rate other than 54, while all
#    8 of its views had rate >= 36000: likely minstrel's move after a
#    collision, below.  The diagnostics list every rate the dumps read);
#  - sta1's view as tcp_airtime caches it: rx_rate 6000 (what it
#    receives) and rate at least 36000 (what it sends: minstrel's choice on
#    the clean link back) in most samples.  Not 54000 only: sta1's TCP
#    ACKs collide with the AP's frames, minstrel then moves to 48 Mbit/s
#    for a while, and a rate change ends the view's slot at once, so such
#    short views are more frequent than the time at 48 (a run: 2 of 8
#    views, at slots of 20 and 51 ms, 54 in all 8 station dumps);
#  - the receiving socket's theta (/proc/net/tcp_airtime) is that of 6 Mbit/s data
#    frames: theta = tau_avail / T_TCP * 2 * 1448 B / T (10), T_TCP =
#    4780.5 us at 6 Mbit/s and 976.5 us at 54 (04-cap-fake-feedback.sh),
#    i.e. 4.73 resp. 23.2 Mbit/s for a whole slot.  sta1 is the only active
#    station: its share x_avail is t_bar = T - t_beacon, at most 1.2 t_bar
#    when unsatisfied (4)-(5).  A connection gets at least x_avail / M_x
#    (M_x = 2 with iperf3's control connection) and at most about
#    1.5 x_avail: the station's unused share (9) is reckoned with the
#    connections' airtime of the previous slot, small after a short slot
#    (measured: a 107 ms slot, then theta 6.56 Mbit/s).  So theta is at
#    most 1.5 * 1.2 * 4.73 = 8.5 Mbit/s with the receive rate, and at least
#    0.5 * 23.2 = 11.6 Mbit/s with the transmit rate.  Bound: at most
#    9.0 Mbit/s;
#  - the download stays within that theta.
#
# And the RTS/CTS of the model (parameter rts, default auto: the wiphy's
# RTS threshold, as mac80211 decides; airtime_kunit.c checks the model):
# sta1's views carry its wiphy's threshold, -1 (none) during the download
# and 0 once "iw phy set rts 0" is in force; the parameter reads auto,
# takes on, Y (on), off and auto, and refuses anything else.
#
# Needs mac80211's airtime view (patch 0006): without it, the
# checks that need it are skipped with the reason.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

NT=10
AT_NAME="rx rate"
T_RUN=${AQ_RXRATE_T:-5}
W=$AQ_TMP/rxrate
OUT=$AQ_RESULTS/tcp_airtime-rxrate
mkdir -p "$W" "$OUT"
par=/sys/module/tcp_airtime/parameters
tap_plan $NT

cleanup() {
	medium_stop >/dev/null 2>&1
	cp "$AQ_TMP/medium.log" "$AQ_TMP/hostapd-ap.log" "$W/" 2>/dev/null
	cp -r "$W/." "$OUT/" 2>/dev/null
	aq_cleanup_all >/dev/null 2>&1
	modprobe -r tcp_airtime 2>/dev/null
}
trap cleanup EXIT

need_wifi_tools

cat >"$W/medium.json" <<'EOF'
{ "phy": { "standard": "g" }, "unknown_radios": "add",
  "hwsim_ext": true,
  "radios": [
    { "name": "ap", "hwsim_index": 0, "pos": [0, 0] },
    { "name": "sta1", "hwsim_index": 1, "pos": [5, 0] }
  ],
  "links": [ { "from": "ap", "to": "sta1", "snr_db": 15, "symmetric": false } ]
}
EOF
hwsim_load 2 || fail_rest "mac80211_hwsim radios=2 does not load"
medium_start "$W/medium.json" || fail_rest "aqmedium does not start"
topo_bss 1 1 g basic_rates=60 >"$W/topo.log" 2>&1 ||
	fail_rest "BSS: $(tail -n 2 "$W/topo.log" | tr '\n' ' ')"
STA_IF=${STA_IFS[0]}
# the mask must hold the BSS's basic rate (6 Mbit/s)
ip netns exec ap iw dev "$AP_IF" set bitrates legacy-2.4 6 54 ||
	fail_rest "iw set bitrates on the AP"
mac1=$(ip netns exec sta1 cat "/sys/class/net/$STA_IF/address")
netem sta1 "$STA_IF" delay 20ms limit 1000

modprobe -r tcp_airtime 2>/dev/null
modprobe tcp_airtime || fail_rest "modprobe tcp_airtime"
tap_is "$(cat $par/feedback)" mac80211 "tcp_airtime bound to the mac80211 feedback"

ip netns exec ap sysctl -qw net.ipv4.tcp_congestion_control=reno
ip netns exec sta1 sysctl -qw net.ipv4.tcp_congestion_control=reno
iperf3_server sta1 >/dev/null
iperf3_server ap 5202 >/dev/null
# warm-up: minstrel finds each side's rate (sta1's by sending, the AP's by
# sending to it)
iperf3_client sta1 10.0.0.1 -p 5202 -t 1 >/dev/null 2>&1
iperf3_client ap 10.0.0.2 -t 1 >/dev/null 2>&1
ip netns exec sta1 sysctl -qw net.ipv4.tcp_congestion_control=airtime

exec {nap}<> <(:)	# read -t on it: a sleep without a process
# Each process costs ~0.2 s in the TCG guest, so a sample costs three (ss
# and two iw), the rest is bash: sta1's /proc/net/tcp_airtime read through
# its iperf3 server's /proc/PID (lib-airtime.sh's ss_air_sample_at), the
# views and the bitrates filtered with read.
s1air=/proc/$(cat "$AQ_TMP/iperf3-sta1-5201.pid" 2>/dev/null)/net/tcp_airtime
view_of() { # IF: the line "view IF ..." of $par/views and the one after it
	local l on=0
	while IFS= read -r l; do
		case $l in
		"view $1 "*) echo "$l"; on=1 ;;
		*) [ $on = 1 ] && echo "$l"; on=0 ;;
		esac
	done <$par/views
}
tx_bitrates() { # NS IF: the tx bitrate of each station in IF's station dump
	local a b c _ out
	out=$(ip netns exec "$1" iw dev "$2" station dump 2>/dev/null)
	while read -r a b c _; do
		[ "$a $b" = "tx bitrate:" ] && echo "$c"
	done <<<"$out"
}
# the download: sta1's server socket takes its namespace's default
# (airtime), the AP's client its own (reno); no -C, which the server copies
: >"$W/rx.ss"
: >"$W/rx.views"
: >"$W/ap-tx.rates"
: >"$W/sta1-tx.rates"
ip netns exec ap iperf3 -c 10.0.0.2 -t "$T_RUN" -J >"$W/rx.json" 2>&1 &
pid=$!
k=0
while kill -0 "$pid" 2>/dev/null; do
	if [ $((k++ % 5)) = 4 ]; then
		ss_air_sample_at "$W/rx.ss" sta1 "$s1air" sport = :5201
		view_of "$STA_IF" >>"$W/rx.views" 2>/dev/null
		tx_bitrates ap "$AP_IF" >>"$W/ap-tx.rates"
		tx_bitrates sta1 "$STA_IF" >>"$W/sta1-tx.rates"
	fi
	read -r -t 0.1 -u "$nap"
done
wait "$pid"
ss_air_join "$W/rx.ss" >"$W/rx.air"
ip netns exec ap iw dev "$AP_IF" station dump >"$W/ap-stations.txt" 2>&1
ip netns exec sta1 iw dev "$STA_IF" station dump >"$W/sta1-stations.txt" 2>&1

bitrate() { awk -v k="$2" '$1 == k && $2 == "bitrate:" { print $3; exit }' "$W/$1-stations.txt"; }
sta_rx=$(bitrate sta1 rx)
# "samples share-in-percent" of the sampled tx bitrates in [LO, HI] Mbit/s
share() { awk -v lo="$2" -v hi="$3" '{ n++; if ($1 >= lo && $1 <= hi) k++ }
	END { printf "%d %d\n", n, n ? 100 * k / n : 0 }' "$W/$1-tx.rates"; }
read -r ap_n ap_pct < <(share ap 6 6)
read -r st_n st_pct < <(share sta1 36 54)
mx=$(iperf3_mbps "$W/rx.json" received)
# sta1's entry in its own views: "sta MAC occ X rate R rx_rate RX"
read -r v_n v_ok v_bad < <(awk -v m="$mac1" '$1 == "sta" && $2 == m { n++;
		if ($6 >= 36000 && $8 == 6000) ok++; else if (k++ < 4) bad = bad " " $6 "/" $8
	} END { printf "%d %d%s\n", n, ok, bad }' "$W/rx.views")
# theta of the data connection (more than 100 kB received), Mbit/s
read -r th_n th_lo th_hi < <(awk "$AIR_AWK"'air("theta") > 0 {
		match($0, /bytes_received:[0-9]+/); if (substr($0, RSTART + 15, RLENGTH - 15) + 0 < 100000) next
		bw = air("theta") * 8 / 1e6
		n++; if (n == 1 || bw < lo) lo = bw; if (bw > hi) hi = bw
	} END { printf "%d %.3f %.3f\n", n, lo, hi }' "$W/rx.air")
tap_diag "AP tx bitrate to sta1: 6.0 in $ap_pct % of $ap_n samples; sta1 tx: 36..54 in $st_pct % of $st_n ($(sort "$W/sta1-tx.rates" | uniq -c | tr -s ' \n' ' ')), rx $sta_rx Mbit/s at the end; download $mx Mbit/s" \
	"sta1's views: $v_n samples, $v_ok with rate >= 36000 and rx_rate 6000 (others, rate/rx_rate: ${v_bad:-none}); $(tail -n 2 "$W/rx.views" | tr '\n' ' ')" \
	"theta of sta1's receiving socket: $th_n samples, $th_lo..$th_hi Mbit/s" \
	"$(grep -m 2 -o 'airtime:([^)]*)' "$W/rx.air" | tr '\n' ' ')"

tap_in_range "$(( ${ap_n:-0} >= 3 ? ${ap_pct:-0} : 0 ))" 80 100 "the AP sends to sta1 at 6 Mbit/s (SNR 15 dB, rates 6 and 54; % of samples)"
tap_in_range "$(( ${st_n:-0} >= 3 ? ${st_pct:-0} : 0 ))" 80 100 "sta1 sends at 36..54 Mbit/s (the link back is clean; % of samples)"
[ "${v_n:-0}" -gt 0 ] ||
	skip_rest "no airtime view of $STA_IF from mac80211 (needs mac80211-retry patch 0006)"
tap_in_range "$(( ${v_ok:-0} * 10 >= ${v_n:-1} * 8 ))" 1 1 \
	"sta1's view: rx_rate 6000, rate >= 36000 ($v_ok of $v_n samples, >= 80 %)"
tap_in_range "${th_n:-0}" 3 100000 "sta1's receiving airtime socket has a cap (/proc/net/tcp_airtime)"
tap_in_range "${th_hi:-99}" 0.5 9.0 "its theta is that of 6 Mbit/s data frames (<= 8.5 Mbit/s; at 54 Mbit/s >= 11.6)"
tap_in_range "${mx:-0}" 0.3 "$(awk -v t="$th_hi" 'BEGIN { print 1.15 * t }')" \
	"the download stays within theta ($th_hi Mbit/s, +15 %)"
# the RTS threshold: none during the download, 0 at the next view after
# iw sets it (a view every slot, 307 ms; 3 s allowed)
read -r rts_n rts_off < <(awk -v i="$STA_IF" '$1 == "view" && $2 == i { n++;
		for (f = 3; f < NF; f++) if ($f == "rts_threshold" && $(f + 1) == -1) k++ }
	END { printf "%d %d\n", n, k }' "$W/rx.views")
tap_ok_if "$(( ${rts_n:-0} > 0 && rts_n == rts_off ))" \
	"sta1's views carry its wiphy's RTS threshold: -1 (none) during the download" \
	"$rts_off of $rts_n views"
sta_phy=phy$(ip netns exec sta1 iw dev "$STA_IF" info | awk '/wiphy/ { print $2; exit }')
ip netns exec sta1 iw phy "$sta_phy" set rts 0
got=
for _ in {1..30}; do
	got=$(view_of "$STA_IF" | awk '$1 == "view" { for (f = 3; f < NF; f++)
		if ($f == "rts_threshold") print $(f + 1) }')
	[ "$got" = 0 ] && break
	read -r -t 0.1 -u "$nap"
done
tap_is "$got" 0 "after iw phy $sta_phy set rts 0, sta1's view carries threshold 0"
ip netns exec sta1 iw phy "$sta_phy" set rts off
modes=$(cat $par/rts)
for m in on Y off auto; do
	echo "$m" >$par/rts 2>/dev/null && modes="$modes $m:$(cat $par/rts)" || modes="$modes $m:refused"
done
echo bogus >$par/rts 2>/dev/null && modes="$modes bogus:$(cat $par/rts)" || modes="$modes bogus:refused"
tap_is "$modes" "auto on:on Y:on off:off auto:auto bogus:refused" \
	"parameter rts: auto by default; on, Y, off, auto taken; bogus refused"
tap_done
