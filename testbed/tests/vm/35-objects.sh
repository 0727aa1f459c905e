#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# obss's response-time workload end to end, in the guest: two BSSs whose
# stations fetch 20 KiB objects one after another (objects_kb, aq-fetch)
# for 4 s, through testbed/run --here as `make testbed` runs it, in two
# variants (Linux's default and the paper's 3/2).
# Asserts, from the records:
#   - two records, no error, kernel log clean;
#   - every flow fetched objects, none failed, each of 20480 octets, and
#     the flow's goodput is those octets over its time;
#   - no object took less than the two round trips a new connection and
#     its request need (2 x rtt_ms: netem's delay is real);
#   - the metrics response_time_mean_ms, _p95_ms and objects_fetched are
#     the flows' own, and the medium's behind fraction was recorded.
# aq-vm-clock: virtual
# aq-vm-cost: 300  (host seconds: 532 s of guest time, about 420 s of host time beside two other guests on 2 cores, 2026-11-29)
# aq-vm-timeout: 2400  (guest seconds; the clock runs ahead while idle)
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

res=$AQ_TMP/objects
rm -rf "$res"
tap_plan 6
args=(--here --scenario obss --set n_bss=2 --set objects_kb=20 --set duration_s=4
      --set variants=default,fixed-3-2 --results "$res")
timeout 1800 "$AQ_TOP/testbed/run" "${args[@]}" >"$AQ_TMP/objects.log" 2>&1
rc=$?
cp "$AQ_TMP/objects.log" "$AQ_RESULTS/" 2>/dev/null
cp -r "$res" "$AQ_RESULTS/objects-results" 2>/dev/null
recs=("$res"/obss/runs/*.json)
tap_is "$rc ${#recs[@]}" "0 2" "testbed/run --here ran obss with objects_kb=20: two records, exit 0"
[ "$rc" = 0 ] || tap_diag "$(tail -n 5 "$AQ_TMP/objects.log")"

/usr/bin/python3 - "$res" >"$AQ_TMP/objects.tap" <<'PY'
import glob, json, os, sys
recs = {}
for p in sorted(glob.glob(os.path.join(sys.argv[1], "obss", "runs", "*.json"))):
    r = json.load(open(p))
    recs[r["variant"]] = r
def t(cond, desc, why=""):
    print(f"{'ok' if cond else 'not ok'} - {desc}" + (f"\n# {why}" if why and not cond else ""))
flows = [f for r in recs.values() for f in r["flows"]]
for v, r in recs.items():
    m = r["metrics"]
    print(f"# {v}: {m.get('objects_fetched')} objects, mean {m.get('response_time_mean_ms')} ms, "
          f"p95 {m.get('response_time_p95_ms')} ms, goodput {m.get('goodput_mbps')} Mbit/s, "
          f"medium behind {m.get('medium_behind_fraction')}")
t(set(recs) == {"default", "fixed-3-2"}
  and all(r.get("error") is None and r["dmesg"]["clean"] for r in recs.values()),
  "no run failed and the kernel log stayed clean",
  "; ".join(f"{v}: {r.get('error')} {r['dmesg']['bad'][:2]}" for v, r in recs.items()))
raws = glob.glob(os.path.join(sys.argv[1], "obss", "raw", "*", "*", "fetch-*.txt"))
sizes = {line.split()[2] for p in raws for line in open(p) if not line.startswith("#")}
t(len(flows) == 4 and all(f.get("response_ms") and f.get("objects_failed") == 0 for f in flows)
  and sizes == {"20480"},
  "every flow fetched objects of 20480 octets and none failed",
  f"{[(len(f.get('response_ms') or []), f.get('objects_failed')) for f in flows]} sizes {sizes}")
ok = []
for f in flows:
    n = len(f.get("response_ms") or [])
    ok.append(f.get("mbps") and abs(sum(f["interval_mbps"]) - n * 20480 * 8 / 1e6) < 1e-6)
t(flows and all(ok), "each flow's octets per second add up to its objects", str(ok))
rtt = next(iter(recs.values()))["params"]["rtt_ms"] if recs else 0
low = min((x for f in flows for x in f.get("response_ms") or []), default=0)
t(flows and rtt and low >= 2 * rtt, f"no object took less than a connection's two round trips ({low:.1f} ms >= 2 x {rtt} ms)")
mm = [(r["metrics"].get("objects_fetched"),
       sum(len(f["response_ms"]) for f in r["flows"]),
       r["metrics"].get("response_time_mean_ms"),
       sum(x for f in r["flows"] for x in f["response_ms"]) / max(1, sum(len(f["response_ms"]) for f in r["flows"])),
       r["metrics"].get("medium_behind_fraction")) for r in recs.values()]
t(mm and all(a == b and c is not None and abs(c - d) < 1e-6 and e is not None for a, b, c, d, e in mm),
  "the metrics are the flows' objects and times; the medium's behind fraction is recorded", str(mm))
PY
tap_relay "$AQ_TMP/objects.tap"
tap_done
