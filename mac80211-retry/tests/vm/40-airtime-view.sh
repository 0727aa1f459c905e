#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# aq-vm-clock: virtual
# aq-vm-cost: 100  (host seconds with two guests side by side on 2 cores, 2026-11-28: balances make check's guests)
#
# mac80211-retry: per-interface airtime views (->airtime_slot() and
# ->rate_change() of include/net/mac80211_feedback.h), seen by a test
# consumer (atview/, logs every call to the kernel log), with the patched
# mac80211_hwsim on the testbed's medium: an AP and two stations at
# 802.11g, traffic from the stations to a wired server behind the AP.
#
#  - idle: the AP's slots last n beacon intervals (3 x 102.4 ms), N = 0,
#    beacon airtime within 15 % of the medium's transmit time of the AP
#    (it sends only beacons then);
#  - both stations sending (iperf3): N = 2, both listed, 54 Mbit/s the
#    most frequent rate and every rate a valid 802.11g one, the same for
#    the receive rate (the stations' data frames to the AP); each
#    station's occupancy summed over the slots agrees within 15 % with
#    the medium's airtime between the AP and that station that mac80211
#    can see: the AP's transmissions to it (all attempts) plus the
#    station's transmissions scaled by its success ratio (the AP never
#    sees the attempts that failed); the reported busy time agrees with
#    the medium's busy time within 15 %;
#  - one station sending: N = 1, only it listed;
#  - the stations' own views (source LOCAL: hostapd sends no BSS Load
#    element here) list themselves;
#  - rate changes were reported to ->rate_change() at 54 Mbit/s.
. "$AQ_TOP/testbed/lib/guest.sh"

N=18
tap_plan $N
. "$AQ_TOP/mac80211-retry/tests/vm/lib-atview.sh"
atview_bss $N "airtime view" 2 .
tap_is "$(cat $P/bound)" Y "consumer registered with mac80211"
# no IPv6 chatter (DAD, router solicitations, MLD reports) in the idle
# phase: in one run it made a station active for a tick (N = 1)
for ns in ap sta1 sta2; do
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
done

AP_MAC=$(mac ap "$AP_IF")
STA1_MAC=$(mac sta1 "${STA_IFS[0]}")
STA2_MAC=$(mac sta2 "${STA_IFS[1]}")
iperf3_server srv 5201
iperf3_server srv 5202

# snap NAME: the medium's statistics in $AQ_TMP/medium-NAME.json
# (medium_snap: no python3 start)
snap() { medium_snap "$AQ_TMP/medium-$1.json"; }

# phase 1: idle (after association settled)
sleep 1
phase 1
snap 1a
sleep 2.5
snap 1b
phase 0
# phase 2: both stations send
phase 2
snap 2a
iperf3_client sta1 10.9.0.2 -t 3 -p 5201 >"$AQ_TMP/ip1.json" & p1=$!
iperf3_client sta2 10.9.0.2 -t 3 -p 5202 >"$AQ_TMP/ip2.json" & p2=$!
wait $p1 $p2
sleep 0.8
snap 2b
phase 0
# phase 3: only sta1 sends
sleep 0.5
phase 3
snap 3a
iperf3_client sta1 10.9.0.2 -t 2 -p 5201 >"$AQ_TMP/ip3.json"
sleep 0.8
snap 3b
phase 0
tap_diag "iperf3 Mbit/s: sta1 $(iperf3_mbps "$AQ_TMP/ip1.json") sta2 $(iperf3_mbps "$AQ_TMP/ip2.json") (together), sta1 alone $(iperf3_mbps "$AQ_TMP/ip3.json")"
dmesg | grep 'atview: ' >"$AQ_TMP/atview.log"
cp "$AQ_TMP/atview.log" "$AQ_TMP"/medium-*.json "$AQ_RESULTS/" 2>/dev/null

python3 - "$AQ_TMP" "$AP_MAC" "$STA1_MAC" "$STA2_MAC" >"$AQ_TMP/checks" <<'PY'
import json, statistics, sys
d, ap, s1, s2 = sys.argv[1:5]
slots, rates = [], []
for l in open(f"{d}/atview.log"):
    f = l.split("atview: ", 1)[1].split()
    if f[0] == "slot":
        v = dict(zip(["phase", "dev", "seq", "src", "T", "bcn", "busy", "N",
                      "nsta", "others"], f[1:11]))
        for k in v:
            if k != "dev":
                v[k] = int(v[k])
        v["ts"] = float(l.split("]", 1)[0].lstrip("[ "))
        v["sta"] = {f[i]: (int(f[i + 1]), int(f[i + 2]), int(f[i + 3]))
                    for i in range(11, len(f) - 3, 4)}
        slots.append(v)
    elif f[0] == "rate":
        rates.append((int(f[1]), f[2], f[3], int(f[4])))
def med(p):
    return json.load(open(f"{d}/medium-{p}.json"))
def radio(js, name):
    return next(r for r in js["radios"] if r["name"] == name)
def delta(ph, name, key, peer=None):
    a, b = radio(med(ph + "a"), name), radio(med(ph + "b"), name)
    if peer:
        return b[key].get(peer, 0) - a[key].get(peer, 0)
    return b[key] - a[key]
def out(k, v):
    print(f"{k}={v}")
def view(ph, dev):
    return [v for v in slots if v["phase"] == ph and v["dev"] == dev]

idle = view(1, ap)
out("idle_n", len(idle))
# the mean time between two views (kernel log time stamps), in us
gap = [(b["ts"] - a["ts"]) * 1e6 for a, b in zip(idle, idle[1:])]
# medians: a burst of background frames makes a station active for one
# tick, which ends that slot early (as designed) and shortens it
out("idle_gap", int(statistics.median(gap)) if gap else 0)
out("idle_T", int(statistics.median(v["T"] for v in idle)) if idle else 0)
out("idle_N", int(statistics.median(v["N"] for v in idle)) if idle else -1)
out("idle_N_max", max((v["N"] for v in idle), default=-1))
out("idle_bcn", int(statistics.median(v["bcn"] for v in idle)) if idle else 0)
# the medium's AP transmit time per slot when idle (beacons, mostly)
act = delta("1", "ap", "active_us")
mtx = delta("1", "ap", "tx_us") / act * 307200 if act else 0
out("idle_medium_tx", int(mtx))
bcn = statistics.median(v["bcn"] for v in idle) if idle else 0
out("bcn_ratio", f"{bcn / mtx:.3f}" if mtx else 0)
both = view(2, ap)
busy = [v for v in both if v["N"] > 0]
out("both_n", len(both))
out("both_N_median", int(statistics.median(v["N"] for v in busy)) if busy else 0)
out("both_N_max", max((v["N"] for v in both), default=0))
full = [v for v in busy if set(v["sta"]) >= {s1, s2}]
out("both_listed", len(full))
r = [x[1] for v in both for x in v["sta"].values()]
out("both_rate_mode", statistics.mode(r) if r else 0)
out("both_rate_54", sum(1 for x in r if x == 54000))
out("both_rate_n", len(r))
# 0: unknown yet (a station only heard from), as the contract allows
g = {0, 1000, 2000, 5500, 11000, 6000, 9000, 12000, 18000, 24000, 36000,
     48000, 54000}
out("both_rate_valid", int(bool(r) and all(x in g for x in r)))
rx = [x[2] for v in both for x in v["sta"].values()]
out("both_rx_mode", statistics.mode(rx) if rx else 0)
out("both_rx_valid", int(bool(rx) and all(x in g for x in rx)))
for name, m in (("sta1", s1), ("sta2", s2)):
    occ = sum(v["sta"].get(m, (0, 0))[0] for v in both)
    down = delta("2", "ap", "airtime_to_us", name)
    up = delta("2", name, "airtime_to_us", "ap")
    a, b = radio(med("2a"), name)["ac"], radio(med("2b"), name)["ac"]
    att = sum(b[ac]["attempts"] - a[ac]["attempts"] for ac in b)
    succ = sum(b[ac]["successes"] - a[ac]["successes"] for ac in b)
    seen = down + (up * succ / att if att else 0)
    out(f"occ_{name}", occ)
    out(f"medium_{name}", int(down + up))
    out(f"seen_{name}", int(seen))
    out(f"raw_ratio_{name}", f"{occ / (down + up):.3f}" if down + up else 0)
    out(f"occ_ratio_{name}", f"{occ / seen:.3f}" if seen else 0)
b = sum(v["busy"] for v in both)
mb = delta("2", "ap", "busy_us")
out("busy", b)
out("medium_busy", int(mb))
out("busy_ratio", f"{b / mb:.3f}" if mb else 0)
one = [v for v in view(3, ap) if v["N"] > 0]
out("one_n", len(one))
out("one_N_median", int(statistics.median(v["N"] for v in one)) if one else 0)
out("one_only_sta1", sum(1 for v in one if set(v["sta"]) == {s1}))
# sta1's views while it sends (its occupancy over 10 % of the slot): the
# slots before its iperf3 starts list it with beacons' rx airtime only and
# the rate of its last frame of phase 2 (48 Mbit/s in one run)
st = [v for v in view(3, s1) if v["N"] > 0 and
      v["sta"].get(s1, (0, 0))[0] * 10 > v["T"]]
out("sta1_views", len(st))
out("sta1_views_ok", sum(1 for v in st if v["src"] == 2 and
                         list(v["sta"]) == [s1] and
                         v["sta"][s1][1] == 54000))
out("rates_54", sum(1 for x in rates if x[3] == 54000))
PY
. "$AQ_TMP/checks" 2>/dev/null || tap_diag "checks failed: $(cat "$AQ_TMP/checks")"
tap_diag "$(tr '\n' ' ' <"$AQ_TMP/checks")"

tap_in_range "${idle_gap:-0}" 292000 322000 "idle: AP views arrive every 3 beacon intervals (median us between views)"
tap_in_range "${idle_T:-0}" 292000 322000 "idle: slot length = 3 beacon intervals (median us)"
tap_is "${idle_N:-x}" 0 "idle: no active station (median N)"
tap_in_range "${bcn_ratio:-0}" 0.85 1.15 "idle: beacon airtime / medium's AP transmit time per slot"
tap_is "${both_N_median:-x}" 2 "two stations sending: N = 2 (median over slots)"
tap_in_range "${both_listed:-0}" 5 100 "two stations sending: both listed in most slots"
tap_is "${both_rate_mode:-x}" 54000 "two stations sending: 54000 kbit/s the most frequent rate_kbps"
tap_is "${both_rate_valid:-x}" 1 "two stations sending: every rate_kbps an 802.11b/g rate or 0"
tap_is "${both_rx_mode:-x}" 54000 "two stations sending: 54000 kbit/s the most frequent rx_rate_kbps"
tap_is "${both_rx_valid:-x}" 1 "two stations sending: every rx_rate_kbps an 802.11b/g rate or 0"
tap_in_range "${occ_ratio_sta1:-0}" 0.85 1.15 "sta1 occupancy / medium airtime AP<->sta1 visible to the AP"
tap_in_range "${occ_ratio_sta2:-0}" 0.85 1.15 "sta2 occupancy / medium airtime AP<->sta2 visible to the AP"
tap_in_range "${busy_ratio:-0}" 0.85 1.15 "busy_us / medium busy time of the AP"
tap_is "${one_N_median:-x}" 1 "one station sending: N = 1 (median over slots)"
tap_in_range "$(( ${one_only_sta1:-0} * 10 >= ${one_n:-1} * 8 ))" 1 1 "one station sending: only sta1 listed (>= 80% of slots)"
tap_in_range "$(( ${sta1_views_ok:-0} * 10 >= ${sta1_views:-1} * 8 && ${sta1_views:-0} > 0 ))" 1 1 "sta1's own views: LOCAL source, itself at 54 Mbit/s"
tap_in_range "${rates_54:-0}" 1 1000 "->rate_change() reported 54 Mbit/s"
tap_done
