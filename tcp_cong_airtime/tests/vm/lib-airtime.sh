# SPDX-License-Identifier: GPL-2.0
# Helpers for tcp_airtime's VM tests (sourced, not run; not executable so
# the VM runner does not pick it up).

# cap_check SS_FILE: "samples violations" over the `ss -ti` lines of SS_FILE
# that show a cap (airtime's get_info, printed as bbr:(bw:...)): a violation
# is a cwnd above wnd_max = max(2, floor(bw / 8 * mrtt / mss)) of the same
# line.  The first violation is described on stderr.
cap_check() {
	awk '/bbr:\(bw:[0-9]+bps/ {
		match($0, / cwnd:[0-9]+/); c = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, / mss:[0-9]+/); m = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /bbr:\(bw:[0-9]+/); bw = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /mrtt:[0-9.]+/); rt = substr($0, RSTART + 5, RLENGTH - 5)
		w = int(bw / 8 * (rt + 0.001) / 1000 / m); if (w < 2) w = 2
		n++; if (c + 0 > w) { bad++; if (bad == 1) print "first: cwnd " c " > " w > "/dev/stderr" }
	} END { printf "%d %d\n", n, bad + 0 }' "$1"
}

# skip_rest WHY: every remaining test of the plan ($NT) skipped with the
# reason, exit 0.  fail_rest WHY: the set-up failed (one failure, the rest
# skipped), exit 1.  $AT_NAME names the skipped tests.
skip_rest() {
	while [ "$_tap_n" -lt "$NT" ]; do tap_skip "$AT_NAME test $((_tap_n + 1))" "$1"; done
	exit 0
}
fail_rest() {
	tap_fail "set-up" "$1"
	while [ "$_tap_n" -lt "$NT" ]; do tap_skip "$AT_NAME test $((_tap_n + 1))" "set-up failed"; done
	exit 1
}

# need_wifi_tools: skip the rest unless the medium and the user-space
# tools of a BSS experiment are there
need_wifi_tools() {
	[ -x "$MEDIUM_BIN" ] || skip_rest "$MEDIUM_BIN not built (make -C testbed/medium)"
	command -v hostapd >/dev/null && command -v iperf3 >/dev/null &&
		command -v jq >/dev/null || skip_rest "hostapd, iperf3 or jq missing"
}
