/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channel occupancy time model of the "airtime" TCP congestion control.
 *
 * This is the pure part of tcp_airtime: no socket, no netdev, no mac80211,
 * only integer arithmetic, so that it builds in the module, in KUnit (UML)
 * and could be built in user space.  It implements section III of
 * Kashibuchi, Taleb, Nemoto, Kato, "Channel Occupancy Time Based TCP Rate
 * Control for IEEE 802.11 DCF" (equation numbers below are the paper's):
 *
 * 1. Share the airtime of an observation slot T among the N active
 *    stations of the BSS, giving what the others leave unused to those
 *    that use (almost) all of their share:
 *
 *	t_avail_BSS  = T - t_beacon				(1)
 *	t_bar_i      = t_avail_BSS / N				(2)
 *	t_remain_BSS = t_avail_BSS - sum_i t_i			(3)
 *	i unsatisfied  <=>  t_i >= r * t_bar_i			(4)
 *	t_avail_x    = t_bar_x				if satisfied
 *		     = t_bar_x + t_remain_BSS / N_unsat	else	(5)
 *
 *    and the same split of t_avail_x among the M_x TCP connections of
 *    station x, with the connections' occupancies tau_x,j (6)-(9).  Both
 *    levels are one function here: airtime_split_*().
 *
 * 2. Turn the airtime of a connection into a TCP rate: one "TCP cycle" is b
 *    data segments of lambda bytes plus one TCP ACK, each a full DCF
 *    exchange at PHY rate C:
 *
 *	T_data(C, L) = DIFS + mean backoff [+ RTS + SIFS + CTS + SIFS]
 *		       + DATA(C, L) + SIFS + ACK(C)			(12)
 *	T_TCP(C, lambda, b) = b * T_data(C, lambda) + T_data(C, 0)	(11)
 *	theta = tau_avail / T_TCP * lambda * b / T			(10)
 *
 * 3. The window that carries theta over the connection's minimum RTT:
 *
 *	wnd_max = RTT_min * theta					(13)
 *
 * and the metric the paper evaluates with, Jain's index of occupancy:
 *
 *	f_c = (sum t_i)^2 / (N * sum t_i^2)				(14)
 *
 * PHY timing follows IEEE 802.11-2012: clause 18 (OFDM, 802.11a), clause 19
 * (ERP, 802.11g: 6 us signal extension after every OFDM frame in 2.4 GHz,
 * DSSS protection frames), clause 20 (HT mixed format, 20/40 MHz, long or
 * short guard interval, 1-4 spatial streams).  One MPDU per channel access
 * (no A-MPDU), the paper's model.
 *
 * Units and precision: durations are in nanoseconds (u32, exact for every
 * OFDM/HT frame since they are whole microseconds, and for the mean backoff
 * CWmin * slot / 2, a multiple of 0.5 us); airtime shares in microseconds;
 * r in permille; rates in kbit/s; theta in bytes per second; the number of
 * TCP cycles per slot in Q16 fixed point (relative error < 2^-16 of a
 * cycle); wnd_max in bytes (floor) and segments (floor); Jain's index in
 * parts per million (exact to 1 ppm for occupancies below 2^20 us, inputs
 * are scaled down first above that).
 */
#ifndef _AIRTIME_MODEL_H
#define _AIRTIME_MODEL_H

#include <linux/limits.h>
#include <linux/types.h>

/* 802.11 frame sizes, bytes */
#define AIRTIME_ACK_BYTES	14	/* ACK and CTS: FC, duration, RA, FCS */
#define AIRTIME_CTS_BYTES	14
#define AIRTIME_RTS_BYTES	20	/* FC, duration, RA, TA, FCS */
/* struct airtime_phy's rts_threshold of a wiphy without one (cfg80211's -1) */
#define AIRTIME_RTS_OFF			U32_MAX

/* QoS data header 26 + LLC/SNAP 8 + FCS 4: MPDU bytes beyond the IP packet */
#define AIRTIME_MAC_OVERHEAD_QOS	38
/* Non-QoS data header 24 + LLC/SNAP 8 + FCS 4 */
#define AIRTIME_MAC_OVERHEAD_NONQOS	36

/* OFDM (clause 18) PLCP, 20 MHz channel spacing */
#define AIRTIME_OFDM_PREAMBLE_NS	16000	/* short + long training */
#define AIRTIME_OFDM_SIGNAL_NS		4000	/* SIGNAL field, one symbol */
#define AIRTIME_OFDM_SYMBOL_NS		4000	/* 3.2 us + 0.8 us GI */
#define AIRTIME_OFDM_SERVICE_BITS	16
#define AIRTIME_OFDM_TAIL_BITS		6

/* HT mixed format (clause 20) */
#define AIRTIME_HT_LEGACY_PREAMBLE_NS	20000	/* L-STF 8 + L-LTF 8 + L-SIG 4 */
#define AIRTIME_HT_SIG_NS		8000	/* HT-SIG, two symbols */
#define AIRTIME_HT_STF_NS		4000
#define AIRTIME_HT_LTF_NS		4000	/* per HT-LTF */
#define AIRTIME_HT_SYMBOL_SGI_NS	3600	/* 3.2 us + 0.4 us GI */
#define AIRTIME_HT_ENCODER_KBPS		300000	/* one BCC encoder per 300 Mbit/s */

/* DSSS/CCK (clauses 16/17), used by 802.11g protection frames */
#define AIRTIME_DSSS_LONG_PREAMBLE_NS	192000	/* 144 us preamble + 48 us header */
#define AIRTIME_DSSS_SHORT_PREAMBLE_NS	96000	/* 72 us + 24 us */

/* Interframe timing, ns */
#define AIRTIME_SLOT_SHORT_NS		9000	/* 802.11a, 802.11g short slot, HT */
#define AIRTIME_SLOT_LONG_NS		20000	/* 802.11g with non-ERP stations */
#define AIRTIME_SIFS_5GHZ_NS		16000
#define AIRTIME_SIFS_2GHZ_NS		10000
#define AIRTIME_SIGNAL_EXT_NS		6000	/* after OFDM frames in 2.4 GHz */

#define AIRTIME_CWMIN_OFDM		15
#define AIRTIME_CWMIN_DSSS		31
#define AIRTIME_DIFS_SLOTS		2	/* DIFS = SIFS + 2 slots */

/* Default 802.11g protection frame rate: DSSS 1 Mbit/s, long preamble */
#define AIRTIME_PROT_DEFAULT_KBPS	1000

/* Beacon interval unit (TU), us */
#define AIRTIME_TU_US			1024
/* A view older than this many slots is stale: no cap */
#define AIRTIME_STALE_SLOTS		2
/*
 * Longest configured slot (n beacon intervals of beacon_tu), TU: 4.096 s,
 * more than mac80211's airtime view runs at the usual 100 TU (at most 32
 * beacon intervals, 3.3 s).  A cap computed from the airtime of a longer
 * slot no longer follows the load of a WLAN, and a view of an interface
 * that stopped reporting would keep capping for two such slots.
 */
#define AIRTIME_SLOT_MAX_TU		4000

/* Fixed point */
#define AIRTIME_Q16_SHIFT		16
#define AIRTIME_PERMILLE		1000
#define AIRTIME_PPM			1000000

enum airtime_phy_std {
	AIRTIME_PHY_11A,	/* OFDM, 5 GHz */
	AIRTIME_PHY_11G,	/* ERP-OFDM, 2.4 GHz, only ERP stations */
	AIRTIME_PHY_11G_PROT,	/* ERP-OFDM with CTS-to-self protection */
	AIRTIME_PHY_HT_2GHZ,	/* HT mixed format, 2.4 GHz */
	AIRTIME_PHY_HT_5GHZ,	/* HT mixed format, 5 GHz */
	AIRTIME_PHY_NUM,
};

/**
 * struct airtime_phy - timing of one PHY/MAC configuration
 * @std: enum airtime_phy_std
 * @ht: data frames use the HT mixed format PPDU
 * @rts: an RTS/CTS exchange precedes every data frame
 * @rts_threshold: else, one precedes the frames whose MPDU (FCS included)
 *	is longer than this many bytes, as mac80211 decides from the
 *	wiphy's RTS threshold; AIRTIME_RTS_OFF: none
 * @slot_ns: slot time
 * @sifs_ns: SIFS
 * @sig_ext_ns: signal extension appended to OFDM/HT frames (2.4 GHz)
 * @cw_min: CWmin, the mean backoff is @cw_min * @slot_ns / 2
 * @difs_slots: DIFS = SIFS + @difs_slots * slot (2; 3 = AIFS of AC_BE)
 * @mac_overhead: MPDU bytes added to an IP packet (header, LLC/SNAP, FCS)
 * @prot_kbps: DSSS rate of protection frames (RTS/CTS or CTS-to-self),
 *	0 when OFDM control frames are used
 * @prot_short_preamble: protection frames use the short DSSS preamble
 */
struct airtime_phy {
	u8 std;
	bool ht;
	bool rts;
	u32 rts_threshold;
	u32 slot_ns;
	u32 sifs_ns;
	u32 sig_ext_ns;
	u16 cw_min;
	u8 difs_slots;
	u16 mac_overhead;
	u32 prot_kbps;
	bool prot_short_preamble;
};

/**
 * struct airtime_rate - the PHY rate C of data frames
 * @kbps: PHY rate in kbit/s (6000..54000 legacy OFDM, HT MCS rate)
 * @nss: HT spatial streams (1..4); 0: guess from @kbps
 * @sgi: HT short guard interval
 */
struct airtime_rate {
	u32 kbps;
	u8 nss;
	bool sgi;
};

void airtime_phy_init(struct airtime_phy *phy, enum airtime_phy_std std,
		      bool rts);

/* PHY timing */
u32 airtime_ht_kbps(unsigned int mcs, bool ht40, bool sgi);
u32 airtime_ofdm_ppdu_ns(u32 kbps, u32 bytes);
u32 airtime_ht_ppdu_ns(const struct airtime_rate *rate, u32 bytes);
u32 airtime_dsss_ppdu_ns(u32 kbps, bool short_preamble, u32 bytes);
u32 airtime_ctl_rate_kbps(u32 data_kbps);
u32 airtime_difs_ns(const struct airtime_phy *phy);
u32 airtime_backoff_ns(const struct airtime_phy *phy);

/* (12) and (11); @ip_len: IP packet bytes (payload + IP/TCP headers) */
u32 airtime_t_data_ns(const struct airtime_phy *phy,
		      const struct airtime_rate *rate, u32 ip_len);
u32 airtime_t_tcp_ns(const struct airtime_phy *phy,
		     const struct airtime_rate *rate, u32 mss, u32 hdr_len,
		     u32 b);

/**
 * struct airtime_split - equal split of airtime with redistribution
 * @avail_us: airtime to share (t_avail_BSS or t_avail_x)
 * @n: members sharing it (N or M_x)
 * @r_permille: satisfaction threshold r
 * @bar_us: equal share, (2) / (6)
 * @used_us: sum of the members' occupancy
 * @remain_us: unused airtime, (3) / (7); clamped at 0 when the members used
 *	more than @avail_us (measurement overlap), so nothing is redistributed
 * @n_unsat: unsatisfied members, (4) / (8)
 */
struct airtime_split {
	u32 avail_us;
	u32 n;
	u32 r_permille;
	u32 bar_us;
	u64 used_us;
	u32 remain_us;
	u32 n_unsat;
};

u32 airtime_bss_avail_us(u32 slot_us, u32 beacon_us);		/* (1) */
void airtime_split_init(struct airtime_split *s, u32 avail_us, u32 n,
			u32 r_permille);			/* (2), (6) */
void airtime_split_add(struct airtime_split *s, u32 t_us);
void airtime_split_add_many(struct airtime_split *s, u64 total_us,
			    u32 count);
void airtime_split_finish(struct airtime_split *s);		/* (3), (7) */
bool airtime_unsatisfied(const struct airtime_split *s, u32 t_us); /* (4) */
u32 airtime_split_share_us(const struct airtime_split *s, u32 t_us);
void airtime_split(struct airtime_split *s, u32 avail_us, u32 r_permille,
		   const u32 *t_us, u32 n);

/*
 * Occupancy as the model counts it.  The paper's t_i counts every frame
 * with the mean backoff (its section III-A: "we use the average value of
 * the backoff interval instead of the actual value"), as T_data (12) does;
 * the airtime a driver registers (mac80211's view) is the frames' alone.
 * Mixing the two, a station that uses all of its share t_bar by the model
 * shows 60-70 % of it in the view at 54 Mbit/s and reads as satisfied (4),
 * so the airtime others leave is never given to it.  A station's own
 * occupancy is therefore the larger of the view's and its connections'
 * sum of tau (counted with T_TCP, the model's), and the other stations'
 * view occupancy is scaled by the same ratio: their frames are taken to
 * carry the overhead ours do.  The ratio is capped: a pure-ACK exchange is
 * about three times its frames' airtime.
 */
#define AIRTIME_OCC_RATIO_MAX		4	/* model / view occupancy */

u32 airtime_occ_ratio_q16(u32 view_us, u64 tau_us);
u32 airtime_occ_own_us(u32 view_us, u64 tau_us);
u64 airtime_occ_scale(u64 occ_us, u32 ratio_q16);
u32 airtime_sta_share_us(u32 slot_us, u32 beacon_us, u32 busy_us,
			 u32 n_act, u32 view_us, u64 tau_us, u32 r_permille,
			 struct airtime_split *bss);

/**
 * struct airtime_conns - the M_x connections of one station x, (6)-(9)
 * @seq: slot whose reports are being summed
 * @active: connections that moved data in slot @seq, reported so far
 * @unsat: connections unsatisfied in slot @seq, reported so far
 * @sum_us: sum of their occupancy tau_x,j in slot @seq so far
 * @prev_active: @active of the slot before @seq (complete)
 * @prev_unsat: @unsat of the slot before @seq
 * @prev_sum_us: @sum_us of the slot before @seq
 *
 * Each connection reports its occupancy of a slot once, when it first sees
 * the view of the slot's end; the reports of one slot arrive one by one.
 */
struct airtime_conns {
	u32 seq;
	u32 active;
	u32 unsat;
	u64 sum_us;
	u32 prev_active;
	u32 prev_unsat;
	u64 prev_sum_us;
};

void airtime_conns_report(struct airtime_conns *c, u32 seq, bool report,
			  u32 tau_us, bool active, u32 x_avail_us,
			  u32 r_permille, struct airtime_split *conn);
u32 airtime_conns_m(const struct airtime_conns *c);
u64 airtime_conns_tau_us(const struct airtime_conns *c, u32 seq);

/* Age of a view beyond which it is stale, ns; the configured slot check */
u64 airtime_stale_ns(u32 view_slot_us, u32 n, u32 beacon_tu);
bool airtime_slot_cfg_ok(u32 n, u32 beacon_tu);

/* (10): TCP cycles per slot (Q16), theta in bytes/s; (13) wnd_max */
u64 airtime_cycles_q16(u32 tau_avail_us, u32 t_tcp_ns);
u64 airtime_theta_bps(u32 tau_avail_us, u32 t_tcp_ns, u32 mss, u32 b,
		      u32 slot_us);
u64 airtime_wnd_max_bytes(u32 rtt_us, u64 theta_bps);
u32 airtime_wnd_max_segs(u32 rtt_us, u64 theta_bps, u32 mss);

/* (14) */
u32 airtime_jain_ppm(const u32 *t_us, u32 n);

#endif /* _AIRTIME_MODEL_H */
