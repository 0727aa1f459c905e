#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry "off" against stock mac80211, seen from the air.  The same
# experiment runs twice through the testbed's medium, with the same
# (testbed-patched) mac80211_hwsim and the same lossy 802.11n link as
# 50-medium-limits.sh:
#  1. Debian's own mac80211.ko from the kernel package (not rebuilt);
#  2. our patched mac80211 as it loads, policy off (the default).
# Each run: warm-up (1 s), a TCP download and a TCP upload (2 s each: some
# 2,100-2,400 data frames per radio, 2026-11-28); the medium's per-frame
# histograms of attempts used ("tries") and of tries the rate table
# allowed ("table") are compared.  minstrel_ht samples rates at random and
# the medium's backoff is random, so two runs of the same kernel differ
# too: "identical" is asserted as the same largest table and means within
# tolerances (below).
#
# aq-vm-clock: virtual
# aq-vm-cost: 77  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# aq-vm-timeout: 3600  (458 guest seconds measured in CI; 1570 and over 2096 (killed at 1800) on 2 cores beside three other guests, 2026-11-28: loading the modules over 9p runs the virtual clock ahead)
# (the medium's airtime sets the rates, not the TCG guest's CPU)
set -u
AQ_TOP=${AQ_TOP:-/work/main}
. "$AQ_TOP/testbed/lib/guest.sh"

N=10
tap_plan $N
trap aq_cleanup_all EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

SNR=${AQ_RETRY_SNR:-13}
BER=${AQ_RETRY_BER:-5e-6}
T=${AQ_STOCK_T:-2}		# seconds per measured iperf3 run
DATA="tcp tcp_ack udp"
KVER=${KVER:-$(uname -r)}
. "$AQ_TOP/mac80211-retry/tests/vm/lib-medium.sh"

skip_rest() { # WHY
	local i
	for i in $(seq $((N - _tap_n))); do tap_skip "off vs stock" "$1"; done
	exit 0
}
command -v hostapd >/dev/null && command -v iperf3 >/dev/null &&
	command -v jq >/dev/null || skip_rest "hostapd, iperf3 or jq missing"
[ -x "$MEDIUM_BIN" ] || skip_rest "$MEDIUM_BIN not built (make -C testbed/medium)"
stock_ko=$(ls "/lib/modules/$KVER/kernel/net/mac80211/mac80211.ko"* 2>/dev/null | head -n 1)
[ -n "$stock_ko" ] || skip_rest "no stock mac80211.ko in /lib/modules/$KVER/kernel"

# load_stack stock|patched: mac80211 (Debian's file or what modprobe
# resolves: ours, in updates/), then mac80211_hwsim with 2 radios
load_stack() {
	modprobe -r mac80211_hwsim mac80211 2>/dev/null
	if [ "$1" = stock ]; then
		insmod_stock_mac80211 "$stock_ko" || return 1
	fi
	hwsim_load 2
}

# run NAME: one experiment on the loaded stack; snapshots NAME-0/1.json
run() {
	local name=$1
	medium_config_bss "$AQ_TMP/bss.json" n24 1 5
	jq --argjson snr "$SNR" --argjson ber "$BER" \
		'.links = [{"from": "ap", "to": "sta1", "snr_db": $snr, "ber": $ber}]' \
		"$AQ_TMP/bss.json" >"$AQ_TMP/medium-$name.json"
	medium_start "$AQ_TMP/medium-$name.json" || return 1
	topo_bss 1 1 g ieee80211n=1 >"$AQ_TMP/topo-$name.log" 2>&1 || return 1
	iperf3_server sta1 >/dev/null 2>&1
	# warm up: Block Ack sessions, minstrel_ht's statistics
	iperf3_client ap 10.0.0.2 -t 1 >/dev/null 2>&1
	medium_stats >"$AQ_TMP/$name-0.json"
	iperf3_client ap 10.0.0.2 -t "$T" >"$AQ_TMP/$name-down.json" 2>/dev/null
	iperf3_client ap 10.0.0.2 -t "$T" -R >"$AQ_TMP/$name-up.json" 2>/dev/null
	medium_stats >"$AQ_TMP/$name-1.json"
}

# stop NAME: tear the run down to no module, keeping the medium's stats
stop() {
	medium_stop
	aq_cleanup_all >/dev/null 2>&1
}

mbps() { iperf3_mbps "$AQ_TMP/$1.json" received; }

# --- 1. stock -------------------------------------------------------------
load_stack stock || skip_rest "Debian's mac80211 with the testbed's hwsim does not load"
if [ ! -e "/sys/kernel/debug/ieee80211/$(hwsim_phys | head -n 1)/retry" ] &&
   ! grep -q ' ieee80211_feedback_register' /proc/kallsyms; then
	tap_ok "stock: Debian's mac80211 is loaded (no retry policy, no feedback API)"
else
	tap_fail "stock: Debian's mac80211 is loaded" "the patched one answered"
fi
run stock || { tap_diag "$(tail -n 5 "$AQ_TMP/topo-stock.log")"; stop; skip_rest "stock run failed"; }
stop

# --- 2. patched, policy off -----------------------------------------------
load_stack patched || skip_rest "the patched stack does not load"
phy=$(hwsim_phys | head -n 1)
if [ "$(cat "/sys/kernel/debug/ieee80211/$phy/retry/mode" 2>/dev/null)" = off ]; then
	tap_ok "patched: mac80211-retry loaded, policy off by default"
else
	tap_fail "patched: mac80211-retry loaded, policy off by default" \
		"mode: $(cat "/sys/kernel/debug/ieee80211/$phy/retry/mode" 2>&1)"
fi
run off || { tap_diag "$(tail -n 5 "$AQ_TMP/topo-off.log")"; stop; skip_rest "patched run failed"; }
off_frames=$(awk '$1 == "frames" { print $2 }' "/sys/kernel/debug/ieee80211/$phy/retry/stats")
stop

# --- compare --------------------------------------------------------------
for r in ap sta1; do
	for f in tries table; do
		eval "s_${r}_$f=\"$(hist stock-0 stock-1 $r $f $DATA)\""
		eval "o_${r}_$f=\"$(hist off-0 off-1 $r $f $DATA)\""
	done
done
tap_diag "stock: down $(mbps stock-down) up $(mbps stock-up) Mbit/s" \
	"stock: ap   tries [$s_ap_tries] table [$s_ap_table]" \
	"stock: sta1 tries [$s_sta1_tries] table [$s_sta1_table]" \
	"off:   down $(mbps off-down) up $(mbps off-up) Mbit/s" \
	"off:   ap   tries [$o_ap_tries] table [$o_ap_table]" \
	"off:   sta1 tries [$o_sta1_tries] table [$o_sta1_table]"

tap_is "$off_frames" 0 "off: the policy counted no frame"
tap_in_range "$(hsum "$o_ap_tries")" 500 100000000 "off: the medium saw the AP's data frames"
# The largest table is a tail statistic of minstrel_ht's choices: the
# "15 or more" bucket held 21 to 427 of some 3000-3700 frames in the runs
# looked at, and a run with none there has a smaller maximum (one CI run
# failed on exact equality for sta1; its values were not captured).
# Within 2 tries of stock's, and far above any limit the policy sets.
for r in ap sta1; do
	eval "st=\$s_${r}_table of=\$o_${r}_table"
	if within "$(hmax "$of")" "$(hmax "$st")" 0 2 && [ "$(hmax "$of")" -ge 8 ]; then
		tap_ok "$r: the largest rate table is minstrel's, as with stock ($(hmax "$of") vs $(hmax "$st") tries, +-2)"
	else
		tap_fail "$r: the largest rate table is minstrel's, as with stock" \
			"$(hmax "$of") vs $(hmax "$st") tries"
	fi
done
# Tolerances: in 50-medium-limits.sh two runs of minstrel_ht's own tables
# (off, fixed 255/255) had mean tables 8.3 .. 10.1 tries apart (18 %); the
# attempts used depend on the link more than on the tables.
for r in ap sta1; do
	eval "st=\$s_${r}_table of=\$o_${r}_table sa=\$s_${r}_tries oa=\$o_${r}_tries"
	if within "$(hmean "$of")" "$(hmean "$st")" 250 0.3; then
		tap_ok "$r: mean tries allowed per frame as with stock ($(hmean "$of") vs $(hmean "$st"), 25 % + 0.3)"
	else
		tap_fail "$r: mean tries allowed per frame as with stock" "$(hmean "$of") vs $(hmean "$st")"
	fi
	if within "$(hmean "$oa")" "$(hmean "$sa")" 150 0.2; then
		tap_ok "$r: mean attempts used per frame as with stock ($(hmean "$oa") vs $(hmean "$sa"), 15 % + 0.2)"
	else
		tap_fail "$r: mean attempts used per frame as with stock" "$(hmean "$oa") vs $(hmean "$sa")"
	fi
done
