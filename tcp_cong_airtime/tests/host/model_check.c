// SPDX-License-Identifier: GPL-2.0
/*
 * Host check of airtime_model.c: the integer model against an independent
 * floating point reference over whole grids (every OFDM rate and IP packet
 * size, every HT MCS 0-15), and its documented precision (theta, Jain).
 * Prints TAP.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "airtime_model.h"

static int n_test;
static int failed;

static void check(int cond, const char *desc, const char *diag)
{
	n_test++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, desc);
	if (!cond) {
		failed++;
		printf("# %s\n", diag);
	}
}

/* reference, microseconds, double */
static double ofdm_us(double mbps, double bytes)
{
	return 20 + 4 * ceil((16 + 8 * bytes + 6) / (4 * mbps));
}

static double ctl_mbps(double mbps)
{
	return mbps >= 24 ? 24 : mbps >= 12 ? 12 : 6;
}

static double dsss_us(double mbps, double bytes)
{
	return 192 + ceil(8 * bytes / mbps);
}

struct ref_phy { double slot, sifs, ext, cw; int prot; };

static double ref_t_data(const struct ref_phy *p, double mbps, int rts,
			 double ip_len, double data_us)
{
	double c = ctl_mbps(mbps), t;

	t = p->sifs + 2 * p->slot + p->cw * p->slot / 2;
	if (rts && p->prot)
		t += dsss_us(1, 20) + p->sifs + dsss_us(1, 14) + p->sifs;
	else if (rts)
		t += ofdm_us(c, 20) + p->ext + p->sifs + ofdm_us(c, 14) + p->ext +
		     p->sifs;
	else if (p->prot)
		t += dsss_us(1, 14) + p->sifs;
	(void)ip_len;
	return t + data_us + p->ext + p->sifs + ofdm_us(c, 14) + p->ext;
}

static double ht_us(int ndbps, int nss, int sgi, double bytes)
{
	static const int nltf[5] = { 0, 1, 2, 4, 4 };
	double nsym = ceil((8 * bytes + 16 + 6) / ndbps);
	double data = sgi ? 4 * ceil(nsym * 9 / 10) : 4 * nsym;

	return 20 + 8 + 4 + 4 * nltf[nss] + data;
}

int main(void)
{
	static const double legacy[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
	/* 802.11n-2009 tables 20-30..20-33, Mbit/s, MCS 0-7 (1 stream) */
	static const double ht20[8] = { 6.5, 13, 19.5, 26, 39, 52, 58.5, 65 };
	static const double ht20s[8] = { 7.2, 14.4, 21.7, 28.9, 43.3, 57.8, 65, 72.2 };
	static const double ht40[8] = { 13.5, 27, 40.5, 54, 81, 108, 121.5, 135 };
	static const double ht40s[8] = { 15, 30, 45, 60, 90, 120, 135, 150 };
	static const struct { int std; struct ref_phy p; const char *name; } phys[] = {
		{ AIRTIME_PHY_11A, { 9, 16, 0, 15, 0 }, "11a" },
		{ AIRTIME_PHY_11G, { 9, 10, 6, 15, 0 }, "11g" },
		{ AIRTIME_PHY_11G_PROT, { 20, 10, 6, 31, 1 }, "11g-prot" },
	};
	char diag[256] = "", desc[128];
	unsigned int i, k, len, bad, cases;
	int rts, mcs, bw, sgi;

	printf("1..8\n");

	/* 1. legacy OFDM exchanges, every rate, IP length 0..2304, RTS on/off */
	for (k = 0; k < 3; k++) {
		struct airtime_phy phy;

		bad = 0;
		cases = 0;
		for (rts = 0; rts <= 1; rts++) {
			airtime_phy_init(&phy, phys[k].std, rts);
			for (i = 0; i < 8; i++)
				for (len = 0; len <= 2304; len++) {
					struct airtime_rate r = { .kbps = legacy[i] * 1000 };
					double want = ref_t_data(&phys[k].p, legacy[i], rts, len,
						ofdm_us(legacy[i], len + 38)) * 1000;
					u32 got = airtime_t_data_ns(&phy, &r, len);

					cases++;
					if (fabs(got - want) > 0.01 && !bad++)
						snprintf(diag, sizeof(diag),
							 "%s %g Mbit/s rts %d len %u: %u ns, want %.1f",
							 phys[k].name, legacy[i], rts, len, got, want);
				}
		}
		snprintf(desc, sizeof(desc),
			 "%s: T_data (12) for every rate, IP length 0-2304, RTS on/off (%u cases)",
			 phys[k].name, cases);
		check(!bad, desc, diag);
	}

	/* 2. HT rates from the standard's parameters vs. the published tables */
	bad = 0;
	for (mcs = 0; mcs < 16; mcs++)
		for (bw = 0; bw <= 1; bw++)
			for (sgi = 0; sgi <= 1; sgi++) {
				const double *t = bw ? (sgi ? ht40s : ht40) :
						       (sgi ? ht20s : ht20);
				double want = t[mcs % 8] * (mcs / 8 + 1);
				double got = airtime_ht_kbps(mcs, bw, sgi) / 1000.0;

				if (fabs(got - want) > 0.1 && !bad++)
					snprintf(diag, sizeof(diag),
						 "MCS %d %s %s: %.3f, table %.1f", mcs,
						 bw ? "HT40" : "HT20", sgi ? "SGI" : "LGI",
						 got, want);
			}
	check(!bad, "HT MCS 0-15, 20/40 MHz, long/short GI match the rate tables", diag);

	/* 3. HT PPDU durations for every MCS 0-15 and PSDU length 1..4095 */
	bad = 0;
	cases = 0;
	for (mcs = 0; mcs < 16; mcs++)
		for (bw = 0; bw <= 1; bw++)
			for (sgi = 0; sgi <= 1; sgi++)
				for (len = 1; len < 4096; len++) {
					static const int bpscs[8] = { 1, 2, 2, 4, 4, 6, 6, 6 };
					static const int rn[8] = { 1, 1, 3, 1, 3, 2, 3, 5 };
					static const int rd[8] = { 2, 2, 4, 2, 4, 3, 4, 6 };
					int nss = mcs / 8 + 1;
					int ndbps = (bw ? 108 : 52) * bpscs[mcs % 8] * nss *
						    rn[mcs % 8] / rd[mcs % 8];
					struct airtime_rate r = {
						.kbps = airtime_ht_kbps(mcs, bw, sgi),
						.nss = nss, .sgi = sgi,
					};
					double want = ht_us(ndbps, nss, sgi, len) * 1000;
					u32 got = airtime_ht_ppdu_ns(&r, len);

					cases++;
					if (fabs(got - want) > 0.01 && !bad++)
						snprintf(diag, sizeof(diag),
							 "MCS %d bw40 %d sgi %d len %u: %u, want %.0f",
							 mcs, bw, sgi, len, got, want);
				}
	printf("# HT: %u PPDUs compared\n", cases);
	check(!bad, "HT mixed format PPDU durations (N_DBPS recovered from the rate)", diag);

	/* 4. theta (10): error bound of the Q16 cycle count */
	srand(1);
	bad = 0;
	for (i = 0; i < 200000; i++) {
		u32 slot = 10000 + rand() % 1000000;
		u32 tau = 1 + rand() % slot;
		u32 t_tcp = 50000 + rand() % 20000000;
		u32 mss = 536 + rand() % 8500, b = 1 + rand() % 2;
		double exact = (double)tau * 1000 / t_tcp * mss * b * 1e6 / slot;
		double bound = (double)mss * b * 1e6 / slot / 65536 + 1;
		u64 got = airtime_theta_bps(tau, t_tcp, mss, b, slot);

		if ((got > exact + 1e-6 || exact - got > bound) && !bad++)
			snprintf(diag, sizeof(diag),
				 "tau %u T_TCP %u mss %u b %u T %u: %llu, exact %.3f",
				 tau, t_tcp, mss, b, slot, (unsigned long long)got, exact);
	}
	check(!bad, "theta never above the exact value, below it by < mss*b/T * 2^-16 + 1 B/s", diag);

	/* 5. wnd_max (13): floor of RTT * theta */
	bad = 0;
	for (i = 0; i < 100000; i++) {
		u64 theta = rand() % 200000000;
		u32 rtt = 1 + rand() % 2000000, mss = 536 + rand() % 8500;
		u64 want = (u64)floor((double)theta * rtt / 1e6 / mss);
		u32 got = airtime_wnd_max_segs(rtt, theta, mss);

		if ((got > want + 1 || got + 1 < want) && !bad++)
			snprintf(diag, sizeof(diag), "theta %llu rtt %u: %u want %llu",
				 (unsigned long long)theta, rtt, got,
				 (unsigned long long)want);
	}
	check(!bad, "wnd_max = floor(RTT * theta / mss)", diag);

	/* 6. Jain (14): within 1 ppm below 2^20 us, 20 ppm for any u32 input */
	bad = 0;
	for (i = 0; i < 100000; i++) {
		u32 t[32], n = 1 + rand() % 32, big = i & 1, j;
		double s = 0, q = 0;

		for (j = 0; j < n; j++) {
			t[j] = big ? (u32)rand() * 2u + (rand() & 1) :
				     (u32)(rand() % (1 << 20));
			s += t[j];
			q += (double)t[j] * t[j];
		}
		if (q == 0)
			continue;
		if (fabs(airtime_jain_ppm(t, n) - s * s / (n * q) * 1e6) >
		    (big ? 20 : 1) && !bad++)
			snprintf(diag, sizeof(diag), "n %u: %u vs %.2f", n,
				 airtime_jain_ppm(t, n), s * s / (n * q) * 1e6);
	}
	check(!bad, "Jain's index within 1 ppm (t < 2^20 us) / 20 ppm (any u32)", diag);
	return 0;
}
