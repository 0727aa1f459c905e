/* SPDX-License-Identifier: GPL-2.0-only */
/* Simulation-mode traffic sources (no kernel). */
#ifndef AQ_SIM_H
#define AQ_SIM_H

#include "medium.h"

struct aq_flow {
	int src, dst;
	uint8_t tid;
	unsigned int payload, overhead;	/* octets; MPDU = overhead + payload */
	bool saturated;			/* keep `depth` frames queued */
	unsigned int depth;
	int64_t interval;		/* ns between frames if not saturated */
	bool poisson;
	bool ampdu;
	bool no_ack;
	unsigned int freq;
	struct aq_txrate rates[AQ_MAX_RATES];
	int64_t start, stop;
	uint64_t generated, acked, failed;
	unsigned int outstanding;
	uint64_t gen;
};

struct aq_sim {
	struct aq_flow *flow;
	unsigned int n_flows;
};

int aq_sim_add_flow(struct aq_sim *s, const struct aq_flow *f);
void aq_sim_start(struct aq_medium *m, struct aq_sim *s);
void aq_sim_free(struct aq_sim *s);

#endif
