/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * airqueue medium: a discrete-event 802.11 medium for mac80211_hwsim.
 *
 * One clock (nanoseconds: CLOCK_MONOTONIC in live mode, virtual in
 * simulation), one event heap.  Backoff is computed in closed form from the
 * time the medium became idle, never by per-slot timers.  See
 * Documentation/testbed/medium.rst for the model and its equations.
 */
#ifndef AQ_MEDIUM_H
#define AQ_MEDIUM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define AQ_NS_PER_US	1000LL
#define AQ_NS_PER_S	1000000000LL
#define AQ_C_M_PER_NS	0.299792458	/* speed of light, m/ns */

#define AQ_MAX_RADIOS		128
#define AQ_NUM_AC		4
#define AQ_MAX_RATES		4
#define AQ_AMPDU_MAX_SUB	64
#define AQ_AMPDU_MAX_BYTES	65535
#define AQ_AMPDU_MAX_NS		(4000 * AQ_NS_PER_US)
#define AQ_DST_BCAST		(-2)
#define AQ_DST_UNKNOWN		(-1)
#define AQ_FCS_LEN		4
#define AQ_ACK_LEN		14
#define AQ_CTS_LEN		14
#define AQ_RTS_LEN		20
#define AQ_BA_LEN		32	/* compressed Block Ack */

/* access categories, index order = priority order */
enum aq_ac { AQ_AC_BK, AQ_AC_BE, AQ_AC_VI, AQ_AC_VO };

/* ------------------------------------------------------------------ PHY */

enum aq_std { AQ_STD_B, AQ_STD_G, AQ_STD_A, AQ_STD_N24, AQ_STD_N5, AQ_STD_CUSTOM };
enum aq_mod { AQ_MOD_DSSS, AQ_MOD_OFDM, AQ_MOD_HT, AQ_MOD_CUSTOM };

struct aq_rate {
	enum aq_mod mod;
	unsigned int kbps;	/* PHY data rate, kbit/s */
	unsigned int ndbps;	/* OFDM/HT data bits per symbol */
	uint8_t mcs, nss;	/* HT only */
	bool bw40, sgi;		/* HT only */
	bool short_preamble;	/* DSSS/CCK only */
	bool sig_ext;		/* 2.4 GHz OFDM/HT: 6 us signal extension */
	double snr10_db;	/* SNR giving 10 % PER on 1000 octets */
	int legacy_idx;		/* index into hwsim's band table, for rx rate */
};

struct aq_phy {
	enum aq_std std;
	int64_t slot, sifs, prop, ack_timeout, plcp_custom;	/* ns */
	/* per-pair propagation delay from the radios' positions (distance /
	 * c, in whole ns rounded up) instead of prop for every pair */
	bool prop_pos;
	unsigned int cwmin, cwmax;
	unsigned int custom_kbps;
	bool use_eifs;
	bool resume_decrement;
	bool capture;
	/* a radio also gets the unicast data it decodes that is addressed to
	 * another (its driver's receive filter drops it or not): rx_overheard */
	bool overhear;
	/* beacons reach only the radios of their sender's BSS (radios' "bss"
	 * group; a radio with none gets every beacon).  The others still
	 * sense, decode and draw them as before (NAV, EIFS, the same random
	 * streams); only the copy to their driver is not made: rx_scoped */
	bool beacon_scope_bss;
	bool ampdu;
	bool edca;
	bool txop;		/* EDCA TXOP limits (VI, VO) as Table 9-155 */
	/* the BSS uses short DSSS/CCK preambles: an RTS at a CCK rate before
	 * an OFDM/HT frame uses one (before a DSSS frame it follows that
	 * frame's preamble) */
	bool short_preamble;
	unsigned int rts_threshold;	/* MPDU octets incl. FCS; above -> RTS */
	double per_slope;		/* logistic slope, 1/dB */
	/* BSSBasicRateSet, kbit/s ascending (hostapd's default per mode) */
	unsigned int basic_kbps[12];
	unsigned int n_basic;
	int64_t rx_start_delay;		/* aRxPHYStartDelay, ns */
	/* receiver: a preamble is detected and the PHY header decoded only at
	 * SINR >= pd_snr_db throughout the header (threshold model) */
	double pd_snr_db;
};

int aq_phy_defaults(struct aq_phy *phy, enum aq_std std);
int64_t aq_difs(const struct aq_phy *phy);
int64_t aq_eifs(const struct aq_phy *phy);
int64_t aq_txtime(const struct aq_phy *phy, const struct aq_rate *r,
		  unsigned int bytes);
int aq_rate_legacy(const struct aq_phy *phy, unsigned int kbps,
		   bool short_preamble, struct aq_rate *r);
int aq_rate_ht(const struct aq_phy *phy, unsigned int mcs, bool bw40,
	       bool sgi, struct aq_rate *r);
int aq_rate_from_hwsim(const struct aq_phy *phy, unsigned int freq, int idx,
		       unsigned int flags, struct aq_rate *r);
void aq_ctrl_rate(const struct aq_phy *phy, const struct aq_rate *data,
		  struct aq_rate *ctrl);
void aq_rts_rate(const struct aq_phy *phy, const struct aq_rate *data,
		 struct aq_rate *rts);
int64_t aq_hdr_time(const struct aq_phy *phy, const struct aq_rate *r);
void aq_phy_ack_timeout(struct aq_phy *phy);
int aq_phy_set_basic(struct aq_phy *phy, const unsigned int *kbps, unsigned int n);
double aq_per(const struct aq_phy *phy, const struct aq_rate *r,
	      double snr_db, unsigned int bytes);
unsigned int aq_ampdu_sub_len(unsigned int mpdu_len, bool last);
const char *aq_std_name(enum aq_std std);

/* -------------------------------------------------------------- frames */

struct aq_txrate {
	int8_t idx;
	uint8_t count;
	uint16_t flags;		/* HWSIM_TX_RC_* */
};

struct aq_frame {
	struct aq_frame *next;
	int src;			/* radio index */
	int dst;			/* radio index or AQ_DST_* */
	uint8_t ra[6];
	unsigned int len;		/* MPDU octets including FCS */
	unsigned int payload;		/* octets counted as goodput */
	uint8_t tid, ac;
	bool qos_data, no_ack, ampdu_ok;
	uint8_t l4;			/* AQ_L4_*: what the MSDU carries */
	bool beacon;			/* live: a Beacon frame */
	uint32_t hwsim_flags;
	uint32_t nav_us;		/* duration field (NAV) */
	unsigned int freq;
	struct aq_txrate rates[AQ_MAX_RATES];
	uint8_t used[AQ_MAX_RATES];	/* attempts used per rate entry */
	unsigned int attempts;
	uint64_t cookie;
	int64_t enq_time;
	int64_t airtime;		/* ns of air charged to this frame */
	uint8_t ampdu_len, ampdu_acked;	/* A-MPDU described on its status */
	bool in_ampdu;			/* last attempt was in an A-MPDU */
	void *data;			/* live: the 802.11 frame, no FCS */
	unsigned int data_len;
	int flow;			/* sim: traffic flow index, -1 none */
};

/* ---------------------------------------------------------- transmissions */

enum aq_kind { AQ_TX_DATA, AQ_TX_RTS, AQ_TX_CTS, AQ_TX_ACK, AQ_TX_BA };

struct aq_tx {
	struct aq_tx *next_free;
	int src, dst;			/* dst: radio, or AQ_DST_* */
	enum aq_kind kind;
	int ac;
	int64_t start, end;
	unsigned int freq;
	struct aq_rate rate;
	unsigned int bytes;		/* PSDU octets */
	int64_t nav;			/* ns, NAV set in third parties */
	unsigned int nfr;
	struct aq_frame *fr[AQ_AMPDU_MAX_SUB];
	uint64_t ok_mask;		/* DATA: subframes the receiver got */
	bool ampdu;
	bool interfered;		/* dst saw an overlapping signal */
	bool done;			/* SIG_END processed */
	unsigned int rx_pending;	/* prop_pos: signal ends to come */
	/* prop_pos: the receivers in the order the signal reaches them
	 * (aq_fan), the next start and end to process, and the first of
	 * the event sequence numbers reserved for them */
	struct aq_fan *fan;
	unsigned int fan_pos[2];
	uint64_t fan_seq;
	int refs;
	struct aq_tx *data;		/* CTS/ACK/BA: the DATA/RTS it answers */
	uint64_t id;
	uint32_t src_epoch;
	uint64_t heard[AQ_MAX_RADIOS / 64];	/* radios the signal reached */
	uint64_t above[AQ_MAX_RADIOS / 64];	/* ... above their CCA level */
	uint64_t overlapped[AQ_MAX_RADIOS / 64];/* lock saw another signal */
};

/*
 * prop_pos: one source's receivers (every other radio present) in the
 * order its signal reaches them, delay then radio index, which is the
 * order their per-receiver events take in the heap.  Built when the
 * source first transmits and shared by its transmissions until a link or
 * the set of radios changes (gen); each transmission holds a reference.
 * rank is the receiver's place in radio index order, which fixes its
 * events' sequence numbers (see tx_fan()).
 */
struct aq_fan {
	unsigned int refs, n;
	uint64_t gen;
	struct aq_fan_rx {
		int64_t d;		/* ns, propagation delay */
		int ri;
		unsigned int rank;
	} rx[];
};

/* --------------------------------------------------------------- radios */

/* what a data frame's MSDU carries (live mode parses LLC/SNAP + IP) */
enum aq_l4 {
	AQ_L4_OTHER,		/* management, non-IP, A-MSDU, IP fragments */
	AQ_L4_TCP,		/* a TCP segment with payload or SYN/FIN/RST */
	AQ_L4_TCP_ACK,		/* a pure TCP ACK: ACK, no payload, no SYN/FIN/RST */
	AQ_L4_UDP,
	AQ_NUM_L4
};

/* attempts a frame used when it completed: buckets 1..AQ_TRIES_HIST-1,
 * the last bucket holds that many or more (bucket 0 stays empty) */
#define AQ_TRIES_HIST	16

/* attempts at one PHY rate, with or without RTS/CTS asked by the table */
#define AQ_RATE_SLOTS	16
struct aq_rate_count {
	unsigned int kbps;
	bool rts;
	uint64_t attempts;
};

struct aq_ac_stats {
	uint64_t attempts, successes, failures, collisions, discards;
	uint64_t l4_frames[AQ_NUM_L4];	/* frames queued, by content */
	uint64_t tries_hist[AQ_NUM_L4][AQ_TRIES_HIST];	/* at completion */
	/* tries the kernel's rate table allowed (sum of its counts), same
	 * buckets, counted with tries_hist */
	uint64_t table_hist[AQ_NUM_L4][AQ_TRIES_HIST];
	/* tries_hist of the frames the kernel marked as Block Ack session
	 * frames (A-MPDU subframes, or aggregable) only */
	uint64_t ampdu_tries_hist[AQ_NUM_L4][AQ_TRIES_HIST];
	/* attempts made at a table entry whose rate or protection differs
	 * from the first entry's (rate control's fallbacks), at completion */
	uint64_t fallback_tries[AQ_NUM_L4];
	/* attempts by the rate and protection they used, at completion:
	 * the first AQ_RATE_SLOTS pairs seen, the rest in by_rate_other */
	struct aq_rate_count by_rate[AQ_RATE_SLOTS];
	unsigned int n_by_rate;
	uint64_t by_rate_other;
	uint64_t internal_collisions, rts_attempts, rts_failures;
	uint64_t txop_continuations;	/* exchanges sent SIFS after the last */
	uint64_t frames, ampdus, ampdu_subframes, bytes_ok, payload_ok;
	int64_t airtime;		/* ns on air of own DATA/RTS */
	int64_t queue_delay_sum;	/* ns, enqueue -> final status */
};

struct aq_ac_state {
	struct aq_frame *head, *tail;
	unsigned int qlen;
	unsigned int aifsn, cwmin, cwmax, cw;
	int64_t txop_ns;		/* TXOP limit; 0: one exchange */
	int backoff;			/* slots left as of radio idle_ref */
	struct aq_ac_stats st;
};

struct aq_radio {
	bool present;
	char name[32];
	uint8_t addr[6];		/* hwsim radio address (addresses[1]) */
	uint8_t (*maddr)[6];		/* further receive addresses */
	unsigned int n_maddr, cap_maddr;
	int hwsim_index;
	double pos[3];
	double tx_power_dbm, noise_dbm, cca_dbm;
	double noise_memo_dbm, noise_memo_mw;	/* noise_mw()'s last */
	double lg_memo_mw, lg_memo_db;	/* rx_end_snr()'s last log */
	unsigned int freq;		/* 0: not yet known, hears all */
	struct aq_ac_state ac[AQ_NUM_AC];

	/* carrier sense */
	int n_sig;			/* signals above CCA arriving */
	int n_heard;			/* signals arriving at all */
	bool txing, waiting, eifs;
	int64_t nav_end, sense_idle_since, idle_ref, access_floor;
	bool med_idle, contend;
	uint64_t access_gen;
	int64_t access_at;
	/* reception */
	double pwr_mw;			/* total power arriving */
	struct aq_tx *rx_tx;		/* the frame locked onto */
	int64_t rx_hdr_end;		/* its PHY header complete at */
	double rx_sig_mw, rx_interf_max_mw;
	bool rx_bad;
	uint64_t rx_hdr_lost;		/* locks lost in a PHY header */
	uint64_t eifs_set;		/* frames after which EIFS applied */
	uint32_t epoch;
	/* exchange in progress */
	int64_t exch_start;
	struct aq_tx *cur;		/* our DATA (or RTS-protected DATA) */
	bool resp_incoming, await_cts;
	uint64_t wait_gen;
	/* TXOP: its start, and the AC that continues it SIFS after an
	 * exchange that succeeded (txop_ac < 0: none pending) */
	int64_t txop_start;
	int txop_ac;

	/* stats */
	int64_t created, busy_ns, busy_since, tx_ns, rx_ns;
	int64_t *sta_airtime;		/* [AQ_MAX_RADIOS] ns toward each dst */
	uint64_t *sta_exch;		/* [AQ_MAX_RADIOS] exchanges toward each */
	uint64_t rx_frames, rx_errors, tx_responses;
	uint64_t rx_overheard;		/* overhear: others' unicast data delivered */
	uint64_t rx_scoped;		/* beacon_scope_bss: beacons not delivered */
	int bss;			/* "bss" group, 1..; 0: none */
	uint64_t frames_in;		/* frames the kernel gave for this radio */
	bool backlogged;
};

/* ---------------------------------------------------------------- links */

struct aq_link {
	double rx_dbm;		/* power at b from a */
	double mw;
	double ber;
	int64_t prop;		/* ns, propagation delay a -> b */
	bool set;		/* explicit (not from path loss) */
};

struct aq_channel {
	int model;		/* 0 log-distance, 1 snr matrix only */
	double pl0_db, d0_m, exponent;
	double noise_dbm, cca_dbm, tx_power_dbm;
	double ber;
	double default_snr_db;	/* snr model: pairs not listed */
};

/* ------------------------------------------------------------- events */

enum aq_ev_type {
	AQ_EV_ACCESS, AQ_EV_TX_BEGIN, AQ_EV_TX_END, AQ_EV_SIG_START,
	AQ_EV_SIG_END, AQ_EV_TIMEOUT, AQ_EV_NAV_END, AQ_EV_TIMER,
	AQ_EV_TXOP,
	/* prop_pos: a signal's starts (gen 0) or ends (gen 1) at its
	 * receivers, from the one at tx->fan_pos[gen] on (tx_fan()) */
	AQ_EV_SIG_FAN,
	/* prop_pos, per_rx_events: a signal's start and end at one
	 * receiver; without them, its end when nobody received it (-1) */
	AQ_EV_SIG_START_RX, AQ_EV_SIG_END_RX,
};

struct aq_event {
	int64_t t;
	uint64_t seq;
	uint8_t type;
	int radio;
	uint64_t gen;
	struct aq_tx *tx;
};

struct aq_medium;

struct aq_ops {
	/* a frame's final status; the core frees the frame afterwards */
	void (*tx_status)(struct aq_medium *m, struct aq_frame *f, bool acked);
	/* a frame received by radio rx */
	void (*deliver)(struct aq_medium *m, struct aq_frame *f, int rx,
			double signal_dbm, const struct aq_rate *rate,
			int64_t airtime);
	/* AQ_EV_TIMER fired (sim traffic generators) */
	void (*timer)(struct aq_medium *m, int arg, uint64_t gen);
	void *priv;
};

struct aq_global_stats {
	uint64_t events, transmissions, frames_in, unknown_radio_frames;
	uint64_t unknown_msgs, bad_msgs, dropped_dead_radio, nl_errors;
	uint64_t same_slot_collisions;
	uint64_t kern_err_frame, kern_err_txinfo, nl_rx_overflows;
	int64_t max_late_ns;
	uint64_t late_events;
	/* time the medium was over 1 ms behind its own events (the union of
	 * those intervals; behind_until: the end of the last counted) */
	int64_t behind_ns, behind_until;
	int64_t contend_area;		/* integral of contending radios, ns */
	int64_t contend_since;
	unsigned int contending;
	uint64_t contend_hist_ns[AQ_MAX_RADIOS + 1];
};

struct aq_medium {
	struct aq_phy phy;
	struct aq_channel chan;
	struct aq_radio radio[AQ_MAX_RADIOS];
	unsigned int n_radios;		/* slots used (some may be !present) */
	struct aq_link link[AQ_MAX_RADIOS][AQ_MAX_RADIOS];
	int64_t now;
	int64_t t0;
	struct aq_event *heap;
	unsigned int heap_len, heap_cap;
	uint64_t seq;
	int64_t until;			/* aq_run_until()'s bound */
	double thr_memo_db, thr_memo_lin;	/* sinr_at_least()'s last */
	/* prop_pos: each source's receivers in arrival order, valid while
	 * their gen is fan_gen (links and radios unchanged) */
	struct aq_fan *fan[AQ_MAX_RADIOS];
	uint64_t fan_gen;
	/* prop_pos: two heap events per receiver, as before tx_fan(); the
	 * reference the unit tests compare tx_fan() with */
	bool per_rx_events;
	uint64_t heap_inserts;		/* events put into the heap */
	uint64_t rng[4];
	/* the draws for overheard copies: a stream of their own, so that
	 * overhear leaves every other draw as it was */
	uint64_t rng_ovh[4];
	struct aq_tx *tx_free;
	uint64_t tx_id;
	struct aq_tx *active[4 * AQ_MAX_RADIOS];
	unsigned int n_active;
	unsigned int default_edca[AQ_NUM_AC][3];	/* aifsn, cwmin, cwmax */
	int64_t default_txop[AQ_NUM_AC];		/* ns */
	struct aq_ops ops;
	FILE *trace;
	struct aq_global_stats st;
	int64_t last_tx_start;		/* for same-slot collision counting */
	int last_tx_src;
};

/* core.c */
void aq_init(struct aq_medium *m, const struct aq_phy *phy, uint64_t seed);
void aq_seed(struct aq_medium *m, uint64_t seed);
void aq_fini(struct aq_medium *m);
int aq_radio_add(struct aq_medium *m, const char *name, const uint8_t *addr);
void aq_radio_remove(struct aq_medium *m, int r);
void aq_radio_flush(struct aq_medium *m, int r);
void aq_set_clock(struct aq_medium *m, int64_t t);
int aq_radio_by_addr(struct aq_medium *m, const uint8_t *addr);
int aq_radio_by_name(struct aq_medium *m, const char *name);
int aq_radio_add_maddr(struct aq_medium *m, int r, const uint8_t *addr);
void aq_radio_del_maddr(struct aq_medium *m, int r, const uint8_t *addr);
void aq_radio_set_edca(struct aq_medium *m, int r, int ac, unsigned int aifsn,
		       unsigned int cwmin, unsigned int cwmax);
void aq_radio_set_txop(struct aq_medium *m, int r, int ac, int64_t txop_ns);
void aq_links_update(struct aq_medium *m);
void aq_link_set_snr(struct aq_medium *m, int a, int b, double snr_db);
int64_t aq_prop_delay(struct aq_medium *m, int a, int b);
struct aq_frame *aq_frame_alloc(void);
void aq_frame_free(struct aq_frame *f);
uint8_t aq_classify_l4(const uint8_t *d, unsigned int len);
void aq_enqueue(struct aq_medium *m, struct aq_frame *f);
int64_t aq_next_event_time(struct aq_medium *m);
void aq_run_until(struct aq_medium *m, int64_t t);
/* live mode: the medium acts at now on an event due at due (lateness) */
#define AQ_LATE_NS	(AQ_NS_PER_S / 1000)
void aq_note_lateness(struct aq_medium *m, int64_t now, int64_t due);
void aq_timer(struct aq_medium *m, int64_t t, int arg, uint64_t gen);
void aq_stats_flush(struct aq_medium *m);
uint64_t aq_rand(struct aq_medium *m);
double aq_randf(struct aq_medium *m);
int aq_rate_entry(const struct aq_frame *f);
unsigned int aq_total_tries(const struct aq_frame *f);
void aq_report_rates(const struct aq_frame *f, struct aq_txrate *out);
int aq_frame_rate(struct aq_medium *m, const struct aq_frame *f,
		  struct aq_rate *r);
int aq_ac_of_tid(unsigned int tid);

/* stats.c */
void aq_stats_json(struct aq_medium *m, FILE *out);

#endif /* AQ_MEDIUM_H */
