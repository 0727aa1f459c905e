#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aq-vm-clock: virtual
# aq-vm-cost: 100  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
# (service times are the medium's airtime: they must be guest time)
#
# sch_ebdp end to end on Wi-Fi: mac80211_hwsim through the testbed's medium
# (802.11g, airtime-bound), the patched mac80211 (per-frame tx feedback and
# netdev backpressure), an AP and one station 5 m away, a wired server
# behind the AP.  `tc qdisc add dev $AP_IF root ebdp` (defaults: Tmax
# 200 ms, c 5, Qmax 400, W 1/64) on the AP, a TCP download srv -> sta1 and
# a 10 Hz ping srv -> sta1 through the same queue.  The BSS offers 6, 9
# and 12 Mbit/s only, so that Tmax / Tserv (~150 packets) stays below Qmax
# and the limit is not simply the cap.  Asserts, over a 5 s window after
# a 3 s warm-up:
#   - the Tserv source is mac80211 (bound, samples from MAC feedback, no
#     dequeue-spacing samples during the window);
#   - backpressure keeps the queue in ebdp: ebdp holds a backlog in at
#     least 90% of the 1 s samples while mac80211's count (debugfs
#     backpressure/stats) never exceeds the depth;
#   - Tserv matches the medium: the mean of Tserv over the window is within
#     10% of the per-frame service time of the AP's queue seen on the air,
#     the window length divided by the AP's BE frames completed (the queue
#     is never empty, so one frame completes every service time, airtime
#     plus DIFS, backoff, MAC ACK and the station's TCP ACKs in between).
#     Not mac80211's service_us: that is the sojourn behind the up to
#     depth frames mac80211 holds (Documentation/networking/sch_ebdp.rst);
#   - Q: the median limit is within 10% of min(Tmax / T_air + c, Qmax), with
#     T_air that medium-derived service time;
#   - the one-way delay server -> station of a 10 Hz UDP probe through the
#     same queue (both ends read the guest's CLOCK_MONOTONIC): p95 <=
#     1.1 x (Tmax + (c + depth) x T_air) + its idle delay.  A probe finds at
#     most the limit Tmax / Tserv + c packets ahead of it in ebdp and at
#     most depth frames below (mac80211 and the radio hold those under
#     backpressure, outside what eBDP sizes), each one service time; 10%
#     for the service time of those frames differing from the window's
#     mean (the limit follows an EWMA).  One way, not the ping's RTT: the
#     reply's wait behind the station's own TCP ACKs on the air is not
#     eBDP's queue (CI once saw the RTT's p95 6 ms over a bound without
#     that term);
#   - with GSO and GRO on (Linux's defaults), the super-packets that reach
#     the root are queued as the MAC frames they become: ebdp split some,
#     and what it sent averages at most one frame (1514 bytes) a packet;
#   - packet conservation at the qdisc (clsact matchall counter, which
#     counts a GSO packet as its segments, = ebdp sent + dropped +
#     backlog; both read with the traffic stopped, until two reads agree:
#     root_counts), drops by cause add up, and the AP's BE frames on the
#     air account for what ebdp sent;
#   - diag only: the same download and ping with the default root qdisc
#     (noqueue: mac80211's fq_codel TXQs; hwsim enables no AQL).
set -u
AQ_TOP=${AQ_TOP:-/work/main}
AQ_BUILD=${AQ_BUILD:-$AQ_TOP/build}
. "$AQ_TOP/testbed/lib/guest.sh"
export TC_LIB_DIR="$AQ_BUILD/sch_ebdp/tc"

N=14
tap_plan $N
# guest seconds since boot, for the budget
at() { tap_diag "at $(cut -d' ' -f1 /proc/uptime) s: $*"; }
at start
trap 'medium_stop >/dev/null 2>&1; aq_cleanup_all' EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

TMAX_US=200000
C=5
QMAX=400
WARM=3		# s of download before measuring
WIN=5		# s measured
BASE=3		# s of the noqueue comparison
out=$AQ_TMP/ebdp-e2e
rm -rf "$out"
mkdir -p "$out"

skip_rest() { # WHY
	local i
	for i in $(seq $((N - _tap_n))); do tap_skip "sch_ebdp on Wi-Fi" "$1"; done
	exit 0
}
for t in hostapd wpa_supplicant iperf3 jq ping python3 ethtool; do
	command -v $t >/dev/null || skip_rest "$t not installed"
done
[ -x "$MEDIUM_BIN" ] || skip_rest "$MEDIUM_BIN not built (make -C testbed/medium)"
[ -f "$TC_LIB_DIR/q_ebdp.so" ] || skip_rest "q_ebdp.so not built"
modprobe sch_ebdp || skip_rest "modprobe sch_ebdp failed"
hwsim_load 2 || skip_rest "mac80211_hwsim does not load"
phys=($(hwsim_phys))
BP=/sys/kernel/debug/ieee80211/${phys[0]}/backpressure
[ -d "$BP" ] || skip_rest "mac80211 is not patched (no $BP)"
medium_config_bss "$out/medium.json" g 1 5
medium_start "$out/medium.json" || skip_rest "the medium does not start"
topo_bss 1 1 g "supported_rates=60 90 120" "basic_rates=60 120" \
	>"$out/topo.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$out/topo.log")"; skip_rest "AP/STA topology failed"; }
at "topology up"
DEPTH=$(cat "$BP/depth")
STA=10.0.0.2

AP() { ip netns exec ap "$@"; }
SRV() { ip netns exec srv "$@"; }
# GSO and GRO as Linux sets them: the server's TCP sends GSO packets and
# the AP's GRO merges what it forwards, so ebdp's root sees super-packets
# of several segments and must queue them as MAC frames (it splits them).
SRV ethtool -k eth0 | grep -q '^generic-segmentation-offload: on' ||
	tap_diag "the server's GSO is off: the split is not exercised"

# rtt_stats FILE -> "count p50 p95" of the ping RTTs (ms)
rtt_stats() {
	grep -o 'time=[0-9.]*' "$1" | cut -d= -f2 | sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 0) { print "0 -1 -1"; exit }
			i = int(NR * 0.5 + 0.5); k = int(NR * 0.95 + 0.5)
			if (i < 1) i = 1
			if (k < 1) k = 1
			print NR, v[i], v[k] }'
}
# owd_recv PORT OUT SECONDS (in the receiver's netns, background): one
# line "seq delay_ms" per probe; owd_send DST PORT COUNT INTERVAL_S.  The
# probes carry the sender's CLOCK_MONOTONIC, which every netns shares.
owd_recv() {
	python3 -c 'import socket, struct, sys, time
port, out, secs = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("", port))
s.settimeout(0.2)
end = time.monotonic() + secs
with open(out, "w") as f:
    while time.monotonic() < end:
        try:
            d = s.recv(64)
        except socket.timeout:
            continue
        now = time.monotonic_ns()
        seq, t = struct.unpack("!QQ", d[:16])
        f.write("%d %.3f\n" % (seq, (now - t) / 1e6))
        f.flush()' "$@"
}
owd_send() {
	python3 -c 'import socket, struct, sys, time
dst, port, n, iv = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(n):
    s.sendto(struct.pack("!QQ", i, time.monotonic_ns()) + bytes(40), (dst, port))
    time.sleep(iv)' "$@"
}
# owd_stats FILE -> "count p50 p95" of the one-way delays (ms)
owd_stats() {
	awk '{ print $2 }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR == 0) { print "0 -1 -1"; exit }
			i = int(NR * 0.5 + 0.5); k = int(NR * 0.95 + 0.5)
			if (i < 1) i = 1
			if (k < 1) k = 1
			print NR, v[i], v[k] }'
}
OWD_PORT=5299
# medium_be FILE -> "frames_done airtime_us successes sojourn_sum_us" of the AP's BE
medium_be() {
	jq -r '.radios[] | select(.name == "ap") | .ac.BE |
		"\(.successes + .discards) \(.airtime_us) \(.successes) \(.mean_delay_us * (.successes + .discards))"' "$1"
}
bp_stat() { awk -v i="$AP_IF" -v c="$1" '$1 == i { print $c }' "$BP/stats"; }
dmesg_clean() {
	! dmesg | grep -qE 'WARNING:|BUG:|Oops|general protection|refcount_t|list_(add|del) corruption'
}
ebdp_json() { AP tc -s -j qdisc show dev "$AP_IF" | jq -c '.[] | select(.kind == "ebdp")'; }

# The idle RTT, before any qdisc or load.
SRV ping -c 10 -i 0.2 -W 2 $STA >"$out/ping-idle.txt" 2>&1
read -r n_idle rtt_idle _ < <(rtt_stats "$out/ping-idle.txt")
ip netns exec sta1 bash -c "$(declare -f owd_recv); owd_recv $OWD_PORT $out/owd-idle.txt 4" &
orp=$!
sleep 0.5
SRV bash -c "$(declare -f owd_send); owd_send $STA $OWD_PORT 10 0.2"
wait $orp
read -r n_oidle owd_idle _ < <(owd_stats "$out/owd-idle.txt")

# --- the default: no root qdisc (mac80211 fq_codel, no AQL on hwsim) -----
iperf3_server sta1 >/dev/null 2>&1
SRV iperf3 -c $STA -t $((BASE + 2)) -J >"$out/iperf3-default.json" 2>&1 &
ip=$!
sleep 2
SRV ping -i 0.1 -c $((BASE * 10)) -W 2 $STA >"$out/ping-default.txt" 2>&1
wait $ip
read -r n_def p50_def p95_def < <(rtt_stats "$out/ping-default.txt")
mb_def=$(iperf3_mbps "$out/iperf3-default.json")

at "default root measured"
# --- ebdp ----------------------------------------------------------------
setup() {
	AP tc qdisc add dev "$AP_IF" clsact &&
	AP tc filter add dev "$AP_IF" egress matchall action pass &&
	AP tc qdisc add dev "$AP_IF" root handle 1: ebdp
}
if setup 2>"$out/setup.err"; then
	tap_ok "802.11g AP + sta1 through the medium, root ebdp on $AP_IF (depth $DEPTH)"
else
	tap_fail "root ebdp on $AP_IF" "$(cat "$out/setup.err")"
	skip_rest "setup failed"
fi
# conservation's starting counts (the set-up's neighbour discovery can
# pass the filter between its read and the root's: read until steady)
c=$(root_counts ap "$AP_IF") || tap_diag "the counters did not settle at the start: $c"
read -r off0 s0 d0 _ <<<"$c"

# The download runs past the window and is stopped after it: the window
# (t0 .. t1, bracketing the medium's counters) is all under load.
# (iperf3 itself is the background job, not a function's subshell, so
# that SIGINT reaches it and it ends with its JSON report)
ip netns exec srv iperf3 -c $STA -t 60 -J >"$out/iperf3-ebdp.json" 2>&1 &
ip=$!
sleep $WARM
# The window's brackets: ebdp's counters, the time and the medium's
# statistics asked for right after them (at the end the other way round),
# so that ebdp's samples, the air's frames and the time cover one span.
q0=$(AP tc -s -j qdisc show dev "$AP_IF")
medium_snap_ask
t0=$MEDIUM_SNAP_T
medium_snap_wait "$out/medium-t0.json"
j0=$(jq -c '.[] | select(.kind == "ebdp")' <<<"$q0")
read -r f0 a0 ok0 soj0 < <(medium_be "$out/medium-t0.json")
SRV ping -i 0.1 -c $((WIN * 10)) -W 2 $STA >"$out/ping-ebdp.txt" 2>&1 &
pp=$!
ip netns exec sta1 bash -c "$(declare -f owd_recv); owd_recv $OWD_PORT $out/owd-ebdp.txt $((WIN + 2))" &
orp=$!
SRV bash -c "$(declare -f owd_send); owd_send $STA $OWD_PORT $((WIN * 10)) 0.1" &
osp=$!
for i in $(seq "$WIN"); do
	echo "$(ebdp_json) $(bp_stat 2) $(bp_stat 6)"
	sleep 1
done >"$out/samples.txt"
wait $pp $osp
medium_snap_ask
t1=$MEDIUM_SNAP_T
q1=$(AP tc -s -j qdisc show dev "$AP_IF")
medium_snap_wait "$out/medium-t1.json"
read -r f1 a1 ok1 soj1 < <(medium_be "$out/medium-t1.json")
j1=$(jq -c '.[] | select(.kind == "ebdp")' <<<"$q1")
kill -INT $ip 2>/dev/null
(sleep 5; kill -TERM $ip 2>/dev/null) &
kp=$!
wait $ip
kill $kp 2>/dev/null
wait $orp
mb_ebdp=$(iperf3_mbps "$out/iperf3-ebdp.json" sent)
at "ebdp measured (window $t0 .. $t1)"

# Per-sample fields: tserv_us limit qlen source bp_inflight
awk '{ j = $0; sub(/ [0-9]+ [0-9]+$/, "", j); n = split($0, f, " ");
       print f[n - 1], f[n] > "/dev/stderr"; print j }' "$out/samples.txt" \
	2>"$out/bp.txt" | jq -r '"\(.tserv / 1000) \(.limit) \(.qlen) \(.source)"' \
	>"$out/ebdp.txt"
paste -d' ' "$out/ebdp.txt" "$out/bp.txt" >"$out/table.txt"
read -r n_s tserv_mean q_med qlen_min qlen_mean n_bl inf_max < <(awk '
	{ n++; ts += $1; q[n] = $2; ql += $3; if (n == 1 || $3 < qm) qm = $3
	  if ($3 > 0) nb++
	  if ($6 > im) im = $6 }
	END { if (!n) { print "0 0 0 0 0 0 0"; exit }
	      for (i = 1; i <= n; i++) for (k = i + 1; k <= n; k++)
		if (q[k] < q[i]) { t = q[i]; q[i] = q[k]; q[k] = t }
	      printf "%d %.1f %d %d %.1f %d %d\n", n, ts / n, q[int((n + 1) / 2)],
		     qm, ql / n, nb, im }' "$out/table.txt")
read -r t_air air soj < <(awk -v t0="$t0" -v t1="$t1" -v f0="$f0" -v f1="$f1" \
	-v a0="$a0" -v a1="$a1" -v k0="$ok0" -v k1="$ok1" -v s0="$soj0" -v s1="$soj1" '
	BEGIN { if (f1 <= f0 || k1 <= k0) { print "0 0 0"; exit }
		printf "%.1f %.1f %.1f\n", (t1 - t0) * 1e6 / (f1 - f0),
		       (a1 - a0) / (k1 - k0), (s1 - s0) / (f1 - f0) }')
q_exp=$(awk -v t="$t_air" -v tm=$TMAX_US -v c=$C -v qm=$QMAX 'BEGIN {
	if (t <= 0) { print 0; exit }
	q = int(tm / t) + c; print (q > qm ? qm : q) }')
read -r n_e p50_e p95_e < <(rtt_stats "$out/ping-ebdp.txt")
read -r n_o p50_o p95_o < <(owd_stats "$out/owd-ebdp.txt")
# A probe finds at most Tmax / Tserv + c packets ahead in ebdp and the
# depth below it (mac80211 and the radio, outside what eBDP sizes), each
# one service time.
bound=$(awk -v a="$owd_idle" -v t="$t_air" -v d="$DEPTH" -v tm=$TMAX_US -v c=$C 'BEGIN {
	printf "%.1f\n", 1.1 * (tm + (c + d) * t) / 1000 + a }')

rtt_def=$(jq -r '.end.streams[0].sender.mean_rtt / 1000' "$out/iperf3-default.json" 2>/dev/null)
rtt_ebdp=$(jq -r '.end.streams[0].sender.mean_rtt / 1000' "$out/iperf3-ebdp.json" 2>/dev/null)
tap_diag "window $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s: ${n_s} samples" \
	"download ${mb_ebdp} Mbit/s, its mean RTT ${rtt_ebdp} ms with ebdp;" \
	"${mb_def} Mbit/s, ${rtt_def} ms with the default root (noqueue)" \
	"Tserv mean ${tserv_mean} us; medium: ${t_air} us per AP BE frame completed," \
	"of which ${air} us own airtime per success; mean sojourn in the radio queue ${soj} us" \
	"Q median ${q_med}, expected min(Tmax/${t_air} + ${C}, ${QMAX}) = ${q_exp}" \
	"ebdp backlog min ${qlen_min} mean ${qlen_mean}; mac80211 inflight max ${inf_max} (depth ${DEPTH})" \
	"ping RTT: idle median ${rtt_idle} ms; under load with ebdp p50 ${p50_e} p95 ${p95_e} ms (${n_e} replies);" \
	"one-way srv -> sta: idle median ${owd_idle} ms (${n_oidle} probes); with ebdp p50 ${p50_o} p95 ${p95_o} ms (${n_o} probes);" \
	"default root p50 ${p50_def} p95 ${p95_def} ms (${n_def} replies)"

# 2: the source
src=$(echo "$j1" | jq -r .source)
bound_=$(echo "$j1" | jq -r .mac80211)
dm=$(( $(echo "$j1" | jq .samples_mac80211) - $(echo "$j0" | jq .samples_mac80211) ))
dd=$(( $(echo "$j1" | jq .samples_dequeue) - $(echo "$j0" | jq .samples_dequeue) ))
ok [ "$src" = mac80211 -a "$bound_" = bound -a "$dm" -gt 0 -a "$dd" = 0 ] -- \
	"Tserv source mac80211 ($src, $bound_; samples in the window: mac80211 $dm, dequeue $dd)"
ok awk -v m="$dm" -v f="$((f1 - f0))" 'BEGIN { exit !(m >= 0.9 * f && m <= 1.1 * f) }' -- \
	"one MAC sample per AP BE frame acknowledged ($dm samples, $((f1 - f0)) frames)"
# 4-5: backpressure
ok [ "$n_s" -ge $((WIN - 1)) -a "$n_bl" -ge $((n_s * 9 / 10)) ] -- \
	"ebdp held a backlog in $n_bl of $n_s samples (>= 90%; mean $qlen_mean packets)"
tap_in_range "$inf_max" 1 "$DEPTH" "mac80211 held at most the depth (max inflight)"
# 6: Tserv against the air
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d
	exit !(b > 0 && d <= b * p / 100) }'; }
ok within "$tserv_mean" "$t_air" 10 -- \
	"Tserv ${tserv_mean} us within 10% of the air's ${t_air} us per frame"
# 7: Q
ok within "$q_med" "$q_exp" 10 -- "Q ${q_med} within 10% of min(Tmax/T_air + c, Qmax) = ${q_exp}"
# 8: delay
ok awk -v p="$p95_o" -v b="$bound" -v n="$n_o" -v i="$n_oidle" -v w=$WIN \
	'BEGIN { exit !(i >= 5 && n >= w * 10 - 10 && p > 0 && p <= b) }' -- \
	"one-way p95 ${p95_o} ms <= 1.1 (Tmax + (c + depth) T_air) + idle = ${bound} ms ($n_o probes)"

# 9-10: GSO packets are queued as the frames they become
gs=$(( $(echo "$j1" | jq '.gso_split // 0') - $(echo "$j0" | jq '.gso_split // 0') ))
ok [ "$gs" -gt 0 ] -- "GSO packets reached ebdp and were split into frames ($gs in the window)"
read -r wb wp < <(jq -rn --argjson a "$j0" --argjson b "$j1" '"\($b.bytes - $a.bytes) \($b.packets - $a.packets)"')
ok awk -v b="$wb" -v p="$wp" 'BEGIN { exit !(p > 0 && b / p <= 1514) }' -- \
	"every packet ebdp sent is one frame: $wb bytes in $wp packets (<= 1514 each)"

# 11-13: conservation, after the queue drained
sleep 1
c=$(root_counts ap "$AP_IF") || tap_diag "the counters did not settle at the end: $c"
read -r off1 s1 d1 bl <<<"$c"
j2=$(ebdp_json)
read -r d2 dl da dc < <(echo "$j2" | jq -r \
	'"\(.drops) \(.drops_limit) \(.drops_ackq) \(.drops_change)"')
medium_snap "$out/medium-t2.json"
read -r f2 _ < <(medium_be "$out/medium-t2.json")
offered_n=$((off1 - off0)); sent=$((s1 - s0)); dropped=$((d1 - d0))
tap_diag "offered $offered_n sent $sent dropped $dropped backlog $bl (limit $dl ackq $da change $dc)"
ok [ "$offered_n" -gt 0 -a "$offered_n" = $((sent + dropped + bl)) ] -- \
	"conservation: offered $offered_n = sent $sent + dropped $dropped + backlog $bl"
ok [ $((dl + da + dc)) = "$d2" ] -- "drops by cause add up ($dl + $da + $dc = $d2)"
# The AP's BE frames completed since the first sample: everything ebdp sent
# in that time went to the air (a few more: frames dequeued before t0).
df=$((f2 - f0))
ok awk -v f="$df" -v s="$sent" 'BEGIN { exit !(f > 0 && f <= s && f >= 0.5 * s) }' -- \
	"the air completed $df AP BE frames of the $sent ebdp sent"
ok dmesg_clean -- "no kernel warnings"
medium_snap "$out/medium-final.json"
mkdir -p "${AQ_RESULTS:-$AQ_TMP}/sch_ebdp-e2e" &&
	cp -r "$out"/. "${AQ_RESULTS:-$AQ_TMP}/sch_ebdp-e2e/"
tap_done
