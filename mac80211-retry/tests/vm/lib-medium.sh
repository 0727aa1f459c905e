# SPDX-License-Identifier: GPL-2.0
# Helpers for the mac80211-retry VM tests that read the medium's attempt
# histograms (sourced, not run).  Snapshots are the medium's statistics
# saved as $AQ_TMP/<name>.json (medium_stats); a histogram is 16 numbers,
# index = attempts (or tries), the last bucket that many or more.

# hist A B RADIO tries|table CLASS...: 16 buckets, delta between
# snapshots, summed over the ACs and the classes
hist() {
	python3 - "$AQ_TMP/$1.json" "$AQ_TMP/$2.json" "${@:3}" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
radio, field, classes = sys.argv[3], sys.argv[4], sys.argv[5:]
def h(d):
    r = next(x for x in d["radios"] if x["name"] == radio)
    return [sum(r["ac"][ac]["l4"][c][field][i] for ac in r["ac"] for c in classes)
            for i in range(16)]
print(" ".join(str(y - x) for x, y in zip(h(a), h(b))))
PY
}
hmax() { local i m=0 v=($1); for i in "${!v[@]}"; do [ "${v[i]}" -gt 0 ] && m=$i; done; echo $m; }
hat() { local v=($1); echo "${v[$2]}"; }
hsum() { local s=0 x; for x in $1; do s=$((s + x)); done; echo $s; }
hattempts() { local i s=0 v=($1); for i in "${!v[@]}"; do s=$((s + i * v[i])); done; echo $s; }
hmean() { awk -v n="$(hsum "$1")" -v a="$(hattempts "$1")" 'BEGIN { printf "%.2f", n ? a / n : 0 }'; }
# within GOT WANT PERMILLE ABS: |got - want| <= want * permille / 1000 + abs
within() { awk -v g="$1" -v w="$2" -v p="$3" -v a="$4" \
	'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 1000 + a) }'; }
