#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The testbed hwsim patches (testbed/hwsim-patches/, see
# Documentation/testbed/hwsim-patches.rst):
#
#  A. without a medium nothing changes: the module parameter is there, the
#     airtime feature is advertised, an AP and a station associate and pass
#     traffic, no airtime is made up, survey dump keeps hwsim's stock values;
#  B. with a medium (fake-medium.py: one shared channel, 20 ms per attempt,
#     every attempt at an HT MCS above 3 fails) the new attributes reach
#     mac80211: station dump tx duration equals the medium's airtime,
#     survey dump shows the medium's channel times, minstrel_ht adapts on
#     aggregated frames, and the frames waiting for the medium never exceed
#     hw_queue_depth per queue (no frame is dropped in the driver).
#
# AQ_HWSIM_KO (optional): insmod this mac80211_hwsim.ko instead of the
# installed one (to try the series before `make patched`).
. "$AQ_TOP/testbed/lib/guest.sh"

here=$(cd "$(dirname "$0")" && pwd)
params=/sys/module/mac80211_hwsim/parameters
medium_pid=
stats="$AQ_RESULTS/hwsim-patches-medium.json"

load_hwsim() {
	if [ -n "${AQ_HWSIM_KO:-}" ]; then
		modprobe -r mac80211_hwsim 2>/dev/null
		modprobe mac80211 && insmod "$AQ_HWSIM_KO" radios=2 || return 1
		local i
		for i in $(seq 50); do
			[ "$(hwsim_phys | wc -l)" -ge 2 ] && return 0
			sleep 0.1
		done
		return 1
	fi
	hwsim_load 2
}

cleanup() {
	[ -n "$medium_pid" ] && kill "$medium_pid" 2>/dev/null
	aq_cleanup_all
}
trap cleanup EXIT

# sta_field NS IFACE FIELD: a number from `iw station dump` (first station)
sta_field() {
	ip netns exec "$1" iw dev "$2" station dump |
		awk -v f="$3:" '$0 ~ "^[ \t]*" f { sub("^[ \t]*" f "[ \t]*", ""); print $1; exit }'
}

# survey_inuse NS IFACE FIELD: "channel active time" etc. of the in-use channel
survey_inuse() {
	ip netns exec "$1" iw dev "$2" survey dump |
		awk -v f="$3" '/frequency/ { inuse = /in use/ }
			inuse && index($0, f ":") { sub(".*" f ":[ \t]*", ""); print $1; exit }'
}

tap_plan 21

# --- A. no medium: stock behaviour -----------------------------------------
if ! load_hwsim; then
	tap_fail "mac80211_hwsim loads with 2 radios"
	exit 0
fi
tap_ok "mac80211_hwsim loads with 2 radios"
tap_is "$(cat $params/hw_queue_depth 2>/dev/null)" 64 "hw_queue_depth parameter is visible with its default 64"
echo 16 >$params/hw_queue_depth 2>/dev/null
tap_is "$(cat $params/hw_queue_depth 2>/dev/null)" 16 "hw_queue_depth is writable at run time"
echo 64 >$params/hw_queue_depth 2>/dev/null
ext="tx_airtime=30 rx_airtime=31 chan_busy_time=32 chan_active_time=33 chan_tx_time=34"
ext="$ext tx_ampdu_len=35 tx_ampdu_acked=36 tx_ctl_ampdu=0x8"
tap_is "$(cat $params/ext_attrs 2>/dev/null)" "$ext" "ext_attrs publishes the extension's numbers (6.12's)"
ok sh -c "! echo x 2>/dev/null >$params/ext_attrs" -- "ext_attrs is read-only"
phy0=$(hwsim_phys | head -n 1)
ok sh -c "iw phy $phy0 info | grep -q AIRTIME_FAIRNESS" -- "the radio advertises airtime fairness (as ath9k)"

if topo_ap_sta_server 1 g; then
	tap_ok "without a medium: AP and station associate"
else
	tap_fail "without a medium: AP and station associate" "see $AQ_TMP/*.log"
fi
ok ip netns exec sta ping -c 3 -i 0.2 -W 2 10.9.0.2 -- "without a medium: the station pings the wired server"
iperf3_server srv
iperf3_client sta 10.9.0.2 -t 2 >"$AQ_RESULTS/hwsim-patches-stock.json" 2>&1
mbps=$(iperf3_mbps "$AQ_RESULTS/hwsim-patches-stock.json")
tap_in_range "${mbps:-0}" 1 100000 "without a medium: TCP moves data (Mbit/s)"
tap_is "$(sta_field sta "$STA_IF" 'tx duration')" 0 "without a medium: no airtime is made up (station tx duration 0 us)"
# hwsim's stock survey: busy is one eighth of the active time of scanned channels
surv=$(ip netns exec sta iw dev "$STA_IF" survey dump |
	awk '/active time/ { a = $4 } /busy time/ { b = $4; n++; if (b != int(a / 8)) bad++ }
	     END { print n + 0, bad + 0 }')
tap_diag "station survey: $surv (entries, entries not stock)"
ok test "${surv% *}" -gt 0 -a "${surv#* }" -eq 0 -- "without a medium: survey dump keeps hwsim's stock values"
aq_cleanup_all

# --- B. with a medium ------------------------------------------------------
if ! load_hwsim; then
	tap_fail "mac80211_hwsim reloads"
	exit 0
fi
depth=32
# 20 ms per attempt: the channel, not this slow Python medium, is the
# bottleneck, so frames pile up in hwsim as they would before a real radio
airtime=20000
echo $depth >$params/hw_queue_depth
radio_args=()
for p in $(hwsim_phys); do
	mac=$(cat /sys/class/ieee80211/$p/macaddress)
	# the transmitter address hwsim uses on netlink: bit 0x40 of octet 0 set
	radio_args+=(--radio "$(printf '%02x' $((0x${mac%%:*} | 0x40))):${mac#*:}")
done
python3 "$here/fake-medium.py" --airtime-us $airtime --max-mcs 3 --stats "$stats" \
	"${radio_args[@]}" >"$AQ_TMP/fake-medium.log" 2>&1 &
medium_pid=$!
for i in $(seq 50); do
	grep -q registered "$AQ_TMP/fake-medium.log" 2>/dev/null && break
	sleep 0.1
done
if ! grep -q registered "$AQ_TMP/fake-medium.log"; then
	tap_fail "the fake medium registers" "$(cat "$AQ_TMP/fake-medium.log")"
	exit 0
fi

# disassoc_low_ack=0: until minstrel_ht has learnt that MCS > 3 fails, whole
# rate tables fail, and hostapd would disassociate the station for it
if topo_ap_sta_server 1 g ieee80211n=1 disassoc_low_ack=0; then
	tap_ok "through the medium: AP and station associate (802.11n)"
else
	tap_fail "through the medium: AP and station associate (802.11n)" "see $AQ_TMP/*.log"
fi
iperf3_server srv
# UDP offered above what the medium carries, so hwsim's queues fill up
iperf3_client sta 10.9.0.2 -u -b 30M -t 15 >"$AQ_RESULTS/hwsim-patches-medium-iperf.json" 2>&1 &
ipid=$!
rates=()
for i in 1 2 3 4 5; do
	sleep 2.5
	rates+=("$(ip netns exec sta iw dev "$STA_IF" station dump |
		awk '/tx bitrate/ { for (i = 1; i <= NF; i++) if ($i == "MCS") print $(i + 1) }')")
done
wait $ipid
mbps=$(jq -r '(.end.sum_received // .end.sum).bits_per_second / 1e6' \
	"$AQ_RESULTS/hwsim-patches-medium-iperf.json" 2>/dev/null)
tap_in_range "${mbps:-0}" 0.05 0.6 "through the medium: UDP moves data, bounded by 20 ms per frame (Mbit/s)"
sleep 1.5	# the medium writes its stats every 0.5 s
tap_diag "hostapd: $(grep -c AP-STA-CONNECTED "$AQ_TMP/hostapd-ap.log") connections, $(grep -c AP-STA-DISCONNECTED "$AQ_TMP/hostapd-ap.log") disconnections"

# the medium's figures before and after reading survey dump bracket it
cp "$stats" "$AQ_TMP/medium-before.json"
ap_active=$(survey_inuse ap "$AP_IF" "channel active time")
ap_busy=$(survey_inuse ap "$AP_IF" "channel busy time")
sta_txdur=$(sta_field sta "$STA_IF" "tx duration")
ap_rxdur=$(sta_field ap "$AP_IF" "rx duration")
sleep 0.6	# a stats file written after the reads
cp "$stats" "$AQ_TMP/medium-stats.json"
tap_diag "station tx bitrate MCS over the run: ${rates[*]}" \
	"medium: $(jq -c 'del(.tx_airtime_by_pair)' "$AQ_TMP/medium-stats.json")"

ok test "$(jq .ampdu_flagged "$AQ_TMP/medium-stats.json")" -gt 0 -- "hwsim flags frames of Block Ack sessions with HWSIM_TX_CTL_AMPDU"
low=0
for r in "${rates[@]}"; do [ -n "$r" ] && [ "$r" -le 3 ] && low=$((low + 1)); done
ok test "$low" -ge 3 -- "minstrel_ht adapts on aggregated frames: tx rate MCS <= 3 in $low of 5 samples (MCS > 3 always fails)"

sta_mac=$(ip -n sta link show "$STA_IF" | awk '/link\/ether/ { print $2 }')
ap_mac=$(ip -n ap link show "$AP_IF" | awk '/link\/ether/ { print $2 }')
want=$(jq --arg k "$sta_mac>$ap_mac" '.tx_airtime_by_pair[$k] // 0' "$AQ_TMP/medium-stats.json")
tap_diag "station tx duration ${sta_txdur:-none} us, medium airtime station->AP $want us"
tap_in_range "${sta_txdur:-0}" "$(awk -v w="$want" 'BEGIN { print w * 0.97 }')" \
	"$(awk -v w="$want" 'BEGIN { print w * 1.03 + 1 }')" \
	"station dump tx duration is the medium's airtime within 3% (us)"
ok test "${ap_rxdur:-0}" -gt 0 -- "AP station dump rx duration is accounted (${ap_rxdur:-none} us)"

ap_radio=$(jq -r '.radios | keys[0]' "$AQ_TMP/medium-stats.json")
# the last figures the medium sent to the AP's radio, before and after
sent() { jq --arg r "$ap_radio" ".radios[\$r].sent_$1_us / 1000" "$2"; }
lo_active=$(sent active "$AQ_TMP/medium-before.json")
hi_active=$(sent active "$AQ_TMP/medium-stats.json")
lo_busy=$(sent busy "$AQ_TMP/medium-before.json")
hi_busy=$(sent busy "$AQ_TMP/medium-stats.json")
tap_diag "AP survey active ${ap_active:-none} ms busy ${ap_busy:-none} ms;" \
	"medium sent active $lo_active..$hi_active ms busy $lo_busy..$hi_busy ms"
tap_in_range "${ap_active:-0}" "$(awk -v w="$lo_active" 'BEGIN { print w * 0.95 }')" \
	"$(awk -v w="$hi_active" 'BEGIN { print w * 1.05 }')" \
	"AP survey (never scanned) reports the medium's channel active time within 5% (ms)"
tap_in_range "${ap_busy:-0}" "$(awk -v w="$lo_busy" 'BEGIN { print w * 0.95 }')" \
	"$(awk -v w="$hi_busy" 'BEGIN { print w * 1.05 }')" \
	"AP survey reports the medium's channel busy time within 5% (ms)"

# BE is access category 2; the station sends the TCP data
maxq=$(jq '[.radios[].max_outstanding[2]] | max' "$AQ_TMP/medium-stats.json")
tap_in_range "${maxq:-0}" $((depth / 2)) $((depth + 2)) \
	"frames of one queue waiting for the medium peak at hw_queue_depth=$depth"
tap_is "$(jq .txinfo_errors "$AQ_TMP/medium-stats.json")" 0 \
	"every status the medium reports finds its frame (none dropped in the driver)"
tap_done
