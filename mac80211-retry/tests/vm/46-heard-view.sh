#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 70  (estimate, as 45-bss-load-view.sh: one BSS of three stations, atview, short UDP downloads)
#
# mac80211-retry: a station that overhears its BSS counts the stations
# active in it, not those associated (patch 0006, the COT paper's N).  The
# medium passes each station the frames addressed to others (phy.overhear,
# as a real receiver decodes them; hwsim hands them to mac80211), the AP
# advertises BSS Load in every beacon (whose count is of associated
# stations, idle ones included), and the test consumer atview/ on sta1
# logs sta1's views.  sta1 itself stays idle throughout:
#
#  - sta2 downloads, sta3 is associated and idle: sta1's views come from
#    overhearing (IEEE80211_AIRTIME_SRC_STA_HEARD) with N = 2 (sta2 and
#    sta1 itself), where BSS Load says 3;
#  - sta2 and sta3 download: N = 3;
#  - both stop: N = 1 (sta1 alone);
#  - mac80211's airtime_overhear=off: BSS Load's count again (N = 3), and a
#    value it does not know is refused.
. "$AQ_TOP/testbed/lib/guest.sh"

N=9
tap_plan $N
. "$AQ_TOP/mac80211-retry/tests/vm/lib-atview.sh"
atview_bss $N "heard view" 3 '.phy.overhear = true' bss_load_update_period=1

STA1_MAC=$(mac sta1 "${STA_IFS[0]}")
iperf3_server sta2 5201 && iperf3_server sta3 5201 ||
	skip_all $N "iperf3 servers on sta2, sta3"

busy 1 10.0.0.3
busy 2 10.0.0.3 10.0.0.4
busy 3
OH=/sys/module/mac80211/parameters/airtime_overhear
oh0=$(cat $OH 2>/dev/null)
echo off >$OH 2>/dev/null
busy 4
echo bogus >$OH 2>/dev/null && bad=accepted || bad=refused
echo auto >$OH 2>/dev/null
dmesg | grep 'atview: slot' >"$AQ_TMP/atview.log"
cp "$AQ_TMP/atview.log" "$AQ_RESULTS/heard-atview.log" 2>/dev/null
medium_snap "$AQ_TMP/medium-end.json"

# per phase 1, 2, 3 a line: "views from overhearing / views, median N" of
# sta1's views (atview: slot P IFMAC SEQ SRC T BEACON BUSY N ...); phase 4:
# views from BSS Load
summary() {
	awk -v mac="$STA1_MAC" '
	{ sub(/.*atview: /, ""); if ($3 != mac || $2 < 1 || $2 > 4) next
	  p = $2; v[p]++; if ($5 == (p == 4 ? 1 : 3)) h[p]++	# STA_BSS_LOAD, STA_HEARD
	  n[p, v[p]] = $9 }
	END { for (p = 1; p <= 4; p++) {
		k = v[p] + 0
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (n[p, j] < n[p, i]) { t = n[p, i]; n[p, i] = n[p, j]; n[p, j] = t }
		print h[p] + 0, k, k ? n[p, int((k + 1) / 2)] : -1 } }' "$AQ_TMP/atview.log"
}
{ read -r h1 v1 n1; read -r h2 v2 n2; read -r h3 v3 n3; read -r h4 v4 n4; } < <(summary)
oh=$(jq '[.radios[]? | .rx_overheard // 0] | add // 0' "$AQ_TMP/medium-end.json" 2>/dev/null)
tap_diag "sta1's views (from overhearing / all, median N): sta2 busy $h1/$v1 N $n1;" \
	"sta2 and sta3 busy $h2/$v2 N $n2; both idle $h3/$v3 N $n3;" \
	"airtime_overhear $oh0, then off: from BSS Load $h4/$v4 N $n4;" \
	"frames the medium passed to radios they were not for: ${oh:-?}"
tap_in_range "${oh:-0}" 1 1000000000 "the medium passed frames to radios they were not addressed to (phy.overhear)"
tap_in_range "$(( v1 > 0 && h1 == v1 ))" 1 1 "sta2 busy, sta3 idle: sta1's views come from overhearing"
tap_is "$n1" 2 "sta2 busy, sta3 idle: N = 2 (sta2 and sta1), not BSS Load's 3"
tap_in_range "$(( v2 > 0 && h2 == v2 ))" 1 1 "sta2 and sta3 busy: the views come from overhearing"
tap_is "$n2" 3 "sta2 and sta3 busy: N = 3"
tap_in_range "$(( v3 > 0 && h3 == v3 ))" 1 1 "both idle: the views still come from overhearing"
tap_is "$n3" 1 "both idle: N = 1 (sta1 alone)"
tap_in_range "$(( v4 > 0 && h4 == v4 && n4 == 3 ))" 1 1 \
	"airtime_overhear=off (default $oh0): the views come from BSS Load again, N = 3"
tap_is "$bad" refused "airtime_overhear refuses a value it does not know"
tap_done
