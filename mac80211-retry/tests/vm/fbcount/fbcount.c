// SPDX-License-Identifier: GPL-2.0
/*
 * Test consumer of mac80211 MAC feedback (mac80211-retry VM tests): counts
 * tx_status calls and their service times, visible as read-only module
 * parameters.  Binds at load with symbol_get() like sch_ebdp does.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <net/mac80211_feedback.h>

/*
 * ->tx_status() runs on any CPU: the counters are updated under a lock so
 * none is lost; readers see each one whole (unsigned long), not all at one
 * instant.
 */
static DEFINE_SPINLOCK(fbcount_lock);
static unsigned long calls, acked, no_enqueue, service_us_sum, attempts_sum;
static unsigned long zero_attempts;
static unsigned int detached;
static int bound;
module_param(calls, ulong, 0444);
module_param(acked, ulong, 0444);
module_param(no_enqueue, ulong, 0444);
module_param(service_us_sum, ulong, 0444);
module_param(attempts_sum, ulong, 0444);
module_param(zero_attempts, ulong, 0444);
module_param(detached, uint, 0444);
module_param(bound, int, 0444);

static DECLARE_COMPLETION(fbcount_detached);

static void fbcount_tx_status(const struct ieee80211_tx_feedback *fb)
{
	unsigned long flags;

	spin_lock_irqsave(&fbcount_lock, flags);
	WRITE_ONCE(calls, calls + 1);
	if (fb->flags & IEEE80211_TXFB_ACKED)
		WRITE_ONCE(acked, acked + 1);
	if (fb->flags & IEEE80211_TXFB_NO_ENQUEUE_TIME)
		WRITE_ONCE(no_enqueue, no_enqueue + 1);
	if (!fb->attempts)
		WRITE_ONCE(zero_attempts, zero_attempts + 1);
	WRITE_ONCE(service_us_sum, service_us_sum + fb->service_us);
	WRITE_ONCE(attempts_sum, attempts_sum + fb->attempts);
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
	.owner = THIS_MODULE,
	.name = "fbcount",
	.tx_status = fbcount_tx_status,
	.detach = fbcount_detach,
};

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
