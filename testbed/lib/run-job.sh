#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the results suite: run one job (one sweep point, one seed;
# testbed/suite/scenario.py wrote it as JSON) and write one record per
# variant to RESULTS/<scenario>/runs/<job>.<variant>.json, raw outputs to
# RESULTS/<scenario>/raw/<job>/<variant>/.  A variant whose record exists
# without an error is not run again (resume) unless AQ_FORCE=1.
#
# The topology is built once per job with testbed/lib/guest.sh: hwsim radios,
# the medium (seeded with the job's seed), an AP with n_sta stations, a wired
# server behind the AP with rtt_ms of netem delay.  Then for each variant:
# apply it (root qdisc, backpressure, modules, sysctls, debugfs knobs),
# run the flows with ping alongside, collect, undo the variant.
#
# Usage (in the guest, as root): testbed/lib/run-job.sh JOB.json RESULTS
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

job=$1
results=$2
say() { echo "[guest] $(date +%H:%M:%S) $*"; }
P() { # a parameter as text (lists joined by commas)
	jq -r --arg k "$1" '.params[$k] | if type == "array" then join(",")
		else tostring end' "$job"
}
scn=$(jq -r .scenario "$job")
id=$(jq -r .id "$job")
seed=$(jq -r .seed "$job")
dest=$results/$scn
out=$AQ_TMP/job/$id
rm -rf "$out"
mkdir -p "$out" "$dest/runs"
export TC_LIB_DIR=$AQ_BUILD/sch_ebdp/tc

nvar=$(jq '.variants | length' "$job")
todo=()
for k in $(seq 0 $((nvar - 1))); do
	v=$(jq -r ".variants[$k].name" "$job")
	# kept: a record without error, made with this variant's definition
	# (its label, note and role aside: scenario.py's COSMETIC)
	if [ "${AQ_FORCE:-0}" != 1 ] && [ -f "$dest/runs/$id.$v.json" ] &&
	   jq -e --argjson s "$(jq -c ".variants[$k]" "$job")" \
		'.error == null and (.variant_spec | del(.label, .note, .role)) ==
		 ($s | del(.label, .note, .role))' "$dest/runs/$id.$v.json" >/dev/null 2>&1; then
		say "$scn $id: $v done before, kept"
		continue
	fi
	todo+=("$k")
done
[ ${#todo[@]} -gt 0 ] || exit 0

topology=$(P topology)
n_sta=$(P n_sta)
downloads=$(P downloads)
uploads=$(P uploads)
# topology obss (a scenario's own parameters, defaults when absent): n_bss
# co-channel BSSs of sta_per_bss stations each, one more in the first
# hol_bss of them, APs bss_spacing_m apart; every station downloads one
# flow (n_sta and downloads follow from them)
if [ "$topology" = obss ]; then
	n_bss=$(P n_bss); [ "$n_bss" = null ] && n_bss=4
	spb=$(P sta_per_bss); [ "$spb" = null ] && spb=1
	hol=$(P hol_bss); [ "$hol" = null ] && hol=0
	[ "$hol" -le "$n_bss" ] || {
		say "$scn $id: hol_bss ($hol) is more than n_bss ($n_bss)"; exit 1; }
	counts=$(obss_counts "$n_bss" "$spb" "$hol")
	spacing=$(P bss_spacing_m); [ "$spacing" = null ] && spacing=10
	n_sta=$(obss_total "$n_bss" "$counts")
	downloads=$n_sta
	[ "$(P sender_behind)" = true ] && {
		say "$scn $id: sender_behind is not supported with topology obss"; exit 1; }
elif [ "$topology" != bss ]; then
	say "$scn $id: unknown topology '$topology' (bss, obss)"
	exit 1
fi
dur=$(P duration_s)
# the stations' access mode (tap-setup's model): RTS/CTS before every
# frame (rts) or basic access
access=basic
[ "$(P rts)" = true ] && access=rts
rtt=$(P rtt_ms)
pint=$(P ping_interval_s)
[ "$downloads" -le "$n_sta" ] && [ "$uploads" -le "$n_sta" ] || {
	say "$scn $id: downloads ($downloads) and uploads ($uploads) need as many stations (n_sta $n_sta)"
	exit 1; }
[ "$((downloads + uploads))" -ge 1 ] || { say "$scn $id: no flows"; exit 1; }

# --- topology ------------------------------------------------------------
if [ "$topology" = obss ]; then
	say "$scn $id: topology: $(P std) obss, $n_bss BSS(s) (AP + $spb station(s) each, $hol of them one more: $n_sta in all), APs ${spacing} m apart, medium $(P medium), wired RTT ${rtt} ms, seed $seed"
else
	say "$scn $id: topology: $(P std) AP + $n_sta station(s), medium $(P medium), wired RTT ${rtt} ms, seed $seed"
fi
# 5 GHz: without a regulatory database the world domain forbids
# initiating radiation on channels 36-48 (hostapd cannot start an AP);
# hwsim's custom world domain 03 (regtest=5) allows them
hwsim_args=()
[ "$(P hw_mode)" = a ] && hwsim_args=(regtest=5)
if [ "$topology" = obss ]; then
	hwsim_load $((n_bss + n_sta)) "${hwsim_args[@]}" || exit 1
else
	hwsim_load $((n_sta + 1)) "${hwsim_args[@]}" || exit 1
fi
if [ "$(P medium)" = true ]; then
	# distance_m: one for all, or a list (station i the i-th, the last
	# repeated)
	dists=()
	for i in $(seq "$n_sta"); do
		dists+=("$(jq -r --argjson i "$i" '.params.distance_m |
			if type == "array" then (.[$i - 1] // .[-1]) else . end' "$job")")
	done
	if [ "$topology" = obss ]; then
		medium_config_obss "$out/medium.json" "$(P std)" "$n_bss" "$counts" "$spacing" "${dists[0]}"
	else
		medium_config_bss "$out/medium.json" "$(P std)" "$n_sta" "${dists[@]}"
	fi
	# the seed and the scenario's medium rules: EDCA or DCF, the slot
	# (short for an ERP BSS whose stations all support it, else long),
	# the BSSBasicRateSet (empty: hostapd's default for the mode, which
	# the medium's default matches), payload capture, EIFS, propagation
	# (per pair from the positions, or fixed), the BSS's preamble, and
	# whether radios are given the frames for others they decode (a
	# scenario's own parameter overhear: the COT stations' N)
	jq --argjson s "$seed" --slurpfile p "$job" '. + {seed: $s} |
		.phy += {edca: $p[0].params.edca, capture: $p[0].params.capture,
			 eifs: $p[0].params.eifs,
			 overhear: ($p[0].params.overhear // false),
			 beacon_scope: ($p[0].params.beacon_scope // "all"),
			 propagation: ($p[0].params.propagation // "positions"),
			 short_preamble: ($p[0].params.short_preamble // false)} |
		if ($p[0].params.basic_rates | length) > 0
		then .phy.basic_rates = ($p[0].params.basic_rates | map(tonumber)) else . end |
		if (.phy.standard == "g" or .phy.standard == "n24") and
		   ($p[0].params.short_slot | not) then .phy.slot_us = 20 else . end' \
		"$out/medium.json" >"$out/medium.json.s" && mv "$out/medium.json.s" "$out/medium.json"
	if [ -n "$(P tap_args)" ]; then
		# the AP's AC_VO as tap-setup would have hostapd set it (AIFSN,
		# CWmin, CWmax and the TXOP)
		# shellcheck disable=SC2046 # the options are words
		"$AQ_TOP/scripts/tap-setup" hostapd $(P tap_args) --access "$access" \
			>"$out/tap-lines.txt" || {
			say "$scn $id: tap-setup hostapd $(P tap_args) failed"; exit 1; }
		tq() { sed -n "s/^tx_queue_data0_$1=//p" "$out/tap-lines.txt"; }
		# burst: hostapd's TXOP in ms (tap-setup: n* - 1 ACKs)
		jq --argjson a "$(tq aifs)" --argjson c "$(tq cwmin)" --argjson x "$(tq cwmax)" \
			--argjson b "$(tq burst)" \
			'.radios[0].edca = {VO: {aifsn: $a, cwmin: $c, cwmax: $x,
						txop_us: ($b * 1000 | round)}}' \
			"$out/medium.json" >"$out/medium.json.s" && mv "$out/medium.json.s" "$out/medium.json"
	fi
	medium_start "$out/medium.json" || exit 1
fi
# a medium that gives radios the frames for others: every station's
# mac80211 counts the active stations it hears, from the start (its
# default, auto, waits for the first one heard: a lone station would
# keep BSS Load's count)
if [ "$(P overhear)" = true ]; then
	echo on >/sys/module/mac80211/parameters/airtime_overhear || {
		say "$scn $id: overhear: mac80211 has no airtime_overhear (not patched?)"; exit 1; }
fi
hostapd_extra=()
[ "$(P short_preamble)" = true ] && hostapd_extra+=("preamble=1")
# hostapd's basic_rates are in units of 100 kbit/s
[ -n "$(P basic_rates)" ] && hostapd_extra+=("basic_rates=$(jq -r '.params.basic_rates |
	map(tonumber * 10 | round | tostring) | join(" ")' "$job")")
while IFS= read -r l; do
	[ -n "$l" ] && hostapd_extra+=("$l")
done < <(jq -r '.params.hostapd // [] | .[]' "$job")
if [ "$topology" = obss ]; then
	if ! topo_obss "$n_bss" "$counts" "$(P channel)" "$(P hw_mode)" "${hostapd_extra[@]}" \
		>"$out/assoc.txt"; then
		say "$scn $id: topology failed: $(tail -n 3 "$AQ_TMP/medium.log" 2>/dev/null)"
		exit 1
	fi
	say "$scn $id: $n_sta station(s) in $n_bss BSS(s) $(cat "$out/assoc.txt")"
	# the AP of sta1 (its ping, the AP-side samples) and every AP
	AP_NS=ap1
	AP_IF=${AP_IFS[0]}
	aq_ap_ns=("${AP_NSS[@]}")
	aq_ap_if=("${AP_IFS[@]}")
else
	if ! topo_bss "$n_sta" "$(P channel)" "$(P hw_mode)" "${hostapd_extra[@]}"; then
		say "$scn $id: topology failed: $(tail -n 3 "$AQ_TMP/medium.log" 2>/dev/null)"
		exit 1
	fi
	AP_NS=ap
	aq_ap_ns=(ap)
	aq_ap_if=("$AP_IF")
fi
phy_of() { # NS IFACE: the interface's phy name
	echo "phy$(ip netns exec "$1" iw dev "$2" info | awk '/wiphy/ {print $2; exit}')"
}
if [ "$(P rts)" = true ]; then
	# RTS threshold 0: RTS/CTS before every frame (mac80211 asks the
	# driver, hwsim tells the medium with the rate's RTS flag)
	for ns in "${aq_ap_ns[@]}" $(seq -f 'sta%g' "$n_sta"); do
		w=$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')
		ph=$(phy_of "$ns" "$w")
		ip netns exec "$ns" iw phy "$ph" set rts 0 || {
			say "$scn $id: iw phy $ph set rts 0 failed in $ns"; exit 1; }
	done
fi
# bitrates (a scenario's own parameter, e.g. "54"): the legacy rates rate
# control may use on every AP and station (iw set bitrates legacy-<band>),
# set after association; absent or empty: every rate
if [ "$(P bitrates)" != null ] && [ -n "$(P bitrates)" ]; then
	band=legacy-2.4
	[ "$(P hw_mode)" = a ] && band=legacy-5
	for ns in "${aq_ap_ns[@]}" $(seq -f 'sta%g' "$n_sta"); do
		w=$(ip netns exec "$ns" iw dev | awk '/Interface/ {print $2; exit}')
		# shellcheck disable=SC2046 # the rates are words
		ip netns exec "$ns" iw dev "$w" set bitrates "$band" $(P bitrates | tr ',' ' ') || {
			say "$scn $id: iw dev $w set bitrates $band $(P bitrates) failed in $ns"; exit 1; }
	done
fi
# sender_behind (a scenario's own parameter): each station's uploads come
# from a host behind it, namespace sndI at 10.8.I.2 on a veth, routed by the
# station.  The station's IP layer orphans forwarded packets, so its queues
# fill as a sender without TCP Small Queues (Linux before 3.6) fills its
# own; segmentation offloads off, so its qdisc counts frames.
if [ "$(P sender_behind)" = true ]; then
	for i in $(seq "$n_sta"); do
		netns_new "snd$i" &&
			veth_link "sta$i" eth-snd "snd$i" eth0 "10.8.$i.1/24" "10.8.$i.2/24" || {
			say "$scn $id: sender behind sta$i: veth failed"; exit 1; }
		ip netns exec "snd$i" ethtool -K eth0 tso off gso off gro off >/dev/null 2>&1
		ip netns exec "sta$i" ethtool -K eth-snd tso off gso off gro off >/dev/null 2>&1
		ip -n "snd$i" route add default via "10.8.$i.1"
		ip netns exec "sta$i" sysctl -qw net.ipv4.ip_forward=1
		ip -n ap route add "10.8.$i.0/24" via "10.0.0.$((1 + i))"
	done
fi
upload_ns() { # I: where station I's upload sender runs
	if [ "$(P sender_behind)" = true ]; then echo "snd$1"; else echo "sta$1"; fi
}
half=$(awk -v r="$rtt" 'BEGIN { printf "%g", r / 2 }')
if [ "$topology" = obss ]; then
	for b in $(seq "$n_bss"); do
		netem srv "eth$b" delay "${half}ms" limit 100000
		netem "ap$b" eth-srv delay "${half}ms" limit 100000
	done
else
	netem srv eth0 delay "${half}ms" limit 100000
	netem ap eth-srv delay "${half}ms" limit 100000
fi
phy=$(phy_of "$AP_NS" "$AP_IF")
dbg=/sys/kernel/debug/ieee80211/$phy
# every AP's debugfs directory (one in a bss), then every station's
aq_ap_dbg=()
for a in "${!aq_ap_ns[@]}"; do
	aq_ap_dbg+=("/sys/kernel/debug/ieee80211/$(phy_of "${aq_ap_ns[a]}" "${aq_ap_if[a]}")")
done
aq_sta_dbg=()
for i in $(seq "$n_sta"); do
	aq_sta_dbg+=("/sys/kernel/debug/ieee80211/$(phy_of "sta$i" "${STA_IFS[i - 1]}")")
done
ip netns exec sta1 ping -n -c 20 -i 0.1 -W 2 10.9.0.2 >"$out/ping-idle.txt" 2>&1
say "$scn $id: associated; idle RTT $(awk -F/ '/^rtt/ {print $5}' "$out/ping-idle.txt") ms"

# one iperf3 server per flow on the wired host
nflows=$((downloads + uploads))
for f in $(seq "$nflows"); do iperf3_server srv $((5200 + f)) || exit 1; done
# objects_kb: every download fetches objects of that many KiB one after
# another, a connection each (aq-fetch, testbed/tools: the OBSS paper's
# response time), from one aq-fetch server on the wired host
objs=$(P objects_kb)
[ "$objs" = null ] && objs=0
fetch=$AQ_BUILD/tools/aq-fetch
if [ "$objs" != 0 ]; then
	[ -x "$fetch" ] || { say "$scn $id: objects_kb: no $fetch (make -C testbed/tools)"; exit 1; }
	ip netns exec srv "$fetch" -l 5300 2>"$out/aq-fetch-server.err" &
	fetch_srv=$!
	sleep 0.2
	kill -0 "$fetch_srv" 2>/dev/null || {
		say "$scn $id: aq-fetch server: $(cat "$out/aq-fetch-server.err")"; exit 1; }
fi

sta1_mac=$(ip netns exec sta1 cat "/sys/class/net/${STA_IFS[0]}/address")
namespaces() {
	echo "${aq_ap_ns[@]}" srv
	for i in $(seq "$n_sta"); do
		echo "sta$i"
		[ "$(P sender_behind)" = true ] && echo "snd$i"
	done
	return 0
}
export AP_IF AQ_TOP AQ_TMP AQ_RETRY
# the model's n* for the scenario's tap-setup options, in the stations'
# access mode
if [ -n "$(P tap_args)" ]; then
	# shellcheck disable=SC2046
	"$AQ_TOP/scripts/tap-setup" nstar $(P tap_args) --access "$access" --json 2>/dev/null |
		jq '.results[0].nstar_real' >"$out/nstar.txt"
fi
# flow_start_s: each flow's start, seconds after the first (flows in
# order: the downloads, then the uploads; missing entries start at 0); a
# flow runs until the run's end, duration_s after the first started
IFS=, read -ra flow_start <<<"$(P flow_start_s)"
start_of() { # FLOW: its start offset in whole seconds
	local s=${flow_start[$1 - 1]:-0}
	printf '%.0f' "$s"
}
for f in $(seq "$nflows"); do
	[ "$(start_of "$f")" -lt "$dur" ] || {
		say "$scn $id: flow_start_s: flow $f starts at $(start_of "$f") s, not before the run's end (duration_s $dur)"
		exit 1
	}
done
# medium_sample_s: the medium's statistics every so many seconds during
# the flows (0: before and after only), for per-second channel occupancy
msample=$(P medium_sample_s)
mss=$(P mss)
mss_opt=()
[ "$mss" != 0 ] && mss_opt=(-M "$mss")
[ -n "$(P tcp_window)" ] && mss_opt+=(-w "$(P tcp_window)")

# run_ap_cmds INDEX KEY: the variant's KEY (ap_exec, ap_undo) commands in
# every AP's namespace (one in a bss), with its $AP_IF
run_ap_cmds() {
	local c a
	for a in "${!aq_ap_ns[@]}"; do
		while IFS= read -r c; do
			[ -n "$c" ] || continue
			AP_IF=${aq_ap_if[a]} ip netns exec "${aq_ap_ns[a]}" bash -c "$c" || {
				echo "$2: '$c' failed" >&2; return 1; }
		done < <(jq -r ".variants[$1].$2 // [] | .[]" "$job")
	done
}

# run_sta_cmds INDEX KEY: the variant's KEY (sta_exec, sta_undo) commands in
# every station's namespace, with $STA_IF and $STA_PHY (its phy's name, for
# /sys/kernel/debug/ieee80211/$STA_PHY) set
run_sta_cmds() {
	local c i w ph
	for i in $(seq "$n_sta"); do
		w=${STA_IFS[i - 1]}
		ph=${aq_sta_dbg[i - 1]##*/}
		while IFS= read -r c; do
			[ -n "$c" ] || continue
			# ip netns exec mounts a fresh /sys, hiding debugfs: mount
			# it again in that private mount namespace
			STA_IF=$w STA_PHY=$ph ip netns exec "sta$i" bash -c \
				"mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; $c" || {
				echo "$2: '$c' failed in sta$i" >&2; return 1; }
		done < <(jq -r ".variants[$1].$2 // [] | .[]" "$job")
	done
}

# --- variants --------------------------------------------------------------
# retry_undo_args SHOW KEY VALUE...: the aq-retry set arguments that put
# back, from SHOW (aq-retry PHY show), what KEY VALUE... changes
retry_undo_args() {
	local show=$1 key
	shift
	while [ $# -ge 2 ]; do
		key=$1
		shift 2
		case $key in
		fixed) awk '$1 == "fixed_ap" {a = $2} $1 == "fixed_sta" {s = $2}
			END {printf "fixed %s/%s ", a, s}' <<<"$show" ;;
		prob) awk '$1 == "prob_cs_succ" {printf "prob %s ", $3 == "auto" ? "auto" : $2}' <<<"$show" ;;
		*) awk -v k="$key" '$1 == k {printf "%s %s ", k, $2}' <<<"$show" ;;
		esac
	done
}

undo=()
apply_variant() { # INDEX: apply, remembering how to undo in undo[]
	local k=$1 m key val ns old p
	undo=()
	for m in $(jq -r ".variants[$k].modules // [] | .[]" "$job"); do
		modprobe "$m" || { echo "modprobe $m failed" >&2; return 1; }
	done
	while IFS=$'\t' read -r key val; do
		[ -n "$key" ] || continue
		for ns in $(namespaces); do
			old=$(ip netns exec "$ns" sysctl -n "$key" 2>/dev/null) || {
				echo "sysctl $key: no such key" >&2; return 1; }
			undo+=("ip netns exec $ns sysctl -qw $key=$old")
			ip netns exec "$ns" sysctl -qw "$key=$val" || return 1
		done
	done < <(jq -r ".variants[$k].sysctl // {} | to_entries[] | [.key, .value] | @tsv" "$job")
	local d
	for d in "${aq_ap_dbg[@]}"; do
		while IFS=$'\t' read -r key val; do
			[ -n "$key" ] || continue
			p=$d/$key
			[ -w "$p" ] || { echo "ap_debugfs: $p is not writable" >&2; return 1; }
			undo+=("echo $(head -n 1 "$p" | awk '{print $1}') >$p")
			echo "$val" >"$p" || { echo "ap_debugfs: $key=$val refused" >&2; return 1; }
		done < <(jq -r ".variants[$k].ap_debugfs // {} | to_entries[] | [.key, .value] | @tsv" "$job")
	done
	# all_debugfs: the same on every AP's and every station's phy, in the
	# table's order; undone in the reverse order
	local all_undo=() j
	for d in "${aq_ap_dbg[@]}" "${aq_sta_dbg[@]}"; do
		while IFS=$'\t' read -r key val; do
			[ -n "$key" ] || continue
			p=$d/$key
			[ -w "$p" ] || { echo "all_debugfs: $p is not writable" >&2; undo+=("${all_undo[@]}"); return 1; }
			all_undo=("echo $(head -n 1 "$p" | awk '{print $1}') >$p" "${all_undo[@]}")
			echo "$val" >"$p" || { echo "all_debugfs: $key=$val refused by $p" >&2
				undo+=("${all_undo[@]}"); return 1; }
		done < <(jq -r ".variants[$k].all_debugfs // {} | to_entries[] | [.key, .value] | @tsv" "$job")
	done
	undo+=("${all_undo[@]}")
	# retry: aq-retry settings (mode, fixed, prob and the parameters) on
	# every AP's and every station's phy, through the retry policy's
	# nl80211 vendor commands; undone with the values shown before
	local r_set=() ph old
	while IFS=$'\t' read -r key val; do
		[ -n "$key" ] && r_set+=("$key" "$val")
	done < <(jq -r ".variants[$k].retry // {} | to_entries[] | [.key, (.value | tostring)] | @tsv" "$job")
	if [ "${#r_set[@]}" -gt 0 ]; then
		for d in "${aq_ap_dbg[@]}" "${aq_sta_dbg[@]}"; do
			ph=${d##*/}
			old=$(aq_retry "$ph" show) || {
				echo "retry: $ph has no retry policy (patched mac80211?)" >&2; return 1; }
			undo+=("aq_retry $ph set $(retry_undo_args "$old" "${r_set[@]}")")
			aq_retry "$ph" set "${r_set[@]}" || {
				echo "retry: '${r_set[*]}' refused by $ph" >&2; return 1; }
		done
	fi
	local bp
	bp=$(jq -r ".variants[$k].backpressure // \"\"" "$job")
	if [ -n "$bp" ]; then
		for d in "${aq_ap_dbg[@]}"; do
			[ -w "$d/backpressure/mode" ] || {
				echo "backpressure: $d/backpressure/mode missing (patched mac80211?)" >&2; return 1; }
			undo+=("echo auto >$d/backpressure/mode")
			echo "$bp" >"$d/backpressure/mode" || return 1
		done
	fi
	local q a
	q=$(jq -r ".variants[$k].qdisc // \"\"" "$job")
	for a in "${!aq_ap_ns[@]}"; do
		ip netns exec "${aq_ap_ns[a]}" tc qdisc del dev "${aq_ap_if[a]}" root 2>/dev/null
		if [ -n "$q" ]; then
			# shellcheck disable=SC2086 # the tc spec is words
			ip netns exec "${aq_ap_ns[a]}" tc qdisc add dev "${aq_ap_if[a]}" root $q || return 1
		fi
		undo+=("ip netns exec ${aq_ap_ns[a]} tc qdisc del dev ${aq_ap_if[a]} root")
	done
	undo+=("run_ap_cmds $k ap_undo")
	run_ap_cmds "$k" ap_exec || return 1
	undo+=("run_sta_cmds $k sta_undo")
	run_sta_cmds "$k" sta_exec || return 1
}

undo_variant() {
	local c
	for c in "${undo[@]}"; do eval "$c" 2>/dev/null; done
	undo=()
}

# retry_stats: every phy's retry policy (mode, fixed limits, counters, its
# prob_cs_succ and per-station state lines; the counters run since the phy
# was made, collect.py takes the difference)
retry_stats() {
	local a i
	for a in "${!aq_ap_ns[@]}"; do
		retry_dump "${aq_ap_ns[a]}" "${aq_ap_dbg[a]}"
	done
	for i in $(seq "$n_sta"); do
		retry_dump "sta$i" "${aq_sta_dbg[i - 1]}"
	done
}

# retry_dump NAME DEBUGFS_DIR: one phy's part of retry_stats, with bash's
# own reads only: at K = 40 (90 phys, before and after every run) a
# process per file was 900 execs a run, each a round trip to the host's
# file system that under the virtual clock moves guest time on
retry_dump() {
	local d=$2/retry mode fixed line p src
	read -r mode <"$d/mode"
	read -r fixed <"$d/fixed"
	echo "== $1 ${2##*/} mode $mode fixed $fixed"
	while IFS= read -r line || [ -n "$line" ]; do
		echo "$line"
	done <"$d/stats"
	while read -r p src _ || [ -n "$p" ]; do
		echo "prob_cs_succ_permille $p"
		echo "prob_cs_source $src"
	done <"$d/prob_cs_succ"
	while IFS= read -r line || [ -n "$line" ]; do
		echo "station $line"
	done <"$d/stations"
}

run_flows() { # RAWDIR CC: every flow for $dur s, ping from sta1 alongside
	local raw=$1 cc=$2 f i off t0 pids=() ping_pid tc_pid rate_pid sample_pid= air_pid= ns
	medium_stats >"$raw/medium-before.json" 2>/dev/null
	# the guest's CPU over the flows (the first line of /proc/stat before
	# and after): a guest busy throughout measured its own CPU
	head -n 1 /proc/stat >"$raw/cpu.txt"
	ps -eo pid,comm,cputimes --sort=-cputimes >"$raw/ps-before.txt" 2>/dev/null
	# and half-way through, while the flows' own processes still run
	# (ps-after.txt no longer sees those that exited)
	{ sleep "$(( (dur + 1) / 2 ))"
	  ps -eo pid,comm,cputimes --sort=-cputimes >"$raw/ps-during.txt" 2>/dev/null; } &
	[ "$topology" = obss ] && retry_stats >"$raw/retry-stats-before.txt" 2>&1
	ip netns exec sta1 ping -n -i "$pint" -W 2 -w $((dur + 2)) 10.9.0.2 \
		>"$raw/ping.txt" 2>&1 &
	ping_pid=$!
	# the root qdisc every 0.5 s (its length, limit, service time): the
	# AP's (q) and sta1's (sq: an upload's sender queues there)
	( while kill -0 "$ping_pid" 2>/dev/null; do
		echo "{\"t\": $(date +%s.%N), \"q\": $(ip netns exec "$AP_NS" tc -s -j qdisc show dev "$AP_IF" root 2>/dev/null || echo null), \"sq\": $(ip netns exec sta1 tc -s -j qdisc show dev "${STA_IFS[0]}" root 2>/dev/null || echo null)}"
		sleep 0.5
	  done ) >"$raw/tc-samples.jsonl" 2>/dev/null &
	tc_pid=$!
	# the PHY rates rate control picks, every second: sta1's own (its
	# uploads) and the AP's towards sta1 (downloads), from iw
	( while kill -0 "$ping_pid" 2>/dev/null; do
		printf '%s sta %s ap %s\n' "$(date +%s.%N)" \
			"$(ip netns exec sta1 iw dev "${STA_IFS[0]}" station dump 2>/dev/null |
			   awk '/tx bitrate:/ {print $3; exit}')" \
			"$(ip netns exec "$AP_NS" iw dev "$AP_IF" station get "$sta1_mac" 2>/dev/null |
			   awk '/tx bitrate:/ {print $3; exit}')"
		sleep 1
	  done ) >"$raw/phy-rates.txt" 2>/dev/null &
	rate_pid=$!
	# tcp_airtime's inputs and caps every second while it is loaded: its
	# cached views (module parameter) and, per namespace, every socket
	# (/proc/net/tcp_airtime: source, N, share, wnd_max, rcv_cap)
	if [ -d /sys/module/tcp_airtime ]; then
		( while kill -0 "$ping_pid" 2>/dev/null; do
			echo "@ $(date +%s.%N)"
			cat /sys/module/tcp_airtime/parameters/views 2>/dev/null
			for ns in $(ip netns list | awk '{print $1}'); do
				ip netns exec "$ns" cat /proc/net/tcp_airtime 2>/dev/null |
					sed "s/^/$ns /"
			done
			sleep 1
		  done ) >"$raw/airtime-samples.txt" 2>/dev/null &
		air_pid=$!
	fi
	f=0
	if [ "$msample" != 0 ]; then
		medium_sampler "$msample" "$raw/medium-samples.jsonl" &
		sample_pid=$!
	fi
	# flows.txt: per flow its number, direction, station, the guest time
	# the run's flows began (t0), its start offset and the run's length (s)
	t0=$(date +%s.%N)
	: >"$raw/flows.txt"
	for i in $(seq "$downloads"); do
		f=$((f + 1))
		off=$(start_of "$f")
		echo "$f down sta$i $t0 $off $dur" >>"$raw/flows.txt"
		if [ "$objs" != 0 ]; then
			{ sleep "$off"; exec timeout $((dur + 60)) ip netns exec "sta$i" "$fetch" \
				-c 10.9.0.2 -p 5300 -s $((objs * 1024)) -t $((dur - off)) -C "$cc" \
				>"$raw/fetch-$f-down-sta$i.txt" 2>&1; } &
		else
			{ sleep "$off"; exec timeout $((dur + 60)) ip netns exec "sta$i" iperf3 -c 10.9.0.2 \
				-p $((5200 + f)) -J -t $((dur - off)) -i 1 -R -C "$cc" "${mss_opt[@]}" \
				>"$raw/iperf3-$f-down-sta$i.json" 2>&1; } &
		fi
		pids+=($!)
	done
	for i in $(seq "$uploads"); do
		f=$((f + 1))
		off=$(start_of "$f")
		echo "$f up sta$((n_sta - i + 1)) $t0 $off $dur" >>"$raw/flows.txt"
		# the upload's sender is the station (or the host behind it): the
		# cc applies there
		{ sleep "$off"; exec timeout $((dur + 60)) ip netns exec "$(upload_ns $((n_sta - i + 1)))" \
			iperf3 -c 10.9.0.2 -p $((5200 + f)) -J -t $((dur - off)) -i 1 -C "$cc" "${mss_opt[@]}" \
			>"$raw/iperf3-$f-up-sta$((n_sta - i + 1)).json" 2>&1; } &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i"; done
	wait "$ping_pid"
	kill "$tc_pid" "$rate_pid" ${sample_pid:+"$sample_pid"} ${air_pid:+"$air_pid"} 2>/dev/null
	wait "$tc_pid" "$rate_pid" ${sample_pid:+"$sample_pid"} ${air_pid:+"$air_pid"} 2>/dev/null
	medium_stats >"$raw/medium-after.json" 2>/dev/null
	head -n 1 /proc/stat >>"$raw/cpu.txt"
	# where the guest's CPU went (seconds per process, kernel threads
	# too; the difference from ps-before.txt is the flows')
	ps -eo pid,comm,cputimes --sort=-cputimes >"$raw/ps-after.txt" 2>/dev/null
	ip netns exec "$AP_NS" tc -s -j qdisc show dev "$AP_IF" >"$raw/tc-final.json" 2>/dev/null
	[ -r "$dbg/backpressure/stats" ] && cat "$dbg/backpressure/stats" >"$raw/backpressure.txt"
	[ "$topology" = obss ] && retry_stats >"$raw/retry-stats.txt" 2>&1
	return 0
}

for k in "${todo[@]}"; do
	v=$(jq -r ".variants[$k].name" "$job")
	raw=$out/$v
	mkdir -p "$raw"
	cc=$(jq -r --arg d "$(P cc)" ".variants[$k].cc // \$d" "$job")
	dmesg --read-clear >/dev/null 2>&1
	t0=$(date +%s.%N)
	if ! apply_variant "$k" 2>"$raw/apply.err"; then
		say "$scn $id: $v: cannot apply: $(head -n 2 "$raw/apply.err" | tr '\n' ' ')"
		undo_variant
		echo "{\"error\": \"cannot apply the variant: $(head -n 1 "$raw/apply.err" | tr -d '"\\')\"}" \
			>"$raw/error.json"
	else
		say "$scn $id: $v: $((downloads + uploads)) flow(s) for ${dur} s ($cc)"
		run_flows "$raw" "$cc"
		undo_variant
	fi
	t1=$(date +%s.%N)
	dmesg >"$raw/dmesg.txt" 2>/dev/null
	cp "$out/ping-idle.txt" "$raw/"
	cp "$out/medium.json" "$raw/medium-config.json" 2>/dev/null
	cp "$out/nstar.txt" "$raw/" 2>/dev/null
	cp "$out/assoc.txt" "$raw/" 2>/dev/null
	# what the run cost the guest: memory in use (MemTotal - MemAvailable)
	# at its end, and the medium's peak resident set (VmHWM), in kB
	mem_kb=$(awk '/^MemTotal:/ {t = $2} /^MemAvailable:/ {a = $2} END {print t - a}' /proc/meminfo)
	hwm_kb=null
	[ -n "$MEDIUM_PID" ] &&
		hwm_kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$MEDIUM_PID/status" 2>/dev/null)
	printf '{"guest_start": %s, "guest_end": %s, "kernel": "%s", "clock": "%s", "mem_used_kb": %s, "medium_hwm_kb": %s}\n' \
		"$t0" "$t1" "$(uname -r)" "${AQ_CLOCK:-wall}" "$mem_kb" "${hwm_kb:-null}" >"$raw/times.json"
	for m in mac80211 mac80211_hwsim sch_ebdp tcp_airtime; do
		printf '%s\t%s\t%s\n' "$m" "$(modinfo -n "$m" 2>/dev/null)" \
			"$(modinfo -F srcversion "$m" 2>/dev/null)"
	done >"$raw/modules.tsv"
	# the loaded modules' parameters as the run left them (tcp_airtime's
	# views apart: its samples have them)
	for m in mac80211 mac80211_hwsim sch_ebdp tcp_airtime; do
		for f in /sys/module/"$m"/parameters/*; do
			[ -r "$f" ] && [ "${f##*/}" != views ] || continue
			pv=
			IFS= read -r pv <"$f" 2>/dev/null || [ -n "$pv" ] || continue
			printf '%s\t%s\t%s\n' "$m" "${f##*/}" "$pv"
		done
	done >"$raw/params.tsv" 2>/dev/null
	python3 "$AQ_TOP/testbed/suite/collect.py" "$job" "$v" "$raw" >"$raw/run.json" 2>"$raw/collect.err" ||
		say "$scn $id: $v: collect failed: $(tail -n 1 "$raw/collect.err")"
	rm -rf "$dest/raw/$id/$v"
	mkdir -p "$dest/raw/$id/$v"
	cp -a "$raw/." "$dest/raw/$id/$v/"
	if [ -s "$raw/run.json" ]; then
		cp "$raw/run.json" "$dest/runs/.$id.$v.json.tmp" &&
			mv "$dest/runs/.$id.$v.json.tmp" "$dest/runs/$id.$v.json"
		say "$scn $id: $v: $(jq -r '.metrics | "\(.goodput_mbps // "-" | tostring) Mbit/s, RTT p95 \(.rtt_p95_ms // "-" | tostring) ms" +
			(if (.medium_late_wakeups // 0) > 0 then "; the medium acted over 1 ms late \(.medium_late_wakeups) times (the guest fell behind; many such mean a slower channel than modelled)" else "" end) +
			(if (.medium_behind_fraction // 0) > 0.05 then "; GUEST-BOUND: the medium was over 1 ms behind for \(.medium_behind_fraction * 100 | floor) % of the flows'"'"' time, no claim is judged on this run" else "" end) +
			(if (.guest_cpu_busy // 0) > 0.95 then "; GUEST-BOUND: the guest'"'"'s CPU was busy \(.guest_cpu_busy * 1000 | floor / 10) % of the flows'"'"' time, no claim is judged on this run" else "" end)' "$raw/run.json")"
	fi
done
[ -n "${fetch_srv:-}" ] && kill "$fetch_srv" 2>/dev/null
medium_stop
exit 0
