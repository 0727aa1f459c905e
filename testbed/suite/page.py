# SPDX-License-Identifier: GPL-2.0
"""The results page: PNG plots (matplotlib), results/index.html (static,
opens from the file system) and an reST page with the same numbers.

Both pages are made from the run records and testbed/papers.toml only.
"""
import fnmatch
import html
import os
import re
import time

from . import scenario as sc
from . import summary as sm

# today's Linux is drawn the same way on every plot
DEFAULT_STYLE = {"color": "black", "linewidth": 2.2, "linestyle": "--"}


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


_COLORS = {}
_LIGHT = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
          "#f7b6d2", "#dbdb8d", "#9edae5"]


def _style(a):
    """One colour per variant on every plot of a scenario; Linux's default
    dashed black."""
    if a["role"] == "linux-default":
        return dict(DEFAULT_STYLE)
    return {"color": _COLORS.get(a["runs"][0]["variant"], "C7")}


def _set_colors(scn):
    _COLORS.clear()
    k = 0
    for v in scn.get("variant", []):
        if v["role"] != "linux-default":
            # matplotlib's ten, then the light shades of tab20
            _COLORS[v["name"]] = f"C{k}" if k < 10 else _LIGHT[(k - 10) % len(_LIGHT)]
            k += 1


def _label(name, a):
    return f"{a['label']}" if a["label"] != name else name


def _first_ok(a):
    ok = sorted((r for r in a["runs"] if not r.get("error")), key=lambda r: r["seed"])
    return ok[0] if ok else None


def plot_one(plt, spec, scn, points, path):
    """Draw one plot spec; returns the PNG path or None with a reason."""
    _set_colors(scn)
    kind = spec["kind"]
    slugs = sorted(points)
    if kind == "stations":
        return _plot_stations(plt, spec, scn, points, path)
    if kind == "grid":
        return _plot_grid(plt, spec, scn, points, path)
    if kind == "cdf" and spec.get("series") == "response_ms" and not any(
            fl.get("response_ms") for pt in points.values() for a in pt.values()
            for r in a["runs"] for fl in r.get("flows", [])):
        return None, "needs object flows (--set objects_kb=N)"
    if kind == "sweep":
        x = spec["x"]
        xs = sorted({pt_v["point"].get(x) for pt in points.values()
                     for pt_v in pt.values() if x in pt_v["point"]})
        if len(xs) < 2:
            return None, f"needs a sweep over {x} (run with --full or --set {x}=A,B)"
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        names = []
        for pt in points.values():
            for v in pt:
                if v not in names:
                    names.append(v)
        for v in names:
            xv, yv, ev, a0 = [], [], [], None
            for pt in points.values():
                a = pt.get(v)
                if not a or x not in a["point"]:
                    continue
                s = a["metrics"].get(spec["metric"])
                if not s or s["mean"] is None:
                    continue
                a0 = a
                xv.append(a["point"][x])
                yv.append(s["mean"])
                ev.append(s["ci95"] or 0)
            if not xv:
                continue
            order = sorted(range(len(xv)), key=lambda k: xv[k])
            ax.errorbar([xv[k] for k in order], [yv[k] for k in order],
                        yerr=[ev[k] for k in order], marker="o", capsize=3,
                        label=_label(v, a0), **_style(a0))
        ax.set_xlabel(spec.get("xlabel", x))
        ax.set_ylabel(spec.get("ylabel", spec["metric"]))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    else:
        # one panel per sweep point, at most three to a row
        n = len(slugs)
        cols = min(n, 3)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(6.4 * min(n, 2) if n < 3 else 5.2 * cols,
                                                      4.2 * rows), squeeze=False)
        for ax in list(axes.flat)[n:]:
            ax.set_visible(False)
        for ax, slug in zip(axes.flat, slugs):
            pt = points[slug]
            if kind == "bars":
                names = list(pt)
                ys = [(pt[v]["metrics"].get(spec["metric"]) or {}).get("mean") for v in names]
                es = [(pt[v]["metrics"].get(spec["metric"]) or {}).get("ci95") or 0 for v in names]
                colors = [_style(pt[v])["color"] for v in names]
                ax.bar(range(len(names)), [y or 0 for y in ys], yerr=es, capsize=4,
                       color=colors)
                ax.set_xticks(range(len(names)), names,
                              **({"rotation": 30, "ha": "right"} if len(names) > 5 else {}))
                for k, y in enumerate(ys):
                    if y is not None:
                        ax.annotate(f"{y:.3g}", (k, y), ha="center", va="bottom", fontsize=8)
                ax.set_ylabel(spec.get("ylabel", spec["metric"]))
            for v, a in pt.items():
                if kind == "bars":
                    break
                if kind == "cdf":
                    # the ping's RTTs, or series = "response_ms": every
                    # object's response time (object flows)
                    if spec.get("series") == "response_ms":
                        vals = sorted(x for r in a["runs"] if not r.get("error")
                                      for fl in r["flows"] for x in fl.get("response_ms", []))
                    else:
                        vals = sorted(x[1] for r in a["runs"] if not r.get("error")
                                      for x in r["rtt"]["samples"])
                    if vals:
                        ax.plot(vals, [(k + 1) / len(vals) for k in range(len(vals))],
                                label=_label(v, a), **_style(a))
                    ax.set_ylabel("CDF")
                    ax.set_xlabel(spec.get("xlabel", "ms"))
                    if spec.get("log"):
                        ax.set_xscale("log")
                elif kind == "timeseries":
                    r = _first_ok(a)
                    if not r:
                        continue
                    if spec["series"] == "interval_mbps":
                        n_iv = max((len(f["interval_mbps"]) for f in r["flows"]), default=0)
                        tot = [sum(f["interval_mbps"][k] for f in r["flows"]
                                   if k < len(f["interval_mbps"])) for k in range(n_iv)]
                        ax.plot(range(1, n_iv + 1), tot, label=_label(v, a), **_style(a))
                        ax.set_xlabel("time (s)")
                    else:
                        smp = r["qdisc"]["samples"]
                        if not smp:
                            continue
                        line = ax.plot([s["t"] for s in smp], [s[spec["series"]] for s in smp],
                                       label=_label(v, a), **_style(a))
                        lim = [(s["t"], s["limit"]) for s in smp if s.get("limit") is not None]
                        if lim:
                            ax.plot([t for t, _ in lim], [q for _, q in lim], ":",
                                    color=line[0].get_color(), label=f"{v}: limit Q")
                        ax.set_xlabel("time (s, seed 1)")
                    ax.set_ylabel(spec.get("ylabel", spec["series"]))
            ax.set_title(slug, fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            if kind != "bars":
                ax.legend(fontsize=8)
    fig.suptitle(f"{scn['name']}: {spec.get('title', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path, None


def _plot_stations(plt, spec, scn, points, path):
    """One panel per variant (the first sweep point, its first seed): each
    station's share of the channel per sampling interval (the record's
    occupancy_series), as COT's Fig. 3."""
    pt = points[sorted(points)[0]]
    panels = [(v, _first_ok(a)) for v, a in pt.items()]
    panels = [(v, r) for v, r in panels if r and r.get(spec["series"])]
    if not panels:
        return None, (f"no run has {spec['series']} (the scenario's "
                      "medium_sample_s samples the medium)")
    n = len(panels)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.4 * rows),
                             squeeze=False, sharey=True)
    for ax, (v, r) in zip(axes.flat, panels):
        ser = r[spec["series"]]
        for st, ys in ser["stations"].items():
            ax.plot(ser["t"], ys, label=st, linewidth=1.2)
        ax.set_title(f"{v}: {pt[v]['label']}", fontsize=8)
        ax.set_xlabel("time (s)")
        ax.set_ylabel(spec.get("ylabel", spec["series"]))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle(f"{scn['name']} [{sorted(points)[0]}]: {spec.get('title', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path, None


def grid_cells(spec, points):
    """{point slug: {(row, col): mean}} for a grid plot: every variant
    matching spec's variants (names or patterns) whose definition holds
    "ROW/COL" at the key path spec["cell"] (retry.fixed: the AP's and the
    station's retry limits), the mean of spec's metric there; one panel
    per sweep point."""
    out = {}
    for slug, pt in points.items():
        for name, a in pt.items():
            if not any(fnmatch.fnmatchcase(name, p) for p in spec["variants"]):
                continue
            v = (a["runs"][0].get("variant_spec") or {}) if a["runs"] else {}
            for k in spec["cell"].split("."):
                v = v.get(k) if isinstance(v, dict) else None
            s = a["metrics"].get(spec["metric"])
            try:
                r, c = (int(t) for t in str(v).split("/"))
            except ValueError:
                continue
            if s and s["mean"] is not None:
                out.setdefault(slug, {})[(r, c)] = s["mean"]
    return out


def _natural(slug):
    """Sort key: n_bss=5 before n_bss=10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", slug)]


def _plot_grid(plt, spec, scn, points, path):
    """The paper's grid (retry-limit-obss's 36 cases): a heat map of the
    metric over rows x cols, each cell annotated, the highest boxed."""
    cells = grid_cells(spec, points)
    if not cells or max(len(c) for c in cells.values()) < 2:
        return None, (f"needs two or more of the variants {', '.join(spec['variants'])} "
                      f"at one point (--set variants='{spec['variants'][0]}')")
    n = len(cells)
    fig, axes = plt.subplots(1, n, figsize=(5.2 * n, 4.6), squeeze=False)
    for ax, slug in zip(axes.flat, sorted(cells, key=_natural)):
        c = cells[slug]
        rows = sorted({r for r, _ in c})
        cols = sorted({k for _, k in c})
        z = [[c.get((r, k), float("nan")) for k in cols] for r in rows]
        im = ax.imshow(z, origin="lower", cmap="viridis", aspect="auto")
        best = max(c, key=c.get)
        for i, r in enumerate(rows):
            for j, k in enumerate(cols):
                if (r, k) in c:
                    ax.annotate(f"{c[(r, k)]:.3g}", (j, i), ha="center", va="center",
                                fontsize=8, color="white",
                                fontweight="bold" if (r, k) == best else "normal")
        ax.add_patch(plt.Rectangle((cols.index(best[1]) - 0.5, rows.index(best[0]) - 0.5),
                                   1, 1, fill=False, edgecolor="red", linewidth=2))
        ax.set_xticks(range(len(cols)), cols)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(spec.get("xlabel", "column"))
        ax.set_ylabel(spec.get("ylabel", "row"))
        ax.set_title(slug, fontsize=9)
        fig.colorbar(im, ax=ax, label=spec["metric"])
    fig.suptitle(f"{scn['name']}: {spec.get('title', '')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path, None


def plots(results, agg, scenarios, draw=True):
    """{scenario: [(png relative to results, spec, note)]}"""
    out = {}
    if not draw:
        return {name: [(None, spec, "made with --no-plots (or --here, in the guest)")
                       for spec in scenarios[name].get("plot", [])]
                for name in agg if name in scenarios}
    plt = pyplot()
    for name, points in agg.items():
        s = scenarios.get(name)
        if not s:
            continue
        d = os.path.join(results, name, "plots")
        os.makedirs(d, exist_ok=True)
        lst = []
        for k, spec in enumerate(s.get("plot", [])):
            tag = spec.get("metric") or spec.get("series") or spec["kind"]
            png = os.path.join(d, f"{k + 1:02d}-{spec['kind']}-{tag}.png")
            path, why = plot_one(plt, spec, s, points, png)
            lst.append((os.path.relpath(path, results) if path else None, spec, why))
        out[name] = lst
    return out


def _v(x, spec=".3g"):
    return "-" if x is None else (format(x, spec) if isinstance(x, float) else str(x))


VERDICT_CLASS = {"reproduced": "ok", "partly": "partly", "not": "not"}

CSS = """
body { font-family: sans-serif; max-width: 1100px; margin: 1em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: right; }
th { background: #eee; } td.l, th.l { text-align: left; }
td.ok { background: #c8efc8; } td.partly { background: #fbeaa8; }
td.not { background: #f5c0c0; }
blockquote { color: #555; border-left: 3px solid #ccc; margin: 0.3em 0; padding-left: 8px; }
img { max-width: 100%; border: 1px solid #ddd; margin: 4px 0; }
code, pre { background: #f4f4f4; } pre { padding: 6px; overflow-x: auto; }
.note { font-size: 90%; color: #444; }
"""

CHECK_JS = """
window.addEventListener('load', function () {
  var imgs = document.images, ok = 0;
  for (var i = 0; i < imgs.length; i++)
    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  document.body.setAttribute('data-images-loaded', ok + '/' + imgs.length);
});
"""


def html_page(results, summary, agg, scenarios, figs, meta):
    e = html.escape
    h = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
         "<title>airqueue results</title>", f"<style>{CSS}</style>",
         f"<script>{CHECK_JS}</script></head><body>",
         "<h1>airqueue: the papers' experiments on Linux 6.12</h1>",
         f"<p>Made {e(meta['date'])} by <code>{e(meta['command'])}</code>"
         + (" from runs made by " + ", ".join(f"<code>{e(c)}</code>" for c in meta["runs_made_by"])
            if meta["runs_made_by"] != [meta["command"]] else "") + " "
         f"({e(meta['form'])} form; {meta['runs']} runs; kernel {e(meta.get('kernel') or '-')}; "
         f"airqueue {e(meta.get('git') or '-')}).</p>",
         "<h2>Summary</h2>",
         "<p class='note'>paper: the paper's own number (testbed/papers.toml, with where it "
         "stands); ours: the claim's variant; Linux default: today's Linux in the same runs; "
         "ratio: ours / paper, judged against the claim's bands.</p>",
         "<table><tr><th class='l'>paper</th><th class='l'>claim</th><th>paper</th>"
         "<th>ours</th><th>Linux default</th><th>ratio</th><th>verdict</th></tr>"]
    for p in summary:
        first = True
        for c in p["claims"]:
            cls = VERDICT_CLASS.get(c["verdict"], "")
            verdict = c["verdict"] or c["status"]
            h.append("<tr>" + (f"<td class='l' rowspan='{len(p['claims'])}'>"
                               f"<a href='#{p['key']}'>{e(p['key'])}</a><br>"
                               f"{e(p['authors'].split(',')[0])}</td>" if first else "")
                     + f"<td class='l'>{e(c['what'])} <i>({e(c['scenario'])})</i></td>"
                     f"<td>{e(_v(c['paper_value']))} {e(c['unit'])}</td><td>{e(_v(c['ours']))}</td>"
                     f"<td>{e(_v(c['default']))}</td><td>{e(_v(c['ratio'], '.2f'))}</td>"
                     f"<td class='{cls}'>{e(verdict)}</td></tr>")
            first = False
    h.append("</table>")
    for p in summary:
        h.append(f"<h2 id='{p['key']}'>{e(p['title'])}</h2>")
        h.append(f"<p>{e(p['authors'])}; text in <code>shared/papers/{e(p['file'] or '')}</code>. "
                 f"Verdict: <b>{e(p['verdict'] or 'not measured yet')}</b>.</p>")
        for c in p["claims"]:
            h.append(f"<p><b>{e(c['id'])}</b>: {e(c['what'])}. Paper: {e(_v(c['paper_value']))} "
                     f"{e(c['unit'])} ({e(c['cite'])}, line {c['source_line']}):</p>"
                     f"<blockquote>{e(c['quote'])}</blockquote>")
            if c["ours_points"]:
                h.append("<table><tr><th class='l'>point</th><th>paper</th><th>ours</th>"
                         "<th>Linux default</th><th>ratio</th><th>verdict</th></tr>")
                for slug, v in sorted(c["ours_points"].items()):
                    h.append(f"<tr><td class='l'>{e(slug)}</td><td>{e(_v(v['paper']))}</td>"
                             f"<td>{e(_v(v['ours']))}</td><td>{e(_v(v['default']))}</td>"
                             f"<td>{e(_v(v['ratio'], '.2f'))}</td>"
                             f"<td class='{VERDICT_CLASS.get(v['verdict'], '')}'>"
                             f"{e(v['verdict'] or '-')}</td></tr>")
                h.append("</table>")
            elif c["status"] != "measured":
                h.append(f"<p class='note'>{e(c['status'])}.</p>")
            if c.get("guest_bound") and c["ours_points"]:
                h.append("<p class='note'>Not judged, guest-bound (the guest, not the "
                         "channel, paced the flows): "
                         + e("; ".join(f"{k} ({v})" for k, v in sorted(c["guest_bound"].items())))
                         + ".</p>")
        for name, s in sorted(scenarios.items()):
            if s.get("paper") == p["key"] and name in agg:
                h += scenario_html(name, s, agg[name], figs.get(name, []))
    others = [n for n, s in sorted(scenarios.items()) if not s.get("paper") and n in agg]
    if others:
        h.append("<h2>Other scenarios</h2>")
        for name in others:
            h += scenario_html(name, scenarios[name], agg[name], figs.get(name, []))
    h.append("</body></html>")
    path = os.path.join(results, "index.html")
    with open(path, "w") as f:
        f.write("\n".join(h) + "\n")
    return path


def scenario_html(name, s, points, figs):
    e = html.escape
    h = [f"<h3>Scenario <code>{e(name)}</code>: {e(s['title'])}</h3>",
         f"<p>{e(s['description'])}.</p>"]
    runs = [r for pt in points.values() for a in pt.values() for r in a["runs"]]
    cmds = sorted({r["host"].get("command", "") for r in runs})
    h.append("<p>Made by: " + ", ".join(f"<code>{e(c)}</code>" for c in cmds if c) + "</p>")
    r0 = runs[0]
    med = (r0.get("medium") or {}).get("config") or {}
    st = ((r0.get("medium") or {}).get("delta") or {}).get("settings") or {}
    rules = ", ".join(f"{k} {v}" for k, v in st.items()) if st else "no medium"
    h.append(f"<p class='note'>Clock: {e(str(r0['guest'].get('clock')))}; PHY "
             f"{e(str((med.get('phy') or {}).get('standard', '-')))}; the medium's rules in "
             f"force: {e(rules)}; parameters: "
             + e(", ".join(f"{k}={v}" for k, v in sorted(r0["params"].items())
                           if k not in r0["point"])) + "</p>")
    for slug in sorted(points):
        pt = points[slug]
        h.append(f"<table><tr><th class='l'>{e(slug)}</th><th>runs</th>"
                 + "".join(f"<th>{e(c[1])}</th>" for c in sm.COLUMNS) + "</tr>")
        for v, a in pt.items():
            cells = []
            for k, _, spec in sm.COLUMNS:
                st = a["metrics"].get(k)
                if not st or st["mean"] is None:
                    cells.append("<td>-</td>")
                    continue
                t = format(st["mean"], spec)
                if st["ci95"] is not None:
                    t += " ± " + format(st["ci95"], ".1f")
                cells.append(f"<td>{e(t)}</td>")
            style = " style='font-weight:bold'" if a["role"] == "linux-default" else ""
            h.append(f"<tr{style}><td class='l'>{e(a['label'])} ({e(a['role'])})</td>"
                     f"<td>{len(a['runs']) - len(a['errors'])}/{len(a['runs'])}</td>"
                     + "".join(cells) + "</tr>")
        h.append("</table>")
        for v, a in pt.items():
            for err in a["errors"]:
                h.append(f"<p class='note'>{e(v)} failed: {e(err[:300])}</p>")
            gb = sm.guest_bound(a)
            if gb:
                h.append(f"<p class='note'>{e(v)}: guest-bound ({e(gb)}): a run measured the "
                         "guest's CPU, not the modelled channel; no claim is judged on it</p>")
    h.append("<p class='note'>± is the 95 % confidence interval over the seeds "
             "(Student's t); one seed shows none.  Linux's default is bold here and "
             "dashed black in the plots.</p>")
    for png, spec, why in figs:
        cite = f" (paper: {e(spec['cite'])})" if spec.get("cite") else ""
        if png:
            h.append(f"<p><img src='{e(png)}' alt='{e(spec.get('title', ''))}'><br>"
                     f"<span class='note'>{e(spec.get('title', ''))}{cite}</span></p>")
        else:
            h.append(f"<p class='note'>Plot '{e(spec.get('title', ''))}' not drawn: {e(why)}.</p>")
    if s.get("notes"):
        h.append("<h4>Where we differ and why</h4>")
        h += ["<p>" + e(" ".join(para.split())) + "</p>"
              for para in s["notes"].split("\n\n") if para.strip()]
    return h


def rst_page(path, summary, agg, scenarios, meta):
    """The same numbers as reST for Documentation/testbed/results.rst."""
    L = [".. SPDX-License-Identifier: GPL-2.0", "", "=" * 40,
         "Results of the papers' experiments", "=" * 40, "",
         ".. This file is generated by testbed/run (testbed/suite/page.py) from",
         "   the run records; edit the scenarios or papers.toml, not this file.", "",
         f"Made {meta['date']} by ``{meta['command']}``"
         + ("" if meta["runs_made_by"] == [meta["command"]] else
            " from runs made by " + ", ".join(f"``{c}``" for c in meta["runs_made_by"]))
         + f" ({meta['form']} form, "
         f"{meta['runs']} runs, kernel {meta.get('kernel') or '-'}, airqueue "
         f"{meta.get('git') or '-'}).  The page with the plots is "
         "``results/index.html``.", "",
         "Summary", "=======", "",
         ".. list-table::", "   :header-rows: 1", "",
         "   * - paper", "     - claim", "     - paper", "     - ours",
         "     - Linux default", "     - ratio", "     - verdict"]
    for p in summary:
        for c in p["claims"]:
            L += [f"   * - {p['key']}", f"     - {c['id']} ({c['scenario']})",
                  f"     - {_v(c['paper_value'])} {c['unit']}".rstrip(),
                  f"     - {_v(c['ours'])}", f"     - {_v(c['default'])}",
                  f"     - {_v(c['ratio'], '.2f')}",
                  f"     - {c['verdict'] or c['status']}"]
    L.append("")
    for p in summary:
        L += [p["title"], "-" * len(p["title"]), "",
              f"{p['authors']}.  Verdict: **{p['verdict'] or 'not measured yet'}**.", ""]
        for c in p["claims"]:
            L += [f"``{c['id']}``: {c['what']}.  Paper: {_v(c['paper_value'])} {c['unit']} "
                  f"({c['cite']}, line {c['source_line']} of ``shared/papers/{p['file']}``).", ""]
        for name, s in sorted(scenarios.items()):
            if s.get("paper") != p["key"] or name not in agg:
                continue
            L += [f"Scenario ``{name}``: {s['title']}.", "", "::", ""]
            L += ["    " + line for line in
                  sm.scenario_table(name, agg[name]).strip("\n").splitlines()]
            for para in s.get("notes", "").split("\n\n"):
                if para.strip():
                    L += ["", " ".join(para.split())]
            L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L).rstrip() + "\n")
    return path


def meta_of(runs, command, form):
    k = next((r["guest"].get("kernel") for r in runs if r["guest"].get("kernel")), None)
    # the trees the runs were made from (resumed suites mix them)
    g = ", ".join(sorted({r["host"]["git"] for r in runs if r["host"].get("git")})) or None
    made = sorted({r["host"].get("command") for r in runs if r["host"].get("command")})
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "command": command, "runs_made_by": made, "form": form, "runs": len(runs),
            "kernel": k, "git": g}
