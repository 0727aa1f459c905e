/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mac80211_hwsim generic netlink protocol, as spoken by the airqueue medium.
 *
 * The numbers below are those of Linux 6.12
 * drivers/net/wireless/virtual/mac80211_hwsim.h (enum hwsim_commands,
 * enum hwsim_attrs, enum hwsim_tx_control_flags, struct hwsim_tx_rate,
 * enum hwsim_tx_rate_flags).  They are ABI and must not change; this file
 * only restates them because the header is not exported to user space.
 *
 * The airqueue testbed extension (testbed/hwsim-patches/) has no fixed
 * numbers here: see struct aq_hwsim_ext at the end.
 */
#ifndef AQ_HWSIM_PROTO_H
#define AQ_HWSIM_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#define HWSIM_GENL_NAME		"MAC80211_HWSIM"
#define HWSIM_MCGRP_CONFIG_NAME	"config"
#define HWSIM_GENL_VERSION	1

enum {
	HWSIM_CMD_UNSPEC,
	HWSIM_CMD_REGISTER,
	HWSIM_CMD_FRAME,
	HWSIM_CMD_TX_INFO_FRAME,
	HWSIM_CMD_NEW_RADIO,
	HWSIM_CMD_DEL_RADIO,
	HWSIM_CMD_GET_RADIO,
	HWSIM_CMD_ADD_MAC_ADDR,
	HWSIM_CMD_DEL_MAC_ADDR,
	HWSIM_CMD_START_PMSR,
	HWSIM_CMD_ABORT_PMSR,
	HWSIM_CMD_REPORT_PMSR,
	__HWSIM_CMD_MAX,
};

enum {
	HWSIM_ATTR_UNSPEC,
	HWSIM_ATTR_ADDR_RECEIVER,		/* 1 */
	HWSIM_ATTR_ADDR_TRANSMITTER,		/* 2 */
	HWSIM_ATTR_FRAME,			/* 3 */
	HWSIM_ATTR_FLAGS,			/* 4 */
	HWSIM_ATTR_RX_RATE,			/* 5 */
	HWSIM_ATTR_SIGNAL,			/* 6 */
	HWSIM_ATTR_TX_INFO,			/* 7 */
	HWSIM_ATTR_COOKIE,			/* 8 */
	HWSIM_ATTR_CHANNELS,			/* 9 */
	HWSIM_ATTR_RADIO_ID,			/* 10 */
	HWSIM_ATTR_REG_HINT_ALPHA2,		/* 11 */
	HWSIM_ATTR_REG_CUSTOM_REG,		/* 12 */
	HWSIM_ATTR_REG_STRICT_REG,		/* 13 */
	HWSIM_ATTR_SUPPORT_P2P_DEVICE,		/* 14 */
	HWSIM_ATTR_USE_CHANCTX,			/* 15 */
	HWSIM_ATTR_DESTROY_RADIO_ON_CLOSE,	/* 16 */
	HWSIM_ATTR_RADIO_NAME,			/* 17 */
	HWSIM_ATTR_NO_VIF,			/* 18 */
	HWSIM_ATTR_FREQ,			/* 19 */
	HWSIM_ATTR_PAD,				/* 20 */
	HWSIM_ATTR_TX_INFO_FLAGS,		/* 21 */
	HWSIM_ATTR_PERM_ADDR,			/* 22 */
	HWSIM_ATTR_IFTYPE_SUPPORT,		/* 23 */
	HWSIM_ATTR_CIPHER_SUPPORT,		/* 24 */
	HWSIM_ATTR_MLO_SUPPORT,			/* 25 */
	HWSIM_ATTR_PMSR_SUPPORT,		/* 26 */
	HWSIM_ATTR_PMSR_REQUEST,		/* 27 */
	HWSIM_ATTR_PMSR_RESULT,			/* 28 */
	HWSIM_ATTR_MULTI_RADIO,			/* 29 */
	__HWSIM_ATTR_MAX,			/* 30 in 6.12 */
};
#define HWSIM_ATTR_MAX (__HWSIM_ATTR_MAX - 1)

/* enum hwsim_tx_control_flags */
#define HWSIM_TX_CTL_REQ_TX_STATUS	(1U << 0)
#define HWSIM_TX_CTL_NO_ACK		(1U << 1)
#define HWSIM_TX_STAT_ACK		(1U << 2)

/* enum hwsim_tx_rate_flags */
#define HWSIM_TX_RC_USE_RTS_CTS		(1U << 0)
#define HWSIM_TX_RC_USE_CTS_PROTECT	(1U << 1)
#define HWSIM_TX_RC_USE_SHORT_PREAMBLE	(1U << 2)
#define HWSIM_TX_RC_MCS			(1U << 3)
#define HWSIM_TX_RC_GREEN_FIELD		(1U << 4)
#define HWSIM_TX_RC_40_MHZ_WIDTH	(1U << 5)
#define HWSIM_TX_RC_DUP_DATA		(1U << 6)
#define HWSIM_TX_RC_SHORT_GI		(1U << 7)
#define HWSIM_TX_RC_VHT_MCS		(1U << 8)
#define HWSIM_TX_RC_80_MHZ_WIDTH	(1U << 9)
#define HWSIM_TX_RC_160_MHZ_WIDTH	(1U << 10)

#define HWSIM_TX_MAX_RATES 4	/* IEEE80211_TX_MAX_RATES */

struct hwsim_tx_rate {
	int8_t idx;
	uint8_t count;
} __attribute__((packed));

struct hwsim_tx_rate_flag {
	int8_t idx;
	uint16_t flags;
} __attribute__((packed));

/*
 * airqueue testbed extension (testbed/hwsim-patches/, documented in
 * Documentation/testbed/hwsim-patches.rst).  Its attributes take the numbers
 * after upstream's last one, so they differ between kernels, and upstream
 * has since given some of 6.12's numbers other meanings (30 is
 * HWSIM_ATTR_SUPPORT_NAN_DEVICE, a flag, in 6.18: a stock 6.18 hwsim
 * rejects a TX_INFO_FRAME with our u32 there).  The patched hwsim publishes
 * them in AQ_HWSIM_EXT_PARAM, one line of key=number pairs; a kernel
 * without that file is a stock one, and the medium then sends none of them
 * (the plain wmediumd protocol).
 *
 * tx_airtime: u32, TX_INFO_FRAME: microseconds of air the frame used over
 *	all its attempts (its share of an A-MPDU, RTS/CTS, the response):
 *	info->status.tx_time, ieee80211_sta_register_airtime().
 * rx_airtime: u32, FRAME to a receiver: the frame's share of the PPDU
 *	duration in microseconds (rx airtime).
 * chan_busy_time: u64, TX_INFO_FRAME and FRAME: cumulative microseconds the
 *	radio sensed the medium busy (CCA, NAV, own tx).
 * chan_active_time: u64, cumulative microseconds the radio has been known
 *	to the medium.
 * chan_tx_time: u64, cumulative microseconds of own transmission.
 * tx_ampdu_len: u8, TX_INFO_FRAME of a frame sent in an A-MPDU: number of
 *	subframes of that A-MPDU on exactly one subframe's status, 0 on the
 *	others' (so minstrel_ht counts the A-MPDU once).
 * tx_ampdu_acked: u8, subframes acknowledged by its Block Ack.
 * tx_ctl_ampdu: HWSIM_ATTR_FLAGS bit, kernel->medium: the frame belongs to a
 *	Block Ack session (IEEE80211_TX_CTL_AMPDU) and may be aggregated.
 */
#define AQ_HWSIM_EXT_PARAM	"/sys/module/mac80211_hwsim/parameters/ext_attrs"
#define AQ_HWSIM_EXT_ATTR_MAX	16383	/* nla_type(): 14 bits */

struct aq_hwsim_ext {
	bool present;		/* the kernel published the numbers */
	int tx_airtime;
	int rx_airtime;
	int chan_busy_time;
	int chan_active_time;
	int chan_tx_time;
	int tx_ampdu_len;
	int tx_ampdu_acked;
	uint32_t tx_ctl_ampdu;
};

#endif /* AQ_HWSIM_PROTO_H */
