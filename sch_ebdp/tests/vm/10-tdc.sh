#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run sch_ebdp's tc-testing cases (sch_ebdp/tests/tdc/ebdp.json) with the
# kernel's own tdc.py from the prepared kernel source, as root in the guest,
# and report each tdc case as one TAP line.
#
# Needs: python3-pyroute2 (strongly advised, see below), the sch_ebdp module in the guest's module tree, q_ebdp.so built
# (make -C sch_ebdp/tc, into $AQ_BUILD/sch_ebdp/tc), the kernel source
# (scripts/prepare-kernel).
set -u

: "${AQ_TOP:=/work/main}"
: "${AQ_BUILD:=$AQ_TOP/build}"
: "${AQ_RESULTS:=/tmp/aq}"

skip_all() {
	echo "1..1"
	echo "ok 1 - sch_ebdp tdc # SKIP $*"
	exit 0
}

[ "$(id -u)" = 0 ] || skip_all "needs root (run in the VM)"
[ -f "$AQ_BUILD/kernel/env" ] || skip_all "no kernel source (scripts/prepare-kernel)"
. "$AQ_BUILD/kernel/env"
tdcsrc="$KSRC/tools/testing/selftests/tc-testing"
[ -f "$tdcsrc/tdc.py" ] || skip_all "no tdc.py in $tdcsrc"
plugin_dir="$AQ_BUILD/sch_ebdp/tc"
[ -f "$plugin_dir/q_ebdp.so" ] || skip_all "q_ebdp.so not built (make -C sch_ebdp/tc)"
modprobe sch_ebdp 2>/dev/null || skip_all "modprobe sch_ebdp failed (module not installed in the guest)"

# tdc writes next to itself: work on a copy in the guest's scratch space.
work=$(mktemp -d /tmp/aq-tdc.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -a "$tdcsrc/." "$work/"
cp "$AQ_TOP/sch_ebdp/tests/tdc/ebdp.json" "$work/tc-tests/qdiscs/ebdp.json"
# tdc runs every command with exactly ENVIR as environment.
cat >"$work/tdc_config_local.py" <<EOF
ENVIR = {
    'TC_LIB_DIR': '$plugin_dir',
    'PATH': '/usr/sbin:/usr/bin:/sbin:/bin',
}
EXTRA_NAMES = {
    'TC': '$(command -v tc)',
    'IP': '$(command -v ip)',
}
EOF

out="$AQ_RESULTS/sch_ebdp-tdc.txt"
mkdir -p "$AQ_RESULTS"
# tdc's nsPlugin creates its namespace and devices synchronously with
# pyroute2 (Debian python3-pyroute2); without it, it pipes to "ip -b -"
# and races with the test commands when the guest runs slowly.
py=python3
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import pyroute2' 2>/dev/null; then
		py=$p
		break
	fi
done
# -J: tdc's own parallel runner (batches of 32 cases, each case in a
# namespace and devices of its own) over the guest's vCPUs (two in the
# wall-clock guest): serially the 58 cases took 119 s of make check's
# wall-clock guest on 2026-11-28, each case a few tc and ip runs.
jobs=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -le 4 ] || jobs=4
(cd "$work" && "$py" ./tdc.py -J "$jobs" -f tc-tests/qdiscs/ebdp.json) >"$out" 2>&1
rc=$?

# tdc prints TAP ("ok N ID - name", "not ok N ID - name", "# SKIP").
total=$(grep -cE '^(not )?ok [0-9]+ ' "$out")
if [ "$total" = 0 ]; then
	echo "1..1"
	echo "not ok 1 - tdc produced no results (rc $rc), see $out"
	sed 's/^/# /' "$out" | tail -n 30
	exit 0
fi
echo "1..$total"
n=0
grep -E '^(not )?ok [0-9]+ ' "$out" | while read -r line; do
	n=$((n + 1))
	status=${line%% [0-9]*}
	# tdc writes "# skipped - reason"; TAP wants "# SKIP reason"
	rest=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ //; s/ # skipped - / # SKIP /')
	echo "$status $n - tdc $rest"
done
# Failure details, as TAP comments.
grep -A12 -E '^not ok' "$out" | grep -vE '^(not )?ok ' | sed 's/^/# /' | head -n 200
modprobe -r sch_ebdp 2>/dev/null || true
exit 0
