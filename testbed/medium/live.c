// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live front end: mac80211_hwsim's generic netlink medium protocol.
 *
 * The medium registers with HWSIM_CMD_REGISTER and then receives every frame
 * any hwsim radio transmits (HWSIM_CMD_FRAME: transmitter, frame, flags,
 * {idx,count} x 4 rate table, per-rate flags, cookie, frequency).  Frames are
 * queued per radio and access category and go through the model in
 * CLOCK_MONOTONIC time; receptions are sent back as HWSIM_CMD_FRAME to the
 * receiving radio, and each frame's fate as HWSIM_CMD_TX_INFO_FRAME with the
 * counts actually used and HWSIM_TX_STAT_ACK only when acknowledged.
 *
 * Robustness: unknown commands, malformed messages and frames from radios
 * the config does not know are counted and ignored (or, with
 * "unknown_radios": "add", such radios are added); HWSIM_CMD_NEW_RADIO /
 * DEL_RADIO on the "config" multicast group add, reset or drop radios;
 * SIGTERM/SIGINT report every queued frame as not acknowledged, write the
 * statistics and exit; SIGUSR1 or a connection on the stats socket dumps
 * the statistics as JSON.
 */
#include <errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "hwsim_proto.h"
#include "live.h"

struct live {
	struct aq_medium *m;
	struct aq_opts *o;
	struct nl_sock *sk;
	int family;
	bool stop;
	bool kernel_marks_ampdu;
	struct aq_hwsim_ext ext;	/* the kernel's numbers, or !present */
};

int64_t aq_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * AQ_NS_PER_S + ts.tv_nsec;
}

static struct nla_policy policy[HWSIM_ATTR_MAX + 1] = {
	[HWSIM_ATTR_ADDR_RECEIVER] = { .type = NLA_UNSPEC, .minlen = 6 },
	[HWSIM_ATTR_ADDR_TRANSMITTER] = { .type = NLA_UNSPEC, .minlen = 6 },
	[HWSIM_ATTR_FRAME] = { .type = NLA_UNSPEC },
	[HWSIM_ATTR_FLAGS] = { .type = NLA_U32 },
	[HWSIM_ATTR_RX_RATE] = { .type = NLA_U32 },
	[HWSIM_ATTR_SIGNAL] = { .type = NLA_U32 },
	[HWSIM_ATTR_TX_INFO] = { .type = NLA_UNSPEC },
	[HWSIM_ATTR_COOKIE] = { .type = NLA_U64 },
	[HWSIM_ATTR_RADIO_ID] = { .type = NLA_U32 },
	[HWSIM_ATTR_FREQ] = { .type = NLA_U32 },
	[HWSIM_ATTR_TX_INFO_FLAGS] = { .type = NLA_UNSPEC },
	[HWSIM_ATTR_RADIO_NAME] = { .type = NLA_UNSPEC },
};

/*
 * A message of at most SIZE octets: libnl zeroes the whole buffer, and the
 * frames and statuses, one per delivery and per attempt, need a few hundred
 * (their attributes' headroom: AQ_NL_HEADROOM past the frame).  A put that
 * does not fit fails and the message is not sent (nl_errors).
 */
#define AQ_NL_HEADROOM	512

static struct nl_msg *new_msg(struct live *l, int cmd, size_t size)
{
	struct nl_msg *msg = nlmsg_alloc_size(size);

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, l->family, 0, 0, cmd,
			 HWSIM_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* send MSG unless building it failed (ERR: the puts' results or'ed) */
static void send_msg(struct live *l, struct nl_msg *msg, int err)
{
	if (err || nl_send_auto(l->sk, msg) < 0)
		l->m->st.nl_errors++;
	nlmsg_free(msg);
}

static int put_survey(struct live *l, struct nl_msg *msg, struct aq_radio *r)
{
	struct aq_medium *m = l->m;
	int64_t busy = r->busy_ns + (!r->med_idle ? m->now - r->busy_since : 0);

	return nla_put_u64(msg, l->ext.chan_busy_time, busy / 1000) |
	       nla_put_u64(msg, l->ext.chan_active_time, (m->now - r->created) / 1000) |
	       nla_put_u64(msg, l->ext.chan_tx_time, r->tx_ns / 1000);
}

static void live_deliver(struct aq_medium *m, struct aq_frame *f, int rx,
			 double signal, const struct aq_rate *rate, int64_t airtime)
{
	struct live *l = m->ops.priv;
	struct nl_msg *msg;
	uint8_t *buf;
	int err;

	if (!f->data || f->data_len < 2)
		return;
	msg = new_msg(l, HWSIM_CMD_FRAME, f->data_len + AQ_NL_HEADROOM);
	if (!msg)
		return;
	err = nla_put(msg, HWSIM_ATTR_ADDR_RECEIVER, 6, m->radio[rx].addr);
	/* retransmissions carry the Retry bit so mac80211 drops duplicates */
	buf = f->data;
	if (f->attempts > 1 && f->data_len >= 2) {
		buf = malloc(f->data_len);
		if (!buf) {
			nlmsg_free(msg);
			return;
		}
		memcpy(buf, f->data, f->data_len);
		buf[1] |= 0x08;
	}
	err |= nla_put(msg, HWSIM_ATTR_FRAME, f->data_len, buf);
	if (buf != f->data)
		free(buf);
	err |= nla_put_u32(msg, HWSIM_ATTR_RX_RATE,
			   rate->legacy_idx < 0 ? 0 : rate->legacy_idx);
	err |= nla_put_u32(msg, HWSIM_ATTR_SIGNAL,
			   (uint32_t)(int32_t)(signal < -120 ? -120 : signal));
	if (f->freq)
		err |= nla_put_u32(msg, HWSIM_ATTR_FREQ, f->freq);
	if (l->ext.present) {
		err |= nla_put_u32(msg, l->ext.rx_airtime, (uint32_t)(airtime / 1000));
		err |= put_survey(l, msg, &m->radio[rx]);
	}
	send_msg(l, msg, err);
}

static void live_status(struct aq_medium *m, struct aq_frame *f, bool acked)
{
	struct live *l = m->ops.priv;
	struct hwsim_tx_rate tr[HWSIM_TX_MAX_RATES];
	struct aq_txrate rep[AQ_MAX_RATES];
	struct aq_radio *r = &m->radio[f->src];
	struct nl_msg *msg;
	uint32_t flags = f->hwsim_flags & (HWSIM_TX_CTL_REQ_TX_STATUS | HWSIM_TX_CTL_NO_ACK);
	double sig = -95;
	int err;

	if (!f->data || !r->present)
		return;
	msg = new_msg(l, HWSIM_CMD_TX_INFO_FRAME, AQ_NL_HEADROOM);
	if (!msg)
		return;
	aq_report_rates(f, rep);
	for (int i = 0; i < HWSIM_TX_MAX_RATES; i++) {
		tr[i].idx = rep[i].idx;
		tr[i].count = rep[i].count;
	}
	if (acked)
		flags |= HWSIM_TX_STAT_ACK;
	if (f->dst >= 0)
		sig = m->link[f->dst][f->src].rx_dbm;
	err = nla_put(msg, HWSIM_ATTR_ADDR_TRANSMITTER, 6, r->addr);
	err |= nla_put_u32(msg, HWSIM_ATTR_FLAGS, flags);
	err |= nla_put(msg, HWSIM_ATTR_TX_INFO, sizeof(tr), tr);
	err |= nla_put_u32(msg, HWSIM_ATTR_SIGNAL, (uint32_t)(int32_t)sig);
	err |= nla_put_u64(msg, HWSIM_ATTR_COOKIE, f->cookie);
	if (l->ext.present) {
		err |= nla_put_u32(msg, l->ext.tx_airtime, (uint32_t)(f->airtime / 1000));
		err |= put_survey(l, msg, r);
		if (f->in_ampdu) {
			err |= nla_put_u8(msg, l->ext.tx_ampdu_len, f->ampdu_len);
			if (f->ampdu_len)
				err |= nla_put_u8(msg, l->ext.tx_ampdu_acked, f->ampdu_acked);
		}
	}
	send_msg(l, msg, err);
}

static bool is_hwsim_addr(const uint8_t *a, int *idx)
{
	if (a[0] != 0x42 || a[1] || a[2] || a[5])
		return false;
	*idx = a[3] << 8 | a[4];
	return true;
}

static int radio_for(struct live *l, const uint8_t *addr, bool create)
{
	struct aq_medium *m = l->m;
	char name[32];
	uint8_t vif[6];
	int ri, idx = -1;

	for (unsigned int i = 0; i < m->n_radios; i++)
		if (m->radio[i].present && !memcmp(m->radio[i].addr, addr, 6))
			return (int)i;
	/* a group address is no radio's: never add one (fuzz-netlink) */
	if (!create || !l->o->unknown_add || (addr[0] & 1))
		return -1;
	if (is_hwsim_addr(addr, &idx))
		snprintf(name, sizeof(name), "hwsim%d", idx);
	else
		snprintf(name, sizeof(name), "radio-%02x%02x%02x", addr[3], addr[4], addr[5]);
	ri = aq_radio_add(m, name, addr);
	if (ri < 0)
		return -1;
	if (idx >= 0) {
		m->radio[ri].hwsim_index = idx;
		aq_hwsim_index_addr(idx, NULL, vif);
		aq_radio_add_maddr(m, ri, vif);
	}
	fprintf(stderr, "aqmedium: added radio %s (%02x:%02x:%02x:%02x:%02x:%02x)\n",
		name, addr[0], addr[1], addr[2], addr[3], addr[4], addr[5]);
	return ri;
}

static void handle_frame(struct live *l, struct nlattr **a)
{
	struct aq_medium *m = l->m;
	struct hwsim_tx_rate *tr;
	struct hwsim_tx_rate_flag *tf = NULL;
	struct aq_frame *f;
	const uint8_t *d;
	unsigned int len, ftype, stype;
	uint16_t fc;
	int ri;

	if (!a[HWSIM_ATTR_ADDR_TRANSMITTER] || !a[HWSIM_ATTR_FRAME] ||
	    !a[HWSIM_ATTR_FLAGS] || !a[HWSIM_ATTR_TX_INFO] || !a[HWSIM_ATTR_COOKIE] ||
	    nla_len(a[HWSIM_ATTR_TX_INFO]) < (int)sizeof(*tr) * HWSIM_TX_MAX_RATES ||
	    nla_len(a[HWSIM_ATTR_FRAME]) < 10) {
		m->st.bad_msgs++;
		return;
	}
	ri = radio_for(l, nla_data(a[HWSIM_ATTR_ADDR_TRANSMITTER]), true);
	if (ri < 0) {
		m->st.unknown_radio_frames++;
		return;
	}
	d = nla_data(a[HWSIM_ATTR_FRAME]);
	len = nla_len(a[HWSIM_ATTR_FRAME]);
	f = aq_frame_alloc();
	f->data = malloc(len);
	if (!f->data) {
		aq_frame_free(f);
		return;
	}
	memcpy(f->data, d, len);
	f->data_len = len;
	f->len = len + AQ_FCS_LEN;
	f->payload = len;
	f->src = ri;
	f->hwsim_flags = nla_get_u32(a[HWSIM_ATTR_FLAGS]);
	f->cookie = nla_get_u64(a[HWSIM_ATTR_COOKIE]);
	f->no_ack = f->hwsim_flags & HWSIM_TX_CTL_NO_ACK;
	f->freq = a[HWSIM_ATTR_FREQ] ? nla_get_u32(a[HWSIM_ATTR_FREQ]) : m->radio[ri].freq;
	tr = nla_data(a[HWSIM_ATTR_TX_INFO]);
	if (a[HWSIM_ATTR_TX_INFO_FLAGS] &&
	    nla_len(a[HWSIM_ATTR_TX_INFO_FLAGS]) >= (int)sizeof(*tf) * HWSIM_TX_MAX_RATES)
		tf = nla_data(a[HWSIM_ATTR_TX_INFO_FLAGS]);
	for (int i = 0; i < HWSIM_TX_MAX_RATES; i++) {
		f->rates[i].idx = tr[i].idx;
		f->rates[i].count = tr[i].count;
		f->rates[i].flags = tf ? tf[i].flags : 0;
	}
	fc = d[0] | d[1] << 8;
	ftype = (fc >> 2) & 3;
	stype = (fc >> 4) & 15;
	f->nav_us = (d[2] | d[3] << 8);
	if (f->nav_us & 0x8000)
		f->nav_us = 0;
	memcpy(f->ra, d + 4, 6);
	if (f->ra[0] & 1) {
		f->dst = AQ_DST_BCAST;
		f->no_ack = true;
	} else {
		f->dst = aq_radio_by_addr(m, f->ra);
		if (f->dst < 0)
			f->dst = AQ_DST_UNKNOWN;
	}
	/* learn the transmitter's interface address (addr2) */
	if (len >= 16 && ftype != 1 && aq_radio_by_addr(m, d + 10) < 0 && !(d[10] & 1))
		aq_radio_add_maddr(m, ri, d + 10);
	f->ac = AQ_AC_BE;
	if (ftype == 0) {
		f->ac = AQ_AC_VO;	/* mac80211 sends management on VO */
		f->tid = 7;
	} else if (ftype == 2 && (stype & 8)) {
		unsigned int off = ((fc & 0x0300) == 0x0300) ? 30 : 24;

		f->qos_data = true;
		if (len >= off + 2) {
			f->tid = d[off] & 7;
			f->ac = aq_ac_of_tid(f->tid);
		}
	}
	if (ftype == 2)
		f->l4 = aq_classify_l4(d, len);
	f->beacon = ftype == 0 && stype == 8;
	/* a patched hwsim marks frames of Block Ack sessions; once one such
	 * mark was seen, trust it.  Stock hwsim does not pass the flag:
	 * aggregate unicast QoS data at HT rates (hwsim starts Block Ack
	 * sessions itself). */
	if (f->hwsim_flags & l->ext.tx_ctl_ampdu)
		l->kernel_marks_ampdu = true;
	f->ampdu_ok = (f->hwsim_flags & l->ext.tx_ctl_ampdu) ||
		      (!l->kernel_marks_ampdu && f->qos_data && f->dst >= 0 &&
		       !f->no_ack && (f->rates[0].flags & HWSIM_TX_RC_MCS));
	aq_enqueue(m, f);
}

static void handle_maddr(struct live *l, struct nlattr **a, bool add)
{
	struct aq_medium *m = l->m;
	int ri;

	if (!a[HWSIM_ATTR_ADDR_TRANSMITTER] || !a[HWSIM_ATTR_ADDR_RECEIVER]) {
		m->st.bad_msgs++;
		return;
	}
	ri = radio_for(l, nla_data(a[HWSIM_ATTR_ADDR_TRANSMITTER]), add);
	if (ri < 0) {
		m->st.unknown_radio_frames++;
		return;
	}
	if (add)
		aq_radio_add_maddr(m, ri, nla_data(a[HWSIM_ATTR_ADDR_RECEIVER]));
	else
		aq_radio_del_maddr(m, ri, nla_data(a[HWSIM_ATTR_ADDR_RECEIVER]));
}

static void handle_radio(struct live *l, struct nlattr **a, bool add)
{
	struct aq_medium *m = l->m;
	uint8_t addr[6];
	int id, ri;

	if (!a[HWSIM_ATTR_RADIO_ID]) {
		m->st.bad_msgs++;
		return;
	}
	id = (int)nla_get_u32(a[HWSIM_ATTR_RADIO_ID]);
	aq_hwsim_index_addr(id, addr, NULL);
	ri = -1;
	for (unsigned int i = 0; i < m->n_radios; i++)
		if (m->radio[i].present && (m->radio[i].hwsim_index == id ||
					    !memcmp(m->radio[i].addr, addr, 6)))
			ri = (int)i;
	if (add) {
		if (ri < 0)
			ri = radio_for(l, addr, true);
		else
			aq_radio_flush(m, ri);
		return;
	}
	if (ri < 0)
		return;
	fprintf(stderr, "aqmedium: radio %d (%s) deleted\n", id, m->radio[ri].name);
	/* radios from the config keep their place and links; others go */
	if (!strncmp(m->radio[ri].name, "hwsim", 5) || !strncmp(m->radio[ri].name, "radio-", 6))
		aq_radio_remove(m, ri);
	else
		aq_radio_flush(m, ri);
}

static int rx_cb(struct nl_msg *msg, void *arg)
{
	struct live *l = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *a[HWSIM_ATTR_MAX + 1];

	aq_run_until(l->m, aq_mono_ns());
	if (genlmsg_parse(nlh, 0, a, HWSIM_ATTR_MAX, policy) < 0) {
		l->m->st.bad_msgs++;
		return NL_SKIP;
	}
	switch (gh->cmd) {
	case HWSIM_CMD_FRAME:
		handle_frame(l, a);
		break;
	case HWSIM_CMD_ADD_MAC_ADDR:
		handle_maddr(l, a, true);
		break;
	case HWSIM_CMD_DEL_MAC_ADDR:
		handle_maddr(l, a, false);
		break;
	case HWSIM_CMD_NEW_RADIO:
		handle_radio(l, a, true);
		break;
	case HWSIM_CMD_DEL_RADIO:
		handle_radio(l, a, false);
		break;
	default:
		l->m->st.unknown_msgs++;
		break;
	}
	return NL_OK;
}

/* the kernel rejected one of our messages: count it, keep going */
static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct live *l = arg;
	struct genlmsghdr *gh = nlmsg_data(&e->msg);
	int cmd = gh->cmd;

	(void)nla;
	if (cmd == HWSIM_CMD_FRAME)
		l->m->st.kern_err_frame++;
	else if (cmd == HWSIM_CMD_TX_INFO_FRAME)
		l->m->st.kern_err_txinfo++;
	else
		l->m->st.nl_errors++;
	if (l->m->st.kern_err_frame + l->m->st.kern_err_txinfo <= 5)
		fprintf(stderr, "aqmedium: kernel rejected cmd %d: %s\n", cmd, strerror(-e->error));
	return NL_SKIP;
}

static void dump_stats(struct live *l, const char *path, FILE *fallback)
{
	FILE *f = path && *path ? fopen(path, "w") : NULL;

	aq_stats_json(l->m, f ? f : fallback);
	if (f)
		fclose(f);
}

/* report every frame still held as not acknowledged (SIGTERM flush) */
static void flush_all(struct live *l)
{
	struct aq_medium *m = l->m;

	for (unsigned int i = 0; i < m->n_radios; i++) {
		struct aq_radio *r = &m->radio[i];

		if (!r->present)
			continue;
		if (r->cur)
			for (unsigned int k = 0; k < r->cur->nfr; k++)
				live_status(m, r->cur->fr[k], false);
		for (int ac = 0; ac < AQ_NUM_AC; ac++)
			for (struct aq_frame *f = r->ac[ac].head; f; f = f->next)
				live_status(m, f, false);
		aq_radio_flush(m, i);
	}
}

static int stats_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 4)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The numbers of the extension in this kernel (hwsim_proto.h): from the
 * patched hwsim's ext_attrs parameter; none on a stock kernel, which may use
 * those numbers for its own attributes.  AQ_HWSIM_EXT_FILE overrides the
 * path (tests).
 */
static int hwsim_ext_read(struct live *l)
{
	const char *path = getenv("AQ_HWSIM_EXT_FILE");
	char line[512], err[160];
	FILE *f;

	if (!path || !*path)
		path = AQ_HWSIM_EXT_PARAM;
	if (!l->o->hwsim_ext) {
		fprintf(stderr, "aqmedium: hwsim extensions off (hwsim_ext false)\n");
		return 0;
	}
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "aqmedium: no %s: a stock mac80211_hwsim, hwsim extensions "
			"off (the wmediumd protocol only)\n", path);
		return 0;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	if (aq_hwsim_ext_parse(line, &l->ext, err, sizeof(err)) < 0) {
		fprintf(stderr, "aqmedium: %s: %s\n", path, err);
		return -1;
	}
	fprintf(stderr, "aqmedium: hwsim extensions on: %s", line);
	return 0;
}

int aq_live_run(struct aq_medium *m, struct aq_opts *o)
{
	struct live l = { .m = m, .o = o };
	struct nl_msg *msg;
	struct pollfd pfd[3];
	sigset_t ss;
	int sfd, lfd = -1, grp, err, nfd;
	int64_t end = 0;

	l.sk = nl_socket_alloc();
	if (!l.sk || genl_connect(l.sk)) {
		fprintf(stderr, "aqmedium: cannot open generic netlink\n");
		return 1;
	}
	l.family = genl_ctrl_resolve(l.sk, HWSIM_GENL_NAME);
	if (l.family < 0) {
		fprintf(stderr, "aqmedium: %s family not found (modprobe mac80211_hwsim?)\n",
			HWSIM_GENL_NAME);
		nl_socket_free(l.sk);
		return 1;
	}
	if (hwsim_ext_read(&l) < 0) {
		nl_socket_free(l.sk);
		return 1;
	}
	grp = genl_ctrl_resolve_grp(l.sk, HWSIM_GENL_NAME, HWSIM_MCGRP_CONFIG_NAME);
	if (grp >= 0)
		nl_socket_add_membership(l.sk, grp);
	nl_socket_set_buffer_size(l.sk, 8 << 20, 8 << 20);
	{
		/* beyond rmem_max when root: bursts while we are descheduled */
		int sz = 16 << 20, fd = nl_socket_get_fd(l.sk);

		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz));
	}
	msg = new_msg(&l, HWSIM_CMD_REGISTER, AQ_NL_HEADROOM);
	err = msg ? nl_send_sync(l.sk, msg) : -NLE_NOMEM;
	if (err < 0) {
		fprintf(stderr, "aqmedium: HWSIM_CMD_REGISTER failed: %s%s\n", nl_geterror(err),
			err == -NLE_BUSY || err == -NLE_EXIST ? " (another medium is registered)" : "");
		nl_socket_free(l.sk);
		return 1;
	}
	nl_socket_disable_seq_check(l.sk);
	/* no NLM_F_ACK on frames and statuses: errors still come back */
	nl_socket_disable_auto_ack(l.sk);
	nl_socket_modify_cb(l.sk, NL_CB_VALID, NL_CB_CUSTOM, rx_cb, &l);
	nl_socket_modify_err_cb(l.sk, NL_CB_CUSTOM, err_cb, &l);
	nl_socket_set_nonblocking(l.sk);

	m->ops.priv = &l;
	m->ops.deliver = live_deliver;
	m->ops.tx_status = live_status;
	aq_set_clock(m, aq_mono_ns());
	if (o->duration_s > 0)
		end = m->now + (int64_t)(o->duration_s * AQ_NS_PER_S);

	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGUSR1);
	sigaddset(&ss, SIGHUP);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	sfd = signalfd(-1, &ss, SFD_CLOEXEC | SFD_NONBLOCK);
	if (o->stats_socket[0]) {
		lfd = stats_listen(o->stats_socket);
		if (lfd < 0)
			fprintf(stderr, "aqmedium: cannot listen on %s: %m\n", o->stats_socket);
	}
	fprintf(stderr, "aqmedium: registered with mac80211_hwsim (%u radios configured)\n",
		m->n_radios);

	while (!l.stop) {
		int64_t now = aq_mono_ns(), next, due = aq_next_event_time(m);
		struct timespec ts;

		/* how late the medium acts on its own events (host load) */
		aq_note_lateness(m, now, due);
		aq_run_until(m, now);
		if (end && now >= end)
			break;
		next = aq_next_event_time(m);
		if (end && next > end)
			next = end;
		if (next == INT64_MAX)
			next = now + AQ_NS_PER_S;
		if (next < now)
			next = now;
		ts.tv_sec = (next - now) / AQ_NS_PER_S;
		ts.tv_nsec = (next - now) % AQ_NS_PER_S;
		pfd[0] = (struct pollfd){ .fd = nl_socket_get_fd(l.sk), .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		nfd = 2;
		if (lfd >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (ppoll(pfd, nfd, &ts, NULL) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN) {
			for (int i = 0; i < 256; i++) {
				err = nl_recvmsgs_default(l.sk);
				if (err == -NLE_AGAIN)
					break;
				if (err == -NLE_NOMEM) {
					m->st.nl_rx_overflows++;	/* ENOBUFS */
				} else if (err < 0) {
					m->st.nl_errors++;
					break;
				}
			}
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGUSR1)
					dump_stats(&l, o->stats_file, stderr);
				else
					l.stop = true;
			}
		}
		if (lfd >= 0 && nfd > 2 && (pfd[2].revents & POLLIN)) {
			int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0) {
				FILE *f = fdopen(c, "w");

				if (f) {
					aq_stats_json(m, f);
					fclose(f);
				} else {
					close(c);
				}
			}
		}
	}
	aq_run_until(m, aq_mono_ns());
	flush_all(&l);
	dump_stats(&l, o->stats_file, stdout);
	if (lfd >= 0) {
		close(lfd);
		unlink(o->stats_socket);
	}
	close(sfd);
	nl_socket_free(l.sk);
	return 0;
}
