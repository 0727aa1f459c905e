// SPDX-License-Identifier: GPL-2.0-only
/*
 * The medium's frame path fed garbage, as a broken or hostile kernel could
 * feed it over netlink (issue #20's stress).  live.c turns each
 * HWSIM_CMD_FRAME into an aq_frame (libnl's policy has checked the
 * attributes' types and lengths) and hands it to aq_enqueue(); this drives
 * the same entry with what the attributes may carry: frames of any length
 * and content (random bytes, and 802.11 data frames with random SNAP, IPv4,
 * IPv6 and TCP headers), rate tables with any index, count and flags,
 * unknown receivers, broadcast, any frequency, while radios are added,
 * flushed and removed under traffic (hwsim radios created and destroyed).
 * Built with ASan and UBSan by tests/host/fuzz-frames-run.
 *
 * Asserts: no sanitizer report and no leak (the runner), no frame ends
 * twice (tx statuses + frames dropped from the queues of a flushed or
 * removed radio <= frames enqueued to a present radio; frames in the air
 * when their radio goes are freed uncounted), and the clock only moves
 * forward.
 *
 * Usage: fuzz-frames [frames [seed]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "medium.h"
#include "fuzz-rand.h"

static uint64_t statuses, delivered;

static void on_status(struct aq_medium *m, struct aq_frame *f, bool acked)
{
	statuses++;
}

static void on_deliver(struct aq_medium *m, struct aq_frame *f, int rx,
		       double signal_dbm, const struct aq_rate *rate,
		       int64_t airtime)
{
	delivered++;
	/* what live_deliver() reads of the frame */
	const uint8_t *d = f->data;
	static volatile unsigned int sink;

	if (d && f->data_len >= 2 && rx >= 0 && (unsigned int)rx < m->n_radios)
		sink = d[0] + d[f->data_len - 1] + m->radio[rx].addr[5];
}

/* an 802.11 data frame, headers valid or not, lengths random */
static unsigned int mk_data(uint8_t *d, unsigned int cap)
{
	unsigned int off = 24, len;
	uint16_t fc = 0x0008;		/* data */

	if (below(2))
		fc |= 0x0080;		/* QoS */
	if (!below(8))
		fc |= 0x0300;		/* 4 addresses */
	if (!below(16))
		fc |= 0x8000;		/* +HTC */
	if (!below(16))
		fc |= 0x4000;		/* protected */
	len = below(cap + 1);
	for (unsigned int i = 0; i < len; i++)
		d[i] = (uint8_t)rnd();
	if (len < 2)
		return len;
	d[0] = fc & 0xff;
	d[1] = fc >> 8;
	if ((fc & 0x0300) == 0x0300)
		off = 30;
	if (fc & 0x0080)
		off += 2 + ((fc & 0x8000) ? 4 : 0);
	if (len >= off + 8 && below(4)) {
		static const uint8_t snap[6] = { 0xaa, 0xaa, 0x03, 0, 0, 0 };

		memcpy(d + off, snap, 6);
		if (below(2)) {
			d[off + 6] = 0x08;
			d[off + 7] = 0x00;
			if (len > off + 8)
				d[off + 8] = 0x40 | below(16);	/* IPv4, any IHL */
			if (len > off + 17)
				d[off + 17] = below(2) ? 6 : 17;
		} else {
			d[off + 6] = 0x86;
			d[off + 7] = 0xdd;
			if (len > off + 8)
				d[off + 8] = 0x60;
			if (len > off + 14)
				d[off + 14] = below(2) ? 6 : 17;
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	static const unsigned int freqs[] = { 0, 2412, 2437, 5180, 5825, 60000, 1 };
	static const enum aq_std stds[] = { AQ_STD_B, AQ_STD_G, AQ_STD_A, AQ_STD_N5 };
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	uint64_t enq = 0, enq_absent = 0, flushed_before, removed = 0, added = 0;
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_phy phy;
	uint8_t *buf = malloc(4096);
	int64_t last = 0;
	int bad = 0;

	st = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (!m || !buf)
		return 1;
	aq_phy_defaults(&phy, stds[below(4)]);
	phy.edca = below(2);
	aq_init(m, &phy, seed);
	m->chan.model = 1;
	m->chan.default_snr_db = 5 + below(40);
	m->ops.tx_status = on_status;
	m->ops.deliver = on_deliver;
	for (int i = 0; i < 4; i++) {
		uint8_t a[6] = { 0x42, 0, 0, 0, (uint8_t)i, 0 };

		aq_radio_add(m, "r", a);
	}
	flushed_before = 0;
	for (unsigned long i = 0; i < n; i++) {
		struct aq_frame *f = aq_frame_alloc();
		unsigned int len, r = below(100);
		int src = (int)below(m->n_radios ? m->n_radios : 1);

		if (r == 0 && m->n_radios > 1) {	/* a radio goes away */
			aq_radio_remove(m, (int)below(m->n_radios));
			removed++;
		} else if (r == 1 && m->n_radios < AQ_MAX_RADIOS) {
			uint8_t a[6] = { 0x42, 0, 0, (uint8_t)(i >> 8), (uint8_t)i, 0 };

			if (aq_radio_add(m, "n", a) >= 0)
				added++;
		} else if (r == 2 && m->n_radios) {
			aq_radio_flush(m, (int)below(m->n_radios));
		}
		len = below(3) ? mk_data(buf, below(2) ? 120 : 3000) : below(3000);
		if (!below(3))
			for (unsigned int k = 0; k < len; k++)
				buf[k] = (uint8_t)rnd();
		f->data = len ? malloc(len) : NULL;
		if (len && !f->data)
			return 1;
		if (len)
			memcpy(f->data, buf, len);
		f->data_len = len;
		f->len = len + AQ_FCS_LEN;
		f->payload = len;
		f->src = src;
		f->cookie = i;
		f->freq = freqs[below(7)];
		f->no_ack = !below(4);
		f->ampdu_ok = !below(4);
		f->qos_data = below(2);
		f->tid = below(16);
		f->ac = below(8);		/* aq_enqueue() clamps it */
		f->nav_us = below(40000);
		switch (below(4)) {
		case 0:
			f->dst = AQ_DST_BCAST;
			break;
		case 1:
			f->dst = AQ_DST_UNKNOWN;
			break;
		default:
			f->dst = (int)below(m->n_radios ? m->n_radios : 1);
		}
		for (int k = 0; k < AQ_MAX_RATES; k++) {
			f->rates[k].idx = (int8_t)(below(50) - 5);
			f->rates[k].count = (uint8_t)(below(4) ? below(8) : rnd());
			f->rates[k].flags = (uint16_t)rnd();
		}
		if (len >= 2)
			f->l4 = aq_classify_l4(f->data, len);
		if (src >= 0 && (unsigned int)src < m->n_radios && m->radio[src].present)
			enq++;
		else
			enq_absent++;
		aq_enqueue(m, f);
		if (!below(8)) {
			aq_run_until(m, m->now + (int64_t)below(20000) * 1000);
			if (m->now < last) {
				printf("# clock went back: %lld -> %lld\n",
				       (long long)last, (long long)m->now);
				bad = 1;
			}
			last = m->now;
		}
	}
	aq_run_until(m, m->now + 60LL * 1000000000);
	flushed_before = m->st.dropped_dead_radio;
	printf("# %lu frames: %llu enqueued to present radios, %llu to absent ones, "
	       "%llu statuses, %llu deliveries, %llu radios added, %llu remove calls, "
	       "%llu dropped with their radio, %llu transmissions, %llu events\n",
	       n, (unsigned long long)enq, (unsigned long long)enq_absent,
	       (unsigned long long)statuses, (unsigned long long)delivered,
	       (unsigned long long)added, (unsigned long long)removed,
	       (unsigned long long)flushed_before,
	       (unsigned long long)m->st.transmissions,
	       (unsigned long long)m->st.events);
	if (statuses + flushed_before > enq) {
		printf("# more endings than frames: %llu statuses + %llu dropped > %llu\n",
		       (unsigned long long)statuses, (unsigned long long)flushed_before,
		       (unsigned long long)enq);
		bad = 1;
	}
	aq_fini(m);
	free(m);
	free(buf);
	return bad;
}
