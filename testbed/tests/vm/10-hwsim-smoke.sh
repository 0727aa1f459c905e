#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation smoke test: the rebuilt mac80211 and mac80211_hwsim from
# `make patched` (all policies at their defaults) are the ones loaded, an AP
# and a station in separate namespaces associate, ping and TCP work in both
# directions, and a radio can be deleted and re-created without a kernel
# warning (the runner checks the kernel log after this script).
. "$AQ_TOP/testbed/lib/guest.sh"

tap_plan 12

hwsim_load 2
ok test "$(hwsim_phys | wc -l)" -eq 2 -- "mac80211_hwsim created 2 radios"

m80211=$(modinfo -n mac80211)
hwsim=$(modinfo -n mac80211_hwsim)
tap_diag "mac80211: $m80211" "mac80211_hwsim: $hwsim"
if [ -d "$AQ_BUILD/patched/modules" ]; then
	ok grep -q '/updates/' <<<"$m80211$hwsim" -- "mac80211 and hwsim come from the patched module tree (updates/)"
else
	tap_fail "mac80211 and hwsim come from the patched module tree" "no make patched output"
fi

if topo_ap_sta_server 1 g; then
	tap_ok "AP and station associate (hostapd + wpa_supplicant, 802.11g)"
else
	tap_fail "AP and station associate" "see $AQ_TMP/*.log"
fi

ok ip netns exec sta ping -c 3 -i 0.2 -W 2 10.0.0.1 -- "station pings the AP"
ok ip netns exec sta ping -c 3 -i 0.2 -W 2 10.9.0.2 -- "station pings the wired server through the AP"

iperf3_server srv
for dir in up down; do
	flag=
	[ $dir = down ] && flag=-R
	json="$AQ_RESULTS/smoke-iperf3-$dir.json"
	iperf3_client sta 10.9.0.2 -t 3 $flag >"$json" 2>&1
	mbps=$(iperf3_mbps "$json")
	tap_diag "iperf3 $dir: ${mbps:-none} Mbit/s"
	# Stock hwsim has no airtime model: anything that moves data passes;
	# the medium's tests assert airtime-bound rates.
	tap_in_range "${mbps:-0}" 1 100000 "3 s TCP $dir (station <-> wired server) moves data"
done

# Create a radio over generic netlink, delete it, re-create it by the same
# name and delete it again: the kernel log must stay clean (checked by the
# runner) and the phy count must follow.
before=$(hwsim_phys | wc -l)
ctl="$AQ_TOP/testbed/lib/hwsim-ctl"
id=$("$ctl" new --name aqsmoke)
ok test -n "$id" -a "$(hwsim_phys | wc -l)" -eq $((before + 1)) -- "a radio is created over netlink (id ${id:-none})"
ok "$ctl" del --name aqsmoke -- "the radio is deleted over netlink"
tap_is "$(hwsim_phys | wc -l)" "$before" "its phy is gone"
id2=$("$ctl" new --name aqsmoke)
ok test -n "$id2" -a "$(hwsim_phys | wc -l)" -eq $((before + 1)) -- "it is re-created by the same name (id ${id2:-none})"
ok "$ctl" del --name aqsmoke -- "and deleted again"
tap_done
