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
