#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The medium against Debian's own mac80211_hwsim (the stock module file,
# inserted by hand: modprobe would take the patched one from updates/).  A
# stock kernel does not publish the numbers of the airqueue extension
# (/sys/module/mac80211_hwsim/parameters/ext_attrs, hwsim-patches 0005) and
# may use them for attributes of its own (6.18: 30 is a flag), so the medium
# must speak the plain wmediumd protocol.  Asserts:
#   - Debian's hwsim loads and has no ext_attrs parameter;
#   - the medium starts, says the extensions are off, and still runs an AP
#     and a station at 802.11g 54 Mbit/s: association, ping, and a 3 s TCP
#     upload at an airtime-bound rate (not hwsim's hundreds of Mbit/s;
#     23.8 Mbit/s measured over 5 s, 24.0 over 3 s);
#   - the kernel accepted every tx status the medium sent (a stock 6.18
#     hwsim refuses those that carry our u32 under its flag 30);
#   - a malformed ext_attrs line (AQ_HWSIM_EXT_FILE) stops the medium with
#     the reason, rather than sending attributes under wrong numbers.
# aq-vm-clock: virtual
# aq-vm-cost: 75  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# aq-vm-timeout: 2400  (398 guest seconds measured alone; the clock runs ahead while the host serves other guests)
set -u
AQ_TOP=${AQ_TOP:-/work/main}
AQ_BUILD=${AQ_BUILD:-$AQ_TOP/build}
AQ_RESULTS=${AQ_RESULTS:-/tmp/aq-results}
. "$AQ_TOP/testbed/lib/guest.sh"

N=7
tap_plan $N
skip_all() {
	local i
	for i in $(seq $N); do tap_skip "medium against stock hwsim $i" "$1"; done
	exit 0
}
skip_rest() {
	while [ "$_tap_n" -lt $N ]; do tap_skip "medium against stock hwsim" "$1"; done
	exit 0
}
[ -x "$MEDIUM_BIN" ] || skip_all "$MEDIUM_BIN not built"
for c in hostapd wpa_supplicant iperf3 jq iw; do
	command -v $c >/dev/null || skip_all "$c missing"
done
OUT=$AQ_RESULTS/medium-stock	# on 9p: readable on the host even if the script is killed
mkdir -p "$OUT"
save() { cp "$AQ_TMP/medium.log" "$OUT/" 2>/dev/null; }
trap 'medium_stop >/dev/null 2>&1; aq_cleanup_all >/dev/null 2>&1; save' EXIT

# the stock module's place from modules.order (two reads; a find walks some
# 5,000 entries of the module tree over 9p, minutes of guest time under the
# virtual clock when the host is busy), find only if that fails
kmods=/lib/modules/$(uname -r)
stock=
for p in $(sed -n 's|^\(kernel/.*/mac80211_hwsim\.ko\)$|\1|p' "$kmods/modules.order" 2>/dev/null); do
	for z in "" .xz .zst .gz; do
		[ -f "$kmods/$p$z" ] && { stock=$kmods/$p$z; break 2; }
	done
done
[ -n "$stock" ] || stock=$(find "$kmods/kernel" -name 'mac80211_hwsim.ko*' | head -n 1)
[ -n "$stock" ] || skip_all "no stock mac80211_hwsim under /lib/modules/$(uname -r)/kernel"
modprobe -r mac80211_hwsim 2>/dev/null
modprobe mac80211 && insmod "$stock" radios=2
for i in $(seq 50); do [ "$(hwsim_phys | wc -l)" -ge 2 ] && break; sleep 0.1; done
if [ "$(hwsim_phys | wc -l)" -ge 2 ] && [ ! -e /sys/module/mac80211_hwsim/parameters/ext_attrs ] &&
   [ ! -e /sys/module/mac80211_hwsim/parameters/hw_queue_depth ]; then
	tap_ok "Debian's mac80211_hwsim ($(basename "$stock")) loads: no ext_attrs"
else
	tap_fail "Debian's mac80211_hwsim ($(basename "$stock")) loads: no ext_attrs" \
		"$(ls /sys/module/mac80211_hwsim/parameters 2>&1 | tr '\n' ' ')"
	skip_rest "no stock hwsim"
fi

medium_config_bss "$OUT/medium.json" g 1 5	# asks for the extensions
if medium_start "$OUT/medium.json" &&
   grep -q "a stock mac80211_hwsim, hwsim extensions off" "$AQ_TMP/medium.log"; then
	tap_ok "the medium starts and turns the extensions off"
else
	tap_fail "the medium starts and turns the extensions off" "$(head -n 3 "$AQ_TMP/medium.log")"
	skip_rest "no medium"
fi
# in the background, bounded: one run in make check never came back from
# topo_bss (killed at the script's budget, no log); the budget is guest
# time, which runs ahead while the guest waits
(topo_bss 1 1 g >"$OUT/topo.log" 2>&1; echo $? >"$OUT/topo.rc") &
for i in $(seq 600); do [ -s "$OUT/topo.rc" ] && break; sleep 0.5; done
sta_if=$(ip netns exec sta1 iw dev 2>/dev/null | awk '/Interface/ { print $2; exit }')
if [ "$(cat "$OUT/topo.rc" 2>/dev/null)" = 0 ] && [ -n "$sta_if" ]; then
	tap_ok "AP and station associate through the medium"
else
	tap_fail "AP and station associate through the medium" "$(tail -n 3 "$OUT/topo.log")"
	medium_stats >"$OUT/stats-noassoc.json" 2>&1
	save
	skip_rest "no association"
fi
ip netns exec sta1 iw dev "$sta_if" set power_save off 2>/dev/null
ok ip netns exec sta1 ping -c 5 -i 0.2 -W 2 10.0.0.1 -- "the station pings the AP"
iperf3_server ap >/dev/null 2>&1
ip netns exec sta1 iperf3 -c 10.0.0.1 -t 3 -J >"$OUT/iperf3.json" 2>&1
mbps=$(iperf3_mbps "$OUT/iperf3.json" received)
tap_in_range "${mbps:-0}" 15 27 "TCP upload at 54 Mbit/s is airtime-bound (Mbit/s)"
medium_stats >"$OUT/stats.json"
# Deliveries to a radio that is idle or off channel are refused by any
# hwsim (kernel_rejected_frames, Documentation/testbed/medium.rst); a status
# carrying an attribute the kernel reads otherwise would be refused too.
tap_diag "$(jq -c '{kernel_rejected_frames, kernel_rejected_tx_info, nl_errors, frames_in}' "$OUT/stats.json")"
rej=$(jq '.kernel_rejected_tx_info + .nl_errors' "$OUT/stats.json")
tap_is "$rej" 0 "the kernel accepted every tx status the medium sent"
medium_stop >/dev/null 2>&1

printf 'tx_airtime=29 rx_airtime=31\n' >"$OUT/bad-ext"
AQ_HWSIM_EXT_FILE=$OUT/bad-ext timeout 10 "$MEDIUM_BIN" -c "$OUT/medium.json" \
	>"$OUT/bad.log" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q "tx_airtime=29 is not above" "$OUT/bad.log"; then
	tap_ok "a malformed ext_attrs stops the medium with the reason"
else
	tap_fail "a malformed ext_attrs stops the medium with the reason" "rc $rc: $(head -n 2 "$OUT/bad.log")"
fi
tap_done
