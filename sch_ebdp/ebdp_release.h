/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP's release of pure TCP ACKs at the AP, apart from the qdisc glue.
 *
 * Source: tcp-ack-priority, sections III-A and III-B (../shared/papers/,
 * Documentation/networking/tcp-ack-priority.rst).  An uploading station
 * contends for the channel only while it holds data, and it holds data
 * only while its TCP window is open, that is while the AP sends it ACKs.
 * So the AP decides how many stations contend: with a drop-tail queue its
 * ACKs wait behind everything and about two stations are active; with
 * every pure ACK first, every station is.  TAP gives the AP's ACKs the
 * channel first, but to n* - 1 stations at a time (n* the number of
 * contenders, the AP included, that maximises Bianchi's saturation
 * throughput), so that about n* radios contend.
 *
 * The rule here: a release set of at most @set stations (n* - 1).  ACKs to
 * a station in the set go out at once; ACKs to any other are held, and
 * that station, once its window is spent, stops contending.  Turns rotate
 * so that every station is served:
 *
 *  - a station joins when the set has room, the waiting station whose
 *    oldest held ACK is the oldest first; its held ACKs go out as it joins;
 *  - when the set is full and a station waits, the member whose turn began
 *    first leaves once its turn has lasted @quantum, or sooner (after
 *    EBDP_REL_TURN_MIN_NS) when the waiting station's oldest ACK has waited
 *    @hold_max.
 *
 * A station waits about (waiting stations / set) * quantum.  That must
 * stay below the senders' retransmission timeout (Linux's floor is
 * 200 ms, TCP_RTO_MIN), or held ACKs become spurious retransmissions: a
 * long quantum holds the set longer against the stations that leave it
 * still holding data, a short one keeps more stations draining.  hold_max
 * (EBDP_REL_HOLD_MAX_NS in the qdisc) caps the wait whatever the number of
 * stations: with more of them than the quantum serves within it, turns
 * shorten to fit.
 *
 * Times are in ns from any monotonic clock; a station that holds no ACK
 * has held_since_ns 0.
 */
#ifndef _NET_SCHED_EBDP_RELEASE_H
#define _NET_SCHED_EBDP_RELEASE_H

#include <linux/etherdevice.h>
#include <linux/minmax.h>
#include <linux/types.h>

/* The shortest turn a waiting station's hold_max can cut a turn to */
#define EBDP_REL_TURN_MIN_NS	1000000ULL	/* 1 ms */

/* One station of the release table, as the rule sees it */
struct ebdp_rel_sta {
	u64 held_since_ns;	/* arrival of its oldest held ACK, 0: none */
	u64 joined_ns;		/* start of its turn, if a member */
	u8 addr[ETH_ALEN];	/* the station: the ACKs' destination */
	bool used;		/* the slot holds a station */
	bool member;		/* in the release set */
};

/*
 * The slot of station @addr in a table of @n slots, open addressing from
 * @h (a hash of @addr).  A slot, once used, stays in its probe chains, so
 * a station's slot is always found before its chain's first unused slot,
 * which a new station takes; with every slot used, a new station takes
 * one that is outside the set and holds nothing (that station needs it no
 * more).  Return: the station's slot; for a new station the slot to
 * claim, with *@new set; -1 if none is free.
 */
static inline int ebdp_rel_probe(const struct ebdp_rel_sta *s, unsigned int n,
				 unsigned int h, const u8 *addr, bool *new)
{
	int reuse = -1;
	unsigned int i, k;

	*new = true;
	for (i = 0; i < n; i++) {
		k = (h + i) % n;
		if (!s[k].used)
			return k;
		if (ether_addr_equal(s[k].addr, addr)) {
			*new = false;
			return k;
		}
		if (reuse < 0 && !s[k].member && !s[k].held_since_ns)
			reuse = k;
	}
	return reuse;
}

/*
 * The station whose turn begins next: of those outside the set that hold
 * ACKs, the one whose oldest ACK is the oldest.  Return: its index, -1 if
 * none waits.
 */
static inline int ebdp_rel_next_in(const struct ebdp_rel_sta *s,
				   unsigned int n)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!s[i].used || s[i].member || !s[i].held_since_ns)
			continue;
		if (best < 0 || s[i].held_since_ns < s[best].held_since_ns)
			best = i;
	}
	return best;
}

/*
 * The member whose turn ends for a waiting station: the one whose turn
 * began first, once it has lasted @quantum_ns at @now.  Return: its
 * index, -1 if no turn is over yet (or the set is empty).
 */
static inline int ebdp_rel_next_out(const struct ebdp_rel_sta *s,
				    unsigned int n, u64 now, u64 quantum_ns)
{
	int first = -1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!s[i].used || !s[i].member)
			continue;
		if (first < 0 || s[i].joined_ns < s[first].joined_ns)
			first = i;
	}
	if (first < 0 || now - s[first].joined_ns < quantum_ns)
		return -1;
	return first;
}

/*
 * One step of the rotation at @now, for a set of at most @set stations
 * that has @members now.  Return: the station whose turn begins, -1 if
 * none does; *@out: the member whose turn ends to make room for it, -1 if
 * the set has room (or nobody's turn begins).  The caller applies both and
 * asks again until nobody's turn begins.
 */
static inline int ebdp_rel_turn(const struct ebdp_rel_sta *s, unsigned int n,
				unsigned int set, unsigned int members,
				u64 now, u64 quantum_ns, u64 hold_max_ns,
				int *out)
{
	int in = ebdp_rel_next_in(s, n);
	u64 turn = quantum_ns;

	*out = -1;
	if (in < 0)
		return -1;
	if (members >= set) {
		/* a station that waited hold_max cuts the turn short */
		if (now - s[in].held_since_ns >= hold_max_ns)
			turn = min_t(u64, quantum_ns, EBDP_REL_TURN_MIN_NS);
		*out = ebdp_rel_next_out(s, n, now, turn);
		if (*out < 0)
			return -1;
	}
	return in;
}

/*
 * When a held ACK can next be released, for a station waiting while the
 * set is full: the end of the earliest turn, or earlier when the oldest
 * held ACK reaches @hold_max_ns (but not before that turn has lasted
 * EBDP_REL_TURN_MIN_NS).  Return: that time in ns, 0 if the set is empty.
 */
static inline u64 ebdp_rel_next_turn_end(const struct ebdp_rel_sta *s,
					 unsigned int n, u64 quantum_ns,
					 u64 hold_max_ns)
{
	u64 first = 0, t;
	unsigned int i;
	int in;

	for (i = 0; i < n; i++) {
		if (!s[i].used || !s[i].member)
			continue;
		if (!first || s[i].joined_ns < first)
			first = s[i].joined_ns;
	}
	if (!first)
		return 0;
	t = first + quantum_ns;
	in = ebdp_rel_next_in(s, n);
	if (in >= 0)
		t = min(t, max(s[in].held_since_ns + hold_max_ns,
			       first + min_t(u64, quantum_ns,
					     EBDP_REL_TURN_MIN_NS)));
	return t;
}

#endif /* _NET_SCHED_EBDP_RELEASE_H */
