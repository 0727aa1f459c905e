#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Print the results table of a testbed run and draw its plots (PNG).

Usage: testbed/report.py RESULTS_DIR
"""
import json
import os
import sys


def fmt(v, spec=".1f"):
    return "-" if v is None else format(v, spec)


def pyplot():
    """matplotlib.pyplot for PNG output, or None (with a note) if missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots (apt-get install python3-matplotlib)")
        return None
    return plt


def baseline(d):
    r = json.load(open(os.path.join(d, "baseline.json")))
    print(f"\nairqueue testbed: {r['scenario']} (kernel {r['kernel']})")
    print(f"note: {r['note']}\n")
    i = r["idle_rtt_ms"]
    print(f"idle RTT station -> server: median {fmt(i['median'], '.2f')} ms, "
          f"p95 {fmt(i['p95'], '.2f')} ms ({i['n']} pings)\n")
    hdr = f"{'flow':<22} {'Mbit/s':>8} {'retrans':>8} {'RTT med':>8} {'RTT p95':>8} {'RTT max':>8}"
    print(hdr)
    print("-" * len(hdr))
    for fl, name in (("down", "TCP download (AP->STA)"), ("up", "TCP upload (STA->AP)")):
        f = r["flows"][fl]
        print(f"{name:<22} {fmt(f['mbps']):>8} {fmt(f['retransmits'], 'd') if f['retransmits'] is not None else '-':>8} "
              f"{fmt(f['rtt_ms']['median'], '.2f'):>8} {fmt(f['rtt_ms']['p95'], '.2f'):>8} "
              f"{fmt(f['rtt_ms']['max'], '.2f'):>8}")
    print("(RTT: ping station -> wired server every 100 ms while the flow runs)")
    plt = pyplot()
    if not plt:
        return
    fig, ax = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for fl, color in (("down", "tab:blue"), ("up", "tab:orange")):
        f = r["flows"][fl]
        ax[0].plot(range(1, len(f["interval_mbps"]) + 1), f["interval_mbps"],
                   color=color, label=f"TCP {fl}")
        s = f["rtt_series"]
        ax[1].plot([q[0] / 10 for q in s], [q[1] for q in s], ".", ms=3,
                   color=color, label=f"RTT during {fl}")
    ax[0].set_ylabel("throughput (Mbit/s)")
    ax[1].set_ylabel("ping RTT (ms)")
    ax[1].set_xlabel("time (s)")
    ax[0].legend()
    ax[1].legend()
    ax[0].set_title("hwsim AP/STA, today's default (fq_codel TXQs), 10 ms wired RTT")
    png = os.path.join(d, "baseline.png")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print(f"\nplot: {png}")


def bufferbloat(d):
    r = json.load(open(os.path.join(d, "bufferbloat.json")))
    print(f"\nairqueue testbed: {r['scenario']} (kernel {r['kernel']})")
    print(f"setup: {r['setup']}\n")
    i = r["idle_rtt_ms"]
    print(f"idle RTT station -> server: median {fmt(i['median'], '.2f')} ms, "
          f"p95 {fmt(i['p95'], '.2f')} ms ({i['n']} pings)\n")
    hdr = (f"{'AP qdisc':<10} {'Mbit/s':>7} {'retrans':>7} {'RTT med':>8} "
           f"{'RTT p95':>8} {'RTT max':>8} {'qlen med':>8} {'qlen max':>8} "
           f"{'drops':>6} {'busy':>5}")
    print(hdr)
    print("-" * len(hdr))
    for q, f in r["runs"].items():
        if "error" in f:
            print(f"{q:<10} failed: {f['error']}")
            continue
        ql = f.get("root_qlen", {})
        rt = f["retransmits"]
        print(f"{q:<10} {fmt(f['mbps']):>7} {rt if rt is not None else '-':>7} "
              f"{fmt(f['rtt_ms']['median']):>8} {fmt(f['rtt_ms']['p95']):>8} "
              f"{fmt(f['rtt_ms']['max']):>8} "
              f"{fmt(ql.get('median'), 'd') if ql.get('median') is not None else '-':>8} "
              f"{fmt(ql.get('max'), 'd') if ql.get('max') is not None else '-':>8} "
              f"{f.get('root_drops', '-'):>6} "
              f"{fmt(f.get('ap_busy_fraction'), '.2f'):>5}")
    print("(RTT: ping station -> server every 100 ms during the download; qlen: "
          "root qdisc packets,\n sampled every 0.5 s; busy: the AP's channel busy "
          "fraction from the medium)")
    plt = pyplot()
    if not plt:
        return
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.5))
    for q, f in r["runs"].items():
        if "error" in f:
            continue
        v = sorted(x[1] for x in f["rtt_series"])
        if v:
            ax[0].plot(v, [(k + 1) / len(v) for k in range(len(v))], label=q)
        ax[1].plot(range(1, len(f["interval_mbps"]) + 1), f["interval_mbps"],
                   label=q)
    ax[0].set_xscale("log")
    ax[0].set_xlabel("ping RTT under load (ms, log)")
    ax[0].set_ylabel("CDF")
    ax[0].legend()
    ax[0].grid(True, which="both", alpha=0.3)
    ax[1].set_xlabel("time (s)")
    ax[1].set_ylabel("TCP download (Mbit/s)")
    ax[1].legend()
    ax[1].grid(True, alpha=0.3)
    fig.suptitle("802.11g through the airqueue medium: queueing delay and "
                 "throughput per AP qdisc")
    png = os.path.join(d, "bufferbloat.png")
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print(f"\nplot: {png}")


if __name__ == "__main__":
    d = sys.argv[1]
    if os.path.exists(os.path.join(d, "bufferbloat.json")):
        bufferbloat(d)
    else:
        baseline(d)
