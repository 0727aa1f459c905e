// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the airqueue medium model (TAP).  Times asserted below are
 * computed by hand from IEEE 802.11-2016; the derivation is in the comment
 * next to each value.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "hwsim_proto.h"
#include "medium.h"

#define US(x) ((int64_t)(x) * 1000)

static int n_test, n_fail;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	n_test++;
	printf("%sok %d - ", cond ? "" : "not ", n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		n_fail++;
	fflush(stdout);
}

#define EQ(a, b, what) do {						\
	long long _a = (a), _b = (b);					\
	ok(_a == _b, "%s (got %lld, want %lld)", what, _a, _b);	\
} while (0)

/* ------------------------------------------------------------ helpers */

struct st_rec {
	uint64_t cookie;
	bool acked;
	unsigned int attempts;
	struct aq_txrate rep[AQ_MAX_RATES];
	uint8_t ampdu_len, ampdu_acked;
};

static struct st_rec recs[1024];
static unsigned int n_recs;

static void rec_status(struct aq_medium *m, struct aq_frame *f, bool acked)
{
	struct st_rec *r;

	if (n_recs >= 1024)
		return;
	r = &recs[n_recs++];
	r->cookie = f->cookie;
	r->acked = acked;
	r->attempts = f->attempts;
	r->ampdu_len = f->ampdu_len;
	r->ampdu_acked = f->ampdu_acked;
	aq_report_rates(f, r->rep);
}

struct tr {
	int64_t t;
	int src, dst;
	char kind[8];
	unsigned int kbps, nfr, bytes;
	int64_t dur;
};

/* parse "tx" lines of the trace */
static int trace_txs(char *buf, struct tr *out, int max)
{
	int n = 0;
	char *line = buf, *nl;

	while (line && *line && n < max) {
		long long t, dur;
		unsigned long long id;
		struct tr *x = &out[n];
		int ac;

		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (sscanf(line, "%lld tx %llu src=%d dst=%d %7s ac=%d kbps=%u bytes=%u dur_ns=%lld nfr=%u",
			   &t, &id, &x->src, &x->dst, x->kind, &ac, &x->kbps, &x->bytes,
			   &dur, &x->nfr) == 10) {
			x->t = t;
			x->dur = dur;
			n++;
		}
		if (nl)
			*nl = '\n';
		line = nl ? nl + 1 : NULL;
	}
	return n;
}

/* stop tracing m (set up with open_memstream(&buf, ...)) and parse it */
static int trace_end(struct aq_medium *m, char **buf, struct tr *out, int max)
{
	fclose(m->trace);	/* sets *buf */
	m->trace = NULL;
	return trace_txs(*buf, out, max);
}

static struct aq_medium *mk(enum aq_std std, bool edca, uint64_t seed)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_phy phy;

	aq_phy_defaults(&phy, std);
	phy.edca = edca;
	aq_init(m, &phy, seed);
	m->chan.model = 1;
	m->chan.default_snr_db = 40;
	m->ops.tx_status = rec_status;
	n_recs = 0;
	return m;
}

static struct aq_frame *mkframe(int src, int dst, unsigned int len, int idx,
				unsigned int count, unsigned int freq)
{
	static uint64_t cookie;
	struct aq_frame *f = aq_frame_alloc();

	f->src = src;
	f->dst = dst;
	f->len = len;
	f->payload = len;
	f->tid = 0;
	f->ac = AQ_AC_BE;
	f->freq = freq;
	f->rates[0].idx = idx;
	f->rates[0].count = count;
	f->cookie = ++cookie;
	return f;
}

static void done(struct aq_medium *m)
{
	aq_fini(m);
	free(m);
}

/* ------------------------------------------------------------ airtime */

static void test_airtime(void)
{
	struct aq_phy b, g, a, n5, c;
	struct aq_rate r;

	aq_phy_defaults(&b, AQ_STD_B);
	aq_phy_defaults(&g, AQ_STD_G);
	aq_phy_defaults(&a, AQ_STD_A);
	aq_phy_defaults(&n5, AQ_STD_N5);
	aq_phy_defaults(&c, AQ_STD_CUSTOM);

	/* DSSS 1 Mbit/s long preamble, 1000 octets: 192 + 8000 us */
	aq_rate_legacy(&b, 1000, false, &r);
	EQ(aq_txtime(&b, &r, 1000), US(8192), "DSSS 1M 1000 B = 8192 us");
	/* CCK 11M short preamble, 1500 B: 96 + ceil(12000/11) = 96 + 1091 */
	aq_rate_legacy(&b, 11000, true, &r);
	EQ(aq_txtime(&b, &r, 1500), US(1187), "CCK 11M short 1500 B = 1187 us");
	/* CCK 5.5M long, 100 B: 192 + ceil(800/5.5) = 192 + 146 */
	aq_rate_legacy(&b, 5500, false, &r);
	EQ(aq_txtime(&b, &r, 100), US(338), "CCK 5.5M long 100 B = 338 us");
	/* OFDM 54M, 1538 B: N_SYM = ceil((22+12304)/216) = 58; 20 + 4*58 */
	aq_rate_legacy(&a, 54000, false, &r);
	EQ(aq_txtime(&a, &r, 1538), US(252), "OFDM(a) 54M 1538 B = 252 us");
	aq_rate_legacy(&g, 54000, false, &r);
	EQ(aq_txtime(&g, &r, 1538), US(258), "ERP-OFDM(g) 54M 1538 B = 252 + 6 us ext");
	/* ACK 14 B at 6M: ceil(134/24) = 6 sym -> 44 us; at 24M: 2 sym -> 28 us */
	aq_rate_legacy(&a, 6000, false, &r);
	EQ(aq_txtime(&a, &r, 14), US(44), "OFDM 6M ACK = 44 us");
	aq_rate_legacy(&a, 24000, false, &r);
	EQ(aq_txtime(&a, &r, 14), US(28), "OFDM 24M ACK = 28 us");
	/* HT20 MCS7 LGI, 1538 B: ceil(12326/260) = 48 sym; 36 + 192 */
	aq_rate_ht(&n5, 7, false, false, &r);
	EQ(aq_txtime(&n5, &r, 1538), US(228), "HT20 MCS7 LGI 1538 B = 228 us");
	EQ(r.kbps, 65000, "HT20 MCS7 LGI = 65 Mbit/s");
	/* SGI: 36 + 4*ceil(3.6*48/4) = 36 + 176 */
	aq_rate_ht(&n5, 7, false, true, &r);
	EQ(aq_txtime(&n5, &r, 1538), US(212), "HT20 MCS7 SGI 1538 B = 212 us");
	EQ(r.kbps, 72222, "HT20 MCS7 SGI = 72.2 Mbit/s");
	/* HT20 MCS8 (2 streams) LGI 100 B: ceil(822/52) = 16 sym; 40 + 64 */
	aq_rate_ht(&n5, 8, false, false, &r);
	EQ(aq_txtime(&n5, &r, 100), US(104), "HT20 MCS8 LGI 100 B = 104 us");
	/* HT40 MCS15 SGI 65535 B: ceil(524302/1080) = 486 sym;
	 * 40 + 4*ceil(3.6*486/4) = 40 + 1752 */
	aq_rate_ht(&n5, 15, true, true, &r);
	EQ(aq_txtime(&n5, &r, 65535), US(1792), "HT40 MCS15 SGI 65535 B = 1792 us");
	EQ(r.kbps, 300000, "HT40 MCS15 SGI = 300 Mbit/s");
	/* Bianchi: 128 us PHY header + (272 + 8184) bits at 1 Mbit/s */
	aq_rate_legacy(&c, 1000, false, &r);
	EQ(aq_txtime(&c, &r, 1057), US(8584), "Bianchi custom PHY data = 8584 us");
	EQ(aq_txtime(&c, &r, 14), US(240), "Bianchi ACK = 112 + 128 us");
	/* hwsim rate index mapping: 2.4 GHz idx 11 = 54M, 5 GHz idx 7 = 54M */
	aq_rate_from_hwsim(&g, 2412, 11, 0, &r);
	EQ(r.kbps, 54000, "hwsim 2.4 GHz idx 11 = 54 Mbit/s");
	aq_rate_from_hwsim(&a, 5180, 0, 0, &r);
	EQ(r.kbps, 6000, "hwsim 5 GHz idx 0 = 6 Mbit/s");
	ok(aq_rate_from_hwsim(&a, 5180, 8, 0, &r) < 0, "hwsim 5 GHz idx 8 rejected");
	/* EIFS (g) = SIFS + ACK@1M long (192 + 112) + DIFS = 10 + 304 + 28 */
	EQ(aq_eifs(&g), US(342), "EIFS 802.11g = 342 us");
	/* PER anchored at 10 % for 1000 octets at snr10 */
	aq_rate_legacy(&a, 54000, false, &r);
	ok(fabs(aq_per(&a, &r, 26.0, 1000) - 0.1) < 1e-9, "PER(snr10, 1000 B) = 0.1");
	ok(aq_per(&a, &r, 40.0, 1500) < 1e-9 && aq_per(&a, &r, 10.0, 1500) > 0.999,
	   "PER waterfall: ~0 at 40 dB, ~1 at 10 dB");
	/* short frames: the same waterfall, shifted, not a flat tail */
	ok(fabs(aq_per(&a, &r, 26.0, 14) - (1.0 - pow(0.9, 0.014))) < 1e-12,
	   "PER(snr10, 14 B) = 1 - 0.9^(14/1000)");
	ok(fabs(aq_per(&a, &r, 26.0 - log(679.6 / 9.0) / 2.0, 14) - 0.1) < 0.001,
	   "a 14-octet ACK's 10 %% point is 2.2 dB below s10 (%.4f)",
	   aq_per(&a, &r, 26.0 - log(679.6 / 9.0) / 2.0, 14));
	ok(aq_per(&a, &r, 16.0, 20) > 0.999,
	   "a 20-octet RTS 10 dB below s10 is lost (%.6f)", aq_per(&a, &r, 16.0, 20));
}

/* ------------------------------------------------------------ backoff */

static void test_backoff(bool resume)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 1);
	struct tr t[16];
	char *buf = NULL;
	size_t sz = 0;
	int k, a, b, n;

	m->phy.resume_decrement = resume;
	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	b = aq_radio_add(m, "b", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 3;
	m->radio[b].ac[AQ_AC_BE].backoff = 10;
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(b, k, 1534, 11, 7, 2412));
	aq_run_until(m, US(2000));
	n = trace_end(m, &buf, t, 16);
	ok(n == 4, "%s: 4 transmissions (DATA, ACK, DATA, ACK), got %d",
	   resume ? "resume" : "strict", n);
	if (n == 4) {
		/* A: DIFS (10 + 2*9) + 3 slots = 55 us */
		EQ(t[0].t, US(55), "A's DATA starts at DIFS + 3 slots");
		/* 1534 B @54M g: ceil(12294/216) = 57 sym: 20 + 228 + 6 = 254 */
		EQ(t[0].dur, US(254), "A's DATA lasts 254 us");
		/* ACK: A's end 309 + prop 1 + SIFS 10 = 320, 34 us at 24M */
		EQ(t[1].t, US(320), "ACK starts SIFS after DATA reached the sink");
		/* B froze at 56 us: 3 slots passed (+1 with resume_decrement);
		 * medium idle for B at 355; DIFS 28 then 6 (or 7) slots */
		EQ(t[2].t, resume ? US(437) : US(446),
		   resume ? "B resumes with 10-3-1 = 6 slots left: 355+28+54"
			  : "B resumes with 10-3 = 7 slots left: 355+28+63");
	}
	EQ(m->radio[a].ac[AQ_AC_BE].st.successes, 1, "A succeeded");
	EQ(m->radio[b].ac[AQ_AC_BE].st.successes, 1, "B succeeded");
	EQ(m->radio[a].ac[AQ_AC_BE].cw, 15, "A's CW reset to CWmin after success");
	free(buf);
	done(m);
}

static void test_same_slot(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 2);
	int k, a, b;

	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	b = aq_radio_add(m, "b", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 4;
	m->radio[b].ac[AQ_AC_BE].backoff = 4;
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(b, k, 1534, 11, 7, 2412));
	/* both start at 28 + 36 = 64 us and end at 318 us; ACKTimeout
	 * 10 + 9 + 20 = 39 us -> 357 us, after which they may retry */
	aq_run_until(m, US(356));
	EQ(m->st.same_slot_collisions, 1, "same-slot start counted once");
	aq_run_until(m, US(357));
	EQ(m->radio[a].ac[AQ_AC_BE].st.collisions, 1, "A's attempt collided");
	EQ(m->radio[b].ac[AQ_AC_BE].st.collisions, 1, "B's attempt collided");
	EQ(m->radio[a].ac[AQ_AC_BE].cw, 31, "A's CW doubled 15 -> 31");
	EQ(m->radio[b].ac[AQ_AC_BE].cw, 31, "B's CW doubled 15 -> 31");
	aq_run_until(m, US(100000));
	EQ(n_recs, 2, "both frames eventually reported");
	ok(n_recs == 2 && recs[0].acked && recs[1].acked, "both acknowledged in the end");
	EQ(m->radio[a].ac[AQ_AC_BE].cw, 15, "CW reset after success");
	done(m);
}

/*
 * After an ACK timeout the sender invokes its backoff procedure
 * (802.11-2020 10.3.2.9, 10.3.4.3); its counter runs only while the medium
 * has been idle for DIFS, counted from the end of the last busy period,
 * and decrements at slot boundaries, DIFS + k slots after that end
 * (10.23.2.5).  Two DCF stations collide in the same slot: frames 64-318
 * us; each hears the other's end at 319 us (1 us delay), so its slot
 * boundaries are 319 + 28 = 347, 356, 365 us.  ACKTimeout 39 us -> 357
 * us, in mid-slot: the countdown starts at the next boundary, 365, and the
 * first retry goes at 365 + 9 k, k the smaller new backoff (CW 31), not
 * at 357 + 9 k (the timeout instant) nor 357 + 28 + 9 k.
 */
static void test_retry_after_timeout(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 2);
	struct tr t[16];
	char *buf = NULL;
	size_t sz = 0;
	int k, a, b, n, i, ba, bb, kmin;

	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	b = aq_radio_add(m, "b", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 4;
	m->radio[b].ac[AQ_AC_BE].backoff = 4;
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(b, k, 1534, 11, 7, 2412));
	aq_run_until(m, US(357));
	ba = m->radio[a].ac[AQ_AC_BE].backoff;
	bb = m->radio[b].ac[AQ_AC_BE].backoff;
	kmin = ba < bb ? ba : bb;
	EQ(m->radio[a].ac[AQ_AC_BE].cw, 31, "timeout at 357 us: a's CW 31");
	aq_run_until(m, US(2000));
	n = trace_end(m, &buf, t, 16);
	for (i = 0; i < n && (strcmp(t[i].kind, "DATA") || t[i].t <= US(318)); i++)
		;
	ok(i < n, "a retry on the trace");
	if (i < n) {
		EQ(t[i].t, US(365) + kmin * US(9),
		   "first retry at the slot boundary after the timeout (365 us) + 9 us x the smaller new backoff");
		ok(t[i].src == (ba <= bb ? a : b), "by the station with the smaller backoff (a %d, b %d)",
		   ba, bb);
	}
	free(buf);
	done(m);
}

static void test_cw_cap_and_discard(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 3);
	unsigned int cws[8], i;
	int k, a;

	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	aq_link_set_snr(m, a, k, -30);	/* never decodable */
	aq_enqueue(m, mkframe(a, k, 200, 11, 8, 2412));
	for (i = 0; i < 8; i++) {
		while (m->radio[a].ac[AQ_AC_BE].st.failures < i + 1 && n_recs == 0)
			aq_run_until(m, m->now + US(5));
		cws[i] = m->radio[a].ac[AQ_AC_BE].cw;
	}
	EQ(cws[0], 31, "CW after 1st failure 31");
	EQ(cws[1], 63, "CW after 2nd failure 63");
	EQ(cws[5], 1023, "CW after 6th failure 1023 (CWmax)");
	EQ(cws[6], 1023, "CW capped at CWmax");
	EQ(cws[7], 15, "CW reset to CWmin after discard");
	EQ(m->radio[a].ac[AQ_AC_BE].st.discards, 1, "frame discarded after 8 attempts");
	EQ(m->radio[a].sta_exch[k], 8, "8 exchanges started toward the sink (exchanges_to)");
	EQ(m->radio[k].sta_exch[a], 0, "none by the sink, which never decoded one");
	done(m);
}

static void test_internal_collision(void)
{
	struct aq_medium *m = mk(AQ_STD_G, true, 4);
	struct aq_frame *f;
	int k, a;

	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	/* BE: AIFSN 3, backoff 1 -> 10 + 27 + 9 = 46; VO: AIFSN 2, 2 -> 10+18+18 */
	m->radio[a].ac[AQ_AC_BE].backoff = 1;
	m->radio[a].ac[AQ_AC_VO].backoff = 2;
	aq_enqueue(m, mkframe(a, k, 500, 11, 7, 2412));
	f = mkframe(a, k, 500, 11, 7, 2412);
	f->ac = AQ_AC_VO;
	f->tid = 6;
	aq_enqueue(m, f);
	aq_run_until(m, US(47));
	EQ(m->radio[a].ac[AQ_AC_VO].st.attempts, 1, "VO wins the internal collision");
	EQ(m->radio[a].ac[AQ_AC_BE].st.attempts, 0, "BE did not transmit");
	EQ(m->radio[a].ac[AQ_AC_BE].st.internal_collisions, 1, "BE internal collision counted");
	EQ(m->radio[a].ac[AQ_AC_BE].cw, 31, "BE CW doubled");
	EQ(m->radio[a].ac[AQ_AC_VO].cwmin, 3, "VO default CWmin 3");
	EQ(m->radio[a].ac[AQ_AC_VI].cwmax, 15, "VI default CWmax 15");
	aq_run_until(m, US(100000));
	EQ(n_recs, 2, "both frames delivered afterwards");
	done(m);
}

/* ---------------------------------------------------------------- NAV */

static void test_nav(void)
{
	/* an OFDM-only BSSBasicRateSet: RTS, CTS and ACK at 24 Mbit/s */
	static const unsigned int ofdm_basic[] = { 6000, 12000, 24000 };
	struct aq_medium *m = mk(AQ_STD_G, false, 5);
	int k, a, c;

	aq_phy_set_basic(&m->phy, ofdm_basic, 3);
	m->phy.rts_threshold = 0;
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	c = aq_radio_add(m, "c", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 0;
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	/* RTS at 28 us, 20 B @24M: 2 sym -> 34 us, ends 62, heard at 63;
	 * NAV = 3 SIFS + CTS 34 + DATA 254 + ACK 34 = 352 -> 415 us */
	aq_run_until(m, US(64));
	EQ(m->radio[c].nav_end, US(415), "third party NAV from RTS ends at 415 us");
	done(m);

	/* hidden node c: hears only the sink, gets NAV from the CTS */
	m = mk(AQ_STD_G, false, 6);
	aq_phy_set_basic(&m->phy, ofdm_basic, 3);
	m->phy.rts_threshold = 0;
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	c = aq_radio_add(m, "c", NULL);
	aq_link_set_snr(m, a, c, -60);
	aq_link_set_snr(m, c, a, -60);
	m->radio[a].ac[AQ_AC_BE].backoff = 0;
	m->radio[c].ac[AQ_AC_BE].backoff = 0;
	char *buf = NULL;
	size_t sz = 0;
	struct tr t[16];
	int n, i, ctx = -1;

	m->trace = open_memstream(&buf, &sz);
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	/* CTS 73..107, heard by c at 108: NAV 352 - 10 - 34 = 308 -> 416 us */
	aq_run_until(m, US(110));
	EQ(m->radio[c].nav_end, US(416), "hidden node's NAV from CTS ends at 416 us");
	aq_enqueue(m, mkframe(c, k, 200, 11, 7, 2412));
	aq_run_until(m, US(2000));
	n = trace_end(m, &buf, t, 16);
	for (i = 0; i < n; i++)
		if (t[i].src == c) {
			ctx = i;
			break;
		}
	/* ACK of a's exchange ends 417, heard 418; c waits DIFS: 446 us */
	ok(ctx >= 0 && t[ctx].t == US(446),
	   "hidden node defers to NAV and the ACK: first tx at 446 us (got %lld)",
	   ctx >= 0 ? (long long)t[ctx].t : -1LL);
	EQ(m->radio[a].ac[AQ_AC_BE].st.collisions, 0, "protected exchange had no collision");
	EQ(m->radio[a].ac[AQ_AC_BE].st.successes, 1, "protected exchange succeeded");
	free(buf);
	done(m);
}

static void test_hidden_collisions(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 7);
	int k, a, c;

	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	c = aq_radio_add(m, "c", NULL);
	aq_link_set_snr(m, a, c, -60);
	aq_link_set_snr(m, c, a, -60);
	for (int i = 0; i < 50; i++) {
		aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
		aq_enqueue(m, mkframe(c, k, 1534, 11, 7, 2412));
	}
	aq_run_until(m, AQ_NS_PER_S);
	ok(m->radio[a].ac[AQ_AC_BE].st.collisions > 10 &&
	   m->radio[c].ac[AQ_AC_BE].st.collisions > 10,
	   "hidden nodes collide at the sink (a %llu, c %llu)",
	   (unsigned long long)m->radio[a].ac[AQ_AC_BE].st.collisions,
	   (unsigned long long)m->radio[c].ac[AQ_AC_BE].st.collisions);
	EQ(m->st.same_slot_collisions, 0, "none of them in the same slot");
	done(m);
}

/* ---------------------------------------------------- rate table */

static void test_rate_table(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 8);
	struct aq_frame *f;
	struct tr t[32];
	char *buf = NULL;
	size_t sz = 0;
	int k, a, n, d = 0;
	unsigned int want[6] = { 54000, 54000, 36000, 36000, 36000, 6000 };

	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	aq_link_set_snr(m, a, k, -30);
	f = mkframe(a, k, 500, 11, 2, 2412);
	f->rates[1].idx = 9;
	f->rates[1].count = 3;
	f->rates[2].idx = 4;
	f->rates[2].count = 1;
	aq_enqueue(m, f);
	aq_run_until(m, AQ_NS_PER_S);
	n = trace_end(m, &buf, t, 32);
	EQ(n, 6, "all-fail: exactly 2+3+1 = 6 attempts");
	for (int i = 0; i < n && i < 6; i++)
		d += t[i].kbps != want[i];
	EQ(d, 0, "attempts used 54,54,36,36,36,6 Mbit/s in table order");
	ok(n_recs == 1 && !recs[0].acked, "reported not acknowledged");
	ok(n_recs == 1 && recs[0].rep[0].idx == 11 && recs[0].rep[0].count == 2 &&
	   recs[0].rep[1].idx == 9 && recs[0].rep[1].count == 3 &&
	   recs[0].rep[2].idx == 4 && recs[0].rep[2].count == 1 &&
	   recs[0].rep[3].idx == -1, "reported table {11x2, 9x3, 4x1, -1}");
	EQ(m->radio[a].ac[AQ_AC_BE].st.tries_hist[AQ_L4_OTHER][6], 1,
	   "tries histogram: the discarded frame in bucket 6");
	EQ(m->radio[a].ac[AQ_AC_BE].st.table_hist[AQ_L4_OTHER][6], 1,
	   "table histogram: its 2+3+1 tries in bucket 6");
	EQ(m->radio[a].ac[AQ_AC_BE].st.ampdu_tries_hist[AQ_L4_OTHER][6], 0,
	   "ampdu tries histogram: a frame not marked for Block Ack not in it");
	EQ(m->radio[a].ac[AQ_AC_BE].st.fallback_tries[AQ_L4_OTHER], 4,
	   "fallback: the 3 + 1 attempts at 36 and 6 Mbit/s");
	{
		const struct aq_ac_stats *s = &m->radio[a].ac[AQ_AC_BE].st;

		ok(s->n_by_rate == 3 && s->by_rate[0].kbps == 54000 &&
		   s->by_rate[0].attempts == 2 && !s->by_rate[0].rts &&
		   s->by_rate[1].kbps == 36000 && s->by_rate[1].attempts == 3 &&
		   s->by_rate[2].kbps == 6000 && s->by_rate[2].attempts == 1 &&
		   s->by_rate_other == 0,
		   "by rate: 54 x2, 36 x3, 6 x1 Mbit/s");
	}
	free(buf);
	done(m);

	/* success on attempt 4: report {11x2, 9x2, -1, -1} with ACK */
	m = mk(AQ_STD_G, false, 9);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	aq_link_set_snr(m, a, k, -30);
	f = mkframe(a, k, 500, 11, 2, 2412);
	f->rates[1].idx = 9;
	f->rates[1].count = 3;
	f->rates[2].idx = 4;
	f->rates[2].count = 1;
	f->ampdu_ok = true;	/* marked for Block Ack; no HT: sent alone */
	aq_enqueue(m, f);
	while (m->radio[a].ac[AQ_AC_BE].st.failures < 3)
		aq_run_until(m, m->now + US(1));
	aq_link_set_snr(m, a, k, 40);
	aq_run_until(m, AQ_NS_PER_S);
	ok(n_recs == 1 && recs[0].acked, "acknowledged on the 4th attempt");
	ok(n_recs == 1 && recs[0].attempts == 4 && recs[0].rep[0].idx == 11 &&
	   recs[0].rep[0].count == 2 && recs[0].rep[1].idx == 9 &&
	   recs[0].rep[1].count == 2 && recs[0].rep[2].idx == -1 &&
	   recs[0].rep[2].count == 0, "reported table {11x2, 9x2, -1}");
	EQ(m->radio[a].ac[AQ_AC_BE].st.tries_hist[AQ_L4_OTHER][4], 1,
	   "tries histogram: the frame acknowledged on attempt 4 in bucket 4");
	EQ(m->radio[a].ac[AQ_AC_BE].st.table_hist[AQ_L4_OTHER][6], 1,
	   "table histogram: the table allowed 6 tries, used or not");
	EQ(m->radio[a].ac[AQ_AC_BE].st.table_hist[AQ_L4_OTHER][4], 0,
	   "table histogram: nothing in the bucket of the attempts used");
	EQ(m->radio[a].ac[AQ_AC_BE].st.ampdu_tries_hist[AQ_L4_OTHER][4], 1,
	   "ampdu tries histogram: the frame marked for Block Ack in bucket 4");
	EQ(m->radio[a].ac[AQ_AC_BE].st.fallback_tries[AQ_L4_OTHER], 2,
	   "fallback: the 2 attempts at 36 Mbit/s (of 4)");
	done(m);

	/* the same rate twice (a table cut to its first entry, in copies)
	 * is no fallback; the same rate with RTS/CTS is */
	m = mk(AQ_STD_G, false, 9);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	aq_link_set_snr(m, a, k, -30);
	f = mkframe(a, k, 500, 11, 2, 2412);
	f->rates[1] = f->rates[0];
	f->rates[2] = f->rates[0];
	f->rates[2].count = 1;
	f->rates[2].flags |= HWSIM_TX_RC_USE_RTS_CTS;
	aq_enqueue(m, f);
	aq_run_until(m, AQ_NS_PER_S);
	EQ(m->radio[a].ac[AQ_AC_BE].st.tries_hist[AQ_L4_OTHER][5], 1,
	   "copies of the first entry: 2 + 2 + 1 attempts");
	EQ(m->radio[a].ac[AQ_AC_BE].st.fallback_tries[AQ_L4_OTHER], 1,
	   "fallback: only the attempt with RTS/CTS");
	{
		const struct aq_ac_stats *s = &m->radio[a].ac[AQ_AC_BE].st;

		ok(s->n_by_rate == 2 && s->by_rate[0].kbps == 54000 &&
		   !s->by_rate[0].rts && s->by_rate[0].attempts == 4 &&
		   s->by_rate[1].kbps == 54000 && s->by_rate[1].rts &&
		   s->by_rate[1].attempts == 1,
		   "by rate: copies merged (54 x4), 54 with RTS/CTS apart (x1)");
	}
	done(m);

	/* no-ack (broadcast) frames: one attempt, not acknowledged */
	m = mk(AQ_STD_G, false, 10);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	f = mkframe(a, AQ_DST_BCAST, 100, 4, 4, 2412);
	f->no_ack = true;
	aq_enqueue(m, f);
	aq_run_until(m, AQ_NS_PER_S);
	ok(n_recs == 1 && !recs[0].acked && recs[0].rep[0].count == 1 &&
	   recs[0].rep[1].idx == -1, "broadcast: 1 attempt, no ACK flag");
	EQ(m->radio[k].rx_frames, 1, "broadcast delivered to the other radio");
	done(m);
}

/* ------------------------------------------------------- L4 classes */

/* a QoS data frame to the DS: 802.11 header, LLC/SNAP, IPv4 or IPv6, TCP */
static unsigned int mk80211(uint8_t *d, bool v6, unsigned int proto,
			    uint8_t tcp_flags, unsigned int payload)
{
	static const uint8_t snap[8] = { 0xaa, 0xaa, 3, 0, 0, 0, 0x08, 0 };
	unsigned int off = 26, ipl = v6 ? 40 : 20, tot;

	memset(d, 0, 256);
	d[0] = 0x88;		/* data, QoS data */
	d[1] = 0x01;		/* to DS */
	memcpy(d + off, snap, 8);
	off += 8;
	if (v6) {
		d[off - 2] = 0x86;
		d[off - 1] = 0xdd;
		d[off] = 0x60;
		tot = 20 + payload;
		d[off + 4] = tot >> 8;
		d[off + 5] = tot & 255;
		d[off + 6] = proto;
	} else {
		d[off] = 0x45;
		tot = 20 + 20 + payload;
		d[off + 2] = tot >> 8;
		d[off + 3] = tot & 255;
		d[off + 9] = proto;
	}
	d[off + ipl + 12] = 5 << 4;	/* TCP data offset: 20 octets */
	d[off + ipl + 13] = tcp_flags;
	return off + ipl + 20 + payload;
}

static void test_classify(void)
{
	uint8_t d[256];
	unsigned int n;

	n = mk80211(d, false, 6, 0x10, 0);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP_ACK, "IPv4 ACK without payload: pure ACK");
	n = mk80211(d, true, 6, 0x10, 0);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP_ACK, "IPv6 ACK without payload: pure ACK");
	n = mk80211(d, false, 6, 0x18, 100);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP, "IPv4 segment with payload: TCP");
	n = mk80211(d, true, 6, 0x10, 100);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP, "IPv6 segment with payload: TCP");
	n = mk80211(d, false, 6, 0x11, 0);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP, "FIN+ACK is not a pure ACK");
	n = mk80211(d, false, 6, 0x12, 0);
	EQ(aq_classify_l4(d, n), AQ_L4_TCP, "SYN+ACK is not a pure ACK");
	n = mk80211(d, false, 17, 0, 100);
	EQ(aq_classify_l4(d, n), AQ_L4_UDP, "IPv4 UDP");
	n = mk80211(d, false, 6, 0x10, 0);
	d[24] |= 0x80;
	EQ(aq_classify_l4(d, n), AQ_L4_OTHER, "A-MSDU: other");
	n = mk80211(d, false, 6, 0x10, 0);
	EQ(aq_classify_l4(d, n - 10), AQ_L4_OTHER, "truncated TCP header: other");
	n = mk80211(d, false, 6, 0x10, 0);
	d[0] = 0x80;		/* beacon */
	EQ(aq_classify_l4(d, n), AQ_L4_OTHER, "management frame: other");
}

/* ------------------------------------------------------------ A-MPDU */

static int first_agg(enum aq_std std, unsigned int freq, int mcs, bool ht40,
		     bool sgi, unsigned int len, bool alternate)
{
	struct aq_medium *m = mk(std, false, 11);
	struct tr t[4];
	char *buf = NULL;
	size_t sz = 0;
	int k, k2, a, n, ret = -1;

	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	k2 = aq_radio_add(m, "sink2", NULL);
	a = aq_radio_add(m, "a", NULL);
	for (int i = 0; i < 100; i++) {
		struct aq_frame *f = mkframe(a, alternate && (i & 1) ? k2 : k, len,
					     mcs, 10, freq);

		f->rates[0].flags = HWSIM_TX_RC_MCS |
				    (ht40 ? HWSIM_TX_RC_40_MHZ_WIDTH : 0) |
				    (sgi ? HWSIM_TX_RC_SHORT_GI : 0);
		f->ampdu_ok = true;
		f->qos_data = true;
		aq_enqueue(m, f);
	}
	aq_run_until(m, US(100));
	n = trace_end(m, &buf, t, 4);
	if (n >= 1 && !strcmp(t[0].kind, "DATA") && t[0].dst == k)
		ret = (int)t[0].nfr;
	free(buf);
	done(m);
	return ret;
}

static void test_ampdu(void)
{
	struct aq_medium *m;
	int k, a;
	unsigned int partial = 0, reported = 0, dup = 0;
	uint64_t seen[128] = { 0 };

	/* 4 ms: (4000-36)/4 = 991 sym * 260 bits - 22 = 32204 B;
	 * 1538-B MPDUs take 1544 (padded), last 1542: 19*1544+1542 = 30878 */
	EQ(first_agg(AQ_STD_N5, 5180, 7, false, false, 1538, false), 20,
	   "HT20 MCS7: 4 ms limit -> 20 x 1538 B subframes");
	/* 65535 B: 41*1544+1542 = 64846 <= 65535 < 66390 */
	EQ(first_agg(AQ_STD_N5, 5180, 15, true, true, 1538, false), 42,
	   "HT40 MCS15 SGI: 65535-octet limit -> 42 subframes");
	EQ(first_agg(AQ_STD_N5, 5180, 15, true, true, 100, false), 64,
	   "small frames: 64-subframe limit");
	EQ(first_agg(AQ_STD_N5, 5180, 15, true, true, 100, true), 50,
	   "only frames for the same receiver/TID are aggregated");

	/* per-subframe success: SNR where PER(1538 B, MCS7) ~ 50 % */
	m = mk(AQ_STD_N5, false, 12);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	aq_link_set_snr(m, a, k, 26.2);
	for (int i = 0; i < 64; i++) {
		struct aq_frame *f = mkframe(a, k, 1538, 7, 10, 5180);

		f->rates[0].flags = HWSIM_TX_RC_MCS;
		f->ampdu_ok = true;
		aq_enqueue(m, f);
	}
	aq_run_until(m, AQ_NS_PER_S);
	for (unsigned int i = 0; i < n_recs; i++) {
		uint64_t c = recs[i].cookie % 128;

		dup += seen[c]++ > 0;
		reported++;
		partial += recs[i].ampdu_len && recs[i].ampdu_acked < recs[i].ampdu_len &&
			   recs[i].ampdu_acked > 0;
	}
	EQ(reported, 64, "every subframe gets exactly one status");
	EQ(dup, 0, "no duplicate status");
	ok(partial > 0, "aggregates with partial Block Ack seen (%u frames)", partial);
	ok(m->radio[a].ac[AQ_AC_BE].st.attempts > 64,
	   "failed subframes were retried (%llu attempts)",
	   (unsigned long long)m->radio[a].ac[AQ_AC_BE].st.attempts);
	EQ(m->radio[a].ac[AQ_AC_BE].st.successes + m->radio[a].ac[AQ_AC_BE].st.discards, 64,
	   "successes + discards = frames");
	done(m);
}

/* ------------------------------------------------------------ config */

static void cfg_err(const char *json, const char *field, const char *value)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	char err[512] = "";
	int r;

	r = aq_config_load(NULL, json, m, &sim, &o, err, sizeof(err));
	ok(r < 0 && strstr(err, field) && strstr(err, value),
	   "bad config names %s and %s: \"%s\"", field, value, err);
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
}

static void test_config(void)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	char err[512] = "";
	int r;

	r = aq_config_load(NULL,
		"{\"phy\": {\"standard\": \"n24\", \"rts_threshold\": 1000},"
		" \"channel\": {\"model\": \"log-distance\", \"exponent\": 3.5},"
		" \"radios\": [{\"name\": \"ap\", \"hwsim_index\": 0, \"pos\": [0, 0],"
		"   \"edca\": {\"VO\": {\"aifsn\": 1, \"cwmin\": 0, \"cwmax\": 1}}},"
		"  {\"name\": \"sta\", \"addr\": \"42:00:00:00:01:00\", \"pos\": [30, 0]},"
		"  {\"name\": \"far\", \"pos\": [0, 30]}],"
		" \"links\": [{\"from\": \"ap\", \"to\": \"sta\", \"snr_db\": 25}],"
		" \"traffic\": [{\"src\": \"sta\", \"dst\": \"ap\", \"saturated\": true,"
		"   \"rates\": [{\"idx\": 7, \"count\": 4, \"mcs\": true}]}]}",
		m, &sim, &o, err, sizeof(err));
	ok(r == 0, "valid config loads (%s)", err);
	if (r == 0) {
		uint8_t want[6] = { 0x42, 0, 0, 0, 0, 0 }, vif[6] = { 0x02, 0, 0, 0, 0, 0 };

		EQ(aq_radio_by_addr(m, want), 0, "hwsim_index 0 -> radio address 42:00:00:00:00:00");
		EQ(aq_radio_by_addr(m, vif), 0, "... and vif address 02:00:00:00:00:00");
		EQ(m->radio[0].ac[AQ_AC_VO].aifsn, 1, "per-radio EDCA override applied");
		ok(fabs(m->link[0][1].rx_dbm - (m->radio[1].noise_dbm + 25)) < 1e-9,
		   "explicit link SNR applied");
		ok(fabs(m->link[1][0].rx_dbm - (m->radio[0].noise_dbm + 25)) < 1e-9,
		   "symmetric link: reverse direction set too");
		/* 20 dBm - (40.05 + 35 log10(30)) */
		ok(fabs(m->link[0][2].rx_dbm - (20 - 40.05 - 35 * log10(30.0))) < 1e-9,
		   "log-distance path loss: -72.75 dBm at 30 m, exponent 3.5");
		EQ(sim.n_flows, 1, "one traffic flow");
		/* every radio has a position: per-pair delays, 30 m / c =
		 * 100.07 ns, rounded up to 101 ns */
		ok(m->phy.prop_pos, "every radio placed: propagation from positions");
		EQ(aq_prop_delay(m, 0, 2), 101, "30 m: 101 ns");
		EQ(aq_prop_delay(m, 1, 2), 142, "30 sqrt(2) m = 42.43 m: 142 ns");
	}
	aq_fini(m);
	aq_sim_free(&sim);
	memset(m, 0, sizeof(*m));
	/* a radio without a position, or a fixed delay given: one delay */
	r = aq_config_load(NULL, "{\"radios\": [{\"name\": \"a\", \"pos\": [0, 0]},"
			   " {\"name\": \"b\"}]}", m, &sim, &o, err, sizeof(err));
	ok(r == 0 && !m->phy.prop_pos && aq_prop_delay(m, 0, 1) == 1000,
	   "a radio without pos: the fixed 1 us for every pair");
	aq_fini(m);
	aq_sim_free(&sim);
	memset(m, 0, sizeof(*m));
	r = aq_config_load(NULL, "{\"phy\": {\"prop_delay_us\": 2},"
			   " \"radios\": [{\"name\": \"a\", \"pos\": [0, 0]},"
			   " {\"name\": \"b\", \"pos\": [3000, 0]}]}", m, &sim, &o, err, sizeof(err));
	ok(r == 0 && !m->phy.prop_pos && aq_prop_delay(m, 0, 1) == 2000,
	   "prop_delay_us given: fixed 2 us although placed 3 km apart");
	aq_fini(m);
	aq_sim_free(&sim);
	memset(m, 0, sizeof(*m));
	r = aq_config_load(NULL, "{\"phy\": {\"propagation\": \"positions\"},"
			   " \"radios\": [{\"name\": \"a\"}, {\"name\": \"b\", \"pos\": [3000, 0]}]}",
			   m, &sim, &o, err, sizeof(err));
	ok(r == 0 && m->phy.prop_pos && aq_prop_delay(m, 0, 1) == 10007,
	   "propagation positions: 3 km = 10006.9 ns -> 10007 ns (a at the origin)");
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
	cfg_err("{\"phy\": {\"propagation\": \"positions\", \"prop_delay_us\": 1}}",
		"phy.prop_delay_us", "positions");
	cfg_err("{\"phy\": {\"propagation\": \"ray\"}}", "phy.propagation", "ray");
	cfg_err("{\"phy\": {\"overhear\": \"yes\"}}", "phy.overhear", "yes");

	cfg_err("{\"phy\": {\"slot_us\": -3}}", "phy.slot_us", "-3");
	cfg_err("{\"phy\": {\"standard\": \"ac\"}}", "phy.standard", "ac");
	cfg_err("{\"phy\": {\"slott_us\": 9}}", "phy", "slott_us");
	cfg_err("{\"radios\": [{\"name\": \"a\", \"edca\": {\"VO\": {\"txop_us\": 9000}}}]}",
		"radios[0].edca.VO.txop_us", "9000");
	cfg_err("{\"radios\": [{\"name\": \"a\", \"addr\": \"zz:00\"}]}", "radios[0].addr", "zz:00");
	cfg_err("{\"radios\": [{\"name\": \"a\"}], \"traffic\": [{\"src\": \"a\", \"dst\": \"b\", \"saturated\": true}]}",
		"traffic[0].dst", "\"b\"");
	cfg_err("{\"channel\": {\"model\": \"rayleigh\"}}", "channel.model", "rayleigh");
	cfg_err("{\"radios\": [{\"name\": \"a\", \"pos\": \"here\"}]}", "radios[0].pos", "here");
	cfg_err("{\"radios\": [{\"name\": \"a\"}, {\"name\": \"b\"}], \"traffic\": [{\"src\": \"a\", \"dst\": \"b\", \"saturated\": true, \"rates\": [{\"idx\": 12}]}]}",
		"traffic[0].rates[0].idx", "12");
	cfg_err("{\"unknown_radios\": \"maybe\"}", "unknown_radios", "maybe");
	cfg_err("{\"phy\": [1, 2", "JSON", "");
}

/*
 * The ERP slot is a BSS property (802.11-2020 Table 18-5: aSlotTime 20 us,
 * 9 us where every station of the BSS is short-slot capable).  "slot_us":
 * 20 gives the long slot; DIFS (10.3.2.3.5) = SIFS + 2 slots = 50 us,
 * ACKTimeout (10.3.2.9) = 10 + 20 + 20 = 50 us, EIFS (10.3.2.3.7) = SIFS
 * + ACK at 1 Mbit/s (304 us) + DIFS = 364 us.  On the trace: backoff 3,
 * so DATA at 50 + 3 * 20 = 110 us, 254 us long, ACK at 110 + 254 + 1 +
 * 10 = 375 us.  The default stays the short slot: DIFS 28 us.
 */
static void test_slot_config(void)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	struct tr t[4];
	char err[512] = "", *buf = NULL;
	size_t sz = 0;
	int r, n;

	r = aq_config_load(NULL,
		"{\"phy\": {\"standard\": \"g\", \"slot_us\": 20, \"edca\": false},"
		" \"channel\": {\"model\": \"snr\", \"default_snr_db\": 40},"
		" \"radios\": [{\"name\": \"sink\"}, {\"name\": \"a\"}]}",
		m, &sim, &o, err, sizeof(err));
	ok(r == 0, "g with slot_us 20 loads (%s)", err);
	if (r == 0) {
		EQ(m->phy.slot, US(20), "long slot 20 us");
		EQ(aq_difs(&m->phy), US(50), "long slot: DIFS 10 + 2 * 20 = 50 us");
		EQ(m->phy.ack_timeout, US(50), "long slot: ACKTimeout 10 + 20 + 20 = 50 us");
		EQ(aq_eifs(&m->phy), US(364), "long slot: EIFS 10 + 304 + 50 = 364 us");
		m->ops.tx_status = rec_status;
		n_recs = 0;
		m->trace = open_memstream(&buf, &sz);
		m->radio[1].ac[AQ_AC_BE].backoff = 3;
		aq_enqueue(m, mkframe(1, 0, 1534, 11, 7, 2412));
		aq_run_until(m, US(2000));
		n = trace_end(m, &buf, t, 4);
		ok(n == 2 && t[0].t == US(110) && t[0].dur == US(254) && t[1].t == US(375),
		   "long slot: DATA at DIFS + 3 slots = 110 us, ACK at 375 us (%d frames, %lld, %lld ns)",
		   n, n > 0 ? (long long)t[0].t : -1LL, n > 1 ? (long long)t[1].t : -1LL);
		free(buf);
	}
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
	m = mk(AQ_STD_G, false, 1);
	EQ(aq_difs(&m->phy), US(28), "default g: short slot, DIFS 10 + 2 * 9 = 28 us");
	done(m);
}

/* ------------------------------------------- control rates and timeouts */

/* one protected exchange src -> sink; the trace's transmissions */
static int one_exchange_f(struct aq_medium *m, int idx, uint16_t flags, unsigned int len,
			  struct tr *t, int max)
{
	struct aq_frame *f;
	char *buf = NULL;
	size_t sz = 0;
	int k, a, n;

	m->phy.rts_threshold = 0;
	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 0;
	f = mkframe(a, k, len, idx, 7, 2412);
	f->rates[0].flags = flags;
	aq_enqueue(m, f);
	aq_run_until(m, US(20000));
	n = trace_end(m, &buf, t, max);
	free(buf);
	return n;
}

static int one_exchange(struct aq_medium *m, int idx, unsigned int len, struct tr *t,
			int max)
{
	return one_exchange_f(m, idx, 0, len, t, max);
}

static void test_ctrl_rates(void)
{
	static const unsigned int only1[] = { 1000 };
	struct aq_medium *m;
	struct aq_phy p;
	struct tr t[8];
	int n;

	/* ACKTimeout = SIFS + slot + aRxPHYStartDelay (10.3.2.9) */
	aq_phy_defaults(&p, AQ_STD_B);
	EQ(p.ack_timeout, US(222), "802.11b ACKTimeout 10 + 20 + 192 = 222 us");
	aq_phy_defaults(&p, AQ_STD_G);
	EQ(p.ack_timeout, US(39), "802.11g ACKTimeout 10 + 9 + 20 = 39 us");
	p.slot = US(20);
	aq_phy_ack_timeout(&p);
	EQ(p.ack_timeout, US(50), "802.11g long slot ACKTimeout 10 + 20 + 20 = 50 us");
	aq_phy_defaults(&p, AQ_STD_A);
	EQ(p.ack_timeout, US(45), "802.11a ACKTimeout 16 + 9 + 20 = 45 us");
	ok(aq_phy_set_basic(&p, (const unsigned int[]){ 1000 }, 1) < 0,
	   "802.11a refuses a DSSS basic rate");
	aq_phy_defaults(&p, AQ_STD_N5);
	EQ(p.ack_timeout, US(45), "802.11n 5 GHz ACKTimeout 16 + 9 + 20 = 45 us (non-HT response)");
	aq_phy_defaults(&p, AQ_STD_N24);
	EQ(p.ack_timeout, US(39), "802.11n 2.4 GHz ACKTimeout 10 + 9 + 20 = 39 us");
	aq_phy_defaults(&p, AQ_STD_B);
	ok(aq_phy_set_basic(&p, (const unsigned int[]){ 6000 }, 1) < 0,
	   "802.11b refuses an OFDM basic rate");

	/* 802.11b, hostapd's basic rates 1, 2; 1500 B at 11 Mbit/s long:
	 * RTS at the fastest basic rate <= 11: 2 Mbit/s, 192 + 80 = 272 us;
	 * CTS answers at 2: 192 + 56 = 248; DATA 192 + ceil(12000/11) =
	 * 1283; ACK at 2 (highest basic <= 11): 248 us */
	m = mk(AQ_STD_B, false, 11);
	n = one_exchange(m, 3, 1500, t, 8);
	ok(n == 4, "b: RTS, CTS, DATA, ACK (%d transmissions)", n);
	if (n == 4) {
		EQ(t[0].kbps, 2000, "b: RTS at 2 Mbit/s (fastest basic rate <= 11)");
		EQ(t[0].dur, US(272), "b: RTS lasts 272 us");
		EQ(t[1].dur, US(248), "b: CTS at 2 Mbit/s lasts 248 us");
		EQ(t[2].dur, US(1283), "b: DATA 1500 B at 11 Mbit/s lasts 1283 us");
		EQ(t[3].kbps, 2000, "b: ACK at 2 Mbit/s");
		/* RTS 20 + 272, CTS +1 prop +10 SIFS, DATA likewise, ACK */
		EQ(t[1].t, t[0].t + US(272 + 1 + 10), "b: CTS a SIFS after the RTS arrived");
		EQ(t[2].t, t[1].t + US(248 + 1 + 10), "b: DATA a SIFS after the CTS arrived");
	}
	done(m);
	/* basic rate set {1}: the 802.11b numbers of Bianchi-style setups */
	m = mk(AQ_STD_B, false, 12);
	aq_phy_set_basic(&m->phy, only1, 1);
	n = one_exchange(m, 3, 1500, t, 8);
	ok(n == 4 && t[0].dur == US(352) && t[1].dur == US(304) && t[3].dur == US(304),
	   "b, basic {1}: RTS 352 us, CTS 304 us, ACK 304 us at 1 Mbit/s");
	done(m);
	/* 802.11g default (basic 1, 2, 5.5, 11): RTS at 11 CCK long
	 * (192 + 15 = 207 us), CTS at 11 (192 + 11 = 203 us); the ACK to
	 * 54 Mbit/s OFDM is OFDM: no OFDM basic rate, so the mandatory
	 * 24 Mbit/s (28 + 6 us) */
	m = mk(AQ_STD_G, false, 13);
	n = one_exchange(m, 11, 1534, t, 8);
	ok(n == 4 && t[0].kbps == 11000 && t[0].dur == US(207) && t[1].dur == US(203) &&
	   t[3].kbps == 24000 && t[3].dur == US(34),
	   "g: RTS 207 us and CTS 203 us at 11 Mbit/s CCK, ACK 34 us at 24 OFDM");
	done(m);

	/* short preamble (HR/DSSS short PPDU, PHY header 96 us): the RTS
	 * takes the data frame's preamble, the CTS and ACK the eliciting
	 * frame's.  802.11b, basic 1, 2; 1500 B at 11 Mbit/s short: RTS at 2
	 * short 96 + 80 = 176 us, CTS 96 + 56 = 152, DATA 96 + 1091 = 1187,
	 * ACK 152; CTS at RTS + 176 + 1 + 10, DATA at CTS + 152 + 1 + 10 */
	m = mk(AQ_STD_B, false, 14);
	n = one_exchange_f(m, 3, HWSIM_TX_RC_USE_SHORT_PREAMBLE, 1500, t, 8);
	ok(n == 4, "b short preamble: RTS, CTS, DATA, ACK (%d transmissions)", n);
	if (n == 4) {
		EQ(t[0].dur, US(176), "b short: RTS at 2 Mbit/s lasts 96 + 80 = 176 us");
		EQ(t[1].dur, US(152), "b short: CTS at 2 Mbit/s lasts 96 + 56 = 152 us");
		EQ(t[2].dur, US(1187), "b short: DATA lasts 96 + 1091 = 1187 us");
		EQ(t[3].dur, US(152), "b short: ACK lasts 152 us");
		EQ(t[1].t, t[0].t + US(176 + 1 + 10), "b short: CTS a SIFS after the RTS arrived");
		EQ(t[2].t, t[1].t + US(152 + 1 + 10), "b short: DATA a SIFS after the CTS arrived");
	}
	done(m);
	/* basic {1}: 1 Mbit/s has only the long preamble: RTS 352 us, CTS
	 * 304 us, whatever the data frame's */
	m = mk(AQ_STD_B, false, 15);
	aq_phy_set_basic(&m->phy, only1, 1);
	n = one_exchange_f(m, 3, HWSIM_TX_RC_USE_SHORT_PREAMBLE, 1500, t, 8);
	ok(n == 4 && t[0].dur == US(352) && t[1].dur == US(304) && t[3].dur == US(304),
	   "b short, basic {1}: RTS 352, CTS 304, ACK 304 us (1 Mbit/s: long only)");
	done(m);
	/* 802.11g, a BSS with short preamble: the RTS before 54 Mbit/s OFDM
	 * at 11 CCK short, 96 + 15 = 111 us; the CTS 96 + 11 = 107 us */
	m = mk(AQ_STD_G, false, 16);
	m->phy.short_preamble = true;
	n = one_exchange(m, 11, 1534, t, 8);
	ok(n == 4 && t[0].kbps == 11000 && t[0].dur == US(111) && t[1].dur == US(107) &&
	   t[1].t == t[0].t + US(111 + 1 + 10) && t[2].t == t[1].t + US(107 + 1 + 10),
	   "g, short-preamble BSS: RTS 111 us, CTS 107 us at 11 CCK, SIFS gaps");
	done(m);
}

/* ---------------------------------------------- receiver state and EIFS */

static void test_eifs_rules(void)
{
	struct aq_medium *m;
	int k, a, b, c, h;

	/* a and b start in the same slot at equal power: the bystander c
	 * decodes neither PHY header (SINR 0 dB < 4 dB), so no EIFS */
	m = mk(AQ_STD_G, false, 21);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	b = aq_radio_add(m, "b", NULL);
	c = aq_radio_add(m, "c", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 4;
	m->radio[b].ac[AQ_AC_BE].backoff = 4;
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(b, k, 1534, 11, 7, 2412));
	aq_run_until(m, US(340));
	EQ(m->st.same_slot_collisions, 1, "same-slot collision");
	ok(!m->radio[c].eifs && !m->radio[k].eifs,
	   "no EIFS at the bystander or the sink after a same-slot collision");
	ok(m->radio[c].rx_hdr_lost >= 1, "the bystander lost the PHY header (%llu)",
	   (unsigned long long)m->radio[c].rx_hdr_lost);
	done(m);

	/* a hidden node h starts after a's PHY header reached c and k: the
	 * header was received, the frame fails (no capture): EIFS at c */
	m = mk(AQ_STD_G, false, 22);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	c = aq_radio_add(m, "c", NULL);
	h = aq_radio_add(m, "h", NULL);
	aq_link_set_snr(m, a, h, -60);
	aq_link_set_snr(m, h, a, -60);
	m->radio[a].ac[AQ_AC_BE].backoff = 0;	/* starts at 28 us */
	m->radio[h].ac[AQ_AC_BE].backoff = 3;	/* 55 us: a's header ended 49 */
	aq_enqueue(m, mkframe(a, k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(h, k, 1534, 11, 7, 2412));
	aq_run_until(m, US(290));		/* a's frame ended at 283 */
	ok(m->radio[c].eifs, "EIFS at the bystander after a frame with a good header and a bad FCS");
	ok(m->radio[k].eifs, "EIFS at the receiver, whose frame failed after its header");
	EQ(m->radio[c].rx_hdr_lost, 0, "c kept the lock past the header");
	done(m);
}

/* capture decides by power, not by which event the medium handles first */
static void test_capture_order(void)
{
	for (int order = 0; order < 2; order++) {
		struct aq_medium *m = mk(AQ_STD_G, false, 31);
		int k, near, far;

		m->phy.capture = true;
		k = aq_radio_add(m, "sink", NULL);
		if (order == 0) {
			near = aq_radio_add(m, "near", NULL);
			far = aq_radio_add(m, "far", NULL);
		} else {
			far = aq_radio_add(m, "far", NULL);
			near = aq_radio_add(m, "near", NULL);
		}
		aq_link_set_snr(m, near, k, 40);
		aq_link_set_snr(m, far, k, 10);	/* -81 dBm: above CCA */
		m->radio[near].ac[AQ_AC_BE].backoff = 4;
		m->radio[far].ac[AQ_AC_BE].backoff = 4;
		aq_enqueue(m, mkframe(near, k, 1534, 11, 7, 2412));
		aq_enqueue(m, mkframe(far, k, 1534, 11, 7, 2412));
		aq_run_until(m, US(370));	/* the ACK ends at 363 us */
		ok(m->radio[near].ac[AQ_AC_BE].st.successes == 1 &&
		   m->radio[far].ac[AQ_AC_BE].st.successes == 0,
		   "capture (%s first): the 40 dB frame survives the same-slot 10 dB one",
		   order ? "far" : "near");
		done(m);
	}
}


/* ------------------------------------------------------------ overhear */

/*
 * overhear: a sends unicast data to the sink k (300 frames) and one group
 * frame at 1 Mbit/s; c hears a exactly as k does, every link just above
 * the rate's s10 (a third party decodes only from there, as for the NAV):
 * 26.5 dB at 54 Mbit/s (1534 B: PER 6 %), 27.3 dB at HT20 MCS7 in A-MPDUs
 * (1538 B: 9 %).  Off, c is given the group frame only; on, c also gets
 * a's data (sub)frames it decoded (rx_overheard, about as many as k's
 * rx_frames), while rx_frames, and everything the sender sees (statuses,
 * attempts, the trace with its ok_mask lines), stay as they were for the
 * same seed: the overheard copies draw their errors from a stream of
 * their own.  Responses (ACK, Block Ack) are not overheard.
 */
struct ovh_run {
	uint64_t rx[3], ovh[3], dlv[3], foreign[3];
	uint64_t attempts, successes, failures;
	unsigned int n_status;
	struct st_rec st[320];
	char *trace;
};

static uint64_t ovh_dlv[3], ovh_foreign[3];

static void ovh_deliver(struct aq_medium *m, struct aq_frame *f, int rx,
			double signal_dbm, const struct aq_rate *rate,
			int64_t airtime)
{
	if (rx < 0 || rx >= 3)
		return;
	ovh_dlv[rx]++;
	ovh_foreign[rx] += f->dst != rx && f->dst != AQ_DST_BCAST;
}

static void ovh_run(bool ht, bool overhear, struct ovh_run *o)
{
	struct aq_medium *m = mk(ht ? AQ_STD_N5 : AQ_STD_G, false, 51);
	unsigned int freq = ht ? 5180 : 2412;
	struct aq_frame *f;
	size_t sz = 0;
	int r[3], a, k;

	memset(o, 0, sizeof(*o));
	memset(ovh_dlv, 0, sizeof(ovh_dlv));
	memset(ovh_foreign, 0, sizeof(ovh_foreign));
	m->phy.overhear = overhear;
	m->ops.deliver = ovh_deliver;
	m->trace = open_memstream(&o->trace, &sz);
	k = r[0] = aq_radio_add(m, "sink", NULL);
	a = r[1] = aq_radio_add(m, "a", NULL);
	r[2] = aq_radio_add(m, "c", NULL);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (i != j)
				aq_link_set_snr(m, r[i], r[j], ht ? 27.3 : 26.5);
	for (int i = 0; i < 300; i++) {
		f = mkframe(a, k, ht ? 1538 : 1534, ht ? 7 : 11, 7, freq);
		if (ht) {
			f->rates[0].flags = HWSIM_TX_RC_MCS;
			f->qos_data = true;
			f->ampdu_ok = true;
		}
		aq_enqueue(m, f);
	}
	f = mkframe(a, AQ_DST_BCAST, 100, 0, 1, freq);
	f->no_ack = true;
	aq_enqueue(m, f);
	aq_run_until(m, AQ_NS_PER_S);
	fclose(m->trace);
	m->trace = NULL;
	for (int i = 0; i < 3; i++) {
		o->rx[i] = m->radio[r[i]].rx_frames;
		o->ovh[i] = m->radio[r[i]].rx_overheard;
		o->dlv[i] = ovh_dlv[r[i]];
		o->foreign[i] = ovh_foreign[r[i]];
	}
	o->attempts = m->radio[a].ac[AQ_AC_BE].st.attempts;
	o->successes = m->radio[a].ac[AQ_AC_BE].st.successes;
	o->failures = m->radio[a].ac[AQ_AC_BE].st.failures;
	o->n_status = n_recs;
	memcpy(o->st, recs, sizeof(o->st));
	done(m);
}

/* --------------------------------------------------------- beacon_scope */

/*
 * beacon_scope "bss": ap1 and sta1 form BSS "a", ap2 BSS "b", x has no bss.
 * ap1 sends one beacon and one other group frame (every link 30 dB: both
 * decoded by all).  With the scope, ap2 is not given the beacon (rx_scoped
 * 1) but is given the other group frame; sta1 and x get both.  Without it,
 * everyone gets both.  The sender's attempts and the trace are the same
 * either way.
 */
static uint64_t bsc_dlv[4];

static void bsc_deliver(struct aq_medium *m, struct aq_frame *f, int rx,
			double signal_dbm, const struct aq_rate *rate,
			int64_t airtime)
{
	if (rx >= 0 && rx < 4)
		bsc_dlv[rx]++;
}

static char *bsc_run(bool scope, uint64_t dlv[4], uint64_t scoped[4])
{
	struct aq_medium *m = mk(AQ_STD_G, false, 77);
	struct aq_frame *f;
	char *trace = NULL;
	size_t sz = 0;
	int r[4];

	memset(bsc_dlv, 0, sizeof(bsc_dlv));
	m->phy.beacon_scope_bss = scope;
	m->ops.deliver = bsc_deliver;
	m->trace = open_memstream(&trace, &sz);
	r[0] = aq_radio_add(m, "ap1", NULL);
	r[1] = aq_radio_add(m, "sta1", NULL);
	r[2] = aq_radio_add(m, "ap2", NULL);
	r[3] = aq_radio_add(m, "x", NULL);
	m->radio[r[0]].bss = m->radio[r[1]].bss = 1;
	m->radio[r[2]].bss = 2;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			if (i != j)
				aq_link_set_snr(m, r[i], r[j], 30);
	f = mkframe(r[0], AQ_DST_BCAST, 120, 0, 1, 2412);
	f->no_ack = true;
	f->beacon = true;
	aq_enqueue(m, f);
	f = mkframe(r[0], AQ_DST_BCAST, 100, 0, 1, 2412);
	f->no_ack = true;
	aq_enqueue(m, f);
	aq_run_until(m, AQ_NS_PER_S / 10);
	fclose(m->trace);
	m->trace = NULL;
	for (int i = 0; i < 4; i++) {
		dlv[i] = bsc_dlv[r[i]];
		scoped[i] = m->radio[r[i]].rx_scoped;
	}
	done(m);
	return trace;
}

static void test_beacon_scope(void)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	uint64_t on[4], off[4], son[4], soff[4];
	char err[512] = "", *ton, *toff;
	int r;

	r = aq_config_load(NULL,
			   "{\"phy\": {\"standard\": \"g\", \"beacon_scope\": \"bss\"}, \"radios\": ["
			   "{\"name\": \"ap1\", \"bss\": \"a\"}, {\"name\": \"ap2\", \"bss\": \"b\"},"
			   "{\"name\": \"s1\", \"bss\": \"a\"}, {\"name\": \"x\"}]}",
			   m, &sim, &o, err, sizeof(err));
	ok(r == 0 && m->phy.beacon_scope_bss && m->radio[0].bss == 1 &&
	   m->radio[1].bss == 2 && m->radio[2].bss == 1 && m->radio[3].bss == 0,
	   "config: beacon_scope \"bss\"; radios' bss groups a, b, a, none -> 1 2 1 0 (%s)", err);
	aq_fini(m);
	aq_sim_free(&sim);
	memset(m, 0, sizeof(*m));
	r = aq_config_load(NULL, "{\"phy\": {\"standard\": \"g\"}}", m, &sim, &o,
			   err, sizeof(err));
	ok(r == 0 && !m->phy.beacon_scope_bss, "beacon_scope is \"all\" by default (%s)", err);
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
	cfg_err("{\"phy\": {\"beacon_scope\": \"ess\"}}", "phy.beacon_scope", "ess");
	cfg_err("{\"radios\": [{\"name\": \"a\", \"bss\": \"\"}]}", "radios[0].bss", "\"\"");
	cfg_err("{\"radios\": [{\"name\": \"a\", \"bss\": 3}]}", "radios[0].bss", "3");

	ton = bsc_run(true, on, son);
	toff = bsc_run(false, off, soff);
	ok(off[1] == 2 && off[2] == 2 && off[3] == 2 && off[0] == 0,
	   "scope all: sta1, ap2 and x each get the beacon and the group frame (%llu %llu %llu)",
	   (unsigned long long)off[1], (unsigned long long)off[2], (unsigned long long)off[3]);
	ok(on[1] == 2 && on[3] == 2,
	   "scope bss: ap1's station and the radio of no BSS get both (%llu, %llu)",
	   (unsigned long long)on[1], (unsigned long long)on[3]);
	ok(on[2] == 1 && son[2] == 1 && son[1] == 0 && son[3] == 0 && son[0] == 0,
	   "scope bss: ap2 gets the group frame, not ap1's beacon (delivered %llu, rx_scoped %llu)",
	   (unsigned long long)on[2], (unsigned long long)son[2]);
	ok(ton && toff && !strcmp(ton, toff) && strlen(ton) > 0,
	   "scope bss: the same transmissions and outcomes as scope all (the trace, %zu bytes)",
	   toff ? strlen(toff) : 0);
	free(ton);
	free(toff);
}

static void test_overhear(void)
{
	static struct ovh_run off, on;
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	char err[512] = "";
	int r;

	r = aq_config_load(NULL, "{\"phy\": {\"standard\": \"g\"}}", m, &sim, &o,
			   err, sizeof(err));
	ok(r == 0 && !m->phy.overhear, "overhear is off by default (%s)", err);
	aq_fini(m);
	aq_sim_free(&sim);
	memset(m, 0, sizeof(*m));
	r = aq_config_load(NULL, "{\"phy\": {\"overhear\": true}}", m, &sim, &o,
			   err, sizeof(err));
	ok(r == 0 && m->phy.overhear, "\"phy\": {\"overhear\": true} sets it (%s)", err);
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);

	for (int ht = 0; ht < 2; ht++) {
		const char *w = ht ? "HT A-MPDU" : "54M";
		bool same = true;

		ovh_run(ht, false, &off);
		ovh_run(ht, true, &on);
		ok(off.ovh[2] == 0 && off.foreign[2] == 0,
		   "overhear off (%s): the bystander gets no unicast data", w);
		ok(off.rx[2] == 1 && off.dlv[2] == 1,
		   "overhear off (%s): the bystander gets the group frame only", w);
		ok(on.ovh[2] > 0 && on.ovh[2] == on.foreign[2],
		   "overhear on (%s): the bystander gets a's data for the sink (%llu, all delivered)",
		   w, (unsigned long long)on.ovh[2]);
		ok(on.ovh[2] * 10 >= on.rx[0] * 9 && on.ovh[2] * 10 <= on.rx[0] * 11,
		   "overhear on (%s): about as many as the sink received (%llu vs %llu)",
		   w, (unsigned long long)on.ovh[2], (unsigned long long)on.rx[0]);
		ok(on.dlv[2] == on.rx[2] + on.ovh[2],
		   "overhear on (%s): driver deliveries = rx_frames + rx_overheard", w);
		ok(on.ovh[0] == 0 && on.ovh[1] == 0,
		   "overhear on (%s): no response (ACK/BA) overheard by sink or sender", w);
		ok(on.rx[0] == off.rx[0] && on.rx[1] == off.rx[1] && on.rx[2] == off.rx[2],
		   "overhear on (%s): rx_frames unchanged (sink %llu, bystander %llu)",
		   w, (unsigned long long)on.rx[0], (unsigned long long)on.rx[2]);
		ok(on.attempts == off.attempts && on.successes == off.successes &&
		   on.failures == off.failures,
		   "overhear on (%s): the sender's attempts/successes/failures as off (%llu/%llu/%llu)",
		   w, (unsigned long long)on.attempts, (unsigned long long)on.successes,
		   (unsigned long long)on.failures);
		ok(off.failures > 0, "(%s) the links lose frames: the draws matter (%llu failures)",
		   w, (unsigned long long)off.failures);
		same = on.n_status == off.n_status;
		for (unsigned int i = 0; same && i < on.n_status && i < 320; i++)
			same = on.st[i].cookie - on.st[0].cookie ==
			       off.st[i].cookie - off.st[0].cookie &&
			       on.st[i].acked == off.st[i].acked &&
			       on.st[i].attempts == off.st[i].attempts &&
			       on.st[i].ampdu_acked == off.st[i].ampdu_acked;
		ok(same, "overhear on (%s): every status (ACK flag, attempts) as off (%u statuses)",
		   w, on.n_status);
		ok(on.trace && off.trace && !strcmp(on.trace, off.trace),
		   "overhear on (%s): the trace (transmissions, ok_mask) identical", w);
		free(on.trace);
		free(off.trace);
	}
}

/*
 * Propagation from positions (802.11-2020 10.3.7: aAirPropagationTime is
 * part of the slot; the medium gives each pair distance / c, rounded up
 * to the nanosecond).  802.11g DCF, log-distance with exponent 2, sink k
 * at the origin, "near" at 30 m (-49.6 dBm at k, 101 ns), "far" at 300 m
 * (-69.6 dBm, 1001 ns), both with backoff 4: both start at DIFS + 4 slots
 * = 64 us, in the same slot (near's signal reaches far 901 ns later).
 * k hears near first at 64.101 us and locks on it (alone: SINR 40 dB);
 * far's arrives at 65.001 us 20 dB weaker, near's header holds (SINR 20
 * dB >= 4 dB), so k keeps near's frame.  Without payload capture the
 * overlap loses it: a header received and a frame lost, so EIFS, set when
 * near's signal ends at k, 318.101 us (64 + 254 us + 101 ns).  With
 * capture (and near at 30 dBm, 30 dB over far) the frame survives: no
 * EIFS and the ACK goes SIFS after the end at k, 328.101 us.  A second transmitter 31 m away (104 ns, 0.28 dB
 * weaker) instead breaks near's header 3 ns after it started at k: no
 * frame, no EIFS.
 */
static struct aq_medium *prop_setup(bool capture, double far_x, int *k, int *near,
				    int *far)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 41);

	m->phy.prop_pos = true;
	m->phy.capture = capture;
	m->chan.model = 0;
	m->chan.exponent = 2;
	*k = aq_radio_add(m, "sink", NULL);
	*near = aq_radio_add(m, "near", NULL);
	*far = aq_radio_add(m, "far", NULL);
	m->radio[*near].pos[0] = 30;
	m->radio[*far].pos[0] = far_x;
	if (capture)	/* 30 dB over far: 54 Mbit/s decodes (26 dB for 10 % PER) */
		m->radio[*near].tx_power_dbm = 30;
	aq_links_update(m);
	m->radio[*near].ac[AQ_AC_BE].backoff = 4;
	m->radio[*far].ac[AQ_AC_BE].backoff = 4;
	aq_enqueue(m, mkframe(*near, *k, 1534, 11, 7, 2412));
	aq_enqueue(m, mkframe(*far, *k, 1534, 11, 7, 2412));
	return m;
}

static void test_prop_positions(void)
{
	struct aq_medium *m;
	struct aq_radio *rk;
	struct tr t[8];
	char *buf = NULL;
	size_t sz = 0;
	int k, near, far, n, i;

	m = prop_setup(false, 300, &k, &near, &far);
	rk = &m->radio[k];
	EQ(aq_prop_delay(m, near, k), 101, "near: 30 m / c = 100.07 ns -> 101 ns");
	EQ(aq_prop_delay(m, far, k), 1001, "far: 300 m / c = 1000.69 ns -> 1001 ns");
	EQ(aq_prop_delay(m, near, far), 901, "near-far: 270 m -> 901 ns");
	aq_run_until(m, 64100);
	ok(!rk->rx_tx && rk->n_heard == 0, "64.100 us: nothing has reached the sink yet");
	aq_run_until(m, 64101);
	ok(rk->rx_tx && rk->rx_tx->src == near, "64.101 us: the sink locks on near's preamble");
	aq_run_until(m, 65000);
	EQ(rk->n_heard, 1, "65.000 us: far's signal not there yet");
	aq_run_until(m, 65001);
	EQ(rk->n_heard, 2, "65.001 us: far's signal arrives");
	ok(rk->rx_tx && rk->rx_tx->src == near && rk->rx_hdr_lost == 0,
	   "... 20 dB weaker: the lock stays on near's frame");
	EQ(m->st.same_slot_collisions, 1, "near and far started in the same slot");
	aq_run_until(m, 318100);
	ok(!rk->eifs, "318.100 us: near's frame still arriving, no EIFS yet");
	aq_run_until(m, 318101);
	ok(rk->eifs, "318.101 us: header received, frame lost (no capture): EIFS");
	EQ(m->radio[near].ac[AQ_AC_BE].st.successes + m->radio[far].ac[AQ_AC_BE].st.successes,
	   0, "no ACK to either");
	aq_run_until(m, 320000);
	EQ(rk->sense_idle_since, 319001, "the sink's medium idle when far's signal ends, 319.001 us");
	done(m);

	m = prop_setup(true, 300, &k, &near, &far);
	m->trace = open_memstream(&buf, &sz);
	aq_run_until(m, 400000);
	n = trace_end(m, &buf, t, 8);
	for (i = 0; i < n && strcmp(t[i].kind, "ACK"); i++)
		;
	ok(i < n && t[i].src == k && t[i].dst == near,
	   "with capture: the sink acknowledges near's frame");
	if (i < n)
		EQ(t[i].t, 328101, "ACK SIFS after near's signal ended at the sink: 318.101 + 10 us");
	ok(!m->radio[k].eifs, "with capture: the frame was received, no EIFS");
	free(buf);
	done(m);

	m = prop_setup(false, 31, &k, &near, &far);
	rk = &m->radio[k];
	EQ(aq_prop_delay(m, far, k), 104, "31 m: 103.4 ns -> 104 ns");
	aq_run_until(m, 64103);
	ok(rk->rx_tx && rk->rx_tx->src == near, "64.103 us: locked on the first preamble");
	aq_run_until(m, 64104);
	ok(!rk->rx_tx && rk->rx_hdr_lost == 1,
	   "64.104 us: a 0.28 dB weaker second one breaks the header (SINR < 4 dB)");
	aq_run_until(m, 330000);
	ok(!rk->eifs, "no header received: no EIFS after both frames");
	done(m);
}

/* ---------------------------------------------------------------- TXOP */

/*
 * Radio a holds 3 VO frames, b one BE frame (both backoff 0).  802.11g
 * EDCA: VO's default TXOP limit (1.504 ms) lets a send its three data
 * frames SIFS after each ACK, before b's BE frame; without TXOP (phy.txop
 * false, or a limit below two exchanges) every VO frame needs its own
 * access, and b's frame goes out between them.
 */
static int txop_run(bool txop, int64_t limit_ns, struct tr *t, int max,
		    uint64_t *cont)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_phy phy;
	char *buf = NULL;
	size_t sz = 0;
	int k, a, b, n;

	aq_phy_defaults(&phy, AQ_STD_G);
	phy.txop = txop;
	aq_init(m, &phy, 7);
	m->chan.model = 1;
	m->chan.default_snr_db = 40;
	m->ops.tx_status = rec_status;
	n_recs = 0;
	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	b = aq_radio_add(m, "b", NULL);
	if (limit_ns >= 0)
		aq_radio_set_txop(m, a, AQ_AC_VO, limit_ns);
	m->radio[a].ac[AQ_AC_VO].backoff = 0;
	m->radio[b].ac[AQ_AC_BE].backoff = 0;
	for (int i = 0; i < 3; i++) {
		struct aq_frame *f = mkframe(a, k, 300, 11, 7, 2412);

		f->ac = AQ_AC_VO;
		f->tid = 6;
		aq_enqueue(m, f);
	}
	aq_enqueue(m, mkframe(b, k, 300, 11, 7, 2412));
	aq_run_until(m, US(20000));
	n = trace_end(m, &buf, t, max);
	free(buf);
	*cont = m->radio[a].ac[AQ_AC_VO].st.txop_continuations;
	done(m);
	return n;
}

static void test_txop(void)
{
	struct tr t[32];
	uint64_t cont;
	int n, i, data = 0, first_b = -1, last_a = -1;
	int64_t gap = 0;
	bool sifs = true;

	n = txop_run(true, -1, t, 32, &cont);
	for (i = 0; i < n; i++) {
		if (strcmp(t[i].kind, "DATA"))
			continue;
		if (t[i].src == 2 && first_b < 0)
			first_b = data;
		if (t[i].src == 1) {
			last_a = data;
			/* after a's first frame: SIFS after the ACK before */
			if (data > 0 && i > 0) {
				gap = t[i].t - (t[i - 1].t + t[i - 1].dur);
				if (gap != US(10) + US(1))
					sifs = false;
			}
		}
		data++;
	}
	EQ(data, 4, "TXOP: four data frames on the air");
	ok(last_a == 2 && first_b == 3, "TXOP: a's three VO frames go before b's BE one (a last %d, b first %d)",
	   last_a, first_b);
	/* the ACK's end reaches a 1 us (propagation) after the sink sent it */
	ok(sifs, "TXOP: each of a's later frames starts SIFS (10 us) after the ACK before it reached a (last gap %lld ns)",
	   (long long)gap);
	EQ(cont, 2, "TXOP: two continuations counted");

	n = txop_run(false, -1, t, 32, &cont);
	for (i = 0, data = 0, first_b = -1; i < n; i++) {
		if (strcmp(t[i].kind, "DATA"))
			continue;
		if (t[i].src == 2 && first_b < 0)
			first_b = data;
		data++;
	}
	ok(first_b >= 0 && first_b < 3 && cont == 0,
	   "no TXOP (phy.txop false): b's frame goes between a's (position %d), no continuation",
	   first_b);

	/* 300 B at 54 Mbit/s, SIFS and the ACK at 24 Mbit/s: about 118 us
	 * an exchange, 128 us with the SIFS before the next */
	txop_run(true, US(150), t, 32, &cont);
	EQ(cont, 0, "a 150 us TXOP limit holds one exchange only");
	txop_run(true, US(300), t, 32, &cont);
	EQ(cont, 1, "a 300 us TXOP limit holds two exchanges");
	txop_run(true, US(400), t, 32, &cont);
	EQ(cont, 2, "a 400 us TXOP limit holds all three exchanges");
}

/* -------------------------------------- control responses to HT frames */

/*
 * A non-HT response to an HT frame is compared at the eliciting MCS's
 * non-HT reference rate: the clause-17 rate of the same modulation and
 * coding rate (802.11-2012 9.7.9 and its Table 9-5; 10.6.11 in
 * 802.11-2020), 64-QAM 5/6 mapping to 54.  MCS m of one stream or m + 8
 * of two: BPSK 1/2 6, QPSK 1/2 12, QPSK 3/4 18, 16-QAM 1/2 24, 16-QAM 3/4
 * 36, 64-QAM 2/3 48, 64-QAM 3/4 54, 64-QAM 5/6 54 Mbit/s.
 */
static void test_ht_ref_rate(void)
{
	/* 5 GHz, hostapd's basic rates 6, 12, 24: highest basic <= ref */
	static const unsigned int rsp5[8] = { 6000, 12000, 12000, 24000, 24000,
					      24000, 24000, 24000 };
	struct aq_phy n5, n24;
	struct aq_rate d, c;
	int bad5 = 0, bad24 = 0;

	aq_phy_defaults(&n5, AQ_STD_N5);
	aq_phy_defaults(&n24, AQ_STD_N24);
	for (unsigned int mcs = 0; mcs < 16; mcs++) {
		aq_rate_ht(&n5, mcs, mcs & 1, mcs & 2, &d);
		aq_ctrl_rate(&n5, &d, &c);
		bad5 += c.kbps != rsp5[mcs & 7] || c.mod != AQ_MOD_OFDM;
		/* 2.4 GHz, basic 1, 2, 5.5, 11: no OFDM basic rate, so the
		 * highest mandatory OFDM rate (6, 12, 24) <= ref: the same */
		aq_rate_ht(&n24, mcs, false, false, &d);
		aq_ctrl_rate(&n24, &d, &c);
		bad24 += c.kbps != rsp5[mcs & 7] || c.mod != AQ_MOD_OFDM || !c.sig_ext;
	}
	EQ(bad5, 0, "n5: ACK/BA to MCS 0-15 at the highest basic rate <= the non-HT reference rate");
	EQ(bad24, 0, "n24: ACK/BA to MCS 0-15 at the highest mandatory OFDM rate <= the reference rate");
	aq_rate_ht(&n5, 3, false, false, &d);
	aq_ctrl_rate(&n5, &d, &c);
	EQ(c.kbps, 24000, "MCS 3 (16-QAM 1/2, reference 24): ACK at 24 Mbit/s, not 12");
	/* ACK 14 B at 24: 20 + 4 * ceil(134/96) = 28 us; at 12: 20 + 4 * 3 */
	EQ(aq_txtime(&n5, &c, AQ_ACK_LEN), US(28), "MCS 3: ACK lasts 28 us");
	aq_rate_ht(&n5, 9, false, false, &d);
	aq_ctrl_rate(&n5, &d, &c);
	EQ(c.kbps, 12000, "MCS 9 (QPSK 1/2, reference 12): ACK at 12 Mbit/s, not 6");
	/* the RTS (the medium's choice of basic rate, 10.6.6.2) too */
	aq_rate_ht(&n5, 3, false, false, &d);
	aq_rts_rate(&n5, &d, &c);
	EQ(c.kbps, 24000, "MCS 3: RTS at 24 Mbit/s (fastest basic rate <= the reference rate)");
}

/* ---------------------------------------- layer 3: hand-timed exchanges */

/* radio "a" sends n frames of len octets at HT MCS mcs to "sink": n5 at
 * 5180 MHz, n24 at 2412 */
static int ht_run(enum aq_std std, int mcs, bool ht40, bool sgi, unsigned int n,
		  unsigned int len, bool rts, struct tr *t, int max)
{
	struct aq_medium *m = mk(std, false, 41);
	unsigned int freq = std == AQ_STD_N24 ? 2412 : 5180;
	char *buf = NULL;
	size_t sz = 0;
	int k, a, nt;

	if (rts)
		m->phy.rts_threshold = 0;
	m->trace = open_memstream(&buf, &sz);
	k = aq_radio_add(m, "sink", NULL);
	a = aq_radio_add(m, "a", NULL);
	m->radio[a].ac[AQ_AC_BE].backoff = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct aq_frame *f = mkframe(a, k, len, mcs, 10, freq);

		f->rates[0].flags = HWSIM_TX_RC_MCS |
				    (ht40 ? HWSIM_TX_RC_40_MHZ_WIDTH : 0) |
				    (sgi ? HWSIM_TX_RC_SHORT_GI : 0);
		f->ampdu_ok = true;
		f->qos_data = true;
		aq_enqueue(m, f);
	}
	aq_run_until(m, US(5000));
	nt = trace_end(m, &buf, t, max);
	free(buf);
	done(m);
	return nt;
}

/*
 * Per-frame start times and durations of whole exchanges on two radios,
 * against the hand arithmetic.  802.11n 5 GHz (Table 19-25 timing as
 * clause 17: SIFS 16, slot 9, DIFS 16 + 2 * 9 = 34 us); one 1 us
 * propagation delay; the sender's backoff is 0, so it starts at DIFS.
 *
 * HT TXTIME (19.4.3), mixed format: 20 (L-STF, L-LTF, L-SIG) + 8 (HT-SIG)
 * + 4 (HT-STF) + 4 N_LTF, then N_SYM = ceil((16 + 8 L + 6 N_ES) / N_DBPS)
 * symbols; short GI: 4 * ceil(3.6 N_SYM / 4) us.  HT40 MCS 15 short GI:
 * N_DBPS 1080, 300 Mbit/s, N_LTF 2 (two streams), N_ES 1.
 *
 * Non-HT responses (17.4.3): 20 + 4 * ceil((16 + 8 L + 6) / N_DBPS); at 24
 * Mbit/s (N_DBPS 96, the highest basic rate <= MCS 15's reference rate 54,
 * 10.6.6.5): ACK/CTS 14 B 28 us, RTS 20 B 28 us, compressed Block Ack 32 B
 * ceil(278/96) = 3 symbols, 32 us.
 */
static void test_ht_exchanges(void)
{
	struct tr t[8];
	int n;

	/* A-MPDU of four 1538-B MPDUs: 3 * 1544 (padded) + 1542 = 6174 B;
	 * N_SYM = ceil((22 + 49392) / 1080) = 46; 40 + 4 * ceil(41.4) = 208 */
	n = ht_run(AQ_STD_N5, 15, true, true, 4, 1538, false, t, 8);
	ok(n == 2, "HT40 MCS15 SGI: A-MPDU and Block Ack (%d transmissions)", n);
	if (n == 2) {
		ok(!strcmp(t[0].kind, "DATA") && t[0].nfr == 4 && t[0].bytes == 6174,
		   "A-MPDU of 4 subframes, 6174 octets (%s, %u, %u)", t[0].kind,
		   t[0].nfr, t[0].bytes);
		EQ(t[0].kbps, 300000, "A-MPDU at 300 Mbit/s");
		EQ(t[0].t, US(34), "A-MPDU starts at DIFS 34 us");
		EQ(t[0].dur, US(208), "A-MPDU lasts 208 us");
		ok(!strcmp(t[1].kind, "BA") && t[1].bytes == 32 && t[1].kbps == 24000,
		   "Block Ack: 32 octets at 24 Mbit/s (%s, %u, %u)", t[1].kind,
		   t[1].bytes, t[1].kbps);
		/* end 242, reaches the sink at 243, + SIFS 16 */
		EQ(t[1].t, US(259), "Block Ack starts at 242 + 1 + 16 = 259 us");
		EQ(t[1].dur, US(32), "Block Ack lasts 32 us");
	}
	/* one MPDU of 1538 B: no A-MPDU, a normal ACK; N_SYM = ceil(12326 /
	 * 1080) = 12, 40 + 4 * ceil(10.8) = 84 us */
	n = ht_run(AQ_STD_N5, 15, true, true, 1, 1538, false, t, 8);
	ok(n == 2 && t[0].dur == US(84) && t[0].t == US(34) && !strcmp(t[1].kind, "ACK") &&
	   t[1].t == US(34 + 84 + 1 + 16) && t[1].dur == US(28),
	   "HT40 MCS15 SGI single MPDU: DATA 34 + 84 us, ACK at 135 us for 28 us");
	/* RTS, CTS, A-MPDU, Block Ack: RTS at 34 (28 us) ends 62; CTS at
	 * 63 + 16 = 79 (28 us) ends 107; A-MPDU at 108 + 16 = 124 (208 us)
	 * ends 332; Block Ack at 333 + 16 = 349 (32 us) */
	n = ht_run(AQ_STD_N5, 15, true, true, 4, 1538, true, t, 8);
	ok(n == 4, "RTS, CTS, A-MPDU, Block Ack (%d transmissions)", n);
	if (n == 4) {
		ok(!strcmp(t[0].kind, "RTS") && t[0].t == US(34) && t[0].dur == US(28) &&
		   t[0].kbps == 24000, "RTS at 34 us, 28 us at 24 Mbit/s (at %lld ns, %lld ns)",
		   (long long)t[0].t, (long long)t[0].dur);
		ok(!strcmp(t[1].kind, "CTS") && t[1].t == US(79) && t[1].dur == US(28),
		   "CTS at 79 us, 28 us (at %lld ns)", (long long)t[1].t);
		ok(!strcmp(t[2].kind, "DATA") && t[2].t == US(124) && t[2].dur == US(208),
		   "A-MPDU at 124 us, 208 us (at %lld ns)", (long long)t[2].t);
		ok(!strcmp(t[3].kind, "BA") && t[3].t == US(349) && t[3].dur == US(32),
		   "Block Ack at 349 us, 32 us (at %lld ns)", (long long)t[3].t);
	}
}

/* one traced transmission: kind, rate, octets, start and duration */
static void tx_is(const struct tr *x, const char *kind, unsigned int kbps,
		  unsigned int bytes, int64_t t, int64_t dur, const char *what)
{
	ok(!strcmp(x->kind, kind) && x->kbps == kbps && x->bytes == bytes &&
	   x->t == t && x->dur == dur,
	   "%s: %s, %u kbit/s, %u octets at %lld ns for %lld ns (got %s, %u, %u at %lld for %lld)",
	   what, kind, kbps, bytes, (long long)t, (long long)dur, x->kind, x->kbps,
	   x->bytes, (long long)x->t, (long long)x->dur);
}

/*
 * The same exchanges at HT20, one spatial stream: MCS 7 long GI, 64-QAM
 * 5/6 on 52 data subcarriers, N_DBPS = 52 * 6 * 5/6 = 260 bits per 4 us
 * symbol, 65 Mbit/s; one space-time stream takes one HT-LTF, so the
 * HT-mixed preamble is 20 (L-STF 8 + L-LTF 8 + L-SIG 4) + 8 (HT-SIG) + 4
 * (HT-STF) + 4 (HT-LTF) = 36 us; one BCC encoder (N_ES 1, every rate up
 * to 300 Mbit/s).  TXTIME (19.4.3) = 36 + 4
 * * ceil((16 + 8 L + 6) / 260) us, + 6 us signal extension at 2.4 GHz.
 *
 * PSDUs: one 1538-octet MPDU: 16 + 12304 + 6 = 12326 bits, 47 * 260 =
 * 12220 < 12326 <= 12480 = 48 * 260: 48 symbols, 36 + 192 = 228 us.  An
 * A-MPDU of four (9.7.1: a subframe is a 4-octet delimiter + the MPDU,
 * padded to a multiple of 4 octets but the last): 3 * (4 + 1538 = 1542 ->
 * 1544) + 1542 = 6174 octets, 16 + 49392 + 6 = 49414 bits, 190 * 260 =
 * 49400 < 49414: 191 symbols, 36 + 764 = 800 us.
 *
 * Responses (non-HT, 17.3.2.5 / 18.4.3): MCS 7's non-HT reference rate is
 * 54 Mbit/s (64-QAM 5/6 -> 54, 10.6.11), so the ACK or Block Ack goes at
 * the highest basic rate <= 54 of the OFDM class (10.6.6.5): 5 GHz,
 * hostapd's {6, 12, 24}: 24; 2.4 GHz, {1, 2, 5.5, 11} has no OFDM rate,
 * so the highest mandatory OFDM rate <= 54 of {6, 12, 24}: 24 as well.
 * At 24 Mbit/s (N_DBPS 96): ACK 14 octets, 16 + 112 + 6 = 134 bits, 2
 * symbols, 20 + 8 = 28 us; compressed Block Ack 32 octets, 16 + 256 + 6 =
 * 278 bits, 3 symbols, 20 + 12 = 32 us; + 6 us extension at 2.4 GHz.
 *
 * n5 (Table 17-21 timing): SIFS 16, slot 9, DIFS 16 + 2 * 9 = 34 us.  n24
 * (Table 18-5, short slot): SIFS 10, slot 9, DIFS 10 + 2 * 9 = 28 us.
 * One 1 us propagation delay; the sender's backoff is 0: it starts at
 * DIFS.
 */
static void test_ht20_exchanges(void)
{
	struct tr t[8];
	int n;

	/* n5, A-MPDU + Block Ack: A-MPDU at 34 for 800 us, ends 834,
	 * reaches the sink at 835; Block Ack at 835 + 16 = 851 for 32 us */
	n = ht_run(AQ_STD_N5, 7, false, false, 4, 1538, false, t, 8);
	ok(n == 2, "n5 HT20 MCS7: A-MPDU and Block Ack (%d transmissions)", n);
	if (n == 2) {
		EQ(t[0].nfr, 4, "n5 HT20 MCS7: 4 subframes in the A-MPDU");
		tx_is(&t[0], "DATA", 65000, 6174, US(34), US(800),
		      "n5 HT20 MCS7 A-MPDU at DIFS 34 us, 36 + 4 * 191 = 800 us");
		tx_is(&t[1], "BA", 24000, 32, US(851), US(32),
		      "n5 HT20 MCS7 Block Ack at 834 + 1 + 16 = 851 us, 32 us at 24");
	}
	/* n5, one MPDU + ACK: DATA at 34 for 228 us, ends 262; ACK at 262 +
	 * 1 + 16 = 279 for 28 us */
	n = ht_run(AQ_STD_N5, 7, false, false, 1, 1538, false, t, 8);
	ok(n == 2, "n5 HT20 MCS7: one MPDU and its ACK (%d transmissions)", n);
	if (n == 2) {
		tx_is(&t[0], "DATA", 65000, 1538, US(34), US(228),
		      "n5 HT20 MCS7 MPDU at 34 us, 36 + 4 * 48 = 228 us");
		tx_is(&t[1], "ACK", 24000, 14, US(279), US(28),
		      "n5 HT20 MCS7 ACK at 262 + 1 + 16 = 279 us, 28 us at 24");
	}
	/* n24, A-MPDU + Block Ack: A-MPDU at 28 for 800 + 6 = 806 us, ends
	 * 834, reaches the sink at 835; Block Ack at 835 + 10 = 845 for 32
	 * + 6 = 38 us */
	n = ht_run(AQ_STD_N24, 7, false, false, 4, 1538, false, t, 8);
	ok(n == 2, "n24 HT20 MCS7: A-MPDU and Block Ack (%d transmissions)", n);
	if (n == 2) {
		EQ(t[0].nfr, 4, "n24 HT20 MCS7: 4 subframes in the A-MPDU");
		tx_is(&t[0], "DATA", 65000, 6174, US(28), US(806),
		      "n24 HT20 MCS7 A-MPDU at DIFS 28 us, 800 + 6 = 806 us");
		tx_is(&t[1], "BA", 24000, 32, US(845), US(38),
		      "n24 HT20 MCS7 Block Ack at 834 + 1 + 10 = 845 us, 32 + 6 us at 24");
	}
	/* n24, one MPDU + ACK: DATA at 28 for 228 + 6 = 234 us, ends 262;
	 * ACK at 262 + 1 + 10 = 273 for 28 + 6 = 34 us */
	n = ht_run(AQ_STD_N24, 7, false, false, 1, 1538, false, t, 8);
	ok(n == 2, "n24 HT20 MCS7: one MPDU and its ACK (%d transmissions)", n);
	if (n == 2) {
		tx_is(&t[0], "DATA", 65000, 1538, US(28), US(234),
		      "n24 HT20 MCS7 MPDU at 28 us, 228 + 6 = 234 us");
		tx_is(&t[1], "ACK", 24000, 14, US(273), US(34),
		      "n24 HT20 MCS7 ACK at 262 + 1 + 10 = 273 us, 28 + 6 us at 24");
	}
	/* n24 with RTS/CTS.  RTS (20 octets) at the fastest basic rate <=
	 * the reference rate 54 (10.6.6.2, mac80211's rule): 11 Mbit/s CCK,
	 * long preamble (the BSS's, phy.short_preamble false): 192 +
	 * ceil(160 / 11) = 192 + 15 = 207 us at 28, ends 235.  CTS (14
	 * octets) to an 11 Mbit/s CCK frame: the highest DSSS/HR basic rate
	 * <= 11, 11, long: 192 + ceil(112 / 11) = 192 + 11 = 203 us at 235 +
	 * 1 + 10 = 246, ends 449.  A-MPDU at 449 + 1 + 10 = 460 for 806 us,
	 * ends 1266; Block Ack at 1266 + 1 + 10 = 1277 for 38 us */
	n = ht_run(AQ_STD_N24, 7, false, false, 4, 1538, true, t, 8);
	ok(n == 4, "n24 HT20 MCS7: RTS, CTS, A-MPDU, Block Ack (%d transmissions)", n);
	if (n == 4) {
		tx_is(&t[0], "RTS", 11000, 20, US(28), US(207),
		      "n24 HT20 MCS7 RTS at 28 us, 207 us at 11 CCK");
		tx_is(&t[1], "CTS", 11000, 14, US(246), US(203),
		      "n24 HT20 MCS7 CTS at 235 + 1 + 10 = 246 us, 203 us at 11 CCK");
		tx_is(&t[2], "DATA", 65000, 6174, US(460), US(806),
		      "n24 HT20 MCS7 A-MPDU at 449 + 1 + 10 = 460 us, 806 us");
		tx_is(&t[3], "BA", 24000, 32, US(1277), US(38),
		      "n24 HT20 MCS7 Block Ack at 1266 + 1 + 10 = 1277 us, 38 us");
	}
}

/*
 * The two HT shapes between those: 40 MHz with one spatial stream and
 * 20 MHz with two, long GI, 802.11n 5 GHz as above (SIFS 16, DIFS 34,
 * 1 us propagation, backoff 0).
 *
 * HT40 MCS 7: 64-QAM 5/6 on 108 data subcarriers, N_DBPS = 108 * 6 * 5/6
 * = 540, 135 Mbit/s; one stream, one HT-LTF: preamble 36 us.  One
 * 1538-octet MPDU: ceil(12326 / 540) = 23 symbols, 36 + 92 = 128 us; the
 * A-MPDU of four (6174 octets): ceil(49414 / 540) = 92, 36 + 368 = 404 us.
 *
 * HT20 MCS 15: two streams of 64-QAM 5/6 on 52 subcarriers, N_DBPS = 2 *
 * 260 = 520, 130 Mbit/s; two space-time streams take two HT-LTFs
 * (19.3.9.4.6): preamble 40 us; one BCC encoder below 300 Mbit/s.  One
 * MPDU: ceil(12326 / 520) = 24 symbols, 40 + 96 = 136 us; the A-MPDU:
 * ceil(49414 / 520) = 96, 40 + 384 = 424 us.
 *
 * Both MCSs map to the non-HT reference rate 54 (64-QAM 5/6), so the ACK
 * (28 us) and the Block Ack (32 us) go at 24 Mbit/s.
 */
static void test_ht_shapes(void)
{
	struct tr t[8];
	int n;

	/* HT40 1 stream: MPDU at 34 for 128, ends 162; ACK at 179 */
	n = ht_run(AQ_STD_N5, 7, true, false, 1, 1538, false, t, 8);
	ok(n == 2, "n5 HT40 MCS7: one MPDU and its ACK (%d transmissions)", n);
	if (n == 2) {
		tx_is(&t[0], "DATA", 135000, 1538, US(34), US(128),
		      "n5 HT40 MCS7 MPDU at 34 us, 36 + 4 * 23 = 128 us");
		tx_is(&t[1], "ACK", 24000, 14, US(179), US(28),
		      "n5 HT40 MCS7 ACK at 162 + 1 + 16 = 179 us, 28 us at 24");
	}
	/* A-MPDU at 34 for 404, ends 438; Block Ack at 455 */
	n = ht_run(AQ_STD_N5, 7, true, false, 4, 1538, false, t, 8);
	ok(n == 2, "n5 HT40 MCS7: A-MPDU and Block Ack (%d transmissions)", n);
	if (n == 2) {
		EQ(t[0].nfr, 4, "n5 HT40 MCS7: 4 subframes in the A-MPDU");
		tx_is(&t[0], "DATA", 135000, 6174, US(34), US(404),
		      "n5 HT40 MCS7 A-MPDU at 34 us, 36 + 4 * 92 = 404 us");
		tx_is(&t[1], "BA", 24000, 32, US(455), US(32),
		      "n5 HT40 MCS7 Block Ack at 438 + 1 + 16 = 455 us, 32 us at 24");
	}
	/* HT20 2 streams: MPDU at 34 for 136, ends 170; ACK at 187 */
	n = ht_run(AQ_STD_N5, 15, false, false, 1, 1538, false, t, 8);
	ok(n == 2, "n5 HT20 MCS15: one MPDU and its ACK (%d transmissions)", n);
	if (n == 2) {
		tx_is(&t[0], "DATA", 130000, 1538, US(34), US(136),
		      "n5 HT20 MCS15 MPDU at 34 us, 40 + 4 * 24 = 136 us");
		tx_is(&t[1], "ACK", 24000, 14, US(187), US(28),
		      "n5 HT20 MCS15 ACK at 170 + 1 + 16 = 187 us, 28 us at 24");
	}
	/* A-MPDU at 34 for 424, ends 458; Block Ack at 475 */
	n = ht_run(AQ_STD_N5, 15, false, false, 4, 1538, false, t, 8);
	ok(n == 2, "n5 HT20 MCS15: A-MPDU and Block Ack (%d transmissions)", n);
	if (n == 2) {
		EQ(t[0].nfr, 4, "n5 HT20 MCS15: 4 subframes in the A-MPDU");
		tx_is(&t[0], "DATA", 130000, 6174, US(34), US(424),
		      "n5 HT20 MCS15 A-MPDU at 34 us, 40 + 4 * 96 = 424 us");
		tx_is(&t[1], "BA", 24000, 32, US(475), US(32),
		      "n5 HT20 MCS15 Block Ack at 458 + 1 + 16 = 475 us, 32 us at 24");
	}
}

/*
 * The patched hwsim's ext_attrs line (hwsim-patches 0005): the numbers are
 * the kernel's, so a 6.18 port's (NAN and radar took 30 and 31) parse as
 * well as 6.12's; a malformed line is refused with the reason.
 */
static void test_hwsim_ext(void)
{
	static const char l612[] = "tx_airtime=30 rx_airtime=31 chan_busy_time=32 "
		"chan_active_time=33 chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36 "
		"tx_ctl_ampdu=0x8\n";
	static const char l618[] = "tx_airtime=32 rx_airtime=33 chan_busy_time=34 "
		"chan_active_time=35 chan_tx_time=36 tx_ampdu_len=37 tx_ampdu_acked=38 "
		"tx_ctl_ampdu=0x10 some_later_key=40\n";
	static const struct { const char *line, *why; } bad[] = {
		{ "", "tx_airtime missing" },
		{ "tx_airtime=30 rx_airtime=31 chan_busy_time=32 chan_active_time=33 "
		  "chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36", "tx_ctl_ampdu missing" },
		{ "tx_airtime=29 rx_airtime=31 chan_busy_time=32 chan_active_time=33 "
		  "chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36 tx_ctl_ampdu=0x8",
		  "is not above hwsim's attributes" },
		{ "tx_airtime=30 rx_airtime=30 chan_busy_time=32 chan_active_time=33 "
		  "chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36 tx_ctl_ampdu=0x8",
		  "are both 30" },
		{ "tx_airtime=30 rx_airtime=31 chan_busy_time=32 chan_active_time=33 "
		  "chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36 tx_ctl_ampdu=0x4",
		  "is not one flag above hwsim's own" },
		{ "tx_airtime=30 rx_airtime=31 chan_busy_time=32 chan_active_time=33 "
		  "chan_tx_time=34 tx_ampdu_len=35 tx_ampdu_acked=36 tx_ctl_ampdu=0xc",
		  "is not one flag above hwsim's own" },
		{ "tx_airtime=3x rx_airtime=31", "not a number" },
		{ "tx_airtime", "expected key=number" },
	};
	struct aq_hwsim_ext e;
	char err[160];
	size_t i;

	ok(aq_hwsim_ext_parse(l612, &e, err, sizeof(err)) == 0 && e.present &&
	   e.tx_airtime == 30 && e.rx_airtime == 31 && e.chan_busy_time == 32 &&
	   e.chan_active_time == 33 && e.chan_tx_time == 34 && e.tx_ampdu_len == 35 &&
	   e.tx_ampdu_acked == 36 && e.tx_ctl_ampdu == 0x8,
	   "hwsim ext_attrs: 6.12's numbers parse");
	ok(aq_hwsim_ext_parse(l618, &e, err, sizeof(err)) == 0 && e.present &&
	   e.tx_airtime == 32 && e.tx_ampdu_acked == 38 && e.tx_ctl_ampdu == 0x10,
	   "hwsim ext_attrs: other numbers and an unknown key parse");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ok(aq_hwsim_ext_parse(bad[i].line, &e, err, sizeof(err)) < 0 && !e.present &&
		   strstr(err, bad[i].why),
		   "hwsim ext_attrs: \"%.24s...\" refused: %s", bad[i].line, err);
	}
}

/* ------------------------------------------------------ per-pair delays */

/*
 * tx_fan() handles a signal's arrivals at its receivers with one heap
 * event per side instead of one per receiver and side.  It must handle
 * every arrival at the time and in the order the per-receiver events
 * took: the same trace and statistics (events counted included) as the
 * reference path (per_rx_events) for the same seed.  The
 * run has what could tell them apart: three BSSs with positions (delays
 * of 17 to 200 ns), a radio 12 km away whose link to ap1 is set to 30 dB
 * (a 40 us delay, longer than an ACK, so one frame's end reaches it after
 * the next frame's start), beacons, stepping by 1.3 and 37 us
 * (aq_run_until()'s bound falls between one signal's arrivals), a radio
 * removed and one added mid-run, and positions moved.
 */
static const char fan_cfg[] =
	"{\"phy\": {\"standard\": \"g\"}, \"seed\": 5,"
	" \"radios\": ["
	"  {\"name\": \"ap1\", \"pos\": [0, 0]}, {\"name\": \"s1\", \"pos\": [5, 0]},"
	"  {\"name\": \"ap2\", \"pos\": [30, 0]}, {\"name\": \"s2\", \"pos\": [30, 5]},"
	"  {\"name\": \"ap3\", \"pos\": [60, 0]}, {\"name\": \"s3\", \"pos\": [65, 0]},"
	"  {\"name\": \"s3b\", \"pos\": [60, -5]}, {\"name\": \"far\", \"pos\": [12000, 0]}],"
	" \"links\": [{\"from\": \"ap1\", \"to\": \"far\", \"snr_db\": 30},"
	"  {\"from\": \"far\", \"to\": \"ap1\", \"snr_db\": 30}],"
	" \"traffic\": ["
	"  {\"src\": \"ap1\", \"dst\": \"s1\", \"saturated\": true, \"payload\": 1500},"
	"  {\"src\": \"ap2\", \"dst\": \"s2\", \"saturated\": true, \"payload\": 1500},"
	"  {\"src\": \"ap3\", \"dst\": \"s3\", \"saturated\": true, \"payload\": 1000},"
	"  {\"src\": \"ap3\", \"dst\": \"s3b\", \"saturated\": true, \"payload\": 300},"
	"  {\"src\": \"s1\", \"dst\": \"ap1\", \"interval_us\": 500, \"payload\": 60},"
	"  {\"src\": \"s3\", \"dst\": \"ap3\", \"interval_us\": 700, \"payload\": 60},"
	"  {\"src\": \"far\", \"dst\": \"ap1\", \"interval_us\": 3000, \"payload\": 200},"
	"  {\"src\": \"ap1\", \"dst\": \"broadcast\", \"interval_us\": 10240, \"payload\": 200, \"tid\": 7},"
	"  {\"src\": \"ap2\", \"dst\": \"broadcast\", \"interval_us\": 10240, \"payload\": 200, \"tid\": 7}]}";

struct fan_run {
	char *trace, *stats;
	uint64_t events, transmissions, inserts;
	unsigned int past_bound;
};

static void fan_run(bool per_rx, struct fan_run *o)
{
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts opts;
	char err[512] = "";
	size_t sz = 0;
	FILE *sf;
	int64_t t;

	memset(o, 0, sizeof(*o));
	if (!m || aq_config_load(NULL, fan_cfg, m, &sim, &opts, err, sizeof(err)) < 0) {
		ok(0, "fan config loads (%s)", err);
		exit(1);
	}
	m->per_rx_events = per_rx;
	m->trace = open_memstream(&o->trace, &sz);
	aq_sim_start(m, &sim);
	/* 1.3 us steps: some bounds fall between one signal's arrivals,
	 * and none of those after the bound may be handled before the next
	 * call (the clock would pass the bound) */
	for (t = 0; t < AQ_NS_PER_S / 50; t += 1300) {
		aq_run_until(m, t);
		o->past_bound += m->now != t;
	}
	for (; t < AQ_NS_PER_S / 20; t += 37 * 1000)
		aq_run_until(m, t);
	for (; t < AQ_NS_PER_S * 3 / 10; t += AQ_NS_PER_S / 1000) {
		if (t >= AQ_NS_PER_S / 10 && m->radio[3].present)
			aq_radio_remove(m, 3);	/* s2 */
		if (t >= AQ_NS_PER_S * 15 / 100 && m->radio[4].pos[1] == 0) {
			m->radio[4].pos[1] = 40;	/* ap3 moves */
			aq_links_update(m);
		}
		if (t >= AQ_NS_PER_S * 2 / 10 && !m->radio[3].present)
			aq_radio_add(m, "s2again", NULL);
		aq_run_until(m, t);
	}
	fclose(m->trace);
	m->trace = NULL;
	sf = open_memstream(&o->stats, &sz);
	aq_stats_json(m, sf);
	fclose(sf);
	o->events = m->st.events;
	o->transmissions = m->st.transmissions;
	o->inserts = m->heap_inserts;
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
}

static void test_fan(void)
{
	struct fan_run a, b;

	fan_run(true, &a);
	fan_run(false, &b);
	ok(a.transmissions > 1000 && strlen(a.trace) > 1000,
	   "per-pair delays: the run transmits (%llu transmissions)",
	   (unsigned long long)a.transmissions);
	ok(!a.past_bound && !b.past_bound,
	   "... no arrival is handled past aq_run_until()'s bound (%u, %u steps)",
	   a.past_bound, b.past_bound);
	ok(!strcmp(a.trace, b.trace),
	   "one event per side (tx_fan) gives the trace of one per receiver");
	ok(!strcmp(a.stats, b.stats) && a.events == b.events,
	   "... and the same statistics, events counted included (%llu)",
	   (unsigned long long)b.events);
	/* 7 receivers per transmission here: 14 events each, where the
	 * accesses the radios schedule are most of what is left */
	ok(b.inserts * 10 < a.inserts * 6,
	   "... with under 60 %% of the heap's insertions (%llu against %llu)",
	   (unsigned long long)b.inserts, (unsigned long long)a.inserts);
	free(a.trace);
	free(a.stats);
	free(b.trace);
	free(b.stats);
}

/* ------------------------------------------------------------ lateness */

/*
 * aq_note_lateness(): wakeups over 1 ms late count, and the time behind
 * is the union of the intervals from 1 ms after each due time to the
 * wakeup.  Due 0, woken at 0.5 ms: not late.  Due 10 ms, woken at 13:
 * behind 11-13 (2 ms).  Due 12, woken at 15 (still behind since 13):
 * 13-15 more (2 ms, not the 3 from 13 to 15 plus 11-13 again).  Due 30,
 * woken at 30.9: not late.  Due 40, woken at 45: 41-45 (4 ms).  In all 8
 * ms behind, 3 late wakeups, 5 ms the latest.
 */
static void test_lateness(void)
{
	struct aq_medium *m = mk(AQ_STD_G, false, 1);
	int64_t ms = AQ_NS_PER_S / 1000;

	aq_note_lateness(m, ms / 2, 0);
	aq_note_lateness(m, 13 * ms, 10 * ms);
	aq_note_lateness(m, 15 * ms, 12 * ms);
	aq_note_lateness(m, 30 * ms + 9 * ms / 10, 30 * ms);
	aq_note_lateness(m, 44 * ms, 45 * ms);	/* early: nothing */
	aq_note_lateness(m, 45 * ms, 40 * ms);
	EQ(m->st.late_events, 3, "lateness: 3 wakeups over 1 ms late");
	EQ(m->st.behind_ns, 8 * ms, "lateness: 8 ms behind, each moment counted once");
	EQ(m->st.max_late_ns, 5 * ms, "lateness: 5 ms the latest");
	done(m);
}

int main(void)
{
	test_airtime();
	test_backoff(true);
	test_backoff(false);
	test_same_slot();
	test_retry_after_timeout();
	test_cw_cap_and_discard();
	test_internal_collision();
	test_nav();
	test_hidden_collisions();
	test_rate_table();
	test_classify();
	test_ampdu();
	test_config();
	test_slot_config();
	test_ctrl_rates();
	test_eifs_rules();
	test_capture_order();
	test_overhear();
	test_beacon_scope();
	test_prop_positions();
	test_fan();
	test_lateness();
	test_txop();
	test_ht_ref_rate();
	test_ht_exchanges();
	test_ht20_exchanges();
	test_ht_shapes();
	test_hwsim_ext();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
