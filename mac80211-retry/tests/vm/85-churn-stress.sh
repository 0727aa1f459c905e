#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 125  (host seconds, quick counts, 2026-11-28: balances make check's guests)
#
# The Wi-Fi stack under churn (issue #20's stress): the patched mac80211
# and mac80211_hwsim on the testbed's medium, sch_ebdp as the AP's root
# qdisc and tcp_airtime sockets, both bound to mac80211's MAC feedback.
#
#  A. CHURN_ASSOC station disassociate/reassociate cycles (wpa_cli
#     disconnect, reconnect), the five retry policy modes in turn on both
#     phys (off, fixed 3/2, obss, rate, obss+rate), a per-station override
#     on the AP after each association, while a UDP stream from the wired
#     server and an airtime TCP download from the AP (2 Mbit/s each: every
#     frame costs the TCG guest) run through ebdp to the station.  Each cycle reassociates within 20 s and the override
#     reads back; afterwards the station still receives, ebdp took MAC
#     feedback, and ebdp's packets add up (sent + dropped + backlog =
#     enqueued, from its own counters).
#  B. CHURN_RADIOS hwsim radios created and destroyed over generic netlink
#     (testbed/lib/hwsim_radio.py) with the medium attached: each new radio
#     brings its phy and interface, which comes up and scans once, and goes
#     with them when destroyed; the medium adds and drops each (hwsim's
#     NEW_RADIO and DEL_RADIO on its config group), is still running
#     afterwards, and the BSS still passes traffic.
#  C. CHURN_UNLOAD cycles of unloading mac80211_hwsim and mac80211 while
#     sch_ebdp and tcp_airtime are loaded and bound (an airtime connection
#     between two veth namespaces stays open throughout): each unload
#     detaches them (tcp_airtime's feedback reads "none"), each reload
#     binds them again (tcp_airtime within 10 s; ebdp takes MAC feedback on
#     the new AP from a ping flood), and the airtime connection survives
#     every cycle.
#
# Counts: the quick ones in make check (6, 2, 1: every mode once on both
# phys and back to off, every override mode; two radios created and
# destroyed, one after the other; one unload); AQ_STRESS=full (the debug
# kernel's default, make check-debug) runs issue #20's (500, 100, 10);
# each CHURN_* overrides.  What ran, and how much, goes to
# $AQ_RESULTS/stress/wifi-churn.txt.  The kernel log check (any WARN, BUG,
# KASAN, lockdep, kmemleak report) is run-tests' and make check's.
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

CHURN_ASSOC=${CHURN_ASSOC:-$(aq_stress_count 6 500)}
CHURN_RADIOS=${CHURN_RADIOS:-$(aq_stress_count 2 100)}
CHURN_UNLOAD=${CHURN_UNLOAD:-$(aq_stress_count 1 10)}
N=16
tap_plan $N
W=$AQ_TMP/churn
mkdir -p "$W" "$AQ_RESULTS/stress"
export TC_LIB_DIR="$AQ_BUILD/sch_ebdp/tc"
HWSIM_RADIO="$AQ_TOP/testbed/lib/hwsim_radio.py"
MODES=(off fixed obss rate obss+rate)
skip_rest() {
	local i
	for i in $(seq $((N - _tap_n))); do tap_skip "Wi-Fi churn" "$1"; done
	exit 0
}
fail_rest() {
	local i
	for i in $(seq $((N - _tap_n))); do tap_fail "Wi-Fi churn" "$1"; done
	exit 1
}
cleanup() {
	medium_stop >/dev/null 2>&1
	cp "$AQ_TMP/medium.log" "$AQ_TMP/hostapd-ap.log" "$AQ_TMP/wpa-sta1.log" "$W/" 2>/dev/null
	mkdir -p "$AQ_RESULTS/wifi-churn" && cp -r "$W/." "$AQ_RESULTS/wifi-churn/" 2>/dev/null
	aq_cleanup_all >/dev/null 2>&1
	ip netns del cw1 2>/dev/null
	ip netns del cw2 2>/dev/null
	modprobe -r sch_ebdp tcp_airtime 2>/dev/null
}
trap cleanup EXIT

AP() { ip netns exec ap "$@"; }
exec {nap}<> <(:)	# read -t on it: a sleep without a process
need_wifi_tools 2>/dev/null || command -v hostapd >/dev/null ||
	skip_rest "hostapd/wpa_supplicant not installed"
[ -f "$TC_LIB_DIR/q_ebdp.so" ] || skip_rest "q_ebdp.so not built"
modprobe sch_ebdp && modprobe tcp_airtime || skip_rest "our modules do not load"

# the BSS: medium, AP and sta1 (802.11g), root ebdp on the AP, traffic
bss_up() {
	hwsim_load 2 || return 1
	PHYS=($(hwsim_phys))	# topo_bss moves them out of sight
	[ -d "/sys/kernel/debug/ieee80211/${PHYS[0]}/retry" ] ||
		{ echo "mac80211 is not patched (no retry debugfs)"; return 2; }
	medium_config_bss "$W/medium.json" g 1 5
	medium_start "$W/medium.json" || return 1
	topo_bss 1 1 g >"$W/topo.log" 2>&1 || { tail -n 3 "$W/topo.log"; return 1; }
	AP tc qdisc replace dev "$AP_IF" root handle 1: ebdp || return 1
	# what enters the root, counted before it (GSO packets as segments)
	AP tc qdisc add dev "$AP_IF" clsact &&
		AP tc filter add dev "$AP_IF" egress matchall action pass
}
bss_down() {
	medium_stop >/dev/null 2>&1
	pkill -x hostapd; pkill -x wpa_supplicant
	local ns
	for ns in ap srv sta1; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}
ebdp_json() { AP tc -s -j qdisc show dev "$AP_IF" | jq -c '.[] | select(.kind == "ebdp")'; }
feedback() { cat /sys/module/tcp_airtime/parameters/feedback 2>/dev/null; }

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
# (not in $(...): the medium it starts would hold the substitution open)
bss_up >"$W/bss.log" 2>&1; rc=$?
[ $rc = 2 ] && skip_rest "$(tail -n 1 "$W/bss.log")"
[ $rc = 0 ] || fail_rest "BSS with root ebdp: $(tail -n 3 "$W/bss.log" | tr '\n' ' ')"
tap_ok "802.11g AP and sta1 through the medium, root ebdp on the AP ($CHURN_ASSOC reassociations, $CHURN_RADIOS radios, $CHURN_UNLOAD unloads)"
STA_IF=${STA_IFS[0]}
sta_mac=$(ip netns exec sta1 cat "/sys/class/net/$STA_IF/address")

# an airtime connection that lives through everything: two namespaces on
# a veth, 1 Mbit/s (iperf3 paces it), for up to an hour
netns_new cw1 && netns_new cw2 && veth_link cw1 cwa cw2 cwb 10.88.0.1/24 10.88.0.2/24 ||
	fail_rest "veth pair for the long airtime connection"
ip netns exec cw2 iperf3 -s -D -p 5301 --pidfile "$W/cw.pid"
sleep 0.3
ip netns exec cw1 iperf3 -c 10.88.0.2 -p 5301 -C airtime -b 1M -t 3600 \
	>"$W/cw.out" 2>&1 &
cw=$!

# --- A. reassociation churn -------------------------------------------------
# ebdp's and the filter's counts before any traffic (root_counts: the
# set-up sent a packet or two, neighbour discovery, that can fall between
# its two reads); cons prints "entered out"
cons() {
	local c e s d b rc=0
	c=$(root_counts ap "$AP_IF") || rc=1
	read -r e s d b <<<"$c"
	echo "$e $((s + d + b))"
	return $rc
}
c=$(cons) || tap_diag "the counters did not settle before the churn: $c"
read -r enq0 out0 <<<"$c"
ip netns exec sta1 iperf3 -s -D -p 5201 --pidfile "$W/s1.pid"
iperf3_server sta1 5202 >/dev/null
sleep 0.3
ip netns exec srv iperf3 -c 10.0.0.2 -u -b 2M -l 1200 -t 3600 >"$W/udp.out" 2>&1 &
udp=$!
# (not through AP(): $! would be a subshell, and killing it would leave
# iperf3 running)
ip netns exec ap iperf3 -c 10.0.0.2 -p 5202 -C airtime -b 2M -t 3600 >"$W/tcp.out" 2>&1 &
tcp=$!
sleep 1
j0=$(ebdp_json)
wcli() { timeout 10 ip netns exec sta1 wpa_cli -p "$AQ_TMP/wpa-sta1" -i "$STA_IF" "$@" >/dev/null; }
# progress, for whoever watches a long run (the results directory is the
# host's); bash's own clock: no date process per line
prog() { printf '%(%T)T %s\n' -1 "$*" >>"$AQ_RESULTS/wifi-churn.progress"; }
: >"$AQ_RESULTS/wifi-churn.progress"
hlog=$AQ_TMP/hostapd-ap.log
c0=$(grep -c 'AP-STA-CONNECTED' "$hlog")
assoc_ok=0 assoc_fail=0 gone_ok=0 set_fail=0 ovr_ok=0 ovr_fail=0 t_max=0 first_fail=
t0=$(date +%s)
for i in $(seq "$CHURN_ASSOC"); do
	m=${MODES[$(( (i - 1) % 5 ))]}
	prog "A: reassociation $i of $CHURN_ASSOC, mode $m"
	arg=(mode "$m")
	[ "$m" = fixed ] && arg+=(fixed 3/2)
	# (the phys' namespaces are known: topo_bss put them there; aq_retry
	# would look for them with a process per namespace)
	ip netns exec ap "$AQ_RETRY" "${PHYS[0]}" set "${arg[@]}" >/dev/null 2>&1 &&
		ip netns exec sta1 "$AQ_RETRY" "${PHYS[1]}" set "${arg[@]}" >/dev/null 2>&1 ||
		set_fail=$((set_fail + 1))
	prog "A: $i: disconnect"
	wcli disconnect
	# the station's own view: gone within 2 s
	for k in $(seq 20); do
		ip netns exec sta1 iw dev "$STA_IF" link 2>/dev/null | grep -q '^Connected' ||
			{ gone_ok=$((gone_ok + 1)); break; }
		read -r -t 0.1 -u "$nap"
	done
	s=$EPOCHREALTIME
	prog "A: $i: reconnect"
	wcli reconnect
	if wait_assoc sta1 "$STA_IF" 20 2>/dev/null; then
		assoc_ok=$((assoc_ok + 1))
		t_max=$(awk -v a="$t_max" -v s="$s" -v e="$EPOCHREALTIME" \
			'BEGIN { d = e - s; print (d > a ? d : a) }')
	else
		assoc_fail=$((assoc_fail + 1))
		[ -n "$first_fail" ] || first_fail="cycle $i (mode $m)"
		wcli reconnect
		wait_assoc sta1 "$STA_IF" 20 2>/dev/null
	fi
	prog "A: $i: override"
	# a per-station override on the AP, read back (the station entry is
	# new: the AP made it at this association)
	o=${MODES[$(( i % 5 ))]}
	for k in $(seq 20); do
		timeout 10 ip netns exec ap "$AQ_RETRY" "$AP_IF" station "$sta_mac" set mode "$o" >/dev/null 2>&1 && break
		read -r -t 0.1 -u "$nap"
	done
	if timeout 10 ip netns exec ap "$AQ_RETRY" "$AP_IF" station "$sta_mac" show 2>/dev/null | grep -qx "override $o"; then
		ovr_ok=$((ovr_ok + 1))
	else
		ovr_fail=$((ovr_fail + 1))
	fi
done
t_assoc=$(( $(date +%s) - t0 ))
ap_conn=$(( $(grep -c 'AP-STA-CONNECTED' "$hlog") - c0 ))
tap_diag "reassociations: $assoc_ok ok after $gone_ok disconnections, $ap_conn seen by hostapd, $assoc_fail not within 20 s (first: ${first_fail:-none}), slowest ${t_max} s, $t_assoc s in all; mode sets failed $set_fail; overrides read back $ovr_ok, not $ovr_fail"
tap_is "$gone_ok/$assoc_ok/$ap_conn" "$CHURN_ASSOC/$CHURN_ASSOC/$CHURN_ASSOC" \
	"every cycle disconnected, then reassociated within 20 s (the station's and hostapd's view), the retry modes in turn"
tap_is "$set_fail/$ovr_fail" 0/0 "every mode set on both phys, every per-station override read back"

# the station still receives: 1 s of the UDP (and airtime TCP) streams after the churn
ip -n sta1 -s -j link show "$STA_IF" >"$W/l0.json"
read -r -t 1 -u "$nap"
ip -n sta1 -s -j link show "$STA_IF" >"$W/l1.json"
rx=$(( $(jq '.[0].stats64.rx.packets' "$W/l1.json") - $(jq '.[0].stats64.rx.packets' "$W/l0.json") ))
tap_in_range "$rx" 50 100000 "sta1 still receives after the churn (packets in 1 s; 2 Mbit/s UDP is ~200)"
kill "$udp" "$tcp" 2>/dev/null
wait "$udp" "$tcp" 2>/dev/null
sleep 1
j1=$(ebdp_json)
dm=$(( $(echo "$j1" | jq '.samples_mac80211 // 0') - $(echo "$j0" | jq '.samples_mac80211 // 0') ))
tap_in_range "$dm" 1 100000000 "ebdp took MAC feedback samples during the churn"
# conservation: what entered the root during the churn (a clsact
# matchall counter, which runs before it) was sent, dropped or is still
# queued by ebdp (both read when steady, the traffic stopped)
c=$(cons) || tap_diag "the counters did not settle: $c"
read -r enq out <<<"$c"
enq=$((enq - enq0)) out=$((out - out0))
tap_diag "ebdp after the churn: $(ebdp_json | jq -c '{packets, drops, qlen, limit, drops_limit, samples_mac80211}'); before it: entered $enq0, out $out0"
tap_in_range "$enq" 1000 1000000000 "traffic entered ebdp during the churn (packets)"
tap_is "$out" "$enq" "ebdp's packets add up: sent + dropped + backlog = entered"

# --- B. radio churn ----------------------------------------------------------
r0=$(ls /sys/kernel/debug/ieee80211 | wc -l)	# every phy, in any namespace
mlog=$AQ_TMP/medium.log
ma0=$(grep -c 'aqmedium: added radio' "$mlog") md0=$(grep -c 'aqmedium: radio .* deleted' "$mlog")
new_ok=0 new_fail=0 up_ok=0 del_ok=0 del_fail=0 bfail=
t0=$(date +%s)
for i in $(seq "$CHURN_RADIOS"); do
	name=aqchurn$i
	prog "B: radio $i of $CHURN_RADIOS"
	if ! id=$(python3 "$HWSIM_RADIO" new "$name" 2>"$W/radio.err"); then
		new_fail=$((new_fail + 1)); [ -n "$bfail" ] || bfail="new $name: $(cat "$W/radio.err")"
		continue
	fi
	for k in $(seq 50); do
		dev=$(phy_dev "$name")
		[ -n "$dev" ] && break
		read -r -t 0.1 -u "$nap"
	done
	if [ -n "$dev" ]; then
		new_ok=$((new_ok + 1))
		ip link set "$dev" up 2>/dev/null &&
			iw dev "$dev" scan trigger freq 2412 >/dev/null 2>&1 && up_ok=$((up_ok + 1))
		read -r -t 0.3 -u "$nap"
	else
		new_fail=$((new_fail + 1)); [ -n "$bfail" ] || bfail="$name (id $id): no interface"
	fi
	if python3 "$HWSIM_RADIO" del "$id" 2>"$W/radio.err"; then
		for k in $(seq 50); do
			[ -e "/sys/class/ieee80211/$name" ] || break
			read -r -t 0.1 -u "$nap"
		done
		if [ -e "/sys/class/ieee80211/$name" ] || { [ -n "$dev" ] && [ -e "/sys/class/net/$dev" ]; }; then
			del_fail=$((del_fail + 1)); [ -n "$bfail" ] || bfail="$name still there after del"
		else
			del_ok=$((del_ok + 1))
		fi
	else
		del_fail=$((del_fail + 1)); [ -n "$bfail" ] || bfail="del $name: $(cat "$W/radio.err")"
	fi
done
t_radio=$(( $(date +%s) - t0 ))
r1=$(ls /sys/kernel/debug/ieee80211 | wc -l)
m_add=$(( $(grep -c 'aqmedium: added radio' "$mlog") - ma0 ))
m_del=$(( $(grep -c 'aqmedium: radio .* deleted' "$mlog") - md0 ))
tap_diag "radios: $new_ok created with an interface ($up_ok up and scanning), $new_fail not; $del_ok destroyed, $del_fail not (first: ${bfail:-none}); $t_radio s; phys before $r0, after $r1; the medium added $m_add and dropped $m_del"
tap_is "$new_ok/$del_ok" "$CHURN_RADIOS/$CHURN_RADIOS" "every radio created with its interface and destroyed with it"
tap_is "$up_ok/$m_add/$m_del" "$CHURN_RADIOS/$CHURN_RADIOS/$CHURN_RADIOS" \
	"every new radio's interface came up and scanned; the medium added and dropped each (NEW_RADIO, DEL_RADIO)"
tap_is "$r1" "$r0" "the phys are those of before (debugfs, every namespace)"
medium_stats >"$W/medium-b.json" 2>/dev/null
ok sh -c "kill -0 $MEDIUM_PID && jq -e . '$W/medium-b.json'" -- "the medium is still running and answers"
ok ip netns exec ap ping -c 3 -i 0.3 -W 2 -q 10.0.0.2 -- "the BSS still passes traffic (ping AP to sta1)"

# --- C. unload the Wi-Fi stack with our modules bound -----------------------
un_ok=0 un_fail=0 det_ok=0 bind_ok=0 fb_ok=0 cfail=
t0=$(date +%s)
for i in $(seq "$CHURN_UNLOAD"); do
	prog "C: unload $i of $CHURN_UNLOAD"
	[ "$i" = 1 ] || bss_up >"$W/bss.log" 2>&1 ||
		{ cfail=${cfail:-"cycle $i: BSS: $(tail -n 2 "$W/bss.log" | tr '\n' ' ')"}; break; }
	# traffic through ebdp so frames are in flight when the stack goes
	# (ping: the namespaces, and any server in them, are new each cycle)
	ip netns exec srv ping -q -c 200 -i 0.01 -s 1200 10.0.0.2 >/dev/null 2>&1
	if [ "$i" -gt 1 ]; then
		# ebdp on the new AP interface takes MAC feedback
		[ "$(ebdp_json | jq '.samples_mac80211 // 0')" -gt 0 ] && fb_ok=$((fb_ok + 1)) ||
			cfail=${cfail:-"cycle $i: no MAC feedback in ebdp after the reload"}
	fi
	ip netns exec srv ping -q -c 3000 -i 0.01 -s 1200 10.0.0.2 >/dev/null 2>&1 &
	bg=$!
	sleep 0.5
	bss_down
	if modprobe -r mac80211_hwsim mac80211 2>"$W/rmmod.err"; then
		un_ok=$((un_ok + 1))
	else
		un_fail=$((un_fail + 1)); cfail=${cfail:-"cycle $i: $(cat "$W/rmmod.err")"}
	fi
	kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null
	case "$(feedback)" in none*) det_ok=$((det_ok + 1)) ;; *)
		cfail=${cfail:-"cycle $i: tcp_airtime's feedback '$(feedback)' with mac80211 gone"} ;; esac
	modprobe mac80211 || { cfail=${cfail:-"cycle $i: modprobe mac80211"}; break; }
	for k in $(seq 100); do
		[ "$(feedback)" = mac80211 ] && break
		read -r -t 0.1 -u "$nap"
	done
	[ "$(feedback)" = mac80211 ] && bind_ok=$((bind_ok + 1)) ||
		cfail=${cfail:-"cycle $i: tcp_airtime not bound again within 10 s"}
done
# the last reload's ebdp: a BSS again
bss_up >"$W/bss.log" 2>&1 &&
	ip netns exec srv ping -q -c 200 -i 0.01 -s 1200 10.0.0.2 >/dev/null 2>&1 &&
	[ "$(ebdp_json | jq '.samples_mac80211 // 0')" -gt 0 ] && fb_ok=$((fb_ok + 1)) ||
	cfail=${cfail:-"after the last reload: no MAC feedback in ebdp ($(tail -n 2 "$W/bss.log" | tr '\n' ' '))"}
t_unload=$(( $(date +%s) - t0 ))
tap_diag "unloads: $un_ok of $CHURN_UNLOAD, detached $det_ok, bound again $bind_ok, ebdp fed again $fb_ok; $t_unload s (first problem: ${cfail:-none})"
tap_is "$un_ok/$det_ok" "$CHURN_UNLOAD/$CHURN_UNLOAD" "mac80211 unloads with sch_ebdp and tcp_airtime bound, and they detach"
tap_is "$bind_ok/$fb_ok" "$CHURN_UNLOAD/$CHURN_UNLOAD" "after each reload tcp_airtime binds again and ebdp takes MAC feedback"
ok kill -0 "$cw" -- "the airtime connection on the veth lived through it all"
kill "$cw" 2>/dev/null
wait "$cw" 2>/dev/null
# the last BSS's ebdp root holds sch_ebdp: its interface must go first
bss_down
modprobe -r mac80211_hwsim 2>/dev/null
# the killed connection's socket closes (FIN) before airtime is free
for k in $(seq 300); do
	modprobe -r sch_ebdp tcp_airtime 2>/dev/null && break
	read -r -t 0.1 -u "$nap"
done
if grep -qE '^(sch_ebdp|tcp_airtime) ' /proc/modules; then
	tap_fail "our modules unload at the end (within 30 s)" \
		"$(grep -E '^(sch_ebdp|tcp_airtime) ' /proc/modules | tr '\n' ' ')"
	for ns in '' $(ip netns list | awk '{print $1}'); do
		tap_diag "airtime sockets in ${ns:-the initial namespace}: $(${ns:+ip netns exec "$ns"} cat /proc/net/tcp_airtime 2>&1 | cut -c1-120 | tr '\n' ';')" \
			"$(${ns:+ip netns exec "$ns"} ss -tanH 2>&1 | tr '\n' ';')"
	done
else
	tap_ok "our modules unload at the end (within 30 s)"
fi

{
	echo "# Wi-Fi stack churn, $(date -u +%Y-%m-%dT%H:%M:%SZ), kernel $(uname -r)"
	echo "# command: AQ_STRESS=${AQ_STRESS:-} CHURN_ASSOC=$CHURN_ASSOC CHURN_RADIOS=$CHURN_RADIOS CHURN_UNLOAD=$CHURN_UNLOAD mac80211-retry/tests/vm/85-churn-stress.sh"
	echo "reassociations $CHURN_ASSOC disconnected $gone_ok ok $assoc_ok hostapd_connects $ap_conn late $assoc_fail slowest_s $t_max seconds $t_assoc"
	echo "retry_mode_sets $((2 * CHURN_ASSOC)) failed $set_fail station_overrides $CHURN_ASSOC read_back $ovr_ok"
	echo "radios $CHURN_RADIOS created $new_ok scanned $up_ok destroyed $del_ok medium_added $m_add medium_dropped $m_del seconds $t_radio"
	echo "unloads $CHURN_UNLOAD ok $un_ok detached $det_ok rebound $bind_ok ebdp_fed_again $fb_ok seconds $t_unload"
	echo "ebdp entered $enq sent+dropped+backlog $out mac80211_samples $dm"
} >"$AQ_RESULTS/stress/wifi-churn.txt"
tap_done
