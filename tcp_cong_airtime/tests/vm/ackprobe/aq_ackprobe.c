// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only probe for tcp_cong_airtime/bench/ack-cost: times every call of
 * tcp_ack() and tcp_rcv_established() made for a socket of the initial
 * network namespace (the bench's sender; its receiver lives in another
 * netns), with kretprobes and local_clock().  In a guest on QEMU's
 * -icount shift=0 clock a nanosecond is one instruction, so a duration is
 * the instruction count of the call, the probe's own entry and return
 * included (the same for every congestion control), plus whatever
 * interrupts it (the median is immune to that).
 *
 * /sys/kernel/debug/aq_ackprobe: one line per probed function,
 *   NAME calls N ns SUM mean NS p10 NS p50 NS p90 NS
 * (quantiles from a histogram of 10 ns buckets up to 40.95 us).  Counters
 * start at 0 on insmod.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sched/clock.h>
#include <net/sock.h>
#include <net/net_namespace.h>

#define NB 4096
#define BW 10

struct ap_stat {
	atomic64_t calls, ns;
	atomic_t hist[NB];
};

struct ap_probe {
	struct kretprobe krp;
	struct ap_stat st;
};

static int ap_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sock *sk = (struct sock *)regs_get_kernel_argument(regs, 0);

	if (!sk || !net_eq(sock_net(sk), &init_net))
		return 1;	/* not the sender's: no return probe */
	*(u64 *)ri->data = local_clock();
	return 0;
}

static int ap_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ap_probe *p = container_of(get_kretprobe(ri), struct ap_probe, krp);
	u64 d = local_clock() - *(u64 *)ri->data;

	atomic64_inc(&p->st.calls);
	atomic64_add(d, &p->st.ns);
	atomic_inc(&p->st.hist[min_t(u64, d / BW, NB - 1)]);
	return 0;
}

static struct ap_probe probes[] = {
	{ .krp = { .kp.symbol_name = "tcp_ack" } },
	{ .krp = { .kp.symbol_name = "tcp_rcv_established" } },
};

static u64 ap_quantile(struct ap_stat *st, u64 n, unsigned int pct)
{
	u64 want = (n * pct + 99) / 100, c = 0;
	int i;

	for (i = 0; i < NB; i++) {
		c += atomic_read(&st->hist[i]);
		if (c >= want && c)
			return (u64)i * BW + BW / 2;
	}
	return (u64)NB * BW;
}

static int ap_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		struct ap_stat *st = &probes[i].st;
		u64 n = atomic64_read(&st->calls), ns = atomic64_read(&st->ns);

		seq_printf(m, "%s calls %llu ns %llu mean %llu p10 %llu p50 %llu p90 %llu\n",
			   probes[i].krp.kp.symbol_name, n, ns, n ? div64_u64(ns, n) : 0,
			   ap_quantile(st, n, 10), ap_quantile(st, n, 50),
			   ap_quantile(st, n, 90));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ap);

static struct dentry *ap_file;

static int __init ap_init(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		probes[i].krp.entry_handler = ap_entry;
		probes[i].krp.handler = ap_ret;
		probes[i].krp.data_size = sizeof(u64);
		probes[i].krp.maxactive = 32;
		err = register_kretprobe(&probes[i].krp);
		if (err) {
			pr_err("aq_ackprobe: %s: %d\n", probes[i].krp.kp.symbol_name, err);
			while (--i >= 0)
				unregister_kretprobe(&probes[i].krp);
			return err;
		}
	}
	ap_file = debugfs_create_file("aq_ackprobe", 0444, NULL, NULL, &ap_fops);
	return 0;
}

static void __exit ap_exit(void)
{
	int i;

	debugfs_remove(ap_file);
	for (i = 0; i < ARRAY_SIZE(probes); i++)
		unregister_kretprobe(&probes[i].krp);
}

module_init(ap_init);
module_exit(ap_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("test-only: time tcp_ack() of the initial netns's sockets");
