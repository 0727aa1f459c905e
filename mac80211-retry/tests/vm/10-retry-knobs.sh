#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mac80211-retry: debugfs knobs and counters of the retry policy on stock
# mac80211_hwsim (no medium needed).
#
#  - phyN/retry/ exists with Debian's CONFIG_MAC80211_DEBUGFS=n;
#  - the default mode is "off" and nothing is counted while off;
#  - invalid writes fail with EINVAL and leave the state unchanged;
#  - "fixed 3/2" cuts rate tables (minstrel hands out more tries) and the
#    counters move; "rate" counts TCP frames; a per-station override works
#    with the phy "off";
#  - the phy's counters (per CPU, summed when read; the guest has two
#    CPUs) equal the sums of its stations' counters.
. "$AQ_TOP/testbed/lib/guest.sh"

tap_plan 25
trap aq_cleanup_all EXIT

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

if ! hwsim_load 2; then
	for i in $(seq 25); do tap_skip "retry knobs" "mac80211_hwsim does not load"; done
	exit 0
fi
phys=($(hwsim_phys))
D0=/sys/kernel/debug/ieee80211/${phys[0]}/retry
D1=/sys/kernel/debug/ieee80211/${phys[1]}/retry
if [ ! -d "$D0" ]; then
	for i in $(seq 25); do tap_skip "retry knobs" "mac80211 is not patched (no $D0)"; done
	exit 0
fi

# write VALUE FILE: succeeds or prints the errno text
wr() { printf '%s' "$1" >"$2" 2>"$AQ_TMP/wr.err"; }
# must fail with EINVAL and leave FILE's content unchanged
reject() { # FILE VALUE DESC
	local before after err
	before=$(cat "$1")
	if wr "$2" "$1"; then
		tap_fail "$3: '$2' rejected" "write succeeded"
		return
	fi
	err=$(cat "$AQ_TMP/wr.err")
	after=$(cat "$1")
	case "$err" in
	*"Invalid argument"*)
		tap_is "$after" "$before" "$3: '$2' rejected with EINVAL, state unchanged" ;;
	*) tap_fail "$3: '$2' rejected with EINVAL" "$err" ;;
	esac
}
stat_of() { awk -v k="$2" '$1 == k {print $2}' "$1/stats"; }

tap_is "$(cat "$D0/mode")" "off" "default mode is off"
tap_is "$(cat "$D0/fixed")" "3/2" "default fixed limits are 3/2"
ok grep -qx 'l_obss 3' "$D0/params" -- "params shows L_OBSS 3"

reject "$D0/mode" bogus "mode"
reject "$D0/mode" inherit "mode"
reject "$D0/fixed" 0/2 "fixed"
reject "$D0/fixed" 3 "fixed"
reject "$D0/params" l_obss=9 "params (L_OBSS > L_NON_OBSS)"
reject "$D0/params" "c_obss=500" "params (C_OBSS > C_NON_OBSS)"
reject "$D0/params" "nosuch=1" "params (unknown name)"
reject "$D0/prob_cs_succ" 1001 "prob_cs_succ"
reject "$D0/stations" "zz obss" "stations"

ok wr "l_obss=4 l_obss=3" "$D0/params" -- "valid params write accepted"
ok wr auto "$D0/prob_cs_succ" -- "prob_cs_succ auto accepted"

# --- traffic ------------------------------------------------------------
if ! topo_ap_sta_server 1 g >"$AQ_TMP/topo.log" 2>&1; then
	tap_diag "$(tail -n 5 "$AQ_TMP/topo.log")"
	for i in $(seq 11); do tap_skip "retry traffic" "AP/STA topology failed"; done
	exit 0
fi
traffic() { # seconds
	ip netns exec sta ping -q -i 0.02 -c $(($1 * 50)) 10.0.0.1 >/dev/null 2>&1
}

traffic 1
tap_is "$(stat_of "$D0" frames)" 0 "mode off: no frame counted on the AP"
tap_is "$(stat_of "$D1" frames)" 0 "mode off: no frame counted on the STA"

ok wr fixed "$D0/mode" -- "AP phy: mode fixed"
ok wr fixed "$D1/mode" -- "STA phy: mode fixed"
ok wr 3/2 "$D0/fixed" -- "AP phy: fixed 3/2"
traffic 2
f0=$(stat_of "$D0" frames); d0=$(stat_of "$D0" done)
tap_in_range "$f0" 50 100000 "fixed: AP frames counted"
tap_in_range "$d0" 50 100000 "fixed: AP tx status counted"
tap_diag "AP stats: $(tr '\n' ' ' <"$D0/stats")" "STA stats: $(tr '\n' ' ' <"$D1/stats")"

# rate mode with TCP: the TCP counter moves on the STA (sender)
wr rate "$D1/mode"
before=$(stat_of "$D1" tcp)
iperf3_server ap >/dev/null 2>&1
sleep 0.5
iperf3_client sta 10.0.0.1 -t 2 >"$AQ_TMP/iperf.json" 2>/dev/null
after=$(stat_of "$D1" tcp)
tap_in_range "$((after - before))" 100 100000000 "rate: STA counts TCP frames"

# per-station override with the phy off
wr off "$D0/mode"
sta_mac=$(ip netns exec sta cat /sys/class/net/"$STA_IF"/address)
ok wr "$sta_mac obss" "$D0/stations" -- "override for the station accepted"
before=$(stat_of "$D0" frames)
traffic 1
after=$(stat_of "$D0" frames)
tap_in_range "$((after - before))" 20 100000 "override: AP counts frames to that station with the phy off"
tap_diag "$(cat "$D0/stations")"

# phy totals against the stations' sums: read until a frame sent meanwhile
# (neighbour discovery) no longer changes the phy's counters between reads
for _ in 1 2 3 4 5; do
	phy=$(awk '{printf "%s ", $2}' "$D0/stats")
	sums=$(awk '!/^#/ { for (i = 11; i <= 19; i++) s[i] += $i }
		END { for (i = 11; i <= 19; i++) printf "%d ", s[i] }' "$D0/stations")
	[ "$phy" = "$(awk '{printf "%s ", $2}' "$D0/stats")" ] && break
done
tap_is "$sums" "$phy" "the phy's counters equal the sums of its stations' counters"
tap_done
