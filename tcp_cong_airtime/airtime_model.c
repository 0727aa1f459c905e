// SPDX-License-Identifier: GPL-2.0
/*
 * Channel occupancy time model of the "airtime" TCP congestion control:
 * 802.11 PHY timing, the airtime split (1)-(9), the TCP rate (10)-(13) and
 * Jain's index (14).  See airtime_model.h for the model and its precision.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/minmax.h>
#include "airtime_model.h"

/**
 * airtime_phy_init - timing of a standard PHY/MAC configuration
 * @phy: filled in
 * @std: enum airtime_phy_std
 * @rts: an RTS/CTS exchange precedes every data frame
 *
 * No RTS threshold (AIRTIME_RTS_OFF): set ->rts_threshold after this to
 * model one.  DIFS is SIFS + 2 slots (DCF, as in the paper); the data
 * MPDU carries a QoS header.  802.11g with protection uses the long slot and CWmin 31 of
 * a BSS with non-ERP stations and protects data with a CTS-to-self (or
 * RTS/CTS) at 1 Mbit/s DSSS, long preamble.
 */
void airtime_phy_init(struct airtime_phy *phy, enum airtime_phy_std std,
		      bool rts)
{
	*phy = (struct airtime_phy) {
		.std = std,
		.rts = rts,
		.rts_threshold = AIRTIME_RTS_OFF,
		.slot_ns = AIRTIME_SLOT_SHORT_NS,
		.sifs_ns = AIRTIME_SIFS_5GHZ_NS,
		.cw_min = AIRTIME_CWMIN_OFDM,
		.difs_slots = AIRTIME_DIFS_SLOTS,
		.mac_overhead = AIRTIME_MAC_OVERHEAD_QOS,
	};

	switch (std) {
	case AIRTIME_PHY_11A:
		break;
	case AIRTIME_PHY_11G_PROT:
		phy->slot_ns = AIRTIME_SLOT_LONG_NS;
		phy->cw_min = AIRTIME_CWMIN_DSSS;
		phy->prot_kbps = AIRTIME_PROT_DEFAULT_KBPS;
		fallthrough;
	case AIRTIME_PHY_11G:
		phy->sifs_ns = AIRTIME_SIFS_2GHZ_NS;
		phy->sig_ext_ns = AIRTIME_SIGNAL_EXT_NS;
		break;
	case AIRTIME_PHY_HT_2GHZ:
		phy->sifs_ns = AIRTIME_SIFS_2GHZ_NS;
		phy->sig_ext_ns = AIRTIME_SIGNAL_EXT_NS;
		phy->ht = true;
		break;
	case AIRTIME_PHY_HT_5GHZ:
	default:
		phy->ht = true;
		break;
	}
}

/**
 * airtime_ht_kbps - PHY rate of an HT MCS from the standard's parameters
 * @mcs: 0..31
 * @ht40: 40 MHz channel (108 data subcarriers instead of 52)
 * @sgi: short guard interval (3.6 us symbols instead of 4 us)
 *
 * N_DBPS = N_SD * N_BPSCS * R * N_SS (802.11-2012 20.6); the rate is
 * N_DBPS / T_SYM, rounded down to kbit/s.
 */
u32 airtime_ht_kbps(unsigned int mcs, bool ht40, bool sgi)
{
	/* bits per subcarrier and coding rate (num/den) of MCS 0..7 */
	static const u8 bpscs[8] = { 1, 2, 2, 4, 4, 6, 6, 6 };
	static const u8 r_num[8] = { 1, 1, 3, 1, 3, 2, 3, 5 };
	static const u8 r_den[8] = { 2, 2, 4, 2, 4, 3, 4, 6 };
	u32 n_sd = ht40 ? 108 : 52;
	u32 nss = mcs / 8 + 1;
	u32 ndbps;

	if (mcs > 31)
		return 0;
	mcs %= 8;
	ndbps = n_sd * bpscs[mcs] * nss * r_num[mcs] / r_den[mcs];
	if (sgi)
		return ndbps * 10000 / 36;	/* / 3.6 us */
	return ndbps * 1000 / 4;		/* / 4 us */
}

/**
 * airtime_ofdm_ppdu_ns - duration of a clause 18 OFDM PPDU
 * @kbps: 6000..54000
 * @bytes: PSDU (MPDU) length
 *
 * 16 us preamble + 4 us SIGNAL + 4 us * ceil((16 + 8 * bytes + 6) / N_DBPS),
 * N_DBPS = rate * 4 us.  Without the 2.4 GHz signal extension.
 */
u32 airtime_ofdm_ppdu_ns(u32 kbps, u32 bytes)
{
	u32 ndbps = DIV_ROUND_CLOSEST(kbps * 4, 1000);
	u32 bits = AIRTIME_OFDM_SERVICE_BITS + 8 * bytes +
		   AIRTIME_OFDM_TAIL_BITS;

	if (!ndbps)
		return 0;
	return AIRTIME_OFDM_PREAMBLE_NS + AIRTIME_OFDM_SIGNAL_NS +
	       AIRTIME_OFDM_SYMBOL_NS * DIV_ROUND_UP(bits, ndbps);
}

static u32 airtime_ht_nss(const struct airtime_rate *rate)
{
	/* 150 Mbit/s is the fastest single stream rate (HT40, SGI) */
	if (rate->nss)
		return clamp_t(u32, rate->nss, 1, 4);
	return clamp_t(u32, DIV_ROUND_UP(rate->kbps, 150000), 1, 4);
}

/**
 * airtime_ht_ppdu_ns - duration of an HT mixed format PPDU
 * @rate: HT rate (kbit/s, streams, guard interval)
 * @bytes: PSDU length
 *
 * 802.11-2012 20.4.3: L-STF + L-LTF + L-SIG (20 us) + HT-SIG (8) + HT-STF
 * (4) + N_LTF * 4 us + data symbols, N_SYM = ceil((8 * bytes + 16 +
 * 6 * N_ES) / N_DBPS); with the short GI the data part is
 * 4 us * ceil(3.6 us * N_SYM / 4 us).  N_LTF is 1, 2, 4, 4 for 1..4
 * streams; N_ES is one encoder per 300 Mbit/s.
 */
u32 airtime_ht_ppdu_ns(const struct airtime_rate *rate, u32 bytes)
{
	static const u8 n_ltf[5] = { 0, 1, 2, 4, 4 };
	u32 nss = airtime_ht_nss(rate);
	u32 n_es = max_t(u32, 1, DIV_ROUND_UP(rate->kbps,
					      AIRTIME_HT_ENCODER_KBPS));
	u32 ndbps, nsym, data_ns;

	if (rate->sgi)
		ndbps = DIV_ROUND_CLOSEST(rate->kbps * 36, 10000);
	else
		ndbps = DIV_ROUND_CLOSEST(rate->kbps * 4, 1000);
	if (!ndbps)
		return 0;

	nsym = DIV_ROUND_UP(8 * bytes + AIRTIME_OFDM_SERVICE_BITS +
			    AIRTIME_OFDM_TAIL_BITS * n_es, ndbps);
	if (rate->sgi)
		data_ns = AIRTIME_OFDM_SYMBOL_NS *
			  DIV_ROUND_UP(nsym * AIRTIME_HT_SYMBOL_SGI_NS,
				       AIRTIME_OFDM_SYMBOL_NS);
	else
		data_ns = AIRTIME_OFDM_SYMBOL_NS * nsym;

	return AIRTIME_HT_LEGACY_PREAMBLE_NS + AIRTIME_HT_SIG_NS +
	       AIRTIME_HT_STF_NS + n_ltf[nss] * AIRTIME_HT_LTF_NS + data_ns;
}

/**
 * airtime_dsss_ppdu_ns - duration of a DSSS/CCK PPDU
 * @kbps: 1000, 2000, 5500 or 11000
 * @short_preamble: 96 us instead of 192 us of preamble and header
 * @bytes: PSDU length
 */
u32 airtime_dsss_ppdu_ns(u32 kbps, bool short_preamble, u32 bytes)
{
	u32 pre = short_preamble ? AIRTIME_DSSS_SHORT_PREAMBLE_NS :
				   AIRTIME_DSSS_LONG_PREAMBLE_NS;

	if (!kbps)
		return 0;
	return pre + 1000 * DIV_ROUND_UP(8 * 1000 * bytes, kbps);
}

/**
 * airtime_ctl_rate_kbps - rate of the ACK/CTS answering a data frame
 * @data_kbps: the data frame's rate
 *
 * The highest mandatory OFDM rate (6, 12, 24 Mbit/s) not above the data
 * rate (802.11-2012 9.7.6.5; an HT frame is answered in non-HT format).
 */
u32 airtime_ctl_rate_kbps(u32 data_kbps)
{
	if (data_kbps >= 24000)
		return 24000;
	if (data_kbps >= 12000)
		return 12000;
	return 6000;
}

u32 airtime_difs_ns(const struct airtime_phy *phy)
{
	return phy->sifs_ns + phy->difs_slots * phy->slot_ns;
}

u32 airtime_backoff_ns(const struct airtime_phy *phy)
{
	return phy->cw_min * phy->slot_ns / 2;
}

/* A control frame at the OFDM control rate, with signal extension */
static u32 airtime_ctl_ns(const struct airtime_phy *phy, u32 ctl_kbps,
			  u32 bytes)
{
	return airtime_ofdm_ppdu_ns(ctl_kbps, bytes) + phy->sig_ext_ns;
}

/**
 * airtime_t_data_ns - (12) one DCF exchange carrying an IP packet
 * @phy: PHY/MAC timing
 * @rate: PHY rate C of the data frame
 * @ip_len: IP packet length (TCP payload lambda + IP and TCP headers)
 *
 * DIFS + mean backoff [+ RTS + SIFS + CTS + SIFS] + DATA + SIFS + ACK, with
 * a CTS-to-self + SIFS instead of RTS/CTS when only 802.11g protection is
 * on.  Returns 0 for an unusable rate.
 */
u32 airtime_t_data_ns(const struct airtime_phy *phy,
		      const struct airtime_rate *rate, u32 ip_len)
{
	u32 ctl = airtime_ctl_rate_kbps(rate->kbps);
	u32 mpdu = ip_len + phy->mac_overhead;
	bool rts = phy->rts || mpdu > phy->rts_threshold;
	u32 data_ns, t;

	if (phy->ht)
		data_ns = airtime_ht_ppdu_ns(rate, mpdu);
	else
		data_ns = airtime_ofdm_ppdu_ns(rate->kbps, mpdu);
	if (!data_ns)
		return 0;

	t = airtime_difs_ns(phy) + airtime_backoff_ns(phy);
	if (rts && phy->prot_kbps)
		t += airtime_dsss_ppdu_ns(phy->prot_kbps,
					  phy->prot_short_preamble,
					  AIRTIME_RTS_BYTES) + phy->sifs_ns +
		     airtime_dsss_ppdu_ns(phy->prot_kbps,
					  phy->prot_short_preamble,
					  AIRTIME_CTS_BYTES) + phy->sifs_ns;
	else if (rts)
		t += airtime_ctl_ns(phy, ctl, AIRTIME_RTS_BYTES) +
		     phy->sifs_ns +
		     airtime_ctl_ns(phy, ctl, AIRTIME_CTS_BYTES) +
		     phy->sifs_ns;
	else if (phy->prot_kbps)
		t += airtime_dsss_ppdu_ns(phy->prot_kbps,
					  phy->prot_short_preamble,
					  AIRTIME_CTS_BYTES) + phy->sifs_ns;

	return t + data_ns + phy->sig_ext_ns + phy->sifs_ns +
	       airtime_ctl_ns(phy, ctl, AIRTIME_ACK_BYTES);
}

/**
 * airtime_t_tcp_ns - (11) b data segments and one TCP ACK
 * @phy: PHY/MAC timing
 * @rate: PHY rate C
 * @mss: data segment payload lambda, bytes
 * @hdr_len: IP + TCP header bytes of a segment (40, 52 with timestamps)
 * @b: segments acknowledged by one TCP ACK (1, 2 with delayed ACKs)
 */
u32 airtime_t_tcp_ns(const struct airtime_phy *phy,
		     const struct airtime_rate *rate, u32 mss, u32 hdr_len,
		     u32 b)
{
	return b * airtime_t_data_ns(phy, rate, mss + hdr_len) +
	       airtime_t_data_ns(phy, rate, hdr_len);
}

/* (1): airtime of the slot left after beacons; 0 if beacons took it all */
u32 airtime_bss_avail_us(u32 slot_us, u32 beacon_us)
{
	return slot_us > beacon_us ? slot_us - beacon_us : 0;
}

/**
 * airtime_split_init - start sharing @avail_us equally among @n members
 * @s: split state
 * @avail_us: t_avail_BSS (1) or a station's t_avail_x (5)
 * @n: N active stations or M_x connections; 0 is treated as 1
 * @r_permille: satisfaction threshold r, 1..999
 */
void airtime_split_init(struct airtime_split *s, u32 avail_us, u32 n,
			u32 r_permille)
{
	*s = (struct airtime_split) {
		.avail_us = avail_us,
		.n = max_t(u32, n, 1),
		.r_permille = r_permille,
	};
	s->bar_us = avail_us / s->n;				/* (2) (6) */
}

/* (4) (8): t >= r * t_bar */
bool airtime_unsatisfied(const struct airtime_split *s, u32 t_us)
{
	return (u64)t_us * AIRTIME_PERMILLE >=
	       (u64)s->r_permille * s->bar_us;
}

/* Account one member's occupancy t_i (tau_x,j) */
void airtime_split_add(struct airtime_split *s, u32 t_us)
{
	s->used_us += t_us;
	if (airtime_unsatisfied(s, t_us))
		s->n_unsat++;
}

/*
 * Account @count members known only by their total occupancy (stations
 * beyond the view's table): each is taken to have used the mean.
 */
void airtime_split_add_many(struct airtime_split *s, u64 total_us,
			    u32 count)
{
	if (!count)
		return;
	s->used_us += total_us;
	if (airtime_unsatisfied(s, (u32)min_t(u64, div_u64(total_us, count),
					      U32_MAX)))
		s->n_unsat += count;
}

/* (3) (7): unused airtime, not below 0 */
void airtime_split_finish(struct airtime_split *s)
{
	s->remain_us = s->used_us >= s->avail_us ? 0 :
		       s->avail_us - (u32)s->used_us;
}

/**
 * airtime_split_share_us - (5) (9) airtime available to one member
 * @s: finished split
 * @t_us: the member's own occupancy
 *
 * The equal share, plus an equal part of the unused airtime if the member
 * is unsatisfied.
 */
u32 airtime_split_share_us(const struct airtime_split *s, u32 t_us)
{
	if (!airtime_unsatisfied(s, t_us) || !s->n_unsat)
		return s->bar_us;
	return s->bar_us + s->remain_us / s->n_unsat;
}

/* The whole split of (2)-(5) or (6)-(9) over an array of occupancies */
void airtime_split(struct airtime_split *s, u32 avail_us, u32 r_permille,
		   const u32 *t_us, u32 n)
{
	u32 i;

	airtime_split_init(s, avail_us, n, r_permille);
	for (i = 0; i < n; i++)
		airtime_split_add(s, t_us[i]);
	airtime_split_finish(s);
}

/**
 * airtime_occ_ratio_q16 - model occupancy per unit of view occupancy
 * @view_us: a station's occupancy in the view (registered frame airtime)
 * @tau_us: the same station's occupancy by the model (its sum of tau)
 *
 * Return: @tau_us / @view_us in Q16, in [1, AIRTIME_OCC_RATIO_MAX]; 1
 * without both figures.
 */
u32 airtime_occ_ratio_q16(u32 view_us, u64 tau_us)
{
	u64 q;

	if (!view_us || tau_us <= view_us)
		return 1U << AIRTIME_Q16_SHIFT;
	q = div_u64(min_t(u64, tau_us, U32_MAX) << AIRTIME_Q16_SHIFT, view_us);
	return (u32)min_t(u64, q, AIRTIME_OCC_RATIO_MAX << AIRTIME_Q16_SHIFT);
}

/* Station x's own occupancy: the larger of the view's and the model's */
u32 airtime_occ_own_us(u32 view_us, u64 tau_us)
{
	return (u32)max_t(u64, view_us, min_t(u64, tau_us, U32_MAX));
}

/* @occ_us of view occupancy in the model's units */
u64 airtime_occ_scale(u64 occ_us, u32 ratio_q16)
{
	occ_us = min_t(u64, occ_us, U32_MAX);
	return (occ_us * ratio_q16) >> AIRTIME_Q16_SHIFT;
}

/**
 * airtime_sta_share_us - (1)-(5) from a station's own view
 * @slot_us: T
 * @beacon_us: t_beacon
 * @busy_us: the channel's busy time in the slot (survey or BSS Load), 0 if
 *	unknown
 * @n_act: N, this station included (at least 1)
 * @view_us: this station's occupancy in the view
 * @tau_us: this station's occupancy by the model (its connections' tau)
 * @r_permille: r
 * @bss: the finished split, for the caller's record
 *
 * A station knows only its own t_x.  The others together used the busy
 * time less its own and the beacons (in the view's units, scaled to the
 * model's by this station's own ratio) or, without a busy time, exactly
 * their equal share.
 *
 * Return: t_avail_x (5).
 */
u32 airtime_sta_share_us(u32 slot_us, u32 beacon_us, u32 busy_us,
			 u32 n_act, u32 view_us, u64 tau_us, u32 r_permille,
			 struct airtime_split *bss)
{
	u32 ratio = airtime_occ_ratio_q16(view_us, tau_us);
	u32 t_x = airtime_occ_own_us(view_us, tau_us);
	u64 others;

	n_act = max(n_act, 1U);
	airtime_split_init(bss, airtime_bss_avail_us(slot_us, beacon_us),
			   n_act, r_permille);
	others = (u64)bss->bar_us * (n_act - 1);
	if (busy_us)
		others = busy_us > view_us + beacon_us ?
			 airtime_occ_scale(busy_us - view_us - beacon_us,
					   ratio) : 0;
	airtime_split_add(bss, t_x);
	airtime_split_add_many(bss, others, n_act - 1);
	airtime_split_finish(bss);
	return airtime_split_share_us(bss, t_x);
}

/* M_x: the connections that moved data in the slot (so far) or the last */
u32 airtime_conns_m(const struct airtime_conns *c)
{
	return max(c->active, c->prev_active);
}

/**
 * airtime_conns_report - account one connection's slot, split t_avail_x
 * @c: the sums of the connections of station x
 * @seq: the slot of the view the connection computes with
 * @report: it sees the view of slot @seq for the first time: @tau_us and
 *	@active describe its part of that slot
 * @tau_us: its occupancy tau_x,j in the slot
 * @active: it sent or received data in the slot
 * @x_avail_us: t_avail_x (5)
 * @r_permille: satisfaction threshold r
 * @conn: set to the split (6)-(9) of @x_avail_us, ready for
 *	airtime_split_share_us()
 *
 * M_x (6) counts only the connections that moved data: an idle connection
 * of the station (iperf3's control connection, a keep-alive) takes no
 * share.  It is the larger of this slot's count so far and the last slot's,
 * so that the first connection to report a slot does not count alone.
 * (7)-(8) use the last slot's complete sums: a one-slot lag.
 */
void airtime_conns_report(struct airtime_conns *c, u32 seq, bool report,
			  u32 tau_us, bool active, u32 x_avail_us,
			  u32 r_permille, struct airtime_split *conn)
{
	if (c->seq != seq) {
		c->prev_active = c->active;
		c->prev_unsat = c->unsat;
		c->prev_sum_us = c->sum_us;
		c->active = 0;
		c->unsat = 0;
		c->sum_us = 0;
		c->seq = seq;
	}
	if (report && active)
		c->active++;
	airtime_split_init(conn, x_avail_us, airtime_conns_m(c), r_permille);
	if (report && active) {
		c->sum_us += tau_us;
		if (airtime_unsatisfied(conn, tau_us))
			c->unsat++;
	}
	conn->used_us = c->prev_sum_us;
	conn->n_unsat = c->prev_unsat;
	airtime_split_finish(conn);
}

/**
 * airtime_conns_tau_us - station x's occupancy by the model, sum of tau
 * @c: the station's connections
 * @seq: the view's slot
 *
 * The last complete slot's sum or, once connections have reported @seq,
 * the larger of that and the sum so far.
 */
u64 airtime_conns_tau_us(const struct airtime_conns *c, u32 seq)
{
	if (c->seq != seq)
		return c->sum_us;
	return max(c->sum_us, c->prev_sum_us);
}

/**
 * airtime_stale_ns - age beyond which a view is stale
 * @view_slot_us: the view's slot T
 * @n: configured slot in beacon intervals
 * @beacon_tu: configured beacon interval, TU
 *
 * AIRTIME_STALE_SLOTS of the longer of the view's slot and the configured
 * one (a slot that ended early is shorter than the wait for the next).  In
 * 64 bits: two slots of 16 * 1000 TU are 32.8 s, beyond 32-bit
 * nanoseconds.
 */
u64 airtime_stale_ns(u32 view_slot_us, u32 n, u32 beacon_tu)
{
	u64 cfg_us = (u64)n * beacon_tu * AIRTIME_TU_US;

	return NSEC_PER_USEC * AIRTIME_STALE_SLOTS *
	       max_t(u64, view_slot_us, cfg_us);
}

/* The configured slot, n beacon intervals of beacon_tu, is supported */
bool airtime_slot_cfg_ok(u32 n, u32 beacon_tu)
{
	return n && beacon_tu &&
	       (u64)n * beacon_tu <= AIRTIME_SLOT_MAX_TU;
}

/**
 * airtime_cycles_q16 - TCP cycles that fit in the available airtime
 * @tau_avail_us: tau_avail of the connection
 * @t_tcp_ns: T_TCP (11)
 *
 * tau_avail / T_TCP in Q16, the first factor of (10).
 */
u64 airtime_cycles_q16(u32 tau_avail_us, u32 t_tcp_ns)
{
	if (!t_tcp_ns)
		return 0;
	return div_u64(((u64)tau_avail_us * NSEC_PER_USEC) << AIRTIME_Q16_SHIFT,
		       t_tcp_ns);
}

/**
 * airtime_theta_bps - (10) the connection's TCP throughput, bytes/s
 * @tau_avail_us: tau_avail of the connection in the slot
 * @t_tcp_ns: T_TCP (11)
 * @mss: lambda, bytes
 * @b: segments per TCP ACK
 * @slot_us: T
 */
u64 airtime_theta_bps(u32 tau_avail_us, u32 t_tcp_ns, u32 mss, u32 b,
		      u32 slot_us)
{
	u64 bytes_q16 = airtime_cycles_q16(tau_avail_us, t_tcp_ns) * mss * b;

	if (!slot_us)
		return 0;
	return mul_u64_u64_div_u64(bytes_q16, USEC_PER_SEC, slot_us) >>
	       AIRTIME_Q16_SHIFT;
}

/* (13): wnd_max = RTT_min * theta, bytes (floor) */
u64 airtime_wnd_max_bytes(u32 rtt_us, u64 theta_bps)
{
	return div_u64(theta_bps * rtt_us, USEC_PER_SEC);
}

/* (13) in segments of @mss bytes (floor) */
u32 airtime_wnd_max_segs(u32 rtt_us, u64 theta_bps, u32 mss)
{
	u64 segs;

	if (!mss)
		return 0;
	segs = div_u64(airtime_wnd_max_bytes(rtt_us, theta_bps), mss);
	return (u32)min_t(u64, segs, U32_MAX);
}

/**
 * airtime_jain_ppm - (14) Jain's index of channel occupancy, in ppm
 * @t_us: occupancy t_i of each station
 * @n: N
 *
 * (sum t_i)^2 / (N * sum t_i^2) * 10^6: 10^6 when all are equal, 10^6 / N
 * when one station has all the airtime.  All zero (nobody used the medium)
 * is taken as fair (10^6); n == 0 gives 0.  The index does not change when
 * every t_i is scaled by the same factor, so the inputs are shifted right
 * until the largest is below 2^20 to keep the sums in 64 bits.
 */
u32 airtime_jain_ppm(const u32 *t_us, u32 n)
{
	u32 max = 0, shift = 0, i;
	u64 sum = 0, sq = 0;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		max = max(max, t_us[i]);
	if (!max)
		return AIRTIME_PPM;
	while ((max >> shift) >= (1U << 20))
		shift++;
	for (i = 0; i < n; i++) {
		u64 t = t_us[i] >> shift;

		sum += t;
		sq += t * t;
	}
	if (!sq)
		return AIRTIME_PPM;
	return (u32)mul_u64_u64_div_u64(sum, sum * AIRTIME_PPM, sq * n);
}
