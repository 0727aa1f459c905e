// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON configuration (json-c).  Every field is checked; an error names the
 * field path and the offending value, e.g.
 *   config: phy.slot_us: invalid value -3 (expected a number in [1, 1000])
 * Unknown fields are errors too, so typos do not pass silently.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "hwsim_proto.h"

struct ctx {
	char *err;
	size_t errlen;
	int prop_mode;		/* phy.propagation: -1 unset, 0 fixed, 1 positions */
	bool prop_fixed_set;	/* phy.prop_delay_us given */
	unsigned int n_radios, n_pos;	/* radios in the config, with "pos" */
	char bss_name[AQ_MAX_RADIOS][32];	/* radios' "bss" groups */
	unsigned int n_bss;
};

static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "config: ");
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *js(json_object *v)
{
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

static int check_keys(struct ctx *c, json_object *o, const char *path,
		      const char * const *keys)
{
	if (!json_object_is_type(o, json_type_object))
		return fail(c, "%s: invalid value %s (expected an object)", path, js(o));
	json_object_object_foreach(o, k, v) {
		const char * const *p;

		(void)v;
		for (p = keys; *p; p++)
			if (!strcmp(*p, k))
				break;
		if (!*p)
			return fail(c, "%s: unknown field \"%s\"", path, k);
	}
	return 0;
}

/* 0: absent, 1: set, -1: error */
static int get_num(struct ctx *c, json_object *o, const char *path,
		   const char *key, double lo, double hi, double *out)
{
	json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return fail(c, "%s.%s: invalid value %s (expected a number in [%g, %g])",
			    path, key, js(v), lo, hi);
	d = json_object_get_double(v);
	if (!(d >= lo && d <= hi))
		return fail(c, "%s.%s: invalid value %s (expected a number in [%g, %g])",
			    path, key, js(v), lo, hi);
	*out = d;
	return 1;
}

static int get_bool(struct ctx *c, json_object *o, const char *path,
		    const char *key, bool *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return fail(c, "%s.%s: invalid value %s (expected true or false)",
			    path, key, js(v));
	*out = json_object_get_boolean(v);
	return 1;
}

static int get_str(struct ctx *c, json_object *o, const char *path,
		   const char *key, const char **out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(c, "%s.%s: invalid value %s (expected a string)",
			    path, key, js(v));
	*out = json_object_get_string(v);
	return 1;
}

int aq_parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (b[i] > 255)
			return -1;
		mac[i] = b[i];
	}
	return 0;
}

/* mac80211_hwsim.c: addresses[0] = 02:00:00:II:II:00, addresses[1] |= 0x40 */
void aq_hwsim_index_addr(int idx, uint8_t *radio_addr, uint8_t *vif_addr)
{
	uint8_t a[6] = { 0x02, 0, 0, (uint8_t)(idx >> 8), (uint8_t)idx, 0 };

	if (vif_addr)
		memcpy(vif_addr, a, 6);
	a[0] |= 0x40;
	if (radio_addr)
		memcpy(radio_addr, a, 6);
}

#define NUM(o, path, key, lo, hi, dst) do {				\
	double _d;							\
	int _r = get_num(c, o, path, key, lo, hi, &_d);			\
	if (_r < 0)							\
		return -1;						\
	if (_r)								\
		dst = _d;						\
} while (0)

#define BOOL(o, path, key, dst) do {					\
	if (get_bool(c, o, path, key, &(dst)) < 0)			\
		return -1;						\
} while (0)

static int parse_phy(struct ctx *c, json_object *o, struct aq_phy *phy)
{
	static const char * const keys[] = {
		"standard", "slot_us", "sifs_us", "prop_delay_us", "ack_timeout_us",
		"cwmin", "cwmax", "eifs", "resume_decrement", "capture", "overhear",
		"ampdu", "edca", "txop", "rts_threshold", "per_slope", "rate_mbps",
		"plcp_us", "basic_rates", "pd_snr_db", "propagation", "short_preamble",
		"beacon_scope", NULL,
	};
	json_object *br;
	bool timeout_set = false;
	static const char * const stds[] = { "b", "g", "a", "n24", "n5", "custom", NULL };
	const char *s = "g";
	double d;
	int i;

	if (o && check_keys(c, o, "phy", keys))
		return -1;
	if (o && get_str(c, o, "phy", "standard", &s) < 0)
		return -1;
	for (i = 0; stds[i]; i++)
		if (!strcmp(stds[i], s))
			break;
	if (!stds[i])
		return fail(c, "phy.standard: invalid value \"%s\" (expected b, g, a, n24, n5 or custom)", s);
	aq_phy_defaults(phy, i);
	if (!o)
		return 0;
	d = -1;
	NUM(o, "phy", "slot_us", 1, 1000, d);
	if (d > 0)
		phy->slot = (int64_t)(d * 1000);
	d = -1;
	NUM(o, "phy", "sifs_us", 1, 1000, d);
	if (d > 0)
		phy->sifs = (int64_t)(d * 1000);
	d = -1;
	NUM(o, "phy", "prop_delay_us", 0.001, 100, d);
	if (d > 0) {
		phy->prop = (int64_t)(d * 1000);
		c->prop_fixed_set = true;
	}
	s = NULL;
	if (get_str(c, o, "phy", "propagation", &s) < 0)
		return -1;
	if (s && !strcmp(s, "fixed"))
		c->prop_mode = 0;
	else if (s && !strcmp(s, "positions"))
		c->prop_mode = 1;
	else if (s)
		return fail(c, "phy.propagation: invalid value \"%s\" (expected fixed or positions)", s);
	if (c->prop_mode == 1 && c->prop_fixed_set)
		return fail(c, "phy.prop_delay_us: not used with propagation \"positions\"");
	s = NULL;
	if (get_str(c, o, "phy", "beacon_scope", &s) < 0)
		return -1;
	if (s && !strcmp(s, "bss"))
		phy->beacon_scope_bss = true;
	else if (s && !strcmp(s, "all"))
		phy->beacon_scope_bss = false;
	else if (s)
		return fail(c, "phy.beacon_scope: invalid value \"%s\" (expected all or bss)", s);
	d = -1;
	NUM(o, "phy", "ack_timeout_us", 1, 10000, d);
	if (d > 0) {
		phy->ack_timeout = (int64_t)(d * 1000);
		timeout_set = true;
	}
	NUM(o, "phy", "cwmin", 1, 1023, phy->cwmin);
	NUM(o, "phy", "cwmax", 1, 65535, phy->cwmax);
	if (phy->cwmax < phy->cwmin)
		return fail(c, "phy.cwmax: invalid value %u (must be >= cwmin %u)",
			    phy->cwmax, phy->cwmin);
	BOOL(o, "phy", "eifs", phy->use_eifs);
	BOOL(o, "phy", "resume_decrement", phy->resume_decrement);
	BOOL(o, "phy", "capture", phy->capture);
	BOOL(o, "phy", "overhear", phy->overhear);
	BOOL(o, "phy", "ampdu", phy->ampdu);
	BOOL(o, "phy", "edca", phy->edca);
	BOOL(o, "phy", "txop", phy->txop);
	BOOL(o, "phy", "short_preamble", phy->short_preamble);
	NUM(o, "phy", "rts_threshold", 0, 65535, phy->rts_threshold);
	NUM(o, "phy", "per_slope", 0.01, 100, phy->per_slope);
	d = -1;
	NUM(o, "phy", "rate_mbps", 0.1, 10000, d);
	if (d > 0)
		phy->custom_kbps = (unsigned int)(d * 1000);
	d = -1;
	NUM(o, "phy", "plcp_us", 0, 10000, d);
	if (d >= 0)
		phy->plcp_custom = (int64_t)(d * 1000);
	NUM(o, "phy", "pd_snr_db", -20, 60, phy->pd_snr_db);
	/* ACKTimeout follows the slot and SIFS unless given */
	if (!timeout_set)
		aq_phy_ack_timeout(phy);
	if (phy->std == AQ_STD_CUSTOM && phy->n_basic == 1)
		phy->basic_kbps[0] = phy->custom_kbps;
	if (json_object_object_get_ex(o, "basic_rates", &br)) {
		unsigned int kbps[12], n = 0;

		if (!json_object_is_type(br, json_type_array) ||
		    !json_object_array_length(br) || json_object_array_length(br) > 12)
			return fail(c, "phy.basic_rates: expected an array of 1 to 12 rates in Mbit/s");
		for (size_t k = 0; k < json_object_array_length(br); k++) {
			json_object *e = json_object_array_get_idx(br, k);

			if (!json_object_is_type(e, json_type_double) &&
			    !json_object_is_type(e, json_type_int))
				return fail(c, "phy.basic_rates[%zu]: expected a number (Mbit/s)", k);
			kbps[n++] = (unsigned int)(json_object_get_double(e) * 1000 + 0.5);
		}
		if (aq_phy_set_basic(phy, kbps, n))
			return fail(c, "phy.basic_rates: a rate the %s PHY does not have",
				    aq_std_name(phy->std));
	}
	if (phy->ack_timeout <= phy->prop)
		return fail(c, "phy.ack_timeout_us: invalid value %g (must exceed prop_delay_us)",
			    phy->ack_timeout / 1000.0);
	return 0;
}

static int parse_channel(struct ctx *c, json_object *o, struct aq_channel *ch)
{
	static const char * const keys[] = {
		"model", "pl0_db", "d0_m", "exponent", "noise_dbm", "cca_dbm",
		"tx_power_dbm", "ber", "default_snr_db", NULL,
	};
	const char *s = NULL;

	if (check_keys(c, o, "channel", keys))
		return -1;
	if (get_str(c, o, "channel", "model", &s) < 0)
		return -1;
	if (s && !strcmp(s, "log-distance"))
		ch->model = 0;
	else if (s && !strcmp(s, "snr"))
		ch->model = 1;
	else if (s)
		return fail(c, "channel.model: invalid value \"%s\" (expected log-distance or snr)", s);
	NUM(o, "channel", "pl0_db", 0, 200, ch->pl0_db);
	NUM(o, "channel", "d0_m", 0.001, 1000, ch->d0_m);
	NUM(o, "channel", "exponent", 1, 10, ch->exponent);
	NUM(o, "channel", "noise_dbm", -150, 0, ch->noise_dbm);
	NUM(o, "channel", "cca_dbm", -150, 0, ch->cca_dbm);
	NUM(o, "channel", "tx_power_dbm", -50, 50, ch->tx_power_dbm);
	NUM(o, "channel", "ber", 0, 1, ch->ber);
	NUM(o, "channel", "default_snr_db", -50, 100, ch->default_snr_db);
	return 0;
}

static int parse_radio(struct ctx *c, struct aq_medium *m, json_object *o, int k)
{
	static const char * const keys[] = {
		"name", "addr", "hwsim_index", "pos", "tx_power_dbm", "noise_dbm",
		"cca_dbm", "edca", "bss", NULL,
	};
	static const char * const acn[] = { "BK", "BE", "VI", "VO", NULL };
	char path[64], name[32];
	const char *s = NULL, *a = NULL, *bss = NULL;
	uint8_t addr[6] = { 0 }, vif[6];
	json_object *v;
	double idx = -1;
	int ri;

	snprintf(path, sizeof(path), "radios[%d]", k);
	if (check_keys(c, o, path, keys))
		return -1;
	if (get_str(c, o, path, "name", &s) < 0 || get_str(c, o, path, "addr", &a) < 0)
		return -1;
	NUM(o, path, "hwsim_index", 0, 65535, idx);
	snprintf(name, sizeof(name), "%s", s ? s : "");
	if (!s)
		snprintf(name, sizeof(name), "radio%d", k);
	if (aq_radio_by_name(m, name) >= 0)
		return fail(c, "%s.name: invalid value \"%s\" (duplicate name)", path, name);
	if (a && aq_parse_mac(a, addr))
		return fail(c, "%s.addr: invalid value \"%s\" (expected xx:xx:xx:xx:xx:xx)", path, a);
	if (idx >= 0)
		aq_hwsim_index_addr((int)idx, addr, vif);
	ri = aq_radio_add(m, name, addr);
	if (ri < 0)
		return fail(c, "%s: too many radios (max %d)", path, AQ_MAX_RADIOS);
	if (idx >= 0) {
		m->radio[ri].hwsim_index = (int)idx;
		aq_radio_add_maddr(m, ri, vif);
	}
	c->n_radios++;
	if (json_object_object_get_ex(o, "pos", &v)) {
		int n = json_object_is_type(v, json_type_array) ?
			(int)json_object_array_length(v) : -1;

		if (n < 1 || n > 3)
			return fail(c, "%s.pos: invalid value %s (expected [x, y] or [x, y, z] in metres)",
				    path, js(v));
		for (int i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(v, i);

			if (!json_object_is_type(e, json_type_double) &&
			    !json_object_is_type(e, json_type_int))
				return fail(c, "%s.pos[%d]: invalid value %s (expected a number)",
					    path, i, js(e));
			m->radio[ri].pos[i] = json_object_get_double(e);
		}
		c->n_pos++;
	}
	if (get_str(c, o, path, "bss", &bss) < 0)
		return -1;
	if (bss) {
		if (!*bss || strlen(bss) >= sizeof(c->bss_name[0]))
			return fail(c, "%s.bss: invalid value \"%s\" (expected a name of 1 to %zu characters)",
				    path, bss, sizeof(c->bss_name[0]) - 1);
		for (unsigned int g = 0; g < c->n_bss && !m->radio[ri].bss; g++)
			if (!strcmp(c->bss_name[g], bss))
				m->radio[ri].bss = (int)g + 1;
		if (!m->radio[ri].bss) {
			snprintf(c->bss_name[c->n_bss], sizeof(c->bss_name[0]), "%s", bss);
			m->radio[ri].bss = (int)++c->n_bss;
		}
	}
	NUM(o, path, "tx_power_dbm", -50, 50, m->radio[ri].tx_power_dbm);
	NUM(o, path, "noise_dbm", -150, 0, m->radio[ri].noise_dbm);
	NUM(o, path, "cca_dbm", -150, 0, m->radio[ri].cca_dbm);
	if (json_object_object_get_ex(o, "edca", &v)) {
		char p2[96];

		if (check_keys(c, v, "edca", acn))
			return -1;
		for (int ac = 0; ac < AQ_NUM_AC; ac++) {
			static const char * const ek[] = { "aifsn", "cwmin", "cwmax",
							   "txop_us", NULL };
			struct aq_ac_state *q = &m->radio[ri].ac[ac];
			double aifsn = q->aifsn, cwmin = q->cwmin, cwmax = q->cwmax;
			double txop_us = q->txop_ns / 1000.0;
			json_object *e;

			if (!json_object_object_get_ex(v, acn[ac], &e))
				continue;
			snprintf(p2, sizeof(p2), "%s.edca.%s", path, acn[ac]);
			if (check_keys(c, e, p2, ek))
				return -1;
			NUM(e, p2, "aifsn", 1, 15, aifsn);
			NUM(e, p2, "cwmin", 0, 32767, cwmin);
			NUM(e, p2, "cwmax", 0, 32767, cwmax);
			/* TXOP limit: 0..255 units of 32 us (9.4.2.28) */
			NUM(e, p2, "txop_us", 0, 8160, txop_us);
			if (cwmax < cwmin)
				return fail(c, "%s.cwmax: invalid value %g (must be >= cwmin %g)",
					    p2, cwmax, cwmin);
			aq_radio_set_edca(m, ri, ac, aifsn, cwmin, cwmax);
			aq_radio_set_txop(m, ri, ac, (int64_t)(txop_us * 1000));
			q->cw = q->cwmin;
		}
	}
	return 0;
}

static int radio_ref(struct ctx *c, struct aq_medium *m, json_object *o,
		     const char *path, const char *key, bool allow_bcast, int *out)
{
	const char *s = NULL;

	if (get_str(c, o, path, key, &s) < 0)
		return -1;
	if (!s)
		return fail(c, "%s.%s: missing", path, key);
	if (allow_bcast && !strcmp(s, "broadcast")) {
		*out = AQ_DST_BCAST;
		return 0;
	}
	*out = aq_radio_by_name(m, s);
	if (*out < 0)
		return fail(c, "%s.%s: invalid value \"%s\" (no radio of that name)",
			    path, key, s);
	return 0;
}

static int parse_link(struct ctx *c, struct aq_medium *m, json_object *o, int k)
{
	static const char * const keys[] = {
		"from", "to", "snr_db", "rx_dbm", "ber", "symmetric", NULL,
	};
	char path[64];
	int a, b;
	double snr = 1e9, rx = 1e9, ber = -1;
	bool sym = true;

	snprintf(path, sizeof(path), "links[%d]", k);
	if (check_keys(c, o, path, keys))
		return -1;
	if (radio_ref(c, m, o, path, "from", false, &a) ||
	    radio_ref(c, m, o, path, "to", false, &b))
		return -1;
	if (a == b)
		return fail(c, "%s.to: invalid value \"%s\" (same radio as from)", path,
			    m->radio[b].name);
	NUM(o, path, "snr_db", -100, 200, snr);
	NUM(o, path, "rx_dbm", -200, 50, rx);
	NUM(o, path, "ber", 0, 1, ber);
	BOOL(o, path, "symmetric", sym);
	for (int dir = 0; dir < (sym ? 2 : 1); dir++) {
		int x = dir ? b : a, y = dir ? a : b;

		if (snr < 1e8)
			aq_link_set_snr(m, x, y, snr);
		else if (rx < 1e8)
			aq_link_set_snr(m, x, y, rx - m->radio[y].noise_dbm);
		if (ber >= 0) {
			m->link[x][y].ber = ber;
			if (snr >= 1e8 && rx >= 1e8) {
				/* keep the path-loss level, mark explicit */
				m->link[x][y].set = true;
			}
		}
	}
	return 0;
}

static int parse_rates(struct ctx *c, json_object *v, const char *path,
		       struct aq_txrate *rates)
{
	static const char * const keys[] = {
		"idx", "count", "mcs", "ht40", "sgi", "rts", "short_preamble", NULL,
	};
	int n, tries = 0;

	n = json_object_is_type(v, json_type_array) ? (int)json_object_array_length(v) : -1;
	if (n < 1 || n > AQ_MAX_RATES)
		return fail(c, "%s: invalid value %s (expected 1 to 4 rate entries)", path, js(v));
	for (int i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		char p2[96];
		double idx = -1, count = 1;
		bool mcs = false, ht40 = false, sgi = false, rts = false, sp = false;

		snprintf(p2, sizeof(p2), "%s[%d]", path, i);
		if (check_keys(c, e, p2, keys))
			return -1;
		NUM(e, p2, "idx", 0, 31, idx);
		NUM(e, p2, "count", 0, 255, count);
		if (idx < 0)
			return fail(c, "%s.idx: missing", p2);
		BOOL(e, p2, "mcs", mcs);
		BOOL(e, p2, "ht40", ht40);
		BOOL(e, p2, "sgi", sgi);
		BOOL(e, p2, "rts", rts);
		BOOL(e, p2, "short_preamble", sp);
		rates[i].idx = (int8_t)idx;
		rates[i].count = (uint8_t)count;
		rates[i].flags = (mcs ? HWSIM_TX_RC_MCS : 0) |
				 (ht40 ? HWSIM_TX_RC_40_MHZ_WIDTH : 0) |
				 (sgi ? HWSIM_TX_RC_SHORT_GI : 0) |
				 (rts ? HWSIM_TX_RC_USE_RTS_CTS : 0) |
				 (sp ? HWSIM_TX_RC_USE_SHORT_PREAMBLE : 0);
		tries += rates[i].count;
	}
	/* A frame nobody may send would complete at once, for ever. */
	if (!tries)
		return fail(c, "%s: no tries (every count is 0)", path);
	return 0;
}

static int parse_flow(struct ctx *c, struct aq_medium *m, struct aq_sim *sim,
		      json_object *o, int k)
{
	static const char * const keys[] = {
		"src", "dst", "tid", "payload", "overhead", "saturated", "depth",
		"interval_us", "poisson", "ampdu", "no_ack", "rates", "freq",
		"start_s", "stop_s", NULL,
	};
	struct aq_flow fl = { 0 };
	char path[64];
	json_object *v;
	double tid = 0, iv = -1, st = 0, sp = 0;
	struct aq_rate r;

	snprintf(path, sizeof(path), "traffic[%d]", k);
	if (check_keys(c, o, path, keys))
		return -1;
	if (radio_ref(c, m, o, path, "src", false, &fl.src) ||
	    radio_ref(c, m, o, path, "dst", true, &fl.dst))
		return -1;
	if (fl.src == fl.dst)
		return fail(c, "%s.dst: invalid value \"%s\" (same radio as src)", path,
			    m->radio[fl.dst].name);
	fl.payload = 1500;
	fl.overhead = 34;
	fl.depth = 1;
	fl.freq = m->phy.std == AQ_STD_A || m->phy.std == AQ_STD_N5 ? 5180 :
		  m->phy.std == AQ_STD_CUSTOM ? 0 : 2412;
	NUM(o, path, "tid", 0, 7, tid);
	fl.tid = (uint8_t)tid;
	NUM(o, path, "payload", 0, 65000, fl.payload);
	NUM(o, path, "overhead", 0, 200, fl.overhead);
	BOOL(o, path, "saturated", fl.saturated);
	NUM(o, path, "depth", 1, 4096, fl.depth);
	NUM(o, path, "interval_us", 1, 1e9, iv);
	BOOL(o, path, "poisson", fl.poisson);
	BOOL(o, path, "ampdu", fl.ampdu);
	BOOL(o, path, "no_ack", fl.no_ack);
	NUM(o, path, "freq", 0, 7000, fl.freq);
	NUM(o, path, "start_s", 0, 1e6, st);
	NUM(o, path, "stop_s", 0, 1e6, sp);
	fl.start = (int64_t)(st * AQ_NS_PER_S);
	fl.stop = (int64_t)(sp * AQ_NS_PER_S);
	if (!fl.saturated && iv < 0)
		return fail(c, "%s: needs \"saturated\": true or \"interval_us\"", path);
	fl.interval = (int64_t)(iv * 1000);
	for (int i = 0; i < AQ_MAX_RATES; i++)
		fl.rates[i].idx = -1;
	if (json_object_object_get_ex(o, "rates", &v)) {
		char p2[80];

		snprintf(p2, sizeof(p2), "%s.rates", path);
		if (parse_rates(c, v, p2, fl.rates))
			return -1;
	} else {
		fl.rates[0].idx = m->phy.std == AQ_STD_B ? 3 :
				  m->phy.std == AQ_STD_CUSTOM ? 0 :
				  fl.freq < 3000 ? 11 : 7;
		fl.rates[0].count = 7;
	}
	for (int i = 0; i < AQ_MAX_RATES && fl.rates[i].idx >= 0; i++)
		if (aq_rate_from_hwsim(&m->phy, fl.freq, fl.rates[i].idx,
				       fl.rates[i].flags, &r))
			return fail(c, "%s.rates[%d].idx: invalid value %d (no such rate for phy %s at %u MHz)",
				    path, i, fl.rates[i].idx, aq_std_name(m->phy.std), fl.freq);
	if (aq_sim_add_flow(sim, &fl) < 0)
		return fail(c, "%s: out of memory", path);
	return 0;
}

static int load(struct ctx *c, json_object *root, struct aq_medium *m,
		struct aq_sim *sim, struct aq_opts *o)
{
	static const char * const keys[] = {
		"phy", "channel", "radios", "links", "traffic", "seed", "duration_s",
		"unknown_radios", "trace", "stats_socket", "stats_file", "hwsim_ext",
		"comment", NULL,
	};
	json_object *v;
	struct aq_phy phy;
	double seed = 1;
	const char *s = NULL;

	if (check_keys(c, root, "(top level)", keys))
		return -1;
	if (parse_phy(c, json_object_object_get_ex(root, "phy", &v) ? v : NULL, &phy))
		return -1;
	NUM(root, "(top level)", "seed", 0, 1e15, seed);
	aq_init(m, &phy, (uint64_t)seed);
	m->phy.prop_pos = c->prop_mode == 1;
	if (json_object_object_get_ex(root, "channel", &v) && parse_channel(c, v, &m->chan))
		return -1;
	NUM(root, "(top level)", "duration_s", 0, 1e7, o->duration_s);
	BOOL(root, "(top level)", "hwsim_ext", o->hwsim_ext);
	if (get_str(c, root, "(top level)", "unknown_radios", &s) < 0)
		return -1;
	if (s && !strcmp(s, "add"))
		o->unknown_add = true;
	else if (s && !strcmp(s, "ignore"))
		o->unknown_add = false;
	else if (s)
		return fail(c, "unknown_radios: invalid value \"%s\" (expected ignore or add)", s);
	s = NULL;
	if (get_str(c, root, "(top level)", "trace", &s) < 0)
		return -1;
	if (s)
		snprintf(o->trace, sizeof(o->trace), "%s", s);
	s = NULL;
	if (get_str(c, root, "(top level)", "stats_socket", &s) < 0)
		return -1;
	if (s)
		snprintf(o->stats_socket, sizeof(o->stats_socket), "%s", s);
	s = NULL;
	if (get_str(c, root, "(top level)", "stats_file", &s) < 0)
		return -1;
	if (s)
		snprintf(o->stats_file, sizeof(o->stats_file), "%s", s);
	if (json_object_object_get_ex(root, "radios", &v)) {
		if (!json_object_is_type(v, json_type_array))
			return fail(c, "radios: invalid value %s (expected an array)", js(v));
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (parse_radio(c, m, json_object_array_get_idx(v, i), (int)i))
				return -1;
		/*
		 * Per-pair propagation delays from the positions when asked,
		 * or by default when every radio has a position and no fixed
		 * delay is given
		 */
		m->phy.prop_pos = c->prop_mode == 1 ||
			(c->prop_mode < 0 && !c->prop_fixed_set &&
			 c->n_radios && c->n_pos == c->n_radios);
		aq_links_update(m);	/* positions and powers are known now */
	}
	if (json_object_object_get_ex(root, "links", &v)) {
		if (!json_object_is_type(v, json_type_array))
			return fail(c, "links: invalid value %s (expected an array)", js(v));
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (parse_link(c, m, json_object_array_get_idx(v, i), (int)i))
				return -1;
	}
	if (json_object_object_get_ex(root, "traffic", &v)) {
		if (!json_object_is_type(v, json_type_array))
			return fail(c, "traffic: invalid value %s (expected an array)", js(v));
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (parse_flow(c, m, sim, json_object_array_get_idx(v, i), (int)i))
				return -1;
	}
	return 0;
}

int aq_config_load(const char *path, const char *text, struct aq_medium *m,
		   struct aq_sim *sim, struct aq_opts *o, char *err, size_t errlen)
{
	struct ctx c = { .err = err, .errlen = errlen, .prop_mode = -1 };
	enum json_tokener_error jerr = json_tokener_success;
	json_object *root;
	int ret;

	memset(o, 0, sizeof(*o));
	if (text) {
		root = json_tokener_parse_verbose(text, &jerr);
	} else {
		root = json_object_from_file(path);
		if (!root) {
			fail(&c, "%s: %s", path, json_util_get_last_err());
			return -1;
		}
	}
	if (!root) {
		fail(&c, "not valid JSON: %s", json_tokener_error_desc(jerr));
		return -1;
	}
	ret = load(&c, root, m, sim, o);
	json_object_put(root);
	return ret;
}

int aq_hwsim_ext_parse(const char *line, struct aq_hwsim_ext *e, char *err,
		       size_t errlen)
{
	static const char *const keys[] = {
		"tx_airtime", "rx_airtime", "chan_busy_time", "chan_active_time",
		"chan_tx_time", "tx_ampdu_len", "tx_ampdu_acked",
	};
	int *nums[] = {
		&e->tx_airtime, &e->rx_airtime, &e->chan_busy_time,
		&e->chan_active_time, &e->chan_tx_time, &e->tx_ampdu_len,
		&e->tx_ampdu_acked,
	};
	const size_t n = sizeof(keys) / sizeof(keys[0]);
	bool seen[sizeof(keys) / sizeof(keys[0]) + 1] = { false };
	const char *p = line;

	memset(e, 0, sizeof(*e));
	while (*p) {
		char key[32], *end;
		unsigned long v;
		size_t k, len;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		len = strcspn(p, "=");
		if (!p[len] || len >= sizeof(key)) {
			snprintf(err, errlen, "ext_attrs: expected key=number at \"%.20s\"", p);
			return -1;
		}
		memcpy(key, p, len);
		key[len] = 0;
		p += len + 1;
		errno = 0;
		v = strtoul(p, &end, 0);
		if (end == p || errno || (*end && *end != ' ' && *end != '\t' && *end != '\n')) {
			snprintf(err, errlen, "ext_attrs: %s: not a number", key);
			return -1;
		}
		p = end;
		if (!strcmp(key, "tx_ctl_ampdu")) {
			if (!v || (v & (v - 1)) || v <= HWSIM_TX_STAT_ACK || v > 1UL << 31) {
				snprintf(err, errlen, "ext_attrs: tx_ctl_ampdu=0x%lx is not one "
					 "flag above hwsim's own", v);
				return -1;
			}
			e->tx_ctl_ampdu = (uint32_t)v;
			seen[n] = true;
			continue;
		}
		for (k = 0; k < n && strcmp(key, keys[k]); k++)
			;
		if (k == n)
			continue;	/* a later kernel's: not ours to use */
		if (v <= HWSIM_ATTR_MAX || v > AQ_HWSIM_EXT_ATTR_MAX) {
			snprintf(err, errlen, "ext_attrs: %s=%lu is not above hwsim's "
				 "attributes (%d) and a netlink type", key, v, HWSIM_ATTR_MAX);
			return -1;
		}
		*nums[k] = (int)v;
		seen[k] = true;
	}
	for (size_t k = 0; k <= n; k++) {
		if (!seen[k]) {
			snprintf(err, errlen, "ext_attrs: %s missing",
				 k < n ? keys[k] : "tx_ctl_ampdu");
			return -1;
		}
		for (size_t j = 0; j < k && k < n; j++) {
			if (*nums[j] == *nums[k]) {
				snprintf(err, errlen, "ext_attrs: %s and %s are both %d",
					 keys[j], keys[k], *nums[k]);
				return -1;
			}
		}
	}
	e->present = true;
	return 0;
}
