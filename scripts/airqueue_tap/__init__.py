# SPDX-License-Identifier: GPL-2.0
"""TCP ACK priority (TAP) at the access point: model and configuration.

Modules:
  phy      PHY parameter sets and frame airtime (802.11b DSSS, Bianchi's
           FHSS set, 802.11a/g OFDM, 802.11n HT single MPDU)
  bianchi  Bianchi (2000) saturation model, exact fixed point, n*
  edca     AC_VO EDCA (AIFSN, CWmin, TXOP for n*-1 ACKs), hostapd lines
  tcfilter tc clsact/u32 rules that steer pure TCP ACKs to AC_VO
  cli      the tap-setup command line

Standard library only; matplotlib is imported lazily for --plot.
"""


class TapError(Exception):
    """A user-facing error: printed without a traceback, exit status 1."""
