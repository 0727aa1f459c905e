#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 67  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
#
# mac80211-retry: a station's airtime view follows the station count of its
# AP's BSS Load element (hostapd bss_load_update_period=1: the element in
# every beacon), as stations leave and join, seen by the test consumer
# atview/ on sta1.  mac80211 processes a beacon in full only when an
# element it tracks changed, which BSS Load is not: the view must take it
# from every beacon (patch 0006), or N stays what the association found.
#
#  - three stations associated: sta1's views come from BSS Load, N = 3;
#  - sta2 and sta3 disconnect: N = 1;
#  - sta2 reconnects: N = 2.
. "$AQ_TOP/testbed/lib/guest.sh"

N=6
tap_plan $N
. "$AQ_TOP/mac80211-retry/tests/vm/lib-atview.sh"
atview_bss $N "BSS Load view" 3 . bss_load_update_period=1

STA1_MAC=$(mac sta1 "${STA_IFS[0]}")
wpa() { ip netns exec "$1" wpa_cli -p "$AQ_TMP/wpa-$1" -i "$2" "${@:3}" >/dev/null; }
# ap_stations: stations hostapd lists as associated
ap_stations() {
	ip netns exec ap hostapd_cli -p "$AQ_TMP/hostapd-ap" -i "$AP_IF" all_sta 2>/dev/null |
		grep -c '^[0-9a-f][0-9a-f]:'
}
# settle: until hostapd counts $1 stations (10 s of guest time at most),
# then 0.5 s for the beacons to carry the count
settle() {
	local i
	for i in $(seq 100); do
		[ "$(ap_stations)" = "$1" ] && break
		sleep 0.1
	done
	sleep 0.5
}

settle 3
phase 1
sleep 1.5
phase 0
wpa sta2 "${STA_IFS[1]}" disconnect
wpa sta3 "${STA_IFS[2]}" disconnect
settle 1
phase 2
sleep 1.5
phase 0
wpa sta2 "${STA_IFS[1]}" reconnect
wait_assoc sta2 "${STA_IFS[1]}" 10 >/dev/null 2>&1
settle 2
phase 3
sleep 1.5
phase 0
dmesg | grep 'atview: slot' >"$AQ_TMP/atview.log"
cp "$AQ_TMP/atview.log" "$AQ_RESULTS/bss-load-atview.log" 2>/dev/null

# per phase 1, 2, 3 a line: "views with BSS Load source / views, median N"
# of sta1's views (one python3 start: each costs seconds under TCG)
summary() {
	python3 - "$AQ_TMP/atview.log" "$STA1_MAC" <<'PY'
import statistics, sys
log, mac = sys.argv[1], sys.argv[2]
v = {1: [], 2: [], 3: []}
for l in open(log):
    f = l.split("atview: ", 1)[1].split()
    # slot PHASE DEV SEQ SRC T BCN BUSY N ...
    if int(f[1]) in v and f[2] == mac:
        v[int(f[1])].append((int(f[4]), int(f[8])))
for ph in (1, 2, 3):
    bl = sum(1 for s, _ in v[ph] if s == 1)	# IEEE80211_AIRTIME_SRC_STA_BSS_LOAD
    print(bl, len(v[ph]), int(statistics.median(n for _, n in v[ph])) if v[ph] else -1)
PY
}
{ read -r b1 v1 n1; read -r b2 v2 n2; read -r b3 v3 n3; } < <(summary)
tap_diag "sta1's views (BSS Load source / all, median N): 3 stations $b1/$v1 N $n1;" \
	"1 station $b2/$v2 N $n2; 2 stations $b3/$v3 N $n3"
tap_in_range "$(( v1 > 0 && b1 == v1 ))" 1 1 "3 stations: sta1's views come from the AP's BSS Load element"
tap_is "$n1" 3 "3 stations: N = 3"
tap_in_range "$(( v2 > 0 && b2 == v2 ))" 1 1 "sta2, sta3 left: the views still come from BSS Load"
tap_is "$n2" 1 "sta2, sta3 left: N follows the AP's count down to 1"
tap_in_range "$(( v3 > 0 && b3 == v3 ))" 1 1 "sta2 back: the views still come from BSS Load"
tap_is "$n3" 2 "sta2 back: N follows the AP's count up to 2"
tap_done
