#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The results suite end to end, in the guest: the quick form of bufferbloat
# (shortened: 4 s per variant, Linux's default and eBDP) through the common
# runner exactly as `make testbed` runs it (testbed/run --here), then:
# the records validate against run.schema.json and carry measured values;
# the summary judges the eBDP claims from them; the page links its plots;
# a second run with the same arguments runs nothing and keeps the records.
# The flow starts 1 s into the run (flow_start_s) and the medium is sampled
# every second (medium_sample_s): the flow runs 3 s, and the records carry
# the station's occupancy per interval.
# (--here draws no plots: the host test 20-results-suite checks those.)
# aq-vm-clock: virtual
# aq-vm-cost: 220  (host seconds with two guests side by side on 2 cores, 2026-11-26: balances make check's guests)
# aq-vm-timeout: 2400  (guest seconds: 743 were measured in CI for 196 host
#                       seconds, the guest's clock running ahead while idle)
set -u
. "$AQ_TOP/testbed/lib/guest.sh"

res=$AQ_TMP/suite
rm -rf "$res"
tap_plan 9
args=(--here --scenario bufferbloat --set duration_s=4 --set variants=default,ebdp
      --set flow_start_s=1 --set medium_sample_s=1 --results "$res")
timeout 1800 "$AQ_TOP/testbed/run" "${args[@]}" >"$AQ_TMP/suite-1.log" 2>&1
rc=$?
cp "$AQ_TMP/suite-1.log" "$AQ_RESULTS/" 2>/dev/null
recs=("$res"/bufferbloat/runs/*.json)
tap_is "$rc ${#recs[@]}" "0 2" "testbed/run --here ran the job: two records, exit 0"
[ "$rc" = 0 ] || tap_diag "$(tail -n 5 "$AQ_TMP/suite-1.log")"

/usr/bin/python3 - "$res" "$AQ_TOP/testbed/suite/run.schema.json" >"$AQ_TMP/suite-check.tap" <<'PY'
import glob, json, os, sys
import jsonschema
res, schema = sys.argv[1], json.load(open(sys.argv[2]))
recs = {}
for p in sorted(glob.glob(os.path.join(res, "bufferbloat", "runs", "*.json"))):
    r = json.load(open(p))
    recs[r["variant"]] = r
errs = [f"{v}: {e.message[:100]}" for v, r in recs.items()
        for e in jsonschema.Draft202012Validator(schema).iter_errors(r)]
def t(cond, desc, why=""):
    print(f"{'ok' if cond else 'not ok'} - {desc}" + (f"\n# {why}" if why and not cond else ""))
t(set(recs) == {"default", "ebdp"} and not errs, "both records validate against the schema",
  "; ".join(errs[:2]) or str(sorted(recs)))
d, e = recs.get("default", {}), recs.get("ebdp", {})
m = lambda r, k: (r.get("metrics") or {}).get(k)
t(all(r.get("error") is None and r["dmesg"]["clean"] for r in (d, e)),
  "no run failed and the kernel log stayed clean", f"{d.get('error')} {e.get('error')}")
t(all((m(r, "goodput_mbps") or 0) > 5 and len(r["rtt"]["samples"]) >= 20
      and r["medium"]["delta"] and r["medium"]["delta"]["transmissions"] > 1000
      for r in (d, e)),
  "each run measured throughput, RTT samples and the medium's frames",
  f"{m(d, 'goodput_mbps')} {m(e, 'goodput_mbps')} {len(d['rtt']['samples']) if d else '-'}")
lims = [s["limit"] for s in e["qdisc"]["samples"] if s["limit"]] if e else []
t(e and e["qdisc"]["kind"] == "ebdp" and lims and d["qdisc"]["kind"] in (None, "noqueue"),
  "the variants were applied: eBDP as root qdisc with its limit sampled, default without",
  f"{e.get('qdisc', {}).get('kind')} {d.get('qdisc', {}).get('kind')} {lims[:3]}")
t(e and e["guest"]["modules"].get("sch_ebdp", {}).get("ours")
  and e["guest"]["modules"].get("mac80211", {}).get("ours") and e["guest"]["clock"] == "virtual",
  "the record names our modules and the virtual clock")
occ = [r.get("occupancy_series") or {} for r in (d, e)]
t(all(len(r["flows"][0]["interval_mbps"]) == 3 for r in (d, e) if r.get("flows"))
  and all(len(o.get("t", [])) >= 2 and any("sta1" in a for a in o["active"])
          and sum(o["stations"].get("sta1", [])) > 0 for o in occ),
  "a flow started 1 s late runs 3 s; the station's occupancy is sampled while it runs",
  f"{[len(r['flows'][0]['interval_mbps']) for r in (d, e) if r.get('flows')]} "
  f"{[(o.get('t'), o.get('active')) for o in occ]}")
PY
tap_relay "$AQ_TMP/suite-check.tap"

claims=$(jq -r '.papers[] | select(.key == "ebdp") | .claims[] | "\(.id)=\(.status)"' \
	"$res/summary.json" 2>/dev/null | sort | tr '\n' ' ')
# efficiency and astar-delay need fifo400 (and astar), which this
# shortened run leaves out
tap_is "$claims" "astar-delay=no result efficiency=no result queueing-delay=measured " \
	"the summary judges the claim it has data for and says which it has none for"

before=$(stat -c %Y "${recs[@]}" | tr '\n' ' ')
timeout 900 "$AQ_TOP/testbed/run" "${args[@]}" >"$AQ_TMP/suite-2.log" 2>&1
after=$(stat -c %Y "${recs[@]}" | tr '\n' ' ')
if grep -q '0 to run, 2 kept from before' "$AQ_TMP/suite-2.log" && [ "$before" = "$after" ]; then
	tap_ok "a second run with the same arguments runs nothing and keeps the records"
else
	tap_fail "a second run with the same arguments runs nothing and keeps the records" \
		"$(grep -m1 'to run' "$AQ_TMP/suite-2.log")"
fi
tap_done
