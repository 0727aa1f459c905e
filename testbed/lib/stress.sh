# SPDX-License-Identifier: GPL-2.0
# Sourced by the VM test libraries (testbed/lib/guest.sh, sch_ebdp's
# lib-ebdp.sh).

# aq_stress_count QUICK FULL: a stress test's count.  AQ_STRESS=full (the
# default on the debug kernel: make check-debug runs issue #20's counts)
# or quick (the default elsewhere: make check's smoke of it).
aq_stress_count() {
	local mode=${AQ_STRESS:-}
	[ -n "$mode" ] || case "$(uname -r)" in
		*-airqueue-debug) mode=full ;;
		*) mode=quick ;;
		esac
	if [ "$mode" = full ]; then echo "$2"; else echo "$1"; fi
}
