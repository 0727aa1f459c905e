#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Create and destroy mac80211_hwsim radios over generic netlink.

    hwsim_radio.py new [NAME]      create a radio (named NAME, e.g. aqr7);
                                   prints its id
    hwsim_radio.py del ID|NAME     destroy a radio by id or wiphy name

The MAC80211_HWSIM family's HWSIM_CMD_NEW_RADIO / HWSIM_CMD_DEL_RADIO
(include/uapi of drivers/net/wireless/virtual/mac80211_hwsim.h), as
hwsim's own tools do: the kernel answers NEW_RADIO with the new radio's id
in the acknowledgement's error field (a positive number).  Errors: the
kernel's errno and extack message on stderr, exit 1.  Standard library only.
"""
import errno
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLMSG_ERROR = 0x2
NLMSGERR_ATTR_MSG = 1
NLM_F_ACK_TLVS = 0x200

HWSIM_CMD_NEW_RADIO = 4
HWSIM_CMD_DEL_RADIO = 5
HWSIM_ATTR_RADIO_ID = 10
HWSIM_ATTR_RADIO_NAME = 17


def attr(t, payload):
    n = 4 + len(payload)
    return struct.pack("HH", n, t) + payload + b"\0" * ((4 - n % 4) % 4)


def attrs(buf):
    out = {}
    while len(buf) >= 4:
        n, t = struct.unpack_from("HH", buf)
        if n < 4:
            break
        out[t & 0x3fff] = buf[4:n]
        buf = buf[(n + 3) & ~3:]
    return out


class Genl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.bind((0, 0))
        self.s.setsockopt(270, 11, 1)   # SOL_NETLINK, NETLINK_EXT_ACK
        self.seq = 0

    def request(self, family, cmd, payload):
        """Send; return (error or positive value, extack message, replies)"""
        self.seq += 1
        body = struct.pack("BBH", cmd, 1, 0) + payload
        self.s.send(struct.pack("IHHII", 16 + len(body), family,
                                NLM_F_REQUEST | NLM_F_ACK, self.seq, 0) + body)
        replies = []
        while True:
            data = self.s.recv(65536)
            while len(data) >= 16:
                n, t, flags, seq, _ = struct.unpack_from("IHHII", data)
                msg, data = data[16:n], data[(n + 3) & ~3:]
                if seq != self.seq:
                    continue
                if t != NLMSG_ERROR:
                    replies.append(msg[4:])
                    continue
                err = struct.unpack_from("i", msg)[0]
                text = ""
                if flags & NLM_F_ACK_TLVS:
                    # the original header (and its payload when an error)
                    off = 4 + (16 if err == 0 or err > 0 else
                               struct.unpack_from("I", msg, 4)[0])
                    a = attrs(msg[(off + 3) & ~3:])
                    if NLMSGERR_ATTR_MSG in a:
                        text = a[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
                return err, text, replies

    def family(self, name):
        err, text, replies = self.request(
            GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
            attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        if err < 0 or not replies:
            die(f"generic netlink family {name}: "
                f"{os.strerror(-err) if err < 0 else 'no reply'}"
                " (is mac80211_hwsim loaded?)")
        return struct.unpack("H", attrs(replies[0])[CTRL_ATTR_FAMILY_ID][:2])[0]


def die(msg):
    print(f"hwsim_radio: {msg}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) < 2 or argv[1] not in ("new", "del") or \
       (argv[1] == "del" and len(argv) != 3) or len(argv) > 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    g = Genl()
    fam = g.family("MAC80211_HWSIM")
    if argv[1] == "new":
        payload = b""
        if len(argv) == 3:
            payload = attr(HWSIM_ATTR_RADIO_NAME, argv[2].encode() + b"\0")
        err, text, _ = g.request(fam, HWSIM_CMD_NEW_RADIO, payload)
        if err < 0:
            die(f"new radio: {os.strerror(-err)}{': ' + text if text else ''}")
        print(err)
        return 0
    key = argv[2]
    if key.isdigit():
        payload = attr(HWSIM_ATTR_RADIO_ID, struct.pack("I", int(key)))
    else:
        payload = attr(HWSIM_ATTR_RADIO_NAME, key.encode() + b"\0")
    err, text, _ = g.request(fam, HWSIM_CMD_DEL_RADIO, payload)
    if err < 0:
        die(f"del radio {key}: {os.strerror(-err)}"
            f"{': ' + text if text else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
