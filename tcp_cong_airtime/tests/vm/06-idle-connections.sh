#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime: M_x, the number of connections of station x among which
# (6)-(9) split the station's airtime, counts only the connections that
# moved data in the slot.  An idle connection (iperf3's control connection
# while the test runs) takes no share.
#
# The fake feedback (tests/vm/fakefb/) gives an AP's view of the veth peer
# as a 6 Mbit/s station with t = 0, beside one at 150000 us: t_avail_x =
# 150000 us of a 307.2 ms slot (04-cap-fake-feedback.sh works it out).
# The uploads are paced at 400 kbit/s in 1448-byte writes, so each data
# connection uses about 25 ms of airtime per slot: satisfied (4), it gets
# exactly its equal share (9), tau_bar = 150000 / M_x (6), and
#   theta = tau_bar / T_TCP * 2 * 1448 B / T, T_TCP = 4780.5 us      (10)
#         = 295797 B/s with M_x = 1, 147898 B/s with M_x = 2
# (the model's Q16 arithmetic, as airtime_theta_bps() computes it).
#
#  - one data connection beside iperf3's idle control connection: M_x = 1;
#  - two data connections (-P 2) beside it: M_x = 2 for each.
# airtime is the namespace's default congestion control, so that iperf3's
# control connection runs it too (iperf3 -C sets only the data
# connections') and is one of the station's connections.  The first 2 s
# are left out: the control connection moves data at the start, and M_x
# is the larger of this slot's and the last slot's count.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

fakefb_setup 7
par=/sys/module/tcp_airtime/parameters
old_cc=$(sysctl -n net.ipv4.tcp_congestion_control)
trap 'sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"' EXIT

insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=2 period_ms=307 \
	addrs="$PEER,02:00:00:00:00:99" occ=0,150000 rate=6000,54000
ok modprobe tcp_airtime -- "tcp_airtime loads after the feedback provider"
for i in {1..50}; do
	grep -q "^view aqv0 .*source ap" $par/views && break
	sleep 0.1
done
sysctl -qw net.ipv4.tcp_congestion_control=airtime

# check NAME M THETA_LO THETA_HI: over the samples of the data connections
# of run NAME from 2 s after the first sample to 1 s before the last (the
# control connection moves data at the start and at the end): "samples ok
# first-other"
check() {
	local ports
	ports=$(iperf3_ports "$AQ_TMP/$1.json" | tr '\n' ' ')
	awk -v ports=" $ports" -v m="$2" -v lo="$3" -v hi="$4" "$AIR_AWK"'
	{ t = $NF; sub(/^at:/, "", t); t += 0 }
	NR == FNR { if (t0 == "") t0 = t; t1 = t; next }
	{
		p = $0; sub(/^[0-9. ]*[0-9.]+:/, "", p); p = substr(p, 1, index(p, " ") - 1)
		if (index(ports, " " p " ") == 0 || !air("theta") || t < t0 + 2 || t > t1 - 1) next
		n++
		if (air("M") == m && air("share") == 150000 / m &&
		    air("theta") >= lo && air("theta") <= hi) ok++
		else if (!bad++) first = "port " p ": M " air("M") " share " air("share") " theta " air("theta")
	} END { printf "%d %d %s\n", n, ok, first == "" ? "-" : first }' "$AQ_TMP/$1.air" "$AQ_TMP/$1.air"
}

iperf3_sampled "$AQ_TMP/one" 10.7.0.2 2 -b 400k -l 1448 -t 8
read -r n1 ok1 first1 < <(check one 1 295700 295900)
# the control connection: an airtime connection of the same station
dport=$(iperf3_ports "$AQ_TMP/one.json" | head -n 1)
n_ctl=$(grep -v ":${dport:-0} " "$AQ_TMP/one.air" | grep -c "airtime:(.* sta $PEER ")
tap_in_range "$n_ctl" 1 100000 "iperf3's control connection is an airtime connection of station $PEER"
tap_diag "one data connection: $ok1 of $n1 samples with M 1, share 150000, theta 295797; first other: $first1" \
	"$(grep -m 1 -o 'airtime:([^)]*)' "$AQ_TMP/one.air")"
tap_in_range "$n1" 3 100000 "samples of the data connection after 2 s"
tap_ok_if "$(( n1 > 0 && ok1 == n1 ))" \
	"beside an idle connection, M_x = 1: the whole station share, theta 295797 B/s" \
	"$ok1 of $n1 samples; first other: $first1"

iperf3_sampled "$AQ_TMP/two" 10.7.0.2 2 -b 400k -l 1448 -t 8 -P 2
read -r n2 ok2 first2 < <(check two 2 147800 148000)
tap_diag "two data connections: $ok2 of $n2 samples with M 2, share 75000, theta 147898; first other: $first2" \
	"$(iperf3_mbps "$AQ_TMP/two.json" received) Mbit/s (2 x 400 kbit/s paced)"
tap_in_range "$n2" 4 100000 "samples of the two data connections after 2 s"
tap_ok_if "$(( n2 > 0 && ok2 == n2 ))" \
	"two active connections, M_x = 2: half the share each, theta 147898 B/s" \
	"$ok2 of $n2 samples; first other: $first2"

sysctl -qw net.ipv4.tcp_congestion_control="$old_cc"
rmmod airtime_fakefb
airtime_unload
kernel_log_clean
ip link del aqv0 2>/dev/null
tap_done
