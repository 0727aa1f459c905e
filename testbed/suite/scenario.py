# SPDX-License-Identifier: GPL-2.0
"""Scenario files and the jobs they expand into.

A scenario is one TOML file, testbed/scenarios/NAME.toml (see
Documentation/testbed/scenarios.rst for every key).  Its [params] are the
short ("quick") form; [full] overrides them for the papers' full sweeps, and
either form may hold a [*.sweep] table of parameter -> list of values.  A
*job* is one sweep point with one seed: the guest builds the topology once
and runs every selected variant on it, in turn, with that seed.  A *run* is
one variant of one job and becomes one JSON record (results-schema.rst).

Job ids hash every resolved parameter, so a run made with other parameters
(another --set, another duration) is never taken for this one: resume skips
exactly the runs whose record exists.
"""
import copy
import fnmatch
import hashlib
import itertools
import json
import os
import tomllib

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO_DIR = os.path.join(TOP, "testbed", "scenarios")

ROLES = ("linux-default", "baseline", "proposal", "reference")
TOP_KEYS = {"name", "title", "description", "paper", "clock", "suite",
            "notes", "params", "full", "variant", "plot", "cost"}
VARIANT_KEYS = {"name", "label", "role", "qdisc", "backpressure", "modules",
                "cc", "sysctl", "ap_debugfs", "all_debugfs", "retry", "ap_exec",
                "ap_undo", "sta_exec", "sta_undo", "note", "expand"}
PLOT_KEYS = {"kind", "title", "metric", "series", "x", "ylabel", "xlabel",
             "log", "cite", "variants", "cell"}
PLOT_KINDS = ("cdf", "timeseries", "bars", "sweep", "stations", "grid")
# Parameters every scenario has (the runner reads them); a scenario may add
# its own (used in variant strings as {name}).
COMMON_PARAMS = {
    "topology": "bss", "std": "g", "channel": 1, "hw_mode": "g",
    "medium": True, "n_sta": 1, "distance_m": 5.0, "rtt_ms": 10,
    "downloads": 1, "uploads": 0, "cc": "cubic", "duration_s": 10,
    "ping_interval_s": 0.1, "variants": [], "seeds": 1,
    # the medium's rules (Documentation/testbed/medium-fidelity.rst);
    # every record states the settings in force (medium.delta.settings)
    "edca": True, "short_slot": True, "basic_rates": [], "capture": True,
    "eifs": True,
    # propagation delay per pair from the radios' positions (distance / c),
    # or "fixed": 1 us for every pair
    "propagation": "positions",
    # short DSSS/CCK preambles in the BSS (hostapd preamble=1; the medium's
    # RTS before an OFDM frame at a CCK rate uses one)
    "short_preamble": False,
    # TCP maximum segment size of the flows (iperf3 -M); 0: the path's
    "mss": 0,
    # the flows' socket buffers (iperf3 -w, e.g. "29K"); "": autotuning
    "tcp_window": "",
    # extra hostapd.conf lines (e.g. "bss_load_update_period=10")
    "hostapd": [],
    # RTS/CTS before every data frame, on the AP and every station
    "rts": False,
    # tap-setup model options (e.g. "--phy b --rate 11 --size 1084"): when
    # set, the medium gives the AP's AC_VO the EDCA tap-setup computes
    # (hwsim does not pass the kernel's EDCA to the medium), and every
    # record carries tap-setup's n* for them (metric n_star)
    "tap_args": "",
    # each flow's start in seconds after the first (downloads, then
    # uploads; missing entries: 0); every flow runs to the run's end
    "flow_start_s": [],
    # the medium's statistics every so many seconds during the flows (0:
    # before and after only): per-station channel occupancy over time
    "medium_sample_s": 0,
}


class ScenarioError(Exception):
    """A scenario file or an override that cannot be used (the message says
    what and where)."""


def names():
    """Scenario names, sorted."""
    return sorted(f[:-5] for f in os.listdir(SCENARIO_DIR)
                  if f.endswith(".toml"))


def path_of(name):
    return os.path.join(SCENARIO_DIR, f"{name}.toml")


def load(name):
    """The scenario NAME as a dict, checked; raises ScenarioError."""
    p = path_of(name)
    if not os.path.exists(p):
        raise ScenarioError(f"no scenario '{name}' (known: {', '.join(names())})")
    try:
        with open(p, "rb") as f:
            s = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{p}: {e}") from None
    return check(s, p)


class _Keep(dict):
    """format_map() that leaves {names} it does not know for later."""
    def __missing__(self, k):
        return "{" + k + "}"


def _fill(v, values):
    if isinstance(v, str):
        return v.format_map(_Keep(values))
    if isinstance(v, list):
        return [_fill(x, values) for x in v]
    if isinstance(v, dict):
        return {k: _fill(x, values) for k, x in v.items()}
    return v


def expand_variants(variants, where):
    """A variant with expand = {key: [values], ...} stands for one variant
    per combination of the values, its strings filled with them (name
    "fixed-{ap}-{sta}" with ap = [2, 3] and sta = [2, 3] gives fixed-2-2,
    fixed-2-3, fixed-3-2, fixed-3-3).  A name the scenario defines itself
    is not made again: the explicit variant (its label, role) wins."""
    explicit = {v.get("name") for v in variants if "expand" not in v}
    out = []
    for v in variants:
        if "expand" not in v:
            out.append(v)
            continue
        ex = v["expand"]
        if not isinstance(ex, dict) or not ex or \
                not all(isinstance(x, list) and x for x in ex.values()):
            raise ScenarioError(f"{where}: variant {v.get('name')}: expand must map "
                                "names to non-empty lists of values")
        keys = list(ex)
        for values in itertools.product(*(ex[k] for k in keys)):
            nv = _fill({k: x for k, x in v.items() if k != "expand"}, dict(zip(keys, values)))
            if nv.get("name") not in explicit:
                out.append(nv)
    return out


def select_variants(names, variants):
    """The variants params.variants asks for: names, or shell patterns
    (fixed-*) matching several, in the scenario's order."""
    out = []
    for n in names:
        hit = [v["name"] for v in variants if fnmatch.fnmatchcase(v["name"], n)] \
            if any(ch in n for ch in "*?[") else []
        # a plain name, or a pattern matching none (reported unknown)
        out += [h for h in hit or [n] if h not in out]
    return out


def check(s, where):
    bad = set(s) - TOP_KEYS
    if bad:
        raise ScenarioError(f"{where}: unknown keys {sorted(bad)} "
                            f"(allowed: {sorted(TOP_KEYS)})")
    for k in ("name", "title", "description"):
        if not isinstance(s.get(k), str) or not s[k]:
            raise ScenarioError(f"{where}: '{k}' must be a non-empty string")
    if s["name"] != os.path.basename(where)[:-5]:
        raise ScenarioError(f"{where}: name '{s['name']}' differs from the file name")
    s.setdefault("paper", "")
    s.setdefault("clock", "virtual")
    s.setdefault("suite", True)
    s.setdefault("notes", "")
    s.setdefault("cost", {})
    if s["clock"] not in ("virtual", "wall"):
        raise ScenarioError(f"{where}: clock must be virtual or wall")
    own = s.get("params", {})
    if own.get("medium", COMMON_PARAMS["medium"]) and "edca" not in own:
        raise ScenarioError(f"{where}: [params] must state the medium's channel "
                            "access: edca = true (EDCA per access category, as "
                            "Linux and hostapd run WMM) or false (DCF: every AC "
                            "waits DIFS, as the papers' DCF setups)")
    params = dict(COMMON_PARAMS)
    params.update(own)
    s["params"] = params
    variants = expand_variants(s.get("variant", []), where)
    s["variant"] = variants
    if not variants:
        raise ScenarioError(f"{where}: no [[variant]]")
    seen = set()
    for v in variants:
        bad = set(v) - VARIANT_KEYS
        if bad:
            raise ScenarioError(f"{where}: variant {v.get('name')}: unknown keys "
                                f"{sorted(bad)} (allowed: {sorted(VARIANT_KEYS)})")
        if not v.get("name") or v["name"] in seen:
            raise ScenarioError(f"{where}: every variant needs a unique name")
        seen.add(v["name"])
        if v.get("role") not in ROLES:
            raise ScenarioError(f"{where}: variant {v['name']}: role must be one "
                                f"of {', '.join(ROLES)}")
        v.setdefault("label", v["name"])
    if not any(v["role"] == "linux-default" for v in variants):
        raise ScenarioError(f"{where}: a scenario compares against today's Linux: "
                            "one variant needs role = \"linux-default\"")
    if not params["variants"]:
        params["variants"] = [v["name"] for v in variants]
    for p in s.get("plot", []):
        bad = set(p) - PLOT_KEYS
        if bad:
            raise ScenarioError(f"{where}: plot: unknown keys {sorted(bad)}")
        if p.get("kind") not in PLOT_KINDS:
            raise ScenarioError(f"{where}: plot kind must be one of {PLOT_KINDS}")
        if p["kind"] == "grid" and not (p.get("cell") and p.get("metric") and
                                        p.get("variants")):
            raise ScenarioError(f"{where}: a grid plot needs cell (the variant key whose "
                                "value is \"ROW/COL\", e.g. retry.fixed), metric and "
                                "variants (names or patterns)")
    full = s.get("full", {})
    for k in full:
        if k != "sweep" and k not in params:
            raise ScenarioError(f"{where}: [full] sets '{k}', which [params] lacks")
    for k in full.get("sweep", {}):
        if k not in params:
            raise ScenarioError(f"{where}: [full.sweep] sweeps '{k}', which [params] lacks")
    return s


def _coerce(key, text, like):
    """--set's text as the type of the parameter's current value."""
    try:
        if isinstance(like, bool):
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(like, int):
            return int(text)
        if isinstance(like, float):
            return float(text)
    except ValueError:
        raise ScenarioError(f"--set {key}={text}: not a {type(like).__name__}") from None
    if isinstance(like, list):
        return [x.strip() for x in text.split(",") if x.strip()]
    return text


def resolve(s, full=False, sets=()):
    """(params, sweep) for the quick or full form with KEY=VALUE overrides.
    A value with commas on a scalar parameter sweeps it."""
    params = copy.deepcopy(s["params"])
    sweep = {}
    form = s.get("full", {}) if full else {}
    for k, v in form.items():
        if k != "sweep":
            params[k] = v
    sweep.update(copy.deepcopy(form.get("sweep", {})))
    for kv in sets:
        if "=" not in kv:
            raise ScenarioError(f"--set '{kv}': expected KEY=VALUE")
        k, text = kv.split("=", 1)
        k = k.strip()
        if k not in params:
            raise ScenarioError(f"--set {k}: scenario '{s['name']}' has no parameter "
                                f"'{k}' (it has: {', '.join(sorted(params))})")
        like = params[k]
        if not isinstance(like, list) and "," in text:
            sweep[k] = [_coerce(k, t.strip(), like) for t in text.split(",")]
        else:
            sweep.pop(k, None)
            params[k] = _coerce(k, text, like)
    known = {v["name"] for v in s["variant"]}
    params["variants"] = select_variants(params["variants"], s["variant"])
    unknown = [v for v in params["variants"] if v not in known]
    if unknown:
        raise ScenarioError(f"scenario '{s['name']}': no variant {unknown} "
                            f"(it has: {', '.join(sorted(known))})")
    if not isinstance(params["seeds"], int) or params["seeds"] < 1:
        raise ScenarioError("seeds must be a whole number >= 1")
    return params, sweep


def _fmt(v, params):
    if isinstance(v, str):
        try:
            return v.format_map(params)
        except (KeyError, ValueError) as e:
            raise ScenarioError(f"variant string '{v}': {e}") from None
    if isinstance(v, list):
        return [_fmt(x, params) for x in v]
    if isinstance(v, dict):
        return {k: _fmt(x, params) for k, x in v.items()}
    return v


def point_slug(point):
    if not point:
        return "base"
    return ",".join(f"{k}={v}" for k, v in sorted(point.items()))


def jobs(s, params, sweep):
    """Every job of the scenario: sweep points (sorted keys, values in the
    order given) x seeds 1..N.  Variant strings are resolved here, so the
    guest sees final values only."""
    keys = sorted(sweep)
    out = []
    for values in itertools.product(*(sweep[k] for k in keys)):
        point = dict(zip(keys, values))
        p = dict(params)
        p.update(point)
        h = hashlib.sha1(json.dumps({k: v for k, v in p.items() if k != "seeds"},
                                    sort_keys=True).encode()).hexdigest()[:8]
        variants = [_fmt(v, p) for v in s["variant"] if v["name"] in p["variants"]]
        for seed in range(1, p["seeds"] + 1):
            jid = f"{point_slug(point)}.{h}.s{seed}"
            out.append({"scenario": s["name"], "id": jid, "point": point,
                        "params": p, "seed": seed, "clock": s["clock"],
                        "variants": variants})
    return out


def run_file(results, job, variant):
    """Where one run's record lives."""
    return os.path.join(results, job["scenario"], "runs",
                        f"{job['id']}.{variant}.json")


# Variant keys that describe a run without changing it: editing them keeps
# the records (the page takes them from the scenario file).  Keep in step
# with run-job.sh's check in the guest.
COSMETIC = ("label", "note", "role")


def run_spec(spec):
    """What of a variant's definition decides its run."""
    return {k: v for k, v in (spec or {}).items() if k not in COSMETIC}


def done(path, spec=None):
    """A record that exists, says no error and (given @spec) was made with
    that variant definition: resume keeps it.  A variant whose definition
    changed (another qdisc, cc, command) runs again under the same name;
    one whose label, note or role changed does not."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return False
    return rec.get("error") is None and \
        (spec is None or run_spec(rec.get("variant_spec")) == run_spec(spec))


def pending_variants(results, job, force=False):
    return [v["name"] for v in job["variants"]
            if force or not done(run_file(results, job, v["name"]), v)]


def shard(all_jobs, i, n):
    """Share I of N (1-based) of the jobs, deterministic: jobs sorted by
    (scenario, id), every N-th one from the I-th."""
    if not (1 <= i <= n):
        raise ScenarioError(f"--shard {i}/{n}: need 1 <= I <= N")
    ordered = sorted(all_jobs, key=lambda j: (j["scenario"], j["id"]))
    return [j for k, j in enumerate(ordered) if k % n == i - 1]


def cost_s(s, job_count, variant_count, duration_s):
    """Estimated host wall seconds: per job the topology set-up, per run the
    flow plus its overhead, times the guest's slowdown on this clock (both
    measured, in the scenario's [cost])."""
    c = s.get("cost", {})
    setup = c.get("setup_s", 30)
    per_run = c.get("per_run_s", 5)
    slow = c.get("slowdown", 1.5)
    return c.get("boot_s", 20) + job_count * (
        setup + variant_count * (duration_s + per_run)) * slow
