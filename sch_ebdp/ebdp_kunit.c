// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the eBDP/ALT/A* core (ebdp.h): limit formula, EWMA
 * convergence, ALT update, fixed-point edge cases; and of TAP's release
 * rule (ebdp_release.h).
 */
#include <kunit/test.h>
#include <linux/random.h>
#include "ebdp.h"
#include "ebdp_release.h"

#define FP(us)	((u64)(us) << EBDP_FP_SHIFT)

/* Q = min(Tmax / Tserv + c, Qmax) on the paper's numbers. */
static void ebdp_test_limit_formula(struct kunit *test)
{
	/* 1 ms per packet, 200 ms target: 200 + 5 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(1000), 5, 400), 205U);
	/* 1.2 ms per packet (1500 B at 10 Mbit/s): 166.67 -> 166 + 5 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(1200), 5, 400), 171U);
	/* fast link: capped at Qmax */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(100), 5, 400), 400U);
	/* slow link: Tserv > Tmax leaves only c */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(300000), 5, 400), 5U);
	/* c = 0 and Tserv > Tmax: never below one packet */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(300000), 0, 400), 1U);
	/* fractional Tserv: 0.5 us per packet */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(1000, FP(1) / 2, 0, 65535),
			2000U);
	/* Qmax below c still caps */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(300000), 5, 3), 3U);
}

/* A run-time 0, so that sparse does not fold the guarded division. */
static u64 ebdp_test_no_tserv;

/* Tserv 0 (no sample yet), huge and tiny values. */
static void ebdp_test_limit_edges(struct kunit *test)
{
	u64 none = READ_ONCE(ebdp_test_no_tserv);

	/* no estimate: the fixed baseline Qmax */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, none, 5, 400), 400U);
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, none, 5, 0), 1U);
	/* smallest non-zero Tserv: quotient huge, no overflow, Qmax */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_TMAX_MAX_US, 1, 5, 400),
			400U);
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(U32_MAX, 1, U32_MAX,
					     EBDP_QMAX_MAX), EBDP_QMAX_MAX);
	/* largest Tserv the EWMA can hold */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(EBDP_SAMPLE_MAX_US),
					     5, 400), 5U);
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, U64_MAX, 5, 400), 5U);
	/* Tmax 10 s, Tserv 10 s: exactly one + c */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_TMAX_MAX_US,
					     FP(EBDP_SAMPLE_MAX_US), 5, 400),
			6U);
}

/* ackprio: the data FIFO drains one packet per Tserv * frames. */
static void ebdp_test_data_tserv(struct kunit *test)
{
	const u64 one = FP(1);
	u64 t;

	/* without ACKs ahead (or unmeasured) the data sees Tserv */
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(FP(1000), 0), FP(1000));
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(FP(1000), one), FP(1000));
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(FP(1000), one / 2), FP(1000));
	/* one and a half frames per data packet */
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(FP(1000), one + one / 2),
			FP(1500));
	/* EBDP_ACK_BURST ACKs per data packet: four frames */
	t = ebdp_data_tserv_fp(FP(1000), 4 * one);
	KUNIT_EXPECT_EQ(test, t, FP(4000));
	/* Tmax 200 ms: 55 packets, not 205, so 55 * 4 ms is Tmax + c */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, t, 5, 400), 55U);
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, FP(1000), 5, 400), 205U);
	/* capped, and no overflow at the largest inputs */
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(FP(1000), 100 * one),
			FP(1000 * EBDP_FRAMES_MAX));
	KUNIT_EXPECT_EQ(test, ebdp_data_tserv_fp(U64_MAX, U64_MAX),
			FP((u64)EBDP_SAMPLE_MAX_US * EBDP_FRAMES_MAX));
	/* the frames EWMA is Tserv's: a burst of 3 ACKs moves it by W */
	t = ebdp_tserv_update_fp(one, 4 * one, EBDP_WEIGHT_ONE / 16);
	KUNIT_EXPECT_EQ(test, t, one + (3 * one) / 16);
}

/* First sample seeds; sample 0 is kept distinct from "none"; clamp. */
static void ebdp_test_ewma_seed_and_clamp(struct kunit *test)
{
	u64 t;

	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(0, 1200, EBDP_DEF_WEIGHT),
			FP(1200));
	t = ebdp_tserv_update(0, 0, EBDP_DEF_WEIGHT);
	KUNIT_EXPECT_NE(test, t, 0ULL);
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(200000, t, 5, 400), 400U);
	/* samples above 10 s are clamped */
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(0, U32_MAX, EBDP_DEF_WEIGHT),
			FP(EBDP_SAMPLE_MAX_US));
	/* W = 1 follows the last sample exactly */
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(FP(1000), 3000,
						EBDP_WEIGHT_ONE), FP(3000));
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(FP(3000), 1000,
						EBDP_WEIGHT_ONE), FP(1000));
	/* one step of W = 1/16 from 1000 toward 2600: +100 */
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(FP(1000), 2600,
						EBDP_WEIGHT_ONE / 16),
			FP(1100));
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(FP(2600), 1000,
						EBDP_WEIGHT_ONE / 16),
			FP(2500));
	/* largest values: no overflow, stays at the clamp */
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update(FP(EBDP_SAMPLE_MAX_US),
						U32_MAX, EBDP_WEIGHT_ONE),
			FP(EBDP_SAMPLE_MAX_US));
}

/*
 * After a step from 1 ms to 2 ms the EWMA is within 1/e after 1/W samples
 * and within 1% after ~4.6/W: check both, for W = 1/16 and W = 1/1024,
 * and that it then sits on the new value (no truncation bias).
 */
static void ebdp_test_ewma_step(struct kunit *test)
{
	static const u32 weights[] = { EBDP_WEIGHT_ONE / 16,
				       EBDP_WEIGHT_ONE / 1024 };
	int i, k;

	for (i = 0; i < ARRAY_SIZE(weights); i++) {
		u32 w = weights[i];
		u32 n = EBDP_WEIGHT_ONE / w;
		u64 t = FP(1000);

		for (k = 0; k < n; k++)
			t = ebdp_tserv_update(t, 2000, w);
		/* 2000 - 1000 * (1 - W)^n ~ 2000 - 1000/e = 1632 */
		KUNIT_EXPECT_GE(test, t, FP(1600));
		KUNIT_EXPECT_LE(test, t, FP(1650));
		for (k = 0; k < 4 * n; k++)
			t = ebdp_tserv_update(t, 2000, w);
		KUNIT_EXPECT_GE(test, t, FP(1990));
		for (k = 0; k < 20 * n; k++)
			t = ebdp_tserv_update(t, 2000, w);
		/* converged to within one microsecond */
		KUNIT_EXPECT_GE(test, t, FP(1999));
		KUNIT_EXPECT_LE(test, t, FP(2000));
	}
}

/* Noisy samples around a mean: the average converges to the mean. */
static void ebdp_test_ewma_noise(struct kunit *test)
{
	struct rnd_state rnd;
	u64 t = 0;
	int k;

	prandom_seed_state(&rnd, 42);
	/* uniform on [500, 1500] us, mean 1000 */
	for (k = 0; k < 20000; k++)
		t = ebdp_tserv_update(t, 500 + prandom_u32_state(&rnd) % 1001,
				      EBDP_WEIGHT_ONE / 256);
	KUNIT_EXPECT_GE(test, t, FP(950));
	KUNIT_EXPECT_LE(test, t, FP(1050));
	/* and the limit follows: 200 ms / ~1 ms + 5 */
	KUNIT_EXPECT_GE(test, ebdp_bdp_limit(200000, t, 5, 400), 195U);
	KUNIT_EXPECT_LE(test, ebdp_bdp_limit(200000, t, 5, 400), 215U);
}

/* q + a * T_I - b * T_B, clamped to [qmin, qmax]. */
static void ebdp_test_alt_update(struct kunit *test)
{
	u64 q = FP(100);

	/* 1 s all idle: +10 packets */
	q = ebdp_alt_update(q, USEC_PER_SEC, 0, 10, 1, 5, 400);
	KUNIT_EXPECT_EQ(test, q, FP(110));
	/* 1 s all busy: -1 packet */
	q = ebdp_alt_update(q, 0, USEC_PER_SEC, 10, 1, 5, 400);
	KUNIT_EXPECT_EQ(test, q, FP(109));
	/* equilibrium a * T_I = b * T_B: busy 10/11 of the time */
	q = ebdp_alt_update(q, 100000, 1000000, 10, 1, 5, 400);
	KUNIT_EXPECT_EQ(test, q, FP(109));
	/* fractions accumulate: ten 100 ms busy intervals = -1 packet */
	for (int k = 0; k < 10; k++)
		q = ebdp_alt_update(q, 0, 100000, 10, 1, 5, 400);
	KUNIT_EXPECT_GE(test, q, FP(108));
	KUNIT_EXPECT_LE(test, q, FP(108) + 16);
	KUNIT_EXPECT_EQ(test, ebdp_alt_limit(q), 108U);
	/* clamps */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(6), 0, 100 * USEC_PER_SEC,
					      10, 1, 5, 400), FP(5));
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(390), 100 * USEC_PER_SEC, 0,
					      10, 1, 5, 400), FP(400));
	/* huge times and coefficients: no overflow, saturates */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(200), U64_MAX, 0,
					      EBDP_ALT_COEF_MAX, 1, 5, 400),
			FP(400));
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(200), 0, U64_MAX, 10,
					      EBDP_ALT_COEF_MAX, 5, 400),
			FP(5));
	/* qmin above qmax: qmin wins, limit is never 0 */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(3), 0, 0, 10, 1, 8, 4),
			FP(8));
	KUNIT_EXPECT_EQ(test, ebdp_alt_limit(0), 1U);
}

/* Mode selection and A* = min(q_ALT, Q_eBDP). */
static void ebdp_test_modes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_EBDP, 171, 60), 171U);
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ALT, 171, 60), 60U);
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ASTAR, 171, 60), 60U);
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ASTAR, 50, 60), 50U);
	KUNIT_EXPECT_EQ(test, ebdp_tserv_ns(FP(1200)), 1200000ULL);
	KUNIT_EXPECT_EQ(test, ebdp_tserv_ns(FP(1) / 2), 500ULL);
	/* nanosecond samples keep sub-microsecond precision, and clamp */
	KUNIT_EXPECT_EQ(test, ebdp_ns_to_fp(1500), FP(3) / 2);
	KUNIT_EXPECT_EQ(test, ebdp_ns_to_fp(U64_MAX), FP(EBDP_SAMPLE_MAX_US));
	KUNIT_EXPECT_EQ(test, ebdp_tserv_update_fp(FP(2), 0, EBDP_WEIGHT_ONE),
			1ULL);
}

/*
 * One case per rule, on the defaults, with the arithmetic written out.
 * Sources and what is verified: the header comment of ebdp.h.
 */

/*
 * eBDP ([ToN] via [IJCCT] algorithms 1 and 2): Tserv(k+1) = (1 - W) Tserv(k)
 * + W (te - ts) per ACK, Q_eBDP = min(Tmax / Tserv + c, Qmax) per packet.
 */
static void ebdp_test_paper_ebdp_rule(struct kunit *test)
{
	u64 t;

	/* the paper's Tmax and c, and its 400-packet fixed buffer */
	KUNIT_EXPECT_EQ(test, EBDP_DEF_TMAX_US, 200000L);
	KUNIT_EXPECT_EQ(test, EBDP_DEF_C, 5);
	KUNIT_EXPECT_EQ(test, EBDP_DEF_QMAX, 400);

	/* Tserv 2.5 ms: 200 / 2.5 = 80, + 5 = 85 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(2500),
					     EBDP_DEF_C, EBDP_DEF_QMAX), 85U);
	/* Tserv 0.625 ms: 200 / 0.625 = 320, + 5 = 325 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(625),
					     EBDP_DEF_C, EBDP_DEF_QMAX), 325U);
	/* Tserv 0.5 ms: 200 / 0.5 = 400, + 5 = 405 > 400: Qmax = 400 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(500),
					     EBDP_DEF_C, EBDP_DEF_QMAX), 400U);
	/* the first form, without c: 200 / 2.5 = 80 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(2500), 0,
					     EBDP_DEF_QMAX), 80U);

	/* one EWMA step, W = 1/64: 2000 + (2640 - 2000) / 64 = 2010 us */
	t = ebdp_tserv_update(FP(2000), 2640, EBDP_DEF_WEIGHT);
	KUNIT_EXPECT_EQ(test, t, FP(2010));
	/* and down: 2010 - (2010 - 730) / 64 = 2010 - 20 = 1990 us */
	t = ebdp_tserv_update(t, 730, EBDP_DEF_WEIGHT);
	KUNIT_EXPECT_EQ(test, t, FP(1990));
	/* 200 / 1.99 = 100.5 -> 100, + 5 = 105 */
	KUNIT_EXPECT_EQ(test, ebdp_bdp_limit(EBDP_DEF_TMAX_US, t, EBDP_DEF_C,
					     EBDP_DEF_QMAX), 105U);
}

/*
 * ALT (unverified against [ToN], see ebdp.h): q(k+1) = q(k) + a T_I(k) -
 * b T_B(k), clamped to [qmin, qmax]; defaults a = 10/s, b = 1/s, 1 s.
 */
static void ebdp_test_paper_alt_rule(struct kunit *test)
{
	u64 q;

	KUNIT_EXPECT_EQ(test, EBDP_DEF_ALT_A, 10);
	KUNIT_EXPECT_EQ(test, EBDP_DEF_ALT_B, 1);
	KUNIT_EXPECT_EQ(test, EBDP_DEF_INTERVAL_US, 1000000L);
	KUNIT_EXPECT_EQ(test, EBDP_DEF_QMIN, 5);

	/*
	 * 1 s interval, idle 0.3 s, busy 0.7 s, from 100:
	 * 100 + 10 * 0.3 - 1 * 0.7 = 102.3 packets.  In << 16:
	 * 6553600 + 196608 - floor(0.7 * 65536 = 45875.2) = 6704333.
	 */
	q = ebdp_alt_update(FP(100), 300000, 700000, EBDP_DEF_ALT_A,
			    EBDP_DEF_ALT_B, EBDP_DEF_QMIN, EBDP_DEF_QMAX);
	KUNIT_EXPECT_EQ(test, q, 6704333ULL);
	KUNIT_EXPECT_EQ(test, ebdp_alt_limit(q), 102U);

	/* equilibrium a T_I = b T_B: idle 1/11, busy 10/11 of 1.1 s: +1 - 1 */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(100), 100000, 1000000,
					      EBDP_DEF_ALT_A, EBDP_DEF_ALT_B,
					      EBDP_DEF_QMIN, EBDP_DEF_QMAX),
			FP(100));

	/* busy all of 1 s: 100 - 1 = 99 */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(100), 0, 1000000,
					      EBDP_DEF_ALT_A, EBDP_DEF_ALT_B,
					      EBDP_DEF_QMIN, EBDP_DEF_QMAX),
			FP(99));
	/* idle all of 1 s near the top: 395 + 10 = 405 -> qmax 400 */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(395), 1000000, 0,
					      EBDP_DEF_ALT_A, EBDP_DEF_ALT_B,
					      EBDP_DEF_QMIN, EBDP_DEF_QMAX),
			FP(400));
	/* busy all of 1 s at the floor: 5 - 1 = 4 -> qmin 5 */
	KUNIT_EXPECT_EQ(test, ebdp_alt_update(FP(5), 0, 1000000,
					      EBDP_DEF_ALT_A, EBDP_DEF_ALT_B,
					      EBDP_DEF_QMIN, EBDP_DEF_QMAX),
			FP(5));
}

/* A* (unverified against [ToN], see ebdp.h): min(q_ALT, Q_eBDP). */
static void ebdp_test_paper_astar_rule(struct kunit *test)
{
	u32 bdp_slow = ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(2500), EBDP_DEF_C,
				      EBDP_DEF_QMAX);	/* 80 + 5 = 85 */
	u32 bdp_fast = ebdp_bdp_limit(EBDP_DEF_TMAX_US, FP(625), EBDP_DEF_C,
				      EBDP_DEF_QMAX);	/* 320 + 5 = 325 */
	u32 alt = ebdp_alt_limit(6704333ULL);		/* 102.3 -> 102 */

	KUNIT_EXPECT_EQ(test, bdp_slow, 85U);
	KUNIT_EXPECT_EQ(test, bdp_fast, 325U);
	KUNIT_EXPECT_EQ(test, alt, 102U);
	/* slow link: eBDP bounds the delay, min(102, 85) = 85 */
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ASTAR, bdp_slow, alt), 85U);
	/* fast link: ALT shrinks below the BDP, min(102, 325) = 102 */
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ASTAR, bdp_fast, alt), 102U);
	/* the single-rule modes give each side unchanged */
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_EBDP, bdp_fast, alt), 325U);
	KUNIT_EXPECT_EQ(test, ebdp_limit(EBDP_M_ALT, bdp_fast, alt), 102U);
}

/* ------------------------------------------------------------------ */
/* TAP's release rule (ebdp_release.h)                                 */

#define MS	1000000ULL	/* ns */

/* Who joins: the oldest held ACK outside the set; members never. */
static void ebdp_test_rel_next_in(struct kunit *test)
{
	struct ebdp_rel_sta s[5] = {};

	KUNIT_EXPECT_EQ(test, ebdp_rel_next_in(s, 5), -1);
	s[0] = (struct ebdp_rel_sta){ .used = true, .held_since_ns = 30 * MS };
	s[1] = (struct ebdp_rel_sta){ .used = true, .member = true,
				      .held_since_ns = 5 * MS };
	s[2] = (struct ebdp_rel_sta){ .used = true };	/* holds nothing */
	s[3] = (struct ebdp_rel_sta){ .used = true, .held_since_ns = 20 * MS };
	/* a free slot's stale time is not a station */
	s[4] = (struct ebdp_rel_sta){ .held_since_ns = 1 * MS };
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_in(s, 5), 3);
	s[3].held_since_ns = 0;
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_in(s, 5), 0);
}

/* Who leaves: the longest-serving member, only once its turn is over. */
static void ebdp_test_rel_next_out(struct kunit *test)
{
	struct ebdp_rel_sta s[4] = {};

	KUNIT_EXPECT_EQ(test, ebdp_rel_next_out(s, 4, 100 * MS, 10 * MS), -1);
	s[1] = (struct ebdp_rel_sta){ .used = true, .member = true,
				      .joined_ns = 50 * MS };
	s[2] = (struct ebdp_rel_sta){ .used = true, .member = true,
				      .joined_ns = 40 * MS };
	s[3] = (struct ebdp_rel_sta){ .used = true, .joined_ns = 1 * MS };
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_out(s, 4, 49 * MS, 10 * MS), -1);
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_out(s, 4, 50 * MS, 10 * MS), 2);
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_turn_end(s, 4, 10 * MS, U64_MAX), 50 * MS);
	s[1].member = false;
	s[2].member = false;
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_turn_end(s, 4, 10 * MS, U64_MAX), 0ULL);
}

/* One step: room in the set admits at once; a full set waits for a turn. */
static void ebdp_test_rel_turn(struct kunit *test)
{
	struct ebdp_rel_sta s[3] = {
		{ .used = true, .member = true, .joined_ns = 10 * MS },
		{ .used = true, .held_since_ns = 12 * MS },
		{ .used = true },
	};
	int out;

	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 2, 1, 15 * MS, 10 * MS,
					    U64_MAX, &out), 1);
	KUNIT_EXPECT_EQ(test, out, -1);
	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 1, 1, 15 * MS, 10 * MS,
					    U64_MAX, &out), -1);
	KUNIT_EXPECT_EQ(test, out, -1);
	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 1, 1, 20 * MS, 10 * MS,
					    U64_MAX, &out), 1);
	KUNIT_EXPECT_EQ(test, out, 0);
	/* nobody waits: nobody joins, nobody leaves, even past a turn */
	s[1].held_since_ns = 0;
	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 1, 1, 90 * MS, 10 * MS,
					    U64_MAX, &out), -1);
	/* a wait of hold_max cuts a turn short, but not below 1 ms */
	s[1].held_since_ns = 12 * MS;
	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 1, 1, 15 * MS, 100 * MS,
					    3 * MS, &out), 1);
	KUNIT_EXPECT_EQ(test, out, 0);
	s[0].joined_ns = 14500000;
	KUNIT_EXPECT_EQ(test, ebdp_rel_turn(s, 3, 1, 1, 15 * MS, 100 * MS,
					    3 * MS, &out), -1);
	/* the watchdog's time: the turn's 1 ms, then the wait's 3 ms */
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_turn_end(s, 3, 100 * MS, 3 * MS),
			15500000ULL);
	s[1].held_since_ns = 13 * MS;
	KUNIT_EXPECT_EQ(test, ebdp_rel_next_turn_end(s, 3, 100 * MS, 3 * MS),
			16 * MS);
	KUNIT_EXPECT_EQ(test, out, -1);
}

/* Station slots: found on their chain, new ones claim, full tables reuse. */
static void ebdp_test_rel_probe(struct kunit *test)
{
	static const u8 a[ETH_ALEN] __aligned(2) = { 2, 0, 0, 0, 0, 1 };
	static const u8 b[ETH_ALEN] __aligned(2) = { 2, 0, 0, 0, 0, 2 };
	static const u8 c[ETH_ALEN] __aligned(2) = { 2, 0, 0, 0, 0, 3 };
	struct ebdp_rel_sta s[4] = {};
	bool new;
	int i;

	/* empty: a new station takes its hash's slot */
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, a, &new), 2);
	KUNIT_EXPECT_TRUE(test, new);
	s[2].used = true;
	ether_addr_copy(s[2].addr, a);
	/* b hashes to a's slot: the next unused one, and found there again */
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, b, &new), 3);
	KUNIT_EXPECT_TRUE(test, new);
	s[3].used = true;
	ether_addr_copy(s[3].addr, b);
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, b, &new), 3);
	KUNIT_EXPECT_FALSE(test, new);
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, a, &new), 2);
	KUNIT_EXPECT_FALSE(test, new);
	/* a is idle, but an unused slot comes first on c's chain */
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, c, &new), 0);
	KUNIT_EXPECT_TRUE(test, new);
	/* full: c reuses the first slot outside the set holding nothing */
	for (i = 0; i < 2; i++) {
		s[i].used = true;
		s[i].addr[0] = 2;
		s[i].addr[5] = 10 + i;
		s[i].held_since_ns = 1;
	}
	s[2].member = true;
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, c, &new), 3);
	KUNIT_EXPECT_TRUE(test, new);
	/* every slot a member or holding: none */
	s[3].held_since_ns = 1;
	KUNIT_EXPECT_EQ(test, ebdp_rel_probe(s, 4, 2, c, &new), -1);
}

/*
 * @n stations that always have an ACK waiting when outside the set, the
 * rule applied every millisecond for @ms ms as the qdisc applies it
 * (ebdp_rel_rotate()), the set never above @set.  Each station's turns
 * are counted in @joins.  Return: the longest any ACK waited.
 */
static u64 ebdp_rel_simulate(struct kunit *test, unsigned int n,
			     unsigned int set, u64 quantum_ns, u64 hold_max_ns,
			     unsigned int ms, unsigned int *joins)
{
	struct ebdp_rel_sta s[8] = {};
	unsigned int members = 0, i;
	u64 now, max_wait = 0;
	int in, out;

	KUNIT_ASSERT_LE(test, n, ARRAY_SIZE(s));
	for (i = 0; i < n; i++)
		s[i].used = true;
	for (now = 1 * MS; now <= ms * MS; now += 1 * MS) {
		for (i = 0; i < n; i++)
			if (!s[i].member && !s[i].held_since_ns)
				s[i].held_since_ns = now;
		while ((in = ebdp_rel_turn(s, n, set, members, now, quantum_ns,
					   hold_max_ns, &out)) >= 0) {
			if (out >= 0) {
				s[out].member = false;
				members--;
			}
			max_wait = max(max_wait, now - s[in].held_since_ns);
			s[in].held_since_ns = 0;
			s[in].member = true;
			s[in].joined_ns = now;
			members++;
			joins[in]++;
		}
		KUNIT_ASSERT_LE(test, members, set);
	}
	return max_wait;
}

/*
 * Six stations, a set of two, 10 ms turns, 1.2 s: no ACK waits longer
 * than the two turns ahead of it, (6 - 2) / 2 * 10 ms, plus a step, and
 * every station's turns come round in order.
 */
static void ebdp_test_rel_rotation(struct kunit *test)
{
	unsigned int joins[6] = {}, i;
	u64 max_wait = ebdp_rel_simulate(test, 6, 2, 10 * MS, U64_MAX, 1200,
					 joins);

	KUNIT_EXPECT_LE(test, max_wait, 21 * MS);
	KUNIT_EXPECT_GE(test, max_wait, 19 * MS);
	/* 1.2 s of 10 ms turns, two at a time: 240 turns, 40 each */
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_GE(test, joins[i], 39U);
		KUNIT_EXPECT_LE(test, joins[i], 41U);
	}
}

/*
 * The same six stations, one at a time, with turns of 1 s but a hold_max
 * of 50 ms, for 1 s: the turns shorten so that no ACK waits much past
 * it, and every station still gets its share.
 */
static void ebdp_test_rel_hold_max(struct kunit *test)
{
	unsigned int joins[6] = {}, i;
	u64 max_wait = ebdp_rel_simulate(test, 6, 1, 1000 * MS, 50 * MS, 1000,
					 joins);

	/*
	 * All six start waiting together: once the first wait reaches 50 ms
	 * the other four are past it too, and turns of 1 ms admit them one
	 * by one, the last 4 ms late.
	 */
	KUNIT_EXPECT_LE(test, max_wait, 54 * MS);
	/* turns of 10 ms (50 ms over five waiting): about 100, 16-17 each */
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_GE(test, joins[i], 15U);
		KUNIT_EXPECT_LE(test, joins[i], 18U);
	}
}

static struct kunit_case ebdp_core_cases[] = {
	KUNIT_CASE(ebdp_test_limit_formula),
	KUNIT_CASE(ebdp_test_limit_edges),
	KUNIT_CASE(ebdp_test_data_tserv),
	KUNIT_CASE(ebdp_test_ewma_seed_and_clamp),
	KUNIT_CASE(ebdp_test_ewma_step),
	KUNIT_CASE(ebdp_test_ewma_noise),
	KUNIT_CASE(ebdp_test_alt_update),
	KUNIT_CASE(ebdp_test_modes),
	KUNIT_CASE(ebdp_test_paper_ebdp_rule),
	KUNIT_CASE(ebdp_test_paper_alt_rule),
	KUNIT_CASE(ebdp_test_paper_astar_rule),
	KUNIT_CASE(ebdp_test_rel_probe),
	KUNIT_CASE(ebdp_test_rel_next_in),
	KUNIT_CASE(ebdp_test_rel_next_out),
	KUNIT_CASE(ebdp_test_rel_turn),
	KUNIT_CASE(ebdp_test_rel_rotation),
	KUNIT_CASE(ebdp_test_rel_hold_max),
	{}
};

static struct kunit_suite ebdp_core_suite = {
	.name = "airqueue-sch_ebdp-core",
	.test_cases = ebdp_core_cases,
};

kunit_test_suite(ebdp_core_suite);

MODULE_DESCRIPTION("KUnit tests for the eBDP/ALT/A* core");
MODULE_LICENSE("GPL");
