# SPDX-License-Identifier: GPL-2.0
# Helpers for tcp_airtime's VM tests (sourced, not run; not executable so
# the VM runner does not pick it up).

# cap_check SS_FILE: "samples violations" over the `ss -ti` lines of SS_FILE
# that show a cap (airtime's get_info, printed as bbr:(bw:...)): a violation
# is a cwnd above wnd_max = max(2, floor(bw / 8 * mrtt / mss)) of the same
# line.  The first violation is described on stderr.
cap_check() {
	awk '/bbr:\(bw:[0-9]+bps/ {
		match($0, / cwnd:[0-9]+/); c = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, / mss:[0-9]+/); m = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /bbr:\(bw:[0-9]+/); bw = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /mrtt:[0-9.]+/); rt = substr($0, RSTART + 5, RLENGTH - 5)
		w = int(bw / 8 * (rt + 0.001) / 1000 / m); if (w < 2) w = 2
		n++; if (c + 0 > w) { bad++; if (bad == 1) print "first: cwnd " c " > " w > "/dev/stderr" }
	} END { printf "%d %d\n", n, bad + 0 }' "$1"
}
