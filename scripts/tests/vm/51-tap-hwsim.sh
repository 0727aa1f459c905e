#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TAP on a real mac80211 AP (hwsim, hostapd): with tap-setup applied on the
# AP's wlan interface, the pure TCP ACKs the AP forwards to an uploading
# station leave on TID 6 (AC_VO); the AP's data to a downloading station
# stays on TID 0 (AC_BE); without TAP the ACKs are on TID 0. Measured with
# mac80211's per-TID tx MSDU counters of the AP's station entry
# (iw dev IFACE station dump -v). remove restores tc and the hostapd config.
# No medium: hwsim delivers every frame, so this checks classification, not
# contention (n* and the contender count need the medium).

AQ_TOP=${AQ_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$AQ_TOP/testbed/lib/guest.sh"
TOOL="$AQ_TOP/scripts/tap-setup"
export PYTHONDONTWRITEBYTECODE=1
export AQ_TAP_STATE_DIR="$AQ_TMP/tap-state"
PLAN=11
tap_plan $PLAN

skip_all() {
	local i
	for i in $(seq $((_tap_n + 1)) $PLAN); do tap_skip "hwsim TAP check $i" "$1"; done
	exit 0
}
trap aq_cleanup_all EXIT

for b in hostapd wpa_supplicant iw iperf3; do
	command -v "$b" >/dev/null || skip_all "$b not installed"
done
hwsim_load 2 || skip_all "mac80211_hwsim not loadable"
topo_ap_sta_server 1 g || skip_all "AP/STA topology did not come up"
HCONF="$AQ_TMP/hostapd-ap-$AP_IF.conf"
iperf3_server srv || skip_all "iperf3 server did not start"

# tx MSDUs per TID of the AP towards the station: "t0 t6"
tidtx() {
	ip netns exec ap iw dev "$AP_IF" station dump -v 2>/dev/null |
	awk '/TID/ && /tx retries/ {on = 1; next}
	     on && $1 ~ /^[0-9]+$/ && NF >= 3 {tx[$1] = $3}
	     on && $1 !~ /^[0-9]+$/ {on = 0}
	     END {printf "%d %d\n", tx[0], tx[6]}'
}
acks() { # packets through tap-setup's IPv4 filters
	ip netns exec ap tc -s filter show dev "$AP_IF" egress 2>/dev/null |
	/usr/bin/python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from airqueue_tap.tcfilter import parse_filters
print(sum(f["packets"] for f in parse_filters(sys.stdin.read()) if f["pref"] == 16))' \
		"$AQ_TOP/scripts"
}
upload() { iperf3_client sta 10.9.0.2 -n 3M >/dev/null; }
download() { iperf3_client sta 10.9.0.2 -n 3M -R >/dev/null; }

read -r a0 a6 <<<"$(tidtx)"
upload || skip_all "iperf3 upload failed"
read -r b0 b6 <<<"$(tidtx)"
tap_diag "TAP off, 3 MB upload: AP tx MSDUs TID0 +$((b0 - a0)), TID6 +$((b6 - a6))"
[ "$((b0 - a0))" -ge 1 ] || skip_all "no per-TID tx counters from iw station dump -v"
off0=$((b0 - a0))
ok test "$((b0 - a0))" -ge 50 -a "$((b6 - a6))" -le 2 -- \
	"TAP off: the AP's pure ACKs go on TID 0 (AC_BE)"

BASE_TC=$(ip netns exec ap tc qdisc show dev "$AP_IF"; ip netns exec ap tc filter show dev "$AP_IF" egress 2>&1)
cp "$HCONF" "$AQ_TMP/hostapd.orig"
ok ip netns exec ap "$TOOL" apply "$AP_IF" --phy g --rate 54 --nstar 4 \
	--hostapd-conf "$HCONF" -- "tap-setup apply on the hwsim AP interface"
tap_diag "$(grep '^tx_queue_data0' "$HCONF")"

# restart hostapd on the rewritten config: it must accept the lines
kill "$(cat "$AQ_TMP/hostapd-ap.pid")"
sleep 0.5
ip netns exec ap hostapd -B -dd -P "$AQ_TMP/hostapd-ap.pid" \
	-f "$AQ_TMP/hostapd-tap.log" "$HCONF"
for i in $(seq 50); do
	grep -q AP-ENABLED "$AQ_TMP/hostapd-tap.log" 2>/dev/null && break
	sleep 0.1
done
tap_diag "$(grep -i 'tx_queue\|txq\|queue param' "$AQ_TMP/hostapd-tap.log" | head -n 6)"
hostapd_took_it() {
	grep -q AP-ENABLED "$AQ_TMP/hostapd-tap.log" &&
		! grep -qiE 'invalid (aifs|cwmin|cwmax)|errors found|unknown tx_queue|failed to set tx queue' \
			"$AQ_TMP/hostapd-tap.log"
}
ok hostapd_took_it -- "hostapd accepts the TAP tx_queue_data0 lines"
wait_assoc sta "$STA_IF" 20 || tap_diag "station did not re-associate"

read -r a0 a6 <<<"$(tidtx)"
k0=$(acks)
upload
read -r b0 b6 <<<"$(tidtx)"
k1=$(acks)
tap_diag "TAP on, 3 MB upload: AP tx MSDUs TID0 +$((b0 - a0)), TID6 +$((b6 - a6)), filter matched $((k1 - k0))"
ok test "$((k1 - k0))" -ge 50 -- "TAP on: the forwarded pure ACKs matched the filter"
ok test "$((b6 - a6))" -ge "$(((k1 - k0) * 9 / 10))" -- \
	"TAP on: the AP's pure ACKs go on TID 6 (AC_VO)"
ok test "$((b0 - a0))" -le "$((off0 / 5))" -- \
	"TAP on: TID 0 carries under a fifth of its TAP-off count during the upload"

read -r a0 a6 <<<"$(tidtx)"
download || tap_fail "iperf3 download"
read -r b0 b6 <<<"$(tidtx)"
tap_diag "TAP on, 3 MB download: AP tx MSDUs TID0 +$((b0 - a0)), TID6 +$((b6 - a6))"
ok test "$((b0 - a0))" -ge 500 -- "TAP on: the AP's data stays on TID 0 (AC_BE)"
ok test "$((b6 - a6))" -le 10 -- "TAP on: only the connection's few pure ACKs on TID 6"

out=$(ip netns exec ap "$TOOL" status "$AP_IF")
tap_diag "$out"
ok ip netns exec ap "$TOOL" remove "$AP_IF" -- "tap-setup remove"
NOW_TC=$(ip netns exec ap tc qdisc show dev "$AP_IF"; ip netns exec ap tc filter show dev "$AP_IF" egress 2>&1)
tap_is "$NOW_TC" "$BASE_TC" "remove: tc state of the AP interface as before"
ok cmp "$HCONF" "$AQ_TMP/hostapd.orig" -- "remove: hostapd config restored byte for byte"
exit 0
