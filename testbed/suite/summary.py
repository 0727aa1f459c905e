# SPDX-License-Identifier: GPL-2.0
"""Aggregate run records and judge the papers' claims.

Everything printed comes from two places: the run records (ours, Linux's
default) and testbed/papers.toml (the paper's value and where it stands).
A verdict is computed from ours / paper against the claim's bands, never
stored: change a number in a record and the verdict follows.
"""
import glob
import json
import math
import os
import statistics
import tomllib

from . import scenario as sc

PAPERS = os.path.join(sc.TOP, "testbed", "papers.toml")
# Student's t for a two-sided 95 % interval, by degrees of freedom
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(df):
    if df in T95:
        return T95[df]
    for k in sorted(T95):
        if k > df:
            return T95[k]
    return 1.96


def load_papers(path=PAPERS):
    with open(path, "rb") as f:
        return tomllib.load(f)["papers"]


def load_runs(dirs):
    """Every run record under DIR/<scenario>/runs/ of each DIR, keyed by
    (scenario, job, variant); a later DIR's copy of the same run wins."""
    runs = {}
    for d in dirs:
        for p in sorted(glob.glob(os.path.join(d, "*", "runs", "*.json"))):
            try:
                with open(p) as f:
                    r = json.load(f)
            except (OSError, ValueError):
                continue
            if r.get("schema") != "airqueue-run/1":
                continue
            r["_file"] = p
            runs[(r["scenario"], r["job"], r["variant"])] = r
    return list(runs.values())


def stat(values):
    """mean, 95 % CI half-width (None for one value), n of the non-None values."""
    v = [x for x in values if x is not None and not (isinstance(x, float) and math.isnan(x))]
    if not v:
        return {"mean": None, "ci95": None, "n": 0, "values": []}
    ci = None
    if len(v) > 1:
        ci = t95(len(v) - 1) * statistics.stdev(v) / math.sqrt(len(v))
    return {"mean": statistics.fmean(v), "ci95": ci, "n": len(v), "values": v}


# Parameters that never make two runs different points: how many seeds, and
# which variants a run included.
NOT_A_POINT = ("seeds", "variants")


def effective_points(runs):
    """Each run's point: its sweep point, plus every parameter whose value
    differs between the runs of its scenario.  Runs made with --set (a 200 ms
    RTT, 10 BSSs) and merged beside the quick form are then points of their
    own, never pooled with it as if they were more seeds."""
    differ = {}
    for r in runs:
        seen = differ.setdefault(r["scenario"], {})
        for k, v in r["params"].items():
            if k not in NOT_A_POINT:
                seen.setdefault(k, set()).add(json.dumps(v, sort_keys=True))
    out = []
    for r in runs:
        point = dict(r["point"])
        for k, vals in differ[r["scenario"]].items():
            if len(vals) > 1 and k not in point:
                point[k] = r["params"].get(k)
        out.append(point)
    return out


def aggregate(runs, scenarios=None):
    """{scenario: {point_slug: {variant: {"point", "role", "label", "runs",
    "metrics": {name: stat}}}}} over the seeds of each point.  A variant's
    role and label come from SCENARIOS ({name: loaded scenario}) where it
    still defines the variant, else from the records."""
    agg = {}
    eff = effective_points(runs)
    for r, point in zip(runs, eff):
        slug = sc.point_slug(point)
        cur = next((v for v in ((scenarios or {}).get(r["scenario"]) or {}).get("variant", [])
                    if v["name"] == r["variant"]), {})
        a = agg.setdefault(r["scenario"], {}).setdefault(slug, {}).setdefault(
            r["variant"], {"point": point, "role": cur.get("role", r["role"]),
                           "label": cur.get("label", r["label"]), "runs": []})
        a["runs"].append(r)
    # variants in the scenario's order (its params.variants), then by name
    for s in agg.values():
        for slug, pt in s.items():
            order = next(iter(pt.values()))["runs"][0]["params"].get("variants", [])
            s[slug] = dict(sorted(pt.items(), key=lambda kv: (
                order.index(kv[0]) if kv[0] in order else len(order), kv[0])))
    for s in agg.values():
        for pt in s.values():
            for a in pt.values():
                ok = [r for r in a["runs"] if not r.get("error")]
                a["errors"] = [r["error"] for r in a["runs"] if r.get("error")]
                names = set()
                for r in ok:
                    names.update(r["metrics"])
                a["metrics"] = {k: stat([r["metrics"].get(k) for r in ok])
                                for k in sorted(names)}
    return agg


def in_band(x, band):
    lo, hi = band
    return x is not None and lo <= x <= hi


# A claim the paper states without a number ("higher than DCF"): ours is
# the ratio to relative_to, judged against these bands
EXPECT = {"higher": {"reproduced": [1.05, math.inf], "partly": [1.0, math.inf]},
          "lower": {"reproduced": [0, 0.95], "partly": [0, 1.0]}}


def judge(ratio, claim):
    if ratio is None:
        return None
    if "expect" in claim:
        claim = EXPECT[claim["expect"]]
    if in_band(ratio, claim["reproduced"]):
        return "reproduced"
    if in_band(ratio, claim["partly"]):
        return "partly"
    return "not"


def _applies(a, where, when):
    """A claim's conditions on a point: `where`, parameter values it was run
    with; `when`, [low, high] bands of the claim variant's own metrics there
    (the paper's x-axis is a measured quantity, e.g. the PHY rate) or of a
    numeric parameter."""
    params = a["runs"][0]["params"] if a.get("runs") else {}
    if any(params.get(k) != v for k, v in (where or {}).items()):
        return False
    for k, (lo, hi) in (when or {}).items():
        m = a["metrics"].get(k, {}).get("mean")
        if m is None and isinstance(params.get(k), (int, float)):
            m = params[k]       # a numeric parameter, e.g. n_bss >= 20
        if m is None or not lo <= m <= hi:
            return False
    return True


# A guest-bound run measured the guest's CPU, not the channel the medium
# models: its medium was over 1 ms behind its own events for more than
# GUEST_BOUND of the flows' time (medium_behind_fraction), so frames went
# out later than modelled and the channel looked slower and emptier than
# it was; or the guest's CPU was busy more than GUEST_CPU_BOUND of the
# flows' time (guest_cpu_busy), with nothing idle to wait for the medium's
# timers, so the kernel and the tools, not the channel, paced the flows
# (obss at K = 40: 99.6 % busy, the APs sensing the channel busy 13 %).
# No claim is judged at a point where the claim's variant or the one it is
# relative to ran so.
GUEST_BOUND = 0.05
GUEST_CPU_BOUND = 0.95


def guest_bound(a):
    """Why the variant's runs were guest-bound ("medium 12 % behind",
    "guest CPU 99.6 % busy"; the worst run's), or None."""
    ok = [r["metrics"] for r in a.get("runs", []) if not r.get("error")]
    fr = [m.get("medium_behind_fraction") for m in ok]
    fr = [x for x in fr if x is not None]
    cpu = [m.get("guest_cpu_busy") for m in ok]
    cpu = [x for x in cpu if x is not None]
    why = []
    if fr and max(fr) > GUEST_BOUND:
        why.append(f"medium {max(fr):.0%} behind")
    if cpu and max(cpu) > GUEST_CPU_BOUND:
        why.append(f"guest CPU {max(cpu):.1%} busy")
    return ", ".join(why) or None


def _value(points, variant, metric, rel, claim_variant=None, where=None, when=None,
           bound=None):
    """Per point: mean of metric for variant (over relative_to's mean), at
    the points where the claim applies (judged on claim_variant's runs);
    the points left out because a run there was guest-bound go into BOUND
    ({slug: why}) when given."""
    out = {}
    for slug, pt in points.items():
        a = pt.get(variant)
        if not a or metric not in a["metrics"] or a["metrics"][metric]["mean"] is None:
            continue
        if (where or when) and not _applies(pt.get(claim_variant or variant, a), where, when):
            continue
        v = a["metrics"][metric]["mean"]
        if rel:
            b = pt.get(rel)
            if not b or metric not in b["metrics"] or not b["metrics"][metric]["mean"]:
                continue
            v = v / b["metrics"][metric]["mean"]
        gb = "; ".join(x for x in (guest_bound(a), guest_bound(pt.get(rel) or {}) if rel else None)
                       if x)
        if gb:
            if bound is not None:
                bound[slug] = gb
            continue
        out[slug] = v
    return out


def default_variant(points):
    for pt in points.values():
        for name, a in pt.items():
            if a["role"] == "linux-default":
                return name
    return None


def evaluate(agg, papers):
    """The summary: per paper its claims with ours, Linux's default, the
    ratio to the paper's value and a verdict, and the paper's verdict."""
    out = []
    for key, p in papers.items():
        rows = []
        for c in p.get("claims", []):
            row = {"id": c["id"], "what": c["what"], "scenario": c["scenario"],
                   "unit": c.get("unit", ""), "cite": c.get("cite", ""),
                   "source_line": c.get("source_line"), "quote": c.get("quote", ""),
                   "variant": c["variant"], "relative_to": c.get("relative_to"),
                   "paper_value": c.get("paper_value", c.get("expect")), "ours": None,
                   "ours_points": {}, "default": None, "ratio": None,
                   "verdict": None, "status": "measured", "guest_bound": {}}
            points = agg.get(c["scenario"])
            if not os.path.exists(sc.path_of(c["scenario"])):
                row["status"] = "no scenario yet"
            elif not points:
                row["status"] = "not run"
            if row["status"] != "measured":
                rows.append(row)
                continue
            cond = (c["variant"], c.get("where"), c.get("when"))
            ours = _value(points, c["variant"], c["metric"], c.get("relative_to"), *cond,
                          bound=row["guest_bound"])
            dv = default_variant(points)
            dflt = _value(points, dv, c["metric"], c.get("relative_to"), *cond) if dv else {}
            verdicts, ratios = [], []
            for slug, v in ours.items():
                pv = c.get("paper_value")
                if "paper_value_param" in c:
                    a = points[slug][c["variant"]]["runs"][0]
                    pv = a["params"].get(c["paper_value_param"])
                ratio = v if "expect" in c else (v / pv if pv else None)
                row["ours_points"][slug] = {"ours": v, "paper": pv, "ratio": ratio,
                                            "default": dflt.get(slug),
                                            "verdict": judge(ratio, c)}
                verdicts.append(judge(ratio, c))
                ratios.append(ratio)
                if "expect" not in c:
                    row["paper_value"] = pv
            if not ours:
                row["status"] = "no result"
                if row["guest_bound"]:
                    row["status"] = ("not judged: guest-bound at " +
                                     "; ".join(f"{k} ({v})" for k, v in
                                               sorted(row["guest_bound"].items())))
                elif (c.get("where") or c.get("when")) and \
                        _value(points, c["variant"], c["metric"], c.get("relative_to")):
                    row["status"] = "no run in the claim's range"
                rows.append(row)
                continue
            row["ours"] = statistics.fmean(ours.values())
            row["default"] = statistics.fmean(dflt.values()) if dflt else None
            rs = [r for r in ratios if r is not None]
            row["ratio"] = statistics.fmean(rs) if rs else None
            if all(v == "reproduced" for v in verdicts):
                row["verdict"] = "reproduced"
            elif all(v in ("not", None) for v in verdicts):
                row["verdict"] = "not"
            else:
                row["verdict"] = "partly"
            rows.append(row)
        measured = [r["verdict"] for r in rows if r["verdict"]]
        if not measured:
            verdict = None
        elif all(v == "reproduced" for v in measured):
            verdict = "reproduced"
        elif all(v == "not" for v in measured):
            verdict = "not"
        else:
            verdict = "partly"
        out.append({"key": key, "title": p["title"], "authors": p["authors"],
                    "year": p.get("year"), "file": p.get("file"),
                    "verdict": verdict, "claims": rows})
    return out


def fmt(v, spec=".3g"):
    if v is None:
        return "-"
    if isinstance(v, float):
        return format(v, spec)
    return str(v)


def summary_table(summary):
    """The suite's closing table: one line per claim, grouped by paper."""
    lines = []
    hdr = (f"{'paper / claim':<52} {'paper':>9} {'ours':>9} {'default':>9} "
           f"{'ratio':>6}  verdict")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    for p in summary:
        v = p["verdict"] or "not measured"
        lines.append(f"{p['key'] + ': ' + p['authors'].split(',')[0][:40]:<52} "
                     f"{'':>9} {'':>9} {'':>9} {'':>6}  {v}")
        for c in p["claims"]:
            name = f"  {c['id']} ({c['scenario']})"[:52]
            if c["status"] != "measured":
                lines.append(f"{name:<52} {fmt(c['paper_value']):>9} {'-':>9} "
                             f"{'-':>9} {'-':>6}  {c['status']}")
                continue
            ratio = f"{c['ratio']:.2f}" if c["ratio"] is not None else "-"
            lines.append(f"{name:<52} {fmt(c['paper_value']):>9} {fmt(c['ours']):>9} "
                         f"{fmt(c['default']):>9} {ratio:>6}  {c['verdict']}")
    lines.append("(paper: the paper's value, testbed/papers.toml; ours: the claim's "
                 "variant; default: today's\n Linux in the same runs; ratio: ours / "
                 "paper, judged against the claim's bands)")
    return "\n".join(lines)


# The per-scenario table: what a reader checks first
COLUMNS = [("goodput_mbps", "Mbit/s", ".1f"), ("retransmits", "retr", ".0f"),
           ("rtt_median_ms", "RTT med", ".1f"), ("rtt_p95_ms", "RTT p95", ".1f"),
           ("queue_delay_p95_ms", "qdel p95", ".1f"), ("qlen_median", "qlen med", ".0f"),
           ("qlen_max", "qlen max", ".0f"), ("qdisc_drops", "drops", ".0f"),
           ("ap_busy_fraction", "busy", ".2f")]


def scenario_table(name, points):
    lines = []
    for slug in sorted(points):
        pt = points[slug]
        lines.append(f"\n{name} [{slug}]")
        hdr = f"{'variant':<10} {'n':>2} " + " ".join(f"{c[1]:>9}" for c in COLUMNS)
        lines.append(hdr)
        lines.append("-" * len(hdr))
        for v, a in pt.items():
            n = len(a["runs"]) - len(a["errors"])
            cells = []
            for k, _, spec in COLUMNS:
                s = a["metrics"].get(k)
                if not s or s["mean"] is None:
                    cells.append(f"{'-':>9}")
                    continue
                t = format(s["mean"], spec)
                if s["ci95"] is not None:
                    t += "±" + format(s["ci95"], ".0f" if spec == ".0f" else ".1f")
                cells.append(f"{t:>9}")
            lines.append(f"{v:<10} {n:>2} " + " ".join(cells))
            for e in a["errors"]:
                lines.append(f"  {v}: failed: {e[:200]}")
            gb = guest_bound(a)
            if gb is not None:
                lines.append(f"  {v}: guest-bound ({gb}): not judged")
    return "\n".join(lines)
