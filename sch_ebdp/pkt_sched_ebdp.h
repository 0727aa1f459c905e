/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Netlink interface of the eBDP qdisc (sch_ebdp), shared by the kernel
 * module and the tc plugin q_ebdp.so.  Written as a uapi header: it would
 * move into include/uapi/linux/pkt_sched.h if sch_ebdp went upstream.
 */
#ifndef _UAPI_PKT_SCHED_EBDP_H
#define _UAPI_PKT_SCHED_EBDP_H

#include <linux/types.h>

/* TCA_OPTIONS of "ebdp" */
enum {
	TCA_EBDP_UNSPEC,
	TCA_EBDP_TMAX,		/* u32, target queueing delay Tmax, us */
	TCA_EBDP_C,		/* u32, over-provisioning c, packets */
	TCA_EBDP_QMAX,		/* u32, upper limit Qmax, packets */
	TCA_EBDP_WEIGHT,	/* u32, EWMA weight W, 1/65536 units, (0, 1] */
	TCA_EBDP_MODE,		/* u8, enum tc_ebdp_mode */
	TCA_EBDP_ACKPRIO,	/* u8, 0 or 1: pure TCP ACKs ahead of data */
	TCA_EBDP_ACKLIMIT,	/* u32, ACK FIFO length, packets */
	TCA_EBDP_INTERVAL,	/* u32, ALT update interval, us */
	TCA_EBDP_QMIN,		/* u32, ALT lower limit, packets */
	TCA_EBDP_ALT_A,		/* u32, ALT growth a, packets per s idle */
	TCA_EBDP_ALT_B,		/* u32, ALT shrinkage b, packets per s busy */
	TCA_EBDP_RELEASE,	/* u32, TAP's release set, stations, 0: off */
	TCA_EBDP_QUANTUM,	/* u32, a station's turn in the set, us */
	__TCA_EBDP_MAX
};

#define TCA_EBDP_MAX	(__TCA_EBDP_MAX - 1)

/* 1 << TC_EBDP_WEIGHT_SHIFT is W = 1 */
#define TC_EBDP_WEIGHT_SHIFT	16

/* Ceilings of the values accepted (floors are 1 unless noted) */
#define TC_EBDP_TMAX_MAX	10000000	/* us (10 s) */
#define TC_EBDP_QMAX_MAX	65535		/* packets, also c, qmin */
#define TC_EBDP_ACKLIMIT_MAX	65535		/* packets */
#define TC_EBDP_INTERVAL_MIN	1000		/* us (1 ms) */
#define TC_EBDP_INTERVAL_MAX	60000000	/* us (60 s) */
#define TC_EBDP_ALT_COEF_MAX	100000		/* packets/s */
#define TC_EBDP_RELEASE_MAX	16		/* stations (floor 0: off) */
#define TC_EBDP_QUANTUM_MIN	1000		/* us (1 ms) */
#define TC_EBDP_QUANTUM_MAX	10000000	/* us (10 s) */

enum tc_ebdp_mode {
	TC_EBDP_MODE_EBDP,	/* Q = min(Tmax / Tserv + c, Qmax) */
	TC_EBDP_MODE_ALT,	/* q += a * T_I - b * T_B each interval */
	TC_EBDP_MODE_ASTAR,	/* A* = min(q_ALT, Q_eBDP) */
	__TC_EBDP_MODE_MAX
};

/* Where the service-time estimate Tserv comes from */
enum tc_ebdp_source {
	TC_EBDP_SRC_NONE,	/* no sample yet: Q_eBDP is Qmax */
	TC_EBDP_SRC_MAC80211,	/* per-frame MAC tx status (patched mac80211) */
	TC_EBDP_SRC_DEQUEUE,	/* dequeue spacing while backlogged */
	__TC_EBDP_SRC_MAX
};

#define TC_EBDP_XSTATS_VERSION	4

/*
 * TCA_STATS_APP of "ebdp".  Versioned: fields are only ever appended, the
 * version is bumped when they are, and readers use the fields that fit in
 * the attribute's length.
 */
struct tc_ebdp_xstats {
	__u32	version;	/* TC_EBDP_XSTATS_VERSION */
	__u32	source;		/* enum tc_ebdp_source in use */
	__u64	tserv_ns;	/* Tserv, ns */
	__u32	limit;		/* Q enforced now, packets */
	__u32	bdp_limit;	/* Q_eBDP, packets */
	__u32	alt_limit;	/* q_ALT, packets */
	__u32	data_qlen;	/* packets in the data FIFO */
	__u32	ack_qlen;	/* packets in the ACK FIFO */
	__u32	mac80211_bound;	/* 1 if registered for mac80211 feedback */
	__u64	drops_limit;	/* data packets dropped at Q (tail drop) */
	__u64	drops_ackq;	/* ACKs dropped: ACK FIFO full */
	__u64	drops_change;	/* dropped draining to a smaller limit */
	__u64	ack_packets;	/* packets served from the ACK FIFO */
	__u64	samples_mac80211; /* Tserv samples from MAC feedback */
	__u64	samples_dequeue; /* Tserv samples from dequeue spacing */
	/* version 2 */
	__u64	gso_split;	/* GSO packets queued as their segments */
	/* version 3 */
	__u64	data_tserv_ns;	/* the data FIFO's service time, ns: Tserv
				 * times the frames sent per data packet
				 * (ackprio's ACKs included)
				 */
	/* version 4 */
	__u32	ack_held;	/* ACKs held for stations outside the set */
	__u32	release_members; /* stations in the release set now */
	__u64	release_joins;	/* turns begun */
	__u64	release_unkeyed; /* ACKs sent at once: no station to key
				  * them by (no Ethernet header, or the
				  * station table full)
				  */
	__u64	hold_max_ns;	/* longest an ACK was held, ns */
};

#endif /* _UAPI_PKT_SCHED_EBDP_H */
