# SPDX-License-Identifier: GPL-2.0
# Helpers for tcp_airtime's VM tests (sourced, not run; not executable so
# the VM runner does not pick it up).

# tcp_airtime's state per connection is in /proc/net/tcp_airtime (ss shows
# none of it: no inet_diag attribute fits), one line per connection:
#   LOCAL REMOTE dir send|recv source S N n M m sta MAC rate kbit/s mss B
#   tau us share us theta B/s rtt_min us wnd_max segs cwnd segs rcv_cap B
# ss_air_sample OUT NS [FILTER...]: append one sample to OUT: a line
# "@sample", `ss -tin` of the established connections of netns NS ("-":
# this one) that match FILTER, and the lines of NS's /proc/net/tcp_airtime
# read before ss (prefixed "@air0 ") and after it ("@air "), in this netns
# with bash builtins only (an emulated guest spawns processes slowly).  The
# two reads bracket ss: a connection ss shows is in one of them even if it
# closed or only just started between the reads.  ss_air_join turns such a
# file into one line per connection and sample.
ss_air_sample() {
	local out=$1 ns=$2 l
	shift 2
	echo "@sample $EPOCHREALTIME" >>"$out"
	if [ "$ns" != - ]; then
		ip netns exec "$ns" cat /proc/net/tcp_airtime 2>/dev/null |
			while read -r l; do echo "@air0 $l"; done >>"$out"
		ip netns exec "$ns" ss -tin state established "$@" >>"$out" 2>/dev/null
		ip netns exec "$ns" cat /proc/net/tcp_airtime 2>/dev/null |
			while read -r l; do echo "@air $l"; done >>"$out"
		return 0
	fi
	if [ -r /proc/net/tcp_airtime ]; then
		while read -r l; do echo "@air0 $l"; done </proc/net/tcp_airtime >>"$out"
	fi
	ss -tin state established "$@" >>"$out" 2>/dev/null
	[ -r /proc/net/tcp_airtime ] || return 0
	while read -r l; do echo "@air $l"; done </proc/net/tcp_airtime >>"$out"
}

# ss_air_sample_at OUT NS AIR [FILTER...]: ss_air_sample's record, NS's
# /proc/net/tcp_airtime read from AIR, /proc/PID/net/tcp_airtime of a
# process in NS: one process (ss) a sample instead of three and two
# subshells (each costs ~0.2 s of host time in the TCG guest)
ss_air_sample_at() {
	local out=$1 ns=$2 air=$3 l
	shift 3
	{
		echo "@sample $EPOCHREALTIME"
		while read -r l; do echo "@air0 $l"; done <"$air"
		ip netns exec "$ns" ss -tin state established "$@"
		while read -r l; do echo "@air $l"; done <"$air"
	} >>"$out" 2>/dev/null
}

# ss_air_join FILE: each connection of each sample of FILE on one line, ss's
# two lines joined, followed by "airtime:(dir ... rcv_cap N)" from
# /proc/net/tcp_airtime for a connection that runs airtime (matched by its
# addresses and ports, from the read after ss) and "at:T", the sample's
# time ($EPOCHREALTIME).  A connection only the read before ss has (it
# closed meanwhile, or the read after ss skipped it) gets
# "airtime-before:(...)" instead, which the value checks (AIR_AWK's air())
# do not read: only the checks that every connection is listed count it,
# and air_any() for a check that only needs some recent value.  A
# connection with neither has no state in either read (not airtime, or
# ->init not run yet).  The read after ss can skip a live connection:
# /proc/net/tcp_airtime is read a page at a time and resumes by position,
# so a connection that leaves the list between two pages shifts the rest
# by one (seen once in 10-wifi-fairness on 2026-11-27; the cause is
# inferred from the seq_file code, not traced).
ss_air_join() {
	awk 'function flush(   i, k) {
		for (i = 1; i <= ns; i++) {
			k = key[i]
			print line[i] (k in A ? " airtime:(" A[k] ")" : \
				k in B ? " airtime-before:(" B[k] ")" : "") " at:" t
		}
		ns = 0; split("", A); split("", B)
	}
	/^@sample/ { flush(); t = $2; next }
	/^@air0 / { B[$2 " " $3] = substr($0, length($1 $2 $3) + 4); next }
	/^@air / { A[$2 " " $3] = substr($0, length($1 $2 $3) + 4); next }
	/^(Recv-Q|State|Netid)/ { next }
	/^[^ \t]/ { ns++; line[ns] = $0; key[ns] = ""
		for (i = 1; i <= NF; i++)
			if ($i ~ /:[0-9]+$/) key[ns] = key[ns] == "" ? $i : key[ns] " " $i
		next }
	ns { line[ns] = line[ns] " " $0 }
	END { flush() }' "$1"
}

# AIR_AWK: awk code for the scripts below, air(KEY) is the value after KEY
# inside the line's airtime:(...), "" if there is none
AIR_AWK='function air(k,   s, i, n, f) {
	s = $0; i = index(s, "airtime:("); if (!i) return ""
	s = substr(s, i + 9); sub(/\).*/, "", s); n = split(s, f, " ")
	for (i = 1; i < n; i++) if (f[i] == k) return f[i + 1]
	return ""
}
function air_any(k,   s, i, n, f) {
	if (index($0, "airtime:(")) return air(k)
	s = $0; i = index(s, "airtime-before:("); if (!i) return ""
	s = substr(s, i + 16); sub(/\).*/, "", s); n = split(s, f, " ")
	for (i = 1; i < n; i++) if (f[i] == k) return f[i + 1]
	return ""
}'

# cap_check JOINED: "samples violations" over the lines of JOINED (from
# ss_air_join) that show a cap (airtime:(...) with wnd_max above 0): a
# violation is a cwnd above wnd_max, or a wnd_max other than
# max(2, floor(theta * rtt_min / 1e6 / mss)) (+-1: the values are read
# without the socket lock).  The first violation is described on stderr.
cap_check() {
	awk "$AIR_AWK"'
	air("wnd_max") > 0 {
		c = air("cwnd"); w = air("wnd_max"); m = air("mss")
		x = int(air("theta") * air("rtt_min") / 1e6 / m); if (x < 2) x = 2
		n++
		if (c + 0 > w + 0 || x - w > 1 || w - x > 1) {
			bad++
			if (bad == 1) print "first: cwnd " c " wnd_max " w " (theta * rtt_min / mss: " x ")" > "/dev/stderr"
		}
	} END { printf "%d %d\n", n, bad + 0 }' "$1"
}

# theta_range JOINED [PORT [DIR]]: "min max" of theta in Mbit/s over the
# lines of JOINED with a cap (of the connections with local or remote port
# PORT, in the samples where tcp_airtime saw them as DIR, send or recv)
theta_range() {
	awk -v p="${2:-}" -v d="${3:-}" "$AIR_AWK"'
	air("theta") > 0 && (p == "" || $0 ~ ":" p " ") && (d == "" || air("dir") == d) {
		v = air("theta") * 8 / 1e6; if (n == 0 || v < lo) lo = v; if (v > hi) hi = v; n++
	} END { if (n) printf "%.2f %.2f\n", lo, hi; else print "- -" }' "$1"
}

# iperf3_ports JSON: the local ports of the data connections of an iperf3
# client's run, one a line
iperf3_ports() {
	jq -r '.start.connected[]?.local_port' "$1" 2>/dev/null
}

# air_get LPORT KEY: KEY's value on the line of /proc/net/tcp_airtime of
# the connection with local port LPORT (bash builtins only); status 1 and
# nothing if there is none
air_get() {
	local l f i
	[ -r /proc/net/tcp_airtime ] || return 1
	while read -r l; do
		read -ra f <<<"$l"
		[[ ${f[0]} == *:"$1" ]] || continue
		for ((i = 2; i + 1 < ${#f[@]}; i += 2)); do
			[ "${f[i]}" = "$2" ] && { echo "${f[i + 1]}"; return 0; }
		done
	done </proc/net/tcp_airtime
	return 1
}

# airtime_unload: unload tcp_airtime (up to 10 s).  Connections an earlier
# script left closing (an orphan retransmitting its FIN toward a deleted
# veth, for a minute or two) hold the module: they are aborted (ss -K).
# Without this, a later "modprobe tcp_airtime" would keep the old instance,
# bound to no feedback.
airtime_unload() {
	local i
	for i in {1..50}; do
		lsmod | grep -q '^tcp_airtime ' || return 0
		modprobe -r tcp_airtime 2>/dev/null && return 0
		ss -K -t state fin-wait-1 state fin-wait-2 state closing \
			state last-ack state close-wait >/dev/null 2>&1
		read -r -t 0.2 -u "$at_nap"
	done
	echo "# tcp_airtime stays loaded: refcnt $(cat /sys/module/tcp_airtime/refcnt 2>/dev/null)"
	return 1
}

# fakefb_setup: the veth pair of the fake feedback tests (aqv0 here,
# 10.7.0.1, vb in netns b, 10.7.0.2, 20 ms each way), an iperf3 server in
# b; sets PEER and OWN (the MAC addresses of vb and aqv0) and FAKEFB_KO (the
# test module, built on the host or here).  Prints the TAP plan first; a
# missing prerequisite ends the script (a SKIP, or one failure).
fakefb_setup() {
	local src="$AQ_TOP/tcp_cong_airtime/tests/vm/fakefb" bld
	if lsmod | grep -q '^mac80211 '; then
		echo "1..0 # SKIP mac80211 is loaded: the fake feedback would clash with it"
		exit 0
	fi
	modprobe -r mac80211_hwsim mac80211 2>/dev/null
	if ! bld=$(testmod_build "$src" 2>"$AQ_TMP/fakefb-build.log"); then
		echo "1..1"
		echo "not ok 1 - build the test-only module airtime_fakefb"
		echo "# $(tail -n 3 "$AQ_TMP/fakefb-build.log" 2>/dev/null | tr '\n' ' ')"
		exit 1
	fi
	FAKEFB_KO="$bld/airtime_fakefb.ko"
	tap_plan "$1"
	rmmod airtime_fakefb 2>/dev/null
	airtime_unload
	netns_new b || exit 1
	ip link add aqv0 type veth peer name vb netns b || exit 1
	ip addr add 10.7.0.1/24 dev aqv0 && ip link set aqv0 up
	ip -n b addr add 10.7.0.2/24 dev vb && ip -n b link set vb up
	tc qdisc replace dev aqv0 root netem delay 20ms rate 50mbit limit 1000
	netem b vb delay 20ms
	PEER=$(ip -n b -br link show vb | awk '{print $3}')
	OWN=$(ip -br link show aqv0 | awk '{print $3}')
	ping -c 2 -W 2 10.7.0.2 >/dev/null
	iperf3_server b >/dev/null
}

# kernel_log_clean: ok if the kernel log has no warning, BUG or Oops
kernel_log_clean() {
	if dmesg | grep -E -q 'BUG:|WARNING:|Oops|refcount_t|use-after'; then
		tap_fail "no kernel warning" "$(dmesg | grep -E 'BUG:|WARNING:|Oops|refcount_t' | head -n 2)"
	else
		tap_ok "no kernel warning"
	fi
}

# tap_ok_if COND DESC [DETAIL]: ok if COND is 1, else not ok with DETAIL
tap_ok_if() {
	if [ "$1" = 1 ]; then tap_ok "$2"; else tap_fail "$2" "${3:-}"; fi
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
# OUT.views, every SS_EVERY-th 100 ms `ss -tin` of them and
# /proc/net/tcp_airtime to OUT.ss (ss_air_sample), joined into OUT.air
# (ss_air_join) at the end.
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
				ss_air_sample "$out.ss" - dst "$dst" dport = :5201
			fi
			read -r -t 0.1 -u "$at_nap"
		done
		wait "$pid"
		grep -q "server is busy" "$out.json" || break
		tap_diag "${out##*/}: iperf3 server busy, try $try"
		read -r -t 1 -u "$at_nap"
	done
	ss_air_join "$out.ss" >"$out.air"
	[ -n "$(iperf3_mbps "$out.json")" ] ||
		tap_diag "${out##*/}: iperf3 gave no result: $(jq -r '.error // empty' "$out.json" 2>/dev/null | head -c 300)"
}
