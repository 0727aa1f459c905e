// SPDX-License-Identifier: GPL-2.0-only
/* Simulation-mode traffic sources: saturated, CBR or Poisson flows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

int aq_sim_add_flow(struct aq_sim *s, const struct aq_flow *f)
{
	struct aq_flow *n = realloc(s->flow, (s->n_flows + 1) * sizeof(*n));

	if (!n)
		return -1;
	s->flow = n;
	s->flow[s->n_flows] = *f;
	if (!s->flow[s->n_flows].depth)
		s->flow[s->n_flows].depth = 1;
	return (int)s->n_flows++;
}

void aq_sim_free(struct aq_sim *s)
{
	free(s->flow);
	s->flow = NULL;
	s->n_flows = 0;
}

static void gen_frame(struct aq_medium *m, struct aq_flow *fl, int idx)
{
	struct aq_frame *f = aq_frame_alloc();

	f->src = fl->src;
	f->dst = fl->dst;
	f->tid = fl->tid;
	f->ac = aq_ac_of_tid(fl->tid);
	f->qos_data = true;
	f->len = fl->overhead + fl->payload;
	f->payload = fl->payload;
	f->ampdu_ok = fl->ampdu;
	f->no_ack = fl->no_ack || fl->dst == AQ_DST_BCAST;
	f->freq = fl->freq;
	memcpy(f->rates, fl->rates, sizeof(f->rates));
	f->flow = idx;
	fl->generated++;
	fl->outstanding++;
	aq_enqueue(m, f);
}

static void sim_status(struct aq_medium *m, struct aq_frame *f, bool acked)
{
	struct aq_sim *s = m->ops.priv;
	struct aq_flow *fl;

	if (f->flow < 0 || (unsigned int)f->flow >= s->n_flows)
		return;
	fl = &s->flow[f->flow];
	fl->outstanding--;
	if (acked || f->no_ack)
		fl->acked++;
	else
		fl->failed++;
	if (fl->saturated && (!fl->stop || m->now < fl->stop))
		while (fl->outstanding < fl->depth)
			gen_frame(m, fl, f->flow);
}

static int64_t next_gap(struct aq_medium *m, struct aq_flow *fl)
{
	if (!fl->poisson)
		return fl->interval;
	return (int64_t)(-log(1.0 - aq_randf(m)) * fl->interval) + 1;
}

static void sim_timer(struct aq_medium *m, int arg, uint64_t gen)
{
	struct aq_sim *s = m->ops.priv;
	struct aq_flow *fl = &s->flow[arg];

	if (gen != fl->gen || (fl->stop && m->now >= fl->stop))
		return;
	if (fl->saturated) {
		while (fl->outstanding < fl->depth)
			gen_frame(m, fl, arg);
		return;
	}
	gen_frame(m, fl, arg);
	aq_timer(m, m->now + next_gap(m, fl), arg, gen);
}

void aq_sim_start(struct aq_medium *m, struct aq_sim *s)
{
	m->ops.priv = s;
	m->ops.tx_status = sim_status;
	m->ops.timer = sim_timer;
	for (unsigned int i = 0; i < s->n_flows; i++) {
		struct aq_flow *fl = &s->flow[i];

		fl->gen++;
		aq_timer(m, m->t0 + fl->start, (int)i, fl->gen);
	}
}
