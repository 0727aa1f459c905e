// SPDX-License-Identifier: GPL-2.0
/*
 * "airtime": channel occupancy time based TCP rate control for 802.11.
 *
 * In a multi-rate WLAN, DCF gives every station about the same number of
 * transmission opportunities, so a station at 6 Mbit/s holds the medium
 * nine times longer per frame than one at 54 Mbit/s and drags everybody
 * down to its throughput (the "performance anomaly").  This congestion
 * control bounds each connection's window by the share of airtime the
 * connection should get, as proposed by Kashibuchi, Taleb, Nemoto and Kato,
 * "Channel Occupancy Time Based TCP Rate Control for IEEE 802.11 DCF"
 * (equation numbers below are the paper's; the model is in airtime_model.h):
 *
 *   At the end of each observation slot T (n beacon intervals, shorter
 *   when the number of active stations changes) and on every PHY rate
 *   change of the station:
 *	share of station x   t_avail_x  = equal split of T - t_beacon among
 *					  the N active stations, plus the
 *					  unused airtime if x uses its share
 *					  (1)-(5)
 *	share of connection  tau_avail  = the same split of t_avail_x among
 *					  the station's M_x connections (6)-(9)
 *	rate                 theta      = tau_avail / T_TCP(C, mss, b)
 *					  * mss * b / T		(10)-(12)
 *	window               wnd_max    = RTT_min * theta		(13)
 *
 *   A sender keeps cwnd <= wnd_max (in segments); otherwise its congestion
 *   response is NewReno's (the paper integrated the scheme with NewReno).
 *   A receiver clamps the window it advertises to wnd_max computed from its
 *   own RTT estimate, which limits any sender (see "Receiver" below).
 *
 * Inputs.  N, each station's occupancy t_i, the beacon airtime and the PHY
 * rate C (of the data the connection sends or, for a receiver, receives)
 * come from mac80211's airtime view (include/net/mac80211_feedback.h,
 * added by the airqueue mac80211 series): it calls ->airtime_slot() at the
 * end of every slot of every interface and ->rate_change() when a rate
 * changes.  We bind to it at run time with symbol_get(), never link to
 * mac80211, and keep the latest view of each interface in an RCU-protected
 * table.  A socket finds its view through its route's output device, and
 * its station x through the next hop's MAC address (an AP) or itself (a
 * station).  The connection's own occupancy tau_x,j is estimated from the
 * bytes it moved in the last slot times the model's airtime per segment;
 * the M_x connections of a station meet in a small group object that sums
 * their tau and counts the unsatisfied ones.  The view's occupancies are
 * the frames' airtime, the model's include the mean backoff: station x's
 * own is the larger of its view figure and its group's tau, the others'
 * are scaled by x's ratio of the two (airtime_model.h).  Eqs (7)-(9) use
 * the group's figures of the previous slot (connections report
 * asynchronously, on their own ACKs).
 *
 * Without a view (unpatched mac80211, mac80211 not loaded, a route that
 * does not leave on a Wi-Fi interface, a stale or unusable view) there is
 * no cap and the connection behaves exactly as NewReno (Reno with SACK/
 * NewReno recovery, the kernel's "reno"); the feedback source reported
 * in sysfs and, per connection, in /proc/net/tcp_airtime says so.
 *
 * Receiver.  The paper's receiver sends theta to the sender encoded in the
 * rwnd field, which needs a modified sender.  We instead clamp the receive
 * window to wnd_max bytes: any TCP sender honours rwnd.  TCP's own rule
 * never to move the right edge of an offered window to the left (unless
 * net.ipv4.tcp_shrink_window is set) keeps data in flight acceptable when
 * the cap shrinks: the window just stops growing until the data in flight
 * drains below the cap, so a smaller cap never stalls the connection.
 *
 * When the receiver clamp is (re)computed.  A pure receiver runs no
 * congestion control hook on its fast path (->cong_avoid, ->pkts_acked and
 * ->cong_control need acknowledged data; ->cwnd_event's CA_EVENT_ECN_*
 * need ECN), and a module cannot defer work to the socket's release_cb as
 * the kernel's own timers do (sk_tsq_flags).  But the clamp's inputs
 * change only once per observation slot (theta, from the view) or on a
 * rate change: one work item for the whole module, queued from the feedback
 * callbacks, walks airtime_socks once per slot and recomputes, under
 * lock_sock() in process context, the sockets that moved data since their
 * last pass.  An idle socket costs two counter reads per slot: no timer, no
 * allocation, no wakeup; a socket its user holds is waited for, not
 * polled.  Between passes, ->in_ack_event (every ACK the socket processes,
 * a receiver's slow path included) keeps the clamp that is set against
 * receive buffer autotuning and sets it afresh when the connection turns
 * receiver (its first data segment), and ->cwnd_event(CA_EVENT_TX_START) (a
 * request going out, a sender resuming) recomputes both caps.  The first
 * clamp is set in ->init, before the first window after the handshake is
 * advertised; see "Receiver" in Documentation/networking/tcp_airtime.rst
 * for what the SYN and SYN-ACK offer before it.
 */
#define pr_fmt(fmt) "tcp_airtime: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/list.h>
#include <linux/etherdevice.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/tcp.h>
#include <net/neighbour.h>
#include <net/dst.h>
#include <net/cfg80211.h>
#include <net/mac80211_feedback.h>
#include "airtime_model.h"

/* Smallest cap, segments: what Reno needs to keep its ACK clock */
#define AIRTIME_MIN_CWND		2
/* Re-check the view at least this often on a busy connection, ms */
#define AIRTIME_RECHECK_MS		250
/* Receiver pass: at least this often while a clamp is set, ms */
#define AIRTIME_RCV_IDLE_MS		1000
/* Receiver pass: sockets taken per walk of airtime_socks */
#define AIRTIME_RCV_BATCH		256
/* IP header bytes without options */
#define AIRTIME_IPV4_HDR		20
#define AIRTIME_IPV6_HDR		40
#define AIRTIME_VIEW_HASH_BITS		4

/* Module parameters (validated ranges in the param ops below) */
static unsigned int n = 3;		/* beacon intervals per slot */
static unsigned int beacon_tu = 100;	/* beacon interval, TU */
static unsigned int r = 80;		/* satisfaction threshold, percent */
static unsigned int b = 2;		/* segments per TCP ACK */
static int rts = -1;			/* RTS/CTS: -1 the wiphy's threshold, 0, 1 */
static bool rcv_clamp = true;		/* receiver advertised window clamp */
static int phy_std = -1;		/* enum airtime_phy_std, -1 auto */

enum airtime_source {
	AIRTIME_SRC_NONE,	/* no mac80211 feedback: NewReno */
	AIRTIME_SRC_NOVIEW,	/* feedback bound, no view for this route */
	AIRTIME_SRC_STALE,	/* view too old */
	AIRTIME_SRC_NORATE,	/* PHY rate unknown or not modelled */
	AIRTIME_SRC_AP,		/* IEEE80211_AIRTIME_SRC_AP */
	AIRTIME_SRC_STA_BSS_LOAD,
	AIRTIME_SRC_STA_LOCAL,
	AIRTIME_SRC_STA_HEARD,
	AIRTIME_SRC_STA_AP,
	AIRTIME_SRC_MAX = AIRTIME_SRC_STA_AP	/* fits airtime_ca.source */
};

/* The views' sources are the "mac80211-" ones, without the prefix */
#define AIRTIME_SRC_PREFIX	"mac80211-"
static const char * const airtime_src_names[] = {
	[AIRTIME_SRC_NONE] = "none",
	[AIRTIME_SRC_NOVIEW] = "no-view",
	[AIRTIME_SRC_STALE] = "stale",
	[AIRTIME_SRC_NORATE] = "no-rate",
	[AIRTIME_SRC_AP] = AIRTIME_SRC_PREFIX "ap",
	[AIRTIME_SRC_STA_BSS_LOAD] = AIRTIME_SRC_PREFIX "sta-bss-load",
	[AIRTIME_SRC_STA_LOCAL] = AIRTIME_SRC_PREFIX "sta-local",
	[AIRTIME_SRC_STA_HEARD] = AIRTIME_SRC_PREFIX "sta-heard",
	[AIRTIME_SRC_STA_AP] = AIRTIME_SRC_PREFIX "sta-ap",
};

/* Our source for a view's enum ieee80211_airtime_source */
static enum airtime_source airtime_src_of_view(u8 source)
{
	switch (source) {
	case IEEE80211_AIRTIME_SRC_AP:
		return AIRTIME_SRC_AP;
	case IEEE80211_AIRTIME_SRC_STA_BSS_LOAD:
		return AIRTIME_SRC_STA_BSS_LOAD;
	case IEEE80211_AIRTIME_SRC_STA_HEARD:
		return AIRTIME_SRC_STA_HEARD;
	case IEEE80211_AIRTIME_SRC_STA_AP:
		return AIRTIME_SRC_STA_AP;
	default:
		return AIRTIME_SRC_STA_LOCAL;
	}
}

/* Latest airtime view of one interface, replaced as a whole (RCU) */
struct airtime_snap {
	struct rcu_head rcu;
	u64 stamp_ns;			/* ktime_get_ns() at arrival */
	u32 seq;
	u8 source;
	u32 slot_us;
	u32 beacon_us;
	u32 busy_us;
	u16 n_active;
	u16 n_sta;
	u32 others_us;
	u32 rts_threshold;		/* the wiphy's, AIRTIME_RTS_OFF: none */
	/* never written once published: readers hold no lock */
	struct ieee80211_airtime_view_sta sta[];
};

/*
 * A PHY rate ->rate_change() reported toward @addr (event D) while the
 * view of slot @seq was current.  It overrides that view's rate toward
 * @addr until the next view, which carries the rate itself.
 */
struct airtime_rate_upd {
	u8 addr[ETH_ALEN];
	u32 seq;
	u32 rate_kbps;			/* 0: entry unused */
};

struct airtime_iface {
	struct hlist_node node;		/* airtime_views, RCU */
	struct rcu_head rcu;
	const struct net_device *dev;	/* key; dereferenced only in callbacks */
	int ifindex;			/* for the "views" parameter */
	char name[IFNAMSIZ];
	struct airtime_snap __rcu *snap;
	spinlock_t rate_lock;		/* protects rates[] and rate_next */
	u8 rate_next;			/* entry to replace when all are current */
	struct airtime_rate_upd rates[IEEE80211_AIRTIME_VIEW_MAX_STA];
};

/* The connections of one station x on one interface */
struct airtime_group {
	struct hlist_node node;		/* airtime_groups */
	const struct net_device *dev;
	u8 addr[ETH_ALEN];
	u32 conns;			/* members, under airtime_grp_lock */
	spinlock_t lock;		/* protects @sums */
	struct airtime_conns sums;	/* M_x and the slot sums, (6)-(9) */
};

/*
 * Per-socket state, in icsk_ca_priv (104 bytes: this fills them).  Written
 * under the socket lock; /proc/net/tcp_airtime reads it without that lock,
 * as inet_diag reads a congestion control's state.
 */
struct airtime_ca {
	struct list_head node;	/* airtime_socks, from ->init to ->release */
	struct airtime_group *grp;
	u32 rcv_segs;		/* data segments in + out at the last pass */
	u32 rcv_pass;		/* last pass; under airtime_socks_lock */
	u64 byte_mark;		/* bytes acked + received at slot start */
	u32 segs_mark;		/* data segments out + in at slot start */
	u32 gen;		/* airtime_gen when last computed */
	u32 seq;		/* view seq accounted in the group */
	u32 theta;		/* bytes/s, (10); 0: no cap */
	u32 wnd_max;		/* segments, (13); 0: no cap */
	u32 rcv_cap;		/* advertised window cap, bytes; 0: none */
	u32 share_us;		/* tau_avail, (9) */
	u32 tau_us;		/* own occupancy in the last slot */
	u32 rtt_us;		/* RTT_min used in (13) */
	u32 rate_kbps;		/* C used in (11)-(12) */
	u32 last_upd;		/* tcp_jiffies32 of the last computation */
	u32 cwnd_clamp;		/* snd_cwnd_clamp before us */
	u32 window_clamp;	/* window_clamp before the receiver cap */
	u16 n_active;		/* N */
	u16 m;			/* M_x used in (6) */
	u8 addr[ETH_ALEN];	/* station x */
	u8 source:4,		/* enum airtime_source */
	   inited:1,		/* ->init ran (->release may come without) */
	   receiving:1;		/* direction at the last computation */
};

static DEFINE_HASHTABLE(airtime_views, AIRTIME_VIEW_HASH_BITS);
static DEFINE_SPINLOCK(airtime_views_lock);
static DEFINE_HASHTABLE(airtime_groups, AIRTIME_VIEW_HASH_BITS);
static DEFINE_SPINLOCK(airtime_grp_lock);
static LIST_HEAD(airtime_socks);		/* every airtime_ca after ->init */
static DEFINE_SPINLOCK(airtime_socks_lock);
static atomic_t airtime_gen = ATOMIC_INIT(1);	/* bumped on any new input */
static atomic_t airtime_rcv_capped = ATOMIC_INIT(0);	/* rcv_cap != 0 */
static atomic_t airtime_rcv_viewed = ATOMIC_INIT(0);	/* views since pass */
static atomic_t airtime_rcv_full = ATOMIC_INIT(0);	/* views went away */
static void airtime_rcv_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(airtime_rcv_work, airtime_rcv_workfn);

static DEFINE_MUTEX(airtime_fb_mutex);
static bool airtime_fb_bound;		/* registered with mac80211 */
static DECLARE_COMPLETION(airtime_fb_detached);
static struct tcp_congestion_ops tcp_airtime;

/* ---- cached views ---------------------------------------------------- */

static struct airtime_iface *airtime_iface_find(const struct net_device *dev)
{
	struct airtime_iface *ifc;

	hash_for_each_possible_rcu(airtime_views, ifc, node, (unsigned long)dev)
		if (ifc->dev == dev)
			return ifc;
	return NULL;
}

/*
 * The RTS threshold of @dev's wiphy, in bytes (mac80211 protects an MPDU
 * longer than it, FCS included, with RTS/CTS), AIRTIME_RTS_OFF for none or
 * for a device that is not 802.11 (the tests' fake feedback).  Read where
 * mac80211 reads it, without a lock: a change applies from the next view.
 */
static u32 airtime_dev_rts_threshold(const struct net_device *dev)
{
	const struct wireless_dev *wdev = dev ? dev->ieee80211_ptr : NULL;

	if (!wdev || !wdev->wiphy)
		return AIRTIME_RTS_OFF;
	return READ_ONCE(wdev->wiphy->rts_threshold);
}

static void airtime_fb_slot(const struct ieee80211_airtime_view *view)
{
	u16 n_sta = min_t(u16, view->n_sta, IEEE80211_AIRTIME_VIEW_MAX_STA);
	struct airtime_snap *snap, *old;
	struct airtime_iface *ifc;

	lockdep_assert_in_softirq();	/* the feedback contract */
	snap = kmalloc(struct_size(snap, sta, n_sta), GFP_ATOMIC);
	if (!snap)
		return;
	snap->stamp_ns = ktime_get_ns();
	snap->seq = view->seq;
	snap->source = view->source;
	snap->slot_us = view->slot_us;
	snap->beacon_us = view->beacon_us;
	snap->busy_us = view->busy_us;
	snap->n_active = view->n_active;
	snap->n_sta = n_sta;
	snap->others_us = view->others_us;
	snap->rts_threshold = airtime_dev_rts_threshold(view->dev);
	memcpy(snap->sta, view->sta, n_sta * sizeof(view->sta[0]));

	spin_lock(&airtime_views_lock);
	ifc = airtime_iface_find(view->dev);
	if (!ifc) {
		ifc = kzalloc(sizeof(*ifc), GFP_ATOMIC);
		if (!ifc) {
			spin_unlock(&airtime_views_lock);
			kfree(snap);
			return;
		}
		ifc->dev = view->dev;
		spin_lock_init(&ifc->rate_lock);
		hash_add_rcu(airtime_views, &ifc->node, (unsigned long)view->dev);
	}
	ifc->ifindex = view->dev->ifindex;
	strscpy(ifc->name, view->dev->name, sizeof(ifc->name));
	old = rcu_replace_pointer(ifc->snap, snap,
				  lockdep_is_held(&airtime_views_lock));
	spin_unlock(&airtime_views_lock);
	if (old)
		kfree_rcu(old, rcu);
	atomic_inc(&airtime_gen);
	/* the receivers' pass, see "Receiver" above */
	atomic_set(&airtime_rcv_viewed, 1);
	mod_delayed_work(system_wq, &airtime_rcv_work, 0);
}

/*
 * Event (D): the PHY rate toward @addr changed; the next ACK recomputes
 * with it.  The published view is never written (its readers hold no
 * lock): the rate goes to the interface's table of rate changes, keyed by
 * the peer's address and valid until the next view.  Called from tx
 * status with bottom halves disabled (the feedback contract): spin_lock()
 * here, spin_lock_bh() where the table is read.
 */
static void airtime_fb_rate(struct net_device *dev, const u8 *addr,
			    u32 rate_kbps)
{
	struct airtime_rate_upd *upd = NULL, *e;
	const struct airtime_snap *snap;
	struct airtime_iface *ifc;
	int i;

	lockdep_assert_in_softirq();
	rcu_read_lock();
	ifc = airtime_iface_find(dev);
	snap = ifc ? rcu_dereference(ifc->snap) : NULL;
	if (!snap)		/* the first view will carry the rate */
		goto out;
	spin_lock(&ifc->rate_lock);
	for (i = 0; i < ARRAY_SIZE(ifc->rates); i++) {
		e = &ifc->rates[i];
		if (ether_addr_equal(e->addr, addr)) {
			upd = e;
			break;
		}
		if (!upd && (!e->rate_kbps || e->seq != snap->seq))
			upd = e;	/* unused, or of an older view */
	}
	if (!upd) {
		upd = &ifc->rates[ifc->rate_next];
		ifc->rate_next = (ifc->rate_next + 1) % ARRAY_SIZE(ifc->rates);
	}
	ether_addr_copy(upd->addr, addr);
	upd->seq = snap->seq;
	upd->rate_kbps = rate_kbps;
	spin_unlock(&ifc->rate_lock);
	atomic_inc(&airtime_gen);
	atomic_set(&airtime_rcv_viewed, 1);
	mod_delayed_work(system_wq, &airtime_rcv_work, 0);
out:
	rcu_read_unlock();
}

/* The rate toward @addr: a change reported since @snap, else @rate */
static u32 airtime_rate_toward(struct airtime_iface *ifc,
			       const struct airtime_snap *snap,
			       const u8 *addr, u32 rate)
{
	const struct airtime_rate_upd *e;
	int i;

	spin_lock_bh(&ifc->rate_lock);
	for (i = 0; i < ARRAY_SIZE(ifc->rates); i++) {
		e = &ifc->rates[i];
		if (e->rate_kbps && e->seq == snap->seq &&
		    ether_addr_equal(e->addr, addr)) {
			rate = e->rate_kbps;
			break;
		}
	}
	spin_unlock_bh(&ifc->rate_lock);
	return rate;
}

static void airtime_views_flush(const struct net_device *dev)
{
	struct airtime_snap *snap;
	struct airtime_iface *ifc;
	struct hlist_node *tmp;
	int bkt;

	spin_lock_bh(&airtime_views_lock);
	hash_for_each_safe(airtime_views, bkt, tmp, ifc, node) {
		if (dev && ifc->dev != dev)
			continue;
		hash_del_rcu(&ifc->node);
		snap = rcu_dereference_protected(ifc->snap,
						 lockdep_is_held(&airtime_views_lock));
		kfree_rcu(snap, rcu);
		kfree_rcu(ifc, rcu);
	}
	spin_unlock_bh(&airtime_views_lock);
	atomic_inc(&airtime_gen);
	/* lift the clamps of idle sockets too */
	atomic_set(&airtime_rcv_full, 1);
	mod_delayed_work(system_wq, &airtime_rcv_work, 0);
}

static void airtime_fb_detach(struct net_device *dev)
{
	airtime_views_flush(dev);
	if (!dev) {
		/* mac80211 is going away and never calls us again */
		WRITE_ONCE(airtime_fb_bound, false);
		complete(&airtime_fb_detached);
	}
}

static struct ieee80211_feedback_ops airtime_fb_ops = {
	.api_version = IEEE80211_FEEDBACK_API_VERSION,
	.name = "tcp_airtime",
	.airtime_slot = airtime_fb_slot,
	.rate_change = airtime_fb_rate,
	.detach = airtime_fb_detach,
};

/* Bind to a (patched) mac80211 if one is loaded; no module dependency */
static void airtime_fb_bind(void)
{
	int (*reg)(struct ieee80211_feedback_ops *ops);
	int err;

	mutex_lock(&airtime_fb_mutex);
	if (READ_ONCE(airtime_fb_bound))
		goto out;
	reg = symbol_get(ieee80211_feedback_register);
	if (!reg)
		goto out;
	reinit_completion(&airtime_fb_detached);
	err = reg(&airtime_fb_ops);
	symbol_put(ieee80211_feedback_register);
	if (err) {
		pr_warn("mac80211 feedback refused (%d), behaving as NewReno\n",
			err);
		goto out;
	}
	WRITE_ONCE(airtime_fb_bound, true);
	pr_info("bound to mac80211 airtime feedback\n");
out:
	mutex_unlock(&airtime_fb_mutex);
}

static void airtime_fb_unbind(void)
{
	void (*unreg)(struct ieee80211_feedback_ops *ops);

	mutex_lock(&airtime_fb_mutex);
	if (READ_ONCE(airtime_fb_bound)) {
		unreg = symbol_get(ieee80211_feedback_unregister);
		if (unreg) {
			unreg(&airtime_fb_ops);
			symbol_put(ieee80211_feedback_unregister);
		} else {
			/* mac80211 is going away and calls ->detach(NULL) */
			wait_for_completion(&airtime_fb_detached);
		}
		WRITE_ONCE(airtime_fb_bound, false);
	}
	mutex_unlock(&airtime_fb_mutex);
	airtime_views_flush(NULL);
}

static void airtime_bind_workfn(struct work_struct *work)
{
	airtime_fb_bind();
}

static DECLARE_WORK(airtime_bind_work, airtime_bind_workfn);

static int airtime_module_notify(struct notifier_block *nb,
				 unsigned long state, void *data)
{
	struct module *mod = data;

	if (state == MODULE_STATE_LIVE && !strcmp(mod->name, "mac80211"))
		schedule_work(&airtime_bind_work);
	return NOTIFY_DONE;
}

static struct notifier_block airtime_module_nb = {
	.notifier_call = airtime_module_notify,
};

/* ---- station groups (eqs 6-9) --------------------------------------- */

static struct airtime_group *airtime_group_get(const struct net_device *dev,
					       const u8 *addr)
{
	unsigned long key = (unsigned long)dev ^ addr[5] ^ (addr[4] << 8);
	struct airtime_group *g;

	spin_lock_bh(&airtime_grp_lock);
	hash_for_each_possible(airtime_groups, g, node, key)
		if (g->dev == dev && ether_addr_equal(g->addr, addr))
			goto found;
	g = kzalloc(sizeof(*g), GFP_ATOMIC);
	if (!g)
		goto out;
	g->dev = dev;
	ether_addr_copy(g->addr, addr);
	spin_lock_init(&g->lock);
	hash_add(airtime_groups, &g->node, key);
found:
	g->conns++;
out:
	spin_unlock_bh(&airtime_grp_lock);
	return g;
}

static void airtime_group_put(struct airtime_group *g)
{
	if (!g)
		return;
	spin_lock_bh(&airtime_grp_lock);
	if (!--g->conns) {
		hash_del(&g->node);
		kfree(g);
	}
	spin_unlock_bh(&airtime_grp_lock);
}

/*
 * (6)-(9): report this connection's part of slot @seq (once, @report) and
 * split t_avail_x among the station's connections that move data.
 */
static void airtime_group_report(struct airtime_group *g, u32 seq,
				 bool report, u32 tau_us, bool active,
				 u32 x_avail_us, u32 r_permille,
				 struct airtime_split *conn)
{
	spin_lock_bh(&g->lock);
	airtime_conns_report(&g->sums, seq, report, tau_us, active,
			     x_avail_us, r_permille, conn);
	spin_unlock_bh(&g->lock);
}

/* Station x's occupancy by the model in the view's slot @seq */
static u64 airtime_group_tau(struct airtime_group *g, u32 seq)
{
	u64 tau;

	spin_lock_bh(&g->lock);
	tau = airtime_conns_tau_us(&g->sums, seq);
	spin_unlock_bh(&g->lock);
	return tau;
}

/* ---- the per-connection computation ---------------------------------- */

static bool airtime_rate_ht(u32 kbps)
{
	switch (kbps) {
	case 6000: case 9000: case 12000: case 18000:
	case 24000: case 36000: case 48000: case 54000:
		return false;
	}
	return true;
}

/*
 * T_TCP (11) at @rate_kbps.  RTS/CTS as the parameter rts says: "auto"
 * (the default) as mac80211 decides, from the RTS threshold of the view's
 * wiphy (@rts_threshold); "on" before every frame, as the paper's
 * experiments; "off" never.
 */
static u32 airtime_t_tcp(u32 rate_kbps, u32 mss, u32 hdr_len,
			 u32 rts_threshold)
{
	struct airtime_rate rate = { .kbps = rate_kbps };
	int std = READ_ONCE(phy_std), mode = READ_ONCE(rts);
	struct airtime_phy phy;

	if (rate_kbps < 6000)	/* DSSS/CCK data rates are not modelled */
		return 0;
	if (std < 0)
		std = airtime_rate_ht(rate_kbps) ? AIRTIME_PHY_HT_5GHZ :
						   AIRTIME_PHY_11A;
	airtime_phy_init(&phy, std, mode > 0);
	if (mode < 0)
		phy.rts_threshold = rts_threshold;
	return airtime_t_tcp_ns(&phy, &rate, mss, hdr_len, READ_ONCE(b));
}

static u32 airtime_hdr_len(const struct sock *sk)
{
	u32 ip = AIRTIME_IPV4_HDR;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		ip = AIRTIME_IPV6_HDR;
#endif
	return ip + tcp_sk(sk)->tcp_header_len;
}

/* The L2 next hop of the socket's route (the station, at an AP) */
static bool airtime_next_hop(struct sock *sk, struct dst_entry *dst, u8 *addr)
{
	const void *daddr = &inet_sk(sk)->inet_daddr;
	struct neighbour *neigh;
	bool ok = false;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		daddr = &sk->sk_v6_daddr;
#endif
	neigh = dst_neigh_lookup(dst, daddr);
	if (!neigh)
		return false;
	if (READ_ONCE(neigh->nud_state) & NUD_VALID) {
		neigh_ha_snapshot(addr, neigh, dst->dev);
		ok = true;
	}
	neigh_release(neigh);
	return ok;
}

struct airtime_port_match {
	const u8 *peer;
	struct airtime_iface *found;	/* the port whose AP view lists peer */
	struct airtime_iface *only;	/* the one port with a view, if one */
	unsigned int ports;
};

static int airtime_port_match(struct net_device *lower,
			      struct netdev_nested_priv *priv)
{
	struct airtime_port_match *pm = priv->data;
	struct airtime_iface *ifc = airtime_iface_find(lower);
	const struct airtime_snap *snap;
	u32 i;

	if (!ifc)
		return 0;
	pm->ports++;
	pm->only = pm->ports == 1 ? ifc : NULL;
	snap = rcu_dereference(ifc->snap);
	if (!snap || snap->source != IEEE80211_AIRTIME_SRC_AP)
		return 0;
	for (i = 0; i < snap->n_sta; i++) {
		if (ether_addr_equal(snap->sta[i].addr, pm->peer)) {
			pm->found = ifc;
			return 1;	/* stop the walk */
		}
	}
	return 0;
}

/*
 * The view that applies to a route through @dev: @dev's own, or, when
 * @dev is a bridge (OpenWrt's br-lan, an AP's Wi-Fi interface a port of
 * it), that of the port whose AP view lists the next hop @peer; if none
 * lists it (a station that has not been active yet), the bridge's only
 * port with a view.  Under rcu_read_lock().
 */
static struct airtime_iface *airtime_iface_route(struct net_device *dev,
						 const u8 *peer, bool have_peer)
{
	struct airtime_iface *ifc = airtime_iface_find(dev);
	struct airtime_port_match pm = { .peer = peer };
	struct netdev_nested_priv priv = { .data = &pm };

	if (ifc || !have_peer || !netif_is_bridge_master(dev))
		return ifc;
	netdev_walk_all_lower_dev_rcu(dev, airtime_port_match, &priv);
	return pm.found ? pm.found : pm.only;
}

static void airtime_no_cap(struct airtime_ca *ca, u8 source)
{
	ca->source = source;
	ca->theta = 0;
	ca->wnd_max = 0;
	ca->share_us = 0;
	ca->n_active = 0;
	ca->m = 0;
	ca->rate_kbps = 0;
}

/*
 * Recompute theta and wnd_max of @sk from the cached view of its route.
 * Called with the socket locked, on ACKs (sender), at the start of a
 * transmission and from the receivers' pass; cheap unless an input changed
 * or AIRTIME_RECHECK_MS passed.
 */
static void __airtime_update(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 gen = atomic_read(&airtime_gen);
	u32 r_pm = READ_ONCE(r) * 10, mss, hdr, t_tcp, rate = 0, t_x = 0;
	u32 i, rtt, n_act, x_avail, segs, rx_rate = 0;
	bool found = false, new_slot, receiving, have_peer, active = false;
	const struct airtime_snap *snap;
	struct airtime_split bss, conn;
	u8 addr[ETH_ALEN], peer[ETH_ALEN];
	struct airtime_iface *ifc;
	struct dst_entry *dst;
	u64 bytes, theta, tau;

	/*
	 * A connection that starts by sending (a request, iperf3's cookie)
	 * and then receives must not keep its sender's theta until the next
	 * recheck: its data travel at another rate.
	 */
	receiving = tp->bytes_received > tp->bytes_acked;
	if (gen == ca->gen && receiving == ca->receiving &&
	    tcp_jiffies32 - ca->last_upd < msecs_to_jiffies(AIRTIME_RECHECK_MS))
		return;
	ca->gen = gen;
	ca->receiving = receiving;
	ca->last_upd = tcp_jiffies32;

	if (!READ_ONCE(airtime_fb_bound))
		return airtime_no_cap(ca, AIRTIME_SRC_NONE);
	dst = __sk_dst_get(sk);
	if (!dst || !dst->dev)
		return airtime_no_cap(ca, AIRTIME_SRC_NOVIEW);

	/*
	 * Station x: the next hop at an AP, ourselves at a station.  The
	 * next hop is also the peer whose rate changes (event D) apply, and
	 * behind a bridge it picks the port.
	 */
	have_peer = airtime_next_hop(sk, dst, peer);
	rcu_read_lock();
	ifc = airtime_iface_route(dst->dev, peer, have_peer);
	snap = ifc ? rcu_dereference(ifc->snap) : NULL;
	if (!snap || !snap->slot_us) {
		airtime_no_cap(ca, AIRTIME_SRC_NOVIEW);
		goto unlock;
	}
	if (ktime_get_ns() - snap->stamp_ns >
	    airtime_stale_ns(snap->slot_us, READ_ONCE(n),
			     READ_ONCE(beacon_tu))) {
		airtime_no_cap(ca, AIRTIME_SRC_STALE);
		goto unlock;
	}

	if (snap->source == IEEE80211_AIRTIME_SRC_AP) {
		if (!have_peer) {
			airtime_no_cap(ca, AIRTIME_SRC_NOVIEW);
			goto unlock;
		}
		ether_addr_copy(addr, peer);
		for (i = 0; i < snap->n_sta; i++)
			if (ether_addr_equal(snap->sta[i].addr, addr))
				break;
	} else {
		i = 0;
		if (snap->n_sta)
			ether_addr_copy(addr, snap->sta[0].addr);
		else
			eth_zero_addr(addr);
	}
	if (i < snap->n_sta) {
		found = true;
		t_x = snap->sta[i].occ_us;
		rate = snap->sta[i].rate_kbps;
		rx_rate = snap->sta[i].rx_rate_kbps;
	}
	if (have_peer)
		rate = airtime_rate_toward(ifc, snap, peer, rate);

	/* join the group of station x */
	if (!ca->grp || !ether_addr_equal(ca->addr, addr) ||
	    ca->grp->dev != ifc->dev) {
		airtime_group_put(ca->grp);
		ca->grp = airtime_group_get(ifc->dev, addr);
		ether_addr_copy(ca->addr, addr);
		ca->seq = snap->seq;
		ca->byte_mark = tp->bytes_acked + tp->bytes_received;
		ca->segs_mark = tp->data_segs_out + tp->data_segs_in;
	}
	if (!ca->grp) {
		airtime_no_cap(ca, AIRTIME_SRC_NOVIEW);
		goto unlock;
	}

	/*
	 * (1)-(5), with occupancies in the model's units (airtime_model.h,
	 * "Occupancy as the model counts it"): station x's is the larger of
	 * the view's and its connections' tau of the last slot, the others'
	 * are scaled by x's ratio of the two.  A station x not in the view
	 * is about to become active: count it with t_x = 0.  A station's own
	 * view knows only itself (airtime_sta_share_us()), unless its AP
	 * advertises the occupancy of every station it counts active
	 * (IEEE80211_AIRTIME_SRC_STA_AP): then the station splits the slot
	 * as the AP would.
	 */
	tau = airtime_group_tau(ca->grp, snap->seq);
	n_act = max_t(u32, snap->n_active, snap->n_sta) + !found;
	if (snap->source == IEEE80211_AIRTIME_SRC_AP ||
	    snap->source == IEEE80211_AIRTIME_SRC_STA_AP) {
		u32 ratio = airtime_occ_ratio_q16(t_x, tau);
		u32 t_own = airtime_occ_own_us(t_x, tau);

		airtime_split_init(&bss, airtime_bss_avail_us(snap->slot_us,
							      snap->beacon_us),
				   n_act, r_pm);
		for (i = 0; i < snap->n_sta; i++) {
			u64 t = airtime_occ_scale(snap->sta[i].occ_us, ratio);

			if (found && ether_addr_equal(snap->sta[i].addr, addr))
				t = t_own;
			airtime_split_add(&bss, (u32)min_t(u64, t, U32_MAX));
		}
		if (!found)
			airtime_split_add(&bss, t_own);
		airtime_split_add_many(&bss,
				       airtime_occ_scale(snap->others_us, ratio),
				       n_act - !found - snap->n_sta);
		airtime_split_finish(&bss);
		x_avail = airtime_split_share_us(&bss, t_own);
	} else {
		x_avail = airtime_sta_share_us(snap->slot_us, snap->beacon_us,
					       snap->busy_us, n_act, t_x, tau,
					       r_pm, &bss);
	}

	/*
	 * lambda and C: the segments this connection mostly moves, and the
	 * rate they travel at.  A receiver gets its data at the peer's rate
	 * (the view's receive rate), which differs from its own on an
	 * asymmetric link; while that is unknown, the transmit rate.
	 */
	mss = receiving ? inet_csk(sk)->icsk_ack.rcv_mss : tp->mss_cache;
	if (!mss)
		mss = tp->mss_cache;
	if (receiving && rx_rate)
		rate = rx_rate;
	hdr = airtime_hdr_len(sk);
	t_tcp = airtime_t_tcp(rate, mss, hdr, snap->rts_threshold);
	if (!t_tcp) {
		airtime_no_cap(ca, AIRTIME_SRC_NORATE);
		ca->rate_kbps = rate;
		goto unlock;
	}
	ca->rate_kbps = rate;

	/*
	 * (6)-(9): our tau_x,j in the slot that ended, reported once per
	 * slot, and whether we moved data in it (sent or received a data
	 * segment, or had data acknowledged): M_x counts only those.  The
	 * group's sums of the slot before.
	 */
	new_slot = ca->seq != snap->seq;
	if (new_slot) {
		bytes = tp->bytes_acked + tp->bytes_received - ca->byte_mark;
		segs = tp->data_segs_out + tp->data_segs_in;
		active = bytes || segs != ca->segs_mark;
		ca->byte_mark += bytes;
		ca->segs_mark = segs;
		ca->seq = snap->seq;
		ca->tau_us = (u32)min_t(u64, U32_MAX,
					div64_u64(bytes * t_tcp,
						  (u64)mss * READ_ONCE(b) *
						  NSEC_PER_USEC));
	}
	airtime_group_report(ca->grp, snap->seq, new_slot, ca->tau_us, active,
			     x_avail, r_pm, &conn);
	ca->m = min_t(u32, conn.n, U16_MAX);
	ca->share_us = airtime_split_share_us(&conn, ca->tau_us);

	/* (10), (13) */
	theta = airtime_theta_bps(ca->share_us, t_tcp, mss, READ_ONCE(b),
				  snap->slot_us);
	ca->theta = (u32)min_t(u64, theta, U32_MAX);
	rtt = tcp_min_rtt(tp);
	if (rtt == ~0U || !rtt)
		rtt = tp->srtt_us >> 3;
	ca->rtt_us = rtt;
	ca->wnd_max = rtt ? max_t(u32, AIRTIME_MIN_CWND,
				  airtime_wnd_max_segs(rtt, theta, mss)) : 0;
	ca->n_active = min_t(u32, n_act, U16_MAX);
	ca->source = airtime_src_of_view(snap->source);
unlock:
	rcu_read_unlock();
}

/* Sender: cwnd <= wnd_max, through snd_cwnd_clamp */
static void airtime_apply_cap(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (!ca->inited)
		return;
	if (!ca->wnd_max) {
		tp->snd_cwnd_clamp = ca->cwnd_clamp;
		return;
	}
	tp->snd_cwnd_clamp = min(ca->cwnd_clamp, ca->wnd_max);
	if (tcp_snd_cwnd(tp) > tp->snd_cwnd_clamp)
		tcp_snd_cwnd_set(tp, tp->snd_cwnd_clamp);
}

/* As __airtime_update(); logs changes of the cap (dynamic debug) */
static void airtime_update(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	u32 wnd_max = ca->wnd_max;
	u8 source = ca->source;

	__airtime_update(sk);
	if (ca->wnd_max != wnd_max || ca->source != source)
		pr_debug("port %u->%u: source %s N %u M %u share %u us theta %u B/s RTT_min %u us wnd_max %u\n",
			 inet_sk(sk)->inet_num, ntohs(inet_sk(sk)->inet_dport),
			 airtime_src_names[ca->source], ca->n_active, ca->m,
			 ca->share_us, ca->theta, ca->rtt_us, ca->wnd_max);
}

/* ---- receiver: advertised window clamp ------------------------------ */

/* The receiver's own RTT estimate: handshake/ACK min RTT or DRS estimate */
static u32 airtime_rcv_rtt(const struct tcp_sock *tp)
{
	u32 rtt = tcp_min_rtt(tp), drs = tp->rcv_rtt_est.rtt_us >> 3;

	if (rtt == ~0U || !rtt)
		rtt = drs;
	else if (drs)
		rtt = min(rtt, drs);
	return rtt;
}

/*
 * window_clamp = @clamp as tcp_set_window_clamp() (TCP_WINDOW_CLAMP) sets
 * it for a connected socket.  That function is not exported to modules in
 * 6.12, so this is its body for a non-zero value: never below
 * SOCK_MIN_RCVBUF / 2, a lower clamp lowers rcv_ssthresh with the reserved
 * memory provisioning, a higher one raises rcv_ssthresh up to rcv_wnd.
 */
static void airtime_set_window_clamp(struct sock *sk, u32 clamp)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 old = tp->window_clamp;

	clamp = max_t(u32, clamp, SOCK_MIN_RCVBUF / 2);
	if (clamp == old)
		return;
	WRITE_ONCE(tp->window_clamp, clamp);
	if (clamp < old)
		__tcp_adjust_rcv_ssthresh(sk, clamp);
	else
		tp->rcv_ssthresh = max(min(tp->rcv_wnd, clamp),
				       tp->rcv_ssthresh);
}

/*
 * Keep the clamp that is set: receive buffer autotuning
 * (tcp_rcv_space_adjust()) sets window_clamp from the buffer it grows, and
 * grows it only when more than rcvq_space.space was read in an RTT, which
 * cannot happen once rcvq_space.space is at least the window offered (the
 * clamp, or the larger window offered before it, which TCP never
 * retracts).  tcp_init_buffer_space() resets rcvq_space.space after
 * ->init; this puts it back.  Cheap: it runs on every ACK the socket
 * processes.  Holding autotuning also stops it growing the buffer: that
 * part of its job is airtime_rcv_room()'s.
 */
static void airtime_rcv_hold(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (likely(!ca->rcv_cap))
		return;
	if (tp->window_clamp > ca->rcv_cap)
		airtime_set_window_clamp(sk, ca->rcv_cap);
	tp->rcvq_space.space = max_t(u32, tp->rcvq_space.space,
				     max(ca->rcv_cap, tp->rcv_wnd));
}

/*
 * Autotuning's part that the hold stops: a receive buffer that carries
 * the clamp.  Without it a clamp above the window of the initial buffer
 * (tcp_rmem[1], 128 KiB: about 64 KiB of window) is never offered: a lone
 * station at 23 Mbit/s and 40 ms, clamped to 118 KB, kept rcv_ssthresh at
 * 80 KB and received 15 Mbit/s.  The buffer grows as tcp_rcv_space_adjust()
 * grows it for @cap bytes read a round trip: twice that (one round trip
 * of data the application has not read yet, or a loss), up to tcp_rmem[2];
 * never shrinks; and only where autotuning would (tcp_moderate_rcvbuf,
 * no SO_RCVBUF).  Returns whether the buffer is autotuning's to size.
 */
static bool airtime_rcv_room(struct sock *sk, u32 cap)
{
	const struct net *net = sock_net(sk);
	int rmem_max = READ_ONCE(net->ipv4.sysctl_tcp_rmem[2]);
	int want;

	if (!READ_ONCE(net->ipv4.sysctl_tcp_moderate_rcvbuf) ||
	    (sk->sk_userlocks & SOCK_RCVBUF_LOCK))
		return false;
	want = min_t(u64, 2ULL * cap, rmem_max);
	want = min(tcp_space_from_win(sk, want), rmem_max);
	if (want > READ_ONCE(sk->sk_rcvbuf))
		WRITE_ONCE(sk->sk_rcvbuf, want);
	return true;
}

/* Lift the clamp: the clamp before ours, bounded by the current buffer */
static void airtime_rcv_lift(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int space = tcp_win_from_space(sk, READ_ONCE(sk->sk_rcvbuf));

	if (!ca->rcv_cap)
		return;
	WRITE_ONCE(ca->rcv_cap, 0);
	atomic_dec(&airtime_rcv_capped);
	airtime_set_window_clamp(sk, max_t(u32, tp->window_clamp,
					   min_t(u32, ca->window_clamp, space)));
}

/* Recompute the clamp of @sk (socket locked) and set it */
static void airtime_rcv_apply(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cap = 0, rtt, mss = inet_csk(sk)->icsk_ack.rcv_mss;

	airtime_update(sk);
	/*
	 * The sender's cap follows at once: a connection that is not
	 * cwnd-limited (iperf3's control connection) gets no ->cong_avoid
	 * to bring cwnd under a smaller wnd_max.
	 */
	airtime_apply_cap(sk);
	rtt = airtime_rcv_rtt(tp);
	if (READ_ONCE(rcv_clamp) && ca->theta && rtt && mss) {
		cap = (u32)min_t(u64, U32_MAX,
				 airtime_wnd_max_bytes(rtt, ca->theta));
		cap = max3(cap, AIRTIME_MIN_CWND * mss,
			   (u32)SOCK_MIN_RCVBUF / 2);
	}

	if (cap) {
		u32 old = ca->rcv_cap, wc = tp->window_clamp;
		bool tuned;

		if (!old) {
			ca->window_clamp = wc;
			atomic_inc(&airtime_rcv_capped);
		}
		WRITE_ONCE(ca->rcv_cap, cap);
		/*
		 * The buffer first: in ->init, tcp_init_buffer_space() runs
		 * next and lowers the clamp to what the buffer offers.  Then
		 * lower a larger clamp.  Raise a smaller one only if nobody
		 * changed it since ours (the user's stays): where autotuning
		 * sizes the buffer, to the cap, as autotuning would have
		 * raised it with the buffer; elsewhere only our own clamp, and
		 * not beyond what the buffer or the clamp before ours allowed.
		 */
		tuned = airtime_rcv_room(sk, cap);
		if (wc > cap) {
			airtime_set_window_clamp(sk, cap);
		} else if (tuned && (wc == old || wc == ca->window_clamp)) {
			u32 full = tcp_full_space(sk);

			airtime_set_window_clamp(sk, max(wc, min(cap, full)));
		} else if (old && wc == old && cap > old) {
			u32 room = max_t(u32, ca->window_clamp,
					 tcp_full_space(sk));

			airtime_set_window_clamp(sk, min(cap, room));
		}
		airtime_rcv_hold(sk);
	} else {
		airtime_rcv_lift(sk);
	}
}

static struct sock *airtime_ca_sk(struct airtime_ca *ca)
{
	struct inet_connection_sock *icsk =
		container_of((void *)ca, struct inet_connection_sock,
			     icsk_ca_priv);

	return &icsk->icsk_inet.sk;
}

static u32 airtime_rcv_segs(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return READ_ONCE(tp->data_segs_in) + READ_ONCE(tp->data_segs_out);
}

/* One socket of the pass, from process context */
static void airtime_rcv_refresh(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);

	lock_sock(sk);
	if (inet_csk(sk)->icsk_ca_ops == &tcp_airtime && ca->inited &&
	    (1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_FIN_WAIT1 |
				   TCPF_FIN_WAIT2 | TCPF_CLOSE_WAIT)) {
		WRITE_ONCE(ca->rcv_segs, airtime_rcv_segs(sk));
		airtime_rcv_apply(sk);
		airtime_apply_cap(sk);	/* a sender idle since the change */
	}
	release_sock(sk);
}

/*
 * The receivers' pass: one work item for the module, queued when a view or
 * a rate change arrives (once per slot and interface) and, while any clamp
 * is set, at least every max(AIRTIME_RCV_IDLE_MS, two configured slots) to
 * notice that the views went stale.  It takes the sockets that moved data
 * since their last pass (reading two counters of each other socket, under
 * airtime_socks_lock, is all an idle socket costs) and, when no view
 * arrived since the last pass or the views went away, also every socket
 * with a clamp, to lift it.  Each is locked with lock_sock() in process
 * context, so a socket its user holds is simply waited for.
 */
static void airtime_rcv_workfn(struct work_struct *work)
{
	static struct sock *batch[AIRTIME_RCV_BATCH];	/* the work's own */
	static u32 pass;
	bool full = atomic_xchg(&airtime_rcv_full, 0) ||
		    !atomic_xchg(&airtime_rcv_viewed, 0);
	struct airtime_ca *ca;
	unsigned long delay;
	int i, cnt;
	u64 stale;

	if (!++pass)
		pass = 1;	/* 0 is a new socket's */
	do {
		cnt = 0;
		spin_lock_bh(&airtime_socks_lock);
		list_for_each_entry(ca, &airtime_socks, node) {
			struct sock *sk = airtime_ca_sk(ca);

			if (ca->rcv_pass == pass)
				continue;
			ca->rcv_pass = pass;
			if ((!full || !READ_ONCE(ca->rcv_cap)) &&
			    airtime_rcv_segs(sk) == READ_ONCE(ca->rcv_segs))
				continue;
			/* the socket is freed only after ->release */
			if (!refcount_inc_not_zero(&sk->sk_refcnt))
				continue;
			batch[cnt++] = sk;
			if (cnt == AIRTIME_RCV_BATCH)
				break;
		}
		spin_unlock_bh(&airtime_socks_lock);
		for (i = 0; i < cnt; i++) {
			airtime_rcv_refresh(batch[i]);
			sock_put(batch[i]);
			cond_resched();
		}
	} while (cnt == AIRTIME_RCV_BATCH);

	if (!atomic_read(&airtime_rcv_capped))
		return;
	stale = airtime_stale_ns(0, READ_ONCE(n), READ_ONCE(beacon_tu));
	delay = max(msecs_to_jiffies(AIRTIME_RCV_IDLE_MS),
		    nsecs_to_jiffies(stale));
	/* a view that arrived meanwhile has queued it already */
	queue_delayed_work(system_wq, &airtime_rcv_work, delay);
}

/* ---- tcp_congestion_ops --------------------------------------------- */

static void airtime_init(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	memset(ca, 0, sizeof(*ca));
	ca->cwnd_clamp = tp->snd_cwnd_clamp;
	ca->gen = atomic_read(&airtime_gen) - 1;	/* compute at once */
	ca->source = AIRTIME_SRC_NONE;
	ca->inited = true;
	spin_lock_bh(&airtime_socks_lock);
	list_add_tail(&ca->node, &airtime_socks);
	spin_unlock_bh(&airtime_socks_lock);
	ca->rcv_segs = airtime_rcv_segs(sk);
	if (!READ_ONCE(airtime_fb_bound))
		return;
	/*
	 * Clamp before the first window that follows the handshake: ->init
	 * runs under the socket lock once the handshake completes, in
	 * tcp_init_transfer(), with the handshake's RTT sample and the
	 * receive MSS known; an active socket is ESTABLISHED, a passive one
	 * still SYN_RECV (tcp_rcv_state_process() sets ESTABLISHED after).
	 * The next ACK it processes puts back what tcp_init_buffer_space()
	 * resets (airtime_rcv_hold()).
	 */
	if ((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_SYN_RECV))
		airtime_rcv_apply(sk);
}

static void airtime_release(struct sock *sk)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (!ca->inited)
		return;
	spin_lock_bh(&airtime_socks_lock);
	list_del(&ca->node);
	spin_unlock_bh(&airtime_socks_lock);
	airtime_rcv_lift(sk);
	tp->snd_cwnd_clamp = ca->cwnd_clamp;
	airtime_group_put(ca->grp);
	ca->grp = NULL;
	ca->inited = false;
}

static void airtime_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	airtime_update(sk);
	tcp_reno_cong_avoid(sk, ack, acked);
	airtime_apply_cap(sk);
}

static u32 airtime_undo_cwnd(struct sock *sk)
{
	return min(tcp_reno_undo_cwnd(sk), tcp_sk(sk)->snd_cwnd_clamp);
}

/*
 * Every ACK the socket processes, a pure receiver's included: the slow
 * path (which the first data segment of a connection takes: no memory is
 * charged to it yet) calls this even when nothing new is acknowledged.
 * Keeps the receiver clamp that is set; recomputing is the pass's job.
 */
static void airtime_in_ack_event(struct sock *sk, u32 flags)
{
	struct airtime_ca *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	if (!ca->inited)
		return;
	/*
	 * The connection turned receiver: its peer's data came after its own
	 * request (or, on a passive open, after nothing).  Its clamp follows
	 * the receive rate from this segment on, not from the next pass; the
	 * first data segment takes the slow path, which calls us.
	 */
	if (!ca->receiving && tp->bytes_received > tp->bytes_acked &&
	    READ_ONCE(airtime_fb_bound))
		airtime_rcv_apply(sk);
	airtime_rcv_hold(sk);
}

/*
 * Transmission starts with nothing in flight: a request a receiver sends,
 * or a sender idle since its cap changed.  Both caps are brought up to
 * date before the data leaves.
 */
static void airtime_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct airtime_ca *ca = inet_csk_ca(sk);

	if (ev != CA_EVENT_TX_START || !ca->inited ||
	    !READ_ONCE(airtime_fb_bound))
		return;
	airtime_rcv_apply(sk);
	airtime_apply_cap(sk);
}

/*
 * Never more aggressive than NewReno (a cap only lowers cwnd or rwnd), so,
 * like reno, it is allowed to unprivileged users and as a netns default.
 *
 * No ->get_info(): inet_diag has no attribute for a new congestion control,
 * and ss(8) labels each one it knows by the algorithm that owns it ("bbr:",
 * "dctcp:"; Vegas's silently replaces the RTT of ss's "send" rate).
 * Answering with one of those would show our state as another algorithm's.
 * The per-connection state is in /proc/net/tcp_airtime instead.
 */
static struct tcp_congestion_ops tcp_airtime __read_mostly = {
	.flags		= TCP_CONG_NON_RESTRICTED,
	.init		= airtime_init,
	.release	= airtime_release,
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= airtime_cong_avoid,
	.undo_cwnd	= airtime_undo_cwnd,
	.in_ack_event	= airtime_in_ack_event,
	.cwnd_event	= airtime_cwnd_event,
	.owner		= THIS_MODULE,
	.name		= "airtime",
};

/* ---- /proc/net/tcp_airtime ------------------------------------------ */

static void *airtime_seq_start(struct seq_file *seq, loff_t *pos)
	__acquires(&airtime_socks_lock)
{
	spin_lock_bh(&airtime_socks_lock);
	return seq_list_start(&airtime_socks, *pos);
}

static void *airtime_seq_next(struct seq_file *seq, void *v, loff_t *pos)
{
	return seq_list_next(v, &airtime_socks, pos);
}

static void airtime_seq_stop(struct seq_file *seq, void *v)
	__releases(&airtime_socks_lock)
{
	spin_unlock_bh(&airtime_socks_lock);
}

/* "addr:port" as ss(8) prints it ("[addr]:port" for IPv6) */
static void airtime_seq_addrs(struct seq_file *seq, const struct sock *sk)
{
	const struct inet_sock *inet = inet_sk(sk);

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		seq_printf(seq, "[%pI6c]:%u [%pI6c]:%u",
			   &sk->sk_v6_rcv_saddr, inet->inet_num,
			   &sk->sk_v6_daddr, ntohs(inet->inet_dport));
		return;
	}
#endif
	seq_printf(seq, "%pI4:%u %pI4:%u", &inet->inet_rcv_saddr,
		   inet->inet_num, &inet->inet_daddr, ntohs(inet->inet_dport));
}

/*
 * One line per airtime connection of the reader's network namespace, with
 * what the cap is made of.  Read under airtime_socks_lock, not the socket
 * lock: each value is as its socket last wrote it (as inet_diag reads a
 * congestion control's state), and the socket stays until ->release, which
 * takes airtime_socks_lock to leave the list.
 */
static int airtime_seq_show(struct seq_file *seq, void *v)
{
	struct airtime_ca *ca = list_entry(v, struct airtime_ca, node);
	struct inet_connection_sock *icsk =
		container_of((void *)ca, struct inet_connection_sock,
			     icsk_ca_priv);
	const struct sock *sk = &icsk->icsk_inet.sk;
	const struct tcp_sock *tp = tcp_sk(sk);
	u8 source = ca->source;
	bool receiving = ca->receiving;
	u32 mss;

	if (!net_eq(sock_net(sk), seq_file_net(seq)))
		return 0;
	mss = receiving ? READ_ONCE(icsk->icsk_ack.rcv_mss) : 0;
	if (!mss)
		mss = READ_ONCE(tp->mss_cache);
	airtime_seq_addrs(seq, sk);
	seq_printf(seq, " dir %s source %s N %u M %u sta %pM rate %u mss %u tau %u share %u theta %u rtt_min %u wnd_max %u cwnd %u rcv_cap %u\n",
		   receiving ? "recv" : "send",
		   source < ARRAY_SIZE(airtime_src_names) ?
		   airtime_src_names[source] : "?",
		   READ_ONCE(ca->n_active), READ_ONCE(ca->m), ca->addr,
		   READ_ONCE(ca->rate_kbps), mss, READ_ONCE(ca->tau_us),
		   READ_ONCE(ca->share_us), READ_ONCE(ca->theta),
		   READ_ONCE(ca->rtt_us), READ_ONCE(ca->wnd_max),
		   tcp_snd_cwnd(tp), READ_ONCE(ca->rcv_cap));
	return 0;
}

static const struct seq_operations airtime_seq_ops = {
	.start	= airtime_seq_start,
	.next	= airtime_seq_next,
	.stop	= airtime_seq_stop,
	.show	= airtime_seq_show,
};

static int __net_init airtime_net_init(struct net *net)
{
	if (!proc_create_net("tcp_airtime", 0444, net->proc_net,
			     &airtime_seq_ops, sizeof(struct seq_net_private)))
		return -ENOMEM;
	return 0;
}

static void __net_exit airtime_net_exit(struct net *net)
{
	remove_proc_entry("tcp_airtime", net->proc_net);
}

static struct pernet_operations airtime_net_ops = {
	.init = airtime_net_init,
	.exit = airtime_net_exit,
};

/* ---- module parameters ---------------------------------------------- */

#define AIRTIME_UINT_PARAM(name, min, max)				\
static int airtime_set_##name(const char *val,				\
			      const struct kernel_param *kp)		\
{									\
	return param_set_uint_minmax(val, kp, min, max);		\
}									\
static const struct kernel_param_ops airtime_##name##_ops = {		\
	.set = airtime_set_##name,					\
	.get = param_get_uint,						\
}

AIRTIME_UINT_PARAM(r, 1, 99);
AIRTIME_UINT_PARAM(b, 1, 8);

/*
 * n and beacon_tu: each in its range, and together a slot of at most
 * AIRTIME_SLOT_MAX_TU.  Module parameters have no extack: a refused
 * combination says why in the kernel log.  Parameter writes are serialized
 * (kernel_param_lock), so the other one's value is stable here.
 */
static int airtime_set_slot(const char *val, const struct kernel_param *kp,
			    unsigned int min, unsigned int max)
{
	bool is_n = kp->arg == &n;
	unsigned int v, slot_n, slot_tu;
	int err;

	err = kstrtouint(val, 0, &v);
	if (err)
		return err;
	if (v < min || v > max)
		return -EINVAL;
	slot_n = is_n ? v : n;
	slot_tu = is_n ? beacon_tu : v;
	if (!airtime_slot_cfg_ok(slot_n, slot_tu)) {
		pr_warn("%s=%u refused: n * beacon_tu = %u * %u TU is a slot longer than %u TU (%u ms)\n",
			kp->name, v, slot_n, slot_tu, AIRTIME_SLOT_MAX_TU,
			AIRTIME_SLOT_MAX_TU * AIRTIME_TU_US / 1000U);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int airtime_set_n(const char *val, const struct kernel_param *kp)
{
	return airtime_set_slot(val, kp, 1, 16);
}

static int airtime_set_beacon_tu(const char *val,
				 const struct kernel_param *kp)
{
	return airtime_set_slot(val, kp, 10, 1000);
}

static const struct kernel_param_ops airtime_n_ops = {
	.set = airtime_set_n,
	.get = param_get_uint,
};

static const struct kernel_param_ops airtime_beacon_tu_ops = {
	.set = airtime_set_beacon_tu,
	.get = param_get_uint,
};

module_param_cb(n, &airtime_n_ops, &n, 0644);
MODULE_PARM_DESC(n, "Observation slot in beacon intervals, 1-16 (3), n * beacon_tu <= 4000; views older than 2 slots are ignored");
module_param_cb(beacon_tu, &airtime_beacon_tu_ops, &beacon_tu, 0644);
MODULE_PARM_DESC(beacon_tu, "Beacon interval in TU, 10-1000 (100), n * beacon_tu <= 4000");
module_param_cb(r, &airtime_r_ops, &r, 0644);
MODULE_PARM_DESC(r, "Satisfaction threshold r in percent, 1-99 (80)");
module_param_cb(b, &airtime_b_ops, &b, 0644);
MODULE_PARM_DESC(b, "TCP segments per TCP ACK (delayed ACK factor), 1-8 (2)");
static int airtime_set_rts(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (sysfs_streq(val, "auto")) {
		WRITE_ONCE(rts, -1);
		return 0;
	}
	if (kstrtobool(val, &on))
		return -EINVAL;
	WRITE_ONCE(rts, on);
	return 0;
}

static int airtime_get_rts(char *buf, const struct kernel_param *kp)
{
	int mode = READ_ONCE(rts);

	return sysfs_emit(buf, "%s\n", mode < 0 ? "auto" : mode ? "on" : "off");
}

static const struct kernel_param_ops airtime_rts_ops = {
	.set = airtime_set_rts,
	.get = airtime_get_rts,
};

module_param_cb(rts, &airtime_rts_ops, NULL, 0644);
MODULE_PARM_DESC(rts, "RTS/CTS in the model: auto (the wiphy's RTS threshold, as mac80211), on (before every frame), off");
module_param(rcv_clamp, bool, 0644);
MODULE_PARM_DESC(rcv_clamp, "Clamp the advertised window of receiving sockets to wnd_max (Y)");

static const char * const airtime_phy_names[] = {
	[AIRTIME_PHY_11A] = "11a",
	[AIRTIME_PHY_11G] = "11g",
	[AIRTIME_PHY_11G_PROT] = "11g-prot",
	[AIRTIME_PHY_HT_2GHZ] = "ht2g",
	[AIRTIME_PHY_HT_5GHZ] = "ht5g",
};

static int airtime_set_phy(const char *val, const struct kernel_param *kp)
{
	int i;

	if (sysfs_streq(val, "auto")) {
		WRITE_ONCE(phy_std, -1);
		return 0;
	}
	i = sysfs_match_string(airtime_phy_names, val);
	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(phy_std, i);
	atomic_inc(&airtime_gen);
	return 0;
}

static int airtime_get_phy(char *buf, const struct kernel_param *kp)
{
	int std = READ_ONCE(phy_std);

	return sysfs_emit(buf, "%s\n", std < 0 ? "auto" :
			  airtime_phy_names[std]);
}

static const struct kernel_param_ops airtime_phy_ops = {
	.set = airtime_set_phy,
	.get = airtime_get_phy,
};

module_param_cb(phy, &airtime_phy_ops, NULL, 0644);
MODULE_PARM_DESC(phy, "PHY timing: auto (11a for legacy rates, ht5g otherwise), 11a, 11g, 11g-prot, ht2g, ht5g");

static int airtime_get_feedback(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", READ_ONCE(airtime_fb_bound) ?
			  "mac80211" : "none (NewReno)");
}

static const struct kernel_param_ops airtime_feedback_ops = {
	.get = airtime_get_feedback,
};

module_param_cb(feedback, &airtime_feedback_ops, NULL, 0444);
MODULE_PARM_DESC(feedback, "Feedback source in use (read only)");

/* The cached views and station groups, one line each (read only) */
static int airtime_get_views(char *buf, const struct kernel_param *kp)
{
	const struct airtime_rate_upd *upd;
	const struct airtime_snap *snap;
	struct airtime_iface *ifc;
	struct airtime_group *g;
	int len = 0, bkt, i;

	rcu_read_lock();
	hash_for_each_rcu(airtime_views, bkt, ifc, node) {
		snap = rcu_dereference(ifc->snap);
		if (!snap)
			continue;
		len += scnprintf(buf + len, PAGE_SIZE - len,
				 "view %s ifindex %d seq %u source %s T %u beacon %u busy %u N %u others %u age_ms %llu rts_threshold %d\n",
				 ifc->name, ifc->ifindex, snap->seq,
				 airtime_src_names[airtime_src_of_view(snap->source)] +
				 strlen(AIRTIME_SRC_PREFIX), snap->slot_us,
				 snap->beacon_us, snap->busy_us, snap->n_active,
				 snap->others_us,
				 div_u64(ktime_get_ns() - snap->stamp_ns,
					 NSEC_PER_MSEC),
				 snap->rts_threshold == AIRTIME_RTS_OFF ? -1 :
				 (int)min_t(u32, snap->rts_threshold, INT_MAX));
		for (i = 0; i < snap->n_sta; i++)
			len += scnprintf(buf + len, PAGE_SIZE - len,
					 " sta %pM occ %u rate %u rx_rate %u\n",
					 snap->sta[i].addr, snap->sta[i].occ_us,
					 snap->sta[i].rate_kbps,
					 snap->sta[i].rx_rate_kbps);
		/* rate changes (event D) since this view */
		spin_lock_bh(&ifc->rate_lock);
		for (i = 0; i < ARRAY_SIZE(ifc->rates); i++) {
			upd = &ifc->rates[i];
			if (upd->rate_kbps && upd->seq == snap->seq)
				len += scnprintf(buf + len, PAGE_SIZE - len,
						 " rate_change %pM rate %u\n",
						 upd->addr, upd->rate_kbps);
		}
		spin_unlock_bh(&ifc->rate_lock);
	}
	rcu_read_unlock();

	spin_lock_bh(&airtime_grp_lock);
	hash_for_each(airtime_groups, bkt, g, node) {
		spin_lock(&g->lock);
		len += scnprintf(buf + len, PAGE_SIZE - len,
				 "group %pM conns %u M %u seq %u tau_sum %llu unsat %u\n",
				 g->addr, g->conns, g->sums.prev_active,
				 g->sums.seq, g->sums.prev_sum_us,
				 g->sums.prev_unsat);
		spin_unlock(&g->lock);
	}
	spin_unlock_bh(&airtime_grp_lock);
	return len;
}

static const struct kernel_param_ops airtime_views_ops = {
	.get = airtime_get_views,
};

module_param_cb(views, &airtime_views_ops, NULL, 0444);
MODULE_PARM_DESC(views, "Cached mac80211 airtime views, rate changes and station groups (read only)");

/* ---- module ---------------------------------------------------------- */

static int __init airtime_register(void)
{
	int ret;

	BUILD_BUG_ON(sizeof(struct airtime_ca) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(AIRTIME_SRC_MAX >= 1 << 4);	/* source:4 */

	ret = register_pernet_subsys(&airtime_net_ops);
	if (ret)
		return ret;
	ret = register_module_notifier(&airtime_module_nb);
	if (ret)
		goto err_net;
	airtime_fb_bind();
	ret = tcp_register_congestion_control(&tcp_airtime);
	if (ret) {
		unregister_module_notifier(&airtime_module_nb);
		cancel_work_sync(&airtime_bind_work);
		airtime_fb_unbind();
		goto err_net;
	}
	if (!READ_ONCE(airtime_fb_bound))
		pr_info("no mac80211 airtime feedback, behaving as NewReno\n");
	return 0;

err_net:
	unregister_pernet_subsys(&airtime_net_ops);
	return ret;
}

static void __exit airtime_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_airtime);
	unregister_module_notifier(&airtime_module_nb);
	cancel_work_sync(&airtime_bind_work);
	airtime_fb_unbind();
	/* no socket runs airtime now: the pass finds nothing to do */
	cancel_delayed_work_sync(&airtime_rcv_work);
	unregister_pernet_subsys(&airtime_net_ops);
	synchronize_rcu();
	rcu_barrier();
}

module_init(airtime_register);
module_exit(airtime_unregister);

MODULE_AUTHOR("airqueue");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TCP airtime: channel occupancy time based rate control for 802.11");
