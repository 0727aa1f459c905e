// SPDX-License-Identifier: GPL-2.0-only
/*
 * PHY timing, rate tables and the PER model of the airqueue medium.
 *
 * TXTIME formulas follow IEEE 802.11-2016:
 *   DSSS/CCK (clause 15/16): PLCP (192 us long, 96 us short preamble)
 *     + ceil(8 L / R) us.
 *   OFDM (clause 17): 20 us preamble+SIGNAL + 4 us * ceil((16 + 8 L + 6) /
 *     N_DBPS), + 6 us signal extension on 2.4 GHz (ERP-OFDM, clause 18).
 *   HT mixed format (clause 19): 20 (L-STF, L-LTF, L-SIG) + 8 (HT-SIG)
 *     + 4 (HT-STF) + 4 N_LTF, then N_SYM symbols of 4 us (long GI) or
 *     4 * ceil(3.6 N_SYM / 4) us (short GI); N_SYM = ceil((16 + 8 L +
 *     6 N_ES) / N_DBPS), N_ES = 1.
 *
 * PER: logistic waterfall per rate, anchored at the SNR giving 10 % PER on
 * a 1000-octet PSDU (the 802.11 minimum-sensitivity definition):
 *   PER_1000(s) = 1 / (1 + 9 exp(k (s - s10)))
 * and for L octets the same waterfall shifted to where it gives, at s10,
 * what L / 1000 independent blocks would:
 *   PER_L(s)    = 1 / (1 + a_L exp(k (s - s10))),
 *   a_L         = (1 - q_L) / q_L,  q_L = 1 - 0.9^(L / 1000)
 * (a 14-octet ACK's 10 % point is 2.2 dB below s10, a 1500-octet frame's
 * 0.2 dB above).  Scaling the probability instead, 1 - (1 - PER_1000)^(L /
 * 1000), keeps the slope for long frames but gives short ones a tail no
 * receiver has: a 20-octet RTS at 10 dB below s10 (two equal-power frames)
 * would decode 70 % of the time.
 */
#include <math.h>
#include <string.h>
#include "medium.h"
#include "hwsim_proto.h"

#define US(x) ((int64_t)(x) * AQ_NS_PER_US)

/* hwsim_rates[] of mac80211_hwsim.c: 2.4 GHz uses all, 5 GHz from index 4 */
static const unsigned int hwsim_kbps[] = {
	1000, 2000, 5500, 11000, 6000, 9000, 12000, 18000, 24000, 36000,
	48000, 54000,
};

/* SNR (dB) for 10 % PER, 1000 octets.  OFDM/HT: 802.11 minimum input
 * sensitivity (17.3.10.2, 19.3.19.2) minus a -91 dBm noise floor
 * (thermal -101 dBm in 20 MHz + 10 dB noise figure).  DSSS/CCK: typical
 * receiver figures (the standard only gives -76 dBm for 11 Mbit/s). */
static const struct { unsigned int kbps; double snr10; } legacy_snr[] = {
	{ 1000, 1 }, { 2000, 4 }, { 5500, 7 }, { 11000, 10 },
	{ 6000, 9 }, { 9000, 10 }, { 12000, 12 }, { 18000, 14 },
	{ 24000, 17 }, { 36000, 21 }, { 48000, 25 }, { 54000, 26 },
};
static const double ht_snr10[8] = { 9, 12, 14, 17, 21, 25, 26, 27 };
static const unsigned int ht_ndbps20[8] = { 26, 52, 78, 104, 156, 208, 234, 260 };
static const unsigned int ht_ndbps40[8] = { 54, 108, 162, 216, 324, 432, 486, 540 };
static const unsigned int ofdm_kbps[8] = { 6000, 9000, 12000, 18000, 24000,
					   36000, 48000, 54000 };

const char *aq_std_name(enum aq_std std)
{
	static const char * const n[] = { "b", "g", "a", "n24", "n5", "custom" };

	return std <= AQ_STD_CUSTOM ? n[std] : "?";
}

static bool band24(const struct aq_phy *phy)
{
	return phy->std == AQ_STD_B || phy->std == AQ_STD_G ||
	       phy->std == AQ_STD_N24;
}

int aq_phy_defaults(struct aq_phy *phy, enum aq_std std)
{
	memset(phy, 0, sizeof(*phy));
	phy->std = std;
	phy->prop = US(1);
	phy->use_eifs = true;
	phy->resume_decrement = true;
	phy->ampdu = true;
	phy->edca = true;
	phy->txop = true;
	phy->rts_threshold = 65535;
	phy->per_slope = 2.0;
	phy->cwmax = 1023;
	/* ns-3's ThresholdPreambleDetectionModel default (4 dB) */
	phy->pd_snr_db = 4.0;
	/*
	 * Payload capture: once a receiver has the PHY header it keeps
	 * demodulating the frame, and interference that starts later costs
	 * it only what the SINR over that interference costs at the frame's
	 * rate (the PER model), as ns-3's InterferenceHelper decides.  The
	 * receive procedure (802.11-2020 17.3.12 for OFDM) stays on a frame
	 * whose header it decoded for the duration that header gives; it
	 * does not abort on other energy.  false: any overlap above CCA
	 * destroys the frame, the pessimistic reading of older simulators.
	 */
	phy->capture = true;
	/*
	 * Overhear: off, unicast data goes to its receiver only.  On, every
	 * radio that decodes it gets it too, as a real receiver does before
	 * its filter; each copy is one more netlink message and guest frame.
	 */
	phy->overhear = false;
	switch (std) {
	case AQ_STD_B:
		/* 802.11-2020 Table 16-5 (HR/DSSS): slot 20, SIFS 10,
		 * aRxPHYStartDelay 192 us (long preamble); hostapd's default
		 * basic rates for hw_mode=b: 1 and 2 Mbit/s */
		phy->slot = US(20);
		phy->sifs = US(10);
		phy->cwmin = 31;
		phy->rx_start_delay = US(192);
		phy->basic_kbps[0] = 1000;
		phy->basic_kbps[1] = 2000;
		phy->n_basic = 2;
		break;
	case AQ_STD_G:
	case AQ_STD_N24:
		/* Table 18-5 (ERP): short slot 9 (a BSS where every station
		 * supports it; "slot_us": 20 for long), SIFS 10, the 6 us
		 * signal extension is part of TXTIME; aRxPHYStartDelay 20 us
		 * (Table 18-5, as Table 17-21 for OFDM 20 MHz: the preamble
		 * and SIGNAL of the non-HT response; 25 us was 802.11a-1999's).
		 * hostapd's default basic rates for hw_mode=g: 1, 2, 5.5, 11 */
		phy->slot = US(9);
		phy->sifs = US(10);
		phy->cwmin = 15;
		phy->rx_start_delay = US(20);
		phy->basic_kbps[0] = 1000;
		phy->basic_kbps[1] = 2000;
		phy->basic_kbps[2] = 5500;
		phy->basic_kbps[3] = 11000;
		phy->n_basic = 4;
		break;
	case AQ_STD_A:
	case AQ_STD_N5:
		/* Table 17-21 (OFDM 20 MHz): slot 9, SIFS 16, aRxPHYStartDelay
		 * 20 us; hostapd's basic rates for hw_mode=a: 6, 12, 24 */
		phy->slot = US(9);
		phy->sifs = US(16);
		phy->cwmin = 15;
		phy->rx_start_delay = US(20);
		phy->basic_kbps[0] = 6000;
		phy->basic_kbps[1] = 12000;
		phy->basic_kbps[2] = 24000;
		phy->n_basic = 3;
		break;
	case AQ_STD_CUSTOM:
		/* Bianchi (2000), Table II; his ACK timeout is SIFS + slot */
		phy->slot = US(50);
		phy->sifs = US(28);
		phy->cwmin = 31;
		phy->custom_kbps = 1000;
		phy->plcp_custom = US(128);
		phy->rx_start_delay = 0;
		phy->basic_kbps[0] = 1000;
		phy->n_basic = 1;
		break;
	default:
		return -1;
	}
	aq_phy_ack_timeout(phy);
	return 0;
}

/*
 * ACKTimeout = aSIFSTime + aSlotTime + aRxPHYStartDelay (802.11-2020
 * 10.3.2.9), counted from the end of the own frame (TXTIME, signal
 * extension included): 802.11b 222 us, g 39 (50 with the long slot),
 * a 45.  The n PHYs take the OFDM value: every response (ACK, Block Ack,
 * CTS) is a non-HT frame whose PHY-RXSTART follows its 20 us preamble
 * and SIGNAL.  Called again when the configuration changes slot or SIFS.
 */
void aq_phy_ack_timeout(struct aq_phy *phy)
{
	phy->ack_timeout = phy->sifs + phy->slot + phy->rx_start_delay;
}

/* The BSSBasicRateSet: rates (kbit/s) the PHY has, sorted; -1 otherwise */
int aq_phy_set_basic(struct aq_phy *phy, const unsigned int *kbps, unsigned int n)
{
	struct aq_rate r;
	unsigned int i, j, v;

	if (!n || n > 12)
		return -1;
	for (i = 0; i < n; i++) {
		if (phy->std == AQ_STD_CUSTOM ? kbps[i] != phy->custom_kbps :
		    aq_rate_legacy(phy, kbps[i], false, &r))
			return -1;
		if (phy->std == AQ_STD_B && r.mod != AQ_MOD_DSSS)
			return -1;	/* 802.11b has no OFDM */
		phy->basic_kbps[i] = kbps[i];
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && phy->basic_kbps[j - 1] > phy->basic_kbps[j]; j--) {
			v = phy->basic_kbps[j];
			phy->basic_kbps[j] = phy->basic_kbps[j - 1];
			phy->basic_kbps[j - 1] = v;
		}
	phy->n_basic = n;
	return 0;
}

int64_t aq_difs(const struct aq_phy *phy)
{
	return phy->sifs + 2 * phy->slot;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

int64_t aq_txtime(const struct aq_phy *phy, const struct aq_rate *r,
		  unsigned int bytes)
{
	int64_t bits = 8LL * bytes, t, nsym;

	switch (r->mod) {
	case AQ_MOD_CUSTOM:
		return phy->plcp_custom + ceil_div(bits * 1000000LL, r->kbps);
	case AQ_MOD_DSSS:
		t = r->short_preamble ? US(96) : US(192);
		/* ceil(8L/R) in whole microseconds */
		return t + US(ceil_div(bits * 1000, r->kbps));
	case AQ_MOD_OFDM:
		nsym = ceil_div(16 + bits + 6, r->ndbps);
		return US(20) + US(4) * nsym + (r->sig_ext ? US(6) : 0);
	case AQ_MOD_HT:
		nsym = ceil_div(16 + bits + 6, r->ndbps);
		t = US(20 + 8 + 4) + US(4) * (r->nss == 2 ? 2 : 1);
		if (r->sgi)
			t += US(4) * ceil_div(36 * nsym, 40);
		else
			t += US(4) * nsym;
		return t + (r->sig_ext ? US(6) : 0);
	}
	return 0;
}

int64_t aq_eifs(const struct aq_phy *phy)
{
	struct aq_rate r;

	/* EIFS = SIFS + ACK at the lowest mandatory rate + DIFS */
	if (phy->std == AQ_STD_A || phy->std == AQ_STD_N5)
		aq_rate_legacy(phy, 6000, false, &r);
	else if (phy->std == AQ_STD_CUSTOM)
		aq_rate_legacy(phy, phy->custom_kbps, false, &r);
	else
		aq_rate_legacy(phy, 1000, false, &r);
	return phy->sifs + aq_txtime(phy, &r, AQ_ACK_LEN) + aq_difs(phy);
}

int aq_rate_legacy(const struct aq_phy *phy, unsigned int kbps,
		   bool short_preamble, struct aq_rate *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->kbps = kbps;
	r->legacy_idx = 0;
	if (phy->std == AQ_STD_CUSTOM) {
		r->mod = AQ_MOD_CUSTOM;
		r->snr10_db = 1;
		return 0;
	}
	for (i = 0; i < sizeof(legacy_snr) / sizeof(legacy_snr[0]); i++)
		if (legacy_snr[i].kbps == kbps)
			break;
	if (i == sizeof(legacy_snr) / sizeof(legacy_snr[0]))
		return -1;
	r->snr10_db = legacy_snr[i].snr10;
	r->legacy_idx = band24(phy) ? (int)i : (int)i - 4;
	if (i < 4) {
		if (!band24(phy))
			return -1;
		r->mod = AQ_MOD_DSSS;
		r->short_preamble = short_preamble && kbps != 1000;
		return 0;
	}
	r->mod = AQ_MOD_OFDM;
	r->ndbps = kbps * 4 / 1000;
	r->sig_ext = band24(phy);
	return 0;
}

int aq_rate_ht(const struct aq_phy *phy, unsigned int mcs, bool bw40,
	       bool sgi, struct aq_rate *r)
{
	unsigned int m = mcs & 7, nss = mcs / 8 + 1;

	if (mcs > 15)
		return -1;
	memset(r, 0, sizeof(*r));
	r->mod = AQ_MOD_HT;
	r->mcs = mcs;
	r->nss = nss;
	r->bw40 = bw40;
	r->sgi = sgi;
	r->ndbps = (bw40 ? ht_ndbps40[m] : ht_ndbps20[m]) * nss;
	/* rate = N_DBPS / symbol time (4 us or 3.6 us) */
	r->kbps = sgi ? r->ndbps * 10000 / 36 : r->ndbps * 250;
	/* two streams need ~3 dB more; 40 MHz doubles the noise bandwidth */
	r->snr10_db = ht_snr10[m] + (nss == 2 ? 3 : 0) + (bw40 ? 3 : 0);
	r->sig_ext = band24(phy);
	/* report the legacy OFDM rate at or below it to stock hwsim */
	r->legacy_idx = 0;
	for (int i = 7; i >= 0; i--)
		if (ofdm_kbps[i] <= r->kbps) {
			r->legacy_idx = band24(phy) ? i + 4 : i;
			break;
		}
	return 0;
}

int aq_rate_from_hwsim(const struct aq_phy *phy, unsigned int freq, int idx,
		       unsigned int flags, struct aq_rate *r)
{
	unsigned int off;

	if (idx < 0)
		return -1;
	if (flags & HWSIM_TX_RC_VHT_MCS)
		return -1;
	if (flags & HWSIM_TX_RC_MCS)
		return aq_rate_ht(phy, idx, flags & HWSIM_TX_RC_40_MHZ_WIDTH,
				  flags & HWSIM_TX_RC_SHORT_GI, r);
	if (phy->std == AQ_STD_CUSTOM)
		return aq_rate_legacy(phy, phy->custom_kbps, false, r);
	/* hwsim: 2.4 GHz band uses hwsim_rates[0..11], 5 GHz [4..11] */
	off = (freq && freq < 3000) || (!freq && band24(phy)) ? 0 : 4;
	if ((unsigned int)idx + off >= 12)
		return -1;
	if (aq_rate_legacy(phy, hwsim_kbps[idx + off],
			   flags & HWSIM_TX_RC_USE_SHORT_PREAMBLE, r))
		return -1;
	r->legacy_idx = idx;
	return 0;
}

static bool is_dsss_kbps(unsigned int kbps)
{
	return kbps == 1000 || kbps == 2000 || kbps == 5500 || kbps == 11000;
}

/*
 * The rate an HT frame is compared with: its non-HT reference rate, the
 * clause-17 rate of the same modulation and coding rate (802.11-2020
 * 10.6.11; 802.11-2012 9.7.9, Table 9-5).  HT MCS m (and m + 8) is BPSK
 * 1/2, QPSK 1/2, QPSK 3/4, 16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 3/4 and 5/6:
 * 6, 12, 18, 24, 36, 48, 54 and 54 (no 64-QAM 5/6 in clause 17) Mbit/s.
 */
static const unsigned int ht_ref_kbps[8] = { 6000, 12000, 18000, 24000, 36000,
					     48000, 54000, 54000 };

static unsigned int legacy_equiv_kbps(const struct aq_rate *r)
{
	return r->mod == AQ_MOD_HT ? ht_ref_kbps[r->mcs & 7] : r->kbps;
}

/*
 * Control response rate (802.11-2020 10.6.6.5): the highest rate of the
 * BSSBasicRateSet that is <= the eliciting frame's rate and of its
 * modulation class (DSSS/HR-DSSS, or OFDM for OFDM, ERP-OFDM and HT,
 * compared at the HT rate's non-HT reference rate); without one, the highest
 * mandatory rate of that class <= the rate (DSSS 1/2/5.5/11, OFDM
 * 6/12/24).  A DSSS response keeps the eliciting frame's preamble.
 */
void aq_ctrl_rate(const struct aq_phy *phy, const struct aq_rate *data,
		  struct aq_rate *ctrl)
{
	static const unsigned int dsss[] = { 11000, 5500, 2000, 1000 };
	static const unsigned int ofdm[] = { 24000, 12000, 6000 };
	unsigned int i, kbps = legacy_equiv_kbps(data), best = 0;
	bool cck = data->mod == AQ_MOD_DSSS;

	if (data->mod == AQ_MOD_CUSTOM) {
		aq_rate_legacy(phy, phy->custom_kbps, false, ctrl);
		return;
	}
	for (i = 0; i < phy->n_basic; i++)
		if (is_dsss_kbps(phy->basic_kbps[i]) == cck && phy->basic_kbps[i] <= kbps)
			best = phy->basic_kbps[i];
	if (!best && cck) {
		for (i = 0; i < 3 && dsss[i] > kbps; i++)
			;
		best = dsss[i];
	} else if (!best) {
		for (i = 0; i < 2 && ofdm[i] > kbps; i++)
			;
		best = ofdm[i];
	}
	aq_rate_legacy(phy, best, cck && data->short_preamble && best != 1000, ctrl);
}

/*
 * RTS rate: a basic rate (802.11-2020 10.6.6.2); which one is the
 * transmitter's choice.  mac80211 (rate.c, rate_fixup_ratelist(),
 * rts_cts_rate_idx) takes the fastest basic rate not above the data rate,
 * else the slowest basic rate; it sets none for an HT (MCS) data rate,
 * and hwsim passes no RTS rate to the medium either way, so the medium
 * applies the same rule, to an HT rate at its non-HT reference rate.  A
 * DSSS RTS uses the preamble of the exchange: the data frame's when that
 * is DSSS (hwsim's short-preamble flag, which mac80211 sets from the BSS's
 * use_short_preamble), else the BSS's (phy.short_preamble); 1 Mbit/s has
 * only the long one.  Its CTS keeps the RTS's (aq_ctrl_rate()).
 */
void aq_rts_rate(const struct aq_phy *phy, const struct aq_rate *data,
		 struct aq_rate *rts)
{
	unsigned int i, kbps = legacy_equiv_kbps(data), best = 0;

	if (data->mod == AQ_MOD_CUSTOM || !phy->n_basic) {
		aq_ctrl_rate(phy, data, rts);
		return;
	}
	for (i = 0; i < phy->n_basic; i++)
		if (phy->basic_kbps[i] <= kbps)
			best = phy->basic_kbps[i];
	if (!best)
		best = phy->basic_kbps[0];
	aq_rate_legacy(phy, best, data->mod == AQ_MOD_DSSS ? data->short_preamble :
		       phy->short_preamble, rts);
}

/*
 * The PHY header: what a receiver must decode before it knows a frame is
 * there (PHY-RXSTART): DSSS PLCP preamble + header 192 us (96 short);
 * OFDM preamble + SIGNAL 20 us; HT mixed format up to HT-SIG 28 us;
 * custom: its PHY header.
 */
int64_t aq_hdr_time(const struct aq_phy *phy, const struct aq_rate *r)
{
	switch (r->mod) {
	case AQ_MOD_DSSS:
		return r->short_preamble ? US(96) : US(192);
	case AQ_MOD_OFDM:
		return US(20);
	case AQ_MOD_HT:
		return US(28);
	case AQ_MOD_CUSTOM:
		return phy->plcp_custom;
	}
	return 0;
}

double aq_per(const struct aq_phy *phy, const struct aq_rate *r,
	      double snr_db, unsigned int bytes)
{
	double q, x;

	if (!bytes)
		return 0.0;
	x = phy->per_slope * (snr_db - r->snr10_db);
	if (x > 50)
		return 0.0;
	if (x < -50)
		return 1.0;
	/* PER_L at s10, as L/1000 independent 1000-octet blocks */
	q = 1.0 - pow(0.9, bytes / 1000.0);
	return 1.0 / (1.0 + (1.0 - q) / q * exp(x));
}

/* A-MPDU subframe: 4-octet delimiter + MPDU, padded to 4 octets but the last */
unsigned int aq_ampdu_sub_len(unsigned int mpdu_len, bool last)
{
	unsigned int l = 4 + mpdu_len;

	return last ? l : (l + 3) & ~3U;
}
