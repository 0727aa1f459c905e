// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bianchi, "Performance Analysis of the IEEE 802.11 Distributed
 * Coordination Function", IEEE JSAC 18(3), 2000, eqs. (7), (9), (13):
 *
 *   tau = 2 (1 - 2p) / ((1 - 2p)(W + 1) + p W (1 - (2p)^m))
 *   p   = 1 - (1 - tau)^(n - 1)
 *   P_tr = 1 - (1 - tau)^n,  P_s = n tau (1 - tau)^(n-1) / P_tr
 *   S   = P_s P_tr E[P] / ((1 - P_tr) sigma + P_tr P_s T_s + P_tr (1 - P_s) T_c)
 *
 * The fixed point is found by bisection on p: g(p) = p - (1 - (1 -
 * tau(p))^(n-1)) is increasing in p on [0, 1).
 */
#include <math.h>
#include "bianchi.h"

static double tau_of_p(const struct bianchi_in *in, double p)
{
	double W = in->W, q = 1.0 - 2.0 * p;

	return 2.0 * q / (q * (W + 1.0) + p * W * (1.0 - pow(2.0 * p, in->m)));
}

void bianchi_solve(const struct bianchi_in *in, struct bianchi_out *out)
{
	double lo = 0.0, hi = 0.999999, p = 0.0, tau, ptr, ps;

	if (in->n <= 1) {
		p = 0.0;
	} else {
		for (int i = 0; i < 200; i++) {
			p = 0.5 * (lo + hi);
			tau = tau_of_p(in, p);
			if (p - (1.0 - pow(1.0 - tau, in->n - 1)) > 0)
				hi = p;
			else
				lo = p;
		}
	}
	tau = tau_of_p(in, p);
	ptr = 1.0 - pow(1.0 - tau, in->n);
	ps = in->n * tau * pow(1.0 - tau, in->n - 1) / ptr;
	out->tau = tau;
	out->p = p;
	out->S = ps * ptr * in->payload_us /
		 ((1.0 - ptr) * in->sigma + ptr * ps * in->Ts + ptr * (1.0 - ps) * in->Tc);
}

/*
 * Layer 2: Bianchi's chain with the standard's post-collision timing.
 *
 * With the standard's ACKTimeout (SIFS + slot + aRxPHYStartDelay, 10.3.2.9)
 * the stations of a collision resume counting `lag` slots after those that
 * did not transmit (which resume DIFS/AIFS after the colliding frames, or
 * EIFS if they decoded a PHY header: "Performance Study of IEEE 802.11
 * DCF and IEEE 802.11e EDCA", in B. Bing (ed.), Emerging Technologies in
 * Wireless LANs, Cambridge University Press, 2008, p. 72 and eq. (41)).
 * That chapter and ns-3's reference (generate_bianchi.m) fold the
 * difference into T_c as if nobody could transmit meanwhile; here the
 * others keep counting: after each collision comes a window of
 * ceil(|lag|) slots in which only the group that resumed first contends
 * (n - 2 stations, or the 2 colliders when lag < 0), ended early by the
 * first transmission in it, its last slot (lag - floor(lag)) long if idle.
 * A collision in the window opens a new window.  (lag < 0, the others
 * with EIFS, is not validated: see medium-fidelity.rst, Validation.)
 *
 * tau is each station's attempt probability per slot in which it counts
 * (Kumar, Altman, Miorandi and Goyal, IEEE/ACM ToN 15(3), 2007: tau is
 * E[attempts] / E[backoff slots] per packet, which is Bianchi's eq. (7)
 * for his chain), so tau = tau(p) as in layer 1; p, the collision
 * probability per attempt, is averaged over the attempts in ordinary slots
 * (n - 1 others) and in window slots (n_w - 1 others).  Renewal-reward per
 * ordinary slot:
 *
 *   w  = P_c / (1 - c_w)                windows per ordinary slot
 *   L  = sum_{j=1..k} Pi_w^(j-1)        slots per window, k = ceil(|lag|)
 *   c_w = L Pc_w                        collisions per window
 *   T  = Pi sigma + Ps Ts + Pc Tc + w (sigma sum_j f_j Pi_w^j + L Ps_w Ts + L Pc_w Tc)
 *   S  = (Ps + w L Ps_w) E[P] / T,      f_j = min(1, |lag| - (j - 1))
 *
 * with Pi, Ps, Pc the idle/success/collision probabilities of a slot with n
 * contenders and Pi_w, Ps_w, Pc_w with n_w.  Simplifications: every
 * collision is taken as one of two stations (n_w = n - 2, or 2); the first
 * slot after the window is an ordinary one, although there a colliding
 * station whose counter is 0 goes before, not with, an other at
 * ceil(lag) (its instant is frac(lag) slots earlier); the fixed point
 * decouples stations as Bianchi's does.
 */
struct slot_pr {
	double pi, ps, pc;
};

static void slot_probs(int k, double tau, struct slot_pr *s)
{
	if (k <= 0) {
		s->pi = 1.0;
		s->ps = s->pc = 0.0;
		return;
	}
	s->pi = pow(1.0 - tau, k);
	s->ps = k * tau * pow(1.0 - tau, k - 1);
	s->pc = 1.0 - s->pi - s->ps;
}

struct l2_state {
	double p, S;
};

static void l2_eval(const struct bianchi2_in *in, double tau, struct l2_state *o)
{
	const struct bianchi_in *b = &in->b;
	double a = fabs(in->lag), L = 0.0, idle_w = 0.0, w, cw, att, col, T;
	int n = b->n, nw = in->lag > 0 ? n - 2 : 2, k = (int)ceil(a - 1e-9);
	struct slot_pr s, sw;

	if (nw > n)
		nw = n;
	slot_probs(n, tau, &s);
	slot_probs(nw, tau, &sw);
	for (int j = 1; j <= k; j++) {
		double f = a - (j - 1) < 1.0 ? a - (j - 1) : 1.0;

		L += pow(sw.pi, j - 1);
		idle_w += f * pow(sw.pi, j);
	}
	cw = L * sw.pc;
	w = cw < 1.0 ? s.pc / (1.0 - cw) : 0.0;
	att = n * tau + w * L * nw * tau;
	col = n * tau * (1.0 - pow(1.0 - tau, n - 1)) +
	      (nw > 0 ? w * L * nw * tau * (1.0 - pow(1.0 - tau, nw - 1)) : 0.0);
	o->p = att > 0 ? col / att : 0.0;
	T = s.pi * b->sigma + s.ps * b->Ts + s.pc * b->Tc +
	    w * (b->sigma * idle_w + L * sw.ps * b->Ts + L * sw.pc * b->Tc);
	o->S = (s.ps + w * L * sw.ps) * b->payload_us / T;
}

void bianchi2_solve(const struct bianchi2_in *in, struct bianchi_out *out)
{
	double lo = 1e-9, hi = 1.0, tau = 1.0;
	struct l2_state st;

	/* g(tau) = tau(p(tau)) - tau decreases in tau: bisect */
	if (in->b.n > 1)
		for (int i = 0; i < 200; i++) {
			tau = 0.5 * (lo + hi);
			l2_eval(in, tau, &st);
			if (tau_of_p(&in->b, st.p) > tau)
				lo = tau;
			else
				hi = tau;
		}
	else
		tau = tau_of_p(&in->b, 0.0);
	l2_eval(in, tau, &st);
	out->tau = tau;
	out->p = st.p;
	out->S = st.S;
}
