# SPDX-License-Identifier: GPL-2.0
# The test consumer atview on one BSS through the medium, for the airtime
# view tests (40-airtime-view, 45-bss-load-view, 46-heard-view,
# 47-advertised-view) and their downloads (busy, below); sourced after
# testbed/lib/guest.sh.
#
# atview_bss PLAN WHAT N_STA MEDIUM_JQ [HOSTAPD_LINES...]: builds atview
# (a failed build fails the script), loads hwsim with an AP and N_STA
# stations 5 m from it on 802.11g channel 1, starts the medium with its
# configuration passed through jq MEDIUM_JQ ("." for as it is), loads
# atview and brings the BSS up (topo_bss: AP_IF, STA_IFS; the extra lines
# go to hostapd).  Anything missing skips all PLAN checks as "WHAT" and
# exits (skip_all).  Sets P, atview's parameter directory; a trap removes
# atview and cleans up at exit: it is a test-only consumer, never left to
# the next test.
atview_bss() {
	local plan=$1 n=$3 jqf=$4 i d=()
	ATVIEW_WHAT=$2
	shift 4
	trap 'rmmod atview 2>/dev/null; aq_cleanup_all' EXIT
	MOD=$(testmod_build "$AQ_TOP/mac80211-retry/tests/vm/atview" 2>"$AQ_TMP/atview-build.err") ||
		{ tap_fail "build the test consumer atview" "$(tail -n 2 "$AQ_TMP/atview-build.err")"; exit 1; }
	P=/sys/module/atview/parameters
	hwsim_load $((n + 1)) || skip_all "$plan" "mac80211_hwsim does not load"
	grep -q ieee80211_feedback_register /proc/kallsyms ||
		skip_all "$plan" "mac80211 is not patched (no ieee80211_feedback_register)"
	[ -x "$MEDIUM_BIN" ] || skip_all "$plan" "no medium ($MEDIUM_BIN)"
	for i in $(seq "$n"); do d+=(5); done
	medium_config_bss "$AQ_TMP/medium.json" g "$n" "${d[@]}"
	jq "$jqf" "$AQ_TMP/medium.json" >"$AQ_TMP/medium-atview.json" &&
		medium_start "$AQ_TMP/medium-atview.json" ||
		skip_all "$plan" "the medium does not start"
	rmmod atview 2>/dev/null	# left by an earlier test in this guest
	insmod "$MOD/atview.ko" || skip_all "$plan" "atview does not load"
	topo_bss "$n" 1 g "$@" >"$AQ_TMP/topo.log" 2>&1 ||
		{ tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"; skip_all "$plan" "BSS topology failed"; }
}

# skip_all N WHY: N skipped checks (as atview_bss's WHAT), and exit
skip_all() { for i in $(seq "$1"); do tap_skip "$ATVIEW_WHAT" "$2"; done; exit 0; }

# mac NS IFACE: the interface's MAC address
mac() { ip -n "$1" -o link show dev "$2" | sed -n 's|.*link/ether \([0-9a-f:]*\).*|\1|p'; }

# phase P: atview tags the views it logs from now on with P (0: untagged)
phase() { echo "$1" >"$P/phase"; }

# read -t on it: a sleep without a process
exec {nap}<> <(:)

# busy P [ADDR...]: 4 Mbit/s UDP downloads from srv (behind the AP) to
# each ADDR; after BUSY_SETTLE_S (default 1) s for the views to follow,
# the views of the next 2 s (6 or so slots) are logged as phase P, and the
# downloads last 1 s more.  Waits for its own downloads only (a plain wait
# would wait for the medium too).
busy() {
	local p=$1 a dl=() settle=${BUSY_SETTLE_S:-1}
	shift
	for a; do
		ip netns exec srv iperf3 -c "$a" -u -b 4M -l 1400 -t $((settle + 3)) \
			>/dev/null 2>&1 &
		dl+=($!)
	done
	read -r -t "$settle" -u "$nap"
	phase "$p"
	read -r -t 2 -u "$nap"
	phase 0
	[ ${#dl[@]} -eq 0 ] || wait "${dl[@]}"
}
