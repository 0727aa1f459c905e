#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_airtime's configured slot, n beacon intervals of beacon_tu TU: a view
# is stale after two slots (the longer of the view's T and n * beacon_tu).
#
#  - n and beacon_tu are each in range (1-16, 10-1000) and together at most
#    4000 TU (4.096 s); a combination beyond that is refused with -EINVAL,
#    at load time and at run time, and the kernel log says why;
#  - with n = 4 and beacon_tu = 1000 (4.096 s) a view stays valid for
#    8.19 s, beyond the 4.29 s of 32-bit nanoseconds: the fake feedback
#    (tests/vm/fakefb/) pushes a view every 6 s, and a connection keeps its
#    cap at every age from 0.5 s (the connection takes up a new view on its
#    next ACK) to 8 s; once the views stop for 13 s, the view does go stale
#    (after 8.19 s, +0.25 s until the connection rechecks).
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
. "$AQ_TOP/tcp_cong_airtime/tests/vm/lib-airtime.sh"

fakefb_setup 8
par=/sys/module/tcp_airtime/parameters
cport=40124	# the data connection's local port (iperf3 --cport)
exec {nap}<> <(:)	# read -t on it: a sleep without a process

# --- parameters --------------------------------------------------------------
# the kernel log since a mark (never cleared: the test run's kernel log
# check must see all of it)
since() { dmesg | sed -n "/airqueue-test: 07-long-slot mark $1\$/,\$p"; }
echo "airqueue-test: 07-long-slot mark 1" >/dev/kmsg
if modprobe tcp_airtime n=16 beacon_tu=1000 2>/dev/null; then
	tap_fail "modprobe tcp_airtime n=16 beacon_tu=1000 (16.4 s) refused" "it loaded"
	modprobe -r tcp_airtime
else
	why=$(since 1 | grep -m 1 'tcp_airtime: beacon_tu=1000 refused')
	tap_ok_if "$([ -n "$why" ] && echo 1)" \
		"modprobe tcp_airtime n=16 beacon_tu=1000 (16.4 s) refused, the log says why" \
		"$(since 1 | tail -n 3 | tr '\n' ' ')"
	tap_diag "$why"
fi
modprobe tcp_airtime
echo "airqueue-test: 07-long-slot mark 2" >/dev/kmsg
echo 16 >$par/n
if echo 1000 >$par/beacon_tu 2>/dev/null; then
	tap_fail "beacon_tu=1000 with n=16 refused at run time" "accepted"
else
	why=$(since 2 | grep -m 1 'tcp_airtime: beacon_tu=1000 refused')
	tap_ok_if "$([ -n "$why" ] && [ "$(cat $par/beacon_tu)" = 100 ] && echo 1)" \
		"beacon_tu=1000 with n=16 refused at run time, unchanged, the log says why" \
		"beacon_tu $(cat $par/beacon_tu); $(dmesg | tail -n 2 | tr '\n' ' ')"
fi
good=0 bad=0
for kv in beacon_tu=250 n=3 beacon_tu=1000 n=5 n=4; do
	if echo "${kv#*=}" >"$par/${kv%%=*}" 2>/dev/null; then
		good=$((good + 1)); last=$kv
	else
		bad=$((bad + 1)); tap_diag "refused: $kv ($(dmesg | tail -n 1))"
	fi
done
tap_ok_if "$(( good == 4 && bad == 1 ))" \
	"slots up to 4000 TU accepted (16 x 250, 3 x 1000, 4 x 1000), 5 x 1000 refused" \
	"$good accepted, $bad refused"
tap_is "$(cat $par/n) $(cat $par/beacon_tu)" "4 1000" "n = 4, beacon_tu = 1000 in force"
modprobe -r tcp_airtime

# --- a 4.096 s slot ----------------------------------------------------------
insmod "$FAKEFB_KO" ifname=aqv0 source=0 n_active=2 period_ms=6000 \
	addrs="$PEER,02:00:00:00:00:99" occ=0,150000 rate=6000,54000
modprobe tcp_airtime n=4 beacon_tu=1000
iperf3 -c 10.7.0.2 -C airtime --cport "$cport" -t 60 >/dev/null 2>&1 &
flow=$!
# samples "age_ms source" every 0.25 s: 14 s at a view every 6 s, then
# 20 s more, in which the views stop for 13 s after the next one
: >"$AQ_TMP/long.samples"
k=0
while [ $k -lt 136 ]; do
	[ $k = 56 ] && echo 13000 >/sys/module/airtime_fakefb/parameters/period_ms
	v=
	read -r v <$par/views
	src=$(air_get $cport source)
	age=${v##* age_ms }	# the field after "age_ms" (more may follow it)
	age=${age%% *}
	[ -n "$v" ] && [ -n "$src" ] && echo "$age $src" >>"$AQ_TMP/long.samples"
	k=$((k + 1))
	read -r -t 0.25 -u "$nap"
done
kill -INT "$flow" 2>/dev/null
wait "$flow" 2>/dev/null
# from the first sample with a cap on (the first view arrives up to 6 s
# after the connection starts)
read -r n_all n_mid n_fresh_stale n_old n_old_stale < <(awk '
	$2 ~ /^mac80211-/ { on = 1 }
	!on { next }
	{ n++; if ($1 >= 4500 && $1 < 8000) mid++
	  if ($1 >= 500 && $1 < 8000 && $2 !~ /^mac80211-/) fs++
	  if ($1 >= 9000) { old++; if ($2 == "stale") os++ } }
	END { printf "%d %d %d %d %d\n", n, mid, fs, old, os }' "$AQ_TMP/long.samples")
tap_diag "$n_all samples; age 4.5-8 s: $n_mid; 0.5-8 s without a cap: $n_fresh_stale; above 9 s: $n_old, stale: $n_old_stale" \
	"without a cap: $(awk '$2 !~ /^mac80211-/ { printf "%s, ", $0 }' "$AQ_TMP/long.samples" | head -c 400)"
tap_in_range "$n_mid" 4 1000 "samples of views 4.5-8 s old (beyond 32-bit nanoseconds)"
tap_is "$n_fresh_stale" 0 "no connection loses its cap to a view 0.5-8 s old (two 4.096 s slots: 8.19 s)"
tap_ok_if "$(( n_old > 0 && n_old_stale == n_old ))" \
	"a view older than 9 s is stale: the connection has no cap" \
	"$n_old_stale of $n_old samples stale"
rmmod airtime_fakefb
modprobe -r tcp_airtime
kernel_log_clean
ip link del aqv0 2>/dev/null
tap_done
