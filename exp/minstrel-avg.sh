#!/bin/bash
# ad hoc: the retry policy's rate average with and without clamping, at a
# lossy 802.11n link (not a test; not committed)
set -u
AQ_TOP=${AQ_TOP:-/work/dev}
. "$AQ_TOP/testbed/lib/guest.sh"
trap aq_cleanup_all EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
SNR=${SNR:-13}
hwsim_load 2 || exit 1
phys=($(hwsim_phys))
R0=/sys/kernel/debug/ieee80211/${phys[0]}/retry
medium_config_bss "$AQ_TMP/bss.json" n24 1 5
jq --argjson snr "$SNR" '.links = [{"from": "ap", "to": "sta1", "snr_db": $snr, "ber": 5e-6}]' \
	"$AQ_TMP/bss.json" >"$AQ_TMP/m.json"
medium_start "$AQ_TMP/m.json" || exit 1
topo_bss 1 1 g ieee80211n=1 >"$AQ_TMP/topo.log" 2>&1 || { tail "$AQ_TMP/topo.log"; exit 1; }
iperf3_server sta1 >/dev/null 2>&1
. "$AQ_TOP/mac80211-retry/tests/vm/lib-medium.sh"
iperf3_client ap 10.0.0.2 -t 2 >/dev/null
for round in 1 2 3; do
for mode in fixed rate; do
	printf '%s' "$mode" >"$R0/mode"; printf '255/255' >"$R0/fixed"
	medium_stats >"$AQ_TMP/a.json"
	iperf3_client ap 10.0.0.2 -t 4 >"$AQ_TMP/ip.json"
	medium_stats >"$AQ_TMP/b.json"
	line=$(grep -v '^#' "$R0/stations" | head -n 1)
	set -- $line
	echo "RESULT snr=$SNR round=$round mode=$mode rate_avg_kbps=${10} B=$6 mbps=$(iperf3_mbps "$AQ_TMP/ip.json" received) tcp_tries=[$(hist a b ap tries tcp)] ba=[$(hist a b ap ampdu_tries tcp)]"
done
done
