#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 118  (host seconds: 79 alone on 2026-11-28, plus a share for running beside another guest)
# aq-vm-timeout: 1200  (168 guest seconds measured alone)
#
# mac80211-retry: per-station retry limits set with nl80211
# (NL80211_CMD_SET_TID_CONFIG, Debian's iw: "set tidconf peer ADDR tids
# MASK sretry N lretry M"), seen from the air through the testbed's medium
# on a lossy 802.11n link (AP -> sta1), the phys' policy mode "off":
#
#  - the phy takes limits up to its largest rate table (44 tries on hwsim),
#    and nl80211 rejects what the phy does not take: a larger limit (EINVAL),
#    any other TID attribute and interface-wide (no peer) configuration
#    (EOPNOTSUPP), an unknown peer (ENOENT); nothing changes then;
#  - "tids 0x01 sretry 2 lretry 2": the AP's best-effort (TID 0) data
#    frames to sta1 get rate tables of at most 2 tries, use at most 2
#    attempts, and the limit binds (frames at 2 attempts; discards count in
#    discarded_limit); its video frames (TID 5, DSCP CS5) keep minstrel's
#    tables (more than 2 tries); the debugfs stations file shows the limit;
#  - "tids 0xff override" drops the limits: the policy, "off" again, counts
#    no frame and best-effort frames get minstrel's tables back.
set -u
AQ_TOP=${AQ_TOP:-/work/main}
. "$AQ_TOP/testbed/lib/guest.sh"

N=21
tap_plan $N
trap aq_cleanup_all EXIT
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# the link of 50-medium-limits.sh: retries at every rate
SNR=13
BER=5e-6

skip_rest() { # WHY
	local i
	for i in $(seq $((N - _tap_n))); do tap_skip "retry tidconf" "$1"; done
	exit 0
}
command -v hostapd >/dev/null && command -v iperf3 >/dev/null &&
	command -v jq >/dev/null || skip_rest "hostapd, iperf3 or jq missing"
[ -x "$MEDIUM_BIN" ] || skip_rest "$MEDIUM_BIN not built (make -C testbed/medium)"
hwsim_load 2 || skip_rest "mac80211_hwsim does not load"
phys=($(hwsim_phys))
R0=/sys/kernel/debug/ieee80211/${phys[0]}/retry
[ -d "$R0" ] || skip_rest "mac80211 is not patched (no $R0)"

. "$AQ_TOP/mac80211-retry/tests/vm/lib-medium.sh"
lossy_link_bss "$SNR" "$BER" >"$AQ_TMP/link.log" 2>&1 ||
	{ tap_diag "$(tail -n 5 "$AQ_TMP/link.log")"; skip_rest "$(tail -n 1 "$AQ_TMP/link.log")"; }
STA_MAC=$(ip netns exec sta1 cat /sys/class/net/"$STA_IF"/address)
iperf3_server sta1 >/dev/null 2>&1

# snap NAME: the medium's statistics (medium_snap: no python3 start) and
# the AP phy's policy counters
snap() {
	medium_snap "$AQ_TMP/$1.json"
	cat "$R0/stats" >"$AQ_TMP/$1.r0"
}
# ctr A B KEY: the AP phy's policy counter KEY between the snapshots
rget() { local k v; while read -r k v _; do [ "$k" = "$2" ] && echo "$v"; done <"$AQ_TMP/$1.r0"; }
ctr() { echo $(( $(rget "$2" "$3") - $(rget "$1" "$3") )); }
# hacs "A B tries|table AC"...: a line per argument, the AP's UDP frames of
# one access category, 16 buckets, delta between the snapshots (as
# lib-medium.sh's hist_ac, every histogram in one python3 start)
hacs() {
	python3 - "$AQ_TMP" "$@" <<'PY'
import json, sys
d, snaps = sys.argv[1], {}
def h(name, field, ac):
    if name not in snaps:
        snaps[name] = json.load(open(f"{d}/{name}.json"))
    r = next(x for x in snaps[name]["radios"] if x["name"] == "ap")
    return r["ac"][ac]["l4"]["udp"][field]
for q in sys.argv[2:]:
    a, b, field, ac = q.split()
    print(" ".join(str(y - x) for x, y in zip(h(a, field, ac), h(b, field, ac))))
PY
}
udp() { # NAME SECONDS [iperf3 args]: a UDP download AP -> sta1
	iperf3_client ap 10.0.0.2 -t "$2" -u -b 20M -l 1400 "${@:3}" \
		>"$AQ_TMP/iperf-$1.json" 2>/dev/null
}
mbps() { iperf3_mbps "$AQ_TMP/iperf-$1.json" received; }
tidconf() { ip netns exec ap iw dev "$AP_IF" set tidconf "$@" 2>"$AQ_TMP/iw.err"; }
# the station's tid_limits column (the last of its line)
tid_col() { awk -v m="$STA_MAC" '$1 == m {print $NF}' "$R0/stations"; }
# must fail with the error text MSG and change nothing
reject() { # MSG DESC ARGS...
	local msg=$1 desc=$2 before
	shift 2
	before=$(tid_col)
	if tidconf "$@"; then
		tap_fail "$desc rejected" "iw set tidconf $* succeeded"
	elif ! grep -q "$msg" "$AQ_TMP/iw.err"; then
		tap_fail "$desc rejected with \"$msg\"" "$(cat "$AQ_TMP/iw.err")"
	else
		tap_is "$(tid_col)" "$before" "$desc rejected ($msg), nothing changed"
	fi
}

# --- what the phy takes, what nl80211 refuses -------------------------------
# iw 5.19 does not print the wiphy's TID configuration support; its largest
# limit shows in what nl80211 accepts: hwsim's tables hold 4 x 11 tries
tap_is "$(tid_col)" "-" "no limit is set before any configuration"
ok tidconf peer "$STA_MAC" tids 0x01 sretry 44 -- "a limit of 44 tries (hwsim's largest table, 4 rates x 11) accepted"
tap_is "$(tid_col)" "44/-,-/-,-/-,-/-,-/-,-/-,-/-,-/-" "the stations file shows TID 0's short limit only"
ok tidconf peer "$STA_MAC" tids 0x01 override -- "the limit is cleared (tids 0x01 override)"
reject "Invalid argument" "a limit above the largest rate table (45)" \
	peer "$STA_MAC" tids 0xff sretry 45
reject "Operation not supported" "a TID attribute the phy does not take (ampdu)" \
	peer "$STA_MAC" tids 0x01 ampdu off
reject "Operation not supported" "interface-wide retry limits (no peer)" \
	tids 0x01 sretry 2
reject "No such file or directory" "an unknown peer" \
	peer 02:00:00:00:77:77 tids 0x01 sretry 2

# --- a limit for best effort only -------------------------------------------
udp warm 1		# Block Ack sessions, minstrel_ht's statistics
ok tidconf peer "$STA_MAC" tids 0x01 sretry 2 lretry 2 -- "iw set tidconf peer STA tids 0x01 sretry 2 lretry 2 accepted"
tap_is "$(tid_col)" "2/2,-/-,-/-,-/-,-/-,-/-,-/-,-/-" "the stations file shows TID 0's limits"
snap l0
udp be 2
snap l1
udp vi 1 -S 0xa0			# DSCP CS5: user priority 5, AC_VI
snap l2
{ read -r be_try; read -r be_tab; read -r vi_try; read -r vi_tab; } < <(hacs \
	"l0 l1 tries BE" "l0 l1 table BE" "l1 l2 tries VI" "l1 l2 table VI")
tap_diag "limit 2 on TID 0: UDP best effort $(mbps be) Mbit/s, video $(mbps vi) Mbit/s" \
	"BE tries [$be_try] table [$be_tab]" "VI tries [$vi_try] table [$vi_tab]" \
	"AP phy: $(tr '\n' ' ' <"$R0/stats")" "$(cat "$R0/stations")"
tap_in_range "$(hsum "$be_try")" 200 100000000 "best effort: the medium saw the AP's frames"
tap_in_range "$(hmax "$be_tab")" 1 2 "best effort: no rate table allows more than 2 tries"
tap_in_range "$(hmax "$be_try")" 1 2 "best effort: no frame uses more than 2 attempts"
tap_in_range "$(hat "$be_try" 2)" 1 100000000 "best effort: the limit binds (frames at 2 attempts)"
tap_in_range "$(ctr l0 l1 clamped)" 1 100000000 "best effort: the policy, mode off, cuts tables (clamped)"
tap_in_range "$(ctr l0 l1 discarded_limit)" 1 "$(ctr l0 l1 discarded)" \
	"best effort: discards count as at the TID's limit (discarded_limit $(ctr l0 l1 discarded_limit) of $(ctr l0 l1 discarded))"
tap_in_range "$(hmax "$vi_tab")" 3 15 "video (TID 5): minstrel's tables, more than 2 tries"

# --- reset -------------------------------------------------------------------
ok tidconf peer "$STA_MAC" tids 0xff override -- "iw set tidconf peer STA tids 0xff override accepted"
tap_is "$(tid_col)" "-" "the stations file shows no limit after the reset"
snap r0
udp reset 1
snap r1
r_tab=$(hacs "r0 r1 table BE")
tap_diag "after the reset: UDP $(mbps reset) Mbit/s, BE table [$r_tab]"
tap_is "$(ctr r0 r1 frames)" 0 "after the reset: the policy, mode off, counts no frame"
tap_in_range "$(hmax "$r_tab")" 3 15 "after the reset: best-effort tables are minstrel's again (more than 2 tries)"
tap_done
