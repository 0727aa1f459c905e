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

# proc_cwnd HEXADDR: the largest snd_cwnd of established sockets to
# HEXADDR (as /proc/net/tcp writes it: 0200070A:1451 is 10.7.0.2:5201), with
# bash builtins only (an emulated guest spawns processes slowly); nothing
# if there is none
proc_cwnd() {
	local sl l rem st f max=0
	while read -r sl l rem st f; do
		[ "$rem" = "$1" ] && [ "$st" = 01 ] || continue
		f=($f)
		[ "${f[11]}" -gt "$max" ] && max=${f[11]}
	done </proc/net/tcp
	[ "$max" -gt 0 ] && echo "$max"
}

exec {at_nap}<> <(:)	# read -t on it: a sleep without a process

# iperf3_sampled OUT DST SS_EVERY IPERF3-ARGS...: iperf3 -c DST -J from this
# netns into OUT.json (OUT.* emptied first); every 100 ms the largest cwnd of its connections
# appended to OUT.cwnd and the first line of tcp_airtime's views to
# OUT.views, every SS_EVERY-th 100 ms `ss -tin` of them to OUT.ss.
# An iperf3 server frees itself a moment after the previous test (longer in
# a slow guest): a client refused as busy is retried, up to 10 times a
# second apart (as iperf3_client does).  A test without a result says why
# in a diagnostic line.
iperf3_sampled() {
	local out=$1 dst=$2 every=$3 pid i=0 try hex v a b c d
	shift 3
	IFS=. read -r a b c d <<<"$dst"
	printf -v hex '%02X%02X%02X%02X:1451' "$d" "$c" "$b" "$a"
	for try in {1..10}; do
		: >"$out.cwnd"
		: >"$out.ss"
		: >"$out.views"
		iperf3 -c "$dst" -J "$@" >"$out.json" 2>&1 &
		pid=$!
		while kill -0 "$pid" 2>/dev/null; do
			proc_cwnd "$hex" >>"$out.cwnd"
			# the first line of tcp_airtime's views (its age), if loaded
			[ -r /sys/module/tcp_airtime/parameters/views ] &&
				read -r v </sys/module/tcp_airtime/parameters/views &&
				echo "$EPOCHREALTIME $v" >>"$out.views"
			if [ $((i++ % every)) = $((every / 2)) ]; then
				ss -tin state established dst "$dst" dport = :5201 >>"$out.ss" 2>/dev/null
			fi
			read -r -t 0.1 -u "$at_nap"
		done
		wait "$pid"
		grep -q "server is busy" "$out.json" || break
		tap_diag "${out##*/}: iperf3 server busy, try $try"
		read -r -t 1 -u "$at_nap"
	done
	[ -n "$(iperf3_mbps "$out.json")" ] ||
		tap_diag "${out##*/}: iperf3 gave no result: $(jq -r '.error // empty' "$out.json" 2>/dev/null | head -c 300)"
}
