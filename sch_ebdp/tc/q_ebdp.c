// SPDX-License-Identifier: GPL-2.0
/*
 * q_ebdp.so: tc support for the eBDP qdisc (sch_ebdp).
 *
 * Built against the iproute2 source of the installed tc (see Makefile);
 * tc dlopen()s it from TC_LIB_DIR or its library directory
 * (/usr/lib/x86_64-linux-gnu/tc on Debian, /usr/lib/tc by default) and
 * looks up ebdp_qdisc_util.  Range checks are left to the kernel, which parses
 * TCA_OPTIONS strictly (it must carry NLA_F_NESTED) and answers a value out
 * of range with an extack message; the plugin only rejects what it cannot
 * parse.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

#include "utils.h"
#include "tc_util.h"

#include "pkt_sched_ebdp.h"

static const char * const ebdp_modes[] = {
	[TC_EBDP_MODE_EBDP]	= "ebdp",
	[TC_EBDP_MODE_ALT]	= "alt",
	[TC_EBDP_MODE_ASTAR]	= "astar",
};

static const char * const ebdp_sources[] = {
	[TC_EBDP_SRC_NONE]	= "none",
	[TC_EBDP_SRC_MAC80211]	= "mac80211",
	[TC_EBDP_SRC_DEQUEUE]	= "dequeue",
};

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... ebdp [ tmax TIME ] [ c PACKETS ] [ qmax PACKETS ]\n"
		"                [ weight W ] [ mode ebdp | alt | astar ]\n"
		"                [ ackprio | noackprio ] [ acklimit PACKETS ]\n"
		"                [ interval TIME ] [ qmin PACKETS ]\n"
		"                [ alt_a PKTS_PER_S ] [ alt_b PKTS_PER_S ]\n"
		"                [ release STATIONS ] [ quantum TIME ]\n"
		"\n"
		"  tmax      target queueing delay Tmax (default 200ms, at most 10s)\n"
		"  c         over-provisioning in packets (default 5)\n"
		"  qmax      upper limit of the queue in packets (default 400, at most 65535)\n"
		"  weight    EWMA weight W of the service time, in (0, 1]: a decimal\n"
		"            (0.0625) or a fraction (1/16); default 1/64\n"
		"  mode      ebdp: Q = min(Tmax/Tserv + c, qmax) (default)\n"
		"            alt: q += alt_a * idle - alt_b * busy each interval\n"
		"            astar: A* = min(alt, ebdp)\n"
		"  ackprio   serve pure TCP ACKs from a separate FIFO ahead of data\n"
		"  acklimit  length of the ACK FIFO in packets (default 64)\n"
		"  interval  ALT update interval (default 1s, 1ms..60s)\n"
		"  qmin      ALT lower limit in packets (default 5)\n"
		"  alt_a     ALT growth per second of idle time (default 10)\n"
		"  alt_b     ALT shrinkage per second of busy time (default 1)\n"
		"  release   TAP: send the ACKs of this many stations at a time (n* - 1),\n"
		"            hold the others' until their turn (needs ackprio; default 0,\n"
		"            off; at most 16; acklimit defaults to 2048 with it)\n"
		"  quantum   a station's turn in the release set (default 100ms)\n");
}

/* "0.0625", "1/16" or "1" -> W in units of 1 / (1 << TC_EBDP_WEIGHT_SHIFT) */
static int ebdp_get_weight(__u32 *w, const char *arg)
{
	double v, num, den;
	char *end;

	num = strtod(arg, &end);
	if (end == arg)
		return -1;
	v = num;
	if (*end == '/') {
		const char *d = end + 1;

		den = strtod(d, &end);
		if (end == d || *end || den <= 0)
			return -1;
		v = num / den;
	} else if (*end) {
		return -1;
	}
	if (!isfinite(v) || v < 0 || v > 65536)
		return -1;
	/* out-of-range values go to the kernel, which says what is allowed */
	*w = (__u32)lround(v * (1U << TC_EBDP_WEIGHT_SHIFT));
	return 0;
}

static int ebdp_get_mode(__u8 *mode, const char *arg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ebdp_modes); i++) {
		if (!strcmp(arg, ebdp_modes[i])) {
			*mode = i;
			return 0;
		}
	}
	return -1;
}

static int ebdp_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev)
{
	struct rtattr *tail;
	bool have_mode = false, have_ackprio = false;
	__u32 u32v[TCA_EBDP_MAX + 1] = {};
	bool have[TCA_EBDP_MAX + 1] = {};
	__u8 mode = 0, ackprio = 0;
	unsigned int t;
	int i;

	while (argc > 0) {
		int attr = 0, tattr = 0;	/* a u32, a time in us */

		if (strcmp(*argv, "tmax") == 0) {
			tattr = TCA_EBDP_TMAX;
		} else if (strcmp(*argv, "interval") == 0) {
			tattr = TCA_EBDP_INTERVAL;
		} else if (strcmp(*argv, "quantum") == 0) {
			tattr = TCA_EBDP_QUANTUM;
		} else if (strcmp(*argv, "release") == 0) {
			attr = TCA_EBDP_RELEASE;
		} else if (strcmp(*argv, "c") == 0) {
			attr = TCA_EBDP_C;
		} else if (strcmp(*argv, "qmax") == 0) {
			attr = TCA_EBDP_QMAX;
		} else if (strcmp(*argv, "acklimit") == 0) {
			attr = TCA_EBDP_ACKLIMIT;
		} else if (strcmp(*argv, "qmin") == 0) {
			attr = TCA_EBDP_QMIN;
		} else if (strcmp(*argv, "alt_a") == 0) {
			attr = TCA_EBDP_ALT_A;
		} else if (strcmp(*argv, "alt_b") == 0) {
			attr = TCA_EBDP_ALT_B;
		} else if (strcmp(*argv, "weight") == 0) {
			NEXT_ARG();
			if (ebdp_get_weight(&u32v[TCA_EBDP_WEIGHT], *argv)) {
				fprintf(stderr,
					"Illegal \"weight\": %s (a number in (0, 1], e.g. 0.0625 or 1/16)\n",
					*argv);
				return -1;
			}
			have[TCA_EBDP_WEIGHT] = true;
		} else if (strcmp(*argv, "mode") == 0) {
			NEXT_ARG();
			if (ebdp_get_mode(&mode, *argv)) {
				fprintf(stderr,
					"Illegal \"mode\": %s (ebdp, alt or astar)\n",
					*argv);
				return -1;
			}
			have_mode = true;
		} else if (strcmp(*argv, "ackprio") == 0) {
			ackprio = 1;
			have_ackprio = true;
		} else if (strcmp(*argv, "noackprio") == 0) {
			ackprio = 0;
			have_ackprio = true;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		if (tattr) {
			const char *name = *argv;

			NEXT_ARG();
			if (get_time(&t, *argv)) {
				fprintf(stderr, "Illegal \"%s\": %s\n", name,
					*argv);
				return -1;
			}
			u32v[tattr] = t;
			have[tattr] = true;
		}
		if (attr) {
			const char *name = *argv;

			NEXT_ARG();
			if (get_u32(&u32v[attr], *argv, 0)) {
				fprintf(stderr,
					"Illegal \"%s\": %s (a non-negative integer)\n",
					name, *argv);
				return -1;
			}
			have[attr] = true;
		}
		argc--;
		argv++;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS | NLA_F_NESTED);
	for (i = 1; i <= TCA_EBDP_MAX; i++)
		if (have[i])
			addattr32(n, 1024, i, u32v[i]);
	if (have_mode)
		addattr8(n, 1024, TCA_EBDP_MODE, mode);
	if (have_ackprio)
		addattr8(n, 1024, TCA_EBDP_ACKPRIO, ackprio);
	addattr_nest_end(n, tail);
	return 0;
}

static int ebdp_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_EBDP_MAX + 1];
	__u32 v;

	SPRINT_BUF(b1);

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_EBDP_MAX, opt);

#define EBDP_U32(a) (tb[a] && RTA_PAYLOAD(tb[a]) >= sizeof(__u32))
#define EBDP_U8(a) (tb[a] && RTA_PAYLOAD(tb[a]) >= sizeof(__u8))

	if (EBDP_U32(TCA_EBDP_TMAX)) {
		v = rta_getattr_u32(tb[TCA_EBDP_TMAX]);
		print_uint(PRINT_JSON, "tmax", NULL, v);
		print_string(PRINT_FP, NULL, "tmax %s ", sprint_time(v, b1));
	}
	if (EBDP_U32(TCA_EBDP_C))
		print_uint(PRINT_ANY, "c", "c %u ",
			   rta_getattr_u32(tb[TCA_EBDP_C]));
	if (EBDP_U32(TCA_EBDP_QMAX))
		print_uint(PRINT_ANY, "qmax", "qmax %up ",
			   rta_getattr_u32(tb[TCA_EBDP_QMAX]));
	if (EBDP_U32(TCA_EBDP_WEIGHT)) {
		v = rta_getattr_u32(tb[TCA_EBDP_WEIGHT]);
		print_float(PRINT_ANY, "weight", "weight %g ",
			    (double)v / (1U << TC_EBDP_WEIGHT_SHIFT));
	}
	if (EBDP_U8(TCA_EBDP_MODE)) {
		v = rta_getattr_u8(tb[TCA_EBDP_MODE]);
		print_string(PRINT_ANY, "mode", "mode %s ",
			     v < ARRAY_SIZE(ebdp_modes) ? ebdp_modes[v] :
							  "unknown");
	}
	if (EBDP_U8(TCA_EBDP_ACKPRIO)) {
		v = rta_getattr_u8(tb[TCA_EBDP_ACKPRIO]);
		print_bool(PRINT_JSON, "ackprio", NULL, v);
		print_string(PRINT_FP, NULL, "%s ", v ? "ackprio" : "noackprio");
	}
	if (EBDP_U32(TCA_EBDP_ACKLIMIT))
		print_uint(PRINT_ANY, "acklimit", "acklimit %up ",
			   rta_getattr_u32(tb[TCA_EBDP_ACKLIMIT]));
	if (EBDP_U32(TCA_EBDP_INTERVAL)) {
		v = rta_getattr_u32(tb[TCA_EBDP_INTERVAL]);
		print_uint(PRINT_JSON, "interval", NULL, v);
		print_string(PRINT_FP, NULL, "interval %s ",
			     sprint_time(v, b1));
	}
	if (EBDP_U32(TCA_EBDP_QMIN))
		print_uint(PRINT_ANY, "qmin", "qmin %up ",
			   rta_getattr_u32(tb[TCA_EBDP_QMIN]));
	if (EBDP_U32(TCA_EBDP_ALT_A))
		print_uint(PRINT_ANY, "alt_a", "alt_a %u ",
			   rta_getattr_u32(tb[TCA_EBDP_ALT_A]));
	if (EBDP_U32(TCA_EBDP_ALT_B))
		print_uint(PRINT_ANY, "alt_b", "alt_b %u ",
			   rta_getattr_u32(tb[TCA_EBDP_ALT_B]));
	/* TAP's release: in text only when on */
	if (EBDP_U32(TCA_EBDP_RELEASE)) {
		v = rta_getattr_u32(tb[TCA_EBDP_RELEASE]);
		print_uint(PRINT_JSON, "release", NULL, v);
		if (v)
			print_uint(PRINT_FP, NULL, "release %u ", v);
		if (EBDP_U32(TCA_EBDP_QUANTUM)) {
			__u32 qt = rta_getattr_u32(tb[TCA_EBDP_QUANTUM]);

			print_uint(PRINT_JSON, "quantum", NULL, qt);
			if (v)
				print_string(PRINT_FP, NULL, "quantum %s ",
					     sprint_time(qt, b1));
		}
	}
	return 0;
}

static int ebdp_print_xstats(struct qdisc_util *qu, FILE *f,
			     struct rtattr *xstats)
{
	struct tc_ebdp_xstats _st = {}, *st;

	SPRINT_BUF(b1);

	if (!xstats)
		return 0;
	st = RTA_DATA(xstats);
	if (RTA_PAYLOAD(xstats) < sizeof(*st)) {
		memcpy(&_st, st, RTA_PAYLOAD(xstats));
		st = &_st;
	}

	print_uint(PRINT_JSON, "version", NULL, st->version);
	print_u64(PRINT_JSON, "tserv", NULL, st->tserv_ns);
	print_string(PRINT_FP, NULL, "  tserv %s",
		     sprint_time64(st->tserv_ns, b1));
	print_string(PRINT_ANY, "source", " source %s",
		     st->source < ARRAY_SIZE(ebdp_sources) ?
		     ebdp_sources[st->source] : "unknown");
	print_string(PRINT_ANY, "mac80211", " mac80211 %s",
		     st->mac80211_bound ? "bound" : "unbound");
	print_uint(PRINT_ANY, "limit", " limit %up", st->limit);
	print_uint(PRINT_ANY, "bdp_limit", " ebdp_limit %up", st->bdp_limit);
	print_uint(PRINT_ANY, "alt_limit", " alt_limit %up", st->alt_limit);
	print_nl();
	print_uint(PRINT_ANY, "data_qlen", "  data_qlen %u", st->data_qlen);
	print_uint(PRINT_ANY, "ack_qlen", " ack_qlen %u", st->ack_qlen);
	print_u64(PRINT_ANY, "ack_packets", " ack_packets %llu",
		  st->ack_packets);
	print_u64(PRINT_ANY, "drops_limit", " drops_limit %llu",
		  st->drops_limit);
	print_u64(PRINT_ANY, "drops_ackq", " drops_ackq %llu", st->drops_ackq);
	print_u64(PRINT_ANY, "drops_change", " drops_change %llu",
		  st->drops_change);
	print_nl();
	print_u64(PRINT_ANY, "samples_mac80211", "  samples_mac80211 %llu",
		  st->samples_mac80211);
	print_u64(PRINT_ANY, "samples_dequeue", " samples_dequeue %llu",
		  st->samples_dequeue);
	if (RTA_PAYLOAD(xstats) >= offsetof(struct tc_ebdp_xstats, gso_split) +
				   sizeof(st->gso_split))
		print_u64(PRINT_ANY, "gso_split", " gso_split %llu",
			  st->gso_split);
	if (RTA_PAYLOAD(xstats) >= offsetof(struct tc_ebdp_xstats, data_tserv_ns) +
				   sizeof(st->data_tserv_ns)) {
		print_u64(PRINT_JSON, "data_tserv", NULL, st->data_tserv_ns);
		print_string(PRINT_FP, NULL, " data_tserv %s",
			     sprint_time64(st->data_tserv_ns, b1));
	}
	if (RTA_PAYLOAD(xstats) >= offsetof(struct tc_ebdp_xstats, hold_max_ns) +
				   sizeof(st->hold_max_ns)) {
		print_nl();
		print_uint(PRINT_ANY, "ack_held", "  ack_held %u", st->ack_held);
		print_uint(PRINT_ANY, "release_members", " release_members %u",
			   st->release_members);
		print_u64(PRINT_ANY, "release_joins", " release_joins %llu",
			  st->release_joins);
		print_u64(PRINT_ANY, "release_unkeyed", " release_unkeyed %llu",
			  st->release_unkeyed);
		print_u64(PRINT_JSON, "hold_max", NULL, st->hold_max_ns);
		print_string(PRINT_FP, NULL, " hold_max %s",
			     sprint_time64(st->hold_max_ns, b1));
	}
	return 0;
}

struct qdisc_util ebdp_qdisc_util = {
	.id		= "ebdp",
	.parse_qopt	= ebdp_parse_opt,
	.print_qopt	= ebdp_print_opt,
	.print_xstats	= ebdp_print_xstats,
};
