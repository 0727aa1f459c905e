#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-setup apply/status/remove on a veth pair between two network
# namespaces (the wlan-independent part of TAP): pure TCP ACKs leaving the
# "AP" side get skb->priority 0x106 (802.1d 6 -> AC_VO in mac80211), data
# segments do not; remove restores tc and the hostapd config exactly;
# failures roll back. Needs root, act_skbedit, cls_u32, cls_basic, em_meta,
# act_gact. Prints TAP.

AQ_TOP=${AQ_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
TOOL="$AQ_TOP/scripts/tap-setup"
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1
NA=aqtap-a
NB=aqtap-b
WORK=$(mktemp -d /tmp/aqtap.XXXXXX)
export AQ_TAP_STATE_DIR="$WORK/state"

n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
skip_rest() {
	local i
	for i in $(seq $((n + 1)) "$PLAN"); do echo "ok $i - # SKIP $1"; done
	n=$PLAN
}
A() { ip netns exec "$NA" "$@"; }
B() { ip netns exec "$NB" "$@"; }

cleanup() {
	[ -n "${SRV:-}" ] && kill "$SRV" 2>/dev/null
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

PLAN=20
echo "1..$PLAN"

if [ "$(id -u)" -ne 0 ]; then skip_rest "needs root"; exit 0; fi
for m in veth sch_ingress cls_u32 act_skbedit cls_basic em_meta act_gact; do
	modprobe -q "$m" 2>/dev/null
done
if ! ip netns add "$NA" || ! ip netns add "$NB" ||
   ! ip link add va netns "$NA" type veth peer name vb netns "$NB"; then
	skip_rest "cannot create netns/veth"; exit 0
fi
A ip link set lo up; B ip link set lo up
A ip link set va up; B ip link set vb up
A ip addr add 10.77.0.1/24 dev va; B ip addr add 10.77.0.2/24 dev vb
A ip addr add fd77::1/64 dev va nodad; B ip addr add fd77::2/64 dev vb nodad

tcstate() { A tc qdisc show dev va; A tc filter show dev va egress 2>&1; }
BASE=$(tcstate)

# 1-3: bad input leaves everything as it was
out=$(A "$TOOL" apply nosuch0 2>&1); rc=$?
check "unknown interface: exit 1 with a clear message" \
	test "$rc" -eq 1 -a -n "$(echo "$out" | grep 'no interface')"
# an unprivileged user may not be able to read the checkout (a clone in a
# 0700 directory): run a world-readable copy of the tool
ucopy=$(mktemp -d)
cp -r "$AQ_TOP/scripts/tap-setup" "$AQ_TOP/scripts/airqueue_tap" "$ucopy/"
chmod -R a+rX "$ucopy"
out=$(A setpriv --reuid=65534 --regid=65534 --clear-groups "$ucopy/tap-setup" apply va 2>&1); rc=$?
rm -rf "$ucopy"
check "not root: exit 1, 'needs root'" \
	test "$rc" -eq 1 -a -n "$(echo "$out" | grep 'needs root')"
out=$(A "$TOOL" apply va --phy b --rate 54 2>&1); rc=$?
check "impossible PHY (802.11b at 54): exit 1, tc untouched" \
	test "$rc" -eq 1 -a "$(tcstate)" = "$BASE"

# 4: failure after the filters went in (state file cannot be written) rolls back
out=$(A "$TOOL" apply va --state-dir /sys/kernel 2>&1); rc=$?
if echo "$out" | grep -q 'Failed to load TC action'; then
	check "kernel without act_skbedit: apply fails, rolled back (tc as before)" \
		test "$rc" -eq 1 -a "$(tcstate)" = "$BASE"
	skip_rest "act_skbedit unavailable in this kernel"; exit 0
fi
check "failure mid-apply rolls back (rc=$rc, tc state as before)" \
	test "$rc" -eq 1 -a "$(tcstate)" = "$BASE"

# 5-6: apply with a hostapd config
printf 'interface=wlan0\nwmm_enabled=1\ntx_queue_data0_cwmin=3\n' >"$WORK/hostapd.conf"
cp "$WORK/hostapd.conf" "$WORK/hostapd.orig"
out=$(A "$TOOL" apply va --phy b --rate 11 --hostapd-conf "$WORK/hostapd.conf" 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check "apply: exit 0" test "$rc" -eq 0
check "apply: hostapd tx_queue_data0_cwmin=1 and a burst line written" \
	grep -q '^tx_queue_data0_cwmin=1$' "$WORK/hostapd.conf" -a \
	"$(grep -c '^tx_queue_data0_burst=' "$WORK/hostapd.conf")" = 1

out=$(A "$TOOL" status va); rc=$?
echo "$out" | sed 's/^/# /'
check "status: exit 0, 11 u32 keys per family" \
	test "$rc" -eq 0 -a "$(echo "$out" | grep -c ': 11 u32 keys')" = 2

# Observers after ours (ours end in 'continue'): count skbs by priority.
A tc filter add dev va egress prio 200 protocol all basic \
	match 'meta(priority eq 262)' action gact pass
A tc filter add dev va egress prio 201 protocol all basic \
	match 'meta(priority eq 0)' action gact pass

# packets counted by the actions of filter prio $1 on va egress (text
# output: iproute2 6.1's -j output for u32/basic filters is not valid JSON)
count() {
	A tc -s filter show dev va egress | "$PY" -c '
import sys
sys.path.insert(0, sys.argv[2])
from airqueue_tap.tcfilter import parse_filters
print(sum(f["packets"] for f in parse_filters(sys.stdin.read())
          if f["pref"] == int(sys.argv[1])))' "$1" "$AQ_TOP/scripts"
}
txpk() { A cat /sys/class/net/va/statistics/tx_packets; }

# B serves 4 MB on port 5001 (v4 and v6) and sinks uploads on 5002.
B "$PY" - >/dev/null 2>&1 <<'EOF' &
import socket, threading
def serve(fam, addr, port, send):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port)); s.listen(4)
    while True:
        c, _ = s.accept()
        if send:
            c.sendall(b"x" * (4 << 20))
        else:
            while c.recv(65536):
                pass
        c.close()
for a in (("10.77.0.2", socket.AF_INET), ("fd77::2", socket.AF_INET6)):
    for port, send in ((5001, True), (5002, False)):
        threading.Thread(target=serve, args=(a[1], a[0], port, send), daemon=True).start()
threading.Event().wait()
EOF
SRV=$!
sleep 1

client() {   # family addr port mode
	A "$PY" -c '
import socket, sys, time
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
for i in range(50):
    try:
        s = socket.create_connection((sys.argv[2], int(sys.argv[3])), 5); break
    except OSError:
        time.sleep(0.1)
if sys.argv[4] == "down":
    n = 0
    while True:
        b = s.recv(65536)
        if not b: break
        n += len(b)
    print(n)
else:
    s.sendall(b"y" * (4 << 20)); s.shutdown(socket.SHUT_WR); s.recv(1); print(4 << 20)
' "$@"
}

c4=$(count 16); c6=$(count 17); p262=$(count 200); p0=$(count 201); t0=$(txpk)
got=$(client 4 10.77.0.2 5001 down)
d4=$(($(count 16) - c4)); d262=$(($(count 200) - p262)); dt=$(($(txpk) - t0))
echo "# IPv4 download of $got B: pure ACKs matched $d4, priority-262 skbs $d262, va tx $dt"
check "IPv4 download: the AP side's pure ACKs matched (>= 20)" test "$d4" -ge 20
check "IPv4 download: every matched ACK leaves with skb->priority 0x106" \
	test "$d262" -eq "$d4"

c4=$(count 16); p262=$(count 200); p0=$(count 201); t0=$(txpk)
client 4 10.77.0.2 5002 up >/dev/null
u4=$(($(count 16) - c4)); u262=$(($(count 200) - p262))
u0=$(($(count 201) - p0)); dt=$(($(txpk) - t0))
echo "# IPv4 upload of 4 MiB: matched $u4, priority 262: $u262, priority 0: $u0, va tx $dt"
check "IPv4 upload: data skbs keep priority 0 (>= 10 seen)" test "$u0" -ge 10
check "IPv4 upload: only the few pure ACKs of the connection matched (<= 6)" \
	test "$u4" -le 6 -a "$u262" -eq "$u4"

c6=$(count 17); p262=$(count 200)
got=$(client 6 fd77::2 5001 down)
d6=$(($(count 17) - c6)); d262=$(($(count 200) - p262))
echo "# IPv6 download of $got B: pure ACKs matched $d6, priority-262 skbs $d262"
check "IPv6 download: pure ACKs matched (>= 20) and all got priority 0x106" \
	test "$d6" -ge 20 -a "$d262" -eq "$d6"

A tc -s filter show dev va egress >"$WORK/filters.txt"
[ -n "${AQ_RESULTS:-}" ] && cp "$WORK/filters.txt" "$AQ_RESULTS/tap-setup-filters.txt"
sed -n '1,12p' "$WORK/filters.txt" | sed 's/^/# /'
out=$(A "$TOOL" status va)
echo "$out" | sed 's/^/# /'
check "status counters show the matched ACKs" \
	test -n "$(echo "$out" | grep -E 'protocol ip: .* [1-9][0-9]* packets')"

# remove: observers first (they are ours, not tap-setup's)
A tc filter del dev va egress prio 200
A tc filter del dev va egress prio 201
out=$(A "$TOOL" remove va 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check "remove: exit 0" test "$rc" -eq 0
check "remove: tc qdisc/filter state identical to before apply" \
	test "$(tcstate)" = "$BASE"
check "remove: hostapd config restored byte for byte" \
	cmp -s "$WORK/hostapd.conf" "$WORK/hostapd.orig"
out=$(A "$TOOL" status va); rc=$?
check "status after remove: not applied (exit 3)" test "$rc" -eq 3

# --release: the root qdisc releasing n* - 1 stations' ACKs, and back
export TC_LIB_DIR=${TC_LIB_DIR:-${AQ_BUILD:-$AQ_TOP/build}/sch_ebdp/tc}
modprobe sch_ebdp 2>/dev/null
out=$(A "$TOOL" apply va --release auto 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
root=$(A tc qdisc show dev va root)
echo "# root: $root"
check "apply --release auto: exit 0, root ebdp ackprio releasing n* - 1 stations" \
	sh -c '[ "$1" -eq 0 ] && echo "$2" | grep -q "qdisc ebdp .*ackprio.* release [0-9]" &&
		echo "$3" | grep -q "root ebdp ackprio release"' _ "$rc" "$root" "$out"
out=$(A "$TOOL" status va)
check "status: the root ebdp added by tap-setup" \
	sh -c 'echo "$1" | grep -q "root ebdp releasing"' _ "$out"
out=$(A "$TOOL" remove va 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check "remove after --release: exit 0, tc state identical to before apply" \
	sh -c '[ "$1" -eq 0 ] && [ "$2" = "$3" ]' _ "$rc" "$(tcstate)" "$BASE"

[ "$n" -eq "$PLAN" ] || echo "# plan mismatch: ran $n of $PLAN"
exit 0
