#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry: the retry policy's nl80211 vendor commands (scripts/aq-retry)
# and its debugfs counters on stock mac80211_hwsim (no medium needed).
#
#  - phyN/retry/ exists with Debian's CONFIG_MAC80211_DEBUGFS=n and takes no
#    writes: configuration goes through nl80211;
#  - the default mode is "off" and nothing is counted while off;
#  - nl80211 refuses what the command's policy does not allow with an
#    extended ACK message (values out of range, unknown and unsupported
#    attributes, wrong lengths, data not nested), the policy core refuses
#    inconsistent parameters with EINVAL and the rule in the kernel log,
#    an unprivileged user gets EPERM; nothing changes in every case;
#  - "fixed 3/2" cuts rate tables (minstrel hands out more tries) and the
#    counters move; "rate" counts TCP frames; a per-station override works
#    with the phy "off" and is read back per station;
#  - the phy's counters (per CPU, summed when read; the guest has two
#    CPUs) equal the sums of its stations' counters.
. "$AQ_TOP/testbed/lib/guest.sh"

N=43
tap_plan $N
trap aq_cleanup_all EXIT

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

if ! hwsim_load 2; then
	for i in $(seq $N); do tap_skip "retry knobs" "mac80211_hwsim does not load"; done
	exit 0
fi
phys=($(hwsim_phys))
P0=${phys[0]}
P1=${phys[1]}
D0=/sys/kernel/debug/ieee80211/$P0/retry
D1=/sys/kernel/debug/ieee80211/$P1/retry
if [ ! -d "$D0" ]; then
	for i in $(seq $N); do tap_skip "retry knobs" "mac80211 is not patched (no $D0)"; done
	exit 0
fi

# the first phy's settings as debugfs shows them, one line (every refusal
# below is aimed at it, by name or by its interface)
conf() { cat "$D0/mode" "$D0/params" "$D0/prob_cs_succ" | tr '\n' ' '; }
# reject MSG DESC PHY ARGS...: aq-retry must fail with MSG in its error
# and leave the phy's configuration unchanged
reject() {
	local msg=$1 desc=$2 before after
	shift 2
	before=$(conf "$1")
	if aq_retry "$@" >"$AQ_TMP/rt.out" 2>&1; then
		tap_fail "$desc" "accepted: $*"
		return
	fi
	after=$(conf "$1")
	if ! grep -qF -- "$msg" "$AQ_TMP/rt.out"; then
		tap_fail "$desc" "want '$msg', got: $(cat "$AQ_TMP/rt.out")"
	elif [ "$after" != "$before" ]; then
		tap_fail "$desc" "configuration changed: $before -> $after"
	else
		tap_ok "$desc ($(tail -n 1 "$AQ_TMP/rt.out"))"
	fi
}
# the kernel log's notices since the mark
dmesg_mark() { dmesg | wc -l >"$AQ_TMP/dmesg.mark"; }
dmesg_new() { dmesg | tail -n +"$(($(cat "$AQ_TMP/dmesg.mark") + 1))"; }
stat_of() { awk -v k="$2" '$1 == k {print $2}' "$1/stats"; }
key_of() { aq_retry "$1" show | awk -v k="$2" '$1 == k {print $2}'; }

# raw PHY SUBCMD HEX [flat]: a vendor command with VENDOR_DATA given in hex
# (nested unless "flat"); prints aq-retry's error text or "accepted"
raw() { aq_retry "$@" 2>&1 && echo accepted; }
# raw_reject MSG DESC PHY SUBCMD HEX [flat]
raw_reject() {
	local msg=$1 desc=$2 before after out
	shift 2
	before=$(conf "$1")
	out=$(raw "$1" raw "${@:2}")
	after=$(conf "$1")
	case "$out" in
	*"$msg"*)
		tap_is "$after" "$before" "$desc: refused ($out), configuration unchanged" ;;
	*) tap_fail "$desc: refused with '$msg'" "$out" ;;
	esac
}

# --- configuration --------------------------------------------------------
tap_is "$(key_of "$P0" mode)" "off" "default mode is off"
tap_is "$(key_of "$P0" fixed_ap)/$(key_of "$P0" fixed_sta)" "3/2" "default fixed limits are 3/2"
tap_is "$(key_of "$P0" l_obss)" 3 "show gives L_OBSS 3"
tap_is "$(aq_retry "$P0" show | awk '$1 == "prob_cs_succ" {print $3}')" auto \
	"the channel estimate follows the survey by default"
tap_is "$(head -n 1 "$D0/params")" "l_obss 3" "debugfs shows the same parameters"

# debugfs is for diagnosis: no writes, even as root
if printf rate >"$D0/mode" 2>/dev/null; then
	tap_fail "debugfs mode takes no write" "write succeeded"
else
	tap_is "$(cat "$D0/mode")" off "debugfs mode takes no write, mode stays off"
fi

# refused by nl80211's policy, with an extended ACK message
reject "integer out of range" "fixed 0/2" "$P0" set fixed 0/2
reject "integer out of range" "prob_cs_succ 1001" "$P0" set prob 1001
reject "integer out of range" "ewma_trans_shift 9" "$P0" set ewma_trans_shift 9
reject "integer out of range" "s_high 65536" "$P0" set s_high 65536
reject "integer out of range" "l_min 0 with a valid mode: nothing applied" "$P0" set mode obss+rate l_min 0
raw_reject "integer out of range" "raw mode 5 (inherit) on a phy" "$P0" 2 0500010005000000
raw_reject "Unknown attribute type" "raw attribute 99" "$P0" 2 08006300"$(printf '%08x' 0)"
raw_reject "Unsupported attribute" "raw station mode in a phy SET" "$P0" 2 0500050001000000
raw_reject "invalid attribute length" "raw mode as a u32" "$P0" 2 0800010001000000
raw_reject "expected nested data" "raw data not nested" "$P0" 2 0500010001000000 flat
raw_reject "Unsupported attribute" "raw attribute in a GET" "$P0" 1 0500010001000000
# refused by the policy core: EINVAL, the rule in the kernel log
dmesg_mark
reject "Invalid argument" "l_obss 9 (above L_NON_OBSS)" "$P0" set l_obss 9
tap_is "$(dmesg_new | grep -c 'retry: parameters refused: need l_obss <= l_non_obss <= 255')" 1 \
	"the kernel log names the rule l_obss broke"
reject "Invalid argument" "c_obss 500 (above C_NON_OBSS)" "$P0" set c_obss 500
reject "Invalid argument" "prob 500 and auto together" "$P0" set prob 500 prob auto
reject "Invalid argument" "mode fixed with l_obss 9: nothing applied" "$P0" set mode fixed l_obss 9
tap_is "$(dmesg_new | grep -c 'retry: parameters refused: need c_obss <= c_non_obss <= 1000')" 1 \
	"the kernel log names the rule c_obss broke"
# stations: unknown address
reject "No such file or directory" "override for an unknown station" "$(phy_dev "$P0")" \
	station 02:00:00:00:99:99 set mode obss
# CAP_NET_ADMIN
if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--bounding-set=-all "$AQ_RETRY" "$P0" raw 2 0500010003000000 \
	>"$AQ_TMP/rt.out" 2>&1; then
	tap_fail "an unprivileged user cannot set" "accepted"
else
	tap_is "$(grep -c 'Operation not permitted' "$AQ_TMP/rt.out")" 1 \
		"an unprivileged user cannot set (EPERM)"
fi

ok aq_retry "$P0" set l_obss 4 l_non_obss 6 -- "valid parameters accepted"
tap_is "$(key_of "$P0" l_obss)/$(key_of "$P0" l_non_obss)" 4/6 "and read back"
ok aq_retry "$P0" set l_obss 3 l_non_obss 7 prob auto -- "defaults restored"
ok aq_retry "$P0" set prob 250 -- "a fixed channel estimate accepted"
tap_is "$(cat "$D0/prob_cs_succ")" "250 fixed" "debugfs shows the fixed estimate"
ok aq_retry "$P0" set prob auto -- "and back to the survey"

# --- traffic ------------------------------------------------------------
if ! topo_ap_sta_server 1 g >"$AQ_TMP/topo.log" 2>&1; then
	tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"
	for i in $(seq $((N - _tap_n))); do tap_skip "retry traffic" "AP/STA topology failed"; done
	exit 0
fi
traffic() { # seconds
	ip netns exec sta ping -q -i 0.02 -c $(($1 * 50)) 10.0.0.1 >/dev/null 2>&1
}

traffic 1
tap_is "$(stat_of "$D0" frames)" 0 "mode off: no frame counted on the AP"
tap_is "$(stat_of "$D1" frames)" 0 "mode off: no frame counted on the STA"

ok aq_retry "$P0" set mode fixed fixed 3/2 -- "AP phy (in its namespace): mode fixed 3/2"
ok aq_retry "$P1" set mode fixed -- "STA phy: mode fixed"
traffic 2
f0=$(stat_of "$D0" frames); d0=$(stat_of "$D0" done)
tap_in_range "$f0" 50 100000 "fixed: AP frames counted"
tap_in_range "$d0" 50 100000 "fixed: AP tx status counted"
tap_diag "AP stats: $(tr '\n' ' ' <"$D0/stats")" "STA stats: $(tr '\n' ' ' <"$D1/stats")"

# rate mode with TCP: the TCP counter moves on the STA (sender)
aq_retry "$P1" set mode rate
before=$(stat_of "$D1" tcp)
iperf3_server ap >/dev/null 2>&1
sleep 0.5
iperf3_client sta 10.0.0.1 -t 2 >"$AQ_TMP/iperf.json" 2>/dev/null
after=$(stat_of "$D1" tcp)
tap_in_range "$((after - before))" 100 100000000 "rate: STA counts TCP frames"

# per-station override with the phy off
aq_retry "$P0" set mode off
sta_mac=$(ip netns exec sta cat /sys/class/net/"$STA_IF"/address)
rt_ap() { ip netns exec ap "$AQ_RETRY" "$AP_IF" "$@"; }
ok rt_ap station "$sta_mac" set mode obss -- "override for the station accepted"
tap_is "$(rt_ap station "$sta_mac" show | awk '$1 == "override" || $1 == "mode" {printf "%s=%s ", $1, $2}')" \
	"mode=obss override=obss " "the station reads back its override and the mode in force"
before=$(stat_of "$D0" frames)
traffic 1
after=$(stat_of "$D0" frames)
tap_in_range "$((after - before))" 20 100000 "override: AP counts frames to that station with the phy off"
tap_diag "$(cat "$D0/stations")"

# phy totals against the stations' sums: read until a frame sent meanwhile
# (neighbour discovery) no longer changes the phy's counters between reads
for _ in 1 2 3 4 5; do
	phy=$(awk '{printf "%s ", $2}' "$D0/stats")
	# the counters are the stations' columns 11.. in the stats' order
	sums=$(awk -v n="$(wc -l <"$D0/stats")" \
		'!/^#/ { for (i = 11; i < 11 + n; i++) s[i] += $i }
		END { for (i = 11; i < 11 + n; i++) printf "%d ", s[i] }' "$D0/stations")
	[ "$phy" = "$(awk '{printf "%s ", $2}' "$D0/stats")" ] && break
done
tap_is "$sums" "$phy" "the phy's counters equal the sums of its stations' counters"

# the override cleared: the phy's "off" again, nothing counted
rt_ap station "$sta_mac" set mode inherit
before=$(stat_of "$D0" frames)
traffic 1
tap_is "$(($(stat_of "$D0" frames) - before))" 0 "override cleared (inherit): the AP counts nothing with the phy off"
tap_done
