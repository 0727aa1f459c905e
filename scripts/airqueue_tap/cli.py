# SPDX-License-Identifier: GPL-2.0
"""tap-setup: compute n* (Bianchi) and set up TCP ACK priority on an AP."""

import argparse
import json
import os
import sys

from . import TapError
from . import bianchi, edca, phy as phymod, tcfilter


def _phy_args(p):
    g = p.add_argument_group("PHY and traffic (model parameters)")
    g.add_argument("--phy", default="b", choices=phymod.PHY_NAMES,
                   help="PHY parameter set (default b: 802.11b DSSS, ns-2 defaults)")
    g.add_argument("--rate", type=float, help="data rate in Mbit/s "
                   "(default: 11 b, 1 fhss, 54 a/g, 65 n)")
    g.add_argument("--basic-rate", type=float,
                   help="rate of RTS/CTS/ACK in Mbit/s (default: 1 for b, highest "
                   "mandatory OFDM rate <= data rate for a/g/n)")
    g.add_argument("--short-preamble", action="store_true", help="802.11b short PLCP")
    g.add_argument("--size", type=int, default=1024,
                   help="MSDU (frame body) size in bytes, E[P] (default 1024)")
    g.add_argument("--cwmin", type=int, help="override CWmin (W = CWmin + 1)")
    g.add_argument("--cwmax", type=int, help="override CWmax (2^m W = CWmax + 1)")
    g.add_argument("--slot", type=float, help="override slot time (us)")
    g.add_argument("--sifs", type=float, help="override SIFS (us)")
    g.add_argument("--difs", type=float, help="override DIFS (us)")
    g.add_argument("--delta", type=float, help="propagation delay (us, default 1)")
    g.add_argument("--band", default="5", choices=("2.4", "5"), help="802.11n band")
    g.add_argument("--bw", type=int, default=20, choices=(20, 40), help="802.11n MHz")
    g.add_argument("--sgi", action="store_true", help="802.11n short guard interval")
    g.add_argument("--nss", type=int, default=1, help="802.11n spatial streams")
    g.add_argument("--nmax", type=int, default=50,
                   help="largest n searched/printed (default 50)")


def _make_phy(a):
    phymod.check_size(a.size)
    return phymod.make_phy(a.phy, rate=a.rate, basic_rate=a.basic_rate,
                           short_preamble=a.short_preamble, cwmin=a.cwmin,
                           cwmax=a.cwmax, slot=a.slot, sifs=a.sifs, difs=a.difs,
                           delta=a.delta, band=a.band, ht_bw=a.bw, ht_sgi=a.sgi,
                           ht_nss=a.nss)


def analyse(phy, size, access, nmax):
    t = bianchi.timing(phy, size, access)
    ns = bianchi.nstar(phy, t, nmax)
    return {
        "access": access, "timing": t, "nstar": ns,
        "paper_approx": bianchi.paper_nstar(phy, t, "approx"),
        "paper_closed": bianchi.paper_nstar(phy, t, "closed"),
        "paper_numeric": bianchi.paper_nstar(phy, t, "numeric"),
        "curve": bianchi.curve(phy, t, nmax),
    }


def _fmt_opt(x):
    return "none in range" if x is None else f"{x:.3f}"


def report(phy, size, res, table):
    t, ns = res["timing"], res["nstar"]
    out = [f"access {res['access']}: MSDU {size} B, Ts={t.ts:.1f} us, "
           f"Tc={t.tc:.1f} us, Tc*=Tc/slot={t.tc_star:.3f}"]
    lim = " (at --nmax: n* may be larger)" if ns.at_limit else ""
    out.append(f"  n* = {ns.real:.3f} (maximiser of continuous S(n)), "
               f"{ns.integer} (integer){lim}")
    out.append(f"  S(n*) = {ns.s_integer:.4f} of {phy.rate:g} Mbit/s = "
               f"{ns.s_integer * phy.rate:.3f} Mbit/s payload")
    # TAP's release: the AP sends the ACKs of n* - 1 stations at a time
    out.append(f"  AP queue releasing n* - 1 = {max(ns.integer - 1, 1)} stations' ACKs at a "
               f"time: tc qdisc replace dev IFACE root ebdp ackprio release "
               f"{max(ns.integer - 1, 1)} quantum 30ms")
    out.append(f"  TAP paper's criterion tau(n) = 1/(n sqrt(Tc*/2)): "
               f"n = {_fmt_opt(res['paper_approx'])}")
    out.append(f"    same criterion with Bianchi's closed-form tau_opt: "
               f"n = {_fmt_opt(res['paper_closed'])}, with the numeric "
               f"tau_opt: n = {_fmt_opt(res['paper_numeric'])}")
    pa = res["paper_approx"]
    if pa is not None and round(pa) >= 1:
        k = int(round(pa))
        sk = res["curve"][k - 1].s if k <= len(res["curve"]) else None
        if sk is not None:
            out.append(f"  S({k}) = {sk:.4f}: {100 * (sk / ns.s_integer - 1):+.2f}% "
                       f"vs S(n*={ns.integer}) (the curve is flat near its top)")
    if table:
        out.append(f"  {'n':>4} {'tau':>9} {'p':>9} {'S':>8} {'Mbit/s':>8}")
        for q in res["curve"]:
            mark = "  <- n*" if q.n == ns.integer else ""
            out.append(f"  {q.n:>4} {q.tau:9.6f} {q.p:9.6f} {q.s:8.5f} "
                       f"{q.mbps:8.4f}{mark}")
    return out


def plot(path, phy, size, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TapError("--plot needs matplotlib (Debian: python3-matplotlib)") \
            from None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in results:
        xs = [q.n for q in r["curve"]]
        ys = [q.mbps for q in r["curve"]]
        line, = ax.plot(xs, ys, marker=".", label=f"{r['access']}: "
                        f"n*={r['nstar'].real:.2f} ({r['nstar'].integer})")
        ax.axvline(r["nstar"].real, color=line.get_color(), ls=":", lw=1)
    ax.set_xlabel("contending stations n")
    ax.set_ylabel("saturation throughput (Mbit/s payload)")
    ax.set_title(f"Bianchi model, {phy.name} {phy.rate:g} Mbit/s, MSDU {size} B, "
                 f"W={phy.W} m={phy.m}", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def cmd_nstar(a):
    if not 2 <= a.nmax <= 1000:
        raise TapError(f"--nmax {a.nmax} outside 2..1000")
    phy = _make_phy(a)
    accesses = ("basic", "rts") if a.access == "both" else (a.access,)
    results = [analyse(phy, a.size, acc, a.nmax) for acc in accesses]
    if a.json:
        print(json.dumps({
            "phy": phy.describe(), "size": a.size,
            "results": [{
                "access": r["access"], "ts_us": r["timing"].ts,
                "tc_us": r["timing"].tc, "tc_star": r["timing"].tc_star,
                "nstar_real": r["nstar"].real, "nstar_int": r["nstar"].integer,
                "release": max(r["nstar"].integer - 1, 1),
                "at_limit": r["nstar"].at_limit,
                "paper_approx": r["paper_approx"], "paper_closed": r["paper_closed"],
                "paper_numeric": r["paper_numeric"],
                "curve": [[q.n, q.tau, q.p, q.s, q.mbps] for q in r["curve"]],
            } for r in results]}, indent=1))
    else:
        print("Bianchi (2000) saturation model, exact fixed point")
        for line in phy.describe():
            print("  " + line)
        for r in results:
            print("\n".join(report(phy, a.size, r, a.table)))
    if a.plot:
        plot(a.plot, phy, a.size, results)
        print(f"plot written to {a.plot}", file=sys.stderr)
    return 0


def _vo(a):
    if not 2 <= a.nmax <= 1000:
        raise TapError(f"--nmax {a.nmax} outside 2..1000")
    phy = _make_phy(a)
    if a.nstar is not None:
        if a.nstar < 1 or a.nstar > 64:
            raise TapError(f"--nstar {a.nstar} outside 1..64")
        n, src = a.nstar, "given with --nstar"
    else:
        r = analyse(phy, a.size, a.access, a.nmax)
        n, src = r["nstar"].integer, (f"Bianchi argmax, {a.access} access, "
                                      f"continuous {r['nstar'].real:.3f}")
    vo = edca.vo_params(phy, n, a.ack_bytes, a.vo_cwmax)
    comment = [
        "airqueue tap-setup: AC_VO EDCA of the AP itself (data0 = AC_VO)",
        f"{phy.name} {phy.rate:g} Mbit/s, MSDU {a.size} B; n* = {n} ({src})",
        f"TXOP for n*-1 = {vo['_nacks']} pure TCP ACKs of {a.ack_bytes} B IP: "
        f"{vo['_txop_us']:.0f} us -> burst {vo['burst']} ms",
        "needs wmm_enabled=1; wmm_ac_* (advertised to stations) unchanged",
    ]
    info = {"n_star": n, "phy": a.phy, "rate": phy.rate, "size": a.size,
            "access": a.access, "txop_us": round(vo["_txop_us"], 1)}
    return phy, vo, comment, info


def cmd_hostapd(a):
    _, vo, comment, _ = _vo(a)
    lines = edca.hostapd_lines(vo, comment)
    print("\n".join(lines))
    if a.write:
        try:
            with open(a.write, encoding="utf-8") as f:
                orig = f.read()
            backup = a.write + ".tap-orig"
            if not os.path.exists(backup):
                edca.write_atomic(backup, orig)
            edca.write_atomic(a.write, edca.rewrite_config(orig, vo))
        except OSError as e:
            raise TapError(f"{e.filename}: {e.strerror}") from None
        print(f"written to {a.write} (original kept in {backup}; "
              f"'apply --hostapd-conf' records it for 'remove' instead)",
              file=sys.stderr)
    return 0


def cmd_apply(a):
    r = tcfilter.Runner()
    _, vo, comment, info = _vo(a)
    release = None
    if a.release is not None:
        if a.release == "auto":
            release = max(info["n_star"] - 1, 1)
        else:
            try:
                release = int(a.release)
            except ValueError:
                raise TapError(f"--release {a.release}: a number of stations "
                               f"or 'auto' (n* - 1)") from None
        info = dict(info, release=release)
    tcfilter.apply(r, a.iface, a.prio, a.state_dir,
                   hostapd_conf=a.hostapd_conf, vo=vo, info=info,
                   release=release, quantum_ms=a.quantum)
    print(f"{a.iface}: pure TCP ACKs (IPv4/IPv6) -> skb priority "
          f"{tcfilter.SKB_PRIO_AC_VO:#x} (802.1d 6, AC_VO), egress prio "
          f"{a.prio}/{a.prio + 1}")
    if release is not None:
        print(f"{a.iface}: root qdisc: tc {' '.join(tcfilter.release_command(a.iface, release, a.quantum))}")
    print("\n".join(edca.hostapd_lines(vo, comment)))
    if a.hostapd_conf:
        print(f"written to {a.hostapd_conf}; reload hostapd to use it")
    return 0


def cmd_status(a):
    ok, lines = tcfilter.status(tcfilter.Runner(), a.iface, a.state_dir, a.verbose)
    print("\n".join(lines))
    return 0 if ok else 3


def cmd_remove(a):
    for m in tcfilter.remove(tcfilter.Runner(), a.iface, a.state_dir):
        print(m)
    return 0


def parser():
    p = argparse.ArgumentParser(
        prog="tap-setup",
        description="TCP ACK priority (TAP) at an access point: Bianchi n* "
        "model, tc classification of pure TCP ACKs to AC_VO, hostapd EDCA.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("nstar", help="saturation throughput curve and n*")
    _phy_args(s)
    s.add_argument("--access", default="both", choices=("basic", "rts", "both"))
    s.add_argument("--table", action="store_true", help="print S(n) for n=1..nmax")
    s.add_argument("--plot", metavar="PNG", help="write the curve as a PNG")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(fn=cmd_nstar)

    def vo_args(s):
        _phy_args(s)
        s.add_argument("--access", default="basic", choices=("basic", "rts"),
                       help="access mode the stations use (default basic)")
        s.add_argument("--nstar", type=int, help="use this n* instead of the model")
        s.add_argument("--ack-bytes", type=int, default=edca.PURE_ACK_IP_BYTES,
                       help="IP size of a pure ACK for the TXOP (default 52: "
                       "IPv4 + TCP + timestamps)")
        s.add_argument("--vo-cwmax", type=int, default=3, help="AC_VO CWmax (default 3)")

    s = sub.add_parser("hostapd", help="print tx_queue_data0_* lines")
    vo_args(s)
    s.add_argument("--write", metavar="CONF", help="also set them in CONF")
    s.set_defaults(fn=cmd_hostapd)

    s = sub.add_parser("apply", help="install TAP on IFACE (root)")
    s.add_argument("iface")
    vo_args(s)
    s.add_argument("--hostapd-conf", metavar="CONF",
                   help="also set tx_queue_data0_* in CONF (restored by remove)")
    s.add_argument("--prio", type=int, default=tcfilter.DEFAULT_PRIO,
                   help="egress filter prio for IPv4 (IPv6 uses prio+1; default 16)")
    s.add_argument("--state-dir", default=os.environ.get("AQ_TAP_STATE_DIR",
                                                         tcfilter.STATE_DIR))
    s.add_argument("--release", metavar="N|auto",
                   help="also make the root qdisc release the ACKs of N stations "
                   "at a time (auto: n* - 1): tc qdisc replace ... root ebdp "
                   "ackprio release N (needs sch_ebdp and q_ebdp.so; only over "
                   "the default noqueue; remove deletes it)")
    s.add_argument("--quantum", type=int, default=30, metavar="MS",
                   help="with --release, each station's turn in ms (default 30)")
    s.set_defaults(fn=cmd_apply)

    for name, fn, hlp in (("status", cmd_status, "show filters and counters"),
                          ("remove", cmd_remove, "restore IFACE as before apply")):
        s = sub.add_parser(name, help=hlp)
        s.add_argument("iface")
        s.add_argument("--state-dir", default=os.environ.get("AQ_TAP_STATE_DIR",
                                                             tcfilter.STATE_DIR))
        if name == "status":
            s.add_argument("-v", "--verbose", action="store_true",
                           help="also print tc -s filter show")
        s.set_defaults(fn=fn)
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    try:
        return a.fn(a)
    except TapError as e:
        print(f"tap-setup: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
