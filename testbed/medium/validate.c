// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saturation validation of the medium against analytic models.
 *
 * n saturated stations send to one sink over ideal links (40 dB SNR, no
 * bit errors, everyone hears everyone), no retry limit in practice (4 x 255
 * attempts).
 *
 * Layer 1, Bianchi (2000) under his assumptions: DCF (no EDCA), EIFS off
 * and an ACK/CTS timeout <= DIFS so that colliding stations resume with the
 * others.  The model's T_s and T_c are built from the same PHY timing
 * functions, so this checks the MAC (backoff, freezing, collisions, timing)
 * exactly.
 *
 * Layer 2, the medium's defaults: EIFS as the medium implements it (after a
 * decoded PHY header and a lost frame: bystanders of an equal-power
 * same-slot collision lose the header and use DIFS), the standard's
 * ACK/CTS timeout (SIFS + slot + aRxPHYStartDelay, 10.3.2.9), hostapd's
 * basic rates (RTS, CTS and ACK rates), the PHY's slot, DCF or EDCA (BE),
 * at 802.11b, g and a, against bianchi2_solve() (bianchi.c): Bianchi's
 * chain in the fixed-point form of Kumar, Altman, Miorandi and Goyal, "New
 * insights from a fixed-point analysis of single cell IEEE 802.11 WLANs",
 * IEEE/ACM ToN 15(3), 2007, with the post-collision timing of the
 * chapter "Performance Study of IEEE 802.11 DCF and IEEE 802.11e EDCA" in
 * B. Bing (ed.), Emerging Technologies in Wireless LANs, Cambridge
 * University Press, 2008 (its p. 72: a listener uses EIFS after a collision
 * if it synchronised on one of the preambles, DIFS if not; sect. 4.3.3,
 * eq. (41): the colliding stations wait their ACK_Timeout), extended so
 * that the others keep counting while the colliding stations wait.
 * ns-3's reference (src/wifi/examples/reference/generate_bianchi.m)
 * instead adds the difference to T_c; that reading is 3-4 % off the
 * medium at 802.11b, n = 50 (Documentation/testbed/medium-fidelity.rst).
 *
 * Layer 2, capture: the defaults as in the dcf rows (payload capture is
 * one: the SINR decides), half the stations near the sink and half far
 * (75 and 35 dB SNR; every other pair 40 dB), at 802.11b, g and a, against
 * bianchi_cap_solve() (bianchi.c), a chain per power class: a near frame
 * survives far ones in its slot, never another near one; after a
 * collision nobody survives, the dcf rows' window.  Each row also
 * compares the near stations' share of the successes (within 0.02).
 *
 * Usage: aqmedium-validate [-n successes] [-s seed] [-o B|b|g|a] [-l 1|2]
 *        [-q] [-e] [-f]
 * (-q: the short form, n = 2, 10, 50; -e: also 802.11g DCF with bystanders
 * that decode one of two colliding headers and so use EIFS, against the
 * model's race of the colliders, who resume first; -f: strict backoff
 * freezing instead of the EDCA/Bianchi slot rule)
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
#define TOL_P	0.02	/* also the capture rows' share of successes */

/*
 * Capture rows: SNR at the sink of the near and the far stations (every
 * other pair 40 dB).  A far frame alone decodes (35 dB, 9 dB over 54
 * Mbit/s's 10 % point); a near frame decodes over far ones (40 dB over
 * each, 33 dB over five); two near or two far frames in a slot lose their
 * headers (0 dB < pd_snr_db).
 */
#define CAP_STRONG_DB	75.0
#define CAP_WEAK_DB	35.0

struct vres {
	double S, p;
	uint64_t events, succ;
	uint64_t eifs;		/* frames after which a radio used EIFS */
	double share;		/* capture rows: the strong stations' successes */
	double cpu;
};

struct vcase {
	int layer;		/* 1: Bianchi's assumptions; 2: the defaults */
	enum aq_std std;
	bool rts;
	bool edca;		/* layer 2: EDCA (BE, AIFSN 3) or DCF */
	bool sync;		/* layer 2: bystanders decode colliding headers */
	bool cap;		/* two power classes at the sink, capture */
	int n;
	unsigned int payload, overhead;
	int rate_idx;
	unsigned int kbps;
	unsigned int freq;
};

static void setup_phy(const struct vcase *c, struct aq_phy *phy)
{
	aq_phy_defaults(phy, c->std);
	if (c->layer == 2) {
		/* the defaults: EIFS, ACKTimeout, basic rates, slot; only
		 * the access mechanism and DCF/EDCA vary.  sync: a PHY that
		 * decodes the header of one of two equal-power frames (the
		 * threshold at -20 dB), so bystanders of a collision use
		 * EIFS: the standard's other reading (medium-fidelity.rst,
		 * Open) */
		phy->edca = c->edca;
		phy->ampdu = false;
		phy->rts_threshold = c->rts ? 0 : 65535;
		if (c->sync)
			phy->pd_snr_db = -20;
		return;
	}
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
	uint64_t ss0 = 0, ss = 0;
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
	if (c->cap)	/* the first n / 2 near the sink, the rest far */
		for (int i = 0; i < c->n; i++)
			aq_link_set_snr(m, i + 1, 0, i < c->n / 2 ? CAP_STRONG_DB : CAP_WEAK_DB);
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
				if ((int)i <= c->n / 2)
					ss0 += st->successes;
			}
		}
	}
	att = fail = pay = 0;
	for (unsigned int i = 1; i < m->n_radios; i++) {
		struct aq_ac_stats *st = &m->radio[i].ac[AQ_AC_BE].st;

		att += st->attempts;
		fail += st->failures;
		pay += st->payload_ok;
		if ((int)i <= c->n / 2)
			ss += st->successes;
	}
	/* normalised throughput: payload time at the PHY rate / elapsed time */
	res->S = ((pay - pay0) * 8.0 * 1e6 / c->kbps) / (double)(m->now - t0);
	res->p = (double)(fail - f0) / (double)(att - a0);
	res->events = m->st.events;
	res->succ = succ - s0;
	res->share = (double)(ss - ss0) / (double)(succ - s0);
	res->eifs = 0;
	for (unsigned int i = 0; i < m->n_radios; i++)
		res->eifs += m->radio[i].eifs_set;
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
}

static void run_model(const struct vcase *c, struct bianchi_out *out,
		      double *share)
{
	struct aq_phy phy;
	struct aq_rate data, ctrl, rrate, crate;
	struct bianchi2_in in2;
	struct bianchi_in in;
	double d, sifs, difs, del, ack, rts, cts, ato, bys, col, first;
	int m = 0;

	setup_phy(c, &phy);
	if (c->std == AQ_STD_CUSTOM)
		aq_rate_legacy(&phy, phy.custom_kbps, false, &data);
	else
		aq_rate_from_hwsim(&phy, c->freq, c->rate_idx, 0, &data);
	aq_ctrl_rate(&phy, &data, &ctrl);
	if (c->layer == 2) {
		/* RTS at a basic rate (10.6.6.2), its CTS at the response
		 * rate to the RTS */
		aq_rts_rate(&phy, &data, &rrate);
		aq_ctrl_rate(&phy, &rrate, &crate);
	} else {
		rrate = crate = ctrl;
	}
	d = aq_txtime(&phy, &data, c->payload + c->overhead) / 1000.0;
	ack = aq_txtime(&phy, &ctrl, AQ_ACK_LEN) / 1000.0;
	rts = aq_txtime(&phy, &rrate, AQ_RTS_LEN) / 1000.0;
	cts = aq_txtime(&phy, &crate, AQ_CTS_LEN) / 1000.0;
	sifs = phy.sifs / 1000.0;
	/* DIFS, or AIFS[BE] = SIFS + 3 slots with EDCA (Table 9-155) */
	difs = (phy.sifs + (phy.edca ? 3 : 2) * phy.slot) / 1000.0;
	del = phy.prop / 1000.0;
	while ((unsigned int)((phy.cwmin + 1) << m) < phy.cwmax + 1)
		m++;
	in.n = c->n;
	in.W = phy.cwmin + 1;
	in.m = m;
	in.sigma = phy.slot / 1000.0;
	in.payload_us = c->payload * 8.0 * 1000.0 / c->kbps;
	if (!c->rts)
		in.Ts = d + sifs + del + ack + difs + del;
	else
		in.Ts = rts + sifs + del + cts + sifs + del + d + sifs + del + ack +
			difs + del;
	col = c->rts ? rts : d;
	if (c->layer == 1) {
		in.Tc = col + difs + del;
		bianchi_solve(&in, out);
		return;
	}
	/*
	 * After a collision (frames of equal length, starting together):
	 * the others resume counting at the end of the frames as they hear
	 * it (+ del) + DIFS/AIFS, + EIFS - DIFS if they decoded a header
	 * (sync; 10.3.2.3.7, 10.23.2.4); the colliding stations at the
	 * first slot boundary of their grid (DIFS/AIFS + k slots after the
	 * other colliders' frames end, + del) not before their ACK/CTS
	 * timeout after their own frame's end, as core.c's count_start.
	 */
	ato = del + difs;
	if (phy.ack_timeout / 1000.0 > ato)
		ato += ceil((phy.ack_timeout / 1000.0 - ato) / in.sigma - 1e-9) * in.sigma;
	bys = del + difs + (c->sync ? (aq_eifs(&phy) - aq_difs(&phy)) / 1000.0 : 0);
	first = ato < bys ? ato : bys;
	in.Tc = col + first;
	in2.b = in;
	in2.lag = (ato - bys) / in.sigma;
	/* sync: the colliders resume first (lag < 0, 33 slots at g: EIFS
	 * holds the ACK at 1 Mbit/s) with fresh counters; bianchi.c models
	 * the window as their race */
	in2.race = c->sync;
	if (c->cap) {
		struct bianchi_cap_in ci = { .b = in, .n_strong = c->n / 2,
					     .lag = in2.lag };
		struct bianchi_cap_out co;

		bianchi_cap_solve(&ci, &co);
		out->tau = co.tau_s;
		out->p = co.p;
		out->S = co.S;
		*share = co.share_s;
		return;
	}
	bianchi2_solve(&in2, out);
}

/* the PHYs of the rows: data frame and its rate */
static const struct vphy {
	char phy;
	enum aq_std std;
	unsigned int payload, overhead;	/* octets */
	int rate_idx;
	unsigned int kbps, freq;
} vphys[] = {
	/* Bianchi's Table II: 8184-bit payload, 272-bit MAC header+FCS */
	{ 'B', AQ_STD_CUSTOM, 1023, 34, 0, 1000, 0 },
	{ 'b', AQ_STD_B, 1500, 34, 3, 11000, 2412 },	/* 11 Mbit/s CCK, long preamble */
	{ 'g', AQ_STD_G, 1500, 34, 11, 54000, 2412 },	/* 54 Mbit/s ERP-OFDM */
	{ 'a', AQ_STD_A, 1500, 34, 7, 54000, 5180 },	/* 54 Mbit/s OFDM, 5 GHz */
};

static void set_std(struct vcase *c, char phy)
{
	for (size_t i = 0; i < sizeof(vphys) / sizeof(vphys[0]); i++) {
		const struct vphy *v = &vphys[i];

		if (v->phy != phy)
			continue;
		c->std = v->std;
		c->payload = v->payload;
		c->overhead = v->overhead;
		c->rate_idx = v->rate_idx;
		c->kbps = v->kbps;
		if (v->freq)
			c->freq = v->freq;
		return;
	}
}

/* a row's access column: DCF, EDCA, or DCF with EIFS after collisions */
static const char *acc_name(const struct vcase *c)
{
	if (c->layer == 1)
		return "bianchi";
	if (c->cap)
		return "capture";
	return c->sync ? "dcf+eifs" : c->edca ? "edca" : "dcf";
}

/*
 * bianchi_cap_solve() with no strong station is one class: it must be
 * Bianchi's (lag 0) and bianchi2_solve()'s window (lag > 0) exactly.
 */
static int check_cap_model(void)
{
	static const double lags[] = { 0, 2, 8.5 };
	static const int ns[] = { 2, 10, 50 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(lags) / sizeof(lags[0]); i++)
		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
			struct bianchi_in b = { .n = ns[j], .W = 16, .m = 6,
						.sigma = 9, .Ts = 300, .Tc = 250,
						.payload_us = 222 };
			struct bianchi2_in in2 = { .b = b, .lag = lags[i] };
			struct bianchi_cap_in ci = { .b = b, .lag = lags[i] };
			struct bianchi_cap_out co;
			struct bianchi_out o;

			if (lags[i] > 0)
				bianchi2_solve(&in2, &o);
			else
				bianchi_solve(&b, &o);
			bianchi_cap_solve(&ci, &co);
			if (fabs(co.S - o.S) > 1e-9 || fabs(co.p - o.p) > 1e-9)
				bad++;
		}
	printf("# bianchi_cap_solve() with one class = bianchi_solve()/bianchi2_solve(): %s\n",
	       bad ? "FAIL" : "ok (9 of 9 within 1e-9)");
	return bad;
}

int main(int argc, char **argv)
{
	static const int ns_full[] = { 1, 2, 5, 10, 20, 50 };
	static const int ns_short[] = { 2, 10, 50 };
	/* layer, phy, access: 0 DCF, 1 EDCA, 2 DCF + EIFS after collisions,
	 * 3 DCF with two power classes at the sink (capture) */
	static const struct { int layer; char phy; int acc; } sets[] = {
		{ 1, 'B', 0 }, { 1, 'g', 0 },
		{ 2, 'b', 0 }, { 2, 'b', 1 }, { 2, 'g', 0 }, { 2, 'g', 1 },
		{ 2, 'a', 0 }, { 2, 'a', 1 },
		{ 2, 'g', 2 },	/* -e only: bianchi2_in.race */
		/* capture in two power classes: bianchi_cap_solve() */
		{ 2, 'b', 3 }, { 2, 'g', 3 }, { 2, 'a', 3 },
	};
	uint64_t target = 40000, seed = 1;
	const char *only = NULL;
	int bad = 0, opt, rows = 0, layer = 0, n_ns = 6;
	bool eifs_rows = false;
	const int *ns = ns_full;

	while ((opt = getopt(argc, argv, "n:s:o:l:fqe")) != -1) {
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
		case 'l':
			layer = atoi(optarg);
			break;
		case 'f':
			strict_freeze = true;	/* show the other reading */
			break;
		case 'e':
			eifs_rows = true;
			break;
		case 'q':
			ns = ns_short;	/* the short form: n = 2, 10, 50 */
			n_ns = 3;
			break;
		default:
			fprintf(stderr, "usage: %s [-n successes] [-s seed] [-o B|b|g|a] [-l 1|2] [-q] [-e] [-f]\n",
				argv[0]);
			return 2;
		}
	}
	printf("# saturation validation: tolerance |dS|/S <= %.0f%%, |dp| <= %.2f\n",
	       TOL_S * 100, TOL_P);
	printf("# layer 1, Bianchi (2000) under his assumptions (EIFS off, ACK timeout <= DIFS, DCF):\n");
	printf("#   B: his Table II (1 Mbit/s, slot 50 us, SIFS 28, DIFS 128, W=32, m=5, 8184-bit payload)\n");
	printf("#   g: 802.11g ERP-OFDM 54 Mbit/s, ACK/CTS at 24 Mbit/s, slot 9 us, SIFS 10, W=16, m=6, 1500-octet payload\n");
	printf("# layer 2, the defaults (EIFS rule, ACK/CTS timeout, hostapd's basic rates) against bianchi2_solve():\n");
	printf("#   b: 11 Mbit/s CCK, ACK/RTS/CTS at 2, timeout 222 us; g: 54 ERP-OFDM, ACK 24, RTS/CTS 11 CCK,\n");
	printf("#   timeout 39 us; a: 54 OFDM, ACK/RTS/CTS 24, timeout 45 us; 1500-octet payload; dcf: DIFS,\n");
	printf("#   edca: AIFS[BE] (AIFSN 3, CWmax 1023); dcf+eifs: bystanders decode colliding headers (EIFS)\n");
	printf("#   eifs: frames after which some radio used EIFS; the model has none, so a dcf or\n");
	printf("#   edca row with any fails (equal-power collisions must leave every header undecoded)\n");
	printf("# capture: DCF, n / 2 stations near the sink (75 dB SNR) and n - n / 2 far (35 dB), payload\n");
	printf("#   capture (the SINR decides, the default), the dcf rows' timing\n");
	printf("#   against bianchi_cap_solve() (bianchi.c); the near stations' share of successes within %.2f\n", TOL_P);
	bad += check_cap_model();
	printf("%-2s %-4s %-3s %-6s %-9s %-8s %-8s %-7s %-8s %-8s %-7s %-6s %s\n", "L", "phy",
	       "n", "mode", "access", "S_model", "S_emu", "dS%", "p_model", "p_emu",
	       "dp", "eifs", "verdict");
	for (unsigned int si = 0; si < sizeof(sets) / sizeof(sets[0]); si++) {
		char pn[2] = { sets[si].phy, 0 };

		if (layer && sets[si].layer != layer)
			continue;
		if (sets[si].acc == 2 && !eifs_rows)
			continue;
		if (only && strcmp(only, pn))
			continue;
		for (int rts = 0; rts < 2; rts++)
			for (int k = 0; k < n_ns; k++) {
				struct vcase c = { 0 };
				struct bianchi_out mo;
				struct vres er;
				double ds, dp, share = 0;
				bool ok;

				c.layer = sets[si].layer;
				set_std(&c, sets[si].phy);
				c.edca = sets[si].acc == 1;
				c.sync = sets[si].acc == 2;
				c.cap = sets[si].acc == 3;
				c.rts = rts;
				c.n = ns[k];
				if (c.cap && c.n < 2)
					continue;	/* two classes */
				run_model(&c, &mo, &share);
				run_emulator(&c, target, seed + k, &er);
				ds = (er.S - mo.S) / mo.S;
				dp = er.p - mo.p;
				ok = fabs(ds) <= TOL_S && fabs(dp) <= TOL_P &&
				     (c.sync || !er.eifs) &&
				     (!c.cap || fabs(er.share - share) <= TOL_P);
				bad += !ok;
				rows++;
				printf("%-2d %-4s %-3d %-6s %-9s %-8.4f %-8.4f %+-7.2f %-8.4f %-8.4f %+-7.4f %-6llu %s\n",
				       c.layer, pn, c.n, rts ? "rts" : "basic",
				       acc_name(&c), mo.S, er.S, ds * 100, mo.p, er.p,
				       dp, (unsigned long long)er.eifs, ok ? "ok" : "FAIL");
				if (c.cap)
					printf("#   near stations' share of successes: model %.4f emu %.4f\n",
					       share, er.share);
				fflush(stdout);
			}
	}
	printf("# %d of %d rows within tolerance\n", rows - bad, rows);
	return bad ? 1 : 0;
}
