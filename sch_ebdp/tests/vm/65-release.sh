#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 45  (host seconds beside a results-suite guest, 2026-11-29: 78 s with the boot)
# (the turns, the holds and the shaped rates are guest time)
#
# TAP's release of ACKs (ebdp "release", ebdp_release.h), no Wi-Fi: a
# server (ns ebdp-a, veth va) and four stations, each a macvlan of the
# veth's peer in its own namespace (ebdp-s1..4), each uploading over TCP
# through its own tbf at 4 Mbit/s.  The server's pure ACKs to the four
# leave through ebdp ackprio release 1 quantum 50ms on va.  A packet
# socket on va (release_sniff.py) sees the ACKs in the order the qdisc
# released them.  Checked:
#   1. the rule: with one station's ACKs released at a time, the ACK
#      stream changes destination only when a turn begins, so its
#      destination switches are at most the turns begun meanwhile
#      (release_joins); turns do rotate (>= 10 in 3 s) and the set never
#      holds more than one station (sampled every 0.1 s);
#   2. no ACK waits longer than the three turns ahead of it plus 100 ms;
#   3. every station is served: Jain's index of the four uploads' bytes;
#   4. after the uploads end the watchdog releases every held ACK (the
#      qdisc empties within 1 s) and ebdp conserved packets (clsact
#      matchall counter: entered = sent + dropped + queued), no ACK dropped;
#   5. "release 0" under traffic sends the held ACKs at once (none held,
#      none dropped), and then the ACKs interleave again: at least 30 % of
#      them switch destination (so check 1 would see a broken rule);
#   6. with turns of 1 s no ACK is held much past EBDP_REL_HOLD_MAX_NS
#      (150 ms): the turns shorten to fit it and still rotate;
#   7. the qdisc deleted while it holds ACKs goes cleanly (they are freed:
#      the debug kernel's kmemleak scan would report a leak);
#   8. no WARN, BUG or Oops.
# Results go to $AQ_TMP/sch_ebdp-release/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

PLAN=13
N=4
tap_plan $PLAN
ebdp_require $PLAN iperf3 jq ethtool python3
modprobe macvlan 2>/dev/null

out="${AQ_TMP:-/tmp/aq}/sch_ebdp-release"
rm -rf "$out"
mkdir -p "$out"

S() { local i=$1; shift; ip netns exec "ebdp-s$i" "$@"; }

teardown() {
	local i
	for i in $(seq $N); do ip netns del "ebdp-s$i" 2>/dev/null; done
	path_down
}

setup() {
	local i mac
	path_up || return 1
	for i in $(seq $N); do
		ip netns del "ebdp-s$i" 2>/dev/null
		ip netns add "ebdp-s$i" || return 1
		B ip link add "mv$i" link vb type macvlan mode bridge || return 1
		B ip link set "mv$i" netns "ebdp-s$i" || return 1
		S "$i" sysctl -qw "net.ipv6.conf.mv$i.disable_ipv6=1"
		S "$i" ip addr add "10.77.0.1$i/24" dev "mv$i"
		S "$i" ip link set lo up
		S "$i" ip link set "mv$i" up || return 1
		S "$i" ethtool -K "mv$i" tso off gso off >/dev/null 2>&1
		S "$i" tc qdisc add dev "mv$i" root tbf rate 4mbit burst 3000 \
			latency 200ms || return 1
		mac=$(S "$i" cat "/sys/class/net/mv$i/address")
		A ip neigh replace "10.77.0.1$i" dev va nud permanent lladdr "$mac"
		S "$i" ip neigh replace 10.77.0.1 dev "mv$i" nud permanent \
			lladdr "$(A cat /sys/class/net/va/address)"
		S "$i" ping -c 1 -W 2 10.77.0.1 >/dev/null || return 1
	done
	A tc qdisc add dev va clsact &&
	A tc filter add dev va egress matchall action pass &&
	A tc qdisc add dev va root handle 1: ebdp ackprio release 1 quantum 50ms
}
if setup && A tc qdisc show dev va | grep -q "release 1 quantum 50ms"; then
	tap_ok "four stations behind a veth, ebdp ackprio release 1 quantum 50ms on the server's side"
else
	tap_notok "four stations behind a veth, ebdp ackprio release 1 quantum 50ms on the server's side"
	teardown
	tap_skip_rest $PLAN "setup failed"
fi

for i in $(seq $N); do
	A iperf3 -s -D -p "530$i" --pidfile "$out/srv$i.pid"
done
sleep 0.5

uploads() { # SECONDS TAG: the four uploads, in the background
	local i
	for i in $(seq $N); do
		ip netns exec "ebdp-s$i" iperf3 -c 10.77.0.1 -p "530$i" -t "$1" \
			-J >"$out/up$i-$2.json" 2>&1 &
	done
}
sniff() { # SECONDS -> key/value lines
	A python3 "$here/release_sniff.py" va "$1"
}
kv() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$2"; }

# Phase 1: release 1
uploads 7 rel
sleep 2
( while :; do ebdp_stat release_members; sleep 0.1; done ) >"$out/members.txt" 2>/dev/null &
smp=$!
j0=$(ebdp_stat release_joins)
sniff 3 >"$out/sniff-rel.txt"
j1=$(ebdp_stat release_joins)
kill $smp 2>/dev/null
wait $smp 2>/dev/null
wait	# the uploads
acks=$(kv acks "$out/sniff-rel.txt")
sw=$(kv switches "$out/sniff-rel.txt")
joins=$((j1 - j0))
maxm=$(sort -n "$out/members.txt" | tail -1)
echo "# release 1: $acks ACKs to $(kv dests "$out/sniff-rel.txt") stations, $sw switches, $joins turns begun; $(kv per_dest "$out/sniff-rel.txt")"
tap_check "release 1: the ACKs switch destination only when a turn begins ($sw switches <= $joins turns)" \
	[ "${acks:-0}" -gt 100 -a "${sw:-999999}" -le "$joins" ]
tap_check "release 1: turns rotate ($joins in 3 s >= 10) over every station ($(kv dests "$out/sniff-rel.txt") of $N)" \
	[ "$joins" -ge 10 -a "$(kv dests "$out/sniff-rel.txt")" = $N ]
tap_check "release 1: at most one station in the set ($(wc -l <"$out/members.txt") samples, max ${maxm:-none})" \
	[ -n "$maxm" -a "${maxm:-9}" -le 1 ]

hold=$(ebdp_stat hold_max)
tap_check "no ACK held longer than 3 turns + 100 ms ($((hold / 1000000)) ms <= 250)" \
	[ "${hold:-0}" -gt 0 -a "${hold:-999999999}" -le 250000000 ]

bytes=()
for i in $(seq $N); do
	bytes+=("$(jq -r '.end.sum_received.bytes // 0' "$out/up$i-rel.json" 2>/dev/null)")
done
jain=$(printf '%s\n' "${bytes[@]}" |
	awk '{ s += $1; q += $1 * $1; n++ } END { if (q > 0) printf "%.3f", s * s / (n * q); else print 0 }')
echo "# bytes received per upload: ${bytes[*]}"
tap_check "every station served: Jain's index of the uploads $jain >= 0.8" \
	awk -v j="$jain" 'BEGIN { exit !(j >= 0.8) }'

# the watchdog: nothing left behind once the ACKs stop coming
for t in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(ebdp_stat ack_held)" = 0 ] && [ "$(ebdp_stat qlen)" = 0 ] && break
	sleep 0.1
done
tap_check "after the uploads every held ACK left (held $(ebdp_stat ack_held), queued $(ebdp_stat qlen))" \
	[ "$(ebdp_stat ack_held)" = 0 -a "$(ebdp_stat qlen)" = 0 ]
tap_check "ebdp conserved packets (entered = sent + dropped + queued), no ACK dropped ($(ebdp_stat drops_ackq))" \
	ebdp_conserved [ "$(ebdp_stat drops_ackq)" = 0 ]

# Phase 2: release 0 under traffic
uploads 5 off
sleep 2
dc0=$(ebdp_stat drops_change)
held=$(ebdp_stat ack_held)
A tc qdisc change dev va root handle 1: ebdp release 0
held1=$(ebdp_stat ack_held)
dc1=$(ebdp_stat drops_change)
tap_check "release 0 under traffic sends the held ACKs at once ($held held before, $held1 after, $((dc1 - dc0)) dropped)" \
	[ "$held1" = 0 -a "$dc1" = "$dc0" ]
sniff 2 >"$out/sniff-off.txt"
wait
acks0=$(kv acks "$out/sniff-off.txt")
sw0=$(kv switches "$out/sniff-off.txt")
echo "# release 0: $acks0 ACKs, $sw0 switches; $(kv per_dest "$out/sniff-off.txt")"
tap_check "release 0: the ACKs interleave again ($sw0 of $acks0 switch destination, >= 30 %)" \
	[ "${acks0:-0}" -gt 100 -a $((100 * ${sw0:-0})) -ge $((30 * ${acks0:-1})) ]

A tc -s qdisc show dev va >"$out/qdisc.txt"

# Turns of 1 s: the hold cap
A tc qdisc del dev va root
A tc qdisc add dev va root handle 1: ebdp ackprio release 1 quantum 1s
uploads 4 cap
sleep 1
j0=$(ebdp_stat release_joins)
sleep 2
j1=$(ebdp_stat release_joins)
hold=$(ebdp_stat hold_max)
tap_check "turns of 1 s: no ACK held past 150 ms + 20 ($((hold / 1000000)) ms), turns still rotate ($((j1 - j0)) in 2 s >= 10)" \
	[ "${hold:-0}" -gt 0 -a "${hold:-999999999}" -le 170000000 -a $((j1 - j0)) -ge 10 ]

# Deleted while holding ACKs
held=0
for t in $(seq 30); do
	held=$(ebdp_stat ack_held)
	[ "${held:-0}" -gt 0 ] && break
	sleep 0.1
done
A tc qdisc del dev va root
gone() { [ "${held:-0}" -gt 0 ] && ! A tc qdisc show dev va | grep -q ebdp; }
tap_check "deleted while holding $held ACKs: gone, the uploads go on without it" gone
wait
for i in $(seq $N); do kill "$(cat "$out/srv$i.pid" 2>/dev/null)" 2>/dev/null; done
teardown
tap_check "no WARN, BUG or Oops in the kernel log" dmesg_clean
