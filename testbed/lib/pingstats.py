# SPDX-License-Identifier: GPL-2.0
"""ping output and percentiles for the testbed scenarios' summaries."""
import re


def pings(path):
    """[(icmp_seq, rtt_ms), ...] of the replies in a ping output file."""
    v = []
    for line in open(path, errors="replace"):
        m = re.search(r"icmp_seq=(\d+) .*time=([\d.]+) ms", line)
        if m:
            v.append((int(m.group(1)), float(m.group(2))))
    return v


def pct(values, p):
    """The p-th percentile (nearest rank) of values, None if empty."""
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] if v else None
