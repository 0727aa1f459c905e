#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Watch the pure TCP ACKs a device sends, for 65-release.sh.

Usage: release_sniff.py DEV SECONDS

An AF_PACKET socket sees a frame leave after the root qdisc dequeued it,
so the order printed is the order the qdisc released the ACKs in.  For
each outgoing IPv4 frame that is a pure TCP ACK (ACK set, no SYN, FIN or
RST, no payload), the Ethernet destination is noted.  Printed, one
"key<TAB>value" per line:
  acks       pure ACKs seen
  switches   consecutive ACKs with different destinations
  dests      destinations seen
  per_dest   ACKs per destination, "mac=count" separated by spaces
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def pure_ack(frame):
    if len(frame) < 14 + 20 or frame[12:14] != b"\x08\x00":
        return False
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[0] >> 4 != 4 or ip[9] != 6 or ihl < 20 or len(ip) < ihl + 20:
        return False
    tot = struct.unpack_from("!H", ip, 2)[0]
    tcp = ip[ihl:]
    doff = (tcp[12] >> 4) * 4
    flags = tcp[13]
    return flags & 0x17 == 0x10 and tot == ihl + doff


def main():
    dev, secs = sys.argv[1], float(sys.argv[2])
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                      socket.htons(ETH_P_ALL))
    s.bind((dev, 0))
    s.settimeout(0.2)
    end = time.monotonic() + secs
    acks = switches = 0
    last = None
    per = {}
    while time.monotonic() < end:
        try:
            frame, addr = s.recvfrom(256)
        except socket.timeout:
            continue
        if addr[2] != PACKET_OUTGOING or not pure_ack(frame):
            continue
        dst = frame[0:6].hex(":")
        acks += 1
        per[dst] = per.get(dst, 0) + 1
        if last is not None and dst != last:
            switches += 1
        last = dst
    print("acks\t%d" % acks)
    print("switches\t%d" % switches)
    print("dests\t%d" % len(per))
    print("per_dest\t%s" % " ".join("%s=%d" % kv for kv in sorted(per.items())))


if __name__ == "__main__":
    main()
