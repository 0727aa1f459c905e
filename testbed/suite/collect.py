#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""One run's record (Documentation/testbed/results-schema.rst) from the raw
outputs testbed/lib/run-job.sh left in RAWDIR.  Prints JSON.

Usage (in the guest): collect.py JOB.json VARIANT RAWDIR
"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
from pingstats import pct, pings  # noqa: E402

SCHEMA = "airqueue-run/1"
# What make check's vm phase treats as a kernel problem (scripts/check)
DMESG_BAD = re.compile(
    r"WARNING:|BUG:|Oops|general protection|lockdep|KASAN|"
    r"possible circular locking|UBSAN|kernel BUG|Call Trace:")


def load(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def flow_records(raw):
    flows, errors = [], []
    for f in sorted(glob.glob(os.path.join(raw, "iperf3-*.json")),
                    key=lambda p: int(os.path.basename(p).split("-")[1])):
        m = re.match(r"iperf3-(\d+)-(down|up)-(sta\d+)\.json$", os.path.basename(f))
        if not m:
            continue
        j = load(f, {})
        rec = {"id": int(m.group(1)), "dir": m.group(2), "station": m.group(3),
               "cc": None, "mbps": None, "retransmits": None,
               "interval_mbps": []}
        end = j.get("end", {})
        if "sum_received" not in end:
            rec["error"] = j.get("error", "iperf3 gave no result")
            errors.append(f"flow {rec['id']}: {rec['error']}")
        else:
            rec["mbps"] = end["sum_received"]["bits_per_second"] / 1e6
            rec["retransmits"] = end.get("sum_sent", {}).get("retransmits")
            # data segments the sender sent: its bytes over the MSS it used
            mss = j.get("start", {}).get("tcp_mss") or \
                j.get("start", {}).get("tcp_mss_default")
            sent = end.get("sum_sent", {}).get("bytes")
            rec["segments"] = sent / mss if sent and mss else None
            rec["cc"] = end.get("sender_tcp_congestion") or \
                j.get("start", {}).get("test_start", {}).get("congestion")
            rec["interval_mbps"] = [i["sum"]["bits_per_second"] / 1e6
                                    for i in j.get("intervals", [])]
            # the sender's TCP state each second (iperf3 reads tcp_info on
            # the sending side only: uploads, where the client sends):
            # smoothed RTT (us) and cwnd (bytes, in segments of the MSS)
            snd = [st for i in j.get("intervals", []) for st in i.get("streams", [])
                   if st.get("sender") and st.get("snd_cwnd") is not None]
            seg = mss or next((st["pmtu"] - 52 for st in snd if st.get("pmtu")), None)
            rec["tcp_rtt_ms"] = [st["rtt"] / 1000 for st in snd if st.get("rtt")]
            rec["cwnd_segments"] = [st["snd_cwnd"] / seg for st in snd] if seg else []
        flows.append(rec)
    flows += fetch_records(raw, errors)
    flows.sort(key=lambda r: r["id"])
    return flows, errors


def fetch_records(raw, errors):
    """Object flows (params.objects_kb: aq-fetch, one object after another
    on a connection each): per flow its response times (ms, in the order
    fetched), goodput (the objects' octets over the flow's own time:
    flows.txt's window of the station) and the octets fetched per second
    of the run."""
    win = flow_windows(raw)
    out = []
    for f in glob.glob(os.path.join(raw, "fetch-*.txt")):
        m = re.match(r"fetch-(\d+)-(down|up)-(sta\d+)\.txt$", os.path.basename(f))
        if not m:
            continue
        rec = {"id": int(m.group(1)), "dir": m.group(2), "station": m.group(3),
               "cc": None, "mbps": None, "retransmits": None, "interval_mbps": [],
               "response_ms": [], "objects_failed": None}
        octets, done = 0, None
        start, end = win.get(rec["station"], (None, None))
        length = end - start if start is not None else None
        for line in open(f, errors="replace"):
            w = line.split()
            if line.startswith("# done") and len(w) >= 6:
                done, rec["objects_failed"] = int(w[2]), int(w[4])
            elif len(w) == 3 and not line.startswith("#"):
                t, ms, n = float(w[0]), float(w[1]), int(w[2])
                rec["response_ms"].append(ms)
                octets += n
                if start is not None:
                    # the second of the flow the object completed in
                    # (aq-fetch stamps the time of day, as flows.txt)
                    k = max(0, int(t + ms / 1000 - start))
                    while len(rec["interval_mbps"]) <= k:
                        rec["interval_mbps"].append(0.0)
                    rec["interval_mbps"][k] += n * 8 / 1e6
        if done is None or done != len(rec["response_ms"]) or not length:
            rec["error"] = "aq-fetch gave no result" if done is None else \
                f"aq-fetch: {len(rec['response_ms'])} objects timed, its total says {done}"
            errors.append(f"flow {rec['id']}: {rec['error']}")
        else:
            rec["mbps"] = octets * 8 / 1e6 / length
        out.append(rec)
    return out


def cpu_busy(raw):
    """The guest's CPU busy over the flows: 1 - (idle + iowait) / all, from
    the "cpu" lines of /proc/stat before and after them (cpu.txt)."""
    p = os.path.join(raw, "cpu.txt")
    rows = [[int(x) for x in line.split()[1:]] for line in open(p, errors="replace")
            if line.startswith("cpu ")] if os.path.exists(p) else []
    if len(rows) != 2 or len(rows[0]) < 5:
        return None
    d = [b - a for a, b in zip(*rows)]
    return 1.0 - (d[3] + d[4]) / sum(d) if sum(d) > 0 else None


def phy_rates(raw):
    """sta1's and the AP's tx bitrates (Mbit/s) each second, from iw"""
    out = {"sta": [], "ap": []}
    p = os.path.join(raw, "phy-rates.txt")
    for line in open(p, errors="replace") if os.path.exists(p) else []:
        w = line.split()
        for k in ("sta", "ap"):
            if k in w[:-1]:
                try:
                    out[k].append(float(w[w.index(k) + 1]))
                except ValueError:
                    pass
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def qdisc_samples(raw, key="q"):
    """The root qdisc's samples: the AP's (key q) or sta1's (sq)"""
    out, t0 = [], None
    for line in open(os.path.join(raw, "tc-samples.jsonl"), errors="replace") \
            if os.path.exists(os.path.join(raw, "tc-samples.jsonl")) else []:
        try:
            s = json.loads(line)
        except ValueError:
            continue
        t0 = s["t"] if t0 is None else t0
        q = [e for e in (s.get(key) or []) if e.get("root")]
        if not q:
            continue
        q = q[0]
        # tc -j prints a qdisc's xstats beside its counters (eBDP: limit,
        # tserv in ns); "limit" of other qdiscs stays under "options"
        xs = q if q.get("kind") == "ebdp" else {}
        out.append({"t": round(s["t"] - t0, 3), "kind": q.get("kind"),
                    "qlen": q.get("qlen", 0), "backlog": q.get("backlog", 0),
                    "drops": q.get("drops", 0),
                    "limit": xs.get("limit"),
                    "tserv_us": xs["tserv"] / 1000 if "tserv" in xs else None})
    return out


def _fallback(radio):
    """A radio's attempts at fallback entries, over every AC and class."""
    return sum(c.get("fallback", 0) for ac in radio["ac"].values()
               for c in ac.get("l4", {}).values())


def _by_rate(radio, acs=None):
    """A radio's attempts by rate and protection ("54", "6+rts"), over
    the ACs named (default: every AC) (the medium's by_rate; medium.rst)."""
    out = {}
    for name, ac in radio["ac"].items():
        if acs and name not in acs:
            continue
        for e in ac.get("by_rate", []):
            k = "%g%s" % (e["mbps"], "+rts" if e["rts"] else "")
            out[k] = out.get(k, 0) + e["attempts"]
    return out


def rate_mbps(key):
    """The rate of a by_rate key ("6+rts" -> 6.0)."""
    return float(key.split("+")[0])


def medium_delta(raw):
    a, b = load(os.path.join(raw, "medium-before.json")), load(os.path.join(raw, "medium-after.json"))
    if not a or not b:
        return None
    span = max(1.0, b["time_us"] - a["time_us"])
    before = {r["name"]: r for r in a["radios"]}
    radios = {}
    for r in b["radios"]:
        ra = before.get(r["name"])
        if not ra:
            continue
        d = {"busy_fraction": (r["busy_us"] - ra["busy_us"]) / span,
             "tx_fraction": (r["tx_us"] - ra["tx_us"]) / span}
        for k in ("frames", "attempts", "successes", "failures", "collisions",
                  "discards", "rts_attempts", "ampdus"):
            d[k] = sum(r["ac"][ac].get(k, 0) - ra["ac"][ac].get(k, 0) for ac in r["ac"])
        # attempts at a rate-table entry other than the first's rate or
        # protection (rate control's fallbacks; medium.rst, l4)
        d["fallback"] = _fallback(r) - _fallback(ra)
        # by rate over every AC, and best effort's alone (TCP's data and
        # ACKs; mac80211 sends management frames, beacons among them, on VO)
        for key, acs in (("by_rate", None), ("by_rate_be", ("BE",))):
            br, bra = _by_rate(r, acs), _by_rate(ra, acs)
            d[key] = {k: br[k] - bra.get(k, 0) for k in br if br[k] - bra.get(k, 0)}
        radios[r["name"]] = d
    # time with k radios backlogged (the contenders), over the run
    ha, hb = a.get("contending_hist_us") or [], b.get("contending_hist_us") or []
    n = max(len(ha), len(hb))
    hist = [(hb[i] if i < len(hb) else 0.0) - (ha[i] if i < len(ha) else 0.0)
            for i in range(n)]
    # channel occupancy per station (cot-tcp-rate-control eq. 14): its own
    # transmit time plus the AP's airtime toward it
    apb = next((r for r in b["radios"] if r["name"] == "ap"), None)
    apa = before.get("ap")
    occupancy = {}
    for r in b["radios"]:
        ra = before.get(r["name"])
        if r["name"] == "ap" or not ra:
            continue
        to = 0.0
        if apb and apa:
            to = (apb.get("airtime_to_us", {}).get(r["name"], 0.0) -
                  apa.get("airtime_to_us", {}).get(r["name"], 0.0))
        occupancy[r["name"]] = (r["tx_us"] - ra["tx_us"]) + to
    # the same in the paper's units (section III-A: t_i counts each frame
    # exchange with DIFS and the mean backoff, as T_data (12) does): each
    # exchange the station started and the AP started toward it adds
    # DIFS (SIFS + 2 slots) + CWmin / 2 slots of best effort.  Records of
    # a medium without exchanges_to have none.
    occupancy_model = {}
    st = b.get("settings") or {}
    if apb and apa and "exchanges_to" in apb and st.get("slot_us") and st.get("sifs_us"):
        for r in b["radios"]:
            ra = before.get(r["name"])
            if r["name"] == "ap" or not ra or r["name"] not in occupancy:
                continue
            n_exch = (sum(r.get("exchanges_to", {}).values()) -
                      sum(ra.get("exchanges_to", {}).values()) +
                      apb["exchanges_to"].get(r["name"], 0) -
                      apa.get("exchanges_to", {}).get(r["name"], 0))
            cwmin = r["ac"].get("BE", {}).get("cwmin", 15)
            per = st["sifs_us"] + 2 * st["slot_us"] + cwmin / 2 * st["slot_us"]
            occupancy_model[r["name"]] = occupancy[r["name"]] + n_exch * per
    return {"time_us": span, "phy": b.get("phy"), "settings": b.get("settings"),
            "contending_hist_us": hist, "occupancy_us": occupancy,
            "occupancy_model_us": occupancy_model or None,
            "transmissions": b["transmissions"] - a["transmissions"],
            "same_slot_collisions": b["same_slot_collisions"] - a["same_slot_collisions"],
            "kernel_rejected_frames": b.get("kernel_rejected_frames", 0) - a.get("kernel_rejected_frames", 0),
            # the medium acting on its own events more than 1 ms late: the
            # guest fell behind it for a moment; many of them mean the
            # channel the run measured was slower than the one modelled
            "late_wakeups": (b.get("live_late_wakeups", 0) - a.get("live_late_wakeups", 0)
                             if "live_late_wakeups" in b else None),
            # how long the medium was over 1 ms behind its own events
            # (each moment once): the share of the flows' time the
            # channel's timing was not kept
            "behind_us": (b["live_behind_us"] - a.get("live_behind_us", 0.0)
                          if "live_behind_us" in b else None),
            "radios": radios}


def _occupancy(stats):
    """{station: microseconds of channel occupancy so far} from one medium
    statistics snapshot: the station's own transmit time plus the AP's
    airtime toward it (cot-tcp-rate-control eq. 14)."""
    ap = next((r for r in stats["radios"] if r["name"] == "ap"), None)
    to = (ap or {}).get("airtime_to_us", {})
    return {r["name"]: r["tx_us"] + to.get(r["name"], 0.0)
            for r in stats["radios"] if r["name"] != "ap"}


def flow_windows(raw):
    """{station: (start, end)} in guest seconds: when a flow of the
    station's was running, from its first start to the run's end
    (flows.txt: the run's start t0, the flow's start offset, the run's
    length)."""
    out = {}
    p = os.path.join(raw, "flows.txt")
    for line in open(p, errors="replace") if os.path.exists(p) else []:
        w = line.split()
        if len(w) == 6:
            t0, off, dur = float(w[3]), float(w[4]), float(w[5])
            a, b = out.get(w[2], (t0 + off, t0 + dur))
            out[w[2]] = (min(a, t0 + off), max(b, t0 + dur))
    return out


def medium_samples(raw, fields):
    """The medium's samples (run-job.sh's medium_sample_s,
    medium-samples.jsonl): for each whole line, (guest time, fields(its
    statistics)); lines cut short or without what fields reads are
    skipped.  [] without samples."""
    p = os.path.join(raw, "medium-samples.jsonl")
    out = []
    for line in open(p, errors="replace") if os.path.exists(p) else []:
        try:
            s = json.loads(line)
            out.append((s["t"], fields(s["stats"])))
        except (ValueError, KeyError, TypeError):
            continue
    return out


def occupancy_series(raw):
    """The channel occupancy of each station per sampling interval, as a
    fraction of the interval (run-job.sh's medium_sample_s), with the Jain
    index over the stations whose flow ran for the whole interval (COT's
    Fig. 3).  None without samples."""
    snaps = [(t, u, o) for t, (u, o) in
             medium_samples(raw, lambda st: (st["time_us"], _occupancy(st)))]
    if len(snaps) < 2:
        return None
    win = flow_windows(raw)
    t_first = min((a for a, _ in win.values()), default=snaps[0][0])
    stations = sorted({st for _, _, o in snaps for st in o if st in win} or
                      {st for _, _, o in snaps for st in o})
    out = {"t": [], "stations": {st: [] for st in stations}, "active": [], "jain": []}
    for (ta, ua, oa), (tb, ub, ob) in zip(snaps, snaps[1:]):
        span = ub - ua
        if span <= 0:
            continue
        frac = {st: max(0.0, ob.get(st, 0.0) - oa.get(st, 0.0)) / span for st in stations}
        active = [st for st in stations
                  if st in win and win[st][0] <= ta and tb <= win[st][1]]
        out["t"].append(round(tb - t_first, 3))
        for st in stations:
            out["stations"][st].append(round(frac[st], 5))
        out["active"].append(active)
        out["jain"].append(jain([frac[st] for st in active]) if len(active) >= 2 else None)
    return out


def drop_rate(flows):
    """The mean over flows of TCP retransmissions per data segment sent
    (%): the segments the network lost, as the sender saw them."""
    r = [100.0 * f["retransmits"] / f["segments"] for f in flows
         if f.get("segments") and f.get("retransmits") is not None]
    return sum(r) / len(r) if r else None


def contenders_mean(md):
    """Mean number of radios with a frame queued at the medium, over the
    run (the time-weighted contending_hist_us)."""
    h = md["contending_hist_us"] if md else []
    tot = sum(h)
    return sum(i * x for i, x in enumerate(h)) / tot if tot > 0 else None


# Contenders are counted once every flow has run this long (slow start)
CONTENDERS_SKIP_S = 1.0


def contenders_during_flows(raw):
    """Mean number of radios with a frame queued at the medium while every
    flow ran, less the first CONTENDERS_SKIP_S: the difference of
    contending_hist_us between the first and the last medium sample
    (medium_sample_s) inside that window.  The run's own before/after
    snapshots also hold the set-up and the end, when no radio contends:
    in TAP's quick form those were 40 % of the time, which halved the
    mean.  None without two samples in the window."""
    win = flow_windows(raw)
    if not win:
        return None
    a = max(s for s, _ in win.values()) + CONTENDERS_SKIP_S
    b = min(e for _, e in win.values())
    inside = [h for t, h in medium_samples(raw, lambda st: st["contending_hist_us"])
              if a <= t <= b]
    if len(inside) < 2:
        return None
    h0, h1 = inside[0], inside[-1]
    h0 = h0 + [0] * (len(h1) - len(h0))
    return contenders_mean({"contending_hist_us": [y - x for x, y in zip(h0, h1)]})


def n_star(raw):
    """tap-setup's n* for the scenario's tap_args (run-job.sh), or None."""
    try:
        return float(open(os.path.join(raw, "nstar.txt")).read())
    except (OSError, ValueError):
        return None


def retry_stats(raw):
    """Every phy's retry policy after the flows (obss topology): per
    namespace its phy, mode, fixed limits and counters over the run (the
    phy's counters run since it was made: the difference from
    retry-stats-before.txt where the run kept it, else since the phy was
    made, "since": "phy")."""
    after = _retry_file(os.path.join(raw, "retry-stats.txt"))
    before = _retry_file(os.path.join(raw, "retry-stats-before.txt"))
    for ns, a in after.items():
        b = before.get(ns)
        if b:
            a["stats"] = {k: v - b["stats"].get(k, 0)
                          if isinstance(v, int) and not k.startswith("prob_cs") else v
                          for k, v in a["stats"].items()}
        a["since"] = "run" if b else "phy"
    return after


def _retry_file(p):
    out, cur = {}, None
    for line in open(p, errors="replace") if os.path.exists(p) else []:
        w = line.split()
        if w[:1] == ["=="] and len(w) >= 7:
            cur = out.setdefault(w[1], {"phy": w[2], "mode": w[4], "fixed": w[6],
                                        "stats": {}, "stations": []})
        elif cur is not None and w[:1] == ["station"]:
            # the policy's per-station state at the end of the run (L,
            # L_base, B, prob_cs_succ...: mac80211-retry.rst, "stations")
            cur["stations"].append(" ".join(w[1:]))
        elif cur is not None and len(w) == 2:
            try:
                cur["stats"][w[0]] = int(w[1])
            except ValueError:
                cur["stats"][w[0]] = w[1]
    return out


def obss_view(job, flows, md):
    """The obss topology: per BSS (AP apB, stations sta((B-1)*S+1)..) its
    goodput and its radios' medium counters, and the aggregates over every
    AP and every station."""
    p = job["params"]
    k = p.get("n_bss") or 4
    s = p.get("sta_per_bss") or 1
    hol = p.get("hol_bss") or 0
    # stations of each BSS: s, one more in the first hol_bss (run-job.sh)
    counts = [s + (1 if b <= hol else 0) for b in range(1, k + 1)]
    radios = md["radios"] if md else {}
    keys = ("frames", "attempts", "successes", "failures", "collisions", "discards",
            "fallback")

    def agg(names):
        rs = [radios[n] for n in names if n in radios]
        if not rs:
            return None
        a = {key: sum(r[key] for r in rs) for key in keys}
        for br in ("by_rate", "by_rate_be"):
            a[br] = {}
            for r in rs:
                for key, n in r.get(br, {}).items():
                    a[br][key] = a[br].get(key, 0) + n
        a["attempts_per_frame"] = a["attempts"] / a["frames"] if a["frames"] else None
        a["busy_fraction_mean"] = mean([r["busy_fraction"] for r in rs])
        a["tx_fraction_sum"] = sum(r["tx_fraction"] for r in rs)
        return a
    bss = []
    first = 1
    for b in range(1, k + 1):
        stas = [f"sta{j}" for j in range(first, first + counts[b - 1])]
        first += counts[b - 1]
        fl = [f for f in flows if f["station"] in stas]
        ok = [f["mbps"] for f in fl if f["mbps"] is not None]
        bss.append({"bss": b, "ap": f"ap{b}", "stations": stas,
                    "mbps": sum(ok) if fl and len(ok) == len(fl) else None,
                    "ap_medium": agg([f"ap{b}"]), "sta_medium": agg(stas)})
    aps = agg([f"ap{b}" for b in range(1, k + 1)])
    stas = agg([f"sta{j}" for j in range(1, sum(counts) + 1)])
    every = agg(list(radios))
    return {"n_bss": k, "sta_per_bss": s, "hol_bss": hol, "bss": bss,
            "aps": aps, "stations": stas, "all": every}


def below_top(by_rate):
    """Percent of the attempts in a by_rate dict at a rate below the
    fastest one used; None without attempts."""
    if not by_rate or not sum(by_rate.values()):
        return None
    top = max(rate_mbps(k) for k in by_rate)
    return 100.0 * sum(n for k, n in by_rate.items() if rate_mbps(k) < top) \
        / sum(by_rate.values())


def jain(xs):
    xs = [x for x in xs if x is not None]
    if not xs or sum(xs) == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


def modules(raw):
    m = {}
    p = os.path.join(raw, "modules.tsv")
    for line in open(p) if os.path.exists(p) else []:
        name, path, src = (line.rstrip("\n").split("\t") + ["", ""])[:3]
        if path:
            m[name] = {"path": path, "srcversion": src,
                       "ours": "/updates/" in path or "/extra/" in path}
    return m


def main():
    job = load(sys.argv[1])
    variant = sys.argv[2]
    raw = sys.argv[3]
    spec = [v for v in job["variants"] if v["name"] == variant][0]
    times = load(os.path.join(raw, "times.json"), {})
    rec = {"schema": SCHEMA, "scenario": job["scenario"], "job": job["id"],
           "variant": variant, "role": spec["role"], "label": spec["label"],
           "seed": job["seed"], "point": job["point"], "params": job["params"],
           "variant_spec": spec, "host": job.get("host", {}),
           "guest": {"kernel": times.get("kernel"), "clock": times.get("clock"),
                     "start": times.get("guest_start"), "end": times.get("guest_end"),
                     "mem_used_kb": times.get("mem_used_kb"),
                     "medium_hwm_kb": times.get("medium_hwm_kb"),
                     "modules": modules(raw)},
           "error": None}
    err = load(os.path.join(raw, "error.json"))
    errors = [err["error"]] if err else []
    flows, ferr = flow_records(raw)
    errors += ferr
    if not err and not flows:
        errors.append("no flow outputs")
    idle = [r for _, r in pings(os.path.join(raw, "ping-idle.txt"))] \
        if os.path.exists(os.path.join(raw, "ping-idle.txt")) else []
    rtt = pings(os.path.join(raw, "ping.txt")) if os.path.exists(os.path.join(raw, "ping.txt")) else []
    vals = [r for _, r in rtt]
    sent = None
    if os.path.exists(os.path.join(raw, "ping.txt")):
        m = re.search(r"(\d+) packets transmitted", open(os.path.join(raw, "ping.txt")).read())
        sent = int(m.group(1)) if m else None
    rec["rtt"] = {"idle_ms": {"median": pct(idle, 50), "p95": pct(idle, 95), "n": len(idle)},
                  "samples": rtt, "sent": sent,
                  "lost": None if sent is None else sent - len(rtt)}
    samples = qdisc_samples(raw)
    final = load(os.path.join(raw, "tc-final.json"), [])
    root = [e for e in final if e.get("root")]
    rec["qdisc"] = {"kind": root[0].get("kind") if root else None,
                    "final": root[0] if root else None, "samples": samples}
    ssamples = qdisc_samples(raw, "sq")
    rec["sta_qdisc"] = {"kind": ssamples[-1]["kind"] if ssamples else None,
                        "samples": ssamples}
    rec["medium"] = {"config": load(os.path.join(raw, "medium-config.json")),
                     "delta": medium_delta(raw)}
    rec["flows"] = flows
    rec["occupancy_series"] = occupancy_series(raw)
    bad = []
    p = os.path.join(raw, "dmesg.txt")
    for line in open(p, errors="replace") if os.path.exists(p) else []:
        if DMESG_BAD.search(line):
            bad.append(line.rstrip()[:300])
    rec["dmesg"] = {"clean": not bad, "bad": bad[:20]}
    ok = [f["mbps"] for f in flows if f["mbps"] is not None]
    med_idle = pct(idle, 50)
    qd = lambda p: None if not vals or med_idle is None else max(0.0, pct(vals, p) - med_idle)
    ql = [s["qlen"] for s in samples]
    lim = [s["limit"] for s in samples if s["limit"] is not None]
    ts = [s["tserv_us"] for s in samples if s["tserv_us"] is not None]
    md = rec["medium"]["delta"]
    ap = md["radios"].get("ap") if md else None
    sta = md["radios"].get("sta1") if md else None
    rates = phy_rates(raw)
    rec["phy_rates"] = rates
    m = {
        "goodput_mbps": sum(ok) if ok and len(ok) == len(flows) else None,
        "down_mbps": sum(f["mbps"] for f in flows if f["dir"] == "down" and f["mbps"] is not None),
        "up_mbps": sum(f["mbps"] for f in flows if f["dir"] == "up" and f["mbps"] is not None),
        "jain_flows": jain([f["mbps"] for f in flows]),
        "retransmits": sum(f["retransmits"] or 0 for f in flows),
        "idle_rtt_ms": med_idle,
        "rtt_mean_ms": sum(vals) / len(vals) if vals else None,
        "rtt_median_ms": pct(vals, 50), "rtt_p95_ms": pct(vals, 95),
        "rtt_max_ms": max(vals) if vals else None,
        "queue_delay_median_ms": qd(50), "queue_delay_p95_ms": qd(95),
        "ping_lost": rec["rtt"]["lost"],
        "qlen_median": pct(ql, 50), "qlen_max": max(ql) if ql else None,
        "qdisc_drops": root[0].get("drops") if root else None,
        "qdisc_limit_median": pct(lim, 50),
        "tserv_us_median": pct(ts, 50),
        "ap_busy_fraction": ap["busy_fraction"] if ap else None,
        "ap_attempts_per_frame": ap["attempts"] / ap["frames"] if ap and ap["frames"] else None,
        "ap_discards": ap["discards"] if ap else None,
        "medium_collisions": sum(r["collisions"] for r in md["radios"].values()) if md else None,
        "medium_late_wakeups": md.get("late_wakeups") if md else None,
        "guest_cpu_busy": cpu_busy(raw),
        "medium_behind_fraction": md["behind_us"] / md["time_us"]
        if md and md.get("behind_us") is not None and md.get("time_us") else None,
        "avg_drop_rate_percent": drop_rate(flows),
        # object flows (objects_kb): each object's time from connect() to
        # its last octet (retry-limit-obss Fig. 5), over every flow
        "response_time_mean_ms": mean([x for f in flows for x in f.get("response_ms", [])]),
        "response_time_p95_ms": pct([x for f in flows for x in f.get("response_ms", [])], 95),
        "objects_fetched": sum(len(f["response_ms"]) for f in flows if "response_ms" in f)
        if any("response_ms" in f for f in flows) else None,
        # over the flows when the medium was sampled, else over the run
        "mean_active_contenders": contenders_during_flows(raw) or contenders_mean(md),
        "n_star": n_star(raw),
        "occupancy_fairness_index": jain([md["occupancy_us"].get(st) for st in
                                sorted({f["station"] for f in flows})]) if md else None,
        # eq. 14 over t_i in the paper's units (DIFS and mean backoff per
        # exchange; medium_delta())
        "occupancy_fairness_model": jain([md["occupancy_model_us"].get(st) for st in
                                          sorted({f["station"] for f in flows})])
        if md and md.get("occupancy_model_us") else None,
        # COT's Fig. 3: Jain's index of each interval's occupancy over the
        # stations whose flow ran through it, mean over the intervals with
        # two or more
        "per_second_occupancy_fairness": mean([j for j in (rec["occupancy_series"] or {})
                                               .get("jain", []) if j is not None]),
        # the senders' own view (uploads: the stations), as the 802.11n
        # retry paper measured it with tcpprobe: mean smoothed RTT and cwnd
        "tcp_rtt_mean_ms": mean([x for f in flows for x in f.get("tcp_rtt_ms", [])]),
        "avg_cwnd_segments": mean([x for f in flows for x in f.get("cwnd_segments", [])]),
        # the PHY rate rate control chose, mean of one sample a second
        "sta_tx_rate_mbps": mean(rates["sta"]),
        "ap_tx_rate_mbps": mean(rates["ap"]),
        "sta_qlen_median": pct([x["qlen"] for x in ssamples], 50),
        "sta_qlen_max": max([x["qlen"] for x in ssamples], default=None),
        "sta_attempts_per_frame": sta["attempts"] / sta["frames"] if sta and sta["frames"] else None,
    }
    if job["params"].get("topology") == "obss":
        # per BSS, and the medium's counters summed over every AP and
        # every station (there is no single "ap" radio): the ap_* and sta_*
        # metrics above become those aggregates
        ov = obss_view(job, flows, md)
        rec["obss"] = ov
        rec["retry"] = retry_stats(raw)
        bm = [x["mbps"] for x in ov["bss"]]
        hol = [x["mbps"] for x in ov["bss"] if len(x["stations"]) == 2]
        ag, st, al = ov["aps"] or {}, ov["stations"] or {}, ov["all"] or {}
        m.update({
            "jain_bss": jain(bm) if None not in bm else None,
            "bss_goodput_min_mbps": min(bm) if bm and None not in bm else None,
            "bss_goodput_max_mbps": max(bm) if bm and None not in bm else None,
            "hol_2sta_bss_goodput_mbps": sum(hol) if hol and None not in hol else None,
            "ap_busy_fraction": ag.get("busy_fraction_mean"),
            "ap_attempts_per_frame": ag.get("attempts_per_frame"),
            "ap_discards": ag.get("discards"),
            "sta_attempts_per_frame": st.get("attempts_per_frame"),
            "sta_discards": st.get("discards"),
            "medium_attempts_per_frame": al.get("attempts_per_frame"),
            "medium_discards": al.get("discards"),
            "ap_collisions": ag.get("collisions"),
            "sta_collisions": st.get("collisions"),
            "ap_discard_percent": 100.0 * ag["discards"] / ag["frames"]
            if ag.get("frames") else None,
            "sta_discard_percent": 100.0 * st["discards"] / st["frames"]
            if st.get("frames") else None,
            "ap_fallback_percent": 100.0 * ag["fallback"] / ag["attempts"]
            if ag.get("attempts") else None,
            "ap_below_top_rate_percent": below_top(ag.get("by_rate_be")),
        })
        for f in ("occupancy_fairness_index", "occupancy_fairness_model"):
            m[f] = None
        a = re.search(r"associated in ([\d.]+) s", open(os.path.join(raw, "assoc.txt")).read()) \
            if os.path.exists(os.path.join(raw, "assoc.txt")) else None
        m["assoc_s"] = float(a.group(1)) if a else None
    rec["metrics"] = m
    if not rec["dmesg"]["clean"]:
        errors.append("kernel log: " + bad[0])
    rec["error"] = "; ".join(errors) if errors else None
    json.dump(rec, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
