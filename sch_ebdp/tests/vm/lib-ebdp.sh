# SPDX-License-Identifier: GPL-2.0
# Helpers for sch_ebdp's VM tests (sourced, not run): TAP output and a
# two-namespace veth path  ns ebdp-a (va, 10.77.0.1) <-> ns ebdp-b (vb,
# 10.77.0.2), on which the tests put qdiscs on va.

: "${AQ_TOP:=/work/main}"
: "${AQ_BUILD:=$AQ_TOP/build}"
: "${AQ_RESULTS:=/tmp/aq}"
export TC_LIB_DIR="$AQ_BUILD/sch_ebdp/tc"
mkdir -p "$AQ_RESULTS"
. "$AQ_TOP/testbed/lib/stress.sh"

tap_n=0
tap_plan() { echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
tap_notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
tap_check() { # description, command...
	local d=$1
	shift
	if "$@"; then tap_ok "$d"; else tap_notok "$d"; fi
}
# Skip every remaining test of a plan of $1 with reason $2, then exit.
tap_skip_rest() {
	while [ "$tap_n" -lt "$1" ]; do tap_skip "prerequisite" "$2"; done
	exit 0
}

# ebdp_require PLAN TOOL...: root, the tools, the tc plugin and sch_ebdp
# loaded, or every check of the plan skipped with the reason
ebdp_require() {
	local plan=$1 t
	shift
	[ "$(id -u)" = 0 ] || tap_skip_rest "$plan" "needs root (run in the VM)"
	for t in "$@"; do
		command -v "$t" >/dev/null || tap_skip_rest "$plan" "$t not installed"
	done
	[ -f "$TC_LIB_DIR/q_ebdp.so" ] || tap_skip_rest "$plan" "q_ebdp.so not built"
	modprobe sch_ebdp || tap_skip_rest "$plan" "modprobe sch_ebdp failed"
}

A() { ip netns exec ebdp-a "$@"; }
B() { ip netns exec ebdp-b "$@"; }

path_up() {
	path_down
	ip netns add ebdp-a && ip netns add ebdp-b || return 1
	ip link add va netns ebdp-a type veth peer name vb netns ebdp-b || return 1
	A ip addr add 10.77.0.1/24 dev va
	B ip addr add 10.77.0.2/24 dev vb
	# no IPv6 autoconfiguration chatter in the counters the tests compare
	A sysctl -qw net.ipv6.conf.va.disable_ipv6=1
	B sysctl -qw net.ipv6.conf.vb.disable_ipv6=1
	A ip link set lo up
	B ip link set lo up
	A ip link set va up
	B ip link set vb up
	# one skb per packet through the qdisc: TCP must not build GSO skbs
	A ethtool -K va tso off gso off gro off >/dev/null 2>&1
	B ethtool -K vb tso off gso off gro off >/dev/null 2>&1
	# permanent neighbours: no ARP probe ever crosses the counters the
	# tests compare (B's probe of A's entry 5 s after the first packet
	# made A send one ARP reply while the tests were still attaching their
	# qdiscs and filters: one packet counted by one and not the other)
	A ip neigh replace 10.77.0.2 dev va nud permanent \
		lladdr "$(B cat /sys/class/net/vb/address)"
	B ip neigh replace 10.77.0.1 dev vb nud permanent \
		lladdr "$(A cat /sys/class/net/va/address)"
	A ping -c 1 -W 2 10.77.0.2 >/dev/null
}

path_down() {
	ip netns del ebdp-a 2>/dev/null
	ip netns del ebdp-b 2>/dev/null
	return 0
}

# ebdp_stat FIELD [DEV] [PARENT-HANDLE]: one field of tc -s -j for ebdp on va
ebdp_stat() {
	A tc -s -j qdisc show dev "${2:-va}" |
		jq -r "[.[] | select(.kind == \"ebdp\")][0].$1"
}

# Fail loudly if the kernel complained.
dmesg_clean() {
	! dmesg | grep -qE 'WARNING:|BUG:|Oops|general protection|refcount_t|list_(add|del) corruption'
}

# ebdp_conserved [CHECK]: packet conservation on va's root qdisc.  Reads
# entered (a matchall filter on clsact egress, which runs before the root),
# sent, dropped and backlog (the root's counters); true when entered > 0
# and entered = sent + dropped + backlog, and CHECK (a command, optional)
# holds after the read.  The filter and the qdisc are read by two tc runs,
# and a packet that left the filter but is not yet enqueued, or one the
# dequeue has taken off the queue but not yet counted as sent (the dump
# reads the counters without the qdisc lock), is in neither.  So a
# mismatch is read again, up to 3 times 1 s apart: a packet lost on the
# way stays lost, a packet in flight lands.  Sets reads to the reads made;
# each mismatch but the last is said in a TAP diagnostic.
ebdp_conserved() {
	reads=0
	while :; do
		reads=$((reads + 1))
		entered=$(A tc -s -j filter show dev va egress |
			jq '[.[] | .options.actions[]?.stats.packets // empty] | add // 0')
		read -r sent dropped backlog < <(A tc -s -j qdisc show dev va root |
			jq -r '.[0] | "\(.packets) \(.drops) \(.qlen)"')
		[ "$entered" -gt 0 ] && [ "$entered" = $((sent + dropped + backlog)) ] &&
			{ [ $# -eq 0 ] || "$@"; } && return 0
		[ $reads -ge 3 ] && return 1
		echo "# read $reads: entered $entered, sent $sent, dropped $dropped, queued $backlog; reading again"
		sleep 1
	done
}
