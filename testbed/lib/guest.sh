# SPDX-License-Identifier: GPL-2.0
#
# Helpers for airqueue's VM tests (sourced by bash scripts run as root in the
# guest by testbed/vm/run).  Two groups:
#
#   TAP:      tap_plan N, ok COND... -- DESC, tap_ok DESC, tap_fail DESC [WHY],
#             tap_skip DESC WHY, tap_is GOT WANT DESC, tap_in_range V LO HI DESC,
#             tap_diag TEXT, tap_done
#   testbed:  hwsim_load N [params], hwsim_phys, phy_to_netns PHY NS,
#             netns_new NS, veth_link NS1 IF1 NS2 IF2 [ADDR1 ADDR2],
#             hostapd_start NS IFACE SSID [CHANNEL] [HWMODE] [extra lines],
#             wpa_start NS IFACE SSID, wait_assoc NS IFACE [TIMEOUT],
#             netem NS IFACE ARGS, iperf3_server NS, iperf3_client NS ADDR
#             ARGS... (JSON to stdout), iperf3_mbps JSONFILE [sender|receiver],
#             sample_ss NS [ARGS], sample_tc NS IFACE, dmesg_clean,
#             aq_cleanup_all, topo_ap_sta_server, topo_bss N [CH] [MODE]
#   medium:   medium_start CONFIG [args], medium_stats, medium_stop,
#             medium_config_bss FILE STD N [DIST_M...]
#   modules:  testmod_build DIR (a test-only module, prebuilt on the host)
#
# Every helper fails (non-zero) with a message on stderr rather than leaving
# a half-made topology behind silently.

AQ_TMP=${AQ_TMP:-/tmp/aq}
mkdir -p "$AQ_TMP"

# --- TAP ---------------------------------------------------------------
_tap_n=0
_tap_failed=0
tap_plan() { echo "1..$1"; }
tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1"; }
tap_fail() {
	_tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $1"
	[ -n "${2:-}" ] && echo "# $2"
	return 0
}
tap_skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
tap_diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
# tap_relay FILE: lines "ok - D", "not ok - D" and "# text" that a helper
# (a Python check) wrote, as this script's numbered TAP; an empty FILE fails
tap_relay() {
	local l
	while IFS= read -r l; do
		case "$l" in
		ok*) tap_ok "${l#ok - }" ;;
		not*) tap_fail "${l#not ok - }" ;;
		\#*) tap_diag "${l#\# }" ;;
		esac
	done <"$1"
	[ -s "$1" ] || tap_fail "the record checks ran" "python3 printed nothing"
}
# ok CMD... -- DESC : passes if CMD succeeds
ok() {
	local args=() desc
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift; desc="$*"
	if "${args[@]}" >"$AQ_TMP/ok.out" 2>&1; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$(tail -n 3 "$AQ_TMP/ok.out" | tr '\n' ' ')"
	fi
}
tap_is() { # got want desc
	if [ "$1" = "$2" ]; then tap_ok "$3"; else tap_fail "$3" "got '$1', want '$2'"; fi
}
tap_in_range() { # value lo hi desc (numbers, may be decimal)
	if awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'; then
		tap_ok "$4 ($1 in [$2, $3])"
	else
		tap_fail "$4" "got '$1', want [$2, $3]"
	fi
}
tap_done() { [ "$_tap_failed" -eq 0 ]; }
. "${AQ_TOP:-/work/main}/testbed/lib/stress.sh"

# --- processes and cleanup ----------------------------------------------
_aq_pids=()
aq_bg() { # run in background, remember the pid
	"$@" &
	_aq_pids+=($!)
}

aq_cleanup_all() {
	local p ns
	for p in "${_aq_pids[@]}"; do kill "$p" 2>/dev/null; done
	pkill -x hostapd; pkill -x wpa_supplicant; pkill -x iperf3; pkill -x irtt
	pkill -x aq-fetch
	pkill -x aqmedium
	sleep 0.3
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	# Unload the Wi-Fi stack too: the next test starts from a clean module
	# state (and may load a module that provides mac80211's symbols).
	modprobe -r mac80211_hwsim mac80211 2>/dev/null
	return 0
}

# --- hwsim and namespaces --------------------------------------------------
# hwsim_load N [module params...]: mac80211_hwsim with N radios.  A module
# of the testbed's series (hwsim patch 0006) gets random_tsf=1, so that its
# APs' beacons fall at unrelated phases as real APs' do (HWSIM_RANDOM_TSF=0:
# stock TSFs, every radio's the host's real time); a stock module has no
# such parameter and gets none.
hwsim_load() {
	local n=$1 tsf=()
	shift
	modprobe -r mac80211_hwsim 2>/dev/null
	modinfo -F parm mac80211_hwsim 2>/dev/null | grep -q '^random_tsf:' &&
		tsf=("random_tsf=${HWSIM_RANDOM_TSF:-1}")
	modprobe mac80211_hwsim radios="$n" "${tsf[@]}" "$@" || {
		echo "hwsim_load: modprobe mac80211_hwsim failed" >&2; return 1; }
	local i
	for i in $(seq 50); do
		[ "$(hwsim_phys | wc -l)" -ge "$n" ] && return 0
		sleep 0.1
	done
	echo "hwsim_load: only $(hwsim_phys | wc -l) of $n radios appeared" >&2
	return 1
}

# phys owned by mac80211_hwsim, in creation order
hwsim_phys() {
	local p
	for p in /sys/class/ieee80211/*; do
		[ -e "$p" ] || continue
		readlink -f "$p/device/driver" 2>/dev/null | grep -q hwsim &&
			basename "$p"
	done | sort -V
}

# the netdev of a phy (first interface)
phy_dev() { ls "/sys/class/ieee80211/$1/device/net/" 2>/dev/null | head -n 1; }

# aq-retry, the retry policy's nl80211 tool (mac80211-retry/aq-retry, built
# on the host by make check and make)
AQ_RETRY=${AQ_RETRY:-${AQ_BUILD:-${AQ_TOP:-/work/main}/build}/aq-retry/aq-retry}

# Which network namespace holds each phy ("-": the initial one), as
# phy_to_netns put it there or _aq_phy_scan found it.  aq_retry asked
# every namespace in turn, an `ip netns exec` each until the phy's: at
# obss's K = 40 (91 namespaces, 90 phys) some 8000 processes to set a
# policy on every phy and as many to undo it, which under the virtual
# clock were most of the minutes of guest time between two variants.
declare -gA _aq_phy_ns=()

# _aq_phy_scan: the map from every namespace's /sys/class/ieee80211
_aq_phy_scan() {
	local ns p
	_aq_phy_ns=()
	for p in /sys/class/ieee80211/*; do
		[ -e "$p" ] && _aq_phy_ns[${p##*/}]=-
	done
	for ns in $(ip netns list | awk '{print $1}'); do
		for p in $(ip netns exec "$ns" ls /sys/class/ieee80211 2>/dev/null); do
			_aq_phy_ns[$p]=$ns
		done
	done
}

# aq_retry PHY ARGS...: aq-retry in the network namespace that holds PHY
# (the map's entry, checked; scanned again when it is wrong or missing)
aq_retry() {
	local ns=${_aq_phy_ns[$1]:-}
	case $ns in
	-) [ -e "/sys/class/ieee80211/$1" ] || ns= ;;
	?*) ip netns exec "$ns" test -e "/sys/class/ieee80211/$1" || ns= ;;
	esac
	if [ -z "$ns" ]; then
		_aq_phy_scan
		ns=${_aq_phy_ns[$1]:--}
	fi
	if [ "$ns" = - ]; then
		"$AQ_RETRY" "$@"
	else
		ip netns exec "$ns" "$AQ_RETRY" "$@"
	fi
}

netns_new() {
	ip netns add "$1" || return 1
	ip -n "$1" link set lo up
}

phy_to_netns() { # PHY NS
	iw phy "$1" set netns name "$2" ||
		{ echo "phy_to_netns: cannot move $1 to $2" >&2; return 1; }
	_aq_phy_ns[$1]=$2
}

veth_link() { # NS1 IF1 NS2 IF2 [ADDR1/len ADDR2/len]
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
	if [ -n "${5:-}" ]; then
		ip -n "$1" addr add "$5" dev "$2"
		ip -n "$3" addr add "$6" dev "$4"
	fi
}

netem() { # NS IFACE ARGS...
	local ns=$1 ifc=$2
	shift 2
	ip netns exec "$ns" tc qdisc replace dev "$ifc" root netem "$@"
}

# hostapd_start NS IFACE SSID [CHANNEL] [HWMODE] [extra config lines...]
hostapd_start() {
	local ns=$1 ifc=$2 ssid=$3 ch=${4:-1} mode=${5:-g}
	shift 5 2>/dev/null || shift $#
	local conf="$AQ_TMP/hostapd-$ns-$ifc.conf"
	{
		echo "interface=$ifc"
		echo "driver=nl80211"
		echo "ssid=$ssid"
		echo "hw_mode=$mode"
		echo "channel=$ch"
		echo "wmm_enabled=1"
		echo "ctrl_interface=$AQ_TMP/hostapd-$ns"
		printf '%s\n' "$@"
	} >"$conf"
	ip netns exec "$ns" hostapd -B -P "$AQ_TMP/hostapd-$ns.pid" \
		-f "$AQ_TMP/hostapd-$ns.log" "$conf" ||
		{ echo "hostapd failed: $(tail -n 5 "$AQ_TMP/hostapd-$ns.log")" >&2; return 1; }
	local i
	for i in $(seq 50); do
		grep -q 'AP-ENABLED' "$AQ_TMP/hostapd-$ns.log" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "hostapd did not enable: $(tail -n 5 "$AQ_TMP/hostapd-$ns.log")" >&2
	return 1
}

wpa_start() { # NS IFACE SSID [extra network lines...]
	local ns=$1 ifc=$2 ssid=$3
	shift 3
	local conf="$AQ_TMP/wpa-$ns-$ifc.conf"
	{
		echo "ctrl_interface=$AQ_TMP/wpa-$ns"
		echo "network={"
		echo "  ssid=\"$ssid\""
		echo "  key_mgmt=NONE"
		printf '  %s\n' "$@"
		echo "}"
	} >"$conf"
	ip netns exec "$ns" wpa_supplicant -B -i "$ifc" -c "$conf" \
		-P "$AQ_TMP/wpa-$ns.pid" -f "$AQ_TMP/wpa-$ns.log"
}

wait_assoc() { # NS IFACE [TIMEOUT_S]
	local ns=$1 ifc=$2 t=${3:-10} i
	for i in $(seq $((t * 10))); do
		ip netns exec "$ns" iw dev "$ifc" link 2>/dev/null |
			grep -q '^Connected' && return 0
		sleep 0.1
	done
	echo "wait_assoc: $ifc in $ns not associated after ${t}s" >&2
	return 1
}

iperf3_server() { # NS [PORT]
	ip netns exec "$1" iperf3 -s -D -p "${2:-5201}" \
		--pidfile "$AQ_TMP/iperf3-$1-${2:-5201}.pid" || return 1
	sleep 0.3
}

# iperf3_client NS ADDR ARGS...: JSON on stdout.  An iperf3 server runs one
# test at a time and frees itself a moment after the previous client has
# gone (longer in a slow guest); a client refused with "the server is busy"
# is retried, up to 10 times a second apart.
iperf3_client() {
	local ns=$1 addr=$2 out rc i
	shift 2
	for i in {1..10}; do
		rc=0
		out=$(ip netns exec "$ns" iperf3 -c "$addr" -J "$@") || rc=$?
		case "$out" in
		*"server is busy"*) sleep 1 ;;
		*) break ;;
		esac
	done
	printf '%s\n' "$out"
	return $rc
}

iperf3_mbps() { # JSONFILE [sender|receiver] -> Mbit/s of sum_<which>
	jq -r ".end.sum_${2:-received}.bits_per_second / 1e6" "$1" 2>/dev/null
}

sample_ss() { ip netns exec "$1" ss -tin "${@:2}"; }
sample_tc() { ip netns exec "$1" tc -s -j qdisc show dev "$2"; }

# root_counts NS DEV: "entered sent dropped backlog" for DEV's root qdisc
# in NS, to check packet conservation (entered = sent + dropped +
# backlog).  entered is what a matchall filter on DEV's clsact egress
# counted (it runs before the root; a GSO packet counts as its
# segments); the rest are the root's own counters.  The filter and the
# qdisc are two tc runs, and a packet (a neighbour probe, a late FIN)
# can pass between them: counted by one read and not the other.  So read
# until two reads in a row agree, at most 5 times 0.5 s apart; false
# (with the last read printed) if they never did.  Call it with the
# traffic stopped.
root_counts() {
	local ns=$1 dev=$2 cur prev= k
	for k in 1 2 3 4 5; do
		cur="$(ip netns exec "$ns" tc -s -j filter show dev "$dev" egress |
			jq '[.[] | .options.actions[]?.stats.packets // empty] | add // 0') $(
			ip netns exec "$ns" tc -s -j qdisc show dev "$dev" root |
			jq -r '.[0] | "\(.packets) \(.drops) \(.qlen)"')"
		[ "$cur" = "$prev" ] && { echo "$cur"; return 0; }
		prev=$cur
		[ $k -lt 5 ] && sleep 0.5
	done
	echo "$prev"
	return 1
}

chan_freq() { # CHANNEL -> centre frequency in MHz (2.4 and 5 GHz bands)
	local ch=$1
	if [ "$ch" = 14 ]; then echo 2484
	elif [ "$ch" -le 14 ]; then echo $((2407 + 5 * ch))
	else echo $((5000 + 5 * ch)); fi
}

# A standard topology: NS "ap" (phy 0, AP at 10.0.0.1, wired "srv" peer at
# 10.9.0.2 via veth), NS "sta" (phy 1, 10.0.0.2).  hwsim must be loaded.
# Usage: topo_ap_sta_server [CHANNEL] [HWMODE] [hostapd extra lines...]
topo_ap_sta_server() {
	local phys
	phys=($(hwsim_phys))
	[ "${#phys[@]}" -ge 2 ] || { echo "need 2 hwsim radios" >&2; return 1; }
	netns_new ap && netns_new sta && netns_new srv || return 1
	phy_to_netns "${phys[0]}" ap && phy_to_netns "${phys[1]}" sta || return 1
	AP_IF=$(ip netns exec ap iw dev | awk '/Interface/ {print $2; exit}')
	STA_IF=$(ip netns exec sta iw dev | awk '/Interface/ {print $2; exit}')
	export AP_IF STA_IF
	hostapd_start ap "$AP_IF" aqtest "${1:-1}" "${2:-g}" "${@:3}" || return 1
	ip -n ap addr add 10.0.0.1/24 dev "$AP_IF"
	# the station scans only the AP's channel: through a medium every
	# probe request on another channel takes its turn on the air, and a
	# full scan can miss the AP for a minute (seen with the stand-in of
	# testbed/hwsim-patches at 20 ms per frame: 71 s)
	wpa_start sta "$STA_IF" aqtest "scan_freq=$(chan_freq "${1:-1}")" || return 1
	ip -n sta link set "$STA_IF" up
	wait_assoc sta "$STA_IF" 15 || return 1
	ip -n sta addr add 10.0.0.2/24 dev "$STA_IF"
	ip -n sta route add default via 10.0.0.1
	veth_link ap eth-srv srv eth0 10.9.0.1/24 10.9.0.2/24 || return 1
	ip -n srv route add default via 10.9.0.1
	ip netns exec ap sysctl -qw net.ipv4.ip_forward=1
}

# --- benchmarks ----------------------------------------------------------------
# median: the median of the numbers on stdin, one per line
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# pktgen_ns_per_pkt: nanoseconds per packet of the last run, from a pktgen
# device file (/proc/net/pktgen/DEV) on stdin
pktgen_ns_per_pkt() {
	awk '/pps/ { for (i = 1; i <= NF; i++) if ($i ~ /pps$/) {
		sub(/pps/, "", $i); printf "%.1f\n", 1e9 / $i } }'
}

# --- the medium (testbed/medium) --------------------------------------------
# medium_start CONFIG [aqmedium args...]: start aqmedium in the background
# after hwsim_load and before any association (frames need a medium once it
# is registered).  Sets MEDIUM_PID; statistics on the socket $MEDIUM_SOCK
# (medium_stats) and, at medium_stop, in $AQ_TMP/medium-exit.json.  The
# medium's log is $AQ_TMP/medium.log.
MEDIUM_BIN=${MEDIUM_BIN:-${AQ_BUILD:-${AQ_TOP:-/work/main}/build}/medium/aqmedium}
MEDIUM_SOCK=$AQ_TMP/medium.sock
MEDIUM_PID=
medium_start() {
	local conf=$1 i
	shift
	[ -x "$MEDIUM_BIN" ] || { echo "medium_start: $MEDIUM_BIN not built" >&2; return 1; }
	rm -f "$MEDIUM_SOCK" "$AQ_TMP/medium-exit.json"
	"$MEDIUM_BIN" -c "$conf" -u "$MEDIUM_SOCK" -S "$AQ_TMP/medium-exit.json" \
		"$@" 2>"$AQ_TMP/medium.log" &
	MEDIUM_PID=$!
	for i in $(seq 100); do
		[ -S "$MEDIUM_SOCK" ] && kill -0 "$MEDIUM_PID" 2>/dev/null && return 0
		kill -0 "$MEDIUM_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "medium_start: aqmedium did not come up: $(tail -n 3 "$AQ_TMP/medium.log")" >&2
	return 1
}

# medium_snap FILE: the medium's statistics (the JSON medium_stats prints)
# saved as FILE, from the dump the medium writes to $AQ_TMP/medium-exit.json
# on SIGUSR1: no python3 start, which costs seconds of guest time under
# TCG.  The dump is read again until jq takes it whole.  In two steps:
# medium_snap_ask sends the signal and sets MEDIUM_SNAP_T (the guest's time
# of the request, $EPOCHREALTIME), medium_snap_wait FILE waits for the dump
# (for a script that reads other counters between the two).
medium_snap_ask() {
	rm -f "$AQ_TMP/medium-exit.json"
	MEDIUM_SNAP_T=$EPOCHREALTIME
	kill -USR1 "$MEDIUM_PID" 2>/dev/null
}
medium_snap_wait() {
	local f=$AQ_TMP/medium-exit.json i
	# pauses with read -t on a pipe nobody writes to: no sleep process
	[ -n "${_aq_snap_nap:-}" ] || exec {_aq_snap_nap}<> <(:)
	for ((i = 0; i < 250; i++)); do
		jq -e '.time_us and .radios' "$f" >/dev/null 2>&1 &&
			{ cp "$f" "$1"; return 0; }
		read -r -t 0.02 -u "$_aq_snap_nap"
	done
	echo "medium_snap: no statistics from the medium" >&2
	return 1
}
medium_snap() { medium_snap_ask && medium_snap_wait "$1"; }

# medium_stats: the medium's statistics (JSON) on stdout
medium_stats() {
	python3 - "$MEDIUM_SOCK" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
d = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    d += b
sys.stdout.write(d.decode())
PY
}

# medium_sampler SECONDS FILE: the medium's statistics every SECONDS, one
# JSON line each ({"t": guest time, "stats": ...}), until killed; one
# process, so sampling costs no interpreter start per line
medium_sampler() {
	python3 - "$MEDIUM_SOCK" "$1" "$2" <<'PY'
import json, os, socket, sys, time
sock, every, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
parent = os.getppid()
with open(path, "w") as out:
    # until the shell that started it is killed (then the parent changes)
    while os.getppid() == parent:
        t = time.time()
        s = socket.socket(socket.AF_UNIX)
        d = b""
        try:
            s.connect(sock)
            while True:
                b = s.recv(65536)
                if not b:
                    break
                d += b
            out.write(json.dumps({"t": t, "stats": json.loads(d)}) + "\n")
            out.flush()
        except (OSError, ValueError):
            pass
        finally:
            s.close()
        time.sleep(max(0.0, every - (time.time() - t)))
PY
}

# medium_stop: SIGTERM, wait; returns aqmedium's exit status
medium_stop() {
	local rc=0
	[ -n "$MEDIUM_PID" ] || return 0
	kill -TERM "$MEDIUM_PID" 2>/dev/null
	wait "$MEDIUM_PID" || rc=$?
	MEDIUM_PID=
	return $rc
}

# medium_config_bss FILE STD N_STA [DIST_M...]: write a medium config for an
# AP (hwsim radio 0 at the origin) and N stations (radios 1..N) at the given
# distances in metres (default 5 m each), log-distance path loss (exponent 3,
# the medium's defaults otherwise).  STD: b, g, a, n24, n5.  Any other radios
# hwsim has are added as they appear, at the origin.
medium_config_bss() {
	local file=$1 std=$2 n=$3 i d
	shift 3
	{
		printf '{ "phy": { "standard": "%s" }, "unknown_radios": "add",\n' "$std"
		printf '  "hwsim_ext": true,\n  "radios": [\n'
		printf '    { "name": "ap", "hwsim_index": 0, "pos": [0, 0] }'
		for i in $(seq "$n"); do
			d=${1:-5}
			[ $# -gt 0 ] && shift
			printf ',\n    { "name": "sta%d", "hwsim_index": %d, "pos": [%s, 0] }' \
				"$i" "$i" "$d"
		done
		printf '\n  ]\n}\n'
	} >"$file"
}

# topo_bss N_STA [CHANNEL] [HWMODE] [hostapd extra lines...]: an AP and N
# stations on the first N+1 hwsim radios (load hwsim, then start the medium,
# first).  NS "ap" (10.0.0.1, forwarding, wired "srv" at 10.9.0.2 behind
# veth eth-srv), NS "sta1".."staN" (10.0.0.(1+i)), power save off.  Sets
# AP_IF and STA_IFS (array, STA_IFS[i-1] is staI's interface).
topo_bss() {
	local n=$1 phys i ns
	phys=($(hwsim_phys))
	[ "${#phys[@]}" -gt "$n" ] || { echo "topo_bss: need $((n + 1)) hwsim radios" >&2; return 1; }
	netns_new ap && netns_new srv || return 1
	phy_to_netns "${phys[0]}" ap || return 1
	AP_IF=$(ip netns exec ap iw dev | awk '/Interface/ {print $2; exit}')
	hostapd_start ap "$AP_IF" aqtest "${2:-1}" "${3:-g}" "${@:4}" || return 1
	ip -n ap addr add 10.0.0.1/24 dev "$AP_IF"
	STA_IFS=()
	# scan only the AP's channel: a full scan through the medium takes
	# tens of seconds of guest time
	local freq
	freq=$(chan_freq "${2:-1}")
	for i in $(seq "$n"); do
		ns=sta$i
		netns_new "$ns" && phy_to_netns "${phys[$i]}" "$ns" || return 1
		STA_IFS+=("$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')")
		ip -n "$ns" link set "${STA_IFS[i - 1]}" up
		wpa_start "$ns" "${STA_IFS[i - 1]}" aqtest "scan_freq=$freq" || return 1
	done
	for i in $(seq "$n"); do
		ns=sta$i
		wait_assoc "$ns" "${STA_IFS[i - 1]}" 20 || return 1
		ip netns exec "$ns" iw dev "${STA_IFS[i - 1]}" set power_save off 2>/dev/null
		ip -n "$ns" addr add "10.0.0.$((1 + i))/24" dev "${STA_IFS[i - 1]}"
		ip -n "$ns" route add default via 10.0.0.1
	done
	veth_link ap eth-srv srv eth0 10.9.0.1/24 10.9.0.2/24 || return 1
	ip -n srv route add default via 10.9.0.1
	ip netns exec ap sysctl -qw net.ipv4.ip_forward=1
	export AP_IF
}

# --- test-only kernel modules ------------------------------------------------
# testmod_build DIR: the directory holding the built .ko of the test-only
# module whose sources (Kbuild, *.c, *.h) are in DIR (a path in the
# repository).  scripts/check builds them on the host first
# (scripts/build-testmods -> build/testmods/<path>, or testmods/ beside the
# debug kernel's env file when AQ_KENV names it); if that build is missing
# or stale, build in the guest into $AQ_TMP (slow under TCG).  Kbuild files
# get AQ_TOP for include paths.  Fails with the build log's tail on stderr.
testmod_build() {
	local src rel hash out
	src=$(realpath "$1") || return 1
	rel=${src#"${AQ_TOP}"/}
	hash=$( (cd "$src" && cat Kbuild $(ls ./*.c ./*.h 2>/dev/null | sort) &&
		 find "$AQ_TOP/include" -name '*.h' | sort | xargs cat) |
		sha1sum | cut -c1-16)
	# built for the kernel this guest runs (AQ_KENV: Debian's or the debug
	# kernel, whose builds go beside its env file)
	local kenv=${AQ_KENV:-$AQ_BUILD/kernel/env} kb=$AQ_BUILD
	[ "$kenv" = "$AQ_BUILD/kernel/env" ] || kb=$(dirname "$kenv")
	out=$kb/testmods/$rel
	if [ -f "$out/.aq-hash" ] && [ "$(cat "$out/.aq-hash")" = "$hash" ]; then
		echo "$out"
		return 0
	fi
	out=$AQ_TMP/testmods/$rel
	if [ -f "$out/.aq-hash" ] && [ "$(cat "$out/.aq-hash")" = "$hash" ]; then
		echo "$out"
		return 0
	fi
	local kdir
	kdir=$(. "$kenv" && echo "$KDIR")
	rm -rf "$out"
	mkdir -p "$out"
	cp "$src"/Kbuild "$out/"
	cp "$src"/*.c "$out/" 2>/dev/null
	cp "$src"/*.h "$out/" 2>/dev/null
	if make -C "$kdir" M="$out" AQ_TOP="$AQ_TOP" modules >"$out/build.log" 2>&1; then
		echo "$hash" >"$out/.aq-hash"
		echo "$out"
		return 0
	fi
	echo "testmod_build: $rel does not build: $(tail -n 3 "$out/build.log")" >&2
	return 1
}

# --- overlapping BSSs (the obss topology) --------------------------------------
# obss_counts K S [H]: the number of stations of each of K BSSs, comma
# separated: S each, one more in the first H (the retry paper's mix of
# one- and two-station BSSs, whose two-station BSSs show head-of-line
# blocking)
obss_counts() {
	local k=$1 s=$2 h=${3:-0} b out=
	for b in $(seq "$k"); do
		out+="${out:+,}$((s + (b <= h ? 1 : 0)))"
	done
	echo "$out"
}

# obss_bss_of COUNTS J: the BSS of station J (1-based) for per-BSS counts
# COUNTS (comma separated, the last repeated); its index in that BSS (1..)
# on stdout as "B M"
obss_bss_of() {
	local c j=$2 b=0 s
	IFS=, read -ra c <<<"$1"
	for (( ; ; b++)); do
		s=${c[b]:-${c[-1]}}
		((j <= s)) && break
		j=$((j - s))
	done
	echo "$((b + 1)) $j"
}

# obss_total K COUNTS: the stations of K BSSs with per-BSS counts COUNTS
obss_total() {
	local c b t=0
	IFS=, read -ra c <<<"$2"
	for ((b = 0; b < $1; b++)); do
		t=$((t + ${c[b]:-${c[-1]}}))
	done
	echo "$t"
}

# medium_config_obss FILE STD K COUNTS SPACING_M DIST_M: a medium config for
# K co-channel BSSs of one AP and COUNTS stations each (one number for
# all, or one per BSS, comma separated, the last repeated: obss_counts).
# hwsim radios 0..K-1 are the APs ("ap1".."apK"), radios K.. the stations
# ("sta1".."staN", BSS by BSS: obss_bss_of).  The APs stand on a square
# grid (ceil(sqrt K) columns) SPACING_M apart; each AP's stations on a
# circle of DIST_M around it, the first to the north-east (45 degrees, so
# that no station lands on a station of the next row's BSS), the others
# spread evenly.  Log-distance path loss as medium_config_bss (exponent
# 3): with the medium's CCA of -82 dBm a radio hears every other within
# about 116 m.  Each radio names its BSS ("bss": "bss<b>"), for the
# medium's beacon_scope.
medium_config_obss() {
	local file=$1 std=$2 k=$3 s=$4 sp=$5 d=$6
	awk -v std="$std" -v k="$k" -v c="$s" -v sp="$sp" -v d="$d" 'BEGIN {
		pi = atan2(0, -1)
		nc = split(c, cnt, ",")
		cols = int(sqrt(k)); if (cols * cols < k) cols++
		printf "{ \"phy\": { \"standard\": \"%s\" }, \"unknown_radios\": \"add\",\n", std
		printf "  \"hwsim_ext\": true,\n  \"radios\": [\n"
		for (b = 1; b <= k; b++) {
			ax[b] = ((b - 1) % cols) * sp; ay[b] = int((b - 1) / cols) * sp
			printf "%s    { \"name\": \"ap%d\", \"hwsim_index\": %d, \"bss\": \"bss%d\", \"pos\": [%g, %g] }",
				(b > 1 ? ",\n" : ""), b, b - 1, b, ax[b], ay[b]
		}
		j = 0
		for (b = 1; b <= k; b++) {
			s = cnt[b <= nc ? b : nc]
			for (m = 0; m < s; m++) {
				j++
				a = pi / 4 + 2 * pi * m / s
				printf ",\n    { \"name\": \"sta%d\", \"hwsim_index\": %d, \"bss\": \"bss%d\", \"pos\": [%.3f, %.3f] }",
					j, k + j - 1, b, ax[b] + d * cos(a), ay[b] + d * sin(a)
			}
		}
		printf "\n  ]\n}\n"
	}' >"$file"
}

# topo_obss K COUNTS [CHANNEL] [HWMODE] [hostapd extra lines...]: K
# co-channel BSSs with COUNTS stations each (medium_config_obss), on hwsim
# radios 0..K-1 (APs) and K.. (stations); load hwsim and start the medium
# first.  BSS b: NS "apb" (SSID aqobss<b>, 10.(100+b).0.1/24 on the air,
# 10.9.b.1/24 on veth eth-srv to the server), stations "staJ" (J global,
# BSS by BSS, 10.(100+b).0.(1+m) for the m-th station of BSS b).  One wired server NS "srv": veth
# eth<b> at 10.9.b.2/24 towards AP b, and 10.9.0.2/32 on its loopback as
# the common address every flow targets (routed back per BSS).  All
# hostapds start before any wpa_supplicant; the association time goes to
# stdout ("associated in N s").  Sets AP_NSS, AP_IFS, STA_IFS (arrays).
topo_obss() {
	local k=$1 s=$2 ch=${3:-1} mode=${4:-g} phys b j m n ns freq t0 t1
	shift 4 2>/dev/null || shift $#
	n=$(obss_total "$k" "$s")
	phys=($(hwsim_phys))
	[ "${#phys[@]}" -ge $((k + n)) ] ||
		{ echo "topo_obss: need $((k + n)) hwsim radios" >&2; return 1; }
	netns_new srv || return 1
	ip -n srv addr add 10.9.0.2/32 dev lo
	AP_NSS=() AP_IFS=() STA_IFS=()
	t0=$(date +%s.%N)
	for b in $(seq "$k"); do
		ns=ap$b
		netns_new "$ns" && phy_to_netns "${phys[b - 1]}" "$ns" || return 1
		AP_NSS+=("$ns")
		AP_IFS+=("$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')")
		hostapd_start "$ns" "${AP_IFS[b - 1]}" "aqobss$b" "$ch" "$mode" "$@" || return 1
		ip -n "$ns" addr add "10.$((100 + b)).0.1/24" dev "${AP_IFS[b - 1]}"
	done
	freq=$(chan_freq "$ch")
	for j in $(seq "$n"); do
		read -r b m < <(obss_bss_of "$s" "$j")
		ns=sta$j
		netns_new "$ns" && phy_to_netns "${phys[k + j - 1]}" "$ns" || return 1
		STA_IFS+=("$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')")
		ip -n "$ns" link set "${STA_IFS[j - 1]}" up
		wpa_start "$ns" "${STA_IFS[j - 1]}" "aqobss$b" "scan_freq=$freq" || return 1
	done
	t1=$(date +%s.%N)
	for j in $(seq "$n"); do
		read -r b m < <(obss_bss_of "$s" "$j")
		ns=sta$j
		wait_assoc "$ns" "${STA_IFS[j - 1]}" $((60 + 3 * n)) || return 1
		ip netns exec "$ns" iw dev "${STA_IFS[j - 1]}" set power_save off 2>/dev/null
		ip -n "$ns" addr add "10.$((100 + b)).0.$((1 + m))/24" dev "${STA_IFS[j - 1]}"
		ip -n "$ns" route add default via "10.$((100 + b)).0.1"
	done
	echo "associated in $(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s" \
		"(APs up in $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s)"
	for b in $(seq "$k"); do
		ns=ap$b
		veth_link "$ns" eth-srv srv "eth$b" "10.9.$b.1/24" "10.9.$b.2/24" || return 1
		ip -n "$ns" route add default via "10.9.$b.2"
		ip -n srv route add "10.$((100 + b)).0.0/24" via "10.9.$b.1"
		ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1
	done
	export AP_IFS
}
