/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mac80211 MAC feedback for other kernel modules (airqueue).
 *
 * mac80211 pushes two kinds of information to registered consumers:
 *
 *  - per frame, at tx status: how long the frame spent between entering
 *    mac80211 (leaving the qdisc) and its MAC-level completion, and whether
 *    it was acknowledged; sch_ebdp turns this into its service-time
 *    estimate Tserv;
 *  - per interface, at the end of each airtime observation slot: the number
 *    of active stations, each one's channel occupancy, beacon airtime and the
 *    PHY rates in use; tcp_airtime turns this into its cwnd cap.
 *
 * Binding is at run time so that consumers load and work without mac80211
 * (or with an unpatched one) and mac80211 can be unloaded while consumers are
 * registered:
 *
 *	reg = symbol_get(ieee80211_feedback_register);
 *	if (reg) {
 *		err = reg(&my_ops);
 *		symbol_put(ieee80211_feedback_register);
 *	}
 *
 * A consumer holds no reference on mac80211 while registered, and mac80211
 * takes none on the consumer: the consumer unregisters in its module exit,
 * and unregistering (symbol_get(ieee80211_feedback_unregister)) removes
 * @ops and waits for calls in flight to finish (synchronize_rcu()), so no
 * call can reach the consumer's code once its exit returns.  When mac80211
 * goes away it calls ->detach() of every consumer, after which it never
 * calls that consumer again; a consumer that wants to follow a reload of
 * mac80211 watches MODULE_STATE_LIVE with register_module_notifier().  If
 * ieee80211_feedback_unregister can no longer be had, mac80211 is unloading
 * and will call ->detach(): the consumer waits for that before it frees
 * @ops.
 *
 * Context: ->tx_status(), ->airtime_slot() and ->rate_change() are called
 * with bottom halves disabled (softirq, or process context inside
 * local_bh_disable()), under rcu_read_lock(), never in hard interrupt
 * context.  mac80211's tx status runs there (ieee80211_tx_status_ni() and
 * ieee80211_tx_status_irqsafe() get there for other contexts), and so must
 * a driver's ieee80211_tx_feedback_report(); mac80211 warns once and drops
 * a report made anywhere else.  A consumer takes the locks it shares with
 * these callbacks with spin_lock() inside them and spin_lock_bh() in
 * process context.  ->detach() is called in process context.
 *
 * This header is shared verbatim by the mac80211-retry patch series (which
 * adds it to include/net/) and by the out-of-tree consumers in airqueue,
 * which build against unpatched kernel headers.  Bump
 * IEEE80211_FEEDBACK_API_VERSION on any change of layout or semantics;
 * ieee80211_feedback_register() refuses a consumer built for another version
 * with -EPROTO.
 */
#ifndef __NET_MAC80211_FEEDBACK_H
#define __NET_MAC80211_FEEDBACK_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/netdevice.h>

#define IEEE80211_FEEDBACK_API_VERSION	7

/* Flags of struct ieee80211_tx_feedback */
#define IEEE80211_TXFB_ACKED		BIT(0)	/* MAC ACK or Block Ack bit seen */
#define IEEE80211_TXFB_AMPDU		BIT(1)	/* sent inside an A-MPDU */
#define IEEE80211_TXFB_NO_ENQUEUE_TIME	BIT(2)	/* enqueue_ns unknown, service_us 0 */

/**
 * struct ieee80211_tx_feedback - tx status of one data frame
 * @dev: the netdev (interface) the frame was sent on
 * @queue: the index of the netdev tx queue the frame was dequeued from,
 *	i.e. the queue whose qdisc held it: the frame's access category
 *	(IEEE80211_AC_*, from @tid) where the interface has a tx queue per AC
 *	(hardware with four queues), else 0.  It lets a consumer such as a
 *	per-queue qdisc under mq tell its frames from its siblings'.
 * @sta_addr: the receiver's MAC address (the station or the AP)
 * @enqueue_ns: ktime_get_ns() when the frame entered mac80211 (left the
 *	qdisc), i.e. the eBDP paper's t_s
 * @done_ns: ktime_get_ns() at its completion (ACK, Block Ack or discard),
 *	the paper's t_e
 * @service_us: the frame's MAC service time in microseconds: done_ns -
 *	enqueue_ns, divided by @ampdu_len when that is known (> 1)
 * @ampdu_len: the number of subframes of the A-MPDU that carried the frame,
 *	the same value in the report of every one of its subframes; 1 for a
 *	frame not sent in an A-MPDU; 0 for a frame sent in an A-MPDU
 *	(IEEE80211_TXFB_AMPDU) whose driver does not say how many subframes
 *	it had.  mac80211's own tx status path reports 0 for every A-MPDU
 *	subframe: drivers give the aggregate's size there only on the one
 *	status that carries IEEE80211_TX_STAT_AMPDU, not on each subframe.
 *	Drivers calling ieee80211_tx_feedback_report() give it on every
 *	subframe.
 * @tid: the frame's TID (0..7; IEEE80211_NUM_TIDS for non-QoS)
 * @flags: IEEE80211_TXFB_*
 */
struct ieee80211_tx_feedback {
	struct net_device *dev;
	const u8 *sta_addr;
	u64 enqueue_ns;
	u64 done_ns;
	u32 service_us;
	u16 queue;
	u8 ampdu_len;
	u8 tid;
	u8 flags;
};

/* Most stations a slot report carries; the rest are summed into others_us. */
#define IEEE80211_AIRTIME_VIEW_MAX_STA	32

/* Where the figures of struct ieee80211_airtime_view come from */
enum ieee80211_airtime_source {
	IEEE80211_AIRTIME_SRC_AP,	/* an AP's own accounting of its stations */
	IEEE80211_AIRTIME_SRC_STA_BSS_LOAD, /* a station: own airtime + BSS Load */
	IEEE80211_AIRTIME_SRC_STA_LOCAL, /* a station without BSS Load element */
	IEEE80211_AIRTIME_SRC_STA_HEARD, /* a station: own airtime + overheard */
	IEEE80211_AIRTIME_SRC_STA_AP,	/* a station: the AP's advertised view */
};

/**
 * struct ieee80211_airtime_view_sta - one station's share of a slot
 * @addr: the station's MAC address
 * @occ_us: channel occupancy t_i in the slot: airtime of frames to and from
 *	it, in microseconds (tx + rx, as ieee80211_sta_register_airtime() and
 *	tx status account it)
 * @rate_kbps: PHY rate of the last data frame sent to it (AP) or by us
 *	(station), in kbit/s; 0 if unknown
 * @rx_rate_kbps: PHY rate of the last data frame received from it (AP) or
 *	from the AP (station), in kbit/s; 0 if unknown.  This is the rate of
 *	the data a receiver of a transfer gets, which need not be the rate it
 *	sends at (links are not symmetric).  Sampled at the end of the slot;
 *	->rate_change() reports changes of @rate_kbps only.
 */
struct ieee80211_airtime_view_sta {
	u8 addr[ETH_ALEN];
	u32 occ_us;
	u32 rate_kbps;
	u32 rx_rate_kbps;
};

/**
 * struct ieee80211_airtime_view - one observation slot of one interface
 * @dev: the interface
 * @seq: slot sequence number, +1 each slot
 * @source: enum ieee80211_airtime_source
 * @slot_us: T, the slot's length in microseconds (shorter than the
 *	configured n beacon intervals when the slot ended early because the
 *	number of active stations changed)
 * @beacon_us: t_beacon, airtime taken by beacons in the slot
 * @busy_us: medium busy time in the slot from the driver's survey, 0 if the
 *	driver has none (always the interface's own slot)
 * @n_active: N, stations with traffic in the slot.  A station that
 *	overhears the frames of its BSS (IEEE80211_AIRTIME_SRC_STA_HEARD):
 *	the other stations it heard active, plus itself; from an AP's
 *	advertisement, the stations the AP counted active, plus the station
 *	itself if the AP did not count it; else the station count of the
 *	AP's BSS Load element when the AP advertises one
 * @n_sta: entries used in @sta (<= IEEE80211_AIRTIME_VIEW_MAX_STA)
 * @others_us: occupancy of active stations beyond @n_sta entries (for a
 *	station that overhears its BSS: of the other stations it heard
 *	active)
 * @sta: per-station occupancy; an AP lists its active stations, a station
 *	lists itself only, or, from its AP's advertisement
 *	(IEEE80211_AIRTIME_SRC_STA_AP), itself first and then the other
 *	stations the AP counted active in its last slot, their occupancy
 *	scaled to this slot's length and their rates 0 (as is @others_us)
 */
struct ieee80211_airtime_view {
	struct net_device *dev;
	u32 seq;
	u8 source;
	u32 slot_us;
	u32 beacon_us;
	u32 busy_us;
	u16 n_active;
	u16 n_sta;
	u32 others_us;
	struct ieee80211_airtime_view_sta sta[IEEE80211_AIRTIME_VIEW_MAX_STA];
};

/**
 * struct ieee80211_feedback_ops - a consumer of mac80211 feedback
 * @api_version: IEEE80211_FEEDBACK_API_VERSION the consumer was built with
 * @name: for debugfs and messages
 * @tx_status: one call per completed data frame (each A-MPDU subframe);
 *	bottom halves disabled, under rcu_read_lock() (see "Context" above);
 *	may be NULL
 * @airtime_slot: at the end of each observation slot of each interface,
 *	and early when a station's PHY rate changes; bottom halves disabled,
 *	under rcu_read_lock(); may be NULL
 * @rate_change: the PHY rate to @addr on @dev changed to @rate_kbps; bottom
 *	halves disabled, under rcu_read_lock(); may be NULL
 * @detach: mac80211 stops calling this consumer for @dev, or for every
 *	device if @dev is NULL (mac80211 unloading); process context
 * @list: owned by mac80211
 */
struct ieee80211_feedback_ops {
	u32 api_version;
	const char *name;
	void (*tx_status)(const struct ieee80211_tx_feedback *fb);
	void (*airtime_slot)(const struct ieee80211_airtime_view *view);
	void (*rate_change)(struct net_device *dev, const u8 *addr,
			    u32 rate_kbps);
	void (*detach)(struct net_device *dev);
	struct list_head list;
};

int ieee80211_feedback_register(struct ieee80211_feedback_ops *ops);
void ieee80211_feedback_unregister(struct ieee80211_feedback_ops *ops);

#endif /* __NET_MAC80211_FEEDBACK_H */
