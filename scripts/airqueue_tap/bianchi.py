# SPDX-License-Identifier: GPL-2.0
"""Bianchi's saturation model of the 802.11 DCF and the optimal n*.

G. Bianchi, "Performance analysis of the IEEE 802.11 distributed
coordination function", IEEE JSAC 18(3), March 2000.

n stations, each always backlogged, with binary exponential backoff from
W = CWmin + 1 up to 2^m W. The per-slot transmission probability tau and
the conditional collision probability p satisfy

  tau = 2 (1 - 2p) / ((1 - 2p)(W + 1) + p W (1 - (2p)^m))      (Bianchi (7))
  p   = 1 - (1 - tau)^(n - 1)                                   (Bianchi (9))

(7) is evaluated in the equivalent form tau = 2 / (W + 1 + p W sum_{k<m}
(2p)^k), which has no removable singularity at p = 1/2. As tau grows,
p(tau) grows and the right-hand side of (7) falls, so
g(tau) = tau - tau7(p(tau)) is strictly increasing with g(0) < 0 < g(1):
the fixed point is unique and bisection finds it to machine precision.
n may be real (n >= 1): the curve S(n) is then continuous, and n* can be
reported as a real maximiser as well as an integer.

Throughput (Bianchi (13)), as the fraction of time carrying payload:

  Ptr = 1 - (1 - tau)^n, Ps = n tau (1 - tau)^(n-1) / Ptr
  S = Ps Ptr E[P] / ((1 - Ptr) sigma + Ptr Ps Ts + Ptr (1 - Ps) Tc)

Basic access:  Ts = H + E[P] + SIFS + delta + ACK + DIFS + delta
               Tc = H + E[P*] + DIFS + delta    (equal sizes: P* = P)
RTS/CTS:       Ts = RTS + SIFS + delta + CTS + SIFS + delta + H + E[P]
                    + SIFS + delta + ACK + DIFS + delta
               Tc = RTS + DIFS + delta
(Bianchi (17), (18)), with "H + E[P]" the airtime of the whole data MPDU.

Dividing numerator and denominator by Ps Ptr shows that S(n) is maximal
where [(1 - Ptr) sigma + Ptr Tc] / (Ptr Ps) is minimal: the maximiser n*
depends only on W, m and Tc* = Tc / sigma, not on Ts. With RTS/CTS, Tc
contains only the RTS, so n* does not depend on data rate or frame size.

The TAP paper picks n* differently: it solves tau(n) = tau_opt(n), where
tau_opt is the transmission probability that would maximise S for n
stations, in Bianchi's large-n approximation tau_opt ~ 1 / (n sqrt(Tc*/2))
(paper_nstar also offers his closed form and the numeric optimum).
That is the number of stations for which the standard backoff happens to
be optimal; it is larger than argmax_n S(n), because at that point the
throughput still falls with n at fixed tau. Both are computed here
(paper_nstar), so the documentation can show where the paper's 7.526
comes from.
"""

import math
from dataclasses import dataclass

from . import TapError

BISECT_ITERS = 200
GOLDEN_ITERS = 120


def tau_of_p(p, W, m):
    """Bianchi (7): transmission probability given collision probability."""
    s = 0.0
    term = 1.0
    for _ in range(m):
        s += term
        term *= 2.0 * p
    return 2.0 / (W + 1.0 + p * W * s)


def fixed_point(n, W, m):
    """Solve (7) and (9) for real n >= 1. Returns (tau, p)."""
    if n < 1:
        raise TapError(f"number of stations {n} < 1")
    if n == 1:
        return 2.0 / (W + 1.0), 0.0
    lo, hi = 0.0, 1.0
    for _ in range(BISECT_ITERS):
        mid = 0.5 * (lo + hi)
        p = 1.0 - (1.0 - mid) ** (n - 1)
        if mid < tau_of_p(p, W, m):
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-16:
            break
    tau = 0.5 * (lo + hi)
    return tau, 1.0 - (1.0 - tau) ** (n - 1)


@dataclass
class Timing:
    """Durations entering (13), in microseconds, and the payload in bits."""

    access: str
    ts: float
    tc: float
    sigma: float
    payload_bits: float
    rate: float

    @property
    def tc_star(self):
        return self.tc / self.sigma


def timing(phy, size, access):
    """Ts, Tc for an MSDU of `size` bytes (E[P] = 8 * size bits)."""
    mpdu = phy.data_time(phy.mac_hdr + size)
    d = phy.delta
    if access == "basic":
        ts = mpdu + phy.sifs + d + phy.ack_time() + phy.difs + d
        tc = mpdu + phy.difs + d
    elif access == "rts":
        ts = (phy.rts_time() + phy.sifs + d + phy.cts_time() + phy.sifs + d +
              mpdu + phy.sifs + d + phy.ack_time() + phy.difs + d)
        tc = phy.rts_time() + phy.difs + d
    else:
        raise TapError(f"unknown access mode '{access}' (basic or rts)")
    return Timing(access, ts, tc, phy.slot, 8.0 * size, phy.rate)


@dataclass
class Point:
    n: float
    tau: float
    p: float
    s: float            # fraction of time carrying payload (Bianchi's S)
    mbps: float         # payload throughput in Mbit/s


def throughput_tau(n, tau, t):
    """Bianchi (13) for given n and tau (not necessarily the fixed point)."""
    ptr = 1.0 - (1.0 - tau) ** n
    if ptr <= 0.0:
        return 0.0
    ps = n * tau * (1.0 - tau) ** (n - 1) / ptr
    den = (1.0 - ptr) * t.sigma + ptr * ps * t.ts + ptr * (1.0 - ps) * t.tc
    return ps * ptr * t.payload_bits / den     # bits per microsecond = Mbit/s


def point(n, phy, t):
    tau, p = fixed_point(n, phy.W, phy.m)
    mbps = throughput_tau(n, tau, t)
    return Point(n, tau, p, mbps / t.rate, mbps)


def curve(phy, t, nmax):
    return [point(n, phy, t) for n in range(1, nmax + 1)]


def _golden_max(f, a, b):
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(GOLDEN_ITERS):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
        if b - a < 1e-9:
            break
    return 0.5 * (a + b)


@dataclass
class NStar:
    real: float         # argmax of the continuous S(n)
    integer: int        # argmax over n = 1..nmax
    s_real: float
    s_integer: float
    at_limit: bool      # the maximum sits at nmax: n* >= nmax


def nstar(phy, t, nmax=50):
    """Real and integer maximisers of S(n) over [1, nmax]."""
    if nmax < 2:
        raise TapError("nmax must be at least 2")

    def f(n):
        return point(n, phy, t).s
    pts = curve(phy, t, nmax)
    best = max(pts, key=lambda q: q.s)
    k = int(best.n)
    a, b = max(1.0, k - 1.0), min(float(nmax), k + 1.0)
    real = _golden_max(f, a, b)
    return NStar(real, k, f(real), best.s, k == nmax)


def tau_opt_closed(n, tc_star):
    """Bianchi's closed-form optimal tau for n stations (his section V).

    It comes from a second-order expansion of (1 - tau)^n, so it is close
    to, not equal to, the true maximiser (tau_opt_numeric).
    """
    if n <= 1:
        return 1.0
    k = tc_star - 1.0
    return (math.sqrt((n + 2.0 * (n - 1.0) * k) / n) - 1.0) / ((n - 1.0) * k)


def tau_opt_approx(n, tc_star):
    """Bianchi's large-n approximation, the one the TAP paper quotes."""
    return 1.0 / (n * math.sqrt(tc_star / 2.0))


def tau_opt_numeric(n, t):
    """The tau that maximises (13) for n stations, found numerically."""
    return _golden_max(lambda x: throughput_tau(n, x, t), 1e-9, 1.0 - 1e-9)


def paper_nstar(phy, t, method="approx", nmax=200):
    """The TAP paper's n*: the n where tau(n) meets tau_opt(n).

    method: "approx" (1/(n sqrt(Tc*/2)), what the paper used), "closed"
    (Bianchi's closed form) or "numeric" (true maximiser over tau).
    Returns None when the curves do not cross in (1, nmax].
    """
    opts = {"approx": lambda n: tau_opt_approx(n, t.tc_star),
            "closed": lambda n: tau_opt_closed(n, t.tc_star),
            "numeric": lambda n: tau_opt_numeric(n, t)}
    opt = opts[method]

    def g(n):
        return fixed_point(n, phy.W, phy.m)[0] - opt(n)
    lo, hi = 1.0 + 1e-9, float(nmax)
    if g(lo) * g(hi) > 0:
        return None
    glo = g(lo)
    for _ in range(BISECT_ITERS):
        mid = 0.5 * (lo + hi)
        if (g(mid) < 0) == (glo < 0):
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-10:
            break
    return 0.5 * (lo + hi)
