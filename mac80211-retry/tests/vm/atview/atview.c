// SPDX-License-Identifier: GPL-2.0
/*
 * atview: test consumer of mac80211's airtime views (40-airtime-view.sh).
 *
 * Registers with a patched mac80211 (include/net/mac80211_feedback.h) and
 * logs every ->airtime_slot() and ->rate_change() call to the kernel log,
 * tagged with the test phase written to the "phase" parameter, for the test
 * to parse from dmesg:
 *
 *   atview: slot P IFMAC SEQ SRC T BEACON BUSY N NSTA OTHERS [STA OCC RATE RXRATE]...
 *   atview: rate P IFMAC STA RATE
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/mac80211_feedback.h>

/* stations logged per view (the test has two) */
#define ATVIEW_MAX_LOGGED	8

static int phase;
module_param(phase, int, 0644);
MODULE_PARM_DESC(phase, "Test phase written into each logged line");

static bool bound;
module_param(bound, bool, 0444);
MODULE_PARM_DESC(bound, "Registered with mac80211 (read only)");

static unsigned int slots;
module_param(slots, uint, 0444);
MODULE_PARM_DESC(slots, "Airtime views received (read only)");

static unsigned int rates;
module_param(rates, uint, 0444);
MODULE_PARM_DESC(rates, "Rate changes received (read only)");

static DECLARE_COMPLETION(atview_detached);

static void atview_slot(const struct ieee80211_airtime_view *v)
{
	char buf[ATVIEW_MAX_LOGGED * 52 + 1];
	unsigned int i, n = min_t(unsigned int, v->n_sta, ATVIEW_MAX_LOGGED);
	int len = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, " %pM %u %u %u",
				 v->sta[i].addr, v->sta[i].occ_us,
				 v->sta[i].rate_kbps, v->sta[i].rx_rate_kbps);
	slots++;
	pr_info("atview: slot %d %pM %u %u %u %u %u %u %u %u%s\n",
		READ_ONCE(phase), v->dev->dev_addr, v->seq, v->source,
		v->slot_us, v->beacon_us, v->busy_us, v->n_active, v->n_sta,
		v->others_us, buf);
}

static void atview_rate(struct net_device *dev, const u8 *addr, u32 kbps)
{
	rates++;
	pr_info("atview: rate %d %pM %pM %u\n", READ_ONCE(phase),
		dev->dev_addr, addr, kbps);
}

static void atview_detach(struct net_device *dev)
{
	if (!dev) {
		WRITE_ONCE(bound, false);
		complete(&atview_detached);
	}
}

static struct ieee80211_feedback_ops atview_ops = {
	.api_version = IEEE80211_FEEDBACK_API_VERSION,
	.name = "atview",
	.airtime_slot = atview_slot,
	.rate_change = atview_rate,
	.detach = atview_detach,
};

static int __init atview_init(void)
{
	int (*reg)(struct ieee80211_feedback_ops *ops);
	int err;

	reg = symbol_get(ieee80211_feedback_register);
	if (!reg)
		return -ENOENT;
	err = reg(&atview_ops);
	symbol_put(ieee80211_feedback_register);
	if (err)
		return err;
	WRITE_ONCE(bound, true);
	return 0;
}

static void __exit atview_exit(void)
{
	void (*unreg)(struct ieee80211_feedback_ops *ops);

	unreg = symbol_get(ieee80211_feedback_unregister);
	if (unreg) {
		unreg(&atview_ops);
		symbol_put(ieee80211_feedback_unregister);
	} else if (READ_ONCE(bound)) {
		wait_for_completion(&atview_detached);
	}
}

module_init(atview_init);
module_exit(atview_exit);
MODULE_DESCRIPTION("Test consumer of mac80211 airtime views");
MODULE_LICENSE("GPL");
