// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only stand-in for the patched mac80211's airtime feedback
 * (include/net/mac80211_feedback.h): it exports the same registration
 * symbols and pushes a synthetic airtime view for one netdev of the initial
 * namespace every @period_ms, so that tcp_airtime's cap can be exercised on
 * a veth.  Never load it together with a patched mac80211.
 *
 * Writing "MAC KBPS" to the parameter rate_change makes the next push be
 * followed at once by ->rate_change(dev, MAC, KBPS) (event D); rc_done
 * counts the calls made.  The pushes then pause (paused=Y) until the test
 * writes N to paused: whatever the guest's speed, the view that the rate
 * change follows stays the current one while the test looks.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/mac80211_feedback.h>

static char ifname[IFNAMSIZ] = "aqv0";
module_param_string(ifname, ifname, sizeof(ifname), 0644);
static unsigned int source;
module_param(source, uint, 0644);
static unsigned int slot_us = 307200;
module_param(slot_us, uint, 0644);
static unsigned int beacon_us = 7200;
module_param(beacon_us, uint, 0644);
static unsigned int busy_us;
module_param(busy_us, uint, 0644);
static unsigned int n_active = 2;
module_param(n_active, uint, 0644);
static unsigned int others_us;
module_param(others_us, uint, 0644);
static unsigned int period_ms = 100;
module_param(period_ms, uint, 0644);
static char *addrs[4];
static int n_addrs;
module_param_array(addrs, charp, &n_addrs, 0444);
static unsigned int occ[4];
static int n_occ;
module_param_array(occ, uint, &n_occ, 0644);
static unsigned int rate[4];
static int n_rate;
module_param_array(rate, uint, &n_rate, 0644);
static unsigned int rx_rate[4];
static int n_rx_rate;
module_param_array(rx_rate, uint, &n_rx_rate, 0644);

static struct ieee80211_feedback_ops __rcu *consumer;
static DEFINE_MUTEX(fakefb_lock);
static struct delayed_work fakefb_work;
static u32 fakefb_seq;

/* a pending ->rate_change(), under fakefb_lock */
static u8 rc_addr[ETH_ALEN];
static u32 rc_kbps;
static bool rc_pending;
static unsigned int rc_done;
module_param(rc_done, uint, 0444);
static bool paused;
module_param(paused, bool, 0644);

static int fakefb_set_rc(const char *val, const struct kernel_param *kp)
{
	char mac[18];
	u8 addr[ETH_ALEN];
	u32 kbps;

	if (sscanf(val, "%17s %u", mac, &kbps) != 2 || !mac_pton(mac, addr))
		return -EINVAL;
	mutex_lock(&fakefb_lock);
	ether_addr_copy(rc_addr, addr);
	rc_kbps = kbps;
	rc_pending = true;
	mutex_unlock(&fakefb_lock);
	return 0;
}

static const struct kernel_param_ops fakefb_rc_ops = {
	.set = fakefb_set_rc,
};
module_param_cb(rate_change, &fakefb_rc_ops, NULL, 0200);

int ieee80211_feedback_register(struct ieee80211_feedback_ops *ops)
{
	if (ops->api_version != IEEE80211_FEEDBACK_API_VERSION)
		return -EPROTO;
	mutex_lock(&fakefb_lock);
	if (rcu_access_pointer(consumer)) {
		mutex_unlock(&fakefb_lock);
		return -EBUSY;
	}
	rcu_assign_pointer(consumer, ops);
	mutex_unlock(&fakefb_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(ieee80211_feedback_register);

void ieee80211_feedback_unregister(struct ieee80211_feedback_ops *ops)
{
	mutex_lock(&fakefb_lock);
	if (rcu_access_pointer(consumer) == ops)
		RCU_INIT_POINTER(consumer, NULL);
	mutex_unlock(&fakefb_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(ieee80211_feedback_unregister);

static void fakefb_push(struct work_struct *work)
{
	static struct ieee80211_airtime_view view;
	struct ieee80211_feedback_ops *ops;
	struct net_device *dev;
	int i;

	dev = dev_get_by_name(&init_net, ifname);
	if (dev && READ_ONCE(paused)) {
		dev_put(dev);
		dev = NULL;
	}
	if (dev) {
		memset(&view, 0, sizeof(view));
		view.dev = dev;
		view.seq = ++fakefb_seq;
		view.source = source;
		view.slot_us = slot_us;
		view.beacon_us = beacon_us;
		view.busy_us = busy_us;
		view.n_active = n_active;
		view.others_us = others_us;
		for (i = 0; i < n_addrs; i++) {
			if (!mac_pton(addrs[i], view.sta[i].addr))
				break;
			view.sta[i].occ_us = i < n_occ ? occ[i] : 0;
			view.sta[i].rate_kbps = i < n_rate ? rate[i] : 0;
			view.sta[i].rx_rate_kbps = i < n_rx_rate ?
						   rx_rate[i] : 0;
		}
		view.n_sta = i;
		mutex_lock(&fakefb_lock);
		rcu_read_lock();
		ops = rcu_dereference(consumer);
		if (ops && ops->airtime_slot) {
			local_bh_disable();
			ops->airtime_slot(&view);
			local_bh_enable();
		}
		/* as mac80211's tx status path calls it: atomic context */
		if (ops && ops->rate_change && rc_pending) {
			local_bh_disable();
			ops->rate_change(dev, rc_addr, rc_kbps);
			local_bh_enable();
			rc_pending = false;
			WRITE_ONCE(paused, true);
			WRITE_ONCE(rc_done, rc_done + 1);
		}
		rcu_read_unlock();
		mutex_unlock(&fakefb_lock);
		dev_put(dev);
	}
	schedule_delayed_work(&fakefb_work,
			      msecs_to_jiffies(max(period_ms, 10U)));
}

static int __init fakefb_init(void)
{
	INIT_DELAYED_WORK(&fakefb_work, fakefb_push);
	schedule_delayed_work(&fakefb_work, 0);
	return 0;
}

static void __exit fakefb_exit(void)
{
	struct ieee80211_feedback_ops *ops;

	cancel_delayed_work_sync(&fakefb_work);
	mutex_lock(&fakefb_lock);
	ops = rcu_dereference_protected(consumer,
					lockdep_is_held(&fakefb_lock));
	RCU_INIT_POINTER(consumer, NULL);
	mutex_unlock(&fakefb_lock);
	synchronize_rcu();
	/* as mac80211 does when it goes away */
	if (ops && ops->detach)
		ops->detach(NULL);
}

module_init(fakefb_init);
module_exit(fakefb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("airqueue test: fake mac80211 airtime feedback for tcp_airtime");
