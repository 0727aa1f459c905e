#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A deliberately simple mac80211_hwsim medium to exercise the testbed hwsim
patches (testbed/hwsim-patches/) without the real medium (testbed/medium/).

It registers with HWSIM_CMD_REGISTER and serves every frame on one shared
channel, one after the other, each taking --airtime-us of air:

  * a frame is delivered (HWSIM_CMD_FRAME) to every other radio, and its
    status (HWSIM_CMD_TX_INFO_FRAME) is reported, when its air time ends;
    the next frame is taken by access category (management as VO), radios
    in turn within one (no contention, backoff or collisions);
  * the rate table is honoured: a frame sent at an HT MCS above --max-mcs
    fails on every attempt at that rate, any other rate succeeds at its
    first attempt; the counts actually used are reported, and
    HWSIM_TX_STAT_ACK only when a unicast frame succeeded;
  * it sends the patches' attributes: HWSIM_ATTR_TX_AIRTIME (airtime x
    attempts), HWSIM_ATTR_RX_AIRTIME, and HWSIM_ATTR_CHAN_{ACTIVE,BUSY,TX}_TIME
    (active: since the medium started; busy: air used by any radio; tx: own;
    the last values sent to each radio are in the stats as sent_*_us);
  * it counts what the kernel sends: frames flagged HWSIM_TX_CTL_AMPDU, and
    per radio and access category the largest number of frames waiting for
    a status at once (the hwsim hardware-queue depth seen from outside).

Its counters are written as JSON to --stats every 0.5 s and at SIGTERM.
Standard library only (raw AF_NETLINK sockets).
"""
import argparse
import json
import os
import select
import signal
import socket
import struct
import sys
import time
from collections import deque

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2
NLM_F_REQUEST = 1
NLMSG_ERROR = 2

# drivers/net/wireless/virtual/mac80211_hwsim.h, 6.12 + testbed/hwsim-patches
CMD_REGISTER, CMD_FRAME, CMD_TX_INFO_FRAME = 1, 2, 3
A_RECEIVER, A_TRANSMITTER, A_FRAME, A_FLAGS, A_RX_RATE, A_SIGNAL = 1, 2, 3, 4, 5, 6
A_TX_INFO, A_COOKIE, A_FREQ, A_PAD, A_TX_INFO_FLAGS = 7, 8, 19, 20, 21
TX_CTL_REQ_TX_STATUS, TX_CTL_NO_ACK, TX_STAT_ACK = 1, 2, 4
# the extension's numbers, as the patched hwsim publishes them (0005)
EXT = dict(kv.split("=") for kv in
           open("/sys/module/mac80211_hwsim/parameters/ext_attrs").read().split())
A_TX_AIRTIME, A_RX_AIRTIME = int(EXT["tx_airtime"]), int(EXT["rx_airtime"])
A_CHAN_BUSY, A_CHAN_ACTIVE, A_CHAN_TX = (int(EXT[k]) for k in
                                          ("chan_busy_time", "chan_active_time", "chan_tx_time"))
A_AMPDU_LEN, A_AMPDU_ACKED = int(EXT["tx_ampdu_len"]), int(EXT["tx_ampdu_acked"])
TX_CTL_AMPDU = int(EXT["tx_ctl_ampdu"], 0)
RC_MCS = 1 << 3
TXINFO_SEQ = 1 << 31  # marks our TX_INFO messages, to match errors to them
AC_OF_TID = [2, 3, 3, 2, 1, 1, 0, 0]  # mac80211 ieee802_1d_to_ac: VO0 VI1 BE2 BK3


def nla(atype, payload):
    n = 4 + len(payload)
    return struct.pack("HH", n, atype) + payload + b"\0" * ((4 - n % 4) % 4)


def parse_attrs(buf):
    out, off = {}, 0
    while off + 4 <= len(buf):
        n, t = struct.unpack_from("HH", buf, off)
        if n < 4:
            break
        out[t & 0x3fff] = buf[off + 4:off + n]
        off += (n + 3) & ~3
    return out


class Medium:
    def __init__(self, args):
        self.a = args
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sk.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)  # SO_RCVBUFFORCE
        self.sk.setsockopt(socket.SOL_SOCKET, 32, 8 << 20)  # SO_SNDBUFFORCE
        self.sk.bind((0, 0))
        self.seq = 0
        self.fam = self.resolve("MAC80211_HWSIM")
        self.t0 = time.monotonic()
        self.radios = {}  # transmitter address -> stats
        for a in args.radio:
            self.radio(bytes.fromhex(a.replace(":", "")))
        self.waiting = {}  # (access category, radio) -> deque of frames
        self.rr = 0        # round robin among radios of one category
        self.cur = None    # the frame on the air
        self.busy_us = 0  # every radio hears every frame
        self.st = {"frames": 0, "ampdu_flagged": 0, "acked": 0, "failed": 0,
                   "nl_errors": 0, "txinfo_errors": 0, "tx_airtime_by_pair": {}}

    def radio(self, addr):
        if addr not in self.radios:
            self.radios[addr] = {"tx_us": 0, "sent": [0, 0, 0],
                                 "outstanding": [0] * 5,
                                 "max_outstanding": [0] * 5}
        return self.radios[addr]

    def send(self, cmd, attrs, family=None):
        self.seq = (self.seq + 1) & 0x7fffffff
        seq = self.seq | (TXINFO_SEQ if cmd == CMD_TX_INFO_FRAME else 0)
        payload = struct.pack("BBH", cmd, 1, 0) + b"".join(attrs)
        hdr = struct.pack("=IHHII", 16 + len(payload), family or self.fam,
                          NLM_F_REQUEST, seq, 0)
        self.sk.send(hdr + payload)

    def resolve(self, name):
        self.send(CTRL_CMD_GETFAMILY, [nla(CTRL_ATTR_FAMILY_NAME,
                                           name.encode() + b"\0")], GENL_ID_CTRL)
        buf = self.sk.recv(65536)
        n, t = struct.unpack_from("=IH", buf)
        if t == NLMSG_ERROR:
            sys.exit("fake-medium: family %s not found" % name)
        at = parse_attrs(buf[20:n])
        return struct.unpack("H", at[CTRL_ATTR_FAMILY_ID][:2])[0]

    def survey(self, addr, now):
        r = self.radio(addr)
        active = int((now - self.t0) * 1e6)
        r["sent"] = [active, min(self.busy_us, active), r["tx_us"]]
        return [nla(A_CHAN_ACTIVE, struct.pack("Q", active)),
                nla(A_CHAN_BUSY, struct.pack("Q", min(self.busy_us, active))),
                nla(A_CHAN_TX, struct.pack("Q", r["tx_us"]))]

    def on_frame(self, at, now):
        tx = at[A_TRANSMITTER][:6]
        frame = at[A_FRAME]
        flags = struct.unpack("I", at[A_FLAGS][:4])[0]
        rates = [struct.unpack_from("bB", at[A_TX_INFO], 2 * i) for i in range(4)]
        rflags = [0] * 4
        if A_TX_INFO_FLAGS in at:
            rflags = [struct.unpack_from("=bH", at[A_TX_INFO_FLAGS], 3 * i)[1]
                      for i in range(4)]
        r = self.radio(tx)
        self.st["frames"] += 1
        if flags & TX_CTL_AMPDU:
            self.st["ampdu_flagged"] += 1
        ac = 4
        fc = frame[0] if frame else 0
        if (fc & 0x0c) == 0x08 and (fc & 0x80) and len(frame) >= 26:
            hdrlen = 30 if (frame[1] & 3) == 3 else 24
            if len(frame) > hdrlen:
                ac = AC_OF_TID[frame[hdrlen] & 7]
        r["outstanding"][ac] += 1
        r["max_outstanding"][ac] = max(r["max_outstanding"][ac], r["outstanding"][ac])
        # the rate table, attempt by attempt
        unicast = len(frame) >= 10 and not frame[4] & 1
        used, ok, attempts = [], False, 0
        for (idx, cnt), rf in zip(rates, rflags):
            if idx < 0 or cnt == 0:
                break
            if unicast and rf & RC_MCS and idx > self.a.max_mcs:
                used.append((idx, cnt))
                attempts += cnt
                continue
            used.append((idx, 1))
            attempts += 1
            ok = True
            break
        if not used:
            used, attempts, ok = [(0, 1)], 1, True
        air = self.a.airtime_us * attempts
        prio = 0 if ac == 4 else ac  # management and beacons as VO
        self.waiting.setdefault((prio, tx), deque()).append(
            [0.0, tx, frame, flags, used, ok and unicast,
             at[A_COOKIE], at.get(A_FREQ), ac, air, ok])

    def start_next(self, now):
        """Put the next frame on the air: the highest access category first
        (VO, VI, BE, BK), radios in turn within one, so that beacons are not
        stuck behind a radio's backlog."""
        keys = sorted(k for k, q in self.waiting.items() if q)
        if not keys:
            return
        prio = keys[0][0]
        radios = [k for k in keys if k[0] == prio]
        self.rr += 1
        q = self.waiting[radios[self.rr % len(radios)]]
        self.cur = q.popleft()
        self.cur[0] = now + self.cur[9] / 1e6

    def complete(self, now):
        due, tx, frame, flags, used, acked, cookie, freq, ac, air, ok = self.cur
        self.cur = None
        r = self.radio(tx)
        r["outstanding"][ac] -= 1
        r["tx_us"] += air
        self.busy_us += air
        if ok:
            for rx in list(self.radios):
                if rx == tx:
                    continue
                attrs = [nla(A_RECEIVER, rx), nla(A_FRAME, frame),
                         nla(A_RX_RATE, struct.pack("I", 0)),
                         nla(A_SIGNAL, struct.pack("i", -50)),
                         nla(A_RX_AIRTIME, struct.pack("I", self.a.airtime_us))]
                if freq:
                    attrs.append(nla(A_FREQ, freq))
                self.send(CMD_FRAME, attrs + self.survey(rx, now))
        if flags & TX_CTL_NO_ACK:
            acked = False
        self.st["acked" if acked else "failed"] += 1
        if len(frame) >= 16:
            key = "%s>%s" % (frame[10:16].hex(":"), frame[4:10].hex(":"))
            pairs = self.st["tx_airtime_by_pair"]
            pairs[key] = pairs.get(key, 0) + air
        tinfo = b"".join(struct.pack("bB", *(used[i] if i < len(used) else (-1, 0)))
                         for i in range(4))
        oflags = flags & (TX_CTL_REQ_TX_STATUS | TX_CTL_NO_ACK)
        if acked:
            oflags |= TX_STAT_ACK
        self.send(CMD_TX_INFO_FRAME,
                  [nla(A_TRANSMITTER, tx), nla(A_FLAGS, struct.pack("I", oflags)),
                   nla(A_TX_INFO, tinfo), nla(A_SIGNAL, struct.pack("i", -50)),
                   nla(A_COOKIE, cookie),
                   nla(A_TX_AIRTIME, struct.pack("I", air))] + self.survey(tx, now))

    def dump(self):
        now = time.monotonic()
        out = dict(self.st)
        out["radios"] = {}
        for addr, r in self.radios.items():
            out["radios"][addr.hex(":")] = {
                "active_us": int((now - self.t0) * 1e6), "busy_us": self.busy_us,
                "tx_us": r["tx_us"], "max_outstanding": r["max_outstanding"],
                "sent_active_us": r["sent"][0], "sent_busy_us": r["sent"][1],
                "sent_tx_us": r["sent"][2]}
        tmp = self.a.stats + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f, indent=1)
        os.replace(tmp, self.a.stats)

    def run(self):
        self.send(CMD_REGISTER, [])
        print("fake-medium: registered", flush=True)
        next_dump = 0.0
        while True:
            now = time.monotonic()
            if self.cur and self.cur[0] <= now:
                self.complete(now)
            if not self.cur:
                self.start_next(now)
            if now >= next_dump:
                self.dump()
                next_dump = now + 0.5
            timeout = min(next_dump, self.cur[0] if self.cur else next_dump) - now
            if not select.select([self.sk], [], [], max(timeout, 0))[0]:
                continue
            # read all that is waiting, so that frames hwsim has handed over
            # are counted as outstanding here rather than sit in the socket
            for _ in range(256):
                try:
                    buf = self.sk.recv(1 << 20, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                self.parse(buf)

    def parse(self, buf):
        off = 0
        while off + 16 <= len(buf):
            n, t = struct.unpack_from("=IH", buf, off)
            if n < 16:
                break
            if t == NLMSG_ERROR:
                err, seq = struct.unpack_from("=i8xI", buf, off + 16)
                if err:
                    self.st["nl_errors"] += 1
                    if seq & TXINFO_SEQ:
                        self.st["txinfo_errors"] += 1
            elif t == self.fam and buf[off + 16] == CMD_FRAME:
                self.on_frame(parse_attrs(buf[off + 20:off + n]), time.monotonic())
            off += (n + 3) & ~3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--airtime-us", type=int, default=1000)
    p.add_argument("--max-mcs", type=int, default=7,
                   help="HT MCS index above which every attempt fails")
    p.add_argument("--radio", action="append", default=[],
                   help="transmitter address of a radio to serve from the start")
    p.add_argument("--stats", required=True)
    a = p.parse_args()
    m = Medium(a)

    def term(*_):
        m.dump()
        sys.exit(0)
    signal.signal(signal.SIGTERM, term)
    m.run()


if __name__ == "__main__":
    main()
