#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_ebdp parses TCA_OPTIONS strictly: raw RTM_NEWQDISC messages that tc
# cannot build (netlink_strict.py, next to this script) on two dummy devices
# in a namespace: NLA_F_NESTED on a scalar, a u32 of 8 bytes and of 2, a u8
# of 4, unknown and zero-length attributes, TCA_OPTIONS without
# NLA_F_NESTED, each on change and on create, must be rejected with an
# extack message and the offending attribute's offset, the qdisc unchanged
# or not created; every attribute's range is the one documented, enforced
# by the policy (message, bounds in NLMSGERR_ATTR_POLICY); a valid message
# reads back identically from an RTM_GETQDISC dump; the longest extack
# message sch_ebdp formats itself arrives whole.  Then no "truncated
# extack" in the kernel log.
set -u
AQ_TOP=${AQ_TOP:-/work/main}
AQ_BUILD=${AQ_BUILD:-$AQ_TOP/build}
. "$AQ_TOP/testbed/lib/guest.sh"
here=$(cd "$(dirname "$0")" && pwd)
NS=ebdp-nl

skip_all() {
	tap_plan 1
	tap_skip "sch_ebdp strict netlink parsing" "$*"
	exit 0
}

[ "$(id -u)" = 0 ] || skip_all "needs root (run in the VM)"
py=
for p in /usr/bin/python3 python3; do
	command -v "$p" >/dev/null && { py=$p; break; }
done
[ -n "$py" ] || skip_all "no python3"
[ -f "$here/netlink_strict.py" ] || skip_all "netlink_strict.py missing"
modprobe sch_ebdp || skip_all "modprobe sch_ebdp failed"
modprobe dummy 2>/dev/null

ip netns del "$NS" 2>/dev/null
netns_new "$NS" || skip_all "cannot create namespace $NS"
for d in nl0 nl1; do
	ip -n "$NS" link add "$d" type dummy &&
		ip -n "$NS" link set "$d" up ||
		{ ip netns del "$NS"; skip_all "cannot add dummy device $d"; }
done

# net_warn_ratelimited() prints "truncated extack"; let every one through.
cost=$(sysctl -n net.core.message_cost)
sysctl -qw net.core.message_cost=0
trunc0=$(dmesg | grep -c 'truncated extack')

out=$AQ_TMP/ebdp-netlink-strict.txt
ip netns exec "$NS" "$py" "$here/netlink_strict.py" nl0 nl1 >"$out" \
	2>"$out.err"
rc=$?

sysctl -qw net.core.message_cost="$cost"
trunc=$(dmesg | grep 'truncated extack' | tail -n +"$((trunc0 + 1))")
ip netns del "$NS"
modprobe -r sch_ebdp 2>/dev/null

n=$(grep -cE '^(pass|fail)	' "$out")
tap_plan $((n + 2))
while IFS=$'\t' read -r st desc detail; do
	case "$st" in
	pass) tap_ok "$desc" ;;
	fail) tap_fail "$desc" "$detail" ;;
	esac
done <"$out"
if [ "$n" -gt 0 ] && { [ "$rc" = 0 ] || grep -q '^fail' "$out"; }; then
	tap_ok "netlink_strict.py ran to the end ($n checks, exit $rc)"
else
	tap_fail "netlink_strict.py ran to the end ($n checks, exit $rc)" \
		"$(tail -n 2 "$out.err" | tr '\n' ' ')"
fi
if [ -z "$trunc" ]; then
	tap_ok "no \"truncated extack\" in the kernel log"
else
	tap_fail "no \"truncated extack\" in the kernel log" \
		"$(echo "$trunc" | head -n 2 | tr '\n' ' ')"
fi
tap_done
exit 0
