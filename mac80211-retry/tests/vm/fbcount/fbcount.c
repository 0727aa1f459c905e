// SPDX-License-Identifier: GPL-2.0
/*
 * Test consumer of mac80211 MAC feedback (mac80211-retry VM tests): counts
 * tx_status calls and their service times, visible as read-only module
 * parameters.  Binds at load with symbol_get() like sch_ebdp does.
 *
 * It also probes the context contract: writing "bh" or "task" to the
 * parameter probe makes one ieee80211_tx_feedback_report() call, about the
 * loopback device, with bottom halves disabled or from plain process
 * context.  probe_calls counts those that reached ->tx_status(),
 * bad_context the calls ->tx_status() got with bottom halves enabled or
 * in a hard interrupt.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <net/net_namespace.h>
#include <net/mac80211_feedback.h>

struct ieee80211_hw;
struct ieee80211_sta;
/* in the patched include/net/mac80211.h; bound at run time */
void ieee80211_tx_feedback_report(struct ieee80211_hw *hw,
				  struct ieee80211_sta *pubsta,
				  struct ieee80211_tx_feedback *fb);

/*
 * ->tx_status() runs on any CPU: the counters are updated under a lock so
 * none is lost; readers see each one whole (unsigned long), not all at one
 * instant.
 */
static DEFINE_SPINLOCK(fbcount_lock);
static unsigned long calls, acked, no_enqueue, service_us_sum;
static unsigned long queue_be, queue_other, probe_calls, bad_context;
static unsigned int detached;
static int bound;
module_param(calls, ulong, 0444);
module_param(acked, ulong, 0444);
module_param(no_enqueue, ulong, 0444);
module_param(service_us_sum, ulong, 0444);
module_param(queue_be, ulong, 0444);
module_param(queue_other, ulong, 0444);
module_param(probe_calls, ulong, 0444);
module_param(bad_context, ulong, 0444);
module_param(detached, uint, 0444);
module_param(bound, int, 0444);

static DECLARE_COMPLETION(fbcount_detached);

static void fbcount_tx_status(const struct ieee80211_tx_feedback *fb)
{
	unsigned long flags;

	spin_lock_irqsave(&fbcount_lock, flags);
	if (!in_softirq() || in_hardirq())
		WRITE_ONCE(bad_context, bad_context + 1);
	if (fb->dev == init_net.loopback_dev) {
		WRITE_ONCE(probe_calls, probe_calls + 1);
		spin_unlock_irqrestore(&fbcount_lock, flags);
		return;
	}
	WRITE_ONCE(calls, calls + 1);
	if (fb->flags & IEEE80211_TXFB_ACKED)
		WRITE_ONCE(acked, acked + 1);
	if (fb->flags & IEEE80211_TXFB_NO_ENQUEUE_TIME)
		WRITE_ONCE(no_enqueue, no_enqueue + 1);
	if (fb->queue == 2)	/* IEEE80211_AC_BE */
		WRITE_ONCE(queue_be, queue_be + 1);
	else
		WRITE_ONCE(queue_other, queue_other + 1);
	WRITE_ONCE(service_us_sum, service_us_sum + fb->service_us);
	spin_unlock_irqrestore(&fbcount_lock, flags);
}

static void fbcount_detach(struct net_device *dev)
{
	if (dev)
		return;
	detached++;
	complete(&fbcount_detached);
}

static struct ieee80211_feedback_ops fbcount_ops = {
	.api_version = IEEE80211_FEEDBACK_API_VERSION,
	.name = "fbcount",
	.tx_status = fbcount_tx_status,
	.detach = fbcount_detach,
};

/* A stand-in receiver: mac80211 uses only its address when fb->dev is set */
static u8 fbcount_sta[512] __aligned(8);
static const u8 fbcount_addr[ETH_ALEN] = { 0x02, 0, 0, 0, 0xfb, 0x01 };

static int fbcount_probe_set(const char *val, const struct kernel_param *kp)
{
	void (*report)(struct ieee80211_hw *hw, struct ieee80211_sta *pubsta,
		       struct ieee80211_tx_feedback *fb);
	struct ieee80211_tx_feedback fb = {
		.dev = init_net.loopback_dev,
		.sta_addr = fbcount_addr,
		.flags = IEEE80211_TXFB_ACKED,
	};
	bool bh = sysfs_streq(val, "bh");

	if (!bh && !sysfs_streq(val, "task"))
		return -EINVAL;
	report = symbol_get(ieee80211_tx_feedback_report);
	if (!report)
		return -ENOENT;
	if (bh)
		local_bh_disable();
	report(NULL, (struct ieee80211_sta *)fbcount_sta, &fb);
	if (bh)
		local_bh_enable();
	symbol_put(ieee80211_tx_feedback_report);
	return 0;
}

static const struct kernel_param_ops fbcount_probe_ops = {
	.set = fbcount_probe_set,
};
module_param_cb(probe, &fbcount_probe_ops, NULL, 0200);

static int __init fbcount_init(void)
{
	int (*reg)(struct ieee80211_feedback_ops *ops);

	reg = symbol_get(ieee80211_feedback_register);
	if (!reg)
		return 0;	/* bound stays 0: no patched mac80211 */
	bound = reg(&fbcount_ops) ? -1 : 1;
	symbol_put(ieee80211_feedback_register);
	return 0;
}

static void __exit fbcount_exit(void)
{
	void (*unreg)(struct ieee80211_feedback_ops *ops);

	if (bound != 1)
		return;
	unreg = symbol_get(ieee80211_feedback_unregister);
	if (unreg) {
		unreg(&fbcount_ops);
		symbol_put(ieee80211_feedback_unregister);
	} else {
		wait_for_completion(&fbcount_detached);
	}
}

module_init(fbcount_init);
module_exit(fbcount_exit);
MODULE_DESCRIPTION("mac80211 feedback test consumer");
MODULE_LICENSE("GPL");
