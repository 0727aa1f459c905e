#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ath9k-patches: the patched ath family loads without a device and unloads
# cleanly (no virtual clock needed: nothing is timed).
#
#  - modprobe picks the patched ath9k, ath9k_hw and ath9k_htc from
#    updates/ (AQ_PATCHED or build/patched), not Debian's (whose ath9k
#    lacks the new parameter);
#  - every symbol they need resolves (no "Unknown symbol"/"disagrees about
#    version" in dmesg), in particular the exports the series adds to
#    mac80211 (ieee80211_retry_driver_rates, ieee80211_retry_ba_limit);
#  - ath9k has the new parameter retry_policy (default 1, writable);
#  - all five unload, leaving no reference behind.
. "$AQ_TOP/testbed/lib/guest.sh"

mods="ath ath9k_hw ath9k_common ath9k ath9k_htc"
tap_plan 18
trap aq_cleanup_all EXIT

dmesg_mark=$(dmesg | wc -l)
kdir=/lib/modules/$(uname -r)

for m in ath9k ath9k_hw ath9k_htc; do
	f=$(modinfo -n "$m" 2>/dev/null)
	case "$f" in
	"$kdir"/updates/*) tap_ok "$m resolves to the patched build ($f)" ;;
	*) tap_fail "$m resolves to the patched build" "modinfo -n: '$f'" ;;
	esac
done

# Debian's ath9k has no retry_policy: what loads below is the patched one
# (the modules carry no srcversion: Debian builds them without
# MODULE_VERSION and CONFIG_MODULE_SRCVERSION_ALL)
stock=$(find "$kdir/kernel/drivers/net/wireless/ath" -name 'ath9k.ko*' | head -n 1)
if [ -z "$stock" ]; then
	tap_fail "Debian's ath9k lacks retry_policy" "no stock ath9k.ko under $kdir/kernel"
elif modinfo -F parm "$stock" | grep -q '^retry_policy:'; then
	tap_fail "Debian's ath9k lacks retry_policy" "$stock has it"
else
	tap_ok "Debian's ath9k ($stock) lacks retry_policy"
fi

ok sh -c "modinfo -F parm ath9k | grep -q '^retry_policy:'" -- \
	"modinfo ath9k lists the parameter retry_policy"

# load everything; ath9k pulls in ath9k_common, ath9k_hw, ath, mac80211
ok modprobe ath9k -- "modprobe ath9k"
ok modprobe ath9k_htc -- "modprobe ath9k_htc"
loaded=0
for m in $mods; do
	[ -d "/sys/module/$m" ] && loaded=$((loaded + 1))
done
tap_is "$loaded" 5 "all five modules of the ath family are loaded"

ok grep -qw ieee80211_retry_driver_rates /proc/kallsyms -- \
	"mac80211 exports ieee80211_retry_driver_rates"
ok grep -qw ieee80211_retry_ba_limit /proc/kallsyms -- \
	"mac80211 exports ieee80211_retry_ba_limit"

p=/sys/module/ath9k/parameters/retry_policy
tap_is "$(cat "$p" 2>/dev/null)" Y "retry_policy defaults to 1"
echo 0 >"$p" 2>/dev/null
tap_is "$(cat "$p" 2>/dev/null)" N "retry_policy can be turned off at run time"
echo 1 >"$p" 2>/dev/null
tap_is "$(cat "$p" 2>/dev/null)" Y "retry_policy can be turned back on"

bad=$(dmesg | tail -n +"$((dmesg_mark + 1))" |
	grep -E 'Unknown symbol|disagrees about version|WARNING|BUG|Oops' || true)
tap_is "$bad" "" "no unresolved symbols or warnings while loading"

# modprobe -r drops a dependency only if it is unused at that moment:
# name them all, users first
ok modprobe -r ath9k_htc ath9k ath9k_common ath9k_hw ath -- \
	"modprobe -r of the ath family"
left=""
for m in $mods; do
	[ -d "/sys/module/$m" ] && left+=" $m"
done
tap_is "$left" "" "no module of the ath family is left loaded"
ok modprobe -r mac80211 -- "mac80211 unloads after them (no reference left)"

bad=$(dmesg | tail -n +"$((dmesg_mark + 1))" |
	grep -E 'WARNING|BUG|Oops|refcount|leak' || true)
tap_is "$bad" "" "no warnings while unloading"
tap_done
