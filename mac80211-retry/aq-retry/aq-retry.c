// SPDX-License-Identifier: GPL-2.0
/*
 * aq-retry: configure mac80211's adaptive retry policy (mac80211-retry patch
 * 0009) through its nl80211 vendor commands, as iw configures the rest of a
 * phy.  Plain netlink, no library: it builds for OpenWrt as it does here.
 *
 *   aq-retry PHY|DEV show
 *   aq-retry PHY|DEV set [mode MODE] [fixed AP/STA] [prob N|auto] [PARAM N]...
 *   aq-retry DEV station ADDR show
 *   aq-retry DEV station ADDR set mode MODE|inherit
 *   aq-retry PHY|DEV raw SUBCMD HEX [flat]
 *
 * The ABI is include/uapi/linux/nl80211-vnd-airqueue.h; the documentation
 * Documentation/networking/mac80211-retry.rst.  nl80211 answers what a
 * command's policy refuses with an extended ACK message, printed here; a
 * combination of parameters that the policy core refuses is explained in
 * the kernel log (vendor commands carry no extended ACK).
 *
 * Copyright (C) 2026 airqueue developers
 */

#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>
#include <linux/nl80211-vnd-airqueue.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF_SIZE	16384

static const char *const modes[NUM_AIRQUEUE_RETRY_MODE] = {
	[AIRQUEUE_RETRY_MODE_OFF] = "off",
	[AIRQUEUE_RETRY_MODE_FIXED] = "fixed",
	[AIRQUEUE_RETRY_MODE_OBSS] = "obss",
	[AIRQUEUE_RETRY_MODE_RATE] = "rate",
	[AIRQUEUE_RETRY_MODE_OBSS_RATE] = "obss+rate",
	[AIRQUEUE_RETRY_MODE_INHERIT] = "inherit",
};

/* the parameters, by attribute; the names of debugfs phyN/retry/params */
static const struct {
	const char *name;
	int attr;
} params[] = {
	{ "l_obss", AIRQUEUE_RETRY_ATTR_L_OBSS },
	{ "l_non_obss", AIRQUEUE_RETRY_ATTR_L_NON_OBSS },
	{ "l_min", AIRQUEUE_RETRY_ATTR_L_MIN },
	{ "c_obss", AIRQUEUE_RETRY_ATTR_C_OBSS },
	{ "c_non_obss", AIRQUEUE_RETRY_ATTR_C_NON_OBSS },
	{ "a_error", AIRQUEUE_RETRY_ATTR_A_ERROR },
	{ "s_high", AIRQUEUE_RETRY_ATTR_S_HIGH },
	{ "s_low", AIRQUEUE_RETRY_ATTR_S_LOW },
	{ "fixed_ap", AIRQUEUE_RETRY_ATTR_FIXED_AP },
	{ "fixed_sta", AIRQUEUE_RETRY_ATTR_FIXED_STA },
	{ "ladder_kbps0", AIRQUEUE_RETRY_ATTR_LADDER_KBPS0 },
	{ "ladder_kbps1", AIRQUEUE_RETRY_ATTR_LADDER_KBPS1 },
	{ "ladder_kbps2", AIRQUEUE_RETRY_ATTR_LADDER_KBPS2 },
	{ "ladder_b0", AIRQUEUE_RETRY_ATTR_LADDER_B0 },
	{ "ladder_b1", AIRQUEUE_RETRY_ATTR_LADDER_B1 },
	{ "ladder_b2", AIRQUEUE_RETRY_ATTR_LADDER_B2 },
	{ "ladder_b3", AIRQUEUE_RETRY_ATTR_LADDER_B3 },
	{ "ewma_trans_shift", AIRQUEUE_RETRY_ATTR_EWMA_TRANS_SHIFT },
	{ "rate_hw_cut", AIRQUEUE_RETRY_ATTR_RATE_HW_CUT },
	{ "cut_chain", AIRQUEUE_RETRY_ATTR_CUT_CHAIN },
};

#define N_PARAMS	(sizeof(params) / sizeof(params[0]))

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: aq-retry PHY|DEV show\n"
	      "       aq-retry PHY|DEV set [mode MODE] [fixed AP/STA] [prob N|auto] [PARAM N]...\n"
	      "       aq-retry DEV station ADDR show\n"
	      "       aq-retry DEV station ADDR set mode MODE|inherit\n"
	      "       aq-retry PHY|DEV raw SUBCMD HEX [flat]\n"
	      "MODE: off, fixed, obss, rate, obss+rate\nPARAM:", f);
	for (i = 0; i < N_PARAMS; i++)
		fprintf(f, "%s %s", i ? "," : "", params[i].name);
	fputs("\n", f);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("aq-retry: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	exit(1);
}

/* a message under construction */
struct msg {
	unsigned char buf[BUF_SIZE];
	size_t len;
};

static struct nlattr *put(struct msg *m, int type, const void *data,
			  size_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->len);

	if (m->len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->buf))
		die("message too long");
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(m->buf + m->len + NLA_HDRLEN, data, len);
	memset(m->buf + m->len + NLA_HDRLEN + len, 0,
	       NLA_ALIGN(len) - len);
	m->len += NLA_HDRLEN + NLA_ALIGN(len);
	return a;
}

static void put_u32(struct msg *m, int type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

static void put_u8(struct msg *m, int type, uint8_t v)
{
	put(m, type, &v, sizeof(v));
}

/* the attributes of a payload, by type (0 for absent) */
static void parse(const unsigned char *p, size_t len,
		  const struct nlattr **tb, int max)
{
	const struct nlattr *a;

	memset(tb, 0, (max + 1) * sizeof(*tb));
	while (len >= NLA_HDRLEN) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) <= max)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
		if ((size_t)NLA_ALIGN(a->nla_len) >= len)
			break;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
}

static const void *data_of(const struct nlattr *a)
{
	return (const unsigned char *)a + NLA_HDRLEN;
}

static uint32_t u32_of(const struct nlattr *a)
{
	uint32_t v = 0;

	if (a && a->nla_len >= NLA_HDRLEN + 4)
		memcpy(&v, data_of(a), 4);
	return v;
}

static int sock_fd;
static uint32_t seq;

/* the text of a netlink error, with the extended ACK message if any */
static const char *error_text(int err, const struct nlmsghdr *h)
{
	static char text[512];
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off, len = h->nlmsg_len;

	snprintf(text, sizeof(text), "%s", strerror(err));
	if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
		off = NLMSG_HDRLEN + sizeof(*e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		off = NLMSG_ALIGN(off);
		if (off < len) {
			parse((const unsigned char *)h + off, len - off, tb,
			      NLMSGERR_ATTR_MAX);
			if (tb[NLMSGERR_ATTR_MSG]) {
				snprintf(text, sizeof(text), "%s: %.*s",
					 strerror(err),
					 (int)(tb[NLMSGERR_ATTR_MSG]->nla_len -
					       NLA_HDRLEN),
					 (const char *)data_of(tb[NLMSGERR_ATTR_MSG]));
				return text;
			}
		}
	}
	if (err == EINVAL)
		strcat(text, " (the kernel log says why)");
	else if (err == EOPNOTSUPP)
		strcat(text, " (is mac80211 patched with the retry policy?)");
	return text;
}

/*
 * Send a generic netlink request (the attributes in @m) and call @cb with
 * the attributes of every reply.  Returns 0 or dies with the error.
 */
static void request(uint16_t family, uint8_t cmd, const struct msg *m,
		    uint16_t flags,
		    void (*cb)(const unsigned char *p, size_t len, void *arg),
		    void *arg)
{
	static unsigned char rbuf[65536];
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
	} hdr = {
		.h = { .nlmsg_type = family,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags,
		       .nlmsg_seq = ++seq },
		.g = { .cmd = cmd, .version = 1 },
	};
	struct iovec iov[2] = { { &hdr, sizeof(hdr) },
				{ (void *)m->buf, m->len } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	const struct nlmsghdr *h;
	ssize_t n;

	mh.msg_name = &sa;
	mh.msg_namelen = sizeof(sa);
	hdr.h.nlmsg_len = sizeof(hdr) + m->len;
	if (sendmsg(sock_fd, &mh, 0) < 0)
		die("netlink: %s", strerror(errno));
	for (;;) {
		n = recv(sock_fd, rbuf, sizeof(rbuf), 0);
		if (n < 0)
			die("netlink: %s", strerror(errno));
		for (h = (void *)rbuf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				if (!e->error)
					return;
				if (family == GENL_ID_CTRL)
					die("no nl80211 (is cfg80211 loaded?): %s",
					    strerror(-e->error));
				die("%s", error_text(-e->error, h));
			}
			if (cb && h->nlmsg_len > NLMSG_HDRLEN + GENL_HDRLEN)
				cb((const unsigned char *)NLMSG_DATA(h) +
				   GENL_HDRLEN,
				   h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
				   arg);
		}
	}
}

static void family_cb(const unsigned char *p, size_t len, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];

	parse(p, len, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		memcpy(arg, data_of(tb[CTRL_ATTR_FAMILY_ID]), 2);
}

struct phy_find {
	const char *name;
	int found;
	uint32_t idx;
};

static void phy_cb(const unsigned char *p, size_t len, void *arg)
{
	const struct nlattr *tb[NL80211_ATTR_WIPHY_NAME + 1];
	struct phy_find *f = arg;

	parse(p, len, tb, NL80211_ATTR_WIPHY_NAME);
	if (tb[NL80211_ATTR_WIPHY] && tb[NL80211_ATTR_WIPHY_NAME] &&
	    !strcmp(data_of(tb[NL80211_ATTR_WIPHY_NAME]), f->name)) {
		f->found = 1;
		f->idx = u32_of(tb[NL80211_ATTR_WIPHY]);
	}
}

static uint16_t nl80211;
static int by_ifindex;

/* start a vendor command for NAME (an interface or a phy) */
static void vendor_start(struct msg *m, const char *name, uint32_t subcmd)
{
	unsigned int ifindex = if_nametoindex(name);

	m->len = 0;
	if (ifindex) {
		by_ifindex = 1;
		put_u32(m, NL80211_ATTR_IFINDEX, ifindex);
	} else {
		struct phy_find f = { .name = name };
		struct msg empty = { .len = 0 };

		request(nl80211, NL80211_CMD_GET_WIPHY, &empty, NLM_F_DUMP,
			phy_cb, &f);
		if (!f.found)
			die("%s: no such interface or phy in this network namespace",
			    name);
		put_u32(m, NL80211_ATTR_WIPHY, f.idx);
	}
	put_u32(m, NL80211_ATTR_VENDOR_ID, AIRQUEUE_VENDOR_ID);
	put_u32(m, NL80211_ATTR_VENDOR_SUBCMD, subcmd);
}

/* the reply's vendor data, parsed */
static const struct nlattr *reply[NUM_AIRQUEUE_RETRY_ATTR];
static unsigned char reply_buf[BUF_SIZE];

static void vendor_cb(const unsigned char *p, size_t len,
		      void *arg __attribute__((unused)))
{
	const struct nlattr *tb[NL80211_ATTR_VENDOR_DATA + 1];
	const struct nlattr *d;
	size_t dl;

	parse(p, len, tb, NL80211_ATTR_VENDOR_DATA);
	d = tb[NL80211_ATTR_VENDOR_DATA];
	if (!d)
		return;
	dl = d->nla_len - NLA_HDRLEN;
	if (dl > sizeof(reply_buf))
		dl = sizeof(reply_buf);
	memcpy(reply_buf, data_of(d), dl);
	parse(reply_buf, dl, reply, AIRQUEUE_RETRY_ATTR_MAX);
}

/* finish with the vendor data in @data and send */
static void vendor_send(struct msg *m, const struct msg *data, int nested)
{
	put(m, NL80211_ATTR_VENDOR_DATA | (nested ? NLA_F_NESTED : 0),
	    data->buf, data->len);
	request(nl80211, NL80211_CMD_VENDOR, m, 0, vendor_cb, NULL);
}

static uint32_t number(const char *what, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || v > UINT32_MAX || *s == '-')
		die("%s: not a number within 0..%u: %s", what, UINT32_MAX, s);
	return v;
}

static uint8_t mode_value(const char *s, int inherit)
{
	int i;

	for (i = 0; i < NUM_AIRQUEUE_RETRY_MODE; i++)
		if (!strcmp(s, modes[i]) &&
		    (inherit || i != AIRQUEUE_RETRY_MODE_INHERIT))
			return i;
	die("mode: one of off, fixed, obss, rate, obss+rate%s, not %s",
	    inherit ? ", inherit" : "", s);
}

static const char *mode_name(const struct nlattr *a)
{
	uint8_t v = a ? *(const uint8_t *)data_of(a) : 0xff;

	return v < NUM_AIRQUEUE_RETRY_MODE ? modes[v] : "?";
}

static void set_args(struct msg *d, int argc, char **argv)
{
	size_t i;
	int k;

	if (!argc || argc % 2) {
		usage(stderr);
		die("set takes KEY VALUE pairs");
	}
	for (k = 0; k < argc; k += 2) {
		const char *key = argv[k], *val = argv[k + 1];

		if (!strcmp(key, "mode")) {
			put_u8(d, AIRQUEUE_RETRY_ATTR_MODE, mode_value(val, 0));
		} else if (!strcmp(key, "fixed")) {
			char ap[32], *sta;

			snprintf(ap, sizeof(ap), "%s", val);
			sta = strchr(ap, '/');
			if (!sta)
				die("fixed: AP/STA, not %s", val);
			*sta++ = '\0';
			put_u32(d, AIRQUEUE_RETRY_ATTR_FIXED_AP,
				number("fixed AP", ap));
			put_u32(d, AIRQUEUE_RETRY_ATTR_FIXED_STA,
				number("fixed STA", sta));
		} else if (!strcmp(key, "prob")) {
			if (!strcmp(val, "auto"))
				put(d, AIRQUEUE_RETRY_ATTR_PROB_AUTO, NULL, 0);
			else
				put_u32(d, AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC,
					number("prob", val));
		} else {
			for (i = 0; i < N_PARAMS; i++)
				if (!strcmp(key, params[i].name))
					break;
			if (i == N_PARAMS) {
				usage(stderr);
				die("unknown setting %s", key);
			}
			put_u32(d, params[i].attr, number(key, val));
		}
	}
}

static int parse_mac(const char *s, unsigned char *mac)
{
	unsigned int b[6];
	char end;
	int i;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		   &b[3], &b[4], &b[5], &end) != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

static void raw_data(struct msg *d, const char *hex)
{
	unsigned int b;
	size_t i, n = strlen(hex);

	if (n % 2 || n / 2 > sizeof(d->buf))
		die("raw: an even number of hex digits, not %s", hex);
	for (i = 0; i < n; i += 2) {
		if (sscanf(hex + i, "%2x", &b) != 1)
			die("raw: not hex: %s", hex);
		d->buf[d->len++] = b;
	}
}

int main(int argc, char **argv)
{
	static struct msg m, d;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;
	size_t i;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 3) {
		usage(stderr);
		return 2;
	}

	sock_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock_fd < 0 || bind(sock_fd, (void *)&sa, sizeof(sa)))
		die("netlink socket: %s", strerror(errno));
	setsockopt(sock_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(sock_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	put(&m, CTRL_ATTR_FAMILY_NAME, "nl80211", sizeof("nl80211"));
	request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, &m, 0, family_cb, &nl80211);
	if (!nl80211)
		die("no nl80211 (is cfg80211 loaded?)");

	if (!strcmp(argv[2], "show") && argc == 3) {
		vendor_start(&m, argv[1], AIRQUEUE_RETRY_CMD_GET);
		vendor_send(&m, &d, 1);
		printf("mode %s\n", mode_name(reply[AIRQUEUE_RETRY_ATTR_MODE]));
		printf("prob_cs_succ %u %s\n",
		       u32_of(reply[AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC]),
		       reply[AIRQUEUE_RETRY_ATTR_PROB_AUTO] ? "auto" : "fixed");
		for (i = 0; i < N_PARAMS; i++)
			if (reply[params[i].attr])
				printf("%s %u\n", params[i].name,
				       u32_of(reply[params[i].attr]));
	} else if (!strcmp(argv[2], "set")) {
		set_args(&d, argc - 3, argv + 3);
		vendor_start(&m, argv[1], AIRQUEUE_RETRY_CMD_SET);
		vendor_send(&m, &d, 1);
	} else if (!strcmp(argv[2], "raw") && (argc == 5 || argc == 6)) {
		raw_data(&d, argv[4]);
		vendor_start(&m, argv[1], number("raw subcommand", argv[3]));
		vendor_send(&m, &d, !(argc == 6 && !strcmp(argv[5], "flat")));
	} else if (!strcmp(argv[2], "station") && argc >= 5) {
		unsigned char mac[6];
		int show = argc == 5 && !strcmp(argv[4], "show");
		int set = argc == 7 && !strcmp(argv[4], "set") &&
			  !strcmp(argv[5], "mode");

		if (!show && !set) {
			usage(stderr);
			return 2;
		}
		if (parse_mac(argv[3], mac))
			die("not a MAC address: %s", argv[3]);
		put(&d, AIRQUEUE_RETRY_ATTR_MAC, mac, 6);
		if (set)
			put_u8(&d, AIRQUEUE_RETRY_ATTR_STA_MODE,
			       mode_value(argv[6], 1));
		vendor_start(&m, argv[1], show ? AIRQUEUE_RETRY_CMD_GET_STA :
				      AIRQUEUE_RETRY_CMD_SET_STA);
		if (!by_ifindex)
			die("%s: station commands need a network interface",
			    argv[1]);
		vendor_send(&m, &d, 1);
		if (show) {
			const unsigned char *a;

			if (!reply[AIRQUEUE_RETRY_ATTR_MAC])
				die("no station in the reply");
			a = data_of(reply[AIRQUEUE_RETRY_ATTR_MAC]);
			printf("station %02x:%02x:%02x:%02x:%02x:%02x\n",
			       a[0], a[1], a[2], a[3], a[4], a[5]);
			printf("mode %s\noverride %s\n",
			       mode_name(reply[AIRQUEUE_RETRY_ATTR_MODE]),
			       mode_name(reply[AIRQUEUE_RETRY_ATTR_STA_MODE]));
			printf("L %u\nL_base %u\nB %u\nprob_cs_succ %u\nrate_kbps %u\n",
			       u32_of(reply[AIRQUEUE_RETRY_ATTR_STA_L]),
			       u32_of(reply[AIRQUEUE_RETRY_ATTR_STA_L_BASE]),
			       u32_of(reply[AIRQUEUE_RETRY_ATTR_STA_B]),
			       u32_of(reply[AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC]),
			       u32_of(reply[AIRQUEUE_RETRY_ATTR_STA_RATE_KBPS]));
		}
	} else {
		usage(stderr);
		return 2;
	}
	return 0;
}
