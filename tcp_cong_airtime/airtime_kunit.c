// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the airtime model (airtime_model.c): PHY timing against the
 * 802.11 formulas, equations (1)-(14) of the paper against numbers worked
 * out by hand below.
 */
#include <kunit/test.h>
#include "airtime_model.h"

#define US	1000	/* ns per us, for readability of expected durations */

/* 802.11-2012 clause 18: 20 us + 4 us * ceil((16 + 8 L + 6) / N_DBPS) */
static void airtime_test_ofdm_ppdu(struct kunit *test)
{
	/* 54 Mbit/s, N_DBPS 216, 1550 B: 12422 bits -> 58 symbols = 252 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(54000, 1550), 252 * US);
	/* 6 Mbit/s, N_DBPS 24: 12422 bits -> 518 symbols -> 2092 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(6000, 1550), 2092 * US);
	/* ACK 14 B = 134 bits: 24 Mbit/s (96) 2 sym 28 us; 6 Mbit/s 6 sym 44 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(24000, 14), 28 * US);
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(6000, 14), 44 * US);
	/* RTS 20 B = 182 bits: 24 Mbit/s 2 sym 28 us; 6 Mbit/s 8 sym 52 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(24000, 20), 28 * US);
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(6000, 20), 52 * US);
	/* TCP ACK MPDU 90 B = 742 bits: 54 Mbit/s 4 sym 36 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(54000, 90), 36 * US);
	/* 9 Mbit/s N_DBPS 36: 742 bits -> 21 sym -> 104 us */
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(9000, 90), 104 * US);
	KUNIT_EXPECT_EQ(test, airtime_ofdm_ppdu_ns(0, 90), 0);
}

/* N_DBPS = N_SD * N_BPSCS * R * N_SS, rate = N_DBPS / 4 us (3.6 us SGI) */
static void airtime_test_ht_rates(struct kunit *test)
{
	/* MCS0 HT20: 52 * 1 * 1/2 = 26 bits/sym -> 6.5 Mbit/s, 7.222 SGI */
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(0, false, false), 6500);
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(0, false, true), 7222);
	/* MCS4 HT20: 52 * 4 * 3/4 = 156 -> 39 Mbit/s */
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(4, false, false), 39000);
	/* MCS7 HT20: 52 * 6 * 5/6 = 260 -> 65, 72.222 SGI */
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(7, false, false), 65000);
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(7, false, true), 72222);
	/* MCS7 HT40: 108 * 6 * 5/6 = 540 -> 135, 150 SGI */
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(7, true, false), 135000);
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(7, true, true), 150000);
	/* MCS8: two streams of MCS0 -> 13 Mbit/s; MCS15 HT40 SGI 300 */
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(8, false, false), 13000);
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(15, true, true), 300000);
	KUNIT_EXPECT_EQ(test, airtime_ht_kbps(32, false, false), 0);
}

/* 20.4.3: 20 + 8 + 4 + N_LTF * 4 us + symbols (SGI rounded up to 4 us) */
static void airtime_test_ht_ppdu(struct kunit *test)
{
	struct airtime_rate r = { .kbps = 65000 };

	/* MCS7 HT20 LGI, 1550 B: 12422 bits / 260 -> 48 sym = 192 + 36 us */
	KUNIT_EXPECT_EQ(test, airtime_ht_ppdu_ns(&r, 1550), 228 * US);
	/* SGI 72.222: N_DBPS 260, 48 sym * 3.6 = 172.8 -> 176 + 36 us */
	r = (struct airtime_rate){ .kbps = 72222, .sgi = true };
	KUNIT_EXPECT_EQ(test, airtime_ht_ppdu_ns(&r, 1550), 212 * US);
	/* MCS15 HT40 SGI 300: 2 streams -> 2 LTF (40 us preamble),
	 * 12422 / 1080 -> 12 sym * 3.6 = 43.2 -> 44 us
	 */
	r = (struct airtime_rate){ .kbps = 300000, .sgi = true };
	KUNIT_EXPECT_EQ(test, airtime_ht_ppdu_ns(&r, 1550), 84 * US);
	/* explicit nss = 1 at the same rate: one LTF less */
	r.nss = 1;
	KUNIT_EXPECT_EQ(test, airtime_ht_ppdu_ns(&r, 1550), 80 * US);
	/* MCS0 HT20: 12422 / 26 -> 478 sym = 1912 + 36 us */
	r = (struct airtime_rate){ .kbps = 6500 };
	KUNIT_EXPECT_EQ(test, airtime_ht_ppdu_ns(&r, 1550), 1948 * US);
}

static void airtime_test_dsss(struct kunit *test)
{
	/* 1 Mbit/s long preamble, CTS 14 B: 192 + 112 us */
	KUNIT_EXPECT_EQ(test, airtime_dsss_ppdu_ns(1000, false, 14), 304 * US);
	/* 11 Mbit/s short preamble: 96 + ceil(112 / 11 = 10.2) = 107 us */
	KUNIT_EXPECT_EQ(test, airtime_dsss_ppdu_ns(11000, true, 14), 107 * US);
	/* 5.5 Mbit/s: 192 + ceil(20.4) = 213 us */
	KUNIT_EXPECT_EQ(test, airtime_dsss_ppdu_ns(5500, false, 14), 213 * US);
}

static void airtime_test_ctl_rate(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(54000), 24000);
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(24000), 24000);
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(18000), 12000);
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(9000), 6000);
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(6500), 6000);
	KUNIT_EXPECT_EQ(test, airtime_ctl_rate_kbps(300000), 24000);
}

static void airtime_test_phy_params(struct kunit *test)
{
	struct airtime_phy p;

	/* 802.11a: DIFS = 16 + 2 * 9 = 34 us; backoff 15 * 9 / 2 = 67.5 us */
	airtime_phy_init(&p, AIRTIME_PHY_11A, false);
	KUNIT_EXPECT_EQ(test, airtime_difs_ns(&p), 34 * US);
	KUNIT_EXPECT_EQ(test, airtime_backoff_ns(&p), 67500);
	/* 802.11g: DIFS 10 + 18 = 28 us */
	airtime_phy_init(&p, AIRTIME_PHY_11G, false);
	KUNIT_EXPECT_EQ(test, airtime_difs_ns(&p), 28 * US);
	KUNIT_EXPECT_EQ(test, p.sig_ext_ns, 6 * US);
	/* protected 802.11g: long slot, DIFS 10 + 40 = 50, 31 * 20 / 2 = 310 */
	airtime_phy_init(&p, AIRTIME_PHY_11G_PROT, false);
	KUNIT_EXPECT_EQ(test, airtime_difs_ns(&p), 50 * US);
	KUNIT_EXPECT_EQ(test, airtime_backoff_ns(&p), 310 * US);
	airtime_phy_init(&p, AIRTIME_PHY_HT_5GHZ, false);
	KUNIT_EXPECT_TRUE(test, p.ht);
	KUNIT_EXPECT_EQ(test, airtime_difs_ns(&p), 34 * US);
}

/* (12) and (11), 1460 B segments with timestamps: IP packet 1512 B, ACK 52 */
static void airtime_test_t_data(struct kunit *test)
{
	struct airtime_rate r54 = { .kbps = 54000 }, r6 = { .kbps = 6000 };
	struct airtime_phy p;

	/* 11a 54, basic access: 34 + 67.5 + DATA 252 + 16 + ACK(24) 28 */
	airtime_phy_init(&p, AIRTIME_PHY_11A, false);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 397500);
	/* TCP ACK: 34 + 67.5 + 36 + 16 + 28 = 181.5 us */
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 52), 181500);
	/* (11) b = 1: 579 us; b = 2: 2 * 397.5 + 181.5 = 976.5 us */
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r54, 1460, 52, 1), 579000);
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r54, 1460, 52, 2), 976500);

	/* RTS/CTS at 24: + 28 + 16 + 28 + 16 = 88 us -> 485.5 and 269.5 */
	airtime_phy_init(&p, AIRTIME_PHY_11A, true);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 485500);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 52), 269500);
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r54, 1460, 52, 1), 755000);
	/* 6 Mbit/s + RTS: 34 + 67.5 + RTS 52 + 16 + CTS 44 + 16 + DATA 2092 +
	 * 16 + ACK 44 = 2381.5; TCP ACK (90 B, 31 sym = 144 us): 433.5
	 */
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r6, 1512), 2381500);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r6, 52), 433500);
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r6, 1460, 52, 1), 2815000);

	/*
	 * An RTS threshold (mac80211: RTS/CTS for an MPDU longer than it):
	 * 500 B protects the 1550 B data MPDU, not the 90 B TCP ACK: 485.5
	 * + 181.5 = 667 us for b = 1.  At the data MPDU's length (1550) it
	 * protects nothing; one byte below, the data frame again.
	 */
	airtime_phy_init(&p, AIRTIME_PHY_11A, false);
	p.rts_threshold = 500;
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 485500);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 52), 181500);
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r54, 1460, 52, 1), 667000);
	p.rts_threshold = 1512 + AIRTIME_MAC_OVERHEAD_QOS;
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 397500);
	p.rts_threshold--;
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 485500);
	/* threshold 0 (iw phy set rts 0): every frame, as rts = true */
	p.rts_threshold = 0;
	KUNIT_EXPECT_EQ(test, airtime_t_tcp_ns(&p, &r54, 1460, 52, 1), 755000);

	/* 11g 54: 28 + 67.5 + (252 + 6) + 10 + (28 + 6) = 397.5, as 11a */
	airtime_phy_init(&p, AIRTIME_PHY_11G, false);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 397500);
	/* 11g protected: 50 + 310 + CTS-to-self 304 + 10 + 258 + 10 + 34 */
	airtime_phy_init(&p, AIRTIME_PHY_11G_PROT, false);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 976000);
	/* with RTS/CTS, both at 1 Mbit/s: RTS 192 + 160 = 352, CTS 304:
	 * 50 + 310 + 352 + 10 + 304 + 10 + 258 + 10 + 34 = 1338
	 */
	airtime_phy_init(&p, AIRTIME_PHY_11G_PROT, true);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 1338000);

	/* HT 5 GHz MCS7 HT20 LGI: 34 + 67.5 + 228 + 16 + ACK(24) 28 */
	airtime_phy_init(&p, AIRTIME_PHY_HT_5GHZ, false);
	r54.kbps = 65000;
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 373500);
	/* HT 2.4 GHz: 28 + 67.5 + 228 + 6 + 10 + 28 + 6 = 373.5 too */
	airtime_phy_init(&p, AIRTIME_PHY_HT_2GHZ, false);
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 373500);
	r54.kbps = 0;
	KUNIT_EXPECT_EQ(test, airtime_t_data_ns(&p, &r54, 1512), 0);
}

/*
 * (1)-(5).  T = 307200 us (3 beacon intervals of 100 TU), beacons 7200 us:
 * t_avail_BSS = 300000 (1); N = 3: t_bar = 100000 (2); r = 0.8 -> a station
 * is unsatisfied from 80000 us on (4).
 */
static void airtime_test_split_mixed(struct kunit *test)
{
	static const u32 t[] = { 90000, 50000, 100000 };
	struct airtime_split s;
	u32 avail = airtime_bss_avail_us(307200, 7200);

	KUNIT_EXPECT_EQ(test, avail, 300000);
	airtime_split(&s, avail, 800, t, 3);
	KUNIT_EXPECT_EQ(test, s.bar_us, 100000);
	/* (3): 300000 - 240000 = 60000, shared by stations 1 and 3 */
	KUNIT_EXPECT_EQ(test, s.remain_us, 60000);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 2);
	/* (5): 100000 + 60000 / 2 for the unsatisfied, 100000 otherwise */
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, t[0]), 130000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, t[1]), 100000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, t[2]), 130000);
	/* the boundary of (4) is inclusive: 80000 >= 0.8 * 100000 */
	KUNIT_EXPECT_TRUE(test, airtime_unsatisfied(&s, 80000));
	KUNIT_EXPECT_FALSE(test, airtime_unsatisfied(&s, 79999));
}

static void airtime_test_split_all_satisfied(struct kunit *test)
{
	static const u32 t[] = { 10000, 20000, 30000 };
	struct airtime_split s;

	/* everybody below 80000: nobody gets the 240000 left over */
	airtime_split(&s, 300000, 800, t, 3);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 0);
	KUNIT_EXPECT_EQ(test, s.remain_us, 240000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, t[0]), 100000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, t[2]), 100000);
}

static void airtime_test_split_none_satisfied(struct kunit *test)
{
	static const u32 full[] = { 100000, 100000, 100000 };
	static const u32 at_r[] = { 80000, 80000, 80000 };
	static const u32 over[] = { 150000, 150000, 50000 };
	struct airtime_split s;

	/* all unsatisfied, nothing left: the equal share */
	airtime_split(&s, 300000, 800, full, 3);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 3);
	KUNIT_EXPECT_EQ(test, s.remain_us, 0);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, full[1]), 100000);
	/* all unsatisfied at exactly r: 60000 left, 20000 each -> 120000 */
	airtime_split(&s, 300000, 800, at_r, 3);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 3);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, at_r[0]), 120000);
	/* measured more than available (350000): (3) clamps to 0 */
	airtime_split(&s, 300000, 800, over, 3);
	KUNIT_EXPECT_EQ(test, s.remain_us, 0);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 2);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, over[0]), 100000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, over[2]), 100000);
}

/*
 * (6)-(9): station x got t_avail_x = 130000 above and has M_x = 2
 * connections using 70000 and 10000 us: tau_bar = 65000 (6), threshold
 * 52000 (8), t_x_remain = 130000 - 80000 = 50000 (7), all of it to the
 * one unsatisfied connection (9): 115000; the other keeps 65000.
 */
static void airtime_test_split_connections(struct kunit *test)
{
	static const u32 tau[] = { 70000, 10000 };
	struct airtime_split s;

	airtime_split(&s, 130000, 800, tau, 2);
	KUNIT_EXPECT_EQ(test, s.bar_us, 65000);
	KUNIT_EXPECT_EQ(test, s.remain_us, 50000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, tau[0]), 115000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, tau[1]), 65000);
	/* a single connection gets the whole station share whatever it used */
	airtime_split(&s, 130000, 800, tau, 1);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, tau[0]), 130000);
}

/*
 * (6)-(9) across slots, as the connections of one station report them: a
 * station share t_avail_x = 150000 us, r = 0.8.  An idle connection (no
 * data in the slot, like iperf3's control connection) is not one of the
 * M_x: the data connection alone gets the whole share, 150000, not half.
 */
static void airtime_test_conns_idle(struct kunit *test)
{
	struct airtime_conns c = {};
	struct airtime_split s;

	/* slot 1: the data connection moved 30000 us, the other nothing */
	airtime_conns_report(&c, 1, true, 30000, true, 150000, 800, &s);
	airtime_conns_report(&c, 1, true, 0, false, 150000, 800, &s);
	KUNIT_EXPECT_EQ(test, airtime_conns_m(&c), 1);
	/* slot 2: the idle one reports first, then the data connection */
	airtime_conns_report(&c, 2, true, 0, false, 150000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 1);
	airtime_conns_report(&c, 2, true, 30000, true, 150000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 1);
	KUNIT_EXPECT_EQ(test, s.bar_us, 150000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, 30000), 150000);
	/* a later look in the same slot reports nothing again */
	airtime_conns_report(&c, 2, false, 30000, true, 150000, 800, &s);
	KUNIT_EXPECT_EQ(test, c.active, 1);
	KUNIT_EXPECT_EQ(test, c.sum_us, 30000);
	/* nobody active: the share is not divided by zero */
	c = (struct airtime_conns){};
	airtime_conns_report(&c, 7, true, 0, false, 150000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.bar_us, 150000);
}

/*
 * Two active connections of a station: the split of
 * airtime_test_split_connections (t_avail_x 130000, tau 70000 and 10000)
 * one slot later, as (7)-(8) lag a slot: 115000 and 65000.  The first
 * report of a slot does not count alone: M_x stays 2.
 */
static void airtime_test_conns_active(struct kunit *test)
{
	struct airtime_conns c = { .seq = 4, .active = 2 };
	struct airtime_split s;

	airtime_conns_report(&c, 5, true, 70000, true, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	airtime_conns_report(&c, 5, true, 10000, true, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, c.unsat, 1);
	KUNIT_EXPECT_EQ(test, c.sum_us, 80000);
	airtime_conns_report(&c, 6, true, 70000, true, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	KUNIT_EXPECT_EQ(test, s.remain_us, 50000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, 70000), 115000);
	airtime_conns_report(&c, 6, true, 10000, true, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, 10000), 65000);
	/* one goes idle: it still counts for the slot it was active in */
	airtime_conns_report(&c, 7, true, 0, false, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 2);
	airtime_conns_report(&c, 7, true, 70000, true, 130000, 800, &s);
	airtime_conns_report(&c, 8, true, 70000, true, 130000, 800, &s);
	KUNIT_EXPECT_EQ(test, s.n, 1);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, 70000), 130000);
}

/*
 * A view is stale after two slots: the longer of its T and n * beacon_tu
 * TU.  The parameters allow 16 * 1000 TU (16.4 s): 32.8 s, which needs
 * more than 32 bits of nanoseconds (4.29 s); so does the longest slot
 * accepted as a combination, 4000 TU (8.2 s).
 */
static void airtime_test_stale(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(307200, 3, 100), 614400000ULL);
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(100000, 3, 100), 614400000ULL);
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(1000000, 3, 100),
			2000000000ULL);
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(307200, 4, 1000),
			8192000000ULL);
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(307200, 16, 1000),
			32768000000ULL);
	KUNIT_EXPECT_EQ(test, airtime_stale_ns(U32_MAX, 1, 10),
			2000ULL * U32_MAX);

	KUNIT_EXPECT_TRUE(test, airtime_slot_cfg_ok(3, 100));
	KUNIT_EXPECT_TRUE(test, airtime_slot_cfg_ok(4, 1000));
	KUNIT_EXPECT_TRUE(test, airtime_slot_cfg_ok(16, 250));
	KUNIT_EXPECT_FALSE(test, airtime_slot_cfg_ok(16, 251));
	KUNIT_EXPECT_FALSE(test, airtime_slot_cfg_ok(5, 1000));
	KUNIT_EXPECT_FALSE(test, airtime_slot_cfg_ok(16, 1000));
	KUNIT_EXPECT_FALSE(test, airtime_slot_cfg_ok(0, 100));
}

/*
 * Stations beyond the view's table: N = 4, one listed at 100000, three
 * summed to 60000 (20000 each).  t_bar = 75000, threshold 60000: the listed
 * one is unsatisfied, the others not; remain = 300000 - 160000 = 140000.
 */
static void airtime_test_split_many(struct kunit *test)
{
	struct airtime_split s;

	airtime_split_init(&s, 300000, 4, 800);
	airtime_split_add(&s, 100000);
	airtime_split_add_many(&s, 60000, 3);
	airtime_split_finish(&s);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 1);
	KUNIT_EXPECT_EQ(test, s.remain_us, 140000);
	KUNIT_EXPECT_EQ(test, airtime_split_share_us(&s, 100000), 215000);
	/* N = 0 is one member; beacons longer than the slot leave nothing */
	airtime_split_init(&s, 1000, 0, 800);
	KUNIT_EXPECT_EQ(test, s.bar_us, 1000);
	KUNIT_EXPECT_EQ(test, airtime_bss_avail_us(1000, 2000), 0);
}

/*
 * The model's occupancy against the view's.  The figures are those of sta1
 * downloading alone in the results suite's anomaly-staggered scenario
 * (802.11a 54 Mbit/s, RTS/CTS, N = 5 from BSS Load, r = 0.8): T 308111 us,
 * beacons 564, busy 48000, its view occupancy 40493 and its connection's
 * tau 62304.  t_avail_BSS 307547, t_bar 61509.  By the view alone sta1
 * used 40493 < 0.8 * 61509 = 49207 and got t_bar (the 1/5 it was held to);
 * by the model it is unsatisfied: ratio 62304 / 40493 (Q16 100836), the
 * others 6943 us scaled to 10682, remain 234561, share 296070.
 */
static void airtime_test_occupancy_model(struct kunit *test)
{
	struct airtime_split s;
	struct airtime_conns c = {};

	KUNIT_EXPECT_EQ(test, airtime_occ_ratio_q16(40493, 62304), 100836);
	KUNIT_EXPECT_EQ(test, airtime_occ_scale(6943, 100836), 10682);
	/* no model figure, or less than the view: the view stands */
	KUNIT_EXPECT_EQ(test, airtime_occ_ratio_q16(40493, 0), 1 << 16);
	KUNIT_EXPECT_EQ(test, airtime_occ_ratio_q16(40493, 30000), 1 << 16);
	KUNIT_EXPECT_EQ(test, airtime_occ_ratio_q16(0, 30000), 1 << 16);
	/* capped */
	KUNIT_EXPECT_EQ(test, airtime_occ_ratio_q16(100, 10000),
			AIRTIME_OCC_RATIO_MAX << 16);
	KUNIT_EXPECT_EQ(test, airtime_occ_scale(U64_MAX, 1 << 16), U32_MAX);

	/* sta1 alone: the view's figure alone kept it at t_bar */
	KUNIT_EXPECT_EQ(test, airtime_sta_share_us(308111, 564, 48000, 5,
						   40493, 0, 800, &s), 61509);
	KUNIT_EXPECT_EQ(test, airtime_sta_share_us(308111, 564, 48000, 5,
						   40493, 62304, 800, &s),
			296070);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 1);
	/*
	 * All five at their share: view 40000 each, tau 61000 (ratio 99942),
	 * the others' 160000 us scale to 243999: remain 2548, five
	 * unsatisfied, t_bar + 509.
	 */
	KUNIT_EXPECT_EQ(test, airtime_sta_share_us(308111, 564, 200564, 5,
						   40000, 61000, 800, &s),
			62018);
	KUNIT_EXPECT_EQ(test, s.n_unsat, 5);
	/*
	 * Without a busy time the others used exactly their share (246036):
	 * remain 511 among the five unsatisfied
	 */
	KUNIT_EXPECT_EQ(test, airtime_sta_share_us(308111, 564, 0, 5,
						   40000, 61000, 800, &s),
			61611);

	/* the group's tau: the last slot's, or the larger with this one's */
	c.seq = 7;
	c.sum_us = 5000;
	c.prev_sum_us = 9000;
	KUNIT_EXPECT_EQ(test, airtime_conns_tau_us(&c, 8), 5000);
	KUNIT_EXPECT_EQ(test, airtime_conns_tau_us(&c, 7), 9000);
	c.sum_us = 12000;
	KUNIT_EXPECT_EQ(test, airtime_conns_tau_us(&c, 7), 12000);
}

/*
 * (10) 802.11a 54 Mbit/s with RTS/CTS, b = 1: T_TCP = 755 us.  A connection
 * with tau_avail = 100000 us of a T = 300000 us slot fits 100000 / 755 =
 * 132.450 TCP cycles (Q16: floor(1e8 * 65536 / 755000) = 8680264), i.e.
 * theta = 132.450 * 1460 B / 0.3 s = 644591 B/s (5.16 Mbit/s).
 * (13) RTT_min 40 ms: 644591 * 0.04 = 25783 B = 17 segments of 1460.
 * At 6 Mbit/s (T_TCP 2815 us): 35.52 cycles, 172883 B/s, 4 segments.
 */
static void airtime_test_theta_wnd(struct kunit *test)
{
	u64 theta;

	KUNIT_EXPECT_EQ(test, airtime_cycles_q16(100000, 755000), 8680264);
	theta = airtime_theta_bps(100000, 755000, 1460, 1, 300000);
	KUNIT_EXPECT_EQ(test, theta, 644591);
	KUNIT_EXPECT_EQ(test, airtime_wnd_max_bytes(40000, theta), 25783);
	KUNIT_EXPECT_EQ(test, airtime_wnd_max_segs(40000, theta, 1460), 17);

	theta = airtime_theta_bps(100000, 2815000, 1460, 1, 300000);
	KUNIT_EXPECT_EQ(test, theta, 172883);
	KUNIT_EXPECT_EQ(test, airtime_wnd_max_segs(40000, theta, 1460), 4);

	/* b = 2 carries twice lambda per cycle: T_TCP 976.5 us (11a basic)
	 * 100000 / 976.5 = 102.406 cycles * 2920 B / 0.3 s = 996757.1 B/s;
	 * the Q16 cycle count (6711213) truncates it to 996756
	 */
	theta = airtime_theta_bps(100000, 976500, 1460, 2, 300000);
	KUNIT_EXPECT_EQ(test, theta, 996756);

	KUNIT_EXPECT_EQ(test, airtime_theta_bps(100000, 0, 1460, 1, 300000), 0);
	KUNIT_EXPECT_EQ(test, airtime_theta_bps(100000, 755000, 1460, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, airtime_wnd_max_segs(40000, theta, 0), 0);
}

/* (14) */
static void airtime_test_jain(struct kunit *test)
{
	static const u32 equal[] = { 7, 7, 7, 7 };
	static const u32 one[] = { 5, 0, 0, 0 };
	static const u32 zero[] = { 0, 0 };
	/* (150000)^2 / (2 * (100000^2 + 50000^2)) = 2.25e10 / 2.5e10 = 0.9 */
	static const u32 two[] = { 100000, 50000 };
	/* (3 + 1)^2 / (2 * (9 + 1)) = 0.8 */
	static const u32 small[] = { 3, 1 };
	/* same ratio as "two", scaled down by 2^12 internally: still 0.9 */
	static const u32 big[] = { 4000000000U, 2000000000U };

	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(equal, 4), 1000000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(one, 4), 250000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(two, 2), 900000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(small, 2), 800000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(big, 2), 900000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(zero, 2), 1000000);
	KUNIT_EXPECT_EQ(test, airtime_jain_ppm(zero, 0), 0);
}

static struct kunit_case airtime_model_cases[] = {
	KUNIT_CASE(airtime_test_ofdm_ppdu),
	KUNIT_CASE(airtime_test_ht_rates),
	KUNIT_CASE(airtime_test_ht_ppdu),
	KUNIT_CASE(airtime_test_dsss),
	KUNIT_CASE(airtime_test_ctl_rate),
	KUNIT_CASE(airtime_test_phy_params),
	KUNIT_CASE(airtime_test_t_data),
	KUNIT_CASE(airtime_test_split_mixed),
	KUNIT_CASE(airtime_test_split_all_satisfied),
	KUNIT_CASE(airtime_test_split_none_satisfied),
	KUNIT_CASE(airtime_test_split_connections),
	KUNIT_CASE(airtime_test_split_many),
	KUNIT_CASE(airtime_test_occupancy_model),
	KUNIT_CASE(airtime_test_conns_idle),
	KUNIT_CASE(airtime_test_conns_active),
	KUNIT_CASE(airtime_test_stale),
	KUNIT_CASE(airtime_test_theta_wnd),
	KUNIT_CASE(airtime_test_jain),
	{}
};

static struct kunit_suite airtime_model_suite = {
	.name = "airqueue-tcp_cong_airtime-model",
	.test_cases = airtime_model_cases,
};

kunit_test_suite(airtime_model_suite);

MODULE_DESCRIPTION("KUnit tests of the tcp_airtime airtime model");
MODULE_LICENSE("GPL");
