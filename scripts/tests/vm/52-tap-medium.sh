#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 169  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
#
# TAP on the air: mac80211_hwsim through the testbed's medium
# (testbed/medium, 802.11g), an AP and N stations 5 m away, a wired server
# behind the AP; each station uploads over TCP to the server (iperf3), so
# the AP forwards the server's pure ACKs.  Two runs of the same uploads,
# without TAP and with `tap-setup apply` on the AP's wlan interface.  From
# the medium's per-radio, per-AC counters of what each data frame carries
# (l4.tcp_ack = pure ACK, l4.tcp = any other TCP segment):
#   - without TAP the AP's pure ACKs are on AC_BE (nothing on AC_VO);
#   - with TAP at least 95% of them are on AC_VO, the AP's other TCP
#     segments (SYN-ACKs, iperf3's control data) stay on AC_BE, and the
#     stations' data stays on AC_BE;
#   - the number of radios with a frame queued at the medium (the
#     contenders, the medium's contending_hist_us over the middle of each
#     run): with TAP the stations are never held back by ACKs waiting at
#     the AP, so fewer than N radios are backlogged under 1% of the time,
#     and less often than without TAP; the mean with TAP lies between
#     N - 1 and N + 1.  Both distributions, their means and n* (tap-setup's
#     Bianchi model for this PHY and MSDU size) are printed.  The mean is
#     not compared: without TAP Linux's stations are mostly backlogged too
#     (see tcp-ack-priority.rst), and with TAP the AP itself is backlogged
#     less often, so the two means are close and their order depends on
#     the TCP window.  Aggregate upload throughput both ways: diagnostic.
#   - hostapd restarted on the configuration tap-setup rewrote hands the
#     kernel (mac80211_hwsim's conf_tx, via dynamic debug) the AC_VO
#     parameters tap-setup printed; after `remove` the tc state (tc -j) and,
#     after another restart, the EDCA hostapd gives the kernel for all four
#     ACs are exactly as before apply.
#
# Limit: hwsim does not pass the kernel's EDCA parameters to the medium, so
# the medium's config carries the AP's AC_VO parameters from tap-setup
# (AIFSN, CWmin, CWmax; the medium has no TXOP bursts) for both runs: with
# TAP off the AP sends no data on AC_VO, so they only matter with TAP on.
set -u
AQ_TOP=${AQ_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$AQ_TOP/testbed/lib/guest.sh"
TOOL="$AQ_TOP/scripts/tap-setup"
export PYTHONDONTWRITEBYTECODE=1
export AQ_TAP_STATE_DIR="$AQ_TMP/tap-state"

N=${AQ_TAP_N:-4}	# uploading stations
T=${AQ_TAP_T:-3}	# s per upload run
# Each upload's window: 20 segments, ns-2's default (the paper's model:
# "each STA has an average of W TCP packets"); iperf3 -w sets the socket
# buffers at both ends, the server's advertises about that much.  0: no -w
# (Linux's autotuned windows).
WIN=${AQ_TAP_WIN:-29K}
[ "$WIN" = 0 ] && WIN=
MSDU=1508		# 1500-byte IP packet + LLC/SNAP
W=$AQ_TMP/tap-medium
OUT=${AQ_RESULTS:-$AQ_TMP}/tap-medium
PLAN=12
tap_plan $PLAN

cleanup() {
	medium_stop >/dev/null 2>&1
	mkdir -p "$OUT"
	cp "$AQ_TMP/medium.log" "$AQ_TMP"/hostapd-*.log "$W"/ 2>/dev/null
	cp -r "$W/." "$OUT/" 2>/dev/null
	aq_cleanup_all >/dev/null 2>&1
}
trap cleanup EXIT
skip_rest() {
	while [ "$_tap_n" -lt $PLAN ]; do tap_skip "TAP on the medium, check $((_tap_n + 1))" "$1"; done
	exit 0
}
rm -rf "$W"
mkdir -p "$W"

for b in hostapd wpa_supplicant iw iperf3 jq python3 tc; do
	command -v "$b" >/dev/null || skip_rest "$b not installed"
done
[ -x "$MEDIUM_BIN" ] || skip_rest "$MEDIUM_BIN not built (make -C testbed/medium)"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
DDC=/sys/kernel/debug/dynamic_debug/control
[ -w "$DDC" ] || skip_rest "no dynamic debug control (CONFIG_DYNAMIC_DEBUG)"
hwsim_load $((N + 1)) || skip_rest "mac80211_hwsim not loadable"
PHYS=($(hwsim_phys))
# the EDCA parameters mac80211 hands the driver, for every conf_tx call
echo 'module mac80211_hwsim func mac80211_hwsim_conf_tx +p' >"$DDC" ||
	skip_rest "cannot enable mac80211_hwsim_conf_tx debug messages"

# What tap-setup will configure, and the AP's AC_VO EDCA for the medium
"$TOOL" hostapd --phy g --rate 54 --size $MSDU >"$W/tap-lines.txt" ||
	skip_rest "tap-setup hostapd failed"
tq() { sed -n "s/^tx_queue_data0_$1=//p" "$W/tap-lines.txt"; }
VO_AIFS=$(tq aifs) VO_CWMIN=$(tq cwmin) VO_CWMAX=$(tq cwmax) VO_BURST=$(tq burst)
NSTAR=$("$TOOL" nstar --phy g --rate 54 --size $MSDU --access basic --json |
	jq -r '.results[0] | "\(.nstar_real * 1000 | round / 1000) (integer \(.nstar_int))"')
medium_config_bss "$W/medium.base.json" g "$N"
jq --argjson a "$VO_AIFS" --argjson c "$VO_CWMIN" --argjson x "$VO_CWMAX" \
	'.radios[0].edca = {VO: {aifsn: $a, cwmin: $c, cwmax: $x}}' \
	"$W/medium.base.json" >"$W/medium.json" || skip_rest "medium config"
medium_start "$W/medium.json" || skip_rest "the medium does not start"
topo_bss "$N" 1 g >"$W/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$W/topo.log")"; skip_rest "AP and $N stations did not come up"; }
HCONF="$AQ_TMP/hostapd-ap-$AP_IF.conf"
for i in $(seq "$N"); do
	iperf3_server srv $((5200 + i)) || skip_rest "iperf3 server did not start"
done

# conf_tx lines of the AP's phy since dmesg line $1: "queue=Q txop=.. aifs=.."
# (the last one per queue)
conf_tx() {
	dmesg | tail -n +"$(($1 + 1))" |
		sed -n "s/.* ${PHYS[0]}: mac80211_hwsim_conf_tx (\(.*\))$/\1/p" |
		awk '{q[$1] = $0} END {for (k in q) print q[k]}' | sort
}
hostapd_restart() { # restart on $HCONF, wait for the AP and its stations
	local pid i
	pid=$(cat "$AQ_TMP/hostapd-ap.pid")
	kill "$pid"
	for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	: >"$AQ_TMP/hostapd-ap.log"
	ip netns exec ap hostapd -B -P "$AQ_TMP/hostapd-ap.pid" \
		-f "$AQ_TMP/hostapd-ap.log" "$HCONF" || return 1
	for i in $(seq 50); do
		grep -q AP-ENABLED "$AQ_TMP/hostapd-ap.log" 2>/dev/null && break
		sleep 0.1
	done
	grep -q AP-ENABLED "$AQ_TMP/hostapd-ap.log" || return 1
	[ "${1:-}" = nowait ] && return 0
	for i in $(seq "$N"); do
		wait_assoc "sta$i" "${STA_IFS[i - 1]}" 20 || return 1
	done
}

# run PHASE: N parallel uploads of T s; medium stats before, after 1 s,
# 0.5 s before the end and after
run() {
	local ph=$1 i pids=()
	medium_stats >"$W/$ph.s0.json"
	for i in $(seq "$N"); do
		iperf3_client "sta$i" 10.9.0.2 -p $((5200 + i)) -t "$T" ${WIN:+-w "$WIN"} \
			>"$W/$ph.up$i.json" &
		pids+=($!)
	done
	sleep 1
	medium_stats >"$W/$ph.s1.json"
	sleep "$(awk -v t="$T" 'BEGIN {print t - 1.5}')"
	medium_stats >"$W/$ph.s2.json"
	for i in "${pids[@]}"; do wait "$i"; done
	medium_stats >"$W/$ph.s3.json"
	python3 - "$W" "$ph" "$N" >"$W/$ph.env" <<'PY'
import json, sys
w, ph, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = [json.load(open(f"{w}/{ph}.s{i}.json")) for i in range(4)]
def radio(st, name):
    for r in st["radios"]:
        if r["name"] == name:
            return r
    return None
def l4(a, b, name, ac, kind):
    ra, rb = radio(a, name), radio(b, name)
    return rb["ac"][ac]["l4"][kind]["frames"] - ra["ac"][ac]["l4"][kind]["frames"]
out = {}
for ac in ("BK", "BE", "VI", "VO"):
    out[f"AP_ACK_{ac}"] = l4(s[0], s[3], "ap", ac, "tcp_ack")
    out[f"AP_TCP_{ac}"] = l4(s[0], s[3], "ap", ac, "tcp")
    out[f"STA_TCP_{ac}"] = sum(l4(s[0], s[3], f"sta{i}", ac, "tcp") for i in range(1, n + 1))
h1, h2 = s[1]["contending_hist_us"], s[2]["contending_hist_us"]
k = max(len(h1), len(h2))
h1 += [0.0] * (k - len(h1))
h2 += [0.0] * (k - len(h2))
d = [b - a for a, b in zip(h1, h2)]
tot = sum(d)
mean = sum(i * x for i, x in enumerate(d)) / tot if tot > 0 else 0.0
out["CONT_MEAN"] = f"{mean:.3f}"
out["CONT_HIST"] = "'" + " ".join(f"{i}:{100 * x / tot:.1f}%" for i, x in enumerate(d)) + "'" \
    if tot > 0 else "none"
out["CONT_BELOW_N"] = f"{100 * sum(d[:n]) / tot:.2f}" if tot > 0 else "100"
bps = 0.0
for i in range(1, n + 1):
    try:
        bps += json.load(open(f"{w}/{ph}.up{i}.json"))["end"]["sum_received"]["bits_per_second"]
    except (OSError, ValueError, KeyError):
        pass
out["MBPS"] = f"{bps / 1e6:.2f}"
for key, v in out.items():
    print(f"{ph}_{key}={v}")
PY
	. "$W/$ph.env"
}

t0=$(date +%s.%N)
run off
tap_diag "guest time: $(date +%s.%N | awk -v t="$t0" '{printf "%.1f", $1 - t}') s for the TAP-off run"
tap_diag "TAP off: AP pure ACKs BE $off_AP_ACK_BE VO $off_AP_ACK_VO; AP other TCP BE $off_AP_TCP_BE VO $off_AP_TCP_VO; stations' TCP BE $off_STA_TCP_BE VO $off_STA_TCP_VO" \
	"TAP off: contenders (time share) $off_CONT_HIST, mean $off_CONT_MEAN; upload $off_MBPS Mbit/s"
[ "$off_STA_TCP_BE" -ge 1000 ] || skip_rest "the uploads did not run ($off_STA_TCP_BE data frames)"
ok test "$off_AP_ACK_BE" -ge 500 -a "$off_AP_ACK_VO" -eq 0 -- \
	"TAP off: the AP's pure ACKs are on AC_BE, none on AC_VO"

# the state before apply
tcstate() {
	ip netns exec ap tc -j qdisc show dev "$AP_IF" 2>&1
	ip netns exec ap tc -j filter show dev "$AP_IF" ingress 2>&1
	ip netns exec ap tc -j filter show dev "$AP_IF" egress 2>&1
}
BASE_TC=$(tcstate)
cp "$HCONF" "$W/hostapd.orig.conf"
BASE_EDCA=$(conf_tx 0)
tap_diag "kernel EDCA of the AP before apply:" "$BASE_EDCA"

ok ip netns exec ap "$TOOL" apply "$AP_IF" --phy g --rate 54 --size $MSDU \
	--hostapd-conf "$HCONF" -- "tap-setup apply on the AP interface (tc + hostapd conf)"
mark=$(dmesg | wc -l)
hostapd_restart || skip_rest "hostapd or the stations did not come back after apply"
ON_EDCA=$(conf_tx "$mark")
tap_diag "kernel EDCA of the AP with TAP:" "$ON_EDCA"
# hostapd's burst (ms) in the kernel's units of 32 us
want_txop=$(awk -v b="$VO_BURST" 'BEGIN { printf "%d", b * 1000 / 32 + 0.5 }')
tap_is "$(grep '^queue=0 ' <<<"$ON_EDCA")" \
	"queue=0 txop=$want_txop cw_min=$VO_CWMIN cw_max=$VO_CWMAX aifs=$VO_AIFS" \
	"TAP on: hostapd hands mac80211 tap-setup's AC_VO parameters"

run on
tap_diag "TAP on: AP pure ACKs BE $on_AP_ACK_BE VO $on_AP_ACK_VO; AP other TCP BE $on_AP_TCP_BE VO $on_AP_TCP_VO; stations' TCP BE $on_STA_TCP_BE VO $on_STA_TCP_VO" \
	"TAP on: contenders (time share) $on_CONT_HIST, mean $on_CONT_MEAN; upload $on_MBPS Mbit/s"
tap_diag "$(ip netns exec ap "$TOOL" status "$AP_IF" 2>&1 | head -n 8)"
on_acks=$((on_AP_ACK_BE + on_AP_ACK_VO + on_AP_ACK_VI + on_AP_ACK_BK))
ok test "$on_acks" -ge 500 -a "$on_AP_ACK_VO" -ge "$((on_acks * 95 / 100))" -- \
	"TAP on: >= 95% of the AP's pure ACKs on AC_VO ($on_AP_ACK_VO of $on_acks)"
ok test "$on_AP_TCP_BE" -ge "$N" -a "$on_AP_TCP_VO" -eq 0 -- \
	"TAP on: the AP's other TCP segments stay on AC_BE ($on_AP_TCP_BE)"
ok test "$on_STA_TCP_BE" -ge 1000 -a "$((on_STA_TCP_VO + on_STA_TCP_VI + on_STA_TCP_BK))" -eq 0 -- \
	"TAP on: the stations' data stays on AC_BE ($on_STA_TCP_BE frames)"
tap_diag "n* (tap-setup nstar --phy g --rate 54 --size $MSDU, basic access): $NSTAR; N = $N stations + AP" \
	"contenders mean: TAP off $off_CONT_MEAN, on $on_CONT_MEAN; upload: off $off_MBPS, on $on_MBPS Mbit/s"
tap_diag "time with fewer than N radios backlogged: TAP off $off_CONT_BELOW_N%, on $on_CONT_BELOW_N%"
ok awk -v on="$on_CONT_BELOW_N" -v off="$off_CONT_BELOW_N" 'BEGIN { exit !(on < 1 && on < off) }' -- \
	"contenders: with TAP fewer than N radios are backlogged < 1% of the time, and less than without"
tap_in_range "$on_CONT_MEAN" "$((N - 1))" $((N + 1)) "contenders with TAP: mean between N - 1 and N + 1"
# also reported by tap_diag above; the sum must be a real run
tap_in_range "$on_MBPS" 1 54 "TAP on: the uploads carried data (Mbit/s)"

ok ip netns exec ap "$TOOL" remove "$AP_IF" -- "tap-setup remove"
tap_is "$(tcstate)" "$BASE_TC" "remove: tc -j qdisc/filter state of the AP interface as before"
cmp -s "$HCONF" "$W/hostapd.orig.conf" || tap_diag "hostapd conf differs after remove"
mark=$(dmesg | wc -l)
hostapd_restart nowait || tap_diag "hostapd did not restart after remove"
tap_is "$(conf_tx "$mark")" "$BASE_EDCA" \
	"remove: hostapd hands mac80211 the same EDCA (all ACs) as before apply"
exit 0
