// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only stand-in for the patched mac80211's feedback provider
 * (include/net/mac80211_feedback.h): exports ieee80211_feedback_register()
 * and ieee80211_feedback_unregister() and lets a test inject per-frame tx
 * status through debugfs, so that sch_ebdp's run-time binding and its
 * mac80211 service-time source can be tested without Wi-Fi or the
 * mac80211 series.  Never load it together with a patched mac80211.
 *
 *   echo "DEV SERVICE_US COUNT [FLAGS [AMPDU_LEN [QUEUE [NSTA [NREP]]]]]" \
 *	> /sys/kernel/debug/ebdp_fbmock/inject
 *
 * injects COUNT frames that entered the MAC at once and completed
 * SERVICE_US apart: each was served (at the head) for SERVICE_US.  With
 * AMPDU_LEN > 1 they go in aggregates of AMPDU_LEN subframes (set
 * IEEE80211_TXFB_AMPDU, 2, in FLAGS) that complete together, each
 * aggregate AMPDU_LEN * SERVICE_US after the previous one.  QUEUE is the
 * netdev tx queue the frames left (default 0).  With NSTA > 1, the
 * aggregates go to NSTA receivers in turn (DEV's address with its last
 * byte + 0..NSTA-1), one aggregate each per round, and the reports of a
 * round's subframes come interleaved (receiver 0's first, receiver 1's
 * first, ..., receiver 0's second, ...), as when several aggregates'
 * statuses are processed together.  With NREP < AMPDU_LEN only the first
 * NREP subframes of each aggregate are reported (the others "go out
 * again later" and are never reported).  COUNT counts reports.
 *   cat /sys/kernel/debug/ebdp_fbmock/consumers
 */
#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <net/mac80211_feedback.h>

static LIST_HEAD(fbmock_consumers);
static DEFINE_MUTEX(fbmock_lock);
static struct dentry *fbmock_dir;
static u64 fbmock_clock;	/* last done_ns injected, ns */

int ieee80211_feedback_register(struct ieee80211_feedback_ops *ops)
{
	if (ops->api_version != IEEE80211_FEEDBACK_API_VERSION)
		return -EPROTO;
	mutex_lock(&fbmock_lock);
	list_add_tail_rcu(&ops->list, &fbmock_consumers);
	mutex_unlock(&fbmock_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(ieee80211_feedback_register);

void ieee80211_feedback_unregister(struct ieee80211_feedback_ops *ops)
{
	mutex_lock(&fbmock_lock);
	list_del_rcu(&ops->list);
	mutex_unlock(&fbmock_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(ieee80211_feedback_unregister);

static ssize_t fbmock_inject(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct ieee80211_feedback_ops *ops;
	struct ieee80211_tx_feedback fb = {};
	unsigned int us, count, flags = IEEE80211_TXFB_ACKED, alen = 1, i;
	unsigned int queue = 0, nsta = 1, nrep = 0, per_round, r, j, k;
	char buf[96], name[IFNAMSIZ];
	struct net_device *dev;
	u8 addr[ETH_ALEN];
	u64 now;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "%15s %u %u %u %u %u %u %u", name, &us, &count,
		   &flags, &alen, &queue, &nsta, &nrep) < 3 || !alen ||
	    alen > 255 || queue > U16_MAX || !nsta || nsta > 255 ||
	    nrep > alen)
		return -EINVAL;
	if (!nrep)
		nrep = alen;
	dev = dev_get_by_name(&init_net, name);
	if (!dev)
		return -ENODEV;

	ether_addr_copy(addr, dev->dev_addr);
	fb.dev = dev;
	fb.queue = queue;
	fb.sta_addr = addr;
	fb.service_us = us;
	fb.ampdu_len = alen;
	fb.tid = 0;
	fb.flags = flags;
	/*
	 * A burst: the COUNT frames enter the MAC together and complete one
	 * aggregate after the other, AMPDU_LEN * SERVICE_US apart (a
	 * backlogged MAC), on a time line that never goes back, so that each
	 * aggregate is served for AMPDU_LEN * SERVICE_US.
	 */
	per_round = nsta * nrep;
	mutex_lock(&fbmock_lock);
	now = max(ktime_get_ns(), fbmock_clock);
	for (i = 0; i < count; i++) {
		r = i / per_round;		/* round */
		j = i % per_round;
		k = j % nsta;			/* receiver */
		addr[ETH_ALEN - 1] = dev->dev_addr[ETH_ALEN - 1] + k;
		fb.enqueue_ns = now;
		fb.done_ns = now + (u64)(r * nsta + k + 1) * alen * us *
			     NSEC_PER_USEC;
		fbmock_clock = max(fbmock_clock, fb.done_ns);
		local_bh_disable();
		rcu_read_lock();
		list_for_each_entry_rcu(ops, &fbmock_consumers, list)
			if (ops->tx_status)
				ops->tx_status(&fb);
		rcu_read_unlock();
		local_bh_enable();
	}
	mutex_unlock(&fbmock_lock);
	dev_put(dev);
	return len;
}

static int fbmock_consumers_show(struct seq_file *s, void *unused)
{
	struct ieee80211_feedback_ops *ops;

	mutex_lock(&fbmock_lock);
	list_for_each_entry(ops, &fbmock_consumers, list)
		seq_printf(s, "%s\n", ops->name);
	mutex_unlock(&fbmock_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fbmock_consumers);

static const struct file_operations fbmock_inject_fops = {
	.owner = THIS_MODULE,
	.write = fbmock_inject,
};

static int __init fbmock_init(void)
{
	fbmock_dir = debugfs_create_dir("ebdp_fbmock", NULL);
	debugfs_create_file("inject", 0200, fbmock_dir, NULL,
			    &fbmock_inject_fops);
	debugfs_create_file("consumers", 0400, fbmock_dir, NULL,
			    &fbmock_consumers_fops);
	return 0;
}

/* As mac80211 does when it goes away: ->detach(NULL) to every consumer. */
static void __exit fbmock_exit(void)
{
	struct ieee80211_feedback_ops *ops, *tmp;

	debugfs_remove_recursive(fbmock_dir);
	mutex_lock(&fbmock_lock);
	list_for_each_entry_safe(ops, tmp, &fbmock_consumers, list) {
		list_del_rcu(&ops->list);
		synchronize_rcu();
		ops->detach(NULL);
	}
	mutex_unlock(&fbmock_lock);
}

module_init(fbmock_init);
module_exit(fbmock_exit);
MODULE_DESCRIPTION("airqueue test stand-in for the mac80211 feedback provider");
MODULE_LICENSE("GPL");
