// SPDX-License-Identifier: GPL-2.0-only
/*
 * The medium's netlink path fed garbage (issue #20's stress): every
 * message mac80211_hwsim's generic netlink family could send it, and worse,
 * goes through live.c's own receive callback, rx_cb(): libnl's
 * genlmsg_parse() with live.c's attribute policy, then handle_frame(),
 * handle_maddr() and handle_radio().  fuzz-frames drives aq_enqueue()
 * behind them; this drives the parsing in front.
 *
 * Messages: every hwsim command and unknown ones; genetlink headers cut
 * short; random subsets of attributes of every type up to past
 * HWSIM_ATTR_MAX (and the patched hwsim's extension numbers), each with
 * the right length, one too short, one too long, zero, or random, with
 * NLA_F_NESTED and NLA_F_NET_BYTEORDER set at random, attribute streams cut
 * inside an attribute; transmitters that are the medium's radios, hwsim
 * addresses it does not know (it adds them) and random ones; frames from
 * 0 to 3000 bytes.  The simulated time moves on between messages, so
 * frames are delivered and their statuses sent (to a netlink socket that
 * is not connected: sending fails, as when the kernel refuses).
 *
 * Built with ASan (leaks included) and UBSan by tests/host/fuzz-netlink,
 * which asserts no sanitizer report; this program asserts the clock only
 * moves forward and reports what the medium counted.
 *
 * Usage: fuzz-netlink [messages [seed]]
 */
#include "../../live.c"
#include "fuzz-rand.h"

/* the length an attribute of @type is meant to have, 0 for "any" */
static unsigned int want_len(int type)
{
	switch (type) {
	case HWSIM_ATTR_ADDR_RECEIVER:
	case HWSIM_ATTR_ADDR_TRANSMITTER:
		return 6;
	case HWSIM_ATTR_FLAGS:
	case HWSIM_ATTR_RX_RATE:
	case HWSIM_ATTR_SIGNAL:
	case HWSIM_ATTR_RADIO_ID:
	case HWSIM_ATTR_FREQ:
		return 4;
	case HWSIM_ATTR_COOKIE:
		return 8;
	case HWSIM_ATTR_TX_INFO:
		return sizeof(struct hwsim_tx_rate) * HWSIM_TX_MAX_RATES;
	case HWSIM_ATTR_TX_INFO_FLAGS:
		return sizeof(struct hwsim_tx_rate_flag) * HWSIM_TX_MAX_RATES;
	default:
		return 0;
	}
}

/* a transmitter: one of the medium's radios, a hwsim address, or random */
static void mk_addr(struct aq_medium *m, uint8_t *a)
{
	unsigned int k = below(4);

	if (k == 0 && m->n_radios) {
		memcpy(a, m->radio[below(m->n_radios)].addr, 6);
		return;
	}
	for (int i = 0; i < 6; i++)
		a[i] = (uint8_t)rnd();
	if (k <= 2)
		aq_hwsim_index_addr((int)below(k == 1 ? 4 : 70000), a, NULL);
}

/* one attribute at @p (room for @cap bytes); returns the bytes used */
static unsigned int mk_attr(struct aq_medium *m, uint8_t *p, unsigned int cap)
{
	static const int ext[] = { 30, 31, 32, 33, 34, 35, 36 };
	struct nlattr *na = (struct nlattr *)p;
	unsigned int k = below(10), len, want;
	int type;

	if (k < 7)
		type = 1 + (int)below(HWSIM_ATTR_MAX);
	else if (k < 9)
		type = ext[below(7)];
	else
		type = (int)below(200);
	want = want_len(type);
	switch (below(8)) {
	case 0:
		len = 0;
		break;
	case 1:
		len = want ? want - 1 : below(5);
		break;
	case 2:
		len = want + 1 + below(8);
		break;
	case 3:
		len = below(64);
		break;
	default:
		len = want ? want : (type == HWSIM_ATTR_FRAME ? below(3000) : below(40));
	}
	if (NLA_HDRLEN + len > cap)
		len = cap > NLA_HDRLEN ? cap - NLA_HDRLEN : 0;
	if (NLA_HDRLEN > cap)
		return 0;
	na->nla_type = (uint16_t)type;
	if (!below(16))
		na->nla_type |= NLA_F_NESTED;
	if (!below(16))
		na->nla_type |= NLA_F_NET_BYTEORDER;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	for (unsigned int i = 0; i < len; i++)
		p[NLA_HDRLEN + i] = (uint8_t)rnd();
	if ((type == HWSIM_ATTR_ADDR_TRANSMITTER || type == HWSIM_ATTR_ADDR_RECEIVER) &&
	    len >= 6)
		mk_addr(m, p + NLA_HDRLEN);
	if (type == HWSIM_ATTR_FRAME && len >= 2 && below(2))
		p[NLA_HDRLEN] = (uint8_t)(below(3) << 2 | below(16) << 4);
	return NLA_ALIGN(NLA_HDRLEN + len);
}

int main(int argc, char **argv)
{
	static const enum aq_std stds[] = { AQ_STD_B, AQ_STD_G, AQ_STD_A, AQ_STD_N5 };
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_opts o = { 0 };
	struct live l = { .m = m, .o = &o };
	uint8_t *buf = calloc(1, 16384);
	unsigned long per_cmd[16] = { 0 };
	struct aq_phy phy;
	int64_t last = 0;
	int bad = 0;

	st = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (!m || !buf)
		return 1;
	aq_phy_defaults(&phy, stds[below(4)]);
	aq_init(m, &phy, seed);
	m->chan.model = 1;
	m->chan.default_snr_db = 5 + below(40);
	for (int i = 0; i < 3; i++) {
		uint8_t a[6];

		aq_hwsim_index_addr(i, a, NULL);
		aq_radio_add(m, "hwsim", a);
		m->radio[i].hwsim_index = i;
	}
	l.sk = nl_socket_alloc();	/* never connected: every send fails */
	l.family = 42;
	if (!l.sk)
		return 1;
	m->ops.priv = &l;
	m->ops.deliver = live_deliver;
	m->ops.tx_status = live_status;
	aq_set_clock(m, 0);
	for (unsigned long i = 0; i < n; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		struct genlmsghdr *gh = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);
		unsigned int used = NLMSG_HDRLEN + GENL_HDRLEN, na = below(12);
		struct nl_msg *msg;
		int cmd = below(8) ? (int)below(HWSIM_CMD_DEL_MAC_ADDR + 3) : (int)below(256);

		o.unknown_add = below(2);
		memset(buf, 0, 16384);
		gh->cmd = (uint8_t)cmd;
		gh->version = (uint8_t)below(3);
		/* a frame message is mostly well formed, so it gets far */
		if (cmd == HWSIM_CMD_FRAME && below(2)) {
			static const int need[] = { HWSIM_ATTR_ADDR_TRANSMITTER, HWSIM_ATTR_FRAME,
						    HWSIM_ATTR_FLAGS, HWSIM_ATTR_TX_INFO,
						    HWSIM_ATTR_COOKIE };

			for (int k = 0; k < 5; k++) {
				struct nlattr *a = (struct nlattr *)(buf + used);
				unsigned int len = need[k] == HWSIM_ATTR_FRAME ?
						   10 + below(2990) : want_len(need[k]);

				a->nla_type = (uint16_t)need[k];
				a->nla_len = (uint16_t)(NLA_HDRLEN + len);
				for (unsigned int b = 0; b < len; b++)
					buf[used + NLA_HDRLEN + b] = (uint8_t)rnd();
				if (need[k] == HWSIM_ATTR_ADDR_TRANSMITTER)
					mk_addr(m, buf + used + NLA_HDRLEN);
				if (need[k] == HWSIM_ATTR_TX_INFO && below(2))
					for (int r = 0; r < HWSIM_TX_MAX_RATES; r++) {
						/* { s8 idx; u8 count; } */
						buf[used + NLA_HDRLEN + 2 * r] =
							(uint8_t)below(12);
						buf[used + NLA_HDRLEN + 2 * r + 1] =
							(uint8_t)below(8);
					}
				used += NLA_ALIGN(NLA_HDRLEN + len);
			}
		}
		for (unsigned int k = 0; k < na; k++)
			used += mk_attr(m, buf + used, 16384 - used);
		switch (below(10)) {
		case 0:		/* cut inside the genetlink header or an attribute */
			used = NLMSG_HDRLEN + below(used - NLMSG_HDRLEN + 1);
			break;
		default:
			break;
		}
		nlh->nlmsg_len = used;
		nlh->nlmsg_type = (uint16_t)l.family;
		msg = nlmsg_convert(nlh);
		if (!msg)
			return 1;
		per_cmd[cmd < 15 ? cmd : 15]++;
		rx_cb(msg, &l);
		nlmsg_free(msg);
		/* time moves on: the medium sends frames and statuses */
		aq_run_until(m, m->now + (int64_t)below(4000) * 1000);
		if (m->now < last) {
			printf("# clock went back: %lld -> %lld\n",
			       (long long)last, (long long)m->now);
			bad = 1;
		}
		last = m->now;
	}
	aq_run_until(m, m->now + 60LL * 1000000000);
	for (unsigned int i = 0; i < m->n_radios; i++)
		if (m->radio[i].present && (m->radio[i].addr[0] & 1)) {
			printf("# radio %u has a group address (%02x:...): a transmitter cannot\n",
			       i, m->radio[i].addr[0]);
			bad = 1;
			break;
		}
	printf("# %lu messages (frame %lu, add/del mac %lu/%lu, new/del radio %lu/%lu, "
	       "unknown commands %lu): %llu malformed, %llu unknown commands, "
	       "%llu from unknown radios, %llu transmissions, %u radios at the end\n",
	       n, per_cmd[HWSIM_CMD_FRAME], per_cmd[HWSIM_CMD_ADD_MAC_ADDR],
	       per_cmd[HWSIM_CMD_DEL_MAC_ADDR], per_cmd[HWSIM_CMD_NEW_RADIO],
	       per_cmd[HWSIM_CMD_DEL_RADIO], per_cmd[15],
	       (unsigned long long)m->st.bad_msgs, (unsigned long long)m->st.unknown_msgs,
	       (unsigned long long)m->st.unknown_radio_frames,
	       (unsigned long long)m->st.transmissions, m->n_radios);
	aq_fini(m);
	free(m);
	free(buf);
	nl_socket_free(l.sk);
	return bad;
}
