#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites in the debug kernel (make check-debug only: Debian's
# kernel has no KUnit).  Loads the suites of our pure cores, built as
# modules for this kernel by scripts/check's debug phase (ours/kunit/ beside
# the kernel's env file: aq_ebdp_kunit, aq_airtime_kunit), and the patched
# mac80211's mac80211-tests (the retry, backpressure and airtime-view suites
# of the series beside mac80211's own), each of which runs its suites as it
# loads; then reads every suite's KTAP from /sys/kernel/debug/kunit/.  One
# TAP line per suite: ok when it passed with at least one case run; the
# kernel-log check after the script catches any KASAN, UBSAN or lockdep
# report the cases cause.
set -u
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }

kb=$(dirname "${AQ_KENV:?AQ_KENV is not set: run by scripts/check --kernel debug}")
kdir=/sys/kernel/debug/kunit
mods=("$kb"/ours/kunit/*/aq_*_kunit.ko)
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if [ ! -d "$kdir" ]; then
	echo "1..1"
	notok "this kernel has KUnit with debugfs ($(uname -r))"
	exit 0
fi
before=$(ls "$kdir")
loaded=()
errs=()
for ko in "${mods[@]}"; do
	if [ -f "$ko" ] && insmod "$ko" 2>/tmp/aq-kunit.err; then
		loaded+=("$(basename "$ko" .ko)")
	else
		errs+=("$(basename "$ko"): $(head -c 200 /tmp/aq-kunit.err 2>/dev/null)")
	fi
done
if modprobe mac80211-tests 2>/tmp/aq-kunit.err; then
	loaded+=(mac80211_tests)
else
	errs+=("mac80211-tests: $(head -c 200 /tmp/aq-kunit.err)")
fi
suites=$(comm -13 <(echo "$before" | sort) <(ls "$kdir" | sort))
nsuites=$(echo "$suites" | grep -c .)
echo "1..$((nsuites + 2))"
if [ ${#errs[@]} -eq 0 ] && [ ${#loaded[@]} -ge 3 ]; then
	ok "the suite modules load: ${loaded[*]}"
else
	notok "the suite modules load (loaded: ${loaded[*]:-none})"
	printf '# %s\n' "${errs[@]}"
fi
want=(airqueue-sch_ebdp-core airqueue-tcp_cong_airtime-model
      mac80211-retry-policy mac80211-backpressure mac80211-airtime-view)
missing=()
for w in "${want[@]}"; do
	grep -qx -- "$w" <<<"$suites" || missing+=("$w")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok "$nsuites suites ran, ours among them"
else
	notok "$nsuites suites ran, ours among them (none named: ${missing[*]})"
	echo "# suites: $(echo $suites)"
fi
for s in $suites; do
	r="$kdir/$s/results"
	cases=$(grep -cE '^[[:space:]]+ok [0-9]+ ' "$r")
	failed=$(grep -cE '^[[:space:]]+not ok [0-9]+ ' "$r")
	skipped=$(grep -cE '^[[:space:]]+ok [0-9]+ .*# SKIP' "$r")
	if grep -qE "^ok [0-9]+ $s\$" "$r" && [ "$failed" = 0 ] && [ "$cases" -gt 0 ]; then
		note=
		[ "$skipped" = 0 ] || note=" ($skipped of them skipped)"
		ok "KUnit suite $s: $cases cases passed$note"
	else
		notok "KUnit suite $s: $cases passed, $failed failed"
		grep -E 'not ok|# .*(Expected|ASSERT|failed)' "$r" | head -n 6 | sed 's/^/# /'
	fi
done
for m in "${loaded[@]}"; do rmmod "$m" 2>/dev/null; done
exit 0
