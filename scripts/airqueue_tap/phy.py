# SPDX-License-Identifier: GPL-2.0
"""PHY parameter sets and frame airtimes for the Bianchi model.

All times are in microseconds, sizes in bytes, rates in Mbit/s.

Every set states where its numbers come from:

  b      802.11b DSSS/CCK (IEEE 802.11-2020 clause 16/17): slot 20, SIFS 10,
         DIFS = SIFS + 2 slots = 50, CWmin 31, CWmax 1023, long PLCP
         preamble + header 192 us (short: 96 us), control frames at the
         basic rate (1 Mbit/s by default). These are also ns-2's
         Mac802_11/Phy defaults, which the TAP paper used.
  fhss   Bianchi (2000) Table II: FHSS, 1 Mbit/s, slot 50, SIFS 28,
         DIFS 128, propagation delay 1, PHY header 128 bits, MAC header
         272 bits, ACK 112 bits, RTS 160 bits, CTS 112 bits (each plus the
         PHY header). Bianchi varies W and m per figure; the default here
         is the standard FHSS CWmin 15/CWmax 1023.
  a      802.11a OFDM, 5 GHz (clause 17): slot 9, SIFS 16, DIFS 34,
         CWmin 15, CWmax 1023, preamble 16 + SIGNAL 4, 4 us symbols,
         SERVICE 16 bits + 6 tail bits.
  g      802.11g ERP-OFDM, short slot (no 802.11b stations): as a, but
         SIFS 10 plus a 6 us signal extension after every OFDM frame.
  n      802.11n HT-mixed, one MPDU per PPDU (no A-MPDU: Bianchi's model
         has one frame per transmission), 5 GHz timing by default
         (--band 2.4 gives the 2.4 GHz SIFS/extension), 20 or 40 MHz,
         long or short GI, 1-4 spatial streams; control responses in
         legacy OFDM.

A propagation delay "delta" of 1 us is used for every set (Bianchi's
value).
"""

import math
from dataclasses import dataclass, field, replace

from . import TapError

# Frame sizes in bytes, FCS included (IEEE 802.11-2020 9.3.1).
ACK_BYTES = 14
CTS_BYTES = 14
RTS_BYTES = 20
MAC_HDR_DATA = 24 + 4          # non-QoS data header + FCS (DCF, Bianchi)
MAC_HDR_QOS = 26 + 4           # QoS data header + FCS (HT, EDCA)
LLC_SNAP = 8

# OFDM (clause 17)
OFDM_PREAMBLE_US = 16 + 4      # L-STF + L-LTF, L-SIG
OFDM_SYMBOL_US = 4.0
OFDM_SERVICE_BITS = 16
OFDM_TAIL_BITS = 6
OFDM_RATES = (6, 9, 12, 18, 24, 36, 48, 54)
OFDM_MANDATORY = (6, 12, 24)

# HT (clause 19): data bits per symbol for one spatial stream, MCS 0-7
HT_NDBPS_20 = (26, 52, 78, 104, 156, 208, 234, 260)
HT_NDBPS_40 = (54, 108, 162, 216, 324, 432, 486, 540)
HT_LTF_FOR_NSS = {1: 1, 2: 2, 3: 4, 4: 4}

DSSS_RATES = (1, 2, 5.5, 11)
DSSS_LONG_PLCP_US = 192
DSSS_SHORT_PLCP_US = 96

MAX_MSDU = 2304


@dataclass
class Phy:
    """One PHY configuration (timing, backoff, rates)."""

    name: str
    slot: float
    sifs: float
    difs: float
    delta: float
    cwmin: int
    cwmax: int
    rate: float
    basic_rate: float
    mac_hdr: int
    kind: str                   # dsss, fhss, ofdm, ht
    signal_ext: float = 0.0
    plcp_us: float = 0.0        # dsss/fhss: preamble + header time
    ht_bw: int = 20
    ht_sgi: bool = False
    ht_nss: int = 1
    ht_mcs: int = 0
    notes: list = field(default_factory=list)

    # Bianchi's notation: W = CWmin + 1, CWmax + 1 = 2^m W.
    @property
    def W(self):
        return self.cwmin + 1

    @property
    def m(self):
        return int(round(math.log2((self.cwmax + 1) / (self.cwmin + 1))))

    def legacy_time(self, nbytes, rate):
        """Airtime of a non-HT frame of nbytes (MPDU incl. FCS) at rate."""
        if self.kind == "fhss":
            return self.plcp_us + 8.0 * nbytes / rate
        if self.kind == "dsss":
            return self.plcp_us + math.ceil(8.0 * nbytes / rate)
        ndbps = rate * OFDM_SYMBOL_US
        nsym = math.ceil((OFDM_SERVICE_BITS + 8 * nbytes + OFDM_TAIL_BITS) / ndbps)
        return OFDM_PREAMBLE_US + nsym * OFDM_SYMBOL_US + self.signal_ext

    def data_time(self, nbytes):
        """Airtime of a data MPDU of nbytes (header, body, FCS)."""
        if self.kind != "ht":
            return self.legacy_time(nbytes, self.rate)
        table = HT_NDBPS_40 if self.ht_bw == 40 else HT_NDBPS_20
        ndbps = table[self.ht_mcs] * self.ht_nss
        sym = 3.6 if self.ht_sgi else OFDM_SYMBOL_US
        nsym = math.ceil((OFDM_SERVICE_BITS + 8 * nbytes + OFDM_TAIL_BITS) / ndbps)
        preamble = OFDM_PREAMBLE_US + 8 + 4 + 4 * HT_LTF_FOR_NSS[self.ht_nss]
        return preamble + nsym * sym + self.signal_ext

    def ack_time(self):
        return self.legacy_time(ACK_BYTES, self.basic_rate)

    def cts_time(self):
        return self.legacy_time(CTS_BYTES, self.basic_rate)

    def rts_time(self):
        return self.legacy_time(RTS_BYTES, self.basic_rate)

    def describe(self):
        """Parameter lines for reports (what the numbers were computed from)."""
        d = [f"phy={self.name} rate={self.rate:g} Mbit/s "
             f"control-rate={self.basic_rate:g} Mbit/s",
             f"slot={self.slot:g} us SIFS={self.sifs:g} us DIFS={self.difs:g} us "
             f"delta={self.delta:g} us",
             f"CWmin={self.cwmin} CWmax={self.cwmax} (W={self.W}, m={self.m})",
             f"MAC header+FCS={self.mac_hdr} B"]
        if self.kind in ("dsss", "fhss"):
            d.append(f"PLCP preamble+header={self.plcp_us:g} us")
        if self.signal_ext:
            d.append(f"signal extension={self.signal_ext:g} us")
        if self.kind == "ht":
            d.append(f"HT MCS {self.ht_mcs} x {self.ht_nss} SS, {self.ht_bw} MHz, "
                     f"{'short' if self.ht_sgi else 'long'} GI")
        return d + list(self.notes)


def _ht_rate(mcs, nss, bw, sgi):
    table = HT_NDBPS_40 if bw == 40 else HT_NDBPS_20
    return table[mcs] * nss / (3.6 if sgi else 4.0)


def _ht_mcs_for_rate(rate, nss, bw, sgi):
    for mcs in range(8):
        if abs(_ht_rate(mcs, nss, bw, sgi) - rate) < 0.05:
            return mcs
    valid = ", ".join(f"{_ht_rate(i, nss, bw, sgi):g}" for i in range(8))
    raise TapError(f"802.11n: no MCS gives {rate:g} Mbit/s with {nss} stream(s), "
                   f"{bw} MHz, {'short' if sgi else 'long'} GI (valid: {valid})")


def _ofdm_control_rate(rate):
    return max(r for r in OFDM_MANDATORY if r <= max(rate, OFDM_MANDATORY[0]))


PHY_NAMES = ("b", "fhss", "a", "g", "n")
DEFAULT_RATE = {"b": 11, "fhss": 1, "a": 54, "g": 54, "n": 65}


def make_phy(name, rate=None, basic_rate=None, short_preamble=False,
             cwmin=None, cwmax=None, slot=None, sifs=None, difs=None,
             delta=None, band="5", ht_bw=20, ht_sgi=False, ht_nss=1):
    """Build and validate a Phy. Raises TapError on impossible parameters."""
    if name not in PHY_NAMES:
        raise TapError(f"unknown PHY '{name}' (choose from {', '.join(PHY_NAMES)})")
    if rate is None:
        rate = DEFAULT_RATE[name]
    if name == "b":
        if rate not in DSSS_RATES:
            raise TapError(f"802.11b: rate {rate:g} Mbit/s is not one of 1, 2, 5.5, 11")
        p = Phy("802.11b", 20, 10, 50, 1, 31, 1023, rate,
                basic_rate if basic_rate is not None else 1, MAC_HDR_DATA, "dsss",
                plcp_us=DSSS_SHORT_PLCP_US if short_preamble else DSSS_LONG_PLCP_US)
        if p.basic_rate not in DSSS_RATES:
            raise TapError(f"802.11b: control rate {p.basic_rate:g} is not a DSSS rate")
    elif name == "fhss":
        if rate != 1:
            raise TapError("fhss (Bianchi's parameter set) is defined at 1 Mbit/s only")
        p = Phy("FHSS (Bianchi 2000 Table II)", 50, 28, 128, 1, 15, 1023, 1.0,
                1.0, 272 // 8, "fhss", plcp_us=128)
    elif name in ("a", "g"):
        if rate not in OFDM_RATES:
            raise TapError(f"802.11{name}: rate {rate:g} Mbit/s is not an OFDM rate "
                           f"({', '.join(str(r) for r in OFDM_RATES)})")
        br = basic_rate if basic_rate is not None else _ofdm_control_rate(rate)
        if name == "a":
            p = Phy("802.11a", 9, 16, 34, 1, 15, 1023, rate, br, MAC_HDR_DATA, "ofdm")
        else:
            p = Phy("802.11g (short slot, ERP-OFDM only)", 9, 10, 28, 1, 15, 1023,
                    rate, br, MAC_HDR_DATA, "ofdm", signal_ext=6)
        if p.basic_rate not in OFDM_RATES:
            raise TapError(f"control rate {p.basic_rate:g} is not an OFDM rate")
    else:
        if ht_nss not in HT_LTF_FOR_NSS:
            raise TapError("802.11n: spatial streams must be 1-4")
        if ht_bw not in (20, 40):
            raise TapError("802.11n: bandwidth must be 20 or 40 MHz")
        mcs = _ht_mcs_for_rate(rate, ht_nss, ht_bw, ht_sgi)
        br = basic_rate if basic_rate is not None else _ofdm_control_rate(rate)
        if band == "5":
            p = Phy("802.11n (5 GHz)", 9, 16, 34, 1, 15, 1023, rate, br,
                    MAC_HDR_QOS, "ht")
        elif band == "2.4":
            p = Phy("802.11n (2.4 GHz, short slot)", 9, 10, 28, 1, 15, 1023, rate,
                    br, MAC_HDR_QOS, "ht", signal_ext=6)
        else:
            raise TapError("802.11n: band must be 2.4 or 5")
        p.ht_bw, p.ht_sgi, p.ht_nss, p.ht_mcs = ht_bw, ht_sgi, ht_nss, mcs
        if p.basic_rate not in OFDM_RATES:
            raise TapError(f"control rate {p.basic_rate:g} is not an OFDM rate")
        p.notes.append("single MPDU per PPDU (no A-MPDU), as in Bianchi's model")
    over = {}
    for k, v in (("cwmin", cwmin), ("cwmax", cwmax), ("slot", slot),
                 ("sifs", sifs), ("difs", difs), ("delta", delta)):
        if v is not None:
            over[k] = v
    if over:
        p = replace(p, **over)
        if difs is None and ("slot" in over or "sifs" in over):
            p.difs = p.sifs + 2 * p.slot
    validate(p)
    return p


def validate(p):
    """Reject parameter sets the model cannot describe."""
    if p.cwmin < 1 or p.cwmax < p.cwmin:
        raise TapError(f"CWmin/CWmax {p.cwmin}/{p.cwmax}: need 1 <= CWmin <= CWmax")
    for v, what in ((p.cwmin, "CWmin"), (p.cwmax, "CWmax")):
        if (v + 1) & v:
            raise TapError(f"{what} {v} is not 2^k - 1")
    if p.m > 16:
        raise TapError(f"CWmax/CWmin gives m={p.m} backoff stages: too many")
    if p.slot <= 0 or p.sifs <= 0 or p.difs <= 0 or p.delta < 0:
        raise TapError("slot, SIFS and DIFS must be positive, delta non-negative")
    if p.difs < p.sifs:
        raise TapError(f"DIFS {p.difs:g} us shorter than SIFS {p.sifs:g} us")
    if p.rate <= 0 or p.basic_rate <= 0:
        raise TapError("rates must be positive")


def check_size(size):
    if not isinstance(size, int) or size < 1 or size > MAX_MSDU:
        raise TapError(f"MSDU size {size} outside 1..{MAX_MSDU} bytes")
