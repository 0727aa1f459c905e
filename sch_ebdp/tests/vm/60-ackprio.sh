#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 70  (host seconds with two guests side by side on 2 cores, 2026-11-26, plus the ACK flood of 2026-11-28: balances make check's guests)
# (the shaped rates and the delays compared must be guest time)
#
# ackprio, no Wi-Fi: on the veth path of lib-ebdp.sh, ns ebdp-a's egress is
# the bottleneck (tbf 4 Mbit/s -> ebdp, defaults otherwise), shared by a
# bulk upload a -> b (its data fill ebdp's data FIFO to ~Tmax) and a
# download b -> a (tbf 8 Mbit/s on b's egress, 10 ms of buffer so that
# its own queue adds little to its RTT), whose pure TCP ACKs leave
# through the same queue.  Three phases, the upload running throughout:
#   1. noackprio, a download over IPv4 and one over IPv6: no packet is
#      served from the ACK FIFO, and the downloads' ACKs wait behind the
#      upload's data;
#   2. ackprio, the IPv4 download alone, then
#   3. ackprio, the IPv6 download alone: in each, the ACK FIFO serves at
#      least as many packets as half the download's data segments (one ACK
#      per two segments, less what GRO merges: GRO is off), and the
#      download's mean RTT (its sender's, iperf3 mean_rtt) falls below a
#      quarter of the phase-1 value of the same family, while the upload
#      still fills the data FIFO (tail drops at Q).
#   4. ackprio under an ACK flood: the shaper at 200 kbit/s (about 380
#      ACKs a second), pure TCP ACKs sent faster than that from a raw
#      socket and UDP data beside them, counted over 2 s while both FIFOs
#      stay backlogged: the
#      data FIFO still gets one packet in every EBDP_ACK_BURST + 1 = 4
#      (strict priority starved it: the results suite saw a download stop
#      for 16 s at 802.11g with five uploads), and the ACKs still get
#      about three in four; and the data FIFO's limit is sized with its
#      own service time (data_tserv: Tserv times the frames sent per data
#      packet), not with Tserv.
# Results go to $AQ_RESULTS/sch_ebdp-ackprio/.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-ebdp.sh"

PLAN=14
tap_plan $PLAN
ebdp_require $PLAN iperf3 jq ethtool

out="${AQ_TMP:-/tmp/aq}/sch_ebdp-ackprio"
rm -rf "$out"
mkdir -p "$out"
T=4	# s per download

setup() {
	path_up &&
	A sysctl -qw net.ipv6.conf.va.disable_ipv6=0 &&
	B sysctl -qw net.ipv6.conf.vb.disable_ipv6=0 &&
	A ip -6 addr add fd77::1/64 dev va nodad &&
	B ip -6 addr add fd77::2/64 dev vb nodad &&
	A tc qdisc add dev va root handle 1: tbf rate 4mbit burst 3000 latency 1s &&
	A tc qdisc add dev va parent 1: handle 10: ebdp noackprio &&
	B tc qdisc add dev vb root tbf rate 8mbit burst 3000 latency 10ms &&
	A ping -6 -c 1 -W 2 fd77::2 >/dev/null
}
if setup; then
	tap_ok "veth path, tbf 4 Mbit/s -> ebdp on a, tbf 8 Mbit/s on b, IPv4 and IPv6"
else
	tap_notok "veth path, tbf 4 Mbit/s -> ebdp on a, tbf 8 Mbit/s on b, IPv4 and IPv6"
	path_down
	tap_skip_rest $PLAN "setup failed"
fi

B iperf3 -s -D -p 5201 --pidfile "$out/up.pid"		# upload sink
A iperf3 -s -D -p 5202 --pidfile "$out/down4.pid"	# download sinks
A iperf3 -s -D -p 5203 --pidfile "$out/down6.pid"
sleep 0.5
# iperf3 itself in the background (not A's subshell): SIGINT must reach it
ip netns exec ebdp-a iperf3 -c 10.77.0.2 -p 5201 -t 60 -J >"$out/upload.json" 2>&1 &
up=$!
sleep 3	# the upload fills the data FIFO

# mean_rtt (ms) and segments sent of a download's sender, from its JSON
rtt_ms() { jq -r '.end.streams[0].sender.mean_rtt / 1000' "$1" 2>/dev/null; }
segs() { # JSON -> data segments sent (bytes / MSS of the family)
	jq -r --argjson mss "$2" '(.end.sum_sent.bytes / $mss) | floor' "$1" 2>/dev/null
}
acks() { ebdp_stat ack_packets; }

# Phase 1: noackprio, both families at once
a0=$(acks)
B iperf3 -c 10.77.0.1 -p 5202 -t $T -J >"$out/down4-noack.json" 2>&1 &
p4=$!
B iperf3 -c fd77::1 -p 5203 -t $T -J >"$out/down6-noack.json" 2>&1 &
p6=$!
wait $p4 $p6
a1=$(acks)
r4n=$(rtt_ms "$out/down4-noack.json")
r6n=$(rtt_ms "$out/down6-noack.json")
tap_check "noackprio: no packet from the ACK FIFO ($((a1 - a0)))" [ "$a1" = "$a0" ]
tap_check "noackprio: the downloads' ACKs queue behind data (mean RTT IPv4 $r4n ms, IPv6 $r6n ms >= 50)" \
	awk -v a="$r4n" -v b="$r6n" 'BEGIN { exit !(a >= 50 && b >= 50) }'

A tc qdisc change dev va parent 1: handle 10: ebdp ackprio
dl0=$(ebdp_stat drops_limit)

# Phase 2 and 3: ackprio, one family at a time
phase() { # LABEL ADDR PORT MSS -> "acks segments rtt_ms"
	local b0 b1
	b0=$(acks)
	B iperf3 -c "$2" -p "$3" -t $T -J >"$out/$1.json" 2>&1
	b1=$(acks)
	echo "$((b1 - b0)) $(segs "$out/$1.json" "$4") $(rtt_ms "$out/$1.json")"
}
read -r k4 s4 r4 < <(phase down4-ack 10.77.0.1 5202 1448)
read -r k6 s6 r6 < <(phase down6-ack fd77::1 5203 1428)
dl1=$(ebdp_stat drops_limit)
kill -INT $up 2>/dev/null
(sleep 5; kill -TERM $up 2>/dev/null) &
kp=$!
wait $up
kill $kp 2>/dev/null
echo "# IPv4: $k4 ACKs from the ACK FIFO for $s4 segments; mean RTT $r4 ms (noackprio $r4n ms)"
echo "# IPv6: $k6 ACKs from the ACK FIFO for $s6 segments; mean RTT $r6 ms (noackprio $r6n ms)"
echo "# upload: $(jq -r '.end.sum_sent.bits_per_second / 1e6' "$out/upload.json" 2>/dev/null) Mbit/s sent;" \
     "tail drops at Q during the ackprio phases: $((dl1 - dl0))"

tap_check "ackprio, IPv4: $k4 pure ACKs served first >= segments/2 ($s4 / 2)" \
	[ "${s4:-0}" -gt 0 -a "$k4" -ge $((s4 / 2)) ]
tap_check "ackprio, IPv4: mean RTT $r4 ms < 1/4 of $r4n ms" \
	awk -v a="$r4" -v b="$r4n" 'BEGIN { exit !(a > 0 && a < b / 4) }'
tap_check "ackprio, IPv6: $k6 pure ACKs served first >= segments/2 ($s6 / 2)" \
	[ "${s6:-0}" -gt 0 -a "$k6" -ge $((s6 / 2)) ]
tap_check "ackprio, IPv6: mean RTT $r6 ms < 1/4 of $r6n ms" \
	awk -v a="$r6" -v b="$r6n" 'BEGIN { exit !(a > 0 && a < b / 4) }'
tap_check "ackprio: the upload still fills the data FIFO ($((dl1 - dl0)) tail drops)" \
	[ $((dl1 - dl0)) -gt 0 ]
tap_check "no ACK dropped from the ACK FIFO ($(ebdp_stat drops_ackq))" \
	[ "$(ebdp_stat drops_ackq)" = 0 ]

# Phase 4: more ACKs than the shaper can send, and data beside them
A tc qdisc change dev va root handle 1: tbf rate 200kbit burst 3000 latency 1s
ip netns exec ebdp-a iperf3 -c 10.77.0.2 -p 5201 -u -b 1M -t 6 -J >"$out/flood-udp.json" 2>&1 &
udp=$!
sleep 1	# the data FIFO fills
# pure ACKs (20-byte TCP header, ACK flag only) to b's discard port, about
# 2000 a second for 4 s; b drops them (no connection), the shaper does not
A python3 - >"$out/flood-acks.txt" 2>&1 <<'PY' &
import socket, struct, time
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP)
hdr = struct.pack("!HHIIBBHHH", 40000, 9, 1, 1, 5 << 4, 0x10, 1000, 0, 0)
sent, end = 0, time.time() + 4
while time.time() < end:
    try:
        s.sendto(hdr, ("10.77.0.2", 0))
        sent += 1
    except OSError:
        pass
    time.sleep(0.0005)
print("sent", sent)
PY
flood=$!
# count inside the flood, once both FIFOs are backlogged (the
# interpreter's start takes a while of guest time)
sleep 1.5
k0=$(acks)
n0=$(ebdp_stat packets)
sleep 2
k1=$(acks)
n1=$(ebdp_stat packets)
# the data FIFO's service time and the limit sized with it, in one dump
A tc -s -j qdisc show dev va | jq -c '[.[] | select(.kind == "ebdp")][0]' >"$out/flood-stats.json"
wait $flood
wait $udp
acks_out=$((k1 - k0))
data_out=$((n1 - n0 - acks_out))
echo "# ACK flood: $(cat "$out/flood-acks.txt"); dequeued $((n1 - n0)): $acks_out ACKs, $data_out data;" \
     "ACK FIFO drops $(ebdp_stat drops_ackq)"
# one data packet per EBDP_ACK_BURST (3) ACKs while both wait: a quarter
# of the dequeues, less a packet or two at the window's edges
tap_check "ACK flood: data still leaves ($data_out of $((n1 - n0)) dequeues >= 1/5)" \
	[ "$data_out" -gt 0 -a $((data_out * 5)) -ge $((n1 - n0)) ]
tap_check "ACK flood: ACKs keep their priority ($acks_out >= 2 x $data_out data)" \
	[ "$acks_out" -ge $((2 * data_out)) ]

# Under ackprio Tserv averages every frame, ACKs included, and the data
# FIFO drains one packet per Tserv * (1 + the ACKs served ahead of it):
# data_tserv.  Q is sized with it (Tmax 200 ms, c 5), else the data waits
# about four times Tmax here.  The frames-per-packet average moves by
# W = 1/64 per data packet, and only ~15 data packets leave a second at
# 200 kbit/s: it is past 1.5 well before the 3.5 s of flood, not yet 4.
ts=$(jq -r '.tserv' "$out/flood-stats.json")
dts=$(jq -r '.data_tserv // 0' "$out/flood-stats.json")
bl=$(jq -r '.bdp_limit' "$out/flood-stats.json")
echo "# ACK flood: tserv $ts ns, data_tserv $dts ns, ebdp_limit $bl"
tap_check "ACK flood: the data FIFO's service time counts the ACKs ahead ($dts ns >= 1.5 x $ts ns)" \
	[ "${dts:-0}" -gt 0 -a $((dts * 2)) -ge $((ts * 3)) ]
tap_check "ACK flood: Q = Tmax / data_tserv + c ($bl, +-2)" \
	awk -v q="$bl" -v d="$dts" 'BEGIN { e = int(200e6 / d) + 5; if (e > 400) e = 400
		exit !(d > 0 && q >= e - 2 && q <= e + 2) }'

A tc -s qdisc show dev va >"$out/qdisc-final.txt"
path_down
tap_check "no kernel warnings" dmesg_clean
mkdir -p "$AQ_RESULTS/sch_ebdp-ackprio" && cp -r "$out"/. "$AQ_RESULTS/sch_ebdp-ackprio/"
