# SPDX-License-Identifier: GPL-2.0
# Helpers for the mac80211-retry VM tests that read the medium's attempt
# histograms (sourced, not run).  Snapshots are the medium's statistics
# saved as $AQ_TMP/<name>.json (medium_stats); a histogram is 16 numbers,
# index = attempts (or tries), the last bucket that many or more.

# hist_ac A B RADIO tries|table AC CLASS...: 16 buckets, delta between
# snapshots, summed over the classes of one access category (AC "all":
# every AC)
hist_ac() {
	python3 - "$AQ_TMP/$1.json" "$AQ_TMP/$2.json" "${@:3}" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
radio, field, only, classes = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
def h(d):
    r = next(x for x in d["radios"] if x["name"] == radio)
    acs = list(r["ac"]) if only == "all" else [only]
    return [sum(r["ac"][ac]["l4"][c][field][i] for ac in acs for c in classes)
            for i in range(16)]
print(" ".join(str(y - x) for x, y in zip(h(a), h(b))))
PY
}
# hist A B RADIO tries|table CLASS...: the same over every AC
hist() { hist_ac "$1" "$2" "$3" "$4" all "${@:5}"; }
hmax() { local i m=0 v=($1); for i in "${!v[@]}"; do [ "${v[i]}" -gt 0 ] && m=$i; done; echo $m; }
hat() { local v=($1); echo "${v[$2]}"; }
hsum() { local s=0 x; for x in $1; do s=$((s + x)); done; echo $s; }
hattempts() { local i s=0 v=($1); for i in "${!v[@]}"; do s=$((s + i * v[i])); done; echo $s; }
hmean() { awk -v n="$(hsum "$1")" -v a="$(hattempts "$1")" 'BEGIN { printf "%.2f", n ? a / n : 0 }'; }
# within GOT WANT PERMILLE ABS: |got - want| <= want * permille / 1000 + abs
within() { awk -v g="$1" -v w="$2" -v p="$3" -v a="$4" \
	'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 1000 + a) }'; }

# insmod_stock_mac80211 KO: Debian's mac80211.ko from the kernel package
# instead of ours (in updates/): its dependencies by name, then the file
insmod_stock_mac80211() {
	local d
	for d in $(modprobe --show-depends mac80211 2>/dev/null |
		   awk '$1 == "insmod" { print $2 }'); do
		case "$d" in
		*/mac80211.ko*) ;;
		*) d=${d##*/}; modprobe "${d%%.ko*}" || return 1 ;;
		esac
	done
	insmod "$1"
}

# lossy_link_bss SNR BER: the medium with one 802.11n BSS (the AP and sta1
# 5 m away), the AP -> sta1 link at SNR dB and bit-error rate BER, then the
# AP/STA topology (topo_bss); sets STA_IF.  On failure the last line of
# output says what failed, and it returns 1.
lossy_link_bss() {
	medium_config_bss "$AQ_TMP/bss.json" n24 1 5
	jq --argjson snr "$1" --argjson ber "$2" \
		'.links = [{"from": "ap", "to": "sta1", "snr_db": $snr, "ber": $ber}]' \
		"$AQ_TMP/bss.json" >"$AQ_TMP/medium-link.json"
	medium_start "$AQ_TMP/medium-link.json" ||
		{ echo "the medium does not start"; return 1; }
	topo_bss 1 1 g ieee80211n=1 ||
		{ echo "AP/STA topology failed"; return 1; }
	STA_IF=${STA_IFS[0]}
}
