// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saturation validation of the medium against Bianchi (2000).
 *
 * n saturated stations send to one sink over ideal links (40 dB SNR, no
 * bit errors, everyone hears everyone), DCF (no EDCA), no retry limit in
 * practice (4 x 255 attempts), EIFS off and an ACK/CTS timeout <= DIFS so
 * that colliding stations resume with the others: Bianchi's assumptions.
 * The model's T_s and T_c are built from the same PHY timing functions, so
 * this checks the MAC (backoff, freezing, collisions, timing) exactly.
 *
 * Usage: aqmedium-validate [-n successes] [-s seed] [-o b|g] [-f]
 * (-f: strict backoff freezing instead of the EDCA/Bianchi slot rule)
 * Exit 0 when every row is within tolerance (3 % throughput, 0.02 p).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bianchi.h"
#include "medium.h"
#include "sim.h"

static bool strict_freeze;

#define TOL_S	0.03
#define TOL_P	0.02

struct vres {
	double S, p;
	uint64_t events, succ;
	double cpu;
};

struct vcase {
	enum aq_std std;
	bool rts;
	int n;
	unsigned int payload, overhead;
	int rate_idx;
	unsigned int kbps;
	unsigned int freq;
};

static void setup_phy(const struct vcase *c, struct aq_phy *phy)
{
	aq_phy_defaults(phy, c->std);
	phy->edca = false;
	phy->use_eifs = false;
	phy->ampdu = false;
	/* Bianchi: colliding stations resume after DIFS like everyone else */
	phy->ack_timeout = phy->sifs + phy->slot;
	phy->rts_threshold = c->rts ? 0 : 65535;
	phy->resume_decrement = !strict_freeze;
	/* the model's control frames go at 24 Mbit/s OFDM: an OFDM-only
	 * BSSBasicRateSet (hostapd's g default would send RTS at 11 CCK) */
	if (c->std == AQ_STD_G) {
		static const unsigned int ofdm[] = { 6000, 12000, 24000 };

		aq_phy_set_basic(phy, ofdm, 3);
	}
}

static void run_emulator(const struct vcase *c, uint64_t target, uint64_t seed,
			 struct vres *res)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_phy phy;
	uint64_t s0 = 0, a0 = 0, f0 = 0, pay0 = 0, succ, att, fail, pay;
	int64_t t0 = 0;
	uint64_t warm = target / 20 + 50;
	int64_t step;

	setup_phy(c, &phy);
	aq_init(m, &phy, seed);
	m->chan.model = 1;
	m->chan.default_snr_db = 40;
	aq_radio_add(m, "sink", NULL);
	for (int i = 0; i < c->n; i++) {
		char nm[16];
		struct aq_flow fl = { 0 };
		int r;

		snprintf(nm, sizeof(nm), "sta%d", i + 1);
		r = aq_radio_add(m, nm, NULL);
		fl.src = r;
		fl.dst = 0;
		fl.tid = 0;
		fl.payload = c->payload;
		fl.overhead = c->overhead;
		fl.saturated = true;
		fl.depth = 1;
		fl.freq = c->freq;
		for (int k = 0; k < AQ_MAX_RATES; k++) {
			fl.rates[k].idx = c->rate_idx;
			fl.rates[k].count = 255;
		}
		aq_sim_add_flow(&sim, &fl);
	}
	aq_sim_start(m, &sim);
	step = 100 * AQ_NS_PER_US * 1000;	/* 100 ms of virtual time */
	for (int phase = 0; phase < 2; phase++) {
		uint64_t goal = phase ? target : warm;

		for (;;) {
			succ = 0;
			for (unsigned int i = 1; i < m->n_radios; i++)
				succ += m->radio[i].ac[AQ_AC_BE].st.successes;
			if (succ - s0 >= goal)
				break;
			aq_run_until(m, m->now + step);
		}
		if (!phase) {
			s0 = succ;
			t0 = m->now;
			for (unsigned int i = 1; i < m->n_radios; i++) {
				struct aq_ac_stats *st = &m->radio[i].ac[AQ_AC_BE].st;

				a0 += st->attempts;
				f0 += st->failures;
				pay0 += st->payload_ok;
			}
		}
	}
	att = fail = pay = 0;
	for (unsigned int i = 1; i < m->n_radios; i++) {
		struct aq_ac_stats *st = &m->radio[i].ac[AQ_AC_BE].st;

		att += st->attempts;
		fail += st->failures;
		pay += st->payload_ok;
	}
	/* normalised throughput: payload time at the PHY rate / elapsed time */
	res->S = ((pay - pay0) * 8.0 * 1e6 / c->kbps) / (double)(m->now - t0);
	res->p = (double)(fail - f0) / (double)(att - a0);
	res->events = m->st.events;
	res->succ = succ - s0;
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
}

static void run_model(const struct vcase *c, struct bianchi_out *out)
{
	struct aq_phy phy;
	struct aq_rate data, ctrl;
	struct bianchi_in in;
	double d, sifs, difs, del, ack, rts, cts;
	int m = 0;

	setup_phy(c, &phy);
	if (c->std == AQ_STD_CUSTOM)
		aq_rate_legacy(&phy, phy.custom_kbps, false, &data);
	else
		aq_rate_from_hwsim(&phy, c->freq, c->rate_idx, 0, &data);
	aq_ctrl_rate(&phy, &data, &ctrl);
	d = aq_txtime(&phy, &data, c->payload + c->overhead) / 1000.0;
	ack = aq_txtime(&phy, &ctrl, AQ_ACK_LEN) / 1000.0;
	rts = aq_txtime(&phy, &ctrl, AQ_RTS_LEN) / 1000.0;
	cts = aq_txtime(&phy, &ctrl, AQ_CTS_LEN) / 1000.0;
	sifs = phy.sifs / 1000.0;
	difs = aq_difs(&phy) / 1000.0;
	del = phy.prop / 1000.0;
	while ((unsigned int)((phy.cwmin + 1) << m) < phy.cwmax + 1)
		m++;
	in.n = c->n;
	in.W = phy.cwmin + 1;
	in.m = m;
	in.sigma = phy.slot / 1000.0;
	in.payload_us = c->payload * 8.0 * 1000.0 / c->kbps;
	if (!c->rts) {
		in.Ts = d + sifs + del + ack + difs + del;
		in.Tc = d + difs + del;
	} else {
		in.Ts = rts + sifs + del + cts + sifs + del + d + sifs + del + ack +
			difs + del;
		in.Tc = rts + difs + del;
	}
	bianchi_solve(&in, out);
}

int main(int argc, char **argv)
{
	static const int ns[] = { 1, 2, 5, 10, 20, 50 };
	uint64_t target = 40000, seed = 1;
	const char *only = NULL;
	int bad = 0, opt, rows = 0;

	while ((opt = getopt(argc, argv, "n:s:o:f")) != -1) {
		switch (opt) {
		case 'n':
			target = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			only = optarg;
			break;
		case 'f':
			strict_freeze = true;	/* show the other reading */
			break;
		default:
			fprintf(stderr, "usage: %s [-n successes] [-s seed] [-o b|g] [-f]\n",
				argv[0]);
			return 2;
		}
	}
	printf("# Bianchi (2000) saturation validation: tolerance |dS|/S <= %.0f%%, |dp| <= %.2f\n",
	       TOL_S * 100, TOL_P);
	printf("# b: Bianchi Table II (1 Mbit/s, slot 50 us, SIFS 28, DIFS 128, W=32, m=5, 8184-bit payload)\n");
	printf("# g: 802.11g ERP-OFDM 54 Mbit/s, ACK/CTS at 24 Mbit/s, slot 9 us, SIFS 10, W=16, m=6, 1500-octet payload\n");
	printf("%-4s %-3s %-6s %-8s %-8s %-7s %-8s %-8s %-7s %s\n", "phy", "n", "mode",
	       "S_model", "S_emu", "dS%", "p_model", "p_emu", "dp", "verdict");
	for (int g = 0; g < 2; g++) {
		if (only && strcmp(only, g ? "g" : "b"))
			continue;
		for (int rts = 0; rts < 2; rts++)
			for (unsigned int k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
				struct vcase c = { 0 };
				struct bianchi_out mo;
				struct vres er;
				double ds, dp;
				bool ok;

				c.std = g ? AQ_STD_G : AQ_STD_CUSTOM;
				c.rts = rts;
				c.n = ns[k];
				if (g) {
					c.payload = 1500;
					c.overhead = 34;
					c.rate_idx = 11;
					c.kbps = 54000;
					c.freq = 2412;
				} else {
					c.payload = 1023;	/* 8184 bits */
					c.overhead = 34;	/* 272-bit MAC header+FCS */
					c.rate_idx = 0;
					c.kbps = 1000;
				}
				run_model(&c, &mo);
				run_emulator(&c, target, seed + k, &er);
				ds = (er.S - mo.S) / mo.S;
				dp = er.p - mo.p;
				ok = fabs(ds) <= TOL_S && fabs(dp) <= TOL_P;
				bad += !ok;
				rows++;
				printf("%-4s %-3d %-6s %-8.4f %-8.4f %+-7.2f %-8.4f %-8.4f %+-7.4f %s\n",
				       g ? "g" : "b", c.n, rts ? "rts" : "basic", mo.S,
				       er.S, ds * 100, mo.p, er.p, dp, ok ? "ok" : "FAIL");
				fflush(stdout);
			}
	}
	printf("# %d of %d rows within tolerance\n", rows - bad, rows);
	return bad ? 1 : 0;
}
