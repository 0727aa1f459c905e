// SPDX-License-Identifier: GPL-2.0
/*
 * sch_ebdp: drop-tail queue sized by eBDP, ALT or A* (Li, Leith, Malone,
 * "Buffer sizing for 802.11 based networks", IEEE/ACM ToN 2011).
 *
 * The limit of the queue follows the bandwidth-delay product of the link
 * as the MAC currently serves it: Q = min(Tmax / Tserv + c, Qmax), with
 * Tserv an EWMA of the per-packet service time.  The algorithm is in
 * ebdp.h; this file is the qdisc around it:
 *
 *  - two FIFOs: data, and (with "ackprio") pure TCP ACKs, served first
 *    but for one data packet after every EBDP_ACK_BURST ACKs while data
 *    waits; the data FIFO's Q then uses its own service time, Tserv times
 *    the frames sent per data packet (ebdp_data_tserv_fp());
 *  - Tserv from MAC tx status when a patched mac80211 offers it
 *    (include/net/mac80211_feedback.h, bound at run time with symbol_get()
 *    so that the module has no dependency on mac80211), otherwise from the
 *    spacing of dequeues while the queue stays backlogged, which measures
 *    the service time of whatever drains the queue (a NIC, a shaper);
 *  - ALT's idle/busy accounting on every enqueue and dequeue (alt and
 *    astar modes only);
 *  - with "release N" (TAP, ebdp_release.h), the ACK FIFO serves the ACKs
 *    of N stations at a time, keyed by the Ethernet destination, and holds
 *    the others' until their turn (a watchdog ends turns when nothing else
 *    would dequeue).
 *
 * Locking: the FIFOs, ALT state and parameters other than those of the
 * estimator are under the qdisc root lock.  The estimator (Tserv, the
 * eBDP limit it yields, and the parameters it uses) is under est_lock,
 * because mac80211 feedback arrives from tx status on any CPU, without the
 * qdisc lock; enqueue reads the resulting limit with READ_ONCE().  The
 * feedback contract (include/net/mac80211_feedback.h) calls ->tx_status()
 * with bottom halves disabled, as dequeue runs: both take est_lock with
 * spin_lock(); process context (change, dump) with spin_lock_bh().
 *
 * MAC feedback is taken only by the qdisc of the netdev tx queue the frame
 * left: the device's root, or a child of mq.  An ebdp below a classful
 * parent shares its tx queue with its siblings and cannot tell their
 * frames from its own: it measures the dequeue spacing its parent gives
 * it, which is its service there.
 */
#include <linux/completion.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/gso.h>
#include <net/mac80211_feedback.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include "ebdp.h"
#include "ebdp_release.h"
#include "pkt_sched_ebdp.h"

/* MAC feedback newer than this wins over the dequeue-spacing estimate. */
#define EBDP_MAC_FRESH_NS	(1 * NSEC_PER_SEC)

#define EBDP_DEF_ACKLIMIT	64	/* packets in the ACK FIFO */

/*
 * With release, the ACK FIFO also holds the ACKs of the stations waiting
 * for their turn: about half a window each with delayed ACKs.  This
 * default holds 64 stations' 32.
 */
#define EBDP_DEF_ACKLIMIT_RELEASE	2048	/* packets */

#define EBDP_REL_SLOTS		64	/* stations release keeps apart */
#define EBDP_DEF_QUANTUM_US	(100 * USEC_PER_MSEC)	/* a turn */

/*
 * No ACK is held longer than this (ebdp_release.h): below Linux's 200 ms
 * floor of the retransmission timeout by the 50 ms of a long path's RTT,
 * so that holding a station's ACKs never makes its sender time out.
 */
#define EBDP_REL_HOLD_MAX_NS	(150 * NSEC_PER_MSEC)

/*
 * ackprio serves at most this many ACKs in a row while data waits, then one
 * data packet.  Strict priority starved the data for as long as ACKs came
 * faster than the device sent (16 s at 802.11g with five uploads, results
 * suite).  The paper's ACK class is an EDCA access category: with 802.11's
 * default EDCA the AP's AC_VO waits AIFSN 2 + CWmin 3 / 2 = 3.5 slots on
 * average before an access, its AC_BE 3 + 15 / 2 = 10.5, so when both are
 * backlogged VO wins about three accesses for each of BE's.
 */
#define EBDP_ACK_BURST		3	/* ACKs per data packet, both backlogged */

/* A-MPDUs being summed at once, one per receiver and TID (see below) */
#define EBDP_AMPDU_ACCS		8

/* The subframes of one A-MPDU reported so far, for one receiver and TID */
struct ebdp_ampdu_acc {
	u8 addr[ETH_ALEN];
	u8 tid;
	u8 len;			/* the aggregate's ampdu_len, 0: slot free */
	u8 seen;		/* subframes reported */
	u8 acked;		/* of which acknowledged */
	u64 done_ns;		/* the aggregate's completion */
	u64 sum_ns;		/* service time summed over its subframes */
};

/* One station of the release table: its held ACKs */
struct ebdp_rel_slot {
	struct qdisc_skb_head held;
};

struct ebdp_sched_data {
	/* under the qdisc lock */
	struct qdisc_skb_head dataq;
	struct qdisc_skb_head ackq;	/* ACKs to send (released) */
	u8 mode;		/* enum tc_ebdp_mode */
	u8 ackprio;
	u8 deq_backlogged;	/* queue non-empty after the last dequeue */
	u8 ack_run;		/* ACKs sent in a row while data waited */
	u32 acklimit;
	u32 qmin;
	u32 alt_a;
	u32 alt_b;
	u32 interval_us;
	u64 last_deq_ns;
	u64 alt_q_fp;		/* q_ALT, packets << EBDP_FP_SHIFT */
	u64 alt_last_ns;	/* last idle/busy accounting */
	u64 alt_start_ns;	/* start of the current ALT interval */
	u64 alt_idle_ns;
	u64 alt_busy_ns;
	u32 cur_limit;		/* Q used by the last enqueue */
	u64 drops_limit;
	u64 drops_ackq;
	u64 drops_change;
	u64 ack_packets;
	u64 gso_split;		/* GSO packets split into MAC frames */

	/* TAP's release (ebdp_release.h), under the qdisc lock */
	u32 release;		/* size of the release set, 0: off */
	u32 quantum_us;
	u32 ack_held;		/* ACKs in the slots' held lists */
	u32 rel_members;
	u64 rel_joins;
	u64 rel_unkeyed;
	u64 hold_max_ns;
	u64 rel_next_ns;	/* with the set full, no turn ends before (0: ask) */
	struct qdisc_watchdog watchdog;
	struct ebdp_rel_sta rel_sta[EBDP_REL_SLOTS];
	struct ebdp_rel_slot rel_slot[EBDP_REL_SLOTS];

	/* estimator, under est_lock */
	spinlock_t est_lock;
	u32 tmax_us;
	u32 c;
	u32 qmax;
	u32 weight;
	u64 tserv_fp;
	u64 frames_fp;		/* EWMA of frames per data packet << FP, 0: none */
	u32 bdp_limit;		/* also read locklessly by enqueue */
	u8 source;		/* enum tc_ebdp_source */
	u64 last_mac_ns;
	u64 samples_mac;
	u64 samples_deq;
	u64 fb_last_done_ns;	/* latest completion reported on the queue */
	struct ebdp_ampdu_acc fb_acc[EBDP_AMPDU_ACCS];
	u32 fb_acc_next;	/* the slot to reuse when none is free */

	struct Qdisc *sch;
	struct net_device *dev;
	struct list_head fb_node;	/* ebdp_instances, RCU */
};

/* Instances, for mac80211 feedback to find the ones on its device. */
static LIST_HEAD(ebdp_instances);
static DEFINE_SPINLOCK(ebdp_instances_lock);

/* ------------------------------------------------------------------ */
/* Service-time estimate                                               */

/*
 * Q_eBDP of the data FIFO; caller holds est_lock.  With ackprio the data
 * drains at one packet per Tserv * frames (ebdp_data_tserv_fp()).
 */
static void ebdp_set_bdp_limit(struct ebdp_sched_data *q)
{
	u64 t = ebdp_data_tserv_fp(q->tserv_fp, READ_ONCE(q->frames_fp));

	WRITE_ONCE(q->bdp_limit, ebdp_bdp_limit(q->tmax_us, t, q->c, q->qmax));
}

/* Fold a sample in; caller holds est_lock. */
static void ebdp_est_sample(struct ebdp_sched_data *q, u64 sample_fp)
{
	q->tserv_fp = ebdp_tserv_update_fp(q->tserv_fp, sample_fp, q->weight);
	ebdp_set_bdp_limit(q);
}

/* Dequeue spacing: the time between two dequeues while backlogged. */
static void ebdp_est_dequeue(struct ebdp_sched_data *q, u64 now)
{
	if (q->deq_backlogged && q->last_deq_ns) {
		spin_lock(&q->est_lock);
		if (!q->last_mac_ns || now - q->last_mac_ns > EBDP_MAC_FRESH_NS) {
			ebdp_est_sample(q, ebdp_ns_to_fp(now - q->last_deq_ns));
			q->source = TC_EBDP_SRC_DEQUEUE;
			q->samples_deq++;
		}
		spin_unlock(&q->est_lock);
	}
	q->last_deq_ns = now;
}

/* ------------------------------------------------------------------ */
/* mac80211 feedback, bound at run time                                */

/* Fold an A-MPDU's acknowledged subframes in; caller holds est_lock. */
static u32 ebdp_ampdu_close(struct ebdp_sched_data *q,
			    struct ebdp_ampdu_acc *a)
{
	u64 mean_fp = ebdp_ns_to_fp(div_u64(a->sum_ns, a->len));
	u32 i, n = a->acked;

	for (i = 0; i < n; i++)
		ebdp_est_sample(q, mean_fp);
	a->len = 0;
	return n;
}

/*
 * Service time from MAC feedback.  The paper's t_s is when the packet
 * reaches the head of the interface queue, i.e. starts service;
 * mac80211's enqueue_ns is when it left the qdisc.  Under backpressure
 * mac80211 and the driver hold up to "depth" frames, so done_ns -
 * enqueue_ns (fb->service_us) is the sojourn behind them, not the service
 * time, and would size the queue to Tmax over the whole depth.  As for a
 * FIFO server, a frame starts service when it was handed over or when the
 * frame before it completed, whichever is later:
 *
 *   t_s = max(enqueue_ns, done_ns of the previous completion)
 *
 * Every completion moves the previous-completion time; only acknowledged
 * frames are samples (the paper's algorithm 2).
 *
 * The subframes of an A-MPDU complete together (one done_ns): the first
 * one reported carries the whole exchange and the others almost nothing.
 * When the report gives the aggregate's size (ampdu_len > 1, the same in
 * every subframe's report), the subframes' times are summed, per receiver
 * and TID since aggregates of several stations and TIDs can be reported
 * interleaved, until all ampdu_len were reported or a report of the same
 * receiver and TID with another completion time shows that the rest will
 * not come (subframes a Block Ack missed go out again in a later
 * aggregate).  Each acknowledged subframe then counts the sum divided by
 * ampdu_len (SPEC 2: the aggregate's time divided by its subframes).
 * Without the size (ampdu_len 0: mac80211's own status path) each
 * subframe counts on its own, the first the exchange and the others 0:
 * the same mean, noisier.
 *
 * Caller holds est_lock.  Return: the number of samples folded in.
 */
static u32 ebdp_fb_sample(struct ebdp_sched_data *q,
			  const struct ieee80211_tx_feedback *fb)
{
	u64 start = max(fb->enqueue_ns, q->fb_last_done_ns);
	u64 t = fb->done_ns > start ? fb->done_ns - start : 0;
	bool acked = fb->flags & IEEE80211_TXFB_ACKED;
	struct ebdp_ampdu_acc *a = NULL, *free = NULL;
	u32 n = 0, i;

	q->fb_last_done_ns = max(q->fb_last_done_ns, fb->done_ns);
	if (fb->flags & IEEE80211_TXFB_NO_ENQUEUE_TIME)
		return 0;

	if (!(fb->flags & IEEE80211_TXFB_AMPDU) || fb->ampdu_len <= 1) {
		if (!acked)
			return 0;
		ebdp_est_sample(q, ebdp_ns_to_fp(t));
		return 1;
	}

	for (i = 0; i < EBDP_AMPDU_ACCS; i++) {
		struct ebdp_ampdu_acc *e = &q->fb_acc[i];

		if (!e->len) {
			free = free ?: e;
		} else if (e->tid == fb->tid &&
			   ether_addr_equal(e->addr, fb->sta_addr)) {
			a = e;
			break;
		}
	}
	if (a && a->done_ns != fb->done_ns)
		n += ebdp_ampdu_close(q, a);	/* the rest went out later */
	if (!a || !a->len) {
		if (!a && !free) {
			/* more flows than slots: close one, round robin */
			free = &q->fb_acc[q->fb_acc_next];
			q->fb_acc_next = (q->fb_acc_next + 1) % EBDP_AMPDU_ACCS;
			n += ebdp_ampdu_close(q, free);
		}
		a = a ?: free;
		ether_addr_copy(a->addr, fb->sta_addr);
		a->tid = fb->tid;
		a->len = fb->ampdu_len;
		a->seen = 0;
		a->acked = 0;
		a->done_ns = fb->done_ns;
		a->sum_ns = 0;
	}
	a->sum_ns += t;
	a->seen++;
	if (acked)
		a->acked++;
	if (a->seen >= a->len)
		n += ebdp_ampdu_close(q, a);
	return n;
}

/*
 * Is @fb about a frame this qdisc held?  It left the netdev tx queue
 * fb->queue, whose qdisc is this one (the root, or a child of mq) or an
 * ancestor of it; only in the first case is every frame of that queue one
 * of ours.
 */
static bool ebdp_fb_mine(const struct ebdp_sched_data *q,
			 const struct ieee80211_tx_feedback *fb)
{
	struct net_device *dev = q->dev;
	struct netdev_queue *txq;

	if (fb->dev != dev || fb->queue >= dev->real_num_tx_queues)
		return false;
	txq = netdev_get_tx_queue(dev, fb->queue);
	return rcu_access_pointer(txq->qdisc_sleeping) == q->sch;
}

static void ebdp_fb_tx_status(const struct ieee80211_tx_feedback *fb)
{
	struct ebdp_sched_data *q;
	u32 n;

	lockdep_assert_in_softirq();
	list_for_each_entry_rcu(q, &ebdp_instances, fb_node) {
		if (!ebdp_fb_mine(q, fb))
			continue;
		spin_lock(&q->est_lock);
		n = ebdp_fb_sample(q, fb);
		if (n) {
			q->source = TC_EBDP_SRC_MAC80211;
			q->last_mac_ns = ktime_get_ns();
			q->samples_mac += n;
		}
		spin_unlock(&q->est_lock);
	}
}

static bool ebdp_fb_bound;
static DEFINE_MUTEX(ebdp_fb_mutex);
static DECLARE_COMPLETION(ebdp_fb_detached);

static void ebdp_fb_detach(struct net_device *dev)
{
	/* Per-device detach needs nothing: samples for it just stop. */
	if (dev)
		return;
	WRITE_ONCE(ebdp_fb_bound, false);
	complete(&ebdp_fb_detached);
}

static struct ieee80211_feedback_ops ebdp_fb_ops = {
	.api_version	= IEEE80211_FEEDBACK_API_VERSION,
	.name		= "sch_ebdp",
	.tx_status	= ebdp_fb_tx_status,
	.detach		= ebdp_fb_detach,
};

static void ebdp_fb_bind(void)
{
	int (*reg)(struct ieee80211_feedback_ops *ops);
	int err;

	mutex_lock(&ebdp_fb_mutex);
	if (READ_ONCE(ebdp_fb_bound))
		goto out;
	reg = symbol_get(ieee80211_feedback_register);
	if (!reg)
		goto out;	/* no (patched) mac80211: dequeue spacing */
	reinit_completion(&ebdp_fb_detached);
	err = reg(&ebdp_fb_ops);
	symbol_put(ieee80211_feedback_register);
	if (err)
		pr_info("sch_ebdp: mac80211 feedback refused (%d), using dequeue spacing\n",
			err);
	else
		WRITE_ONCE(ebdp_fb_bound, true);
out:
	mutex_unlock(&ebdp_fb_mutex);
}

static void ebdp_fb_unbind(void)
{
	void (*unreg)(struct ieee80211_feedback_ops *ops);
	bool wait = false;

	mutex_lock(&ebdp_fb_mutex);
	if (READ_ONCE(ebdp_fb_bound)) {
		unreg = symbol_get(ieee80211_feedback_unregister);
		if (unreg) {
			unreg(&ebdp_fb_ops);
			symbol_put(ieee80211_feedback_unregister);
			WRITE_ONCE(ebdp_fb_bound, false);
		} else {
			/* mac80211 is going away and will call ->detach() */
			wait = true;
		}
	}
	mutex_unlock(&ebdp_fb_mutex);
	if (wait)
		wait_for_completion(&ebdp_fb_detached);
}

static int ebdp_module_notify(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	struct module *mod = data;

	if (action == MODULE_STATE_LIVE && !strcmp(mod->name, "mac80211"))
		ebdp_fb_bind();
	return NOTIFY_DONE;
}

static struct notifier_block ebdp_module_nb = {
	.notifier_call = ebdp_module_notify,
};

/* ------------------------------------------------------------------ */
/* Classification: pure TCP ACKs                                       */

/* ACK set, no SYN/FIN/RST, no payload; IPv4 or IPv6, not fragmented. */
static bool ebdp_is_pure_ack(struct sk_buff *skb)
{
	int noff = skb_network_offset(skb);
	struct tcphdr _th;
	const struct tcphdr *th;
	unsigned int l4len;
	int thoff;

	if (skb_is_gso(skb))
		return false;

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP): {
		struct iphdr _iph;
		const struct iphdr *iph;

		iph = skb_header_pointer(skb, noff, sizeof(_iph), &_iph);
		if (!iph || iph->ihl < 5 || iph->protocol != IPPROTO_TCP ||
		    ip_is_fragment(iph) || ntohs(iph->tot_len) < iph->ihl * 4)
			return false;
		thoff = noff + iph->ihl * 4;
		l4len = ntohs(iph->tot_len) - iph->ihl * 4;
		break;
	}
	case htons(ETH_P_IPV6): {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h;
		__be16 frag_off;
		u8 nexthdr;

		ip6h = skb_header_pointer(skb, noff, sizeof(_ip6h), &_ip6h);
		if (!ip6h)
			return false;
		nexthdr = ip6h->nexthdr;
		thoff = ipv6_skip_exthdr(skb, noff + sizeof(*ip6h), &nexthdr,
					 &frag_off);
		if (thoff < 0 || nexthdr != IPPROTO_TCP || frag_off ||
		    thoff - noff > ntohs(ip6h->payload_len) + sizeof(*ip6h))
			return false;
		l4len = ntohs(ip6h->payload_len) + sizeof(*ip6h) -
			(thoff - noff);
		break;
	}
	default:
		return false;
	}

	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th)
		return false;
	return th->ack && !th->syn && !th->fin && !th->rst &&
	       l4len == th->doff * 4;
}

/* ------------------------------------------------------------------ */
/* ALT: idle/busy accounting and the update at the end of an interval  */

/* Call before the queue length changes, with the length it had until now. */
static void ebdp_alt_account(struct ebdp_sched_data *q, struct Qdisc *sch,
			     u64 now)
{
	u64 d = now - q->alt_last_ns;

	/* ACKs held for their turn (release) keep no server busy */
	if (sch->q.qlen > q->ack_held)
		q->alt_busy_ns += d;
	else
		q->alt_idle_ns += d;
	q->alt_last_ns = now;

	if (now - q->alt_start_ns < (u64)q->interval_us * NSEC_PER_USEC)
		return;
	q->alt_q_fp = ebdp_alt_update(q->alt_q_fp,
				      div_u64(q->alt_idle_ns, NSEC_PER_USEC),
				      div_u64(q->alt_busy_ns, NSEC_PER_USEC),
				      q->alt_a, q->alt_b, q->qmin,
				      READ_ONCE(q->qmax));
	q->alt_idle_ns = 0;
	q->alt_busy_ns = 0;
	q->alt_start_ns = now;
}

static u32 ebdp_cur_limit(const struct ebdp_sched_data *q)
{
	return ebdp_limit(q->mode, READ_ONCE(q->bdp_limit),
			  ebdp_alt_limit(q->alt_q_fp));
}

/* ------------------------------------------------------------------ */
/* TAP's release of ACKs (ebdp_release.h)                              */

/*
 * The station of an ACK: its Ethernet destination, at an AP the station
 * it goes to.  Return: its slot (ebdp_rel_probe(), a new station's
 * claimed), -1 if the ACK has no Ethernet header or no slot is free.
 */
static int ebdp_rel_slot_of(struct ebdp_sched_data *q, struct sk_buff *skb)
{
	const u8 *addr;
	bool new;
	int k;

	if (q->dev->type != ARPHRD_ETHER || !skb_mac_header_was_set(skb) ||
	    skb_mac_header_len(skb) < ETH_HLEN)
		return -1;
	addr = eth_hdr(skb)->h_dest;
	k = ebdp_rel_probe(q->rel_sta, EBDP_REL_SLOTS,
			   jhash(addr, ETH_ALEN, 0) % EBDP_REL_SLOTS, addr, &new);
	if (k >= 0 && new) {
		q->rel_sta[k] = (struct ebdp_rel_sta){ .used = true };
		ether_addr_copy(q->rel_sta[k].addr, addr);
	}
	return k;
}

/* @k's turn begins: its held ACKs join the ACK FIFO's tail. */
static void ebdp_rel_join(struct ebdp_sched_data *q, int k, u64 now)
{
	struct ebdp_rel_slot *slot = &q->rel_slot[k];
	struct ebdp_rel_sta *st = &q->rel_sta[k];

	if (st->held_since_ns)
		q->hold_max_ns = max(q->hold_max_ns, now - st->held_since_ns);
	if (slot->held.qlen) {
		if (q->ackq.tail)
			q->ackq.tail->next = slot->held.head;
		else
			q->ackq.head = slot->held.head;
		q->ackq.tail = slot->held.tail;
		q->ackq.qlen += slot->held.qlen;
		q->ack_held -= slot->held.qlen;
		slot->held.head = NULL;
		slot->held.tail = NULL;
		slot->held.qlen = 0;
	}
	st->held_since_ns = 0;
	st->member = true;
	st->joined_ns = now;
	q->rel_members++;
	q->rel_joins++;
}

/*
 * Turns end and begin as ebdp_release.h says, at @now.  With the set full,
 * nothing changes before the time ebdp_rel_next_turn_end() gave last (a
 * newly held ACK is no older than those it finds waiting), so until then
 * the table is not scanned.
 */
static void ebdp_rel_rotate(struct ebdp_sched_data *q, u64 now)
{
	u64 quantum_ns = (u64)q->quantum_us * NSEC_PER_USEC;
	int in, out;

	if (q->rel_members >= q->release && now < q->rel_next_ns)
		return;
	while (q->ack_held) {
		in = ebdp_rel_turn(q->rel_sta, EBDP_REL_SLOTS, q->release,
				   q->rel_members, now, quantum_ns,
				   EBDP_REL_HOLD_MAX_NS, &out);
		if (in < 0)
			break;
		if (out >= 0) {
			q->rel_sta[out].member = false;
			q->rel_members--;
		}
		ebdp_rel_join(q, in, now);
	}
	q->rel_next_ns = q->ack_held ?
		ebdp_rel_next_turn_end(q->rel_sta, EBDP_REL_SLOTS, quantum_ns,
				       EBDP_REL_HOLD_MAX_NS) : 0;
}

/*
 * Before the ACK FIFO is looked at: the turns over by now end.  If it is
 * still empty while ACKs are held, the watchdog looks again when the first
 * turn ends, as nothing else might dequeue before then.
 */
static void ebdp_rel_poll(struct ebdp_sched_data *q)
{
	if (!q->ack_held)
		return;
	ebdp_rel_rotate(q, ktime_get_ns());
	if (q->ackq.head || q->dataq.head || !q->ack_held)
		return;
	if (q->rel_next_ns)
		qdisc_watchdog_schedule_ns(&q->watchdog, q->rel_next_ns);
}

/* Every turn ends and every held ACK joins the ACK FIFO (release off). */
static void ebdp_rel_flush(struct ebdp_sched_data *q, u64 now)
{
	int k;

	while ((k = ebdp_rel_next_in(q->rel_sta, EBDP_REL_SLOTS)) >= 0)
		ebdp_rel_join(q, k, now);
	memset(q->rel_sta, 0, sizeof(q->rel_sta));
	q->rel_members = 0;
	q->rel_next_ns = 0;
}

/* An ACK: to the ACK FIFO if its station has its turn, else held. */
static void ebdp_rel_enqueue(struct ebdp_sched_data *q, struct sk_buff *skb)
{
	int k = ebdp_rel_slot_of(q, skb);
	struct ebdp_rel_sta *st;
	u64 now;

	if (k < 0) {
		q->rel_unkeyed++;
		__qdisc_enqueue_tail(skb, &q->ackq);
		return;
	}
	st = &q->rel_sta[k];
	if (st->member) {
		__qdisc_enqueue_tail(skb, &q->ackq);
		return;
	}
	now = ktime_get_ns();
	if (!q->rel_slot[k].held.qlen)
		st->held_since_ns = now;
	__qdisc_enqueue_tail(skb, &q->rel_slot[k].held);
	q->ack_held++;
	ebdp_rel_rotate(q, now);
}

/* Free every held ACK and forget the stations (reset, destroy). */
static void ebdp_rel_reset(struct ebdp_sched_data *q)
{
	int k;

	for (k = 0; k < EBDP_REL_SLOTS; k++)
		__qdisc_reset_queue(&q->rel_slot[k].held);
	memset(q->rel_sta, 0, sizeof(q->rel_sta));
	q->ack_held = 0;
	q->rel_members = 0;
	q->rel_next_ns = 0;
}

/* ------------------------------------------------------------------ */
/* Data path                                                           */

/* One MAC frame's worth: a packet that is not GSO, or one segment. */
static int ebdp_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);

	/* ALT's clock only runs in the modes that use it */
	if (q->mode != TC_EBDP_MODE_EBDP)
		ebdp_alt_account(q, sch, ktime_get_ns());

	if (q->ackprio && ebdp_is_pure_ack(skb)) {
		if (q->ackq.qlen + q->ack_held >= q->acklimit) {
			q->drops_ackq++;
			return qdisc_drop(skb, sch, to_free);
		}
		if (q->release)
			ebdp_rel_enqueue(q, skb);
		else
			__qdisc_enqueue_tail(skb, &q->ackq);
	} else {
		/* Q is evaluated for every packet (eBDP algorithm 1) */
		q->cur_limit = ebdp_cur_limit(q);
		if (q->dataq.qlen >= q->cur_limit) {
			q->drops_limit++;
			return qdisc_drop(skb, sch, to_free);
		}
		__qdisc_enqueue_tail(skb, &q->dataq);
	}
	sch->q.qlen++;
	qdisc_qstats_backlog_inc(sch, skb);
	return NET_XMIT_SUCCESS;
}

/*
 * The paper's queue holds packets as the MAC sends them, and Tserv is the
 * service time of one of them.  A GSO packet (a TCP sender's or GRO's
 * super-packet, up to 64 KB) becomes gso_segs MAC frames only after the
 * qdisc, so a limit counted in skbs would let the queue hold several
 * times Tmax of airtime.  Segment before queueing, as tbf does for
 * packets above its burst: every packet here is one frame, the limit
 * drops at the tail frame by frame, and the dequeue-spacing estimator
 * times frames.
 */
static int ebdp_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			struct sk_buff **to_free)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb), seg_len;
	netdev_features_t features;
	struct sk_buff *segs, *nskb;
	int nb = 0;

	if (!skb_is_gso(skb))
		return ebdp_enqueue_one(skb, sch, to_free);

	features = netif_skb_features(skb);
	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	q->gso_split++;
	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		seg_len = segs->len;
		qdisc_skb_cb(segs)->pkt_len = seg_len;
		if (ebdp_enqueue_one(segs, sch, to_free) == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	if (!nb) {
		/* every segment was dropped (and counted) */
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	/* our parents counted one packet of prev_len bytes */
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	consume_skb(skb);
	return NET_XMIT_SUCCESS;
}

/* The ACK FIFO goes first, unless data has waited EBDP_ACK_BURST ACKs. */
static bool ebdp_ack_next(const struct ebdp_sched_data *q)
{
	if (!q->ackq.head)
		return false;
	return !q->dataq.head || q->ack_run < EBDP_ACK_BURST;
}

static struct sk_buff *ebdp_dequeue(struct Qdisc *sch)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;
	u64 now;

	ebdp_rel_poll(q);
	if (ebdp_ack_next(q)) {
		skb = __qdisc_dequeue_head(&q->ackq);
		q->ack_packets++;
		q->ack_run = q->dataq.head ? q->ack_run + 1 : 0;
	} else {
		skb = __qdisc_dequeue_head(&q->dataq);
		/* this packet waited for the ack_run ACKs sent before it */
		if (skb && q->ackprio)
			WRITE_ONCE(q->frames_fp,
				   ebdp_tserv_update_fp(q->frames_fp,
							(u64)(1 + q->ack_run) <<
							EBDP_FP_SHIFT,
							q->weight));
		q->ack_run = 0;
	}
	if (!skb)
		return NULL;

	now = ktime_get_ns();
	if (q->mode != TC_EBDP_MODE_EBDP)
		ebdp_alt_account(q, sch, now);
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);

	ebdp_est_dequeue(q, now);
	/* ACKs held for their turn wait for no service */
	q->deq_backlogged = sch->q.qlen > q->ack_held;
	return skb;
}

/*
 * Without removing: parents such as tbf peek before they dequeue.  Turns
 * that are over end here too, as dequeue would end them.
 */
static struct sk_buff *ebdp_peek(struct Qdisc *sch)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);

	ebdp_rel_poll(q);
	return ebdp_ack_next(q) ? q->ackq.head : q->dataq.head;
}

static void ebdp_reset(struct Qdisc *sch)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);

	__qdisc_reset_queue(&q->ackq);
	__qdisc_reset_queue(&q->dataq);
	ebdp_rel_reset(q);
	qdisc_watchdog_cancel(&q->watchdog);
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	q->deq_backlogged = 0;
	q->ack_run = 0;
	q->last_deq_ns = 0;
}

/* ------------------------------------------------------------------ */
/* Configuration                                                       */

/*
 * Ranges of the values accepted.  NLA_POLICY_RANGE() and NLA_POLICY_MAX()
 * hold their bounds in s16, so the u32 attributes give theirs here.
 */
static const struct netlink_range_validation ebdp_tmax_range = {
	.min = 1,
	.max = TC_EBDP_TMAX_MAX,
};

static const struct netlink_range_validation ebdp_c_range = {
	.min = 0,
	.max = TC_EBDP_QMAX_MAX,
};

/* qmax and qmin */
static const struct netlink_range_validation ebdp_qlen_range = {
	.min = 1,
	.max = TC_EBDP_QMAX_MAX,
};

static const struct netlink_range_validation ebdp_weight_range = {
	.min = 1,
	.max = 1U << TC_EBDP_WEIGHT_SHIFT,
};

static const struct netlink_range_validation ebdp_acklimit_range = {
	.min = 1,
	.max = TC_EBDP_ACKLIMIT_MAX,
};

static const struct netlink_range_validation ebdp_interval_range = {
	.min = TC_EBDP_INTERVAL_MIN,
	.max = TC_EBDP_INTERVAL_MAX,
};

static const struct netlink_range_validation ebdp_alt_coef_range = {
	.min = 0,
	.max = TC_EBDP_ALT_COEF_MAX,
};

static const struct netlink_range_validation ebdp_release_range = {
	.min = 0,
	.max = TC_EBDP_RELEASE_MAX,
};

static const struct netlink_range_validation ebdp_quantum_range = {
	.min = TC_EBDP_QUANTUM_MIN,
	.max = TC_EBDP_QUANTUM_MAX,
};

/*
 * Parsed strictly (nla_parse_nested()): the core rejects unknown attribute
 * types, lengths other than the type's, NLA_F_NESTED on a scalar, a
 * TCA_OPTIONS without NLA_F_NESTED and values out of range, with its own
 * extack message pointing at the attribute and the policy's bounds.
 */
static const struct nla_policy ebdp_policy[TCA_EBDP_MAX + 1] = {
	[TCA_EBDP_TMAX]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_tmax_range),
	[TCA_EBDP_C]		= NLA_POLICY_FULL_RANGE(NLA_U32, &ebdp_c_range),
	[TCA_EBDP_QMAX]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_qlen_range),
	[TCA_EBDP_WEIGHT]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_weight_range),
	[TCA_EBDP_MODE]		= NLA_POLICY_MAX(NLA_U8,
						 __TC_EBDP_MODE_MAX - 1),
	[TCA_EBDP_ACKPRIO]	= NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_EBDP_ACKLIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_acklimit_range),
	[TCA_EBDP_INTERVAL]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_interval_range),
	[TCA_EBDP_QMIN]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_qlen_range),
	[TCA_EBDP_ALT_A]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_alt_coef_range),
	[TCA_EBDP_ALT_B]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_alt_coef_range),
	[TCA_EBDP_RELEASE]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_release_range),
	[TCA_EBDP_QUANTUM]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&ebdp_quantum_range),
};

/* Every value a user can set, validated as a whole before any is applied. */
struct ebdp_params {
	u32 tmax_us;
	u32 c;
	u32 qmax;
	u32 weight;
	u32 mode;
	u32 ackprio;
	u32 acklimit;
	u32 interval_us;
	u32 qmin;
	u32 alt_a;
	u32 alt_b;
	u32 release;
	u32 quantum_us;
};

/*
 * The one check the policy cannot make.  qmin and qmax are at most
 * TC_EBDP_QMAX_MAX (5 digits) here, so the message is at most 69
 * characters and fits in extack's buffer (NETLINK_MAX_FMTMSG_LEN).
 */
#define EBDP_QMIN_MSG \
	"TCA_EBDP_QMIN (qmin) %u must not exceed TCA_EBDP_QMAX (qmax) %u"
static_assert(sizeof(EBDP_QMIN_MSG) - 2 * sizeof("%u") + 2 * sizeof("65535")
	      <= NETLINK_MAX_FMTMSG_LEN);
static_assert(TC_EBDP_QMAX_MAX <= 65535);

static void ebdp_get_u32(u32 *v, const struct nlattr *attr)
{
	if (attr)
		*v = nla_get_u32(attr);
}

static void ebdp_get_u8(u32 *v, const struct nlattr *attr)
{
	if (attr)
		*v = nla_get_u8(attr);
}

static int ebdp_parse(struct nlattr *opt, struct ebdp_params *p,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TCA_EBDP_MAX + 1];
	int err;

	err = nla_parse_nested(tb, TCA_EBDP_MAX, opt, ebdp_policy, extack);
	if (err < 0)
		return err;

	ebdp_get_u32(&p->tmax_us, tb[TCA_EBDP_TMAX]);
	ebdp_get_u32(&p->c, tb[TCA_EBDP_C]);
	ebdp_get_u32(&p->qmax, tb[TCA_EBDP_QMAX]);
	ebdp_get_u32(&p->weight, tb[TCA_EBDP_WEIGHT]);
	ebdp_get_u8(&p->mode, tb[TCA_EBDP_MODE]);
	ebdp_get_u8(&p->ackprio, tb[TCA_EBDP_ACKPRIO]);
	ebdp_get_u32(&p->acklimit, tb[TCA_EBDP_ACKLIMIT]);
	ebdp_get_u32(&p->interval_us, tb[TCA_EBDP_INTERVAL]);
	ebdp_get_u32(&p->qmin, tb[TCA_EBDP_QMIN]);
	ebdp_get_u32(&p->alt_a, tb[TCA_EBDP_ALT_A]);
	ebdp_get_u32(&p->alt_b, tb[TCA_EBDP_ALT_B]);
	ebdp_get_u32(&p->release, tb[TCA_EBDP_RELEASE]);
	ebdp_get_u32(&p->quantum_us, tb[TCA_EBDP_QUANTUM]);

	/* against the values given or, for those not given, the current ones */
	if (p->qmin > p->qmax) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, tb[TCA_EBDP_QMIN] ?:
					tb[TCA_EBDP_QMAX], EBDP_QMIN_MSG,
					p->qmin, p->qmax);
		return -EINVAL;
	}
	if (p->release && !p->ackprio) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_EBDP_RELEASE] ?:
				    tb[TCA_EBDP_ACKPRIO],
				    "release holds ACKs: it needs ackprio");
		return -EINVAL;
	}
	/* the ACKs of the stations waiting their turn need room */
	if (tb[TCA_EBDP_RELEASE] && p->release && !tb[TCA_EBDP_ACKLIMIT] &&
	    p->acklimit == EBDP_DEF_ACKLIMIT)
		p->acklimit = EBDP_DEF_ACKLIMIT_RELEASE;
	return 0;
}

static void ebdp_params_get(const struct ebdp_sched_data *q,
			    struct ebdp_params *p)
{
	p->tmax_us = q->tmax_us;
	p->c = q->c;
	p->qmax = q->qmax;
	p->weight = q->weight;
	p->mode = q->mode;
	p->ackprio = q->ackprio;
	p->acklimit = q->acklimit;
	p->interval_us = q->interval_us;
	p->qmin = q->qmin;
	p->alt_a = q->alt_a;
	p->alt_b = q->alt_b;
	p->release = q->release;
	p->quantum_us = q->quantum_us;
}

/* Apply validated parameters; caller holds the qdisc tree lock. */
static void ebdp_params_set(struct ebdp_sched_data *q,
			    const struct ebdp_params *p)
{
	spin_lock_bh(&q->est_lock);
	q->tmax_us = p->tmax_us;
	q->c = p->c;
	WRITE_ONCE(q->qmax, p->qmax);
	q->weight = p->weight;
	/* without ackprio every frame is a data packet */
	if (!p->ackprio)
		WRITE_ONCE(q->frames_fp, 0);
	ebdp_set_bdp_limit(q);
	spin_unlock_bh(&q->est_lock);

	if (q->mode != p->mode) {
		/* ALT accounting restarts when it is switched on */
		q->alt_last_ns = ktime_get_ns();
		q->alt_start_ns = q->alt_last_ns;
		q->alt_idle_ns = 0;
		q->alt_busy_ns = 0;
	}
	q->mode = p->mode;
	q->ackprio = p->ackprio;
	q->acklimit = p->acklimit;
	q->interval_us = p->interval_us;
	q->qmin = p->qmin;
	q->alt_a = p->alt_a;
	q->alt_b = p->alt_b;
	q->alt_q_fp = clamp_t(u64, q->alt_q_fp, (u64)p->qmin << EBDP_FP_SHIFT,
			      (u64)p->qmax << EBDP_FP_SHIFT);
	/* a new set size starts the turns afresh */
	if (q->release != p->release)
		ebdp_rel_flush(q, ktime_get_ns());
	q->release = p->release;
	q->quantum_us = p->quantum_us;
	q->rel_next_ns = 0;	/* the turns' ends move with the quantum */
}

/* Drop from the head of @qh until it holds at most @limit packets. */
static void ebdp_drain(struct Qdisc *sch, struct qdisc_skb_head *qh,
		       u32 limit, unsigned int *pkts, unsigned int *bytes)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;

	while (qh->qlen > limit) {
		skb = __qdisc_dequeue_head(qh);
		sch->q.qlen--;
		*bytes += qdisc_pkt_len(skb);
		(*pkts)++;
		q->drops_change++;
		qdisc_qstats_backlog_dec(sch, skb);
		rtnl_qdisc_drop(skb, sch);
	}
}

/* Drop held ACKs, oldest station first, until the ACKs fit @limit. */
static void ebdp_drain_held(struct Qdisc *sch, u32 limit, unsigned int *pkts,
			    unsigned int *bytes)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct qdisc_skb_head *held;
	struct sk_buff *skb;
	int k;

	while (q->ack_held && q->ackq.qlen + q->ack_held > limit) {
		k = ebdp_rel_next_in(q->rel_sta, EBDP_REL_SLOTS);
		held = &q->rel_slot[k].held;
		skb = __qdisc_dequeue_head(held);
		if (!held->qlen) {
			q->rel_sta[k].held_since_ns = 0;
			q->rel_next_ns = 0;	/* the oldest waiter changed */
		}
		q->ack_held--;
		sch->q.qlen--;
		*bytes += qdisc_pkt_len(skb);
		(*pkts)++;
		q->drops_change++;
		qdisc_qstats_backlog_dec(sch, skb);
		rtnl_qdisc_drop(skb, sch);
	}
}

/*
 * An empty root ebdp lets the stack send directly, as pfifo does: nothing
 * to sample then (the queue is not backlogged).  Not with release: an ACK
 * to a station outside the set must wait even when nothing else does.
 */
static void ebdp_set_bypass(struct Qdisc *sch)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);

	if (q->release)
		sch->flags &= ~TCQ_F_CAN_BYPASS;
	else
		sch->flags |= TCQ_F_CAN_BYPASS;
}

static int ebdp_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	unsigned int pkts = 0, bytes = 0;
	struct ebdp_params p;
	int err;

	if (!opt)
		return 0;

	sch_tree_lock(sch);
	ebdp_params_get(q, &p);
	sch_tree_unlock(sch);
	err = ebdp_parse(opt, &p, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	ebdp_params_set(q, &p);
	ebdp_set_bypass(sch);
	/* ackprio off: the ACK FIFO still drains first, then stays empty */
	ebdp_drain(sch, &q->dataq, ebdp_cur_limit(q), &pkts, &bytes);
	ebdp_drain_held(sch, q->acklimit, &pkts, &bytes);
	ebdp_drain(sch, &q->ackq, q->acklimit, &pkts, &bytes);
	qdisc_tree_reduce_backlog(sch, pkts, bytes);
	sch_tree_unlock(sch);
	return 0;
}

static int ebdp_init(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct ebdp_params p = {
		.tmax_us	= EBDP_DEF_TMAX_US,
		.c		= EBDP_DEF_C,
		.qmax		= EBDP_DEF_QMAX,
		.weight		= EBDP_DEF_WEIGHT,
		.mode		= TC_EBDP_MODE_EBDP,
		.ackprio	= 0,
		.acklimit	= EBDP_DEF_ACKLIMIT,
		.interval_us	= EBDP_DEF_INTERVAL_US,
		.qmin		= EBDP_DEF_QMIN,
		.alt_a		= EBDP_DEF_ALT_A,
		.alt_b		= EBDP_DEF_ALT_B,
		.release	= 0,
		.quantum_us	= EBDP_DEF_QUANTUM_US,
	};
	u64 now = ktime_get_ns();
	int err;

	spin_lock_init(&q->est_lock);
	INIT_LIST_HEAD(&q->fb_node);
	qdisc_watchdog_init(&q->watchdog, sch);

	if (opt) {
		err = ebdp_parse(opt, &p, extack);
		if (err)
			return err;
	}
	q->alt_q_fp = (u64)p.qmax << EBDP_FP_SHIFT;
	ebdp_params_set(q, &p);
	q->cur_limit = ebdp_cur_limit(q);
	q->alt_last_ns = now;
	q->alt_start_ns = now;
	q->sch = sch;
	q->dev = qdisc_dev(sch);
	ebdp_set_bypass(sch);

	spin_lock(&ebdp_instances_lock);
	list_add_tail_rcu(&q->fb_node, &ebdp_instances);
	spin_unlock(&ebdp_instances_lock);
	return 0;
}

static void ebdp_destroy(struct Qdisc *sch)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);

	/*
	 * The qdisc is freed after an RCU grace period (qdisc_free_cb), so
	 * feedback walking the list under rcu_read_lock() stays safe.
	 * fb_node is empty when init failed before adding it.
	 */
	if (!list_empty(&q->fb_node)) {
		spin_lock(&ebdp_instances_lock);
		list_del_rcu(&q->fb_node);
		spin_unlock(&ebdp_instances_lock);
	}
	qdisc_watchdog_cancel(&q->watchdog);
	__qdisc_reset_queue(&q->ackq);
	__qdisc_reset_queue(&q->dataq);
	ebdp_rel_reset(q);
}

static int ebdp_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct ebdp_params p;
	struct nlattr *opts;

	sch_tree_lock(sch);
	ebdp_params_get(q, &p);
	sch_tree_unlock(sch);

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		goto nla_put_failure;
	if (nla_put_u32(skb, TCA_EBDP_TMAX, p.tmax_us) ||
	    nla_put_u32(skb, TCA_EBDP_C, p.c) ||
	    nla_put_u32(skb, TCA_EBDP_QMAX, p.qmax) ||
	    nla_put_u32(skb, TCA_EBDP_WEIGHT, p.weight) ||
	    nla_put_u8(skb, TCA_EBDP_MODE, p.mode) ||
	    nla_put_u8(skb, TCA_EBDP_ACKPRIO, p.ackprio) ||
	    nla_put_u32(skb, TCA_EBDP_ACKLIMIT, p.acklimit) ||
	    nla_put_u32(skb, TCA_EBDP_INTERVAL, p.interval_us) ||
	    nla_put_u32(skb, TCA_EBDP_QMIN, p.qmin) ||
	    nla_put_u32(skb, TCA_EBDP_ALT_A, p.alt_a) ||
	    nla_put_u32(skb, TCA_EBDP_ALT_B, p.alt_b) ||
	    nla_put_u32(skb, TCA_EBDP_RELEASE, p.release) ||
	    nla_put_u32(skb, TCA_EBDP_QUANTUM, p.quantum_us))
		goto nla_put_failure;
	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -1;
}

static int ebdp_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct ebdp_sched_data *q = qdisc_priv(sch);
	struct tc_ebdp_xstats st = {
		.version = TC_EBDP_XSTATS_VERSION,
	};

	sch_tree_lock(sch);
	spin_lock_bh(&q->est_lock);
	st.source = q->source;
	st.tserv_ns = ebdp_tserv_ns(q->tserv_fp);
	st.data_tserv_ns = ebdp_tserv_ns(ebdp_data_tserv_fp(q->tserv_fp,
							    q->frames_fp));
	st.bdp_limit = q->bdp_limit;
	st.samples_mac80211 = q->samples_mac;
	st.samples_dequeue = q->samples_deq;
	spin_unlock_bh(&q->est_lock);
	st.limit = ebdp_cur_limit(q);
	st.alt_limit = ebdp_alt_limit(q->alt_q_fp);
	st.data_qlen = q->dataq.qlen;
	st.ack_qlen = q->ackq.qlen;
	st.drops_limit = q->drops_limit;
	st.drops_ackq = q->drops_ackq;
	st.drops_change = q->drops_change;
	st.ack_packets = q->ack_packets;
	st.gso_split = q->gso_split;
	st.ack_held = q->ack_held;
	st.release_members = q->rel_members;
	st.release_joins = q->rel_joins;
	st.release_unkeyed = q->rel_unkeyed;
	st.hold_max_ns = q->hold_max_ns;
	sch_tree_unlock(sch);
	st.mac80211_bound = READ_ONCE(ebdp_fb_bound);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops ebdp_qdisc_ops __read_mostly = {
	.id		= "ebdp",
	.priv_size	= sizeof(struct ebdp_sched_data),
	.enqueue	= ebdp_enqueue,
	.dequeue	= ebdp_dequeue,
	.peek		= ebdp_peek,
	.init		= ebdp_init,
	.reset		= ebdp_reset,
	.destroy	= ebdp_destroy,
	.change		= ebdp_change,
	.dump		= ebdp_dump,
	.dump_stats	= ebdp_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("ebdp");

static int __init ebdp_module_init(void)
{
	int err;

	BUILD_BUG_ON(EBDP_WEIGHT_SHIFT != TC_EBDP_WEIGHT_SHIFT);
	BUILD_BUG_ON(EBDP_TMAX_MAX_US != TC_EBDP_TMAX_MAX);
	BUILD_BUG_ON(EBDP_QMAX_MAX != TC_EBDP_QMAX_MAX);
	BUILD_BUG_ON(EBDP_ALT_COEF_MAX != TC_EBDP_ALT_COEF_MAX);
	BUILD_BUG_ON(EBDP_INTERVAL_MIN_US != TC_EBDP_INTERVAL_MIN);
	BUILD_BUG_ON(EBDP_INTERVAL_MAX_US != TC_EBDP_INTERVAL_MAX);

	err = register_module_notifier(&ebdp_module_nb);
	if (err)
		return err;
	ebdp_fb_bind();
	err = register_qdisc(&ebdp_qdisc_ops);
	if (err) {
		unregister_module_notifier(&ebdp_module_nb);
		ebdp_fb_unbind();
	}
	return err;
}

static void __exit ebdp_module_exit(void)
{
	unregister_qdisc(&ebdp_qdisc_ops);
	unregister_module_notifier(&ebdp_module_nb);
	ebdp_fb_unbind();
}

module_init(ebdp_module_init);
module_exit(ebdp_module_exit);

MODULE_AUTHOR("airqueue");
MODULE_DESCRIPTION("eBDP/ALT/A* dynamically sized drop-tail queue");
MODULE_LICENSE("GPL");
