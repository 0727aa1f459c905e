#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hwsim patch 0006, random_tsf (Documentation/testbed/hwsim-patches.rst).
# Stock hwsim gives every radio the host's real time as its TSF, so all APs
# of one beacon interval beacon at the same instants; with random_tsf=1 a
# radio created from then on has its TSF offset by a random 0..2^32 us.
# No medium: two APs on channel 1 and a station that scans them; `iw scan`
# prints each BSS's TSF (the timestamp of the beacon or probe response it
# kept), compared with the guest's real time right after the scan.
#
#  - random_tsf=0 (stock): both APs' TSFs within 3 s of the real time (a
#    scan takes a few hundred ms of guest time);
#  - random_tsf=1: both offsets within [-3 s, 2^32 us + 3 s], at least one
#    of them more than 3 s (each is random over 4295 s: both within 3 s
#    has a chance of about 5e-7), and the two APs' TSFs differ by more than
#    they do in the stock run;
#  - a radio added by HWSIM_CMD_NEW_RADIO takes the same path
#    (mac80211_hwsim_new_radio) and is not tried here;
#  - hwsim_load (testbed/lib/guest.sh) sets random_tsf=1 by default.
. "$AQ_TOP/testbed/lib/guest.sh"
trap aq_cleanup_all EXIT

tap_plan 9

# scan_tsfs RANDOM: hwsim_load 3 radios with random_tsf=RANDOM, start APs aqtsf1
# and aqtsf2, scan from the third; prints "off1 off2" (TSF - real time, us)
scan_tsfs() {
	local phys ns i out now ifc
	HWSIM_RANDOM_TSF=$1 hwsim_load 3 || return 1
	phys=($(hwsim_phys))
	for i in 1 2; do
		ns=ap$i
		netns_new "$ns" && phy_to_netns "${phys[i - 1]}" "$ns" || return 1
		ifc=$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')
		hostapd_start "$ns" "$ifc" "aqtsf$i" 1 g || return 1
	done
	netns_new sta && phy_to_netns "${phys[2]}" sta || return 1
	ifc=$(ip netns exec sta iw dev | awk '/Interface/ {print $2; exit}')
	ip -n sta link set "$ifc" up
	for i in 1 2 3 4 5; do
		out=$(ip netns exec sta iw dev "$ifc" scan freq 2412 2>/dev/null)
		now=$(date +%s%6N)
		echo "$out" >"$AQ_RESULTS/random-tsf-$1.scan"
		# "BSS <mac>(on ...)" ... "TSF: <us> usec (...)" ... "SSID: aqtsfN"
		read -r a b < <(awk -v now="$now" '/^BSS / { tsf = "" }
			$1 == "TSF:" { tsf = $2 }
			$1 == "SSID:" && $2 ~ /^aqtsf[12]$/ { off[substr($2, 6)] = tsf - now }
			END { if ((1 in off) && (2 in off)) printf "%.0f %.0f\n", off[1], off[2] }' <<<"$out")
		[ -n "$b" ] && { echo "$a $b"; return 0; }
		sleep 1
	done
	return 1
}

# phase RANDOM: scan_tsfs as a TAP line; the offsets in o1, o2
phase() {
	o1= o2=
	if read -r o1 o2 < <(scan_tsfs "$1"); then
		tap_ok "random_tsf=$1: the station's scan finds both APs"
	else
		tap_fail "random_tsf=$1: the station's scan finds both APs" \
			"$(tail -n 3 "$AQ_TMP"/hostapd-ap*.log 2>/dev/null)"
	fi
	tap_diag "random_tsf=$1: TSF - real time: ap1 ${o1:-?} us, ap2 ${o2:-?} us"
}

phase 0
s1=$o1 s2=$o2
tap_in_range "${s1:-1e12}" -3000000 3000000 "random_tsf=0: ap1's TSF is the real time (us off)"
tap_in_range "${s2:-1e12}" -3000000 3000000 "random_tsf=0: ap2's TSF is the real time (us off)"
aq_cleanup_all

phase 1
r1=$o1 r2=$o2
tap_in_range "${r1:--1e12}" -3000000 4297967296 "random_tsf=1: ap1's TSF offset is at most 2^32 us"
tap_in_range "${r2:--1e12}" -3000000 4297967296 "random_tsf=1: ap2's TSF offset is at most 2^32 us"
big=$(awk -v a="${r1:-0}" -v b="${r2:-0}" 'BEGIN { print (a > 3e6 || b > 3e6) ? 1 : 0 }')
tap_is "$big" 1 "random_tsf=1: at least one AP's TSF is not the real time (offset over 3 s)"
d0=$(awk -v a="${s1:-0}" -v b="${s2:-0}" 'BEGIN { d = a - b; print d < 0 ? -d : d }')
d1=$(awk -v a="${r1:-0}" -v b="${r2:-0}" 'BEGIN { d = a - b; print d < 0 ? -d : d }')
tap_diag "the APs' TSFs differ by $d0 us (stock) and $d1 us (random_tsf)"
ok awk -v a="$d0" -v b="$d1" 'BEGIN { exit !(b > a) }' -- "random_tsf=1: the two APs' TSFs differ more than the stock run's"
aq_cleanup_all

hwsim_load 2 >/dev/null
tap_is "$(cat /sys/module/mac80211_hwsim/parameters/random_tsf 2>/dev/null)" Y \
	"the testbed's hwsim_load sets random_tsf"
tap_done
