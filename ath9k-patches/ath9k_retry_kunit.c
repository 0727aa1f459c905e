// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ath9k's retry helpers (drivers/net/wireless/ath/ath9k/
 * retry.h from ath9k-patches/): classification of ath9k tx buffers
 * (TCP, EAPOL, pure TCP ACKs for the OBSS rules' rule 1), rate
 * table clamping across the four series, the Block Ack retry verdict, the
 * 6-bit attempt counter, attempts of a tx status and the hardware
 * timestamp conversion.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include "ath9k_retry.h"

#define QOS_HDR_LEN	26
#define HDR_LEN		24

/*
 * Build an ath9k tx buffer: 802.11 data header (QoS or not), ath9k's
 * padding, @iv bytes of IV space, LLC/SNAP with @ethertype, then @l3 of
 * @l3_len bytes.  Return its length.
 */
static unsigned int mk_frame(u8 *buf, bool qos, bool prot, bool amsdu,
			     unsigned int iv, u16 ethertype, const u8 *l3,
			     unsigned int l3_len)
{
	struct ieee80211_hdr *hdr = (void *)buf;
	unsigned int hdrlen = qos ? QOS_HDR_LEN : HDR_LEN, off;
	static const u8 snap[6] = { 0xaa, 0xaa, 0x03, 0, 0, 0 };

	memset(buf, 0, 256);
	hdr->frame_control = cpu_to_le16(IEEE80211_FTYPE_DATA |
					 (qos ? IEEE80211_STYPE_QOS_DATA :
						IEEE80211_STYPE_DATA));
	if (prot)
		hdr->frame_control |= cpu_to_le16(IEEE80211_FCTL_PROTECTED);
	if (qos && amsdu)
		buf[QOS_HDR_LEN - 2] |= IEEE80211_QOS_CTL_A_MSDU_PRESENT;
	off = hdrlen + (hdrlen & 3);
	if (qos && amsdu)
		off += ETH_HLEN;
	off += iv;
	memset(buf + hdrlen, 0x5a, off - hdrlen);	/* pad, IV: junk */
	memcpy(buf + off, snap, sizeof(snap));
	buf[off + 6] = ethertype >> 8;
	buf[off + 7] = ethertype & 0xff;
	memcpy(buf + off + 8, l3, l3_len);
	return off + 8 + l3_len;
}

static const u8 ipv4_tcp[40] = { 0x45, 0, 0, 40, 0, 0, 0x40, 0, 64, IPPROTO_TCP };
static const u8 ipv4_udp[28] = { 0x45, 0, 0, 28, 0, 0, 0x40, 0, 64, IPPROTO_UDP };
static const u8 ipv6_tcp[60] = { 0x60, 0, 0, 0, 0, 20, IPPROTO_TCP, 64 };
static const u8 eapol[8] = { 0x02, 0x03, 0, 0x5f };

static void classify_padded_qos(struct kunit *test)
{
	u8 buf[256];
	unsigned int len;

	/* QoS header (26 bytes) + 2 bytes of ath9k padding */
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, len, 28U + 8 + 40);
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);

	len = mk_frame(buf, true, false, false, 0, ETH_P_IPV6, ipv6_tcp,
		       sizeof(ipv6_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);

	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_udp,
		       sizeof(ipv4_udp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);

	len = mk_frame(buf, true, false, false, 0, ETH_P_PAE, eapol,
		       sizeof(eapol));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_EAPOL);
}

/* mac80211's parser (no padding) would miss these: ours must not. */
static void classify_unpadded_offset_fails(struct kunit *test)
{
	u8 buf[256];
	unsigned int len;

	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	/* remove the padding: the payload now starts at 26, not 28 */
	memmove(buf + QOS_HDR_LEN, buf + QOS_HDR_LEN + 2, len - QOS_HDR_LEN - 2);
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len - 2),
			ATH_RETRY_CLASS_OTHER);
}

static void classify_non_qos(struct kunit *test)
{
	u8 buf[256];
	unsigned int len;

	/* 24-byte header: no padding */
	len = mk_frame(buf, false, false, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, len, 24U + 8 + 40);
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);
}

static void classify_protected_iv(struct kunit *test)
{
	u8 buf[256];
	unsigned int len;

	/* hardware crypto without IV space: payload right after the pad */
	len = mk_frame(buf, true, true, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);
	/* CCMP/TKIP IV space */
	len = mk_frame(buf, true, true, false, 8, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);
	/* WEP IV space */
	len = mk_frame(buf, true, true, false, 4, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);
	/* the same bytes in an unprotected frame are not skipped */
	len = mk_frame(buf, true, false, false, 8, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);
}

static void classify_amsdu(struct kunit *test)
{
	u8 buf[256];
	unsigned int len;

	len = mk_frame(buf, true, false, true, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len), ATH_RETRY_CLASS_TCP);
}

/*
 * IPv4/IPv6 + TCP with @doff header bytes, @data payload bytes, @flags into
 * @l3 of @cap bytes.  Return its length, 0 if it does not fit (the checks
 * on the empty frame then fail instead of the stack being overrun).
 */
static unsigned int mk_tcp(u8 *l3, size_t cap, bool v6, unsigned int doff,
			   unsigned int data, u8 flags)
{
	unsigned int ihl = v6 ? 40 : 20, tot = ihl + doff + data;

	if (tot > cap)
		return 0;
	memset(l3, 0, tot);
	if (v6) {
		l3[0] = 0x60;
		l3[4] = (doff + data) >> 8;
		l3[5] = (doff + data) & 0xff;
		l3[6] = IPPROTO_TCP;
	} else {
		l3[0] = 0x45;
		l3[2] = tot >> 8;
		l3[3] = tot & 0xff;
		l3[6] = 0x40;
		l3[9] = IPPROTO_TCP;
	}
	l3[ihl + 12] = (doff / 4) << 4;
	l3[ihl + 13] = flags;
	return tot;
}

static void pure_ack(struct kunit *test)
{
	u8 buf[256], l3[192];
	unsigned int len, n;

	/* IPv4: bare, timestamps, timestamps + 3 SACK blocks */
	n = mk_tcp(l3, sizeof(l3), false, 20, 0, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 32, 0, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 60, 0, 0x18);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	/* behind CCMP IV space, and without QoS */
	n = mk_tcp(l3, sizeof(l3), false, 32, 0, 0x10);
	len = mk_frame(buf, true, true, false, 8, ETH_P_IP, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	len = mk_frame(buf, false, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));

	/* IPv6: timestamps, SACK */
	n = mk_tcp(l3, sizeof(l3), true, 32, 0, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IPV6, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), true, 60, 0, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IPV6, l3, n);
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));

	/* data segments, SYN-ACK, FIN, RST, no ACK flag */
	n = mk_tcp(l3, sizeof(l3), false, 32, 1, 0x18);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), true, 32, 100, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IPV6, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 40, 0, 0x12);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 32, 0, 0x11);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 20, 0, 0x14);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	n = mk_tcp(l3, sizeof(l3), false, 20, 0, 0);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	/* a fragment; UDP; EAPOL */
	n = mk_tcp(l3, sizeof(l3), false, 20, 0, 0x10);
	l3[6] |= 0x20;
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_udp,
		       sizeof(ipv4_udp));
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	len = mk_frame(buf, true, false, false, 0, ETH_P_PAE, eapol,
		       sizeof(eapol));
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len));
	/* truncated before the TCP flags */
	n = mk_tcp(l3, sizeof(l3), false, 20, 0, 0x10);
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, l3, n);
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len - 7));
}

static void pure_ack_amsdu(struct kunit *test)
{
	u8 buf[256], l3[64];
	unsigned int len, n, sub = QOS_HDR_LEN + 2;

	/* one subframe: its length field covers the whole MSDU */
	n = mk_tcp(l3, sizeof(l3), false, 32, 0, 0x10);
	len = mk_frame(buf, true, false, true, 0, ETH_P_IP, l3, n);
	buf[sub + 12] = 0;
	buf[sub + 13] = 8 + n;
	KUNIT_EXPECT_TRUE(test, ath_retry_is_pure_ack(buf, len));
	/* a second subframe behind the first: not only an ACK */
	KUNIT_EXPECT_FALSE(test, ath_retry_is_pure_ack(buf, len + 14 + 60));
}

static void classify_rejects(struct kunit *test)
{
	u8 buf[256], bad_ip[40];
	struct ieee80211_hdr *hdr = (void *)buf;
	unsigned int len, i;

	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	/* every truncation of a TCP frame: never TCP past the buffer end */
	for (i = 0; i < 28 + 8 + 20; i++)
		KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, i),
				ATH_RETRY_CLASS_OTHER);
	/* the IPv4 header must fit: 20 bytes after LLC/SNAP are enough */
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, 28 + 8 + 20),
			ATH_RETRY_CLASS_TCP);

	/* management frame with the same bytes */
	hdr->frame_control = cpu_to_le16(IEEE80211_FTYPE_MGMT |
					 IEEE80211_STYPE_ACTION);
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);
	/* QoS null frame: no payload */
	hdr->frame_control = cpu_to_le16(IEEE80211_FTYPE_DATA |
					 IEEE80211_STYPE_QOS_NULLFUNC);
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);

	/* IPv4 header length below 20 bytes, and version 6 in an IPv4 frame */
	memcpy(bad_ip, ipv4_tcp, sizeof(bad_ip));
	bad_ip[0] = 0x44;
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, bad_ip,
		       sizeof(bad_ip));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);
	bad_ip[0] = 0x65;
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, bad_ip,
		       sizeof(bad_ip));
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);

	/* no LLC/SNAP */
	len = mk_frame(buf, true, false, false, 0, ETH_P_IP, ipv4_tcp,
		       sizeof(ipv4_tcp));
	buf[28] = 0x42;
	KUNIT_EXPECT_EQ(test, ath_retry_classify(buf, len),
			ATH_RETRY_CLASS_OTHER);
}

static void set_rates(struct ieee80211_tx_rate *r, const int *counts)
{
	int i;

	for (i = 0; i < 4; i++) {
		r[i].idx = counts[i] ? i : -1;
		r[i].count = counts[i];
		r[i].flags = 0;
	}
}

static void clamp_total_and_series(struct kunit *test)
{
	struct ieee80211_tx_rate r[4];
	static const int seven[4] = { 7, 7, 7, 7 };
	static const int big[4] = { 20, 2, 0, 0 };

	/* L = 3: all in the first series, the rest ended */
	set_rates(r, seven);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 3, 15), 3U);
	KUNIT_EXPECT_EQ(test, (int)r[0].count, 3);
	KUNIT_EXPECT_EQ(test, r[0].idx, 0);
	KUNIT_EXPECT_EQ(test, r[1].idx, -1);
	KUNIT_EXPECT_EQ(test, (int)r[1].count, 0);
	KUNIT_EXPECT_EQ(test, r[3].idx, -1);

	/* L = 10 across series: 7 + 3, rate order kept */
	set_rates(r, seven);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 10, 15), 10U);
	KUNIT_EXPECT_EQ(test, (int)r[0].count, 7);
	KUNIT_EXPECT_EQ(test, (int)r[1].count, 3);
	KUNIT_EXPECT_EQ(test, r[1].idx, 1);
	KUNIT_EXPECT_EQ(test, r[2].idx, -1);

	/* L = 28 = the table: nothing changes */
	set_rates(r, seven);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 28, 15), 28U);
	KUNIT_EXPECT_EQ(test, (int)r[3].count, 7);
	KUNIT_EXPECT_EQ(test, r[3].idx, 3);

	/* the descriptor's 4-bit field: 20 -> 15 */
	set_rates(r, big);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, UINT_MAX, 15), 17U);
	KUNIT_EXPECT_EQ(test, (int)r[0].count, 15);
	KUNIT_EXPECT_EQ(test, (int)r[1].count, 2);
}

static void clamp_edges(struct kunit *test)
{
	struct ieee80211_tx_rate r[4];
	static const int seven[4] = { 7, 7, 7, 7 };
	static const int hole[4] = { 4, 0, 0, 0 };

	/* a limit of 0 still leaves one try */
	set_rates(r, seven);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 0, 15), 1U);
	KUNIT_EXPECT_EQ(test, (int)r[0].count, 1);

	/* entries after the end of the table are left as they are */
	set_rates(r, hole);
	r[2].idx = 5;
	r[2].count = 9;
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 2, 15), 2U);
	KUNIT_EXPECT_EQ(test, (int)r[0].count, 2);
	KUNIT_EXPECT_EQ(test, r[2].idx, 5);
	KUNIT_EXPECT_EQ(test, (int)r[2].count, 9);

	/* an empty table stays empty */
	set_rates(r, seven);
	r[0].idx = -1;
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 4, 5, 15), 0U);
	KUNIT_EXPECT_EQ(test, (int)r[1].count, 7);

	/* fewer entries than four */
	set_rates(r, seven);
	KUNIT_EXPECT_EQ(test, ath_retry_clamp_tries(r, 2, 100, 15), 14U);
	KUNIT_EXPECT_EQ(test, (int)r[2].count, 7);
}

static void ba_verdict(struct kunit *test)
{
	/* native: 30 hardware attempts, B not limiting (B >= native) */
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(29, 30, 0, 30),
			ATH_RETRY_BA_RETRY);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(30, 30, 0, 30),
			ATH_RETRY_BA_DROP_NATIVE);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(63, 30, 0, 30),
			ATH_RETRY_BA_DROP_NATIVE);
	/* many software retries do not matter while B is native */
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(5, 30, 200, 30),
			ATH_RETRY_BA_RETRY);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(5, 30, 200, 255),
			ATH_RETRY_BA_RETRY);

	/* the ladder's B values count software retransmissions */
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(3, 30, 1, 2),
			ATH_RETRY_BA_RETRY);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(3, 30, 2, 2),
			ATH_RETRY_BA_DROP_POLICY);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(20, 30, 9, 10),
			ATH_RETRY_BA_RETRY);
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(20, 30, 10, 10),
			ATH_RETRY_BA_DROP_POLICY);
	/* the native limit is checked first */
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(30, 30, 10, 2),
			ATH_RETRY_BA_DROP_NATIVE);
	/* B = 0 (never retransmit) would drop at once */
	KUNIT_EXPECT_EQ(test, ath_retry_ba_verdict(1, 30, 0, 0),
			ATH_RETRY_BA_DROP_POLICY);
}

static void attempts_counter(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ath_retry_attempts_add(0, 5), 5U);
	KUNIT_EXPECT_EQ(test, ath_retry_attempts_add(29, 34), 63U);
	KUNIT_EXPECT_EQ(test, ath_retry_attempts_add(60, 10), 63U);
	KUNIT_EXPECT_EQ(test, ath_retry_attempts_add(63, 1), 63U);
	/* the result always fits the 6-bit field */
	KUNIT_EXPECT_LE(test, ath_retry_attempts_add(29, 4 * 15),
			(unsigned int)ATH_RETRY_ATTEMPTS_MAX);
}

static void tstamp(struct kunit *test)
{
	u64 now = 10ULL * NSEC_PER_SEC, done = 0;

	/* 1 ms before the TSF read */
	KUNIT_EXPECT_TRUE(test, ath_retry_tstamp_ns(now, 5000, 4000, &done));
	KUNIT_EXPECT_EQ(test, done, now - 1000000);
	/* same microsecond */
	KUNIT_EXPECT_TRUE(test, ath_retry_tstamp_ns(now, 5000, 5000, &done));
	KUNIT_EXPECT_EQ(test, done, now);
	/* across the 32-bit TSF wrap: 0xffffff00 -> 100 is 356 us */
	KUNIT_EXPECT_TRUE(test, ath_retry_tstamp_ns(now, 100, 0xffffff00,
						    &done));
	KUNIT_EXPECT_EQ(test, done, now - 356000);
	/* in the future: rejected, @done untouched */
	done = 42;
	KUNIT_EXPECT_FALSE(test, ath_retry_tstamp_ns(now, 5000, 5001, &done));
	KUNIT_EXPECT_EQ(test, done, 42ULL);
	/* older than a second: rejected */
	KUNIT_EXPECT_FALSE(test, ath_retry_tstamp_ns(now, 2000001, 1000, &done));
	KUNIT_EXPECT_TRUE(test, ath_retry_tstamp_ns(now, 1001000, 1000, &done));
	/* never before the clock's origin */
	KUNIT_EXPECT_FALSE(test, ath_retry_tstamp_ns(500, 5000, 4000, &done));
}

static struct kunit_case ath9k_retry_cases[] = {
	KUNIT_CASE(classify_padded_qos),
	KUNIT_CASE(classify_unpadded_offset_fails),
	KUNIT_CASE(classify_non_qos),
	KUNIT_CASE(classify_protected_iv),
	KUNIT_CASE(classify_amsdu),
	KUNIT_CASE(classify_rejects),
	KUNIT_CASE(pure_ack),
	KUNIT_CASE(pure_ack_amsdu),
	KUNIT_CASE(clamp_total_and_series),
	KUNIT_CASE(clamp_edges),
	KUNIT_CASE(ba_verdict),
	KUNIT_CASE(attempts_counter),
	KUNIT_CASE(tstamp),
	{}
};

static struct kunit_suite ath9k_retry_suite = {
	.name = "ath9k_retry",
	.test_cases = ath9k_retry_cases,
};

kunit_test_suite(ath9k_retry_suite);

MODULE_DESCRIPTION("KUnit tests of ath9k's retry helpers");
MODULE_LICENSE("GPL");
