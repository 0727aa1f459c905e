# SPDX-License-Identifier: GPL-2.0-only
# shared by the medium's host tests: build into $AQ_BUILD/medium quietly
MED_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AQ_TOP=${AQ_TOP:-$(cd "$MED_SRC/../.." && pwd)}
AQ_BUILD=${AQ_BUILD:-$AQ_TOP/build}
MED_O=$AQ_BUILD/medium

med_build() { # plan-size-on-failure
	if ! make -s -C "$MED_SRC" O="$MED_O" all >"$MED_O.build.log" 2>&1; then
		echo "1..1"
		echo "not ok 1 - build testbed/medium (see $MED_O.build.log)"
		sed 's/^/# /' "$MED_O.build.log" | tail -n 20
		exit 0
	fi
}
mkdir -p "$MED_O"
