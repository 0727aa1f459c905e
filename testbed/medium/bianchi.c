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
#include <stdlib.h>
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
 * A collision in the window opens a new window.  (For lag < 0, the
 * others with EIFS, the stationary tau describes the window poorly:
 * bianchi2_in.race selects the colliders' race below instead.)
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

/*
 * The window when the colliding stations resume first (lag < 0, race):
 * the others used EIFS after the collision (they decoded one of the
 * colliding PHY headers; 10.3.2.3.7) and resume EIFS after its end, the
 * colliders when their ACKTimeout expires, |lag| slots earlier (33 at
 * 802.11g with hostapd's basic rates: EIFS holds the ACK at 1 Mbit/s).
 * The window lasts from the colliders' first slot to the others' and is
 * ended by the first transmission in it, which is always a collider's: a
 * success is received by everyone and ends their EIFS (10.3.2.3.7), so
 * after it all n contend again (DIFS after its ACK), the winner at stage
 * 0, the losers with what is left of their counters, the others with the
 * counters they froze; a collision opens a new window.
 *
 * In that window the stationary tau is a poor description: each collider
 * has just drawn a fresh counter at its next stage, uniform on [0, 2^s W
 * - 1], so the window is a race of those counters.  With stations
 * decoupled as in Bianchi's chain, a collider's stage at the collision is
 * that of any attempt, P(i) = (1 - p) p^i (i < m), p^m (i = m), so its
 * counter has the mixture law h(y) = sum_s P'(s) [y < W_s] / W_s,
 * s = min(i + 1, m), G(y) = P(counter >= y).  In a window of j colliders
 * exactly i of them send at window slot y (y = 0 .. K-1, K = ceil(|lag|):
 * their slot boundary ato + y sigma comes before the others' EIFS ends)
 * with probability C(j, i) h(y)^i G(y+1)^(j-i): a success if i = 1, else
 * a window of i colliders; nobody sends in it with G(K)^j, and the window
 * is then |lag| slots of idle time.  The colliders count y + 1 slots each
 * in it (the losers decrement in the winner's slot, the slot rule of
 * 10.23.2.5, as core.c's freeze), or K.
 *
 * Outside the windows all n stations contend with one attempt probability
 * tau_o per slot; a collision of j of them (binomial(n, tau_o)) opens a
 * window of j.  tau_o is not tau(p): the windows' attempts are fixed by
 * the race, and what the colliders do not spend there (the losers'
 * residual counters) they spend in ordinary slots.  Kumar et al.'s
 * identity holds per station wherever its slots fall (attempts / counted
 * slots = tau(p), p the collision probability per attempt), so per
 * ordinary slot
 *
 *   n tau_o + A_w = tau(p) (n + C_w)
 *
 * with A_w, C_w the attempts and counted slots of the windows that follow
 * (v_j windows of j colliders per ordinary slot, from the binomial and
 * the windows' own collisions); p is averaged over the ordinary attempts
 * (n - 1 others at tau_o) and the window ones, and the fixed point is
 * sought in p.  Simplifications: a window after a collision in a window
 * draws its colliders' stages afresh; the colliders' slot grid after an
 * empty window is taken to be the others'; the fixed point decouples
 * stations as Bianchi's does.
 */
struct race_w {
	double ps;		/* success per window */
	double idle;		/* idle slots per window */
	double cnt;		/* slots counted by the colliders */
	double att, catt;	/* attempts, colliding attempts */
};

struct race {
	int n;
	struct race_w *w;	/* [j], j = 2 .. n colliders */
	double *q;		/* [j * (n + 1) + i]: a window of j opens one of i */
};

static double lbinom(int n, int k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

static double pbinom(int n, int k, double h, double g)
{
	if (h <= 0.0)
		return k == 0 ? pow(g, n) : 0.0;
	if (g <= 0.0)
		return k == n ? pow(h, n) : 0.0;
	return exp(lbinom(n, k) + k * log(h) + (n - k) * log(g));
}

static void race_windows(const struct bianchi_in *b, double p, double a,
			 struct race *r)
{
	int m = b->m, n = r->n, k = (int)ceil(a - 1e-9);
	double qn[64] = { 0 }, ws[64];

	if (m > 62)
		m = 62;
	/* the stage a collider goes to: min(i + 1, m) */
	for (int i = 0; i <= m; i++) {
		double qi = i < m ? (1.0 - p) * pow(p, i) : pow(p, m);

		qn[i + 1 < m ? i + 1 : m] += qi;
	}
	for (int s = 0; s <= m; s++)
		ws[s] = ldexp(b->W, s);
	for (int j = 2; j <= n; j++)
		r->w[j] = (struct race_w){ 0 };
	for (int j = 0; j <= n * (n + 1) + n; j++)
		r->q[j] = 0.0;
	for (int y = 0; y <= k; y++) {
		double h = 0.0, g1 = 0.0;

		for (int s = 0; s <= m; s++) {
			if (y < ws[s])
				h += qn[s] / ws[s];
			if (y + 1 < ws[s])
				g1 += qn[s] * (ws[s] - y - 1) / ws[s];
		}
		for (int j = 2; j <= n; j++) {
			struct race_w *w = &r->w[j];

			if (y == k) {
				double none = pow(g1 + h, j);	/* G(K)^j */

				w->idle += none * a;
				w->cnt += none * (double)j * k;
				continue;
			}
			for (int i = 1; i <= j; i++) {
				double pi = pbinom(j, i, h, g1);

				w->idle += pi * y;
				w->cnt += pi * (double)j * (y + 1);
				w->att += pi * i;
				if (i == 1)
					w->ps += pi;
				else
					w->catt += pi * i;
				if (i >= 2)
					r->q[j * (n + 1) + i] += pi;
			}
		}
	}
}

static void race_eval(const struct bianchi2_in *in, struct race *r, double p,
		      struct l2_state *o)
{
	const struct bianchi_in *b = &in->b;
	double tau = tau_of_p(b, p), lo = 0.0, hi = 1.0, t = 0.0;
	double att, col, T, aw = 0, cw = 0, caw = 0, idle = 0, ps = 0, pc = 0;
	double *v;
	int n = b->n;
	struct slot_pr s;

	race_windows(b, p, fabs(in->lag), r);
	v = &r->q[(n + 1) * (n + 1)];
	/* n t + A_w(t) - tau (n + C_w(t)) is -n tau at t = 0 and crosses 0
	 * once (checked at 802.11g, n = 2 .. 200): bisect */
	for (int it = 0; it <= 100; it++) {
		t = it < 100 ? 0.5 * (lo + hi) : t;
		aw = cw = caw = idle = ps = pc = 0.0;
		/* windows per ordinary slot: v_i = Binom(n, t, i) + sum_j v_j q_ji */
		for (int i = n; i >= 2; i--) {
			double x = pbinom(n, i, t, 1.0 - t), qs = 0.0;

			for (int j = i + 1; j <= n; j++)
				x += v[j] * r->q[j * (n + 1) + i];
			v[i] = x / (1.0 - r->q[i * (n + 1) + i]);
			aw += v[i] * r->w[i].att;
			cw += v[i] * r->w[i].cnt;
			caw += v[i] * r->w[i].catt;
			idle += v[i] * r->w[i].idle;
			ps += v[i] * r->w[i].ps;
			for (int j = 2; j <= i; j++)
				qs += r->q[i * (n + 1) + j];
			pc += v[i] * qs;
		}
		if (it == 100)
			break;
		if (n * t + aw - tau * (n + cw) > 0)
			hi = t;
		else
			lo = t;
	}
	slot_probs(n, t, &s);
	att = n * t + aw;
	col = n * t * (1.0 - pow(1.0 - t, n - 1)) + caw;
	o->p = att > 0 ? col / att : 0.0;
	T = s.pi * b->sigma + s.ps * b->Ts + s.pc * b->Tc +
	    idle * b->sigma + ps * b->Ts + pc * b->Tc;
	o->S = (s.ps + ps) * b->payload_us / T;
}

static void bianchi2_race(const struct bianchi2_in *in, struct bianchi_out *out)
{
	double lo = 0.0, hi = 0.999999, p = 0.0;
	int n = in->b.n;
	struct race r = { .n = n };
	struct l2_state st;

	r.w = calloc(n + 1, sizeof(*r.w));
	/* q, then v */
	r.q = calloc((size_t)(n + 1) * (n + 1) + n + 1, sizeof(*r.q));
	if (!r.w || !r.q) {
		free(r.w);
		free(r.q);
		out->tau = out->p = out->S = NAN;
		return;
	}
	/* g(p) = p - p'(p) is < 0 at 0, > 0 near 1 and crosses 0 once
	 * (checked as above): bisect */
	for (int i = 0; i < 200; i++) {
		p = 0.5 * (lo + hi);
		race_eval(in, &r, p, &st);
		if (p - st.p > 0)
			hi = p;
		else
			lo = p;
	}
	race_eval(in, &r, p, &st);
	free(r.w);
	free(r.q);
	out->tau = tau_of_p(&in->b, p);
	out->p = st.p;
	out->S = st.S;
}

void bianchi2_solve(const struct bianchi2_in *in, struct bianchi_out *out)
{
	double lo = 1e-9, hi = 1.0, tau = 1.0;
	struct l2_state st;

	if (in->race && in->lag < 0 && in->b.n > 1) {
		bianchi2_race(in, out);
		return;
	}

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

/*
 * Capture in two power classes.  The receiver decodes a frame of a strong
 * station (power far enough above everything else that its SINR supports
 * the rate) whatever weak stations send in the same slot; two strong
 * frames, or two weak ones with no strong one, are lost; a weak frame is
 * decoded only alone.  This is the two-power-level capture of Hadzi-Velkov
 * and Spasenovski, "The influence of flat Rayleigh fading channel with
 * hidden terminals and capture over the IEEE 802.11 WLANs", IEEE VTC 2001
 * Fall, vol. 2, p. 972 (two discrete mean power levels, 20 dB apart),
 * without their fading (fixed powers, so capture is certain or
 * impossible) and with Bianchi's chain per class rather than one chain
 * for all (the fixed point of Kumar et al. per class), in a slot with n_s
 * strong and n_w weak contenders:
 *
 *   P_i  = (1 - tau_s)^n_s (1 - tau_w)^n_w
 *   P_ss = n_s tau_s (1 - tau_s)^(n_s - 1)            strong success
 *   P_sw = (1 - tau_s)^n_s n_w tau_w (1 - tau_w)^(n_w - 1)
 *   P_cs = 1 - (1 - tau_s)^n_s - P_ss                 strong collision
 *   P_cw = 1 - P_i - P_ss - P_sw - P_cs               weak collision
 *   p_s  = 1 - (1 - tau_s)^(n_s - 1),  p_w = 1 - (1 - tau_s)^n_s (1 - tau_w)^(n_w - 1)
 *   tau_c = tau(p_c)                  (Bianchi's eq. (7), each class)
 *
 * A slot where a strong frame is captured lasts T_s for everyone: the weak
 * senders' wait for their ACK ends with the ACK on the air, and they
 * resume with the others after it.  After a collision that nobody
 * survives the colliders resume lag slots after the others, as in
 * bianchi2_solve() (lag > 0 only): a window of ceil(lag) slots in which
 * the others contend, ended by the first transmission in it; a collision
 * in a window opens a new one.  The window after a strong collision has
 * n_s - 2 strong and n_w weak contenders, after a weak one n_s and n_w - 2
 * (every collision taken as one of two stations).  Per ordinary slot, with
 * v_x the windows of type x (s, w), L_x their expected slots and C_xy the
 * collisions of type y in a slot of a window of type x:
 *
 *   v_s = P_cs + v_s L_s C_ss + v_w L_w C_ws
 *   v_w = P_cw + v_s L_s C_sw + v_w L_w C_ww
 *
 * and p_c is averaged over the attempts of class c in ordinary and window
 * slots.  lag = 0 is Bianchi's timing: no windows.
 */
struct cap_slot {
	double pi, pss, psw, pcs, pcw;
	double as, fs, aw, fw;	/* attempts and failures per class */
};

static void cap_slot(int ns, int nw, double ts, double tw, struct cap_slot *c)
{
	double a, b, a1, b1;

	if (ns < 0)
		ns = 0;
	if (nw < 0)
		nw = 0;
	a = pow(1.0 - ts, ns);
	b = pow(1.0 - tw, nw);
	a1 = ns > 0 ? pow(1.0 - ts, ns - 1) : 0.0;
	b1 = nw > 0 ? pow(1.0 - tw, nw - 1) : 0.0;
	c->pi = a * b;
	c->pss = ns * ts * a1;
	c->psw = a * nw * tw * b1;
	c->pcs = 1.0 - a - c->pss;
	c->pcw = 1.0 - c->pi - c->pss - c->psw - c->pcs;
	if (c->pcs < 0)
		c->pcs = 0;
	if (c->pcw < 0)
		c->pcw = 0;
	c->as = ns * ts;
	c->fs = ns * ts * (1.0 - a1);
	c->aw = nw * tw;
	c->fw = nw * tw * (1.0 - a * b1);
}

struct cap_eval {
	double p_s, p_w, S, share;
};

static void cap_eval(const struct bianchi_cap_in *in, double ts, double tw,
		     struct cap_eval *o)
{
	const struct bianchi_in *b = &in->b;
	int ns = in->n_strong, nw = b->n - in->n_strong;
	int k = in->lag > 0 ? (int)ceil(in->lag - 1e-9) : 0;
	struct cap_slot s, x[2];
	double L[2] = { 0, 0 }, idle[2] = { 0, 0 }, v[2], det;
	double as, fs, aw, fw, succ, ssucc, T;

	cap_slot(ns, nw, ts, tw, &s);
	cap_slot(ns - 2, nw, ts, tw, &x[0]);	/* after a strong collision */
	cap_slot(ns, nw - 2, ts, tw, &x[1]);	/* after a weak one */
	for (int t = 0; t < 2; t++)
		for (int j = 1; j <= k; j++) {
			double f = in->lag - (j - 1) < 1.0 ? in->lag - (j - 1) : 1.0;

			L[t] += pow(x[t].pi, j - 1);
			idle[t] += f * pow(x[t].pi, j);
		}
	/* (1 - L_s C_ss) v_s - L_w C_ws v_w = P_cs
	 * -L_s C_sw v_s + (1 - L_w C_ww) v_w = P_cw */
	{
		double a11 = 1.0 - L[0] * x[0].pcs, a12 = -L[1] * x[1].pcs;
		double a21 = -L[0] * x[0].pcw, a22 = 1.0 - L[1] * x[1].pcw;

		det = a11 * a22 - a12 * a21;
		v[0] = det > 0 ? (s.pcs * a22 - a12 * s.pcw) / det : 0.0;
		v[1] = det > 0 ? (a11 * s.pcw - a21 * s.pcs) / det : 0.0;
	}
	as = s.as;
	fs = s.fs;
	aw = s.aw;
	fw = s.fw;
	ssucc = s.pss;
	succ = s.pss + s.psw;
	T = s.pi * b->sigma + (s.pss + s.psw) * b->Ts + (s.pcs + s.pcw) * b->Tc;
	for (int t = 0; t < 2; t++) {
		double w = v[t] * L[t];

		as += w * x[t].as;
		fs += w * x[t].fs;
		aw += w * x[t].aw;
		fw += w * x[t].fw;
		ssucc += w * x[t].pss;
		succ += w * (x[t].pss + x[t].psw);
		T += v[t] * b->sigma * idle[t] +
		     w * ((x[t].pss + x[t].psw) * b->Ts + (x[t].pcs + x[t].pcw) * b->Tc);
	}
	o->p_s = as > 0 ? fs / as : 0.0;
	o->p_w = aw > 0 ? fw / aw : 0.0;
	o->S = succ * b->payload_us / T;
	o->share = succ > 0 ? ssucc / succ : 0.0;
}

void bianchi_cap_solve(const struct bianchi_cap_in *in,
		       struct bianchi_cap_out *out)
{
	int ns = in->n_strong, nw = in->b.n - in->n_strong;
	double ps = 0.0, pw = 0.0, ts, tw, a;
	struct cap_eval e;

	/* damped iteration of (p_s, p_w) -> the p's of tau(p_s), tau(p_w) */
	for (int i = 0; i < 20000; i++) {
		double dps, dpw;

		cap_eval(in, tau_of_p(&in->b, ps), tau_of_p(&in->b, pw), &e);
		dps = e.p_s - ps;
		dpw = e.p_w - pw;
		ps += 0.5 * dps;
		pw += 0.5 * dpw;
		if (fabs(dps) < 1e-13 && fabs(dpw) < 1e-13)
			break;
	}
	ts = ns > 0 ? tau_of_p(&in->b, ps) : 0.0;
	tw = nw > 0 ? tau_of_p(&in->b, pw) : 0.0;
	cap_eval(in, ts, tw, &e);
	out->tau_s = ts;
	out->tau_w = tw;
	out->p_s = ps;
	out->p_w = pw;
	a = ns * ts + nw * tw;
	out->p = a > 0 ? (ns * ts * ps + nw * tw * pw) / a : 0.0;
	out->S = e.S;
	out->share_s = e.share;
}
