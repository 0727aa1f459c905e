// SPDX-License-Identifier: GPL-2.0-only
/* JSON statistics of the airqueue medium (on request and at exit). */
#include <inttypes.h>
#include <stdio.h>
#include "medium.h"

static const char * const ac_name[AQ_NUM_AC] = { "BK", "BE", "VI", "VO" };

static double us(int64_t ns)
{
	return ns / 1000.0;
}

static const char * const l4_name[AQ_NUM_L4] = {
	"other", "tcp", "tcp_ack", "udp"
};

/*
 * "l4": {"tcp": {"frames": N, "tries": [0, n1, n2, ...]}, ...}: frames
 * queued by content and, at completion, how many attempts each used
 * (index = attempts; the last index holds that many or more); "table":
 * the same for the tries the frame's rate table allowed (sum of counts);
 * "ampdu_tries": "tries" of the frames the kernel marked as Block Ack
 * session frames only (HWSIM_TX_CTL_AMPDU, or aggregable QoS data at HT
 * rates from a stock hwsim); "fallback": attempts made at a table entry
 * whose rate or flags (RTS/CTS, width, guard interval) differ from the
 * first entry's: rate control's fallbacks.
 */
static void print_l4(FILE *o, const struct aq_ac_stats *s)
{
	fprintf(o, ",\n     \"l4\": {");
	for (int k = 0; k < AQ_NUM_L4; k++) {
		fprintf(o, "%s\"%s\": {\"frames\": %" PRIu64 ", \"tries\": [",
			k ? ", " : "", l4_name[k], s->l4_frames[k]);
		for (int t = 0; t < AQ_TRIES_HIST; t++)
			fprintf(o, "%s%" PRIu64, t ? ", " : "", s->tries_hist[k][t]);
		fprintf(o, "], \"table\": [");
		for (int t = 0; t < AQ_TRIES_HIST; t++)
			fprintf(o, "%s%" PRIu64, t ? ", " : "", s->table_hist[k][t]);
		fprintf(o, "], \"ampdu_tries\": [");
		for (int t = 0; t < AQ_TRIES_HIST; t++)
			fprintf(o, "%s%" PRIu64, t ? ", " : "",
				s->ampdu_tries_hist[k][t]);
		fprintf(o, "], \"fallback\": %" PRIu64 "}", s->fallback_tries[k]);
	}
	fprintf(o, "}");
}

/*
 * "by_rate": [{"mbps": 54, "rts": false, "attempts": N}, ...]: attempts of
 * completed frames by the PHY rate and the RTS/CTS flag of the table entry
 * they used; "by_rate_other": attempts past the first AQ_RATE_SLOTS pairs
 * or at a rate the medium does not know.
 */
static void print_by_rate(FILE *o, const struct aq_ac_stats *s)
{
	fprintf(o, ",\n     \"by_rate\": [");
	for (unsigned int i = 0; i < s->n_by_rate; i++)
		fprintf(o, "%s{\"mbps\": %g, \"rts\": %s, \"attempts\": %" PRIu64 "}",
			i ? ", " : "", s->by_rate[i].kbps / 1000.0,
			s->by_rate[i].rts ? "true" : "false",
			s->by_rate[i].attempts);
	fprintf(o, "], \"by_rate_other\": %" PRIu64, s->by_rate_other);
}

/* the longest propagation delay between two present radios */
static int64_t prop_max(struct aq_medium *m)
{
	int64_t mx = 0, d;

	for (unsigned int a = 0; a < m->n_radios; a++)
		for (unsigned int b = 0; b < m->n_radios; b++) {
			if (a == b || !m->radio[a].present || !m->radio[b].present)
				continue;
			d = aq_prop_delay(m, a, b);
			if (d > mx)
				mx = d;
		}
	return mx;
}

void aq_stats_json(struct aq_medium *m, FILE *o)
{
	struct aq_global_stats *g = &m->st;
	int64_t span = m->now - m->t0;
	bool first = true;
	char fixed[32];

	aq_stats_flush(m);
	snprintf(fixed, sizeof(fixed), "%.3f", us(m->phy.prop));
	fprintf(o, "{\n \"time_us\": %.3f,\n \"phy\": \"%s\",\n", us(span),
		aq_std_name(m->phy.std));
	/* the rules in force (defaults and configuration resolved) */
	fprintf(o, " \"settings\": {\"slot_us\": %.3f, \"sifs_us\": %.3f, "
		"\"ack_timeout_us\": %.3f, \"eifs_us\": %.3f, \"eifs\": %s, "
		"\"edca\": %s, \"txop\": %s, \"capture\": %s, \"pd_snr_db\": %g, "
		"\"rts_threshold\": %u, \"short_preamble\": %s, \"propagation\": \"%s\", "
		"\"prop_delay_us\": %s, \"prop_delay_max_us\": %.3f, "
		"\"overhear\": %s, \"beacon_scope\": \"%s\", \"basic_rates_mbps\": [",
		us(m->phy.slot), us(m->phy.sifs), us(m->phy.ack_timeout),
		us(aq_eifs(&m->phy)), m->phy.use_eifs ? "true" : "false",
		m->phy.edca ? "true" : "false", m->phy.txop ? "true" : "false",
		m->phy.capture ? "true" : "false",
		m->phy.pd_snr_db, m->phy.rts_threshold,
		m->phy.short_preamble ? "true" : "false",
		m->phy.prop_pos ? "positions" : "fixed",
		m->phy.prop_pos ? "null" : fixed, us(prop_max(m)),
		m->phy.overhear ? "true" : "false",
		m->phy.beacon_scope_bss ? "bss" : "all");
	for (unsigned int i = 0; i < m->phy.n_basic; i++)
		fprintf(o, "%s%g", i ? ", " : "", m->phy.basic_kbps[i] / 1000.0);
	fprintf(o, "]},\n");
	fprintf(o, " \"events\": %" PRIu64 ", \"transmissions\": %" PRIu64
		", \"frames_in\": %" PRIu64 ",\n", g->events, g->transmissions,
		g->frames_in);
	fprintf(o, " \"unknown_radio_frames\": %" PRIu64 ", \"unknown_msgs\": %"
		PRIu64 ", \"bad_msgs\": %" PRIu64 ", \"dropped_dead_radio\": %"
		PRIu64 ", \"nl_errors\": %" PRIu64 ",\n", g->unknown_radio_frames,
		g->unknown_msgs, g->bad_msgs, g->dropped_dead_radio, g->nl_errors);
	fprintf(o, " \"same_slot_collisions\": %" PRIu64 ",\n", g->same_slot_collisions);
	fprintf(o, " \"kernel_rejected_frames\": %" PRIu64 ", \"kernel_rejected_tx_info\": %"
		PRIu64 ", \"netlink_rx_overflows\": %" PRIu64 ",\n", g->kern_err_frame,
		g->kern_err_txinfo, g->nl_rx_overflows);
	fprintf(o, " \"live_max_late_us\": %.3f, \"live_late_wakeups\": %" PRIu64
		", \"live_behind_us\": %.3f,\n",
		us(g->max_late_ns), g->late_events, us(g->behind_ns));
	fprintf(o, " \"contending_now\": %u, \"contending_mean\": %.4f,\n",
		g->contending, span > 0 ? (double)g->contend_area / span : 0.0);
	fprintf(o, " \"contending_hist_us\": [");
	{
		unsigned int last = 0;

		for (unsigned int k = 0; k <= AQ_MAX_RADIOS; k++)
			if (g->contend_hist_ns[k])
				last = k;
		for (unsigned int k = 0; k <= last; k++)
			fprintf(o, "%s%.3f", k ? ", " : "", us(g->contend_hist_ns[k]));
	}
	fprintf(o, "],\n \"radios\": [");
	for (unsigned int i = 0; i < m->n_radios; i++) {
		struct aq_radio *r = &m->radio[i];
		int64_t active = m->now - r->created;
		bool fs = true;

		if (!r->present)
			continue;
		fprintf(o, "%s\n  {\"index\": %u, \"name\": \"%s\", "
			"\"addr\": \"%02x:%02x:%02x:%02x:%02x:%02x\", \"freq\": %u,\n",
			first ? "" : ",", i, r->name, r->addr[0], r->addr[1],
			r->addr[2], r->addr[3], r->addr[4], r->addr[5], r->freq);
		first = false;
		fprintf(o, "   \"active_us\": %.3f, \"busy_us\": %.3f, \"tx_us\": %.3f, "
			"\"rx_us\": %.3f, \"busy_fraction\": %.6f,\n", us(active),
			us(r->busy_ns), us(r->tx_ns), us(r->rx_ns),
			active > 0 ? (double)r->busy_ns / active : 0.0);
		fprintf(o, "   \"frames_in\": %" PRIu64 ", \"rx_frames\": %" PRIu64
			", \"rx_overheard\": %" PRIu64 ", \"rx_scoped\": %" PRIu64
			", \"bss\": %d, \"rx_errors\": %" PRIu64
			", \"rx_hdr_lost\": %" PRIu64 ", \"eifs\": %s"
			", \"responses_sent\": %" PRIu64 ", \"backlogged\": %s,\n",
			r->frames_in, r->rx_frames, r->rx_overheard, r->rx_scoped,
			r->bss, r->rx_errors,
			r->rx_hdr_lost,
			r->eifs ? "true" : "false", r->tx_responses,
			r->backlogged ? "true" : "false");
		fprintf(o, "   \"airtime_to_us\": {");
		for (unsigned int j = 0; j < m->n_radios; j++) {
			if (!r->sta_airtime || !r->sta_airtime[j] || !m->radio[j].present)
				continue;
			fprintf(o, "%s\"%s\": %.3f", fs ? "" : ", ", m->radio[j].name,
				us(r->sta_airtime[j]));
			fs = false;
		}
		fprintf(o, "},\n   \"exchanges_to\": {");
		fs = true;
		for (unsigned int j = 0; j < m->n_radios; j++) {
			if (!r->sta_exch || !r->sta_exch[j] || !m->radio[j].present)
				continue;
			fprintf(o, "%s\"%s\": %" PRIu64, fs ? "" : ", ",
				m->radio[j].name, r->sta_exch[j]);
			fs = false;
		}
		fprintf(o, "},\n   \"ac\": {");
		for (int ac = 0; ac < AQ_NUM_AC; ac++) {
			struct aq_ac_state *q = &r->ac[ac];
			struct aq_ac_stats *s = &q->st;

			fprintf(o, "%s\n    \"%s\": {\"aifsn\": %u, \"cwmin\": %u, \"cwmax\": %u, "
				"\"txop_us\": %.3f, \"cw\": %u, \"backoff\": %d, \"qlen\": %u,\n",
				ac ? "," : "", ac_name[ac], q->aifsn, q->cwmin, q->cwmax,
				us(q->txop_ns), q->cw, q->backoff, q->qlen);
			fprintf(o, "     \"frames\": %" PRIu64 ", \"attempts\": %" PRIu64
				", \"successes\": %" PRIu64 ", \"failures\": %" PRIu64
				", \"collisions\": %" PRIu64 ", \"discards\": %" PRIu64
				", \"internal_collisions\": %" PRIu64
				", \"txop_continuations\": %" PRIu64 ",\n",
				s->frames, s->attempts, s->successes, s->failures,
				s->collisions, s->discards, s->internal_collisions,
				s->txop_continuations);
			fprintf(o, "     \"rts_attempts\": %" PRIu64 ", \"rts_failures\": %"
				PRIu64 ", \"ampdus\": %" PRIu64 ", \"ampdu_subframes\": %"
				PRIu64 ", \"bytes_ok\": %" PRIu64 ", \"payload_ok\": %" PRIu64
				", \"airtime_us\": %.3f, \"mean_delay_us\": %.3f",
				s->rts_attempts, s->rts_failures, s->ampdus,
				s->ampdu_subframes, s->bytes_ok, s->payload_ok,
				us(s->airtime),
				s->successes + s->discards ?
				us(s->queue_delay_sum) / (s->successes + s->discards) : 0.0);
			print_l4(o, s);
			print_by_rate(o, s);
			fprintf(o, "}");
		}
		fprintf(o, "}}");
	}
	fprintf(o, "\n ]\n}\n");
	fflush(o);
}
