/* SPDX-License-Identifier: GPL-2.0-only */
/* Bianchi (2000) saturation model of DCF: the reference for validation. */
#ifndef AQ_BIANCHI_H
#define AQ_BIANCHI_H

struct bianchi_in {
	int n;			/* stations */
	int W;			/* CWmin + 1 */
	int m;			/* maximum backoff stage: CWmax + 1 = 2^m W */
	double sigma;		/* slot, us */
	double Ts, Tc;		/* busy time of a success / collision, us */
	double payload_us;	/* E[P] */
};

struct bianchi_out {
	double tau, p, S;
};

void bianchi_solve(const struct bianchi_in *in, struct bianchi_out *out);

/*
 * Layer 2: Bianchi's chain with the standard's timing after a collision
 * (bianchi.c).  After a collision the stations that did not transmit
 * resume counting DIFS/AIFS (or EIFS) after the colliding frames, the
 * colliding ones when their ACK/CTS timeout expires.  Tc is the busy time
 * from the collision's start to the earlier of the two; lag is how many
 * slots later the colliding stations resume (negative: the others resume
 * later, by -lag slots).  lag = 0 is Bianchi (2000) exactly.
 */
struct bianchi2_in {
	struct bianchi_in b;
	double lag;		/* slots, real */
	/*
	 * lag < 0 only: the window as the colliders' race with the fresh
	 * counters they draw at their next backoff stage, the attempt rate
	 * outside the windows set so that every station still makes tau(p)
	 * attempts per slot it counts (bianchi.c).  0: the window with the
	 * stationary tau, as for lag > 0.
	 */
	int race;
};

void bianchi2_solve(const struct bianchi2_in *in, struct bianchi_out *out);

/*
 * Capture in two power classes (bianchi.c): n_strong stations whose frames
 * the receiver decodes over any number of the other n - n_strong (weak)
 * stations' frames, never over another strong one; a weak frame is
 * decoded only alone.  Bianchi's chain per class; lag as bianchi2_in's
 * (>= 0: the colliders resume lag slots after the others).
 */
struct bianchi_cap_in {
	struct bianchi_in b;
	int n_strong;
	double lag;
};

struct bianchi_cap_out {
	double tau_s, tau_w;	/* attempt probability per slot, per class */
	double p_s, p_w;	/* failure probability per attempt, per class */
	double p;		/* per attempt, over every station */
	double S;
	double share_s;		/* the strong class's share of successes */
};

void bianchi_cap_solve(const struct bianchi_cap_in *in,
		       struct bianchi_cap_out *out);

#endif
