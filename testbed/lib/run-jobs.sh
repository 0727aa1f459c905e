#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of testbed/run: run each job file listed in LISTFILE with
# testbed/lib/run-job.sh, cleaning up (namespaces, daemons, hwsim) between
# jobs.  A failed job does not stop the others; the exit status counts them.
#
# Usage (in the guest, as root): testbed/lib/run-jobs.sh LISTFILE RESULTS
set -u
. "$AQ_TOP/testbed/lib/guest.sh"
list=$1
results=$2
n=$(grep -c . "$list")
k=0
failed=0
while read -r job; do
	[ -n "$job" ] || continue
	k=$((k + 1))
	echo "[guest] $(date +%H:%M:%S) job $k/$n: $(jq -r '"\(.scenario) \(.id)"' "$job")"
	bash "$AQ_TOP/testbed/lib/run-job.sh" "$job" "$results" </dev/null ||
		{ failed=$((failed + 1)); echo "[guest] $(date +%H:%M:%S) job $k/$n failed"; }
	aq_cleanup_all >/dev/null 2>&1
done <"$list"
exit "$failed"
