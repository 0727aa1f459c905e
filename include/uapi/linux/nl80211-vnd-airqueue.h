/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nl80211 vendor commands of mac80211's adaptive retry policy
 *
 * Copyright (C) 2026 airqueue developers
 *
 * The policy is configured with NL80211_CMD_VENDOR: NL80211_ATTR_VENDOR_ID
 * AIRQUEUE_VENDOR_ID, NL80211_ATTR_VENDOR_SUBCMD one of enum
 * airqueue_retry_vendor_cmd, and the command's attributes (enum
 * airqueue_retry_vendor_attr) nested in NL80211_ATTR_VENDOR_DATA, which
 * must carry NLA_F_NESTED.  nl80211 checks them against the command's
 * policy (types, lengths and ranges, unknown attributes refused) and
 * answers a violation with an extended ACK message; a combination of
 * values that the policy refuses (for example L_OBSS above L_NON_OBSS) is
 * answered with -EINVAL and the reason in the kernel log, since vendor
 * commands get no extended ACK.  nl80211 requires CAP_NET_ADMIN.
 *
 * Per-station limits per TID are not here: they are nl80211's own
 * NL80211_CMD_SET_TID_CONFIG (NL80211_TID_CONFIG_ATTR_RETRY_SHORT/_LONG).
 */

#ifndef __UAPI_NL80211_VND_AIRQUEUE_H
#define __UAPI_NL80211_VND_AIRQUEUE_H

/*
 * The project holds no IEEE OUI: its vendor ID is an administratively
 * assigned identifier (the low nibble of the first octet is 2, the SLAP
 * quadrant that IEEE 802c leaves to local administration), which no IEEE
 * assignment can take.
 */
#define AIRQUEUE_VENDOR_ID	0x02a10e

/**
 * enum airqueue_retry_vendor_cmd - subcommands of AIRQUEUE_VENDOR_ID
 * @AIRQUEUE_RETRY_CMD_INVALID: not used
 * @AIRQUEUE_RETRY_CMD_GET: the phy's mode, parameters and channel
 *	estimate setting (the wiphy from NL80211_ATTR_WIPHY or
 *	NL80211_ATTR_IFINDEX); the reply carries %AIRQUEUE_RETRY_ATTR_MODE,
 *	%AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC, %AIRQUEUE_RETRY_ATTR_PROB_AUTO (if
 *	the estimate follows the channel survey) and every parameter
 * @AIRQUEUE_RETRY_CMD_SET: change the phy's configuration: any of
 *	%AIRQUEUE_RETRY_ATTR_MODE, the parameters, and either
 *	%AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC (a fixed channel estimate) or
 *	%AIRQUEUE_RETRY_ATTR_PROB_AUTO; applied together or not at all
 * @AIRQUEUE_RETRY_CMD_GET_STA: a station's override and state; needs
 *	NL80211_ATTR_IFINDEX and %AIRQUEUE_RETRY_ATTR_MAC
 * @AIRQUEUE_RETRY_CMD_SET_STA: set a station's mode override
 *	(%AIRQUEUE_RETRY_ATTR_STA_MODE, %AIRQUEUE_RETRY_MODE_INHERIT clears
 *	it); needs NL80211_ATTR_IFINDEX and %AIRQUEUE_RETRY_ATTR_MAC
 * @NUM_AIRQUEUE_RETRY_CMD: number of subcommands, plus one
 */
enum airqueue_retry_vendor_cmd {
	AIRQUEUE_RETRY_CMD_INVALID,
	AIRQUEUE_RETRY_CMD_GET,
	AIRQUEUE_RETRY_CMD_SET,
	AIRQUEUE_RETRY_CMD_GET_STA,
	AIRQUEUE_RETRY_CMD_SET_STA,

	NUM_AIRQUEUE_RETRY_CMD,
};

/**
 * enum airqueue_retry_mode - policy modes
 * @AIRQUEUE_RETRY_MODE_OFF: mac80211's rate control decides the tries
 * @AIRQUEUE_RETRY_MODE_FIXED: fixed limits for frames sent as AP and as
 *	station (%AIRQUEUE_RETRY_ATTR_FIXED_AP, %AIRQUEUE_RETRY_ATTR_FIXED_STA)
 * @AIRQUEUE_RETRY_MODE_OBSS: the DCF limit follows the overlapping-BSS
 *	rules (Park, 2014)
 * @AIRQUEUE_RETRY_MODE_RATE: the Block Ack limit of TCP A-MPDU subframes
 *	follows the PHY rate (Nomoto et al., 2017)
 * @AIRQUEUE_RETRY_MODE_OBSS_RATE: both
 * @AIRQUEUE_RETRY_MODE_INHERIT: a station's override only: the phy's mode
 * @NUM_AIRQUEUE_RETRY_MODE: number of values
 */
enum airqueue_retry_mode {
	AIRQUEUE_RETRY_MODE_OFF,
	AIRQUEUE_RETRY_MODE_FIXED,
	AIRQUEUE_RETRY_MODE_OBSS,
	AIRQUEUE_RETRY_MODE_RATE,
	AIRQUEUE_RETRY_MODE_OBSS_RATE,
	AIRQUEUE_RETRY_MODE_INHERIT,

	NUM_AIRQUEUE_RETRY_MODE,
};

/**
 * enum airqueue_retry_vendor_attr - attributes in NL80211_ATTR_VENDOR_DATA
 * @AIRQUEUE_RETRY_ATTR_INVALID: not used
 * @AIRQUEUE_RETRY_ATTR_MODE: u8, enum airqueue_retry_mode but not
 *	%AIRQUEUE_RETRY_MODE_INHERIT: the phy's mode, or in a station's
 *	reply the mode that applies to it
 * @AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC: u32, the channel estimate (the
 *	probability that carrier sense finds the medium idle, per mille,
 *	0-1000); set, it fixes the estimate
 * @AIRQUEUE_RETRY_ATTR_PROB_AUTO: flag: the estimate follows the channel
 *	survey (the default)
 * @AIRQUEUE_RETRY_ATTR_MAC: 6 bytes, a station's address
 * @AIRQUEUE_RETRY_ATTR_STA_MODE: u8, enum airqueue_retry_mode: a
 *	station's override
 * @AIRQUEUE_RETRY_ATTR_STA_L: u32, reply only: the DCF limit last applied
 * @AIRQUEUE_RETRY_ATTR_STA_L_BASE: u32, reply only: L_base
 * @AIRQUEUE_RETRY_ATTR_STA_B: u32, reply only: the Block Ack limit last
 *	applied
 * @AIRQUEUE_RETRY_ATTR_STA_RATE_KBPS: u32, reply only: the EWMA of the
 *	station's PHY rate (kbit/s)
 * @AIRQUEUE_RETRY_ATTR_L_OBSS: u32, parameter L_OBSS (attempts, 1-255)
 * @AIRQUEUE_RETRY_ATTR_L_NON_OBSS: u32, parameter L_NON_OBSS (1-255)
 * @AIRQUEUE_RETRY_ATTR_L_MIN: u32, floor of the DCF limit (1-255)
 * @AIRQUEUE_RETRY_ATTR_C_OBSS: u32, C_OBSS (per mille)
 * @AIRQUEUE_RETRY_ATTR_C_NON_OBSS: u32, C_NON_OBSS (per mille)
 * @AIRQUEUE_RETRY_ATTR_A_ERROR: u32, A_ERROR (attempts per frame, per
 *	mille)
 * @AIRQUEUE_RETRY_ATTR_S_HIGH: u32, S_HIGH (frames)
 * @AIRQUEUE_RETRY_ATTR_S_LOW: u32, S_LOW (frames)
 * @AIRQUEUE_RETRY_ATTR_FIXED_AP: u32, mode fixed: attempts of a frame
 *	sent as AP (1-255)
 * @AIRQUEUE_RETRY_ATTR_FIXED_STA: u32, ... sent as station (1-255)
 * @AIRQUEUE_RETRY_ATTR_LADDER_KBPS0: u32, the B ladder's rate thresholds,
 *	descending (kbit/s)
 * @AIRQUEUE_RETRY_ATTR_LADDER_KBPS1: u32, see above
 * @AIRQUEUE_RETRY_ATTR_LADDER_KBPS2: u32, see above
 * @AIRQUEUE_RETRY_ATTR_LADDER_B0: u32, B at or above LADDER_KBPS0
 * @AIRQUEUE_RETRY_ATTR_LADDER_B1: u32, B at or above LADDER_KBPS1
 * @AIRQUEUE_RETRY_ATTR_LADDER_B2: u32, B at or above LADDER_KBPS2
 * @AIRQUEUE_RETRY_ATTR_LADDER_B3: u32, B below LADDER_KBPS2
 * @AIRQUEUE_RETRY_ATTR_EWMA_TRANS_SHIFT: u32, weight 2^-n of a new sample
 *	of attempts per frame (0-8)
 * @AIRQUEUE_RETRY_ATTR_RATE_HW_CUT: u32, 0 or 1: the "rate" modes also
 *	cut the hardware tries of TCP A-MPDU subframes to B
 * @AIRQUEUE_RETRY_ATTR_CUT_CHAIN: u32, 0 or 1: the "fixed" and "obss"
 *	modes cut a rate table keeping rate control's chain (1) instead of
 *	giving every try to its first entry (0)
 * @NUM_AIRQUEUE_RETRY_ATTR: number of attributes, plus one
 * @AIRQUEUE_RETRY_ATTR_MAX: highest attribute number
 *
 * The parameters (%AIRQUEUE_RETRY_ATTR_L_OBSS to
 * %AIRQUEUE_RETRY_ATTR_CUT_CHAIN) are those of the policy core, in
 * Documentation/networking/mac80211-retry.rst.
 */
enum airqueue_retry_vendor_attr {
	AIRQUEUE_RETRY_ATTR_INVALID,
	AIRQUEUE_RETRY_ATTR_MODE,
	AIRQUEUE_RETRY_ATTR_PROB_CS_SUCC,
	AIRQUEUE_RETRY_ATTR_PROB_AUTO,
	AIRQUEUE_RETRY_ATTR_MAC,
	AIRQUEUE_RETRY_ATTR_STA_MODE,
	AIRQUEUE_RETRY_ATTR_STA_L,
	AIRQUEUE_RETRY_ATTR_STA_L_BASE,
	AIRQUEUE_RETRY_ATTR_STA_B,
	AIRQUEUE_RETRY_ATTR_STA_RATE_KBPS,
	AIRQUEUE_RETRY_ATTR_L_OBSS,
	AIRQUEUE_RETRY_ATTR_L_NON_OBSS,
	AIRQUEUE_RETRY_ATTR_L_MIN,
	AIRQUEUE_RETRY_ATTR_C_OBSS,
	AIRQUEUE_RETRY_ATTR_C_NON_OBSS,
	AIRQUEUE_RETRY_ATTR_A_ERROR,
	AIRQUEUE_RETRY_ATTR_S_HIGH,
	AIRQUEUE_RETRY_ATTR_S_LOW,
	AIRQUEUE_RETRY_ATTR_FIXED_AP,
	AIRQUEUE_RETRY_ATTR_FIXED_STA,
	AIRQUEUE_RETRY_ATTR_LADDER_KBPS0,
	AIRQUEUE_RETRY_ATTR_LADDER_KBPS1,
	AIRQUEUE_RETRY_ATTR_LADDER_KBPS2,
	AIRQUEUE_RETRY_ATTR_LADDER_B0,
	AIRQUEUE_RETRY_ATTR_LADDER_B1,
	AIRQUEUE_RETRY_ATTR_LADDER_B2,
	AIRQUEUE_RETRY_ATTR_LADDER_B3,
	AIRQUEUE_RETRY_ATTR_EWMA_TRANS_SHIFT,
	AIRQUEUE_RETRY_ATTR_RATE_HW_CUT,
	AIRQUEUE_RETRY_ATTR_CUT_CHAIN,

	/* keep last */
	NUM_AIRQUEUE_RETRY_ATTR,
	AIRQUEUE_RETRY_ATTR_MAX = NUM_AIRQUEUE_RETRY_ATTR - 1
};

#endif /* __UAPI_NL80211_VND_AIRQUEUE_H */
