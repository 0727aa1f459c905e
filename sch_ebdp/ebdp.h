/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eBDP, ALT and A* buffer sizing: the algorithm, apart from the qdisc glue.
 *
 * Sources, and what has been checked against which (issue #19):
 *
 *  [ToN]  T. Li, D. Leith, D. Malone, "Buffer Sizing for 802.11-Based
 *         Networks", IEEE/ACM Trans. Networking 19(1), Feb. 2011,
 *         doi:10.1109/TNET.2010.2089992; preprint arXiv:1101.0562.
 *         The primary source of all three rules.
 *  [CNC]  T. Li, D. Leith, "Adaptive buffer sizing for TCP flows in
 *         802.11e WLANs", ChinaCom 2008, doi:10.1109/CHINACOM.2008.4684957.
 *  [IJCCT] C. V. Babu, P. Harini, "eBDP buffer sizing strategy 802.11 based
 *         WLANs", IJCCT 6(2), 2015, art. 14: a summary of [ToN]; the copy
 *         used here is ../shared/papers/ebdp-buffer-sizing.txt.
 *  [LUR]  C. M. Kellett, R. N. Shorten, D. J. Leith, "Sizing Internet
 *         router buffers, active queue management, and the Lur'e problem":
 *         an AQM that adapts a drop-tail buffer's size to hold a target
 *         link utilisation with the smallest buffer.
 *  [ADT]  R. Stanojevic, R. N. Shorten, C. M. Kellett, "Adaptive tuning of
 *         drop-tail buffers for reducing queueing delays", IEEE Commun.
 *         Lett. 10(7), 2006, doi:10.1109/LCOMM.2006.1673016: by a summary
 *         of it (not the paper), a multiplicative increase/decrease of the
 *         buffer driven by measured throughput against a target.
 *         [LUR] and [ADT] are earlier work of the kind ALT belongs to;
 *         which of them [ToN] builds ALT on was not checked.
 *  [CL08] T. Li, D. Leith, "Buffer sizing for TCP flows in 802.11e WLANs",
 *         IEEE Commun. Lett., March 2008, doi:10.1109/LCOMM.2008.071882.
 *
 * Where the body of [ToN] is: the arXiv preprint, and copies of it on the
 * web; the authors' NS-2 and MadWifi code was published on Tianji Li's
 * Hamilton Institute page (buffersizing.zip).  Neither is reachable from
 * this project's machines (checked 2026-11-28: every stored copy the
 * search tool returns stops after the introduction).
 *
 * Only the abstracts and front matter of [ToN], [CNC], [LUR], [ADT] and
 * [CL08] could be read through the project's search tool (no stored copy
 * reaches the body of [ToN]); the body text read is that of [IJCCT].  So:
 *
 * eBDP, checked against [IJCCT] (its algorithms 1 and 2, which follow
 * [ToN], and the text around them: ll. 105-173 of the copy):
 *
 *   Tserv(k+1) = (1 - W) * Tserv(k) + W * (te - ts)       (MAC, per ACK)
 *   Q_eBDP     = min(Tmax / Tserv + c, Qmax)               (per enqueue)
 *
 * ts is when a packet reaches the head of the interface queue (leaves the
 * qdisc), te when its MAC ACK arrives; Tserv is therefore the mean MAC
 * service time per packet and 1/Tserv the service rate, so Tmax/Tserv is
 * the bandwidth-delay product for a queueing delay of Tmax.  The paper
 * first states the rule without c and then adds c packets of
 * over-provisioning against short-term fluctuations of the service rate,
 * found empirically; c = 5 and Tmax = 200 ms are the values it uses.  A
 * packet arriving when the queue already holds Q_eBDP packets is dropped
 * (drop tail).  Qmax = 400 is the fixed buffer the paper compares against
 * (its throughput efficiency is relative to a 400-packet buffer); that it
 * is also the cap in the rule above is this implementation's reading.  W
 * is not given in [IJCCT] ("considered in detail later"); see
 * Documentation/networking/sch_ebdp.rst, "Choice of W".
 *
 * ALT and A*: NOT verified.  [IJCCT] names ALT only in a heading and A*
 * only in its results and conclusions; neither rule nor any constant is
 * in its text, and the search tool gave no access to [ToN] or [ADT]
 * beyond their abstracts.  What follows is the form this
 * implementation uses, from SPEC 2's recollection of [ToN]; section and
 * equation numbers of [ToN] are not cited because they could not be
 * checked.  At the end of each interval k,
 *
 *   q_ALT(k+1) = q_ALT(k) + a * T_I(k) - b * T_B(k),  clamped to [qmin, qmax]
 *
 * with T_I and T_B the time the buffer was idle (empty) and busy (non-empty)
 * in the interval.  Idle time means the link went unused, so the buffer
 * grows; busy time means a standing queue, so it shrinks.  In equilibrium
 * a * T_I = b * T_B, i.e. the buffer is busy a / (a + b) of the time (91%
 * for a = 10, b = 1).  [LUR] and [ADT] also regulate utilisation by
 * adapting a drop-tail buffer ([ADT] multiplicatively, from throughput, so
 * its form is not this one), but neither this form nor
 * a = 10, b = 1 (recalled, unverified), the 1 s interval, qmin = 5 and the
 * start at q_ALT = Qmax (this implementation's choices) are confirmed by a
 * source read; all are settable with tc.  A* combines both:
 *
 *   Q_A* = min(q_ALT, Q_eBDP)
 *
 * so that ALT can only shrink the buffer below the BDP, where statistical
 * multiplexing of many flows lets a smaller buffer keep the link busy.
 * Before relying on ALT or A* figures, check these against the ALT and A*
 * section of [ToN] and replace "unverified" here with its equation numbers.
 *
 * Units and fixed point (no floating point in the kernel):
 *  - times in microseconds (u32);
 *  - Tserv in microseconds << EBDP_FP_SHIFT (u64), so that small weights
 *    still move it: one update changes it by delta * W, which must not
 *    truncate to zero for the sub-microsecond deltas of a converged EWMA;
 *  - W as a fraction of EBDP_WEIGHT_ONE (1 << 16), in (0, EBDP_WEIGHT_ONE];
 *  - q_ALT in packets << EBDP_FP_SHIFT; a and b in packets per second of
 *    idle or busy time.
 *
 * This header is pure (no qdisc, skb or locking) so that the KUnit suite
 * ebdp_kunit.c can test it on any architecture, as include/net/codel.h is
 * kept apart from sch_codel.c.
 */
#ifndef _NET_SCHED_EBDP_H
#define _NET_SCHED_EBDP_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#define EBDP_FP_SHIFT		16
#define EBDP_WEIGHT_SHIFT	16
#define EBDP_WEIGHT_ONE		BIT(EBDP_WEIGHT_SHIFT)	/* W = 1 */

/*
 * Defaults (SPEC 2).  TMAX, C: [ToN] via [IJCCT]; QMAX: its fixed-buffer
 * baseline; WEIGHT: ours; QMIN, ALT_A, ALT_B, INTERVAL: unverified (above).
 */
#define EBDP_DEF_TMAX_US	(200 * USEC_PER_MSEC)	/* target delay */
#define EBDP_DEF_C		5			/* packets */
#define EBDP_DEF_QMAX		400			/* packets */
#define EBDP_DEF_WEIGHT		(EBDP_WEIGHT_ONE / 64)	/* W = 1/64, see doc */
#define EBDP_DEF_QMIN		5			/* packets (ALT floor) */
#define EBDP_DEF_ALT_A		10			/* packets/s idle */
#define EBDP_DEF_ALT_B		1			/* packets/s busy */
#define EBDP_DEF_INTERVAL_US	(1 * USEC_PER_SEC)	/* ALT interval */

/* Ceilings, documented in Documentation/networking/sch_ebdp.rst */
#define EBDP_TMAX_MAX_US	(10 * USEC_PER_SEC)
#define EBDP_QMAX_MAX		65535U			/* packets */
#define EBDP_ALT_COEF_MAX	100000U			/* packets/s */
#define EBDP_INTERVAL_MIN_US	(1 * USEC_PER_MSEC)
#define EBDP_INTERVAL_MAX_US	(60 * USEC_PER_SEC)

/*
 * A service-time sample above this is clamped: a frame that took longer
 * than 10 s is an outage, not a service time, and the clamp bounds every
 * product below (10^7 << 16 times 2^16 fits in 2^63).
 */
#define EBDP_SAMPLE_MAX_US	(10 * USEC_PER_SEC)

/* The dynamic limit never goes below one packet, or nothing is ever sent
 * again to produce the service-time samples that would raise it.
 */
#define EBDP_LIMIT_MIN		1U

enum ebdp_mode_internal {
	EBDP_M_EBDP,
	EBDP_M_ALT,
	EBDP_M_ASTAR,
};

/**
 * ebdp_tserv_update_fp() - fold one service-time sample into the EWMA
 * @tserv_fp: Tserv in us << EBDP_FP_SHIFT; 0 means "no sample yet"
 * @sample_fp: te - ts of one packet, in us << EBDP_FP_SHIFT
 * @weight: W in units of 1/EBDP_WEIGHT_ONE, 1..EBDP_WEIGHT_ONE
 *
 * Tserv(k+1) = (1 - W) * Tserv(k) + W * sample, computed as
 * Tserv + W * (sample - Tserv) on the magnitude of the difference so that
 * it rounds toward the old value the same way in both directions.  The
 * first sample seeds the average (instead of decaying up from 0, which
 * would size the buffer to Qmax for the first ~1/W packets).  Samples
 * above EBDP_SAMPLE_MAX_US are clamped to it.
 *
 * Return: the new Tserv in us << EBDP_FP_SHIFT, never 0.
 */
static inline u64 ebdp_tserv_update_fp(u64 tserv_fp, u64 sample_fp,
				       u32 weight)
{
	u64 s = min_t(u64, sample_fp, (u64)EBDP_SAMPLE_MAX_US << EBDP_FP_SHIFT);

	weight = min_t(u32, weight, EBDP_WEIGHT_ONE);
	if (!tserv_fp)
		return s ? s : 1;	/* 1: a sample of 0 us still counts */
	if (s >= tserv_fp)
		return tserv_fp + (((s - tserv_fp) * weight) >> EBDP_WEIGHT_SHIFT);
	tserv_fp -= ((tserv_fp - s) * weight) >> EBDP_WEIGHT_SHIFT;
	return tserv_fp ? tserv_fp : 1;
}

/* The same with a sample in whole microseconds (mac80211 feedback). */
static inline u64 ebdp_tserv_update(u64 tserv_fp, u32 sample_us, u32 weight)
{
	return ebdp_tserv_update_fp(tserv_fp, (u64)sample_us << EBDP_FP_SHIFT,
				    weight);
}

/* A sample in nanoseconds (dequeue spacing) as us << EBDP_FP_SHIFT. */
static inline u64 ebdp_ns_to_fp(u64 ns)
{
	ns = min_t(u64, ns, (u64)EBDP_SAMPLE_MAX_US * NSEC_PER_USEC);
	return div_u64(ns << EBDP_FP_SHIFT, NSEC_PER_USEC);
}

/**
 * ebdp_bdp_limit() - Q_eBDP = min(Tmax / Tserv + c, Qmax)
 * @tmax_us: target queueing delay Tmax
 * @tserv_fp: Tserv in us << EBDP_FP_SHIFT, 0 if not yet measured
 * @c: over-provisioning in packets
 * @qmax: upper limit in packets
 *
 * Without a measurement (Tserv 0) the buffer is the paper's fixed
 * baseline, Qmax.  Tmax / Tserv is rounded down.
 *
 * Return: the limit in packets, in [EBDP_LIMIT_MIN, max(qmax, 1)].
 */
static inline u32 ebdp_bdp_limit(u32 tmax_us, u64 tserv_fp, u32 c, u32 qmax)
{
	u64 q;

	if (!tserv_fp)
		return max(qmax, EBDP_LIMIT_MIN);
	q = div64_u64((u64)tmax_us << EBDP_FP_SHIFT, tserv_fp) + c;
	return clamp_t(u64, q, EBDP_LIMIT_MIN, max(qmax, EBDP_LIMIT_MIN));
}

/*
 * Frames per data packet under ackprio: 1 plus the ACKs served between two
 * data packets while data waits, at most 1 + EBDP_ACK_BURST.  The cap
 * bounds the product below (10^7 << 16 times 8 << 16 fits in 2^63).
 */
#define EBDP_FRAMES_MAX		8U

/**
 * ebdp_data_tserv_fp() - the data FIFO's service interval under ackprio
 * @tserv_fp: Tserv, the mean service time of any frame, us << EBDP_FP_SHIFT
 * @frames_fp: the mean number of frames sent per data packet while data
 *	waits (1 + the ACKs served ahead of it), << EBDP_FP_SHIFT; values
 *	below one (0: not measured) count as one
 *
 * Tserv is measured over every frame the qdisc sends.  With ackprio a data
 * packet waits for the data ahead of it and for the ACKs served between
 * them, so the data FIFO drains one packet every Tserv * frames: its
 * mean service time, whatever the ACKs' own airtime, since Tserv already
 * averages data and ACK frames in the proportion they are sent.  Sizing
 * the data FIFO with it, Q = Tmax / (Tserv * frames) + c, keeps the data's
 * queueing delay at Tmax; with Tserv alone it is Tmax * frames.
 *
 * Return: Tserv * frames in us << EBDP_FP_SHIFT.
 */
static inline u64 ebdp_data_tserv_fp(u64 tserv_fp, u64 frames_fp)
{
	if (frames_fp <= BIT_ULL(EBDP_FP_SHIFT))
		return tserv_fp;
	frames_fp = min_t(u64, frames_fp, (u64)EBDP_FRAMES_MAX << EBDP_FP_SHIFT);
	tserv_fp = min_t(u64, tserv_fp,
			 (u64)EBDP_SAMPLE_MAX_US << EBDP_FP_SHIFT);
	return (tserv_fp * frames_fp) >> EBDP_FP_SHIFT;
}

/**
 * ebdp_alt_update() - one ALT step, q + a * T_I - b * T_B
 * @q_fp: q_ALT in packets << EBDP_FP_SHIFT
 * @idle_us: T_I, time the buffer was empty during the interval
 * @busy_us: T_B, time the buffer was not empty during the interval
 * @a: growth per second of idle time, packets/s
 * @b: shrinkage per second of busy time, packets/s
 * @qmin: lower clamp, packets
 * @qmax: upper clamp, packets
 *
 * Return: the new q_ALT in packets << EBDP_FP_SHIFT.
 */
static inline u64 ebdp_alt_update(u64 q_fp, u64 idle_us, u64 busy_us,
				  u32 a, u32 b, u32 qmin, u32 qmax)
{
	/* Clamp the times so that a * t << 16 stays below 2^63. */
	u64 lim = 1000ULL * USEC_PER_SEC;
	u64 up = div_u64((u64)a * min(idle_us, lim) << EBDP_FP_SHIFT,
			 USEC_PER_SEC);
	u64 down = div_u64((u64)b * min(busy_us, lim) << EBDP_FP_SHIFT,
			   USEC_PER_SEC);
	u64 lo = (u64)qmin << EBDP_FP_SHIFT;
	u64 hi = (u64)max(qmax, qmin) << EBDP_FP_SHIFT;

	q_fp = q_fp + up;
	q_fp = q_fp > down ? q_fp - down : 0;
	return clamp(q_fp, lo, hi);
}

/* q_ALT in whole packets, at least EBDP_LIMIT_MIN. */
static inline u32 ebdp_alt_limit(u64 q_fp)
{
	return max_t(u32, q_fp >> EBDP_FP_SHIFT, EBDP_LIMIT_MIN);
}

/**
 * ebdp_limit() - the limit the qdisc enforces in a given mode
 * @mode: enum ebdp_mode_internal
 * @bdp_limit: ebdp_bdp_limit()
 * @alt_limit: ebdp_alt_limit()
 *
 * Return: Q_eBDP, q_ALT, or A* = min(q_ALT, Q_eBDP).
 */
static inline u32 ebdp_limit(unsigned int mode, u32 bdp_limit, u32 alt_limit)
{
	switch (mode) {
	case EBDP_M_ALT:
		return alt_limit;
	case EBDP_M_ASTAR:
		return min(alt_limit, bdp_limit);
	default:
		return bdp_limit;
	}
}

/* Tserv in whole nanoseconds, for statistics. */
static inline u64 ebdp_tserv_ns(u64 tserv_fp)
{
	return (tserv_fp * NSEC_PER_USEC) >> EBDP_FP_SHIFT;
}

#endif /* _NET_SCHED_EBDP_H */
