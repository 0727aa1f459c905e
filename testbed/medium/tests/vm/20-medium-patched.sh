#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# aq-vm-clock: virtual
# aq-vm-cost: 121  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# (airtime-bound rates need the guest clock to follow the medium)
#
# The medium with the patched mac80211_hwsim (testbed/hwsim-patches, in the
# default build/patched): one 802.11n HT20 BSS on channel 1 (the medium's
# "n24" standard), the AP at the origin, sta1 near (2 m) and sta2 far
# (FAR_M, below), log-distance path loss (exponent 3).  Asserts:
#
#  A. minstrel_ht over distance: a TCP upload from the near station runs at
#     a high MCS (tx bitrate in `iw station dump` on the sender), the far
#     station's at a low one, on aggregated frames (the medium counts
#     A-MPDUs from both stations: the patched hwsim marks them and reports
#     their Block Ack status, which is what minstrel_ht learns from);
#  B. two saturated stations (TCP uploads at the same time, 4 s): the medium
#     counts collisions (per-AC and same-slot: +3390 and +108 measured over
#     2 s) and both stations get a share;
#  C. survey: over that saturated interval (2 s, from 1 s into the
#     uploads; deviations of -0.1 % and -0.6 % measured), the change of "channel busy
#     time" in `iw survey dump` (the in-use channel) of the AP and of sta1
#     is within 5 % of the change of the medium's busy_us of that radio.
#  D. nothing lost between hwsim and the medium over that traffic: per
#     radio, the frames hwsim handed over (ethtool -S tx_pkts_nic) are the
#     frames the medium took for it (frames_in), the frames the medium
#     delivered (rx_frames, less those the kernel refused) are the frames
#     hwsim received (rx_pkts_nic), and hwsim dropped or failed none.  The
#     AP's beacons never stop, so "are" means: within what hwsim counted
#     in the reads just before and just after the medium's (a few frames).
#
# The far distance, from the model of Documentation/testbed/medium.rst:
#   SNR(d) = tx_power - PL0 - 10 n log10(d) - noise
#          = 20 - 40.05 - 30 log10(d) + 91 = 70.95 - 30 log10(d) dB.
# At 73 m SNR = 15.0 dB.  PER of 1000 octets, 1 / (1 + 9 exp(2 (SNR - s10))),
# with s10 = 9, 12, 14, 17, ... (MCS 0-3; +3 dB for the two-stream MCS 8+):
#   MCS 0 (6.5 Mbit/s) ~0, MCS 1 (13) 0.0002, MCS 2 (19.5) 0.015,
#   MCS 3 (26) 0.86, MCS 4+ ~1; MCS 8 (13) 0.0002, MCS 9 (26) 0.10,
#   MCS 10 (39) 0.86, MCS 11+ ~1.
# So the far station can only use rates of at most 26 Mbit/s, while at 2 m
# (SNR 62 dB) every MCS up to 15 (130 Mbit/s, long GI) works.  sta1 and sta2
# hear each other at -76 dBm, above the CCA threshold (-82 dBm): no hidden
# nodes, so collisions are same-slot ones.
set -u
AQ_TOP=${AQ_TOP:-/work/main}
AQ_BUILD=${AQ_BUILD:-$AQ_TOP/build}
AQ_RESULTS=${AQ_RESULTS:-/tmp/aq-results}
. "$AQ_TOP/testbed/lib/guest.sh"

NEAR_M=2
FAR_M=73
FAR_MAX_MBPS=26		# fastest rate with PER(1000 octets) <= 10 % at FAR_M
NEAR_MIN_MBPS=65	# MCS 7 / MCS 13: only usable close to the AP
# work in the guest's tmpfs (files written through 9p may read back empty in
# the same guest); copied to $AQ_RESULTS/medium-patched at exit
OUT=$AQ_TMP/medium-patched
mkdir -p "$OUT"
NTESTS=17
tap_plan $NTESTS

skip_all() {
	local i
	for i in $(seq $NTESTS); do tap_skip "medium with patched hwsim $i" "$1"; done
	exit 0
}
skip_rest() { # after a failed prerequisite: the rest of the plan as skipped
	while [ "$_tap_n" -lt $NTESTS ]; do
		tap_skip "medium with patched hwsim $((_tap_n + 1))" "$1"
	done
	exit 0
}
[ -x "$MEDIUM_BIN" ] || skip_all "$MEDIUM_BIN not built (make -C testbed/medium O=\$PWD/build/medium)"
for c in hostapd wpa_supplicant iperf3 jq iw python3; do
	command -v $c >/dev/null || skip_all "$c missing"
done

cleanup() {
	[ -n "$MEDIUM_PID" ] && kill "$MEDIUM_PID" 2>/dev/null
	aq_cleanup_all >/dev/null 2>&1
	cp "$AQ_TMP"/*.log "$AQ_TMP/medium-exit.json" "$OUT/" 2>/dev/null
	mkdir -p "$AQ_RESULTS" && cp -r "$OUT" "$AQ_RESULTS/"
}
trap cleanup EXIT

hwsim_load 3 || skip_all "mac80211_hwsim does not load"
[ -e /sys/module/mac80211_hwsim/parameters/hw_queue_depth ] ||
	skip_all "stock mac80211_hwsim (boot build/patched: testbed/vm/run, AQ_PATCHED)"

medium_config_bss "$AQ_TMP/medium.json" n24 2 "$NEAR_M" "$FAR_M"
cp "$AQ_TMP/medium.json" "$OUT/"
if ! medium_start "$AQ_TMP/medium.json"; then
	tap_fail "medium starts with the patched hwsim" "$(tail -n 3 "$AQ_TMP/medium.log")"
	skip_rest "no medium"
fi
# the medium takes the extension's numbers from the kernel (hwsim-patches 0005)
if grep -q "hwsim extensions on: tx_airtime=30 " "$AQ_TMP/medium.log"; then
	tap_ok "medium starts with the patched hwsim, extensions on with the kernel's numbers"
else
	tap_fail "medium starts with the patched hwsim, extensions on with the kernel's numbers" \
		"$(head -n 3 "$AQ_TMP/medium.log")"
fi
# disassoc_low_ack off: the far station's first rate tables may fail as a
# whole before minstrel_ht has learnt (hwsim-patches.rst, 0003)
if ! topo_bss 2 1 g ieee80211n=1 disassoc_low_ack=0 >"$OUT/topo.log" 2>&1; then
	tap_fail "AP, near and far HT stations associate through the medium" "$(tail -n 3 "$OUT/topo.log")"
	skip_rest "no association"
fi
tap_ok "AP, near and far HT stations associate through the medium"

ip netns exec ap iperf3 -s -D -p 5201 --pidfile "$AQ_TMP/ip1.pid"
ip netns exec ap iperf3 -s -D -p 5202 --pidfile "$AQ_TMP/ip2.pid"
sleep 0.3

# radio_field JSON NAME JQ: a value of radio NAME in a stats snapshot
radio_field() {
	jq -r --arg n "$2" ".radios[] | select(.name == \$n) | $3" "$1"
}

# --- A. minstrel_ht: near and far station, one after the other -------------
declare -A RATE EXP
for i in 1 2; do
	ns=sta$i
	ifc=${STA_IFS[i - 1]}
	iperf3_client "$ns" 10.0.0.1 -p $((5200 + i)) -t 4 >"$OUT/iperf-$ns.json" &
	p=$!
	sleep 1.8
	# median of 5 samples: a single one may be a minstrel sampling attempt
	: >"$OUT/rates-$ns.txt"
	for k in 1 2 3 4 5; do
		ip netns exec "$ns" iw dev "$ifc" station dump | awk '
			/tx bitrate:/ { sub(/.*tx bitrate:[ \t]*/, ""); r = $0 }
			/expected throughput:/ { sub(/.*expected throughput:[ \t]*/, ""); e = $0 }
			END { print r " | expected " e }' >>"$OUT/rates-$ns.txt"
		sleep 0.3
	done
	wait $p
	RATE[$i]=$(awk '{print $1}' "$OUT/rates-$ns.txt" | sort -g | sed -n 3p)
	EXP[$i]=$(sed -n 's/.*expected \([0-9.]*\).*/\1/p' "$OUT/rates-$ns.txt" | sort -g | sed -n 3p)
	tap_diag "$ns: $(iperf3_mbps "$OUT/iperf-$ns.json") Mbit/s TCP up; tx bitrate samples:" \
		"$(cat "$OUT/rates-$ns.txt")"
done
medium_stats >"$OUT/stats-a.json"
tap_in_range "${RATE[1]:-0}" "$NEAR_MIN_MBPS" 1000 \
	"near station (${NEAR_M} m): minstrel_ht tx bitrate (Mbit/s, median of 5) is high"
tap_in_range "${RATE[2]:-1000}" 1 "$FAR_MAX_MBPS" \
	"far station (${FAR_M} m): minstrel_ht tx bitrate (Mbit/s) is one the model lets pass"
if awk -v n="${EXP[1]:-0}" -v f="${EXP[2]:-0}" 'BEGIN { exit !(f > 0 && f < n) }'; then
	tap_ok "minstrel_ht's expected throughput is lower far (${EXP[2]}) than near (${EXP[1]} Mbit/s)"
else
	tap_fail "minstrel_ht's expected throughput is lower far than near" "near ${EXP[1]:-}, far ${EXP[2]:-}"
fi
a1=$(radio_field "$OUT/stats-a.json" sta1 '[.ac[].ampdus] | add')
a2=$(radio_field "$OUT/stats-a.json" sta2 '[.ac[].ampdus] | add')
s2=$(radio_field "$OUT/stats-a.json" sta2 '[.ac[].ampdu_subframes] | add')
tap_diag "A-MPDUs: sta1 $a1, sta2 $a2 ($s2 subframes)"
tap_in_range "${a1:-0}" 1 1e12 "near station's data went out in A-MPDUs"
tap_in_range "${a2:-0}" 1 1e12 "far station's data went out in A-MPDUs (minstrel_ht adapted on them)"
if [ "${a2:-0}" -gt 0 ]; then
	tap_in_range "$(awk -v s="$s2" -v a="$a2" 'BEGIN { printf "%.2f", s / a }')" 1.5 64 \
		"far station: mean subframes per A-MPDU"
else
	tap_fail "far station: mean subframes per A-MPDU" "no A-MPDU"
fi

# --- B + C. both stations saturated at the same time -----------------------
# the survey of the AP and of sta1 around the medium's statistics (the lags
# between the three reads are the same at both ends of the interval)
snap() {
	ip netns exec ap iw dev "$AP_IF" survey dump >"$OUT/survey-ap-$1.txt"
	medium_stats >"$OUT/stats-$1.json"
	ip netns exec sta1 iw dev "${STA_IFS[0]}" survey dump >"$OUT/survey-sta1-$1.txt"
}
# survey_ms FILE FIELD: "channel busy time" etc. (ms) of the in-use channel
survey_ms() {
	awk -v f="$2" '/frequency/ { inuse = /in use/ }
		inuse && index($0, f ":") { sub(".*" f ":[ \t]*", ""); print $1; exit }' "$1"
}
# hwsim's own counters per radio: "NAME tx rx dropped failed"
hw_counts() {
	local ns ifc
	for ns in ap sta1 sta2; do
		case $ns in
		ap) ifc=$AP_IF ;;
		sta1) ifc=${STA_IFS[0]} ;;
		sta2) ifc=${STA_IFS[1]} ;;
		esac
		ip netns exec "$ns" ethtool -S "$ifc" 2>/dev/null | awk -v n="$ns" '
			$1 == "tx_pkts_nic:" { t = $2 } $1 == "rx_pkts_nic:" { r = $2 }
			$1 == "d_tx_dropped:" { d = $2 } $1 == "d_tx_failed:" { f = $2 }
			END { print n, t, r, d, f }'
	done
}
# hw_snap NAME: hwsim's counters (a), the medium's statistics, hwsim's
# counters again (b).  The counters only grow and each frame is counted by
# hwsim before the medium takes it (tx) and by the medium before hwsim
# receives it (rx), so the medium's count lies between reads a and b; the
# AP's beacons keep moving them, and one read takes about a second of guest
# time under the virtual clock (the forks)
hw_snap() {
	hw_counts >"$OUT/hw-$1-a.txt"
	medium_stats >"$OUT/stats-$1.json"
	hw_counts >"$OUT/hw-$1-b.txt"
}
hw_snap d0
iperf3_client sta1 10.0.0.1 -p 5201 -t 4 >"$OUT/iperf-both-1.json" &
p1=$!
iperf3_client sta2 10.0.0.1 -p 5202 -t 4 >"$OUT/iperf-both-2.json" &
p2=$!
sleep 1
snap b0
sleep 2
snap b1
wait $p1 $p2
m1=$(iperf3_mbps "$OUT/iperf-both-1.json")
m2=$(iperf3_mbps "$OUT/iperf-both-2.json")
tap_diag "both saturated: sta1 ${m1} Mbit/s, sta2 ${m2} Mbit/s"

coll=$(jq -n --slurpfile a "$OUT/stats-b0.json" --slurpfile b "$OUT/stats-b1.json" \
	'([$b[0].radios[].ac[].collisions] | add) - ([$a[0].radios[].ac[].collisions] | add)')
ssc=$(jq -n --slurpfile a "$OUT/stats-b0.json" --slurpfile b "$OUT/stats-b1.json" \
	'$b[0].same_slot_collisions - $a[0].same_slot_collisions')
tap_diag "over 2 s: per-AC collisions +$coll, same-slot collisions +$ssc;" \
	"per radio: $(jq -c '[.radios[] | {(.name): [.ac[].collisions] | add}] | add' "$OUT/stats-b1.json")"
tap_in_range "${coll:-0}" 1 1e12 "two saturated stations: the medium counts per-AC collisions"
tap_in_range "${ssc:-0}" 1 1e12 "two saturated stations: the medium counts same-slot collisions"
share=$(awk -v a="${m1:-0}" -v b="${m2:-0}" 'BEGIN { if (a + b > 0) printf "%.3f", (a < b ? a : b) / (a + b); else print 0 }')
# Not half each: DCF shares transmit opportunities, and an A-MPDU of the
# near station (MCS 15, up to the 64-frame Block Ack window) carries about
# ten times the bytes of the far one's (6.5 subframes, above): measured
# 0.096 in a CI run.  Starving would be near 0.
tap_in_range "$share" 0.03 0.5 "both stations get a share (smaller one's fraction of the sum)"

for r in ap sta1; do
	sb0=$(survey_ms "$OUT/survey-$r-b0.txt" 'channel busy time')
	sb1=$(survey_ms "$OUT/survey-$r-b1.txt" 'channel busy time')
	sa0=$(survey_ms "$OUT/survey-$r-b0.txt" 'channel active time')
	sa1=$(survey_ms "$OUT/survey-$r-b1.txt" 'channel active time')
	st0=$(survey_ms "$OUT/survey-$r-b0.txt" 'channel transmit time')
	st1=$(survey_ms "$OUT/survey-$r-b1.txt" 'channel transmit time')
	mb=$(jq -n --slurpfile a "$OUT/stats-b0.json" --slurpfile b "$OUT/stats-b1.json" --arg n "$r" \
		'[($b[0].radios[] | select(.name == $n) | .busy_us, .active_us, .tx_us)] as $y |
		 [($a[0].radios[] | select(.name == $n) | .busy_us, .active_us, .tx_us)] as $x |
		 "\(($y[0] - $x[0]) / 1000) \(($y[1] - $x[1]) / 1000) \(($y[2] - $x[2]) / 1000)"' -r)
	read -r mbusy mact mtx <<<"$mb"
	sbusy=$(( ${sb1:-0} - ${sb0:-0} ))
	tap_diag "$r: survey busy +$sbusy ms, active +$(( ${sa1:-0} - ${sa0:-0} )) ms, tx +$(( ${st1:-0} - ${st0:-0} )) ms;" \
		"medium busy +$mbusy ms, active +$mact ms, tx +$mtx ms"
	dev=$(awk -v s="$sbusy" -v m="$mbusy" 'BEGIN { if (m > 0) printf "%.4f", (s - m) / m; else print 99 }')
	tap_in_range "$dev" -0.05 0.05 "$r: survey busy time tracks the medium's busy_us (relative deviation)"
done

# --- D. the same frames on both sides of the netlink socket ----------------
# over B, per radio: the change of the medium's count must lie between the
# least and the most hwsim can have counted (a1 - b0 .. b1 - a0)
sleep 1
hw_snap d1
# per radio: "NAME tx_lo tx_hi frames_in rx_lo rx_hi rx_frames lost"
cons=$(for n in ap sta1 sta2; do
	read -r _ ta0 ra0 da0 fa0 < <(grep "^$n " "$OUT/hw-d0-a.txt")
	read -r _ tb0 rb0 _ < <(grep "^$n " "$OUT/hw-d0-b.txt")
	read -r _ ta1 ra1 _ < <(grep "^$n " "$OUT/hw-d1-a.txt")
	read -r _ tb1 rb1 db1 fb1 < <(grep "^$n " "$OUT/hw-d1-b.txt")
	jq -n -r --slurpfile a "$OUT/stats-d0.json" --slurpfile b "$OUT/stats-d1.json" \
		--arg n "$n" --arg h "$((ta1 - tb0)) $((tb1 - ta0)) $((ra1 - rb0)) $((rb1 - ra0))" \
		--argjson lost $((db1 - da0 + fb1 - fa0)) \
		'($b[0].radios[] | select(.name == $n)) as $y |
		 ($a[0].radios[] | select(.name == $n)) as $x | ($h | split(" ")) as $w |
		 "\($n) \($w[0]) \($w[1]) \($y.frames_in - $x.frames_in) \($w[2]) \($w[3]) \($y.rx_frames - $x.rx_frames) \($lost)"'
done 2>/dev/null)
rej=$(jq -n --slurpfile a "$OUT/stats-d0.json" --slurpfile b "$OUT/stats-d1.json" \
	'$b[0].kernel_rejected_frames - $a[0].kernel_rejected_frames' 2>/dev/null)
tap_diag "D: per radio: hwsim tx (least most), medium frames_in, hwsim rx (least most)," \
	"medium rx_frames, hwsim dropped+failed: $(echo "$cons" | tr '\n' ';'); kernel refused ${rej:-?}"
# (at least 100 frames each: the saturated uploads and their ACKs)
bad=$(echo "$cons" | awk 'NF == 8 && $2 >= 100 && $2 <= $4 && $4 <= $3 { next } { print $1 }' |
	tr '\n' ' ')
d="every radio: the frames hwsim handed over are the frames the medium took"
if [ "$(echo "$cons" | awk 'NF == 8' | wc -l)" = 3 ] && [ -z "$bad" ]; then
	tap_ok "$d"
else
	tap_fail "$d" "outside hwsim's reads or too few: ${bad:-a radio missing}"
fi
# per radio when the kernel refused none in between (refusals are not
# counted per radio), else over all radios
bad=$(echo "$cons" | awk -v r="${rej:-x}" '
	NF == 8 && r == 0 && $5 <= $7 && $7 <= $6 && $5 >= 100 { next }
	NF == 8 && r != 0 && r != "x" { lo += $5; hi += $6; m += $7; next }
	{ print $1 }
	END { if (r != 0 && r != "x" && !(lo <= m - r && m - r <= hi)) print "all" }' | tr '\n' ' ')
d="the frames the medium delivered, less the kernel's refusals, are the frames hwsim received"
if [ "$(echo "$cons" | awk 'NF == 8' | wc -l)" = 3 ] && [ -n "$rej" ] && [ -z "$bad" ]; then
	tap_ok "$d"
else
	tap_fail "$d" "outside hwsim's reads or too few: ${bad:-a radio missing}"
fi
lost=$(echo "$cons" | awk 'NF == 8 { s += $8 } END { print s + 0 }')
tap_is "$lost" 0 "hwsim dropped or failed no frame on its way to the medium"

medium_stop
tap_is "$?" 0 "medium exits cleanly"
tap_diag "$(jq -c '{kernel_rejected_frames, kernel_rejected_tx_info, netlink_rx_overflows, live_max_late_us}' "$OUT/stats-b1.json")"
tap_done
