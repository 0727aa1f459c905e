// SPDX-License-Identifier: GPL-2.0-only
/*
 * The discrete-event core of the airqueue medium: DCF/EDCA channel access,
 * carrier sense with CCA and NAV, transmissions, SINR reception, responses
 * (CTS, ACK, Block Ack), rate-table attempt accounting and A-MPDU assembly.
 *
 * Channel access without per-slot timers
 * --------------------------------------
 * Each radio keeps, per access category (AC), a backoff counter b expressed
 * "as of" the instant idle_ref at which the radio last found the medium idle
 * (no signal above CCA, no own transmission, NAV expired, not waiting for a
 * response).  Counting starts at
 *
 *	start = idle_ref + AIFS[ac] (+ EIFS - DIFS after an error)
 *		+ k * slot, the first such boundary >= access_floor
 *
 * (access_floor is the end of an ACK/CTS timeout), and if the medium stays
 * idle the AC transmits at start + b * slot.  Only that one instant is put
 * on the event heap.  When the medium becomes busy at time t >= start, the
 * slots that passed are subtracted in closed form:
 *
 *	b -= floor((t - start) / slot) + (resume_decrement ? 1 : 0)
 *
 * The "+1" counts the slot in which the medium turned busy as a backoff slot
 * (the EDCA slot-boundary rule, and exactly the "one decrement per virtual
 * slot" of Bianchi's Markov chain); phy.resume_decrement = false gives the
 * strict-freeze reading instead.  Two radios whose computed instants are
 * equal start in the same slot and collide; a radio whose instant falls
 * before another's signal reaches it (propagation delay) also transmits.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "medium.h"
#include "hwsim_proto.h"

#define BIT_SET(a, i)	((a)[(i) / 64] |= 1ULL << ((i) % 64))
#define BIT_CLR(a, i)	((a)[(i) / 64] &= ~(1ULL << ((i) % 64)))
#define BIT_TST(a, i)	(((a)[(i) / 64] >> ((i) % 64)) & 1)

static const uint8_t tid_to_ac[8] = {
	AQ_AC_BE, AQ_AC_BK, AQ_AC_BK, AQ_AC_BE,
	AQ_AC_VI, AQ_AC_VI, AQ_AC_VO, AQ_AC_VO,
};

int aq_ac_of_tid(unsigned int tid)
{
	return tid_to_ac[tid & 7];
}

/* ------------------------------------------------------------- random */

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** */
static inline uint64_t rand_next(uint64_t *s)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static inline double rand_unit(uint64_t *s)
{
	return (rand_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t aq_rand(struct aq_medium *m)
{
	return rand_next(m->rng);
}

double aq_randf(struct aq_medium *m)
{
	return rand_unit(m->rng);
}

static unsigned int rand_backoff(struct aq_medium *m, unsigned int cw)
{
	return (unsigned int)(aq_rand(m) % ((uint64_t)cw + 1));
}

/* --------------------------------------------------------------- heap */

static bool ev_less(const struct aq_event *a, const struct aq_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_insert(struct aq_medium *m, struct aq_event e)
{
	unsigned int i;

	m->heap_inserts++;
	if (m->heap_len == m->heap_cap) {
		m->heap_cap = m->heap_cap ? 2 * m->heap_cap : 1024;
		m->heap = realloc(m->heap, m->heap_cap * sizeof(*m->heap));
		if (!m->heap)
			abort();
	}
	i = m->heap_len++;
	while (i && ev_less(&e, &m->heap[(i - 1) / 2])) {
		m->heap[i] = m->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	m->heap[i] = e;
}

static void ev_push(struct aq_medium *m, int64_t t, int type, int radio,
		    uint64_t gen, struct aq_tx *tx)
{
	struct aq_event e = { t, m->seq++, (uint8_t)type, radio, gen, tx };

	ev_insert(m, e);
}

static void ev_pop(struct aq_medium *m, struct aq_event *out)
{
	struct aq_event last;
	unsigned int i = 0, c;

	*out = m->heap[0];
	last = m->heap[--m->heap_len];
	for (;;) {
		c = 2 * i + 1;
		if (c >= m->heap_len)
			break;
		if (c + 1 < m->heap_len && ev_less(&m->heap[c + 1], &m->heap[c]))
			c++;
		if (!ev_less(&m->heap[c], &last))
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	if (m->heap_len)
		m->heap[i] = last;
}

int64_t aq_next_event_time(struct aq_medium *m)
{
	return m->heap_len ? m->heap[0].t : INT64_MAX;
}

/* ---------------------------------------------------------- tx objects */

static struct aq_tx *tx_alloc(struct aq_medium *m)
{
	struct aq_tx *tx = m->tx_free;

	if (tx)
		m->tx_free = tx->next_free;
	else
		tx = malloc(sizeof(*tx));
	if (!tx)
		abort();
	memset(tx, 0, offsetof(struct aq_tx, fr));
	memset(&tx->ok_mask, 0, sizeof(*tx) - offsetof(struct aq_tx, ok_mask));
	tx->refs = 1;
	tx->id = ++m->tx_id;
	return tx;
}

static void tx_put(struct aq_medium *m, struct aq_tx *tx)
{
	if (!tx || --tx->refs > 0)
		return;
	if (tx->data)
		tx_put(m, tx->data);
	tx->next_free = m->tx_free;
	m->tx_free = tx;
}

static void active_add(struct aq_medium *m, struct aq_tx *tx)
{
	if (m->n_active < sizeof(m->active) / sizeof(m->active[0]))
		m->active[m->n_active++] = tx;
}

static void active_del(struct aq_medium *m, struct aq_tx *tx)
{
	for (unsigned int i = 0; i < m->n_active; i++)
		if (m->active[i] == tx) {
			m->active[i] = m->active[--m->n_active];
			return;
		}
}

/* ------------------------------------------------------------- frames */

struct aq_frame *aq_frame_alloc(void)
{
	struct aq_frame *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	f->flow = -1;
	for (int i = 0; i < AQ_MAX_RATES; i++)
		f->rates[i].idx = -1;
	return f;
}

void aq_frame_free(struct aq_frame *f)
{
	if (!f)
		return;
	free(f->data);
	free(f);
}

int aq_rate_entry(const struct aq_frame *f)
{
	for (int i = 0; i < AQ_MAX_RATES; i++) {
		if (f->rates[i].idx < 0)
			return -1;
		if (f->used[i] < f->rates[i].count)
			return i;
	}
	return -1;
}

unsigned int aq_total_tries(const struct aq_frame *f)
{
	unsigned int n = 0;

	for (int i = 0; i < AQ_MAX_RATES && f->rates[i].idx >= 0; i++)
		n += f->rates[i].count;
	return n;
}

/* The rate table as reported back: counts actually used, -1 after the last */
void aq_report_rates(const struct aq_frame *f, struct aq_txrate *out)
{
	int last = -1;

	for (int i = 0; i < AQ_MAX_RATES; i++)
		if (f->rates[i].idx >= 0 && f->used[i])
			last = i;
	for (int i = 0; i < AQ_MAX_RATES; i++) {
		out[i] = f->rates[i];
		if (i <= last) {
			out[i].count = f->used[i];
		} else {
			out[i].idx = -1;
			out[i].count = 0;
		}
	}
}

int aq_frame_rate(struct aq_medium *m, const struct aq_frame *f,
		  struct aq_rate *r)
{
	int e = aq_rate_entry(f);

	if (e < 0)
		return -1;
	return aq_rate_from_hwsim(&m->phy, f->freq, f->rates[e].idx,
				  f->rates[e].flags, r);
}

/* -------------------------------------------------------------- radios */

static void radio_update(struct aq_medium *m, int ri);

static void contend_account(struct aq_medium *m)
{
	int64_t d = m->now - m->st.contend_since;

	m->st.contend_area += d * m->st.contending;
	m->st.contend_hist_ns[m->st.contending] += d;
	m->st.contend_since = m->now;
}

static void update_backlog(struct aq_medium *m, struct aq_radio *r)
{
	bool b = false;

	for (int ac = 0; ac < AQ_NUM_AC; ac++)
		b |= r->ac[ac].qlen > 0;
	b |= r->cur != NULL;
	if (b == r->backlogged)
		return;
	contend_account(m);
	r->backlogged = b;
	if (b)
		m->st.contending++;
	else
		m->st.contending--;
}

void aq_radio_set_edca(struct aq_medium *m, int ri, int ac, unsigned int aifsn,
		       unsigned int cwmin, unsigned int cwmax)
{
	struct aq_ac_state *q = &m->radio[ri].ac[ac];

	q->aifsn = aifsn;
	q->cwmin = cwmin;
	q->cwmax = cwmax < cwmin ? cwmin : cwmax;
	if (q->cw < cwmin || q->cw > q->cwmax)
		q->cw = cwmin;
}

/*
 * The TXOP limit of an AC (802.11-2020 10.23.2.9): after an exchange that
 * succeeded, the holder may send its next frame of the same AC SIFS later,
 * without backoff, while the whole exchange still ends within txop_ns of
 * the TXOP's start.  0 (DCF, and EDCA's BE/BK): one exchange per access.
 */
void aq_radio_set_txop(struct aq_medium *m, int ri, int ac, int64_t txop_ns)
{
	m->radio[ri].ac[ac].txop_ns = txop_ns > 0 ? txop_ns : 0;
}

static void link_compute(struct aq_medium *m, int a, int b)
{
	struct aq_link *l = &m->link[a][b];
	struct aq_radio *ra = &m->radio[a], *rb = &m->radio[b];
	double d, pl, ns;

	d = sqrt((ra->pos[0] - rb->pos[0]) * (ra->pos[0] - rb->pos[0]) +
		 (ra->pos[1] - rb->pos[1]) * (ra->pos[1] - rb->pos[1]) +
		 (ra->pos[2] - rb->pos[2]) * (ra->pos[2] - rb->pos[2]));
	/*
	 * Propagation: distance / c, rounded up to the clock's nanosecond
	 * (rounding up keeps the triangle inequality, so a radio never hears
	 * a third one's signal before the one that started it could), at
	 * least 1 ns; or the one fixed delay.
	 */
	m->fan_gen++;
	if (m->phy.prop_pos) {
		ns = ceil(d / AQ_C_M_PER_NS - 1e-6);
		l->prop = ns < 1 ? 1 : (int64_t)ns;
	} else {
		l->prop = m->phy.prop;
	}
	if (!l->set) {
		if (m->chan.model == 0) {
			if (d < m->chan.d0_m)
				d = m->chan.d0_m;
			pl = m->chan.pl0_db + 10.0 * m->chan.exponent *
			     log10(d / m->chan.d0_m);
			l->rx_dbm = ra->tx_power_dbm - pl;
		} else {
			l->rx_dbm = rb->noise_dbm + m->chan.default_snr_db;
		}
		l->ber = m->chan.ber;
	}
	l->mw = pow(10.0, l->rx_dbm / 10.0);
}

void aq_links_update(struct aq_medium *m)
{
	for (unsigned int a = 0; a < m->n_radios; a++)
		for (unsigned int b = 0; b < m->n_radios; b++)
			if (a != b && m->radio[a].present && m->radio[b].present)
				link_compute(m, a, b);
}

int64_t aq_prop_delay(struct aq_medium *m, int a, int b)
{
	return m->phy.prop_pos ? m->link[a][b].prop : m->phy.prop;
}

void aq_link_set_snr(struct aq_medium *m, int a, int b, double snr_db)
{
	struct aq_link *l = &m->link[a][b];

	l->rx_dbm = m->radio[b].noise_dbm + snr_db;
	l->mw = pow(10.0, l->rx_dbm / 10.0);
	l->set = true;
}

int aq_radio_add(struct aq_medium *m, const char *name, const uint8_t *addr)
{
	struct aq_radio *r;
	unsigned int i;
	uint64_t ag, wg;
	uint32_t ep;

	for (i = 0; i < m->n_radios; i++)
		if (!m->radio[i].present)
			break;
	if (i == AQ_MAX_RADIOS)
		return -1;
	if (i == m->n_radios)
		m->n_radios++;
	r = &m->radio[i];
	ag = r->access_gen;
	wg = r->wait_gen;
	ep = r->epoch;
	free(r->maddr);
	free(r->sta_airtime);
	free(r->sta_exch);
	memset(r, 0, sizeof(*r));
	r->txop_ac = -1;
	r->access_gen = ag + 1;
	r->wait_gen = wg + 1;
	r->epoch = ep + 1;
	r->present = true;
	m->fan_gen++;
	r->hwsim_index = -1;
	snprintf(r->name, sizeof(r->name), "%s", name ? name : "");
	if (addr)
		memcpy(r->addr, addr, 6);
	r->tx_power_dbm = m->chan.tx_power_dbm;
	r->noise_dbm = m->chan.noise_dbm;
	r->cca_dbm = m->chan.cca_dbm;
	r->sta_airtime = calloc(AQ_MAX_RADIOS, sizeof(int64_t));
	r->sta_exch = calloc(AQ_MAX_RADIOS, sizeof(uint64_t));
	for (int ac = 0; ac < AQ_NUM_AC; ac++) {
		r->ac[ac].cw = 0;
		aq_radio_set_edca(m, i, ac, m->default_edca[ac][0],
				  m->default_edca[ac][1], m->default_edca[ac][2]);
		aq_radio_set_txop(m, i, ac, m->default_txop[ac]);
		r->ac[ac].cw = r->ac[ac].cwmin;
		r->ac[ac].backoff = rand_backoff(m, r->ac[ac].cw);
	}
	r->created = m->now;
	r->sense_idle_since = m->now;
	r->idle_ref = m->now;
	r->med_idle = true;
	r->contend = true;
	r->access_at = -1;
	for (unsigned int j = 0; j < m->n_radios; j++) {
		if (j == i || !m->radio[j].present)
			continue;
		m->link[i][j].set = false;
		m->link[j][i].set = false;
		link_compute(m, i, j);
		link_compute(m, j, i);
	}
	return (int)i;
}

static void q_flush(struct aq_ac_state *q)
{
	struct aq_frame *f, *n;

	for (f = q->head; f; f = n) {
		n = f->next;
		aq_frame_free(f);
	}
	q->head = q->tail = NULL;
	q->qlen = 0;
}

/* forget queued and in-flight frames without reporting them */
void aq_radio_flush(struct aq_medium *m, int ri)
{
	struct aq_radio *r = &m->radio[ri];

	if (!r->present)
		return;
	for (int ac = 0; ac < AQ_NUM_AC; ac++) {
		m->st.dropped_dead_radio += r->ac[ac].qlen;
		q_flush(&r->ac[ac]);
	}
	if (r->cur) {
		for (unsigned int i = 0; i < r->cur->nfr; i++)
			aq_frame_free(r->cur->fr[i]);
		r->cur->nfr = 0;
		tx_put(m, r->cur);
		r->cur = NULL;
	}
	/* signals still in the air no longer touch this slot */
	for (unsigned int i = 0; i < m->n_active; i++) {
		BIT_CLR(m->active[i]->heard, ri);
		BIT_CLR(m->active[i]->above, ri);
	}
	update_backlog(m, r);
	r->epoch++;
	r->access_gen++;
	r->wait_gen++;
	r->txing = r->waiting = r->await_cts = r->resp_incoming = false;
	r->txop_ac = -1;
	r->rx_tx = NULL;
	r->n_sig = r->n_heard = 0;
	r->pwr_mw = 0;
	r->access_at = -1;
	radio_update(m, ri);
}

void aq_radio_remove(struct aq_medium *m, int ri)
{
	struct aq_radio *r = &m->radio[ri];

	if (!r->present)
		return;
	aq_radio_flush(m, ri);
	r->present = false;
	m->fan_gen++;
	r->epoch++;
	r->access_gen++;
	r->wait_gen++;
}

/* live mode: move the clock origin before any event is queued */
void aq_set_clock(struct aq_medium *m, int64_t t)
{
	m->now = m->t0 = t;
	m->st.contend_since = t;
	for (unsigned int i = 0; i < m->n_radios; i++) {
		struct aq_radio *r = &m->radio[i];

		r->created = r->sense_idle_since = r->idle_ref = r->busy_since = t;
	}
}

int aq_radio_by_addr(struct aq_medium *m, const uint8_t *addr)
{
	for (unsigned int i = 0; i < m->n_radios; i++) {
		struct aq_radio *r = &m->radio[i];

		if (!r->present)
			continue;
		if (!memcmp(r->addr, addr, 6))
			return (int)i;
		for (unsigned int j = 0; j < r->n_maddr; j++)
			if (!memcmp(r->maddr[j], addr, 6))
				return (int)i;
	}
	return -1;
}

int aq_radio_by_name(struct aq_medium *m, const char *name)
{
	for (unsigned int i = 0; i < m->n_radios; i++)
		if (m->radio[i].present && !strcmp(m->radio[i].name, name))
			return (int)i;
	return -1;
}

int aq_radio_add_maddr(struct aq_medium *m, int ri, const uint8_t *addr)
{
	struct aq_radio *r = &m->radio[ri];
	void *p;

	for (unsigned int j = 0; j < r->n_maddr; j++)
		if (!memcmp(r->maddr[j], addr, 6))
			return 0;
	if (r->n_maddr == r->cap_maddr) {
		r->cap_maddr = r->cap_maddr ? 2 * r->cap_maddr : 4;
		p = realloc(r->maddr, r->cap_maddr * 6);
		if (!p)
			return -1;
		r->maddr = p;
	}
	memcpy(r->maddr[r->n_maddr++], addr, 6);
	return 0;
}

void aq_radio_del_maddr(struct aq_medium *m, int ri, const uint8_t *addr)
{
	struct aq_radio *r = &m->radio[ri];

	for (unsigned int j = 0; j < r->n_maddr; j++)
		if (!memcmp(r->maddr[j], addr, 6)) {
			memmove(r->maddr[j], r->maddr[j + 1],
				(r->n_maddr - j - 1) * 6);
			r->n_maddr--;
			return;
		}
}

/* ------------------------------------------------------ channel access */

static int64_t aifs(struct aq_medium *m, struct aq_radio *r, int ac)
{
	int64_t t = m->phy.sifs + (int64_t)r->ac[ac].aifsn * m->phy.slot;

	if (r->eifs && m->phy.use_eifs)
		t += aq_eifs(&m->phy) - aq_difs(&m->phy);
	return t;
}

/*
 * Where the countdown starts: the first slot boundary after the medium has
 * been idle for AIFS (DIFS, EIFS) since the last busy period, and not
 * before the backoff procedure was invoked (access_floor: the end of an
 * ACK/CTS timeout, or of an exchange).  Slot boundaries are AIFS + k slots
 * after the busy period ends (802.11-2020 10.23.2.5, 10.3.4.3), so a
 * procedure invoked in mid-slot starts counting at the next boundary.
 */
static int64_t count_start(struct aq_medium *m, struct aq_radio *r, int ac)
{
	int64_t s = r->idle_ref + aifs(m, r, ac);

	if (r->access_floor > s)
		s += (r->access_floor - s + m->phy.slot - 1) / m->phy.slot * m->phy.slot;
	return s;
}

static void freeze(struct aq_medium *m, struct aq_radio *r)
{
	for (int ac = 0; ac < AQ_NUM_AC; ac++) {
		struct aq_ac_state *q = &r->ac[ac];
		int64_t s = count_start(m, r, ac), el;

		if (m->now < s || q->backoff == 0)
			continue;
		el = (m->now - s) / m->phy.slot + (m->phy.resume_decrement ? 1 : 0);
		q->backoff = el >= q->backoff ? 0 : q->backoff - (int)el;
	}
}

static int64_t ac_access_time(struct aq_medium *m, struct aq_radio *r, int ac)
{
	int64_t t = count_start(m, r, ac) + (int64_t)r->ac[ac].backoff * m->phy.slot;

	return t < m->now ? m->now : t;
}

static void schedule(struct aq_medium *m, int ri)
{
	struct aq_radio *r = &m->radio[ri];
	int64_t t = INT64_MAX, ta;

	if (r->contend)
		for (int ac = 0; ac < AQ_NUM_AC; ac++) {
			if (!r->ac[ac].qlen)
				continue;
			ta = ac_access_time(m, r, ac);
			if (ta < t)
				t = ta;
		}
	if (t == INT64_MAX) {
		if (r->access_at >= 0)
			r->access_gen++;
		r->access_at = -1;
		return;
	}
	if (t == r->access_at)
		return;
	r->access_gen++;
	r->access_at = t;
	ev_push(m, t, AQ_EV_ACCESS, ri, r->access_gen, NULL);
}

static void radio_update(struct aq_medium *m, int ri)
{
	struct aq_radio *r = &m->radio[ri];
	bool mi = r->n_sig == 0 && !r->txing && m->now >= r->nav_end;
	bool c;

	if (mi != r->med_idle) {
		if (mi) {
			r->sense_idle_since = m->now;
			r->busy_ns += m->now - r->busy_since;
		} else {
			r->busy_since = m->now;
		}
		r->med_idle = mi;
	}
	c = mi && !r->waiting;
	if (c != r->contend) {
		if (!c)
			freeze(m, r);
		else
			r->idle_ref = r->sense_idle_since;
		r->contend = c;
	}
	schedule(m, ri);
}

/* ------------------------------------------------------- transmissions */

static void trace_tx(struct aq_medium *m, struct aq_tx *tx)
{
	static const char * const kn[] = { "DATA", "RTS", "CTS", "ACK", "BA" };

	if (!m->trace)
		return;
	fprintf(m->trace, "%lld tx %llu src=%d dst=%d %s ac=%d kbps=%u bytes=%u dur_ns=%lld nfr=%u\n",
		(long long)m->now, (unsigned long long)tx->id, tx->src, tx->dst,
		kn[tx->kind], tx->ac, tx->rate.kbps, tx->bytes,
		(long long)(tx->end - tx->start), tx->nfr);
}

/* schedule a transmission starting at tx->start (>= now) */
static void tx_schedule(struct aq_medium *m, struct aq_tx *tx)
{
	tx->end = tx->start + aq_txtime(&m->phy, &tx->rate, tx->bytes);
	tx->src_epoch = m->radio[tx->src].epoch;
	ev_push(m, tx->start, AQ_EV_TX_BEGIN, tx->src, 0, tx);
}

/* ------------------------------------------------- per-pair delays */

static void fan_put(struct aq_fan *f)
{
	if (f && !--f->refs)
		free(f);
}

static int fan_cmp(const void *a, const void *b)
{
	const struct aq_fan_rx *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return x->ri - y->ri;
}

/* src's receivers in arrival order (struct aq_fan), rebuilt when a link
 * or the set of radios changed since the last */
static struct aq_fan *fan_get(struct aq_medium *m, int src)
{
	struct aq_fan *f = m->fan[src];
	unsigned int n = 0;

	if (f && f->gen == m->fan_gen)
		return f;
	fan_put(f);
	f = malloc(sizeof(*f) + m->n_radios * sizeof(f->rx[0]));
	if (!f)
		abort();
	for (unsigned int i = 0; i < m->n_radios; i++) {
		if (i == (unsigned int)src || !m->radio[i].present)
			continue;
		f->rx[n].d = m->link[src][i].prop;
		f->rx[n].ri = (int)i;
		f->rx[n].rank = n;
		n++;
	}
	qsort(f->rx, n, sizeof(f->rx[0]), fan_cmp);
	f->n = n;
	f->refs = 1;
	f->gen = m->fan_gen;
	m->fan[src] = f;
	return f;
}

/* the time and sequence number of tx's start (end = 0) or end (1) at its
 * receiver k (in arrival order) */
static int64_t fan_t(const struct aq_tx *tx, int end, unsigned int k)
{
	return (end ? tx->end : tx->start) + tx->fan->rx[k].d;
}

static uint64_t fan_seq(const struct aq_tx *tx, int end, unsigned int k)
{
	return tx->fan_seq + 2 * (uint64_t)tx->fan->rx[k].rank + (uint64_t)end;
}

static void fan_push(struct aq_medium *m, struct aq_tx *tx, int end)
{
	unsigned int k = tx->fan_pos[end];
	struct aq_event e = {
		fan_t(tx, end, k), fan_seq(tx, end, k), AQ_EV_SIG_FAN,
		tx->fan->rx[k].ri, (uint64_t)end, tx
	};

	ev_insert(m, e);
}

static void tx_begin(struct aq_medium *m, struct aq_tx *tx)
{
	struct aq_radio *r = &m->radio[tx->src];
	int64_t dur = tx->end - tx->start;

	if (!r->present || r->epoch != tx->src_epoch)
		return;
	r->txing = true;
	/* half duplex: transmitting abandons a reception (no PHY-RXEND in
	 * error follows, so no EIFS either) */
	r->rx_tx = NULL;
	r->tx_ns += dur;
	if (tx->dst >= 0)
		r->sta_airtime[tx->dst] += dur;
	if (tx->kind == AQ_TX_DATA || tx->kind == AQ_TX_RTS) {
		r->ac[tx->ac].st.airtime += dur;
		/* within one propagation delay: both started before either
		 * could sense the other */
		if (m->last_tx_start >= 0 && m->last_tx_src != tx->src &&
		    m->now - m->last_tx_start <=
		    aq_prop_delay(m, m->last_tx_src, tx->src))
			m->st.same_slot_collisions++;
		m->last_tx_start = m->now;
		m->last_tx_src = tx->src;
	} else {
		r->tx_responses++;
	}
	m->st.transmissions++;
	active_add(m, tx);
	trace_tx(m, tx);
	/* in-flight reference, dropped after SIG_END */
	tx->refs++;
	ev_push(m, tx->end, AQ_EV_TX_END, tx->src, 0, tx);
	if (m->phy.prop_pos) {
		/* each receiver at its own delay (tx_fan()) */
		struct aq_fan *f = m->per_rx_events ? NULL : fan_get(m, tx->src);

		if (f && f->n) {
			f->refs++;
			tx->fan = f;
			tx->rx_pending = f->n;
			/* the sequence numbers of a start and an end event
			 * per receiver, as if each had its own */
			tx->fan_seq = m->seq;
			m->seq += 2 * (uint64_t)f->n;
			fan_push(m, tx, 0);
			fan_push(m, tx, 1);
		} else if (!f) {
			for (unsigned int i = 0; i < m->n_radios; i++) {
				int64_t d = m->link[tx->src][i].prop;

				if (i == (unsigned int)tx->src || !m->radio[i].present)
					continue;
				ev_push(m, tx->start + d, AQ_EV_SIG_START_RX, i, 0, tx);
				ev_push(m, tx->end + d, AQ_EV_SIG_END_RX, i, 0, tx);
				tx->rx_pending++;
			}
		}
		if (!tx->rx_pending) {
			/* nobody to receive it: its end, all the same */
			tx->rx_pending = 1;
			ev_push(m, tx->end, AQ_EV_SIG_END_RX, -1, 0, tx);
		}
	} else {
		ev_push(m, tx->start + m->phy.prop, AQ_EV_SIG_START, tx->src, 0, tx);
		ev_push(m, tx->end + m->phy.prop, AQ_EV_SIG_END, tx->src, 0, tx);
	}
	radio_update(m, tx->src);
}

static void tx_start_now(struct aq_medium *m, struct aq_tx *tx)
{
	tx->start = m->now;
	tx->end = tx->start + aq_txtime(&m->phy, &tx->rate, tx->bytes);
	tx->src_epoch = m->radio[tx->src].epoch;
	tx_begin(m, tx);
}

static bool hears(struct aq_medium *m, struct aq_radio *r, struct aq_tx *tx)
{
	return !r->freq || !tx->freq || r->freq == tx->freq;
}

/* noise_dbm in mW, remembered: every signal start and end at every
 * receiver asks, and the configuration may change noise_dbm at any time */
static double noise_mw(struct aq_radio *r)
{
	if (r->noise_memo_dbm != r->noise_dbm || !r->noise_memo_mw) {
		r->noise_memo_mw = pow(10.0, r->noise_dbm / 10.0);
		r->noise_memo_dbm = r->noise_dbm;
	}
	return r->noise_memo_mw;
}

/* SINR (dB) at r of a signal of sig_mw among everything arriving now */
static double sinr_db(struct aq_radio *r, double sig_mw)
{
	double in = r->pwr_mw - sig_mw;

	return 10.0 * log10(sig_mw / (noise_mw(r) + (in > 0 ? in : 0)));
}

/*
 * sinr_db(r, sig_mw) >= thr_db, mostly without the logarithm: the ratio
 * is compared with the threshold's, and only one within a billionth of
 * it (where rounding could decide) takes the logarithm, so the answer is
 * sinr_db()'s, always.  Every radio a signal reaches asks.
 */
static bool sinr_at_least(struct aq_medium *m, struct aq_radio *r,
			  double sig_mw, double thr_db)
{
	double in = r->pwr_mw - sig_mw, ratio;

	if (m->thr_memo_db != thr_db || !m->thr_memo_lin) {
		m->thr_memo_lin = pow(10.0, thr_db / 10.0);
		m->thr_memo_db = thr_db;
	}
	ratio = sig_mw / (noise_mw(r) + (in > 0 ? in : 0));
	if (ratio > m->thr_memo_lin * (1 + 1e-9))
		return true;
	if (ratio < m->thr_memo_lin * (1 - 1e-9))
		return false;
	return sinr_db(r, sig_mw) >= thr_db;
}

/* the SINR (dB) a locked reception ends with: its signal over noise and
 * the most interference it met; without interference the same argument
 * every time, so its logarithm is remembered */
static double rx_end_snr(struct aq_radio *r, const struct aq_link *l)
{
	double den = noise_mw(r) + r->rx_interf_max_mw;

	if (den != r->lg_memo_mw || !r->lg_memo_mw) {
		r->lg_memo_db = 10.0 * log10(den);
		r->lg_memo_mw = den;
	}
	return l->rx_dbm - r->lg_memo_db;
}

/*
 * The receiver locks onto tx: its PHY header is decoded until rx_hdr_end
 * (802.11-2020: PHY-RXSTART.indication follows a valid PHY header).  A
 * radio locks only while it is not transmitting, on a signal above CCA
 * whose SINR reaches pd_snr_db (threshold preamble detection, as ns-3's
 * ThresholdPreambleDetectionModel).
 */
static void lock(struct aq_medium *m, struct aq_radio *r, struct aq_tx *tx,
		 double sig_mw)
{
	r->rx_tx = tx;
	r->rx_hdr_end = m->now + aq_hdr_time(&m->phy, &tx->rate);
	r->rx_sig_mw = sig_mw;
	r->rx_interf_max_mw = r->pwr_mw - sig_mw;
	r->rx_bad = !m->phy.capture && r->n_sig > 1;
}

/* the signal of tx reaches radio i */
static inline __attribute__((always_inline)) void
sig_start_rx(struct aq_medium *m, struct aq_tx *tx, unsigned int i)
{
	struct aq_radio *r = &m->radio[i];
	struct aq_link *l = &m->link[tx->src][i];
	bool above;

	if (i == (unsigned int)tx->src || !r->present || !hears(m, r, tx))
		return;
	if (l->rx_dbm < r->noise_dbm - 20.0)
		return;	/* negligible */
	BIT_SET(tx->heard, i);
	r->n_heard++;
	r->pwr_mw += l->mw;
	above = l->rx_dbm >= r->cca_dbm;
	if (above) {
		BIT_SET(tx->above, i);
		r->n_sig++;
	}
	if (r->rx_tx && m->now < r->rx_hdr_end &&
	    above && sinr_at_least(m, r, l->mw, m->phy.pd_snr_db)) {
		/* preamble capture: a signal strong enough over the
		 * one whose header is being decoded takes the lock */
		BIT_SET(r->rx_tx->overlapped, i);
		r->rx_hdr_lost++;
		lock(m, r, tx, l->mw);
		BIT_SET(tx->overlapped, i);
	} else if (r->rx_tx) {
		double in = r->pwr_mw - r->rx_sig_mw;

		if (in > r->rx_interf_max_mw)
			r->rx_interf_max_mw = in;
		BIT_SET(r->rx_tx->overlapped, i);
		if (m->now < r->rx_hdr_end &&
		    !sinr_at_least(m, r, r->rx_sig_mw, m->phy.pd_snr_db)) {
			/* the header is lost: no PHY-RXSTART, so no
			 * frame to end in error and no EIFS; the
			 * medium stays busy on energy */
			r->rx_hdr_lost++;
			r->rx_tx = NULL;
		} else if (!m->phy.capture && above) {
			r->rx_bad = true;
		}
	} else if (above && !r->txing &&
		   sinr_at_least(m, r, l->mw, m->phy.pd_snr_db)) {
		lock(m, r, tx, l->mw);
		if (r->rx_interf_max_mw > 0 || r->n_sig > 1)
			BIT_SET(tx->overlapped, i);
	}
	if ((int)i == tx->dst && r->waiting && r->cur && tx->data &&
	    tx->kind != AQ_TX_DATA && tx->kind != AQ_TX_RTS &&
	    (tx->data == r->cur || tx->data->data == r->cur))
		r->resp_incoming = true;
	radio_update(m, i);
}

static void sig_start(struct aq_medium *m, struct aq_tx *tx)
{
	for (unsigned int i = 0; i < m->n_radios; i++)
		sig_start_rx(m, tx, i);
}

/* whether bytes octets of tx reach radio ri: a draw from the random
 * stream rng against their PER, the link's BER included */
static bool rx_draw(struct aq_medium *m, uint64_t *rng, struct aq_tx *tx,
		    int ri, unsigned int bytes, double snr)
{
	double per = aq_per(&m->phy, &tx->rate, snr, bytes);
	double ber = m->link[tx->src][ri].ber;

	if (ber > 0)
		per = 1.0 - (1.0 - per) * pow(1.0 - ber, 8.0 * bytes);
	return per <= 0.0 || rand_unit(rng) >= per;
}

/* probability-free third-party decode: clean and above the 10 % PER SNR */
static bool rx_ok_draw(struct aq_medium *m, struct aq_tx *tx, int ri,
		       unsigned int bytes, double snr)
{
	return rx_draw(m, m->rng, tx, ri, bytes, snr);
}

static void exchange_done(struct aq_medium *m, int ri, uint64_t ok_mask,
			  bool collided);

static struct aq_tx *make_response(struct aq_medium *m, struct aq_tx *to,
				   enum aq_kind kind)
{
	struct aq_tx *rsp = tx_alloc(m);

	rsp->kind = kind;
	rsp->src = to->dst;
	rsp->dst = to->src;
	rsp->ac = to->ac;
	rsp->freq = to->freq;
	aq_ctrl_rate(&m->phy, &to->rate, &rsp->rate);
	rsp->bytes = kind == AQ_TX_BA ? AQ_BA_LEN : kind == AQ_TX_CTS ? AQ_CTS_LEN : AQ_ACK_LEN;
	rsp->start = m->now + m->phy.sifs;
	rsp->data = to;
	to->refs++;
	if (kind == AQ_TX_CTS)
		rsp->nav = to->nav - m->phy.sifs - aq_txtime(&m->phy, &rsp->rate, rsp->bytes);
	tx_schedule(m, rsp);
	return rsp;
}

/* hand subframe f of tx to radio ri's driver, counted in *count */
static void pass_up(struct aq_medium *m, struct aq_tx *tx, struct aq_frame *f,
		    int ri, uint64_t *count)
{
	int64_t dur = (tx->end - tx->start) / (tx->nfr ? tx->nfr : 1);

	(*count)++;
	if (m->ops.deliver)
		m->ops.deliver(m, f, ri, m->link[tx->src][ri].rx_dbm, &tx->rate, dur);
}

static void deliver(struct aq_medium *m, struct aq_tx *tx, struct aq_frame *f,
		    int ri, unsigned int k)
{
	(void)k;
	pass_up(m, tx, f, ri, &m->radio[ri].rx_frames);
}

/* a beacon radio ri decoded, of another BSS than ri's (beacon_scope_bss) */
static bool out_of_scope(const struct aq_medium *m, const struct aq_frame *f, int ri)
{
	int own, theirs;

	if (!m->phy.beacon_scope_bss || !f->beacon)
		return false;
	own = m->radio[ri].bss;
	theirs = m->radio[f->src].bss;
	return own && theirs && own != theirs;
}

/*
 * overhear: radio ri, not the receiver of the unicast DATA tx, locked on
 * it and decoded its header and rate (as for a group frame); each subframe
 * it receives correctly goes to its driver, whose receive filter drops it
 * or not, as a real radio's does.  Nothing of it reaches the sender (no
 * response, no ok_mask, no status), and it is counted apart from
 * rx_frames, which is what the receivers were given.
 */
static void overhear(struct aq_medium *m, struct aq_tx *tx, int ri, double snr)
{
	for (unsigned int k = 0; k < tx->nfr; k++)
		if (rx_draw(m, m->rng_ovh, tx, ri, tx->fr[k]->len, snr))
			pass_up(m, tx, tx->fr[k], ri, &m->radio[ri].rx_overheard);
}

/* reception at the intended receiver; true if the frame (or one subframe
 * of an A-MPDU) was received correctly */
static bool rx_intended(struct aq_medium *m, struct aq_tx *tx, int ri,
			bool locked, double snr)
{
	struct aq_radio *r = &m->radio[ri];
	struct aq_radio *orig;
	bool ok, clean = locked && !r->rx_bad;

	switch (tx->kind) {
	case AQ_TX_DATA:
		for (unsigned int k = 0; k < tx->nfr; k++) {
			unsigned int len = tx->fr[k]->len;

			if (clean && rx_ok_draw(m, tx, ri, len, snr)) {
				tx->ok_mask |= 1ULL << k;
				deliver(m, tx, tx->fr[k], ri, k);
			} else {
				r->rx_errors++;
			}
		}
		tx->interfered = !locked || BIT_TST(tx->overlapped, ri);
		if (tx->ok_mask && tx->dst >= 0 && !tx->fr[0]->no_ack)
			make_response(m, tx, tx->ampdu ? AQ_TX_BA : AQ_TX_ACK);
		return tx->ok_mask != 0;
	case AQ_TX_RTS:
		tx->interfered = !locked || BIT_TST(tx->overlapped, ri);
		ok = clean && rx_ok_draw(m, tx, ri, tx->bytes, snr);
		if (ok && m->now >= r->nav_end) {
			tx->ok_mask = 1;
			make_response(m, tx, AQ_TX_CTS);
		}
		return ok;
	case AQ_TX_CTS:
	case AQ_TX_ACK:
	case AQ_TX_BA:
		orig = r;
		if (!orig->waiting || !orig->cur ||
		    (tx->data != orig->cur && tx->data->data != orig->cur))
			return clean && snr >= tx->rate.snr10_db;
		ok = clean && rx_ok_draw(m, tx, ri, tx->bytes, snr);
		orig->wait_gen++;
		orig->resp_incoming = false;
		if (tx->kind == AQ_TX_CTS) {
			struct aq_tx *d = orig->cur;

			orig->await_cts = false;
			if (!ok) {
				orig->ac[d->ac].st.rts_failures++;
				exchange_done(m, ri, 0, false);
				return false;
			}
			d->start = m->now + m->phy.sifs;
			d->refs++;
			tx_schedule(m, d);
			return true;
		}
		if (!ok) {
			exchange_done(m, ri, 0, false);
			return false;
		}
		exchange_done(m, ri, tx->kind == AQ_TX_ACK ? 1 : tx->data->ok_mask,
			      false);
		return true;
	}
	return false;
}

/*
 * The signal of tx ends at radio i.  Returns whether i is the intended
 * receiver that was locked on it (its reception is decided by
 * sig_end_dst() then, after every other radio has been updated).
 */
static inline __attribute__((always_inline)) bool
sig_end_rx(struct aq_medium *m, struct aq_tx *tx, unsigned int i,
		       double *dst_snr)
{
	struct aq_radio *r = &m->radio[i];
	struct aq_link *l = &m->link[tx->src][i];
	double snr;

	if (!BIT_TST(tx->heard, i))
		return false;
	r->pwr_mw -= l->mw;
	if (--r->n_heard <= 0 || r->pwr_mw < 0) {
		r->n_heard = 0;
		r->pwr_mw = 0;
	}
	if (BIT_TST(tx->above, i))
		r->n_sig--;
	if (r->rx_tx == tx) {
		r->rx_tx = NULL;
		snr = rx_end_snr(r, l);
		if ((int)i == tx->dst) {
			*dst_snr = snr;
			r->rx_ns += tx->end - tx->start;
			return true;	/* radio_update after rx_intended */
		}
		if (!r->rx_bad && snr >= tx->rate.snr10_db) {
			r->eifs = false;
			if (tx->dst == AQ_DST_BCAST) {
				for (unsigned int k = 0; k < tx->nfr; k++) {
					if (!rx_ok_draw(m, tx, i, tx->fr[k]->len, snr))
						continue;
					if (out_of_scope(m, tx->fr[k], i))
						r->rx_scoped++;
					else
						deliver(m, tx, tx->fr[k], i, k);
				}
			} else {
				if (tx->nav > 0 && m->now + tx->nav > r->nav_end) {
					r->nav_end = m->now + tx->nav;
					ev_push(m, r->nav_end, AQ_EV_NAV_END, i, 0, NULL);
				}
				if (m->phy.overhear && tx->kind == AQ_TX_DATA)
					overhear(m, tx, i, snr);
			}
		} else if (m->phy.use_eifs) {
			r->eifs = true;
			r->eifs_set++;
		}
	}
	if ((int)i != tx->dst)
		radio_update(m, i);
	return false;
}

/* the end of tx at its intended receiver */
static void sig_end_dst(struct aq_medium *m, struct aq_tx *tx, bool dst_locked,
			double dst_snr)
{
	if (tx->dst >= 0 && m->radio[tx->dst].present) {
		if (BIT_TST(tx->heard, tx->dst) || dst_locked) {
			bool good = rx_intended(m, tx, tx->dst, dst_locked, dst_snr);

			/* EIFS after a frame whose PHY header was received and
			 * whose FCS failed (802.11-2020 10.3.2.3.7); a correct
			 * frame ends it */
			if (dst_locked) {
				struct aq_radio *d = &m->radio[tx->dst];

				d->eifs = m->phy.use_eifs && !good;
				d->eifs_set += d->eifs;
			}
			radio_update(m, tx->dst);
		} else {
			tx->interfered = false;
		}
	}
}

/* the signal of tx has ended everywhere */
static void sig_end_fin(struct aq_medium *m, struct aq_tx *tx)
{
	if (m->trace && (tx->kind == AQ_TX_DATA || tx->kind == AQ_TX_RTS))
		fprintf(m->trace, "%lld rx %llu ok_mask=%llx interfered=%d\n",
			(long long)m->now, (unsigned long long)tx->id,
			(unsigned long long)tx->ok_mask, tx->interfered);
	tx->done = true;
	/* frames needing no response complete once every receiver had them */
	if (tx->kind == AQ_TX_DATA && m->radio[tx->src].present &&
	    m->radio[tx->src].epoch == tx->src_epoch &&
	    m->radio[tx->src].cur == tx && !m->radio[tx->src].waiting &&
	    (tx->dst == AQ_DST_BCAST || (tx->nfr && tx->fr[0]->no_ack)))
		exchange_done(m, tx->src, tx->nfr >= 64 ? ~0ULL : (1ULL << tx->nfr) - 1,
			      false);
}

/* one fixed delay: the signal ends at every radio at once */
static void sig_end(struct aq_medium *m, struct aq_tx *tx)
{
	bool dst_locked = false;
	double dst_snr = 0;

	active_del(m, tx);
	for (unsigned int i = 0; i < m->n_radios; i++)
		if (sig_end_rx(m, tx, i, &dst_snr))
			dst_locked = true;
	sig_end_dst(m, tx, dst_locked, dst_snr);
	sig_end_fin(m, tx);
}

/*
 * Per-pair delays: the signal ends at radio ri (-1: none heard it); the
 * intended receiver decides at its own end, the transmission is done at
 * the last.  True when that was the last.
 */
static bool sig_end_one(struct aq_medium *m, struct aq_tx *tx, int ri)
{
	double snr = 0;

	if (ri >= 0) {
		bool locked = sig_end_rx(m, tx, ri, &snr);

		if (ri == tx->dst)
			sig_end_dst(m, tx, locked, snr);
	}
	if (--tx->rx_pending)
		return false;
	active_del(m, tx);
	sig_end_fin(m, tx);
	return true;
}

static void tx_end(struct aq_medium *m, struct aq_tx *tx)
{
	struct aq_radio *r = &m->radio[tx->src];
	bool resp;

	if (!r->present || r->epoch != tx->src_epoch)
		return;
	r->txing = false;
	resp = (tx->kind == AQ_TX_RTS ||
		(tx->kind == AQ_TX_DATA && tx->dst != AQ_DST_BCAST &&
		 tx->nfr && !tx->fr[0]->no_ack));
	if (resp && r->cur) {
		r->waiting = true;
		r->resp_incoming = false;
		r->wait_gen++;
		ev_push(m, tx->end + m->phy.ack_timeout, AQ_EV_TIMEOUT, tx->src,
			r->wait_gen, NULL);
	}
	radio_update(m, tx->src);
}

/* ---------------------------------------------------- exchange control */

static void q_push_front_list(struct aq_ac_state *q, struct aq_frame **v,
			      unsigned int n)
{
	for (unsigned int i = n; i-- > 0;) {
		v[i]->next = q->head;
		q->head = v[i];
		if (!q->tail)
			q->tail = v[i];
		q->qlen++;
	}
}

/* add entry @e's attempts to the by-rate counts of @st */
static void count_rate(struct aq_medium *m, struct aq_ac_stats *st,
		       const struct aq_frame *f, int e)
{
	bool rts = f->rates[e].flags & HWSIM_TX_RC_USE_RTS_CTS;
	struct aq_rate rate;
	unsigned int i;

	if (aq_rate_from_hwsim(&m->phy, f->freq, f->rates[e].idx,
			       f->rates[e].flags, &rate)) {
		st->by_rate_other += f->used[e];
		return;
	}
	for (i = 0; i < st->n_by_rate; i++)
		if (st->by_rate[i].kbps == rate.kbps && st->by_rate[i].rts == rts)
			break;
	if (i == st->n_by_rate) {
		if (i == AQ_RATE_SLOTS) {
			st->by_rate_other += f->used[e];
			return;
		}
		st->by_rate[i].kbps = rate.kbps;
		st->by_rate[i].rts = rts;
		st->n_by_rate++;
	}
	st->by_rate[i].attempts += f->used[e];
}

static void final_status(struct aq_medium *m, struct aq_radio *r,
			 struct aq_frame *f, bool acked)
{
	struct aq_ac_stats *st = &r->ac[f->ac].st;

	f->next = NULL;
	st->queue_delay_sum += m->now - f->enq_time;
	if (f->attempts) {
		unsigned int l4 = f->l4 < AQ_NUM_L4 ? f->l4 : AQ_L4_OTHER;
		unsigned int table = aq_total_tries(f);

		st->tries_hist[l4]
			[f->attempts < AQ_TRIES_HIST ? f->attempts : AQ_TRIES_HIST - 1]++;
		st->table_hist[l4]
			[table < AQ_TRIES_HIST ? table : AQ_TRIES_HIST - 1]++;
		if (f->ampdu_ok)
			st->ampdu_tries_hist[l4]
				[f->attempts < AQ_TRIES_HIST ? f->attempts :
				 AQ_TRIES_HIST - 1]++;
		for (int e = 0; e < AQ_MAX_RATES && f->rates[e].idx >= 0; e++) {
			if (!f->used[e])
				continue;
			if (f->rates[e].idx != f->rates[0].idx ||
			    f->rates[e].flags != f->rates[0].flags)
				st->fallback_tries[l4] += f->used[e];
			count_rate(m, st, f, e);
		}
	}
	if (m->ops.tx_status)
		m->ops.tx_status(m, f, acked);
	aq_frame_free(f);
}

static void start_exchange(struct aq_medium *m, int ri, int ac);

/*
 * Whether the head of @ac fits in the rest of the TXOP started at
 * r->txop_start: its data frame SIFS from now, then SIFS and its ACK.
 */
static bool txop_fits(struct aq_medium *m, struct aq_radio *r, int ac)
{
	struct aq_ac_state *q = &r->ac[ac];
	struct aq_frame *f = q->head;
	struct aq_rate rate, ctrl;
	int64_t end;

	if (!q->txop_ns || !f || f->dst == AQ_DST_BCAST || f->no_ack ||
	    aq_frame_rate(m, f, &rate))
		return false;
	aq_ctrl_rate(&m->phy, &rate, &ctrl);
	end = m->now + m->phy.sifs + aq_txtime(&m->phy, &rate, f->len) +
	      m->phy.sifs + aq_txtime(&m->phy, &ctrl, AQ_ACK_LEN);
	return end - r->txop_start <= q->txop_ns;
}

static void exchange_done(struct aq_medium *m, int ri, uint64_t ok_mask,
			  bool collided)
{
	struct aq_radio *r = &m->radio[ri];
	struct aq_tx *tx = r->cur;
	struct aq_ac_state *q;
	struct aq_frame *retry[AQ_AMPDU_MAX_SUB];
	unsigned int nretry = 0, nok = 0;
	bool any_ok = false, any_discard = false, described = false;
	int64_t share;

	if (!tx)
		return;
	q = &r->ac[tx->ac];
	collided |= tx->interfered;
	share = tx->nfr ? (m->now - r->exch_start) / tx->nfr : 0;
	for (unsigned int k = 0; k < tx->nfr; k++)
		if (ok_mask & (1ULL << k))
			nok++;
	for (unsigned int k = 0; k < tx->nfr; k++) {
		struct aq_frame *f = tx->fr[k];
		bool ok = ok_mask & (1ULL << k);
		bool final = ok || f->attempts >= aq_total_tries(f);

		f->airtime += share;
		/* the A-MPDU is described on the first subframe that completes
		 * now; the others completing now report length 0 */
		f->in_ampdu = tx->ampdu;
		f->ampdu_len = tx->ampdu && final && !described ? tx->nfr : 0;
		f->ampdu_acked = f->ampdu_len ? nok : 0;
		described |= f->ampdu_len > 0;
		if (ok) {
			any_ok = true;
			q->st.successes++;
			q->st.bytes_ok += f->len;
			q->st.payload_ok += f->payload;
			final_status(m, r, f, !f->no_ack && tx->dst != AQ_DST_BCAST);
			continue;
		}
		q->st.failures++;
		if (collided)
			q->st.collisions++;
		if (f->attempts >= aq_total_tries(f)) {
			q->st.discards++;
			any_discard = true;
			final_status(m, r, f, false);
		} else {
			retry[nretry++] = f;
		}
	}
	q_push_front_list(q, retry, nretry);
	if (any_ok || any_discard)
		q->cw = q->cwmin;
	else
		q->cw = 2 * q->cw + 1 > q->cwmax ? q->cwmax : 2 * q->cw + 1;
	q->backoff = rand_backoff(m, q->cw);
	tx->nfr = 0;
	r->cur = NULL;
	tx_put(m, tx);
	r->await_cts = false;
	r->resp_incoming = false;
	r->wait_gen++;
	r->access_floor = m->now;
	/*
	 * TXOP: an exchange that succeeded may be followed SIFS later by the
	 * AC's next frame if it fits; the radio keeps the medium (it stays
	 * "waiting", so it neither contends nor counts down).  A failure ends
	 * the TXOP: the backoff drawn above applies.
	 */
	if (any_ok && !collided && txop_fits(m, r, tx->ac)) {
		r->txop_ac = tx->ac;
		r->waiting = true;
		ev_push(m, m->now + m->phy.sifs, AQ_EV_TXOP, ri, r->wait_gen, NULL);
		update_backlog(m, r);
		radio_update(m, ri);
		return;
	}
	r->waiting = false;
	update_backlog(m, r);
	radio_update(m, ri);
}

/* SIFS after an exchange that succeeded: the TXOP's next frame */
static void txop_continue(struct aq_medium *m, int ri, uint64_t gen)
{
	struct aq_radio *r = &m->radio[ri];
	int ac = r->txop_ac;

	if (!r->present || gen != r->wait_gen || ac < 0)
		return;
	r->txop_ac = -1;
	r->waiting = false;
	if (r->cur || !r->ac[ac].qlen) {
		radio_update(m, ri);
		return;
	}
	r->ac[ac].st.txop_continuations++;
	start_exchange(m, ri, ac);
}

static void timeout(struct aq_medium *m, int ri, uint64_t gen)
{
	struct aq_radio *r = &m->radio[ri];

	if (!r->present || gen != r->wait_gen || !r->waiting || r->resp_incoming)
		return;
	if (r->cur && r->cur->kind == AQ_TX_DATA) {
		if (r->await_cts)
			r->ac[r->cur->ac].st.rts_failures++;
		exchange_done(m, ri, 0, false);
	}
}

/* build the DATA (possibly A-MPDU) for the head of ac, and send it */
static void start_exchange(struct aq_medium *m, int ri, int ac)
{
	struct aq_radio *r = &m->radio[ri];
	struct aq_ac_state *q = &r->ac[ac];
	struct aq_frame *f = q->head, *g, **pp;
	struct aq_rate rate, ctrl, rts_rate;
	struct aq_tx *tx;
	unsigned int padded, e;
	int64_t dur, rdur;
	bool resp;

	q->head = f->next;
	if (!q->head)
		q->tail = NULL;
	q->qlen--;
	f->next = NULL;
	if (aq_frame_rate(m, f, &rate)) {
		/* unusable rate table: report it untransmitted */
		q->st.discards++;
		m->st.bad_msgs++;
		final_status(m, r, f, false);
		update_backlog(m, r);
		schedule(m, ri);
		return;
	}
	tx = tx_alloc(m);
	tx->kind = AQ_TX_DATA;
	tx->src = ri;
	tx->dst = f->dst;
	tx->ac = ac;
	tx->freq = f->freq;
	tx->rate = rate;
	tx->fr[0] = f;
	tx->nfr = 1;
	tx->bytes = f->len;
	e = aq_rate_entry(f);
	padded = aq_ampdu_sub_len(f->len, false);
	if (m->phy.ampdu && f->ampdu_ok && rate.mod == AQ_MOD_HT && f->dst >= 0 &&
	    !f->no_ack) {
		pp = &q->head;
		for (g = q->head; g && tx->nfr < AQ_AMPDU_MAX_SUB; g = *pp) {
			int ge = aq_rate_entry(g);
			unsigned int nb;

			if (g->dst != f->dst || g->tid != f->tid || !g->ampdu_ok ||
			    g->no_ack || ge < 0 ||
			    g->rates[ge].idx != f->rates[e].idx ||
			    g->rates[ge].flags != f->rates[e].flags) {
				pp = &g->next;
				continue;
			}
			nb = padded + aq_ampdu_sub_len(g->len, true);
			if (nb > AQ_AMPDU_MAX_BYTES ||
			    aq_txtime(&m->phy, &rate, nb) > AQ_AMPDU_MAX_NS)
				break;
			*pp = g->next;
			if (q->tail == g)
				q->tail = NULL;
			q->qlen--;
			g->next = NULL;
			tx->fr[tx->nfr++] = g;
			padded += aq_ampdu_sub_len(g->len, false);
		}
		if (!q->tail)
			for (q->tail = q->head; q->tail && q->tail->next;)
				q->tail = q->tail->next;
		if (tx->nfr > 1) {
			tx->ampdu = true;
			tx->bytes = padded - aq_ampdu_sub_len(tx->fr[tx->nfr - 1]->len, false) +
				    aq_ampdu_sub_len(tx->fr[tx->nfr - 1]->len, true);
			q->st.ampdus++;
			q->st.ampdu_subframes += tx->nfr;
		}
	}
	for (unsigned int k = 0; k < tx->nfr; k++) {
		g = tx->fr[k];
		g->used[aq_rate_entry(g)]++;
		g->attempts++;
		q->st.attempts++;
		if (g->attempts == 1) {
			q->st.frames++;
			q->st.l4_frames[g->l4 < AQ_NUM_L4 ? g->l4 : AQ_L4_OTHER]++;
		}
	}
	dur = aq_txtime(&m->phy, &rate, tx->bytes);
	resp = f->dst != AQ_DST_BCAST && !f->no_ack;
	aq_ctrl_rate(&m->phy, &rate, &ctrl);
	rdur = aq_txtime(&m->phy, &ctrl, tx->ampdu ? AQ_BA_LEN : AQ_ACK_LEN);
	aq_rts_rate(&m->phy, &rate, &rts_rate);
	if (f->data && f->data_len >= 4)
		tx->nav = (int64_t)f->nav_us * AQ_NS_PER_US;
	else
		tx->nav = resp ? m->phy.sifs + rdur : 0;
	r->cur = tx;
	r->exch_start = m->now;
	if (f->dst >= 0 && r->sta_exch)
		r->sta_exch[f->dst]++;
	if (resp && (tx->bytes > m->phy.rts_threshold ||
		     (f->rates[e].flags & HWSIM_TX_RC_USE_RTS_CTS))) {
		struct aq_tx *rts = tx_alloc(m);
		int64_t cts;

		rts->kind = AQ_TX_RTS;
		rts->src = ri;
		rts->dst = f->dst;
		rts->ac = ac;
		rts->freq = f->freq;
		rts->rate = rts_rate;
		rts->bytes = AQ_RTS_LEN;
		aq_ctrl_rate(&m->phy, &rts_rate, &ctrl);	/* the CTS's */
		cts = aq_txtime(&m->phy, &ctrl, AQ_CTS_LEN);
		rts->nav = 3 * m->phy.sifs + cts + dur + rdur;
		rts->data = tx;
		tx->refs++;
		q->st.rts_attempts++;
		r->await_cts = true;
		tx_start_now(m, rts);
		tx_put(m, rts);
		return;
	}
	tx_start_now(m, tx);
}

static void access(struct aq_medium *m, int ri, uint64_t gen)
{
	struct aq_radio *r = &m->radio[ri];
	int win = -1, loser[AQ_NUM_AC], nl = 0;

	if (!r->present || gen != r->access_gen)
		return;
	r->access_at = -1;
	if (!r->contend || r->cur)
		return;
	for (int ac = AQ_NUM_AC - 1; ac >= 0; ac--) {
		if (!r->ac[ac].qlen || ac_access_time(m, r, ac) > m->now)
			continue;
		if (win < 0)
			win = ac;
		else
			loser[nl++] = ac;
	}
	if (win < 0) {
		schedule(m, ri);
		return;
	}
	r->txop_start = m->now;
	start_exchange(m, ri, win);
	/* internal collision: lower ACs behave as if they had collided */
	for (int i = 0; i < nl; i++) {
		struct aq_ac_state *q = &r->ac[loser[i]];

		q->st.internal_collisions++;
		q->cw = 2 * q->cw + 1 > q->cwmax ? q->cwmax : 2 * q->cw + 1;
		q->backoff = rand_backoff(m, q->cw);
	}
}

/* ------------------------------------------------------------ public */

static uint64_t splitmix_next(uint64_t *z)
{
	uint64_t x;

	*z += 0x9e3779b97f4a7c15ULL;
	x = *z;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* the random state from a seed (splitmix64 of seed, as xoshiro asks); the
 * overhear stream takes the next four of the same sequence */
void aq_seed(struct aq_medium *m, uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 4; i++)
		m->rng[i] = splitmix_next(&z);
	for (int i = 0; i < 4; i++)
		m->rng_ovh[i] = splitmix_next(&z);
}

void aq_init(struct aq_medium *m, const struct aq_phy *phy, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	m->phy = *phy;
	aq_seed(m, seed);
	m->chan.model = 0;
	m->chan.pl0_db = 40.05;
	m->chan.d0_m = 1.0;
	m->chan.exponent = 3.0;
	m->chan.noise_dbm = -91.0;
	m->chan.cca_dbm = -82.0;
	m->chan.tx_power_dbm = 20.0;
	m->chan.default_snr_db = 40.0;
	m->last_tx_start = -1;
	for (int ac = 0; ac < AQ_NUM_AC; ac++) {
		static const unsigned int aifsn[4] = { 7, 3, 2, 2 };
		unsigned int cwmin = phy->cwmin, cwmax = phy->cwmax;

		if (!phy->edca) {
			m->default_edca[ac][0] = 2;
			m->default_edca[ac][1] = cwmin;
			m->default_edca[ac][2] = cwmax;
			continue;
		}
		/* 802.11-2016 Table 9-137 (dot11EDCATable, non-AP default) */
		m->default_edca[ac][0] = aifsn[ac];
		/* its TXOP limits: VI 6.016 / VO 3.264 ms for DSSS/HR-DSSS,
		 * 3.008 / 1.504 ms for the OFDM-based PHYs; BE, BK 0 */
		if (phy->txop && (ac == AQ_AC_VI || ac == AQ_AC_VO)) {
			bool dsss = phy->std == AQ_STD_B;

			m->default_txop[ac] = ac == AQ_AC_VI ?
				(int64_t)(dsss ? 6016 : 3008) * AQ_NS_PER_US :
				(int64_t)(dsss ? 3264 : 1504) * AQ_NS_PER_US;
		}
		if (ac == AQ_AC_VI) {
			m->default_edca[ac][1] = (cwmin + 1) / 2 - 1;
			m->default_edca[ac][2] = cwmin;
		} else if (ac == AQ_AC_VO) {
			m->default_edca[ac][1] = (cwmin + 1) / 4 - 1;
			m->default_edca[ac][2] = (cwmin + 1) / 2 - 1;
		} else {
			m->default_edca[ac][1] = cwmin;
			m->default_edca[ac][2] = cwmax;
		}
	}
}

void aq_fini(struct aq_medium *m)
{
	struct aq_tx *t;

	for (unsigned int i = 0; i < m->n_radios; i++) {
		if (m->radio[i].present)
			aq_radio_remove(m, i);
		free(m->radio[i].maddr);
		free(m->radio[i].sta_airtime);
		free(m->radio[i].sta_exch);
		m->radio[i].maddr = NULL;
		m->radio[i].sta_airtime = NULL;
		m->radio[i].sta_exch = NULL;
	}
	while (m->heap_len) {
		struct aq_event e;

		ev_pop(m, &e);
		if (e.type == AQ_EV_SIG_FAN && e.gen) {
			/* the ends to come hold the in-flight reference */
			fan_put(e.tx->fan);
			e.tx->fan = NULL;
			tx_put(m, e.tx);
		} else if (e.tx && (e.type == AQ_EV_TX_BEGIN || e.type == AQ_EV_SIG_END ||
			   (e.type == AQ_EV_SIG_END_RX && !--e.tx->rx_pending))) {
			tx_put(m, e.tx);
		}
	}
	free(m->heap);
	m->heap = NULL;
	for (unsigned int i = 0; i < AQ_MAX_RADIOS; i++) {
		fan_put(m->fan[i]);
		m->fan[i] = NULL;
	}
	while ((t = m->tx_free)) {
		m->tx_free = t->next_free;
		free(t);
	}
}

/*
 * What a data frame carries, for the per-AC statistics: skip the 802.11
 * header (3 or 4 addresses, QoS control, HT control), expect LLC/SNAP
 * with IPv4 or IPv6 and look at the transport header.  A-MSDUs, IP
 * fragments, IPv6 extension headers and anything truncated count as other.
 */
uint8_t aq_classify_l4(const uint8_t *d, unsigned int len)
{
	static const uint8_t snap[6] = { 0xaa, 0xaa, 0x03, 0, 0, 0 };
	unsigned int off, proto, ipend, thl, plen, hl;
	const uint8_t *ip, *th;
	uint16_t fc;

	if (len < 24)
		return AQ_L4_OTHER;
	fc = d[0] | d[1] << 8;
	if (((fc >> 2) & 3) != 2)	/* not a data frame */
		return AQ_L4_OTHER;
	off = ((fc & 0x0300) == 0x0300) ? 30 : 24;
	if (fc & 0x4000)	/* protected: no way to look inside */
		return AQ_L4_OTHER;
	if (fc & 0x0080) {	/* QoS data */
		if (len < off + 2 || (d[off] & 0x80))	/* A-MSDU present */
			return AQ_L4_OTHER;
		off += 2;
		if (fc & 0x8000)	/* +HTC */
			off += 4;
	}
	if (len < off + 8 || memcmp(d + off, snap, 6))
		return AQ_L4_OTHER;
	ip = d + off + 8;
	if (d[off + 6] == 0x08 && d[off + 7] == 0x00) {
		if (len < off + 8 + 20 || (ip[0] >> 4) != 4)
			return AQ_L4_OTHER;
		hl = (ip[0] & 15) * 4;
		if ((ip[6] & 0x3f) || ip[7])	/* MF or fragment offset */
			return AQ_L4_OTHER;
		proto = ip[9];
		ipend = ip[2] << 8 | ip[3];
	} else if (d[off + 6] == 0x86 && d[off + 7] == 0xdd) {
		if (len < off + 8 + 40 || (ip[0] >> 4) != 6)
			return AQ_L4_OTHER;
		hl = 40;
		proto = ip[6];
		ipend = 40 + (ip[4] << 8 | ip[5]);
	} else {
		return AQ_L4_OTHER;
	}
	if (proto == 17)
		return AQ_L4_UDP;
	if (proto != 6 || len < off + 8 + hl + 20)
		return AQ_L4_OTHER;
	th = ip + hl;
	thl = (th[12] >> 4) * 4;
	plen = ipend > hl + thl ? ipend - hl - thl : 0;
	/* flags: FIN 0x01, SYN 0x02, RST 0x04, ACK 0x10 */
	if (plen == 0 && (th[13] & 0x10) && !(th[13] & 0x07))
		return AQ_L4_TCP_ACK;
	return AQ_L4_TCP;
}

void aq_enqueue(struct aq_medium *m, struct aq_frame *f)
{
	struct aq_radio *r = &m->radio[f->src];
	struct aq_ac_state *q;

	m->st.frames_in++;
	r->frames_in++;
	f->enq_time = m->now;
	f->next = NULL;
	if (!r->present) {
		aq_frame_free(f);
		return;
	}
	if (f->freq && !r->freq)
		r->freq = f->freq;
	else if (f->freq)
		r->freq = f->freq;
	if (f->ac >= AQ_NUM_AC)
		f->ac = AQ_AC_BE;
	q = &r->ac[f->ac];
	if (aq_total_tries(f) == 0) {
		q->st.discards++;
		final_status(m, r, f, false);
		return;
	}
	if (q->tail)
		q->tail->next = f;
	else
		q->head = f;
	q->tail = f;
	q->qlen++;
	update_backlog(m, r);
	schedule(m, f->src);
}

void aq_timer(struct aq_medium *m, int64_t t, int arg, uint64_t gen)
{
	ev_push(m, t, AQ_EV_TIMER, arg, gen, NULL);
}

/*
 * Per-pair delays: the signal of tx starts (end = 0) or ends (1) at each
 * radio at its own time.  That is two events per receiver, 180 per
 * transmission among 90 radios, and the heap's work was most of the
 * medium's.  One event per side stands in for them: it handles the next
 * receiver, then the ones after it for as long as each would have been
 * the heap's next event anyway (earlier than the heap's first, by time
 * and then by the sequence number its own event would have had, and not
 * past aq_run_until()'s bound), and goes back into the heap for the
 * first that would not.  Every event is handled at the time and in the
 * order it would have been, and counted as one.
 */
static void tx_fan(struct aq_medium *m, struct aq_tx *tx, int end)
{
	struct aq_fan *f = tx->fan;

	for (;;) {
		unsigned int k = tx->fan_pos[end]++;
		int64_t t;
		uint64_t seq;

		if (!end) {
			sig_start_rx(m, tx, (unsigned int)f->rx[k].ri);
		} else if (sig_end_one(m, tx, f->rx[k].ri)) {
			/* the last end: the transmission is done */
			tx->fan = NULL;
			fan_put(f);
			tx_put(m, tx);
			return;
		}
		if (tx->fan_pos[end] == f->n)
			return;
		t = fan_t(tx, end, k + 1);
		seq = fan_seq(tx, end, k + 1);
		if (t > m->until ||
		    (m->heap_len && (m->heap[0].t < t ||
				     (m->heap[0].t == t && m->heap[0].seq < seq)))) {
			fan_push(m, tx, end);
			return;
		}
		m->now = t;
		m->st.events++;
	}
}

/*
 * Live mode: the medium woke at now for its earliest event, due at due.
 * Over AQ_LATE_NS late counts as a late wakeup, and the medium was behind
 * from AQ_LATE_NS after due until now: behind_ns sums those intervals,
 * each moment once, however many wakeups saw it.
 */
void aq_note_lateness(struct aq_medium *m, int64_t now, int64_t due)
{
	int64_t from;

	if (due > now)
		return;
	if (now - due > m->st.max_late_ns)
		m->st.max_late_ns = now - due;
	if (now - due <= AQ_LATE_NS)
		return;
	m->st.late_events++;
	from = due + AQ_LATE_NS;
	if (from < m->st.behind_until)
		from = m->st.behind_until;
	if (now > from)
		m->st.behind_ns += now - from;
	m->st.behind_until = now;
}

void aq_run_until(struct aq_medium *m, int64_t t)
{
	struct aq_event e;

	m->until = t;
	while (m->heap_len && m->heap[0].t <= t) {
		ev_pop(m, &e);
		if (e.t > m->now)
			m->now = e.t;
		m->st.events++;
		switch (e.type) {
		case AQ_EV_ACCESS:
			access(m, e.radio, e.gen);
			break;
		case AQ_EV_TX_BEGIN:
			tx_begin(m, e.tx);
			tx_put(m, e.tx);
			break;
		case AQ_EV_TX_END:
			tx_end(m, e.tx);
			break;
		case AQ_EV_SIG_START:
			sig_start(m, e.tx);
			break;
		case AQ_EV_SIG_END:
			sig_end(m, e.tx);
			tx_put(m, e.tx);
			break;
		case AQ_EV_TIMEOUT:
			timeout(m, e.radio, e.gen);
			break;
		case AQ_EV_NAV_END:
			if (m->radio[e.radio].present)
				radio_update(m, e.radio);
			break;
		case AQ_EV_TIMER:
			if (m->ops.timer)
				m->ops.timer(m, e.radio, e.gen);
			break;
		case AQ_EV_TXOP:
			txop_continue(m, e.radio, e.gen);
			break;
		case AQ_EV_SIG_FAN:
			tx_fan(m, e.tx, (int)e.gen);
			break;
		case AQ_EV_SIG_START_RX:
			sig_start_rx(m, e.tx, (unsigned int)e.radio);
			break;
		case AQ_EV_SIG_END_RX:
			if (sig_end_one(m, e.tx, e.radio))
				tx_put(m, e.tx);
			break;
		}
	}
	if (t > m->now && t != INT64_MAX)
		m->now = t;
}

/* close open accounting intervals so stats read consistently */
void aq_stats_flush(struct aq_medium *m)
{
	contend_account(m);
	for (unsigned int i = 0; i < m->n_radios; i++) {
		struct aq_radio *r = &m->radio[i];

		if (r->present && !r->med_idle) {
			r->busy_ns += m->now - r->busy_since;
			r->busy_since = m->now;
		}
	}
}
