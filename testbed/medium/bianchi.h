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

#endif
