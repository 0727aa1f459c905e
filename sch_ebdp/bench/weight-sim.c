// SPDX-License-Identifier: GPL-2.0
/*
 * Choice of the eBDP EWMA weight W: feed modelled 802.11 DCF service times
 * through the real estimator (sch_ebdp/ebdp.h, built with user-space
 * shims) and measure, for each W, how noisy Q is in steady state and how
 * fast it follows a change of load (1 -> 11 -> 1 contending stations, as
 * in the eBDP paper's figure 7).
 *
 * Service-time model (one of n saturated stations, 802.11g 54 Mbit/s,
 * 1500-byte frames): each transmission opportunity is won by us with
 * probability 1/n, so K ~ Geometric(1/n) other frames (mean n - 1) pass
 * before ours; each frame occupies T_FRAME plus DIFS and a uniform
 * backoff of 0..CW slots; our frame collides with probability
 * min(0.05 (n - 1), 0.4) per attempt and is then retried with a doubled
 * CW.  Not a substitute for a measured trace; it has the two properties
 * that matter for W: the mean moves by an order of magnitude with n and
 * single samples scatter widely around it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "../ebdp.h"

static double T_FRAME = 300;	/* us: 1500 B at 54 Mbit/s, preamble, SIFS, ACK */
#define T_DIFS 34
#define T_SLOT 9
#define CW_MIN 15
#define PHASE 20000	/* packets per phase */

static u64 rng = 88172645463325252ULL;

static double urand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng >> 11) * (1.0 / 9007199254740992.0);
}

static unsigned int service_us(int n)
{
	double t = 0, pc = fmin(0.05 * (n - 1), 0.4);
	int cw = CW_MIN;

	/* other stations' frames before our win */
	while (n > 1 && urand() >= 1.0 / n)
		t += T_DIFS + urand() * CW_MIN * T_SLOT + T_FRAME;
	for (;;) {
		t += T_DIFS + urand() * cw * T_SLOT + T_FRAME;
		if (urand() >= pc)
			break;
		cw = cw * 2 + 1 > 1023 ? 1023 : cw * 2 + 1;
	}
	return (unsigned int)t;
}

static int cmp_u32(const void *a, const void *b)
{
	return (int)*(const u32 *)a - (int)*(const u32 *)b;
}

int main(int argc, char **argv)
{
	static const unsigned int wdiv[] = { 1, 4, 16, 64, 256, 1024 };
	static const int nsta[3] = { 1, 11, 1 };
	static unsigned int samples[3 * PHASE];
	double mean[3] = { 0 }, qstar[3];
	int i, p, k;

	if (argc > 1)
		T_FRAME = atof(argv[1]);

	for (p = 0; p < 3; p++) {
		for (i = 0; i < PHASE; i++) {
			samples[p * PHASE + i] = service_us(nsta[p]);
			mean[p] += samples[p * PHASE + i];
		}
		mean[p] /= PHASE;
		qstar[p] = fmin(floor(EBDP_DEF_TMAX_US / mean[p]) + EBDP_DEF_C,
				EBDP_DEF_QMAX);
	}
	printf("# model: frame %.0f us; mean Tserv %.0f us (n=1), %.0f us (n=11); ideal Q %.0f, %.0f\n",
	       T_FRAME, mean[0], mean[1], qstar[0], qstar[1]);
	printf("# %-7s %8s %8s %8s %8s %8s %8s %8s %8s\n", "W", "cv11", "p5/Q*11",
	       "p95/Q*11", "cv1", "p5/Q*1", "lag_up", "ms_up", "lag_dn");

	for (k = 0; k < (int)(sizeof(wdiv) / sizeof(wdiv[0])); k++) {
		u32 w = EBDP_WEIGHT_ONE / wdiv[k];
		static u32 q[3 * PHASE];
		u64 t = 0;
		double cv[3], p5[3], p95[3], lag[3] = { 0 }, ms_up = 0;
		static u32 sorted[PHASE / 2];

		for (i = 0; i < 3 * PHASE; i++) {
			t = ebdp_tserv_update(t, samples[i], w);
			q[i] = ebdp_bdp_limit(EBDP_DEF_TMAX_US, t, EBDP_DEF_C,
					      EBDP_DEF_QMAX);
		}
		for (p = 0; p < 3; p++) {
			double s = 0, s2 = 0;
			int n = PHASE / 2;

			/* steady state: second half of the phase */
			for (i = 0; i < n; i++) {
				sorted[i] = q[p * PHASE + PHASE / 2 + i];
				s += sorted[i];
				s2 += (double)sorted[i] * sorted[i];
			}
			cv[p] = sqrt(fmax(s2 / n - (s / n) * (s / n), 0)) / (s / n);
			qsort(sorted, n, sizeof(u32), cmp_u32);
			p5[p] = sorted[n / 20] / qstar[p];
			p95[p] = sorted[n - n / 20] / qstar[p];
			/* lag: packets until Q first enters +-10% of Q* */
			for (i = p * PHASE; i < (p + 1) * PHASE; i++)
				if (fabs(q[i] - qstar[p]) <= 0.1 * qstar[p])
					break;
			lag[p] = i - p * PHASE;
		}
		for (i = PHASE; i < PHASE + lag[1]; i++)
			ms_up += samples[i] / 1000.0;
		printf("  1/%-5u %8.3f %8.2f %8.2f %8.3f %8.2f %8.0f %8.0f %8.0f\n",
		       wdiv[k], cv[1], p5[1], p95[1], (cv[0] + cv[2]) / 2,
		       (p5[0] + p5[2]) / 2, lag[1], ms_up, lag[2]);
	}
	printf("# cv11/cv1: std/mean of Q in steady state with 11 / 1 stations;\n"
	       "# p5/Q*, p95/Q*: 5th and 95th percentile of Q over the ideal\n"
	       "# Tmax/mean(Tserv) + c (below 1: under-buffered, above: extra delay);\n"
	       "# lag_up/lag_dn: packets until Q first comes within 10%% of the new\n"
	       "# ideal after 1 -> 11 / 11 -> 1 stations; ms_up: lag_up in time\n");
	return 0;
}
