# SPDX-License-Identifier: GPL-2.0
"""AC_VO EDCA for the AP's pure TCP ACKs, as hostapd tx_queue_data0_* lines.

hostapd numbers its own transmit queues data0 = AC_VO, data1 = AC_VI,
data2 = AC_BE, data3 = AC_BK. tx_queue_* are the parameters the AP itself
uses (handed to the driver through nl80211 NL80211_ATTR_WIPHY_TXQ_PARAMS);
wmm_ac_* are what the AP advertises to its stations and are left alone.

hostapd accepts AIFS 0..255, CW in {1, 3, 7, ..., 1023} (so CW 0, "no
backoff" in the TAP paper, is not expressible; CWmin 1 draws 0 or 1 slot)
and burst in units of 0.1 ms; its nl80211 driver converts the burst to a
TXOP limit in 32 us units, rounding to nearest.
"""

import math
import os

from . import TapError
from .phy import LLC_SNAP, MAC_HDR_QOS

VO_QUEUE = "tx_queue_data0"
KEYS = ("aifs", "cwmin", "cwmax", "burst")

# A pure ACK: IPv4 20 + TCP 20 + timestamps option 12 bytes, after LLC/SNAP.
PURE_ACK_IP_BYTES = 52
AP_AIFSN_MIN = 1          # 802.11: an AP may use AIFSN 1, non-AP STAs >= 2
CW_MIN_HOSTAPD = 1
TXOP_UNIT_US = 32


def ack_exchange_us(phy, ack_ip_bytes=PURE_ACK_IP_BYTES):
    """One QoS data frame carrying a pure TCP ACK, SIFS, its MAC ACK."""
    frame = phy.data_time(MAC_HDR_QOS + LLC_SNAP + ack_ip_bytes)
    return frame + phy.delta + phy.sifs + phy.ack_time() + phy.delta


def txop_us(phy, nacks, ack_ip_bytes=PURE_ACK_IP_BYTES):
    """TXOP that holds nacks ACK exchanges separated by SIFS (0 if <= 1:
    a single frame needs no TXOP beyond the one it always gets)."""
    if nacks <= 1:
        return 0.0
    return nacks * ack_exchange_us(phy, ack_ip_bytes) + (nacks - 1) * phy.sifs


def burst_tenths_ms(txop):
    """Smallest hostapd burst value (0.1 ms units) whose driver TXOP >= txop."""
    if txop <= 0:
        return 0
    b = math.ceil(txop / 100.0)
    while (b * 100 + 16) // TXOP_UNIT_US * TXOP_UNIT_US < txop:
        b += 1
    return b


def vo_params(phy, nstar_int, ack_ip_bytes=PURE_ACK_IP_BYTES, cwmax=3):
    """The four tx_queue_data0 values for n* (integer) contenders."""
    if nstar_int < 1:
        raise TapError(f"n* {nstar_int} < 1")
    if cwmax not in (1, 3, 7, 15, 31, 63, 127, 255, 511, 1023):
        raise TapError(f"cwmax {cwmax} not accepted by hostapd (2^k - 1, 1..1023)")
    txop = txop_us(phy, nstar_int - 1, ack_ip_bytes)
    b = burst_tenths_ms(txop)
    if b > 65535 * TXOP_UNIT_US // 100:
        raise TapError(f"TXOP {txop:.0f} us exceeds the 802.11 TXOP limit field")
    return {
        "aifs": AP_AIFSN_MIN,
        "cwmin": CW_MIN_HOSTAPD,
        "cwmax": cwmax,
        "burst": f"{b // 10}.{b % 10}",
        "_txop_us": txop,
        "_nacks": max(nstar_int - 1, 0),
    }


def hostapd_lines(params, comment=()):
    out = [f"# {c}" for c in comment]
    out += [f"{VO_QUEUE}_{k}={params[k]}" for k in KEYS]
    return out


def _key_of(line):
    s = line.strip()
    if s.startswith("#") or "=" not in s:
        return None
    return s.split("=", 1)[0].strip()


def rewrite_config(text, params, marker="# airqueue tap-setup"):
    """Return text with tx_queue_data0_* set to params.

    Existing lines for those keys are replaced in place (first occurrence;
    later duplicates removed); missing keys are appended after a marker
    comment. Only those keys change.
    """
    want = {f"{VO_QUEUE}_{k}": str(params[k]) for k in KEYS}
    done = set()
    out = []
    for line in text.splitlines(keepends=True):
        k = _key_of(line)
        if k in want:
            if k in done:
                continue
            out.append(f"{k}={want[k]}\n")
            done.add(k)
        else:
            out.append(line)
    missing = [k for k in want if k not in done]
    if missing:
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out.append(marker + ": AC_VO EDCA for pure TCP ACKs (TAP)\n")
        out += [f"{k}={want[k]}\n" for k in missing]
    return "".join(out)


def read_values(text):
    """Current tx_queue_data0_* values in a hostapd config text."""
    vals = {}
    for line in text.splitlines():
        k = _key_of(line)
        if k and k.startswith(VO_QUEUE + "_") and k not in vals:
            vals[k] = line.split("=", 1)[1].strip()
    return vals


def write_atomic(path, text, mode=None):
    tmp = f"{path}.tap-setup.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
