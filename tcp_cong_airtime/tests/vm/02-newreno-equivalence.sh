#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 69  (host seconds with two guests side by side on 2 cores, 2026-11-26: balances make check's guests)
# (the netem bottleneck must run at its rate in guest time, however loaded the host)
#
# tcp_airtime without mac80211 feedback (a veth route has no airtime view)
# must behave as NewReno: same throughput and a comparable cwnd trajectory
# as "reno" through a netem bottleneck (4 Mbit/s, 40 ms RTT, netem limit 20
# packets of which ~7 sit in the delay line, about one BDP of queue: Reno's
# sawtooth with drops, at a rate an emulated guest sustains), and no cap
# in /proc/net/tcp_airtime.
# Runs alternate reno, airtime, reno, airtime to average out the noise of
# an emulated (TCG) guest.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

secs=15
modprobe tcp_airtime || { echo "1..0 # SKIP tcp_airtime not loadable"; exit 0; }
fb=$(cat /sys/module/tcp_airtime/parameters/feedback)

# sender in the initial netns (ss runs there directly), a router "r" whose
# egress toward the receiver "b" is the bottleneck (on the sender itself,
# TCP small queues would keep the netem queue from ever overflowing)
netns_new r && netns_new b || exit 1
ip link add aqv0 type veth peer name r0 netns r || exit 1
ip -n r link add r1 type veth peer name vb netns b || exit 1
ip addr add 10.7.0.1/24 dev aqv0 && ip link set aqv0 up
ip -n r addr add 10.7.0.254/24 dev r0 && ip -n r link set r0 up
ip -n r addr add 10.8.0.254/24 dev r1 && ip -n r link set r1 up
ip -n b addr add 10.8.0.2/24 dev vb && ip -n b link set vb up
ip route add 10.8.0.0/24 via 10.7.0.254
ip -n b route add default via 10.8.0.254
ip netns exec r sysctl -qw net.ipv4.ip_forward=1
# netem counts its limit in skbs: no GSO/GRO super-packets
ethtool -K aqv0 tso off gso off >/dev/null 2>&1
ip netns exec r ethtool -K r0 gro off >/dev/null 2>&1
ip netns exec r ethtool -K r1 tso off gso off >/dev/null 2>&1
netem r r1 delay 20ms rate 4mbit limit 20
netem r r0 delay 20ms
iperf3_server b >/dev/null
tap_plan 9

# run CC N: iperf3 for $secs s, cwnd sampled every 100 ms (the largest: the
# control connection stays at 10), ss once a second
run() {
	local cc=$1 out="$AQ_TMP/$1.$2"
	iperf3_sampled "$out" 10.8.0.2 10 -C "$cc" -t "$secs"
	cat "$out.cwnd" >>"$AQ_TMP/$1.cwnd"
	iperf3_mbps "$out.json" received >>"$AQ_TMP/$1.mbps"
	jq -r '.end.sum_sent.retransmits' "$out.json" >>"$AQ_TMP/$1.retr" 2>/dev/null
}

rm -f "$AQ_TMP"/{reno,airtime}.{cwnd,mbps,retr}
run reno 1
run airtime 1
run reno 2
run airtime 2

# "mean p95 n": the 95th percentile stands for the sawtooth's peaks; the
# maximum would be the one slow-start overshoot, which the 100 ms sampling
# phase decides (seen: identical runs on the virtual clock, max 28 vs 45).
stats() { # file -> "mean p95 n"
	sort -n "$1" | awk 'NF { v[++n] = $1; s += $1 } END {
		if (n) printf "%.1f %d %d", s / n, v[int(0.95 * (n - 1)) + 1], n
		else print "0 0 0" }'
}
sum() { awk '{ s += $1 } END { printf "%.2f", s }' "$1"; }
read -r r_mean r_max r_n < <(stats "$AQ_TMP/reno.cwnd")
read -r a_mean a_max a_n < <(stats "$AQ_TMP/airtime.cwnd")
r_mbps=$(awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n }' "$AQ_TMP/reno.mbps")
a_mbps=$(awk '{ s += $1; n++ } END { if (n) printf "%.2f", s / n }' "$AQ_TMP/airtime.mbps")
r_retr=$(sum "$AQ_TMP/reno.retr")
a_retr=$(sum "$AQ_TMP/airtime.retr")
tap_diag "feedback: $fb; 2 runs each of ${secs} s, 4 Mbit/s, 40 ms, netem limit 20" \
	"reno:    ${r_mbps} Mbit/s, cwnd mean ${r_mean} p95 ${r_max} (${r_n} samples), retransmits ${r_retr}" \
	"airtime: ${a_mbps} Mbit/s, cwnd mean ${a_mean} p95 ${a_max} (${a_n} samples), retransmits ${a_retr}"
mkdir -p "$AQ_RESULTS/tcp_airtime" 2>/dev/null &&
	cat "$AQ_TMP/reno.cwnd" >"$AQ_RESULTS/tcp_airtime/newreno-equiv-reno.cwnd" &&
	cat "$AQ_TMP/airtime.cwnd" >"$AQ_RESULTS/tcp_airtime/newreno-equiv-airtime.cwnd"

tap_in_range "$r_n" 30 100000 "cwnd samples taken (reno)"
tap_in_range "$a_n" 30 100000 "cwnd samples taken (airtime)"
tap_in_range "$a_mbps" 1.6 4.2 "airtime uses the 4 Mbit/s bottleneck (>= 40%)"
ratio=$(awk -v a="$a_mbps" -v r="$r_mbps" 'BEGIN { if (r > 0) printf "%.3f", a / r }')
tap_in_range "$ratio" 0.8 1.25 "throughput airtime/reno"
ratio=$(awk -v a="$a_mean" -v r="$r_mean" 'BEGIN { if (r > 0) printf "%.3f", a / r }')
tap_in_range "$ratio" 0.7 1.3 "mean cwnd airtime/reno"
ratio=$(awk -v a="$a_max" -v r="$r_max" 'BEGIN { if (r > 0) printf "%.3f", a / r }')
tap_in_range "$ratio" 0.7 1.3 "p95 cwnd airtime/reno (sawtooth peaks)"
tap_in_range "$a_retr" 1 100000 "airtime reacts to the bottleneck's drops (retransmits seen)"
tap_in_range "$r_retr" 1 100000 "reno sees drops too (the bottleneck works)"
# /proc/net/tcp_airtime lists the connections, none with a cap
read -r n_l n_cap < <(cat "$AQ_TMP"/airtime.*.air | awk "$AIR_AWK"'air("source") != "" {
	n++; if (air("theta") > 0 || air("wnd_max") > 0) c++ } END { printf "%d %d\n", n, c + 0 }')
tap_ok_if "$(( n_l >= 3 && n_cap == 0 ))" \
	"/proc/net/tcp_airtime lists the airtime connections, none with a cap, without feedback" \
	"$n_l samples listed, $n_cap with a cap: $(cat "$AQ_TMP"/airtime.*.air | grep -m1 -o 'airtime:([^)]*)')"
ip link del aqv0 2>/dev/null
ip netns del r 2>/dev/null
tap_done
