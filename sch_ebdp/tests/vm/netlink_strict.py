# SPDX-License-Identifier: GPL-2.0
"""Raw netlink checks of sch_ebdp's TCA_OPTIONS parsing (strict policy).

Run by 70-netlink-strict.sh, as root, in a network namespace holding two
dummy devices:  python3 netlink_strict.py DEV_CHANGE DEV_CREATE

Sends RTM_NEWQDISC messages that tc cannot build (NLA_F_NESTED on a scalar,
a u32 of 8 bytes, a u8 of 4, unknown and zero-length attributes, a
TCA_OPTIONS without NLA_F_NESTED) both as a change of an existing ebdp
qdisc and as a creation, and checks that each is rejected with an extack
message (NLMSGERR_ATTR_MSG) and the offset of the offending attribute
(NLMSGERR_ATTR_OFFS), leaving the qdisc as it was (RTM_GETQDISC dump) or
not created.  Then every attribute's range: both bounds accepted and read
back, one past each bound and the largest value of the type rejected with
the netlink core's message and the policy's bounds (NLMSGERR_ATTR_POLICY);
the cross-field check qmin <= qmax with its longest message untruncated.

Output, one line per check, for the wrapper to turn into TAP:
  pass<TAB>description
  fail<TAB>description<TAB>what was seen
Plain sockets and struct only: no dependency beyond python3.
"""
import errno
import os
import socket
import struct
import sys

SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11

NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_REQUEST = 0x1
NLM_F_MULTI = 0x2
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLM_F_EXCL = 0x200
NLM_F_CREATE = 0x400
NLM_F_CAPPED = 0x100
NLM_F_ACK_TLVS = 0x200

NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_POLICY = 4
NL_POLICY_TYPE_ATTR_MIN_VALUE_U = 4
NL_POLICY_TYPE_ATTR_MAX_VALUE_U = 5

RTM_NEWQDISC = 36
RTM_DELQDISC = 37
RTM_GETQDISC = 38
TCA_KIND = 1
TCA_OPTIONS = 2
TC_H_ROOT = 0xFFFFFFFF
HANDLE = 0x10000  # 1:

NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3FFF

# pkt_sched_ebdp.h
(TCA_EBDP_UNSPEC, TCA_EBDP_TMAX, TCA_EBDP_C, TCA_EBDP_QMAX, TCA_EBDP_WEIGHT,
 TCA_EBDP_MODE, TCA_EBDP_ACKPRIO, TCA_EBDP_ACKLIMIT, TCA_EBDP_INTERVAL,
 TCA_EBDP_QMIN, TCA_EBDP_ALT_A, TCA_EBDP_ALT_B, TCA_EBDP_RELEASE,
 TCA_EBDP_QUANTUM) = range(14)
TCA_EBDP_MAX = TCA_EBDP_QUANTUM
U8_ATTRS = (TCA_EBDP_MODE, TCA_EBDP_ACKPRIO)
NAMES = {
    TCA_EBDP_TMAX: "TCA_EBDP_TMAX", TCA_EBDP_C: "TCA_EBDP_C",
    TCA_EBDP_QMAX: "TCA_EBDP_QMAX", TCA_EBDP_WEIGHT: "TCA_EBDP_WEIGHT",
    TCA_EBDP_MODE: "TCA_EBDP_MODE", TCA_EBDP_ACKPRIO: "TCA_EBDP_ACKPRIO",
    TCA_EBDP_ACKLIMIT: "TCA_EBDP_ACKLIMIT",
    TCA_EBDP_INTERVAL: "TCA_EBDP_INTERVAL", TCA_EBDP_QMIN: "TCA_EBDP_QMIN",
    TCA_EBDP_ALT_A: "TCA_EBDP_ALT_A", TCA_EBDP_ALT_B: "TCA_EBDP_ALT_B",
    TCA_EBDP_RELEASE: "TCA_EBDP_RELEASE", TCA_EBDP_QUANTUM: "TCA_EBDP_QUANTUM",
}
# The ranges accepted before strict parsing, unchanged (sch_ebdp.rst).
RANGES = {
    TCA_EBDP_TMAX: (1, 10000000),
    TCA_EBDP_C: (0, 65535),
    TCA_EBDP_QMAX: (1, 65535),
    TCA_EBDP_WEIGHT: (1, 65536),
    TCA_EBDP_MODE: (0, 2),
    TCA_EBDP_ACKPRIO: (0, 1),
    TCA_EBDP_ACKLIMIT: (1, 65535),
    TCA_EBDP_INTERVAL: (1000, 60000000),
    TCA_EBDP_QMIN: (1, 65535),
    TCA_EBDP_ALT_A: (0, 100000),
    TCA_EBDP_ALT_B: (0, 100000),
    TCA_EBDP_RELEASE: (0, 16),
    TCA_EBDP_QUANTUM: (1000, 10000000),
}
# A valid configuration, every value different from its default.
VALID = {
    TCA_EBDP_TMAX: 150000, TCA_EBDP_C: 7, TCA_EBDP_QMAX: 300,
    TCA_EBDP_WEIGHT: 2048, TCA_EBDP_MODE: 2, TCA_EBDP_ACKPRIO: 1,
    TCA_EBDP_ACKLIMIT: 48, TCA_EBDP_INTERVAL: 250000, TCA_EBDP_QMIN: 9,
    TCA_EBDP_ALT_A: 12, TCA_EBDP_ALT_B: 3, TCA_EBDP_RELEASE: 2,
    TCA_EBDP_QUANTUM: 50000,
}

# Offset of TCA_OPTIONS in our messages: nlmsghdr 16, tcmsg 20, TCA_KIND
# "ebdp\0" (4 + 5, padded to 12).
OPTS_OFF = 16 + 20 + 12

failures = 0


def result(ok, desc, detail=""):
    global failures
    if ok:
        print("pass\t%s" % desc)
    else:
        failures += 1
        print("fail\t%s\t%s" % (desc, detail.replace("\t", " ")))
    sys.stdout.flush()


def align(n):
    return (n + 3) & ~3


def nla(atype, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, atype) + payload + b"\0" * (align(n) - n)


def u8(v):
    return struct.pack("=B", v)


def u32(v):
    return struct.pack("=I", v)


def value_attr(atype, v):
    return nla(atype, u8(v) if atype in U8_ATTRS else u32(v))


def opts_of(values):
    return b"".join(value_attr(t, v) for t, v in sorted(values.items()))


def parse_attrs(buf):
    """type (flags masked) -> payload; raises on a malformed stream."""
    out = {}
    off = 0
    while off + 4 <= len(buf):
        n, t = struct.unpack_from("=HH", buf, off)
        if n < 4 or off + n > len(buf):
            raise ValueError("bad attribute at %d" % off)
        out[t & NLA_TYPE_MASK] = buf[off + 4:off + n]
        off += align(n)
    return out


class Netlink:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               socket.NETLINK_ROUTE)
        self.s.bind((0, 0))
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.settimeout(10)
        self.seq = 0

    def send(self, mtype, flags, body):
        self.seq += 1
        msg = struct.pack("=IHHII", 16 + len(body), mtype, flags, self.seq,
                          0) + body
        self.s.send(msg)
        return self.seq

    def messages(self):
        data = self.s.recv(1 << 16)
        off = 0
        while off + 16 <= len(data):
            n, t, f, seq, _ = struct.unpack_from("=IHHII", data, off)
            yield t, f, seq, data[off:off + n]
            off += align(n)

    def request(self, mtype, flags, body):
        """Send with NLM_F_ACK; return (errno, extack attributes)."""
        seq = self.send(mtype, flags | NLM_F_REQUEST | NLM_F_ACK, body)
        while True:
            for t, f, s, msg in self.messages():
                if s != seq or t != NLMSG_ERROR:
                    continue
                err = struct.unpack_from("=i", msg, 16)[0]
                olen = struct.unpack_from("=I", msg, 20)[0]
                p = 20 + (16 if f & NLM_F_CAPPED else olen)
                tlv = parse_attrs(msg[p:]) if f & NLM_F_ACK_TLVS else {}
                return err, tlv

    def dump_qdiscs(self):
        """[(ifindex, handle, parent, kind, options dict or None)]"""
        seq = self.send(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP,
                        struct.pack("=BBHiIII", 0, 0, 0, 0, 0, 0, 0))
        out = []
        while True:
            for t, f, s, msg in self.messages():
                if s != seq:
                    continue
                if t == NLMSG_DONE:
                    return out
                if t == NLMSG_ERROR:
                    raise OSError(-struct.unpack_from("=i", msg, 16)[0],
                                  "RTM_GETQDISC dump failed")
                if t != RTM_NEWQDISC:
                    continue
                _, _, _, ifi, handle, parent, _ = struct.unpack_from(
                    "=BBHiIII", msg, 16)
                attrs = parse_attrs(msg[36:])
                kind = attrs.get(TCA_KIND, b"").rstrip(b"\0").decode()
                opts = attrs.get(TCA_OPTIONS)
                out.append((ifi, handle, parent, kind,
                            parse_attrs(opts) if opts is not None else None))


nl = Netlink()


def qdisc_body(ifindex, opts, opts_flags=NLA_F_NESTED):
    body = struct.pack("=BBHiIII", 0, 0, 0, ifindex, HANDLE, TC_H_ROOT, 0)
    body += nla(TCA_KIND, b"ebdp\0")
    if opts is not None:
        body += nla(TCA_OPTIONS | opts_flags, opts)
    return body


def create(ifindex, opts, opts_flags=NLA_F_NESTED):
    return nl.request(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
                      qdisc_body(ifindex, opts, opts_flags))


def change(ifindex, opts, opts_flags=NLA_F_NESTED):
    return nl.request(RTM_NEWQDISC, 0, qdisc_body(ifindex, opts, opts_flags))


def delete(ifindex):
    body = struct.pack("=BBHiIII", 0, 0, 0, ifindex, 0, TC_H_ROOT, 0)
    return nl.request(RTM_DELQDISC, 0, body)


def ebdp_options(ifindex):
    """Options of the ebdp root on ifindex, decoded; None if there is none."""
    for ifi, handle, parent, kind, opts in nl.dump_qdiscs():
        if ifi == ifindex and kind == "ebdp" and parent == TC_H_ROOT:
            return decode(opts or {})
    return None


def decode(opts):
    out = {}
    for t, p in opts.items():
        if t in U8_ATTRS and len(p) == 1:
            out[t] = p[0]
        elif len(p) == 4:
            out[t] = struct.unpack("=I", p)[0]
        else:
            out[t] = p.hex()
    return out


def show(values):
    return " ".join("%s=%s" % (NAMES.get(t, t), v)
                    for t, v in sorted(values.items()))


def ack_text(err, tlv):
    msg = tlv.get(NLMSGERR_ATTR_MSG, b"").rstrip(b"\0").decode(errors="replace")
    offs = tlv.get(NLMSGERR_ATTR_OFFS)
    offs = struct.unpack("=I", offs)[0] if offs and len(offs) == 4 else None
    return msg, offs


def describe(err, tlv):
    msg, offs = ack_text(err, tlv)
    if err == 0:
        return "accepted (error 0)%s" % (", extack '%s'" % msg if msg else "")
    return "error %s, extack '%s', offset %s" % (
        errno.errorcode.get(-err, err), msg, offs)


def check_rejected(err, tlv, want_msg, want_off):
    """'' if rejected with want_msg at want_off, else what was wrong."""
    msg, offs = ack_text(err, tlv)
    if err >= 0:
        return "accepted: " + describe(err, tlv)
    if not msg:
        return "rejected without an extack message: " + describe(err, tlv)
    if msg != want_msg:
        return "extack '%s', want '%s' (%s)" % (msg, want_msg,
                                                 describe(err, tlv))
    if want_off is not None and offs != want_off:
        return "offset %s, want %d (the offending attribute)" % (offs,
                                                                 want_off)
    return ""


def restore(dev):
    """Put VALID back on dev if a test changed it (only ever when it failed)."""
    if ebdp_options(dev) != VALID:
        change(dev, opts_of(VALID))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: netlink_strict.py DEV_CHANGE DEV_CREATE")
    dev = socket.if_nametoindex(sys.argv[1])
    dev2 = socket.if_nametoindex(sys.argv[2])

    # --- a valid message is accepted and reads back identically ----------
    delete(dev)
    delete(dev2)
    err, tlv = create(dev, opts_of(VALID))
    result(err == 0, "valid RTM_NEWQDISC with all %d attributes accepted" % len(VALID),
           describe(err, tlv))
    got = ebdp_options(dev)
    result(got == VALID,
           "RTM_GETQDISC dump reads back TCA_OPTIONS identically",
           "got %s, want %s" % (show(got) if got is not None else "no ebdp",
                                show(VALID)))
    if err != 0:
        return

    # --- malformed attributes: rejected, qdisc unchanged, nothing created --
    tmax = nla(TCA_EBDP_TMAX, u32(99000))  # valid, before the bad one
    bad_off = OPTS_OFF + 4 + len(tmax)
    cases = [
        # description, bad attribute, core's message
        ("NLA_F_NESTED on u32 TCA_EBDP_INTERVAL (4 bytes: an empty nest, "
         "917508 if read as a value)",
         nla(TCA_EBDP_INTERVAL | NLA_F_NESTED, struct.pack("=HH", 4, 14)),
         "NLA_F_NESTED not expected"),
        ("NLA_F_NESTED on u32 TCA_EBDP_INTERVAL holding an attribute "
         "(the fuzzer's interval 917512)",
         nla(TCA_EBDP_INTERVAL | NLA_F_NESTED, nla(14, u32(1000))),
         "invalid attribute length"),
        ("NLA_F_NESTED on u8 TCA_EBDP_MODE",
         nla(TCA_EBDP_MODE | NLA_F_NESTED, u8(1)),
         "NLA_F_NESTED not expected"),
        ("u32 TCA_EBDP_QMAX of 8 bytes",
         nla(TCA_EBDP_QMAX, struct.pack("=Q", 200)),
         "invalid attribute length"),
        ("u32 TCA_EBDP_C of 2 bytes",
         nla(TCA_EBDP_C, struct.pack("=H", 3)),
         "invalid attribute length"),
        ("u8 TCA_EBDP_MODE of 4 bytes",
         nla(TCA_EBDP_MODE, u32(1)),
         "invalid attribute length"),
        ("unknown attribute type %d (TCA_EBDP_MAX + 1)" % (TCA_EBDP_MAX + 1),
         nla(TCA_EBDP_MAX + 1, u32(1)),
         "Unknown attribute type"),
        ("attribute type 0 (TCA_EBDP_UNSPEC)",
         nla(TCA_EBDP_UNSPEC, u32(1)),
         "Unknown attribute type"),
        ("zero-length u32 TCA_EBDP_TMAX",
         nla(TCA_EBDP_TMAX, b""),
         "invalid attribute length"),
        ("zero-length u8 TCA_EBDP_ACKPRIO",
         nla(TCA_EBDP_ACKPRIO, b""),
         "invalid attribute length"),
        ("zero-length attribute type 0 (TCA_EBDP_UNSPEC)",
         nla(TCA_EBDP_UNSPEC, b""),
         "Unknown attribute type"),
    ]
    for desc, attr, want in cases:
        opts = tmax + attr
        err, tlv = change(dev, opts)
        why = check_rejected(err, tlv, want, bad_off)
        got = ebdp_options(dev)
        if not why and got != VALID:
            why = "qdisc changed to %s" % show(got)
        result(not why, "change: %s rejected ('%s'), qdisc unchanged"
               % (desc, want), why + ("; now %s" % show(got) if why and got
                                      and got != VALID else ""))
        restore(dev)

        err, tlv = create(dev2, opts)
        why = check_rejected(err, tlv, want, bad_off)
        got = ebdp_options(dev2)
        if not why and got is not None:
            why = "an ebdp qdisc exists: %s" % show(got)
        result(not why, "create: %s rejected ('%s'), no qdisc added"
               % (desc, want),
               why + ("; created with %s" % show(got) if why and got else ""))
        if got is not None:
            delete(dev2)

    # TCA_OPTIONS itself must carry NLA_F_NESTED (nla_parse_nested())
    err, tlv = change(dev, opts_of({TCA_EBDP_TMAX: 99000}), opts_flags=0)
    why = check_rejected(err, tlv, "NLA_F_NESTED is missing", OPTS_OFF)
    got = ebdp_options(dev)
    if not why and got != VALID:
        why = "qdisc changed to %s" % show(got)
    result(not why, "change: TCA_OPTIONS without NLA_F_NESTED rejected "
           "('NLA_F_NESTED is missing'), qdisc unchanged", why)
    restore(dev)

    # --- ranges: as before, enforced by the policy --------------------------
    for t in sorted(RANGES):
        lo, hi = RANGES[t]
        name = NAMES[t]
        whys = []
        top = 0xFF if t in U8_ATTRS else 0xFFFFFFFF
        for v in (lo, hi):
            vals = {t: v}
            # keep qmin <= qmax whatever the bound tried
            if t == TCA_EBDP_QMAX:
                vals[TCA_EBDP_QMIN] = 1
            if t == TCA_EBDP_QMIN:
                vals[TCA_EBDP_QMAX] = 65535
            # release needs ackprio
            if t == TCA_EBDP_ACKPRIO:
                vals[TCA_EBDP_RELEASE] = 0
            err, tlv = change(dev, opts_of(vals))
            got = ebdp_options(dev) or {}
            if err != 0:
                whys.append("%d refused: %s" % (v, describe(err, tlv)))
            elif got.get(t) != v:
                whys.append("%d read back as %s" % (v, got.get(t)))
        bad_vals = sorted({v for v in (lo - 1, hi + 1, top)
                           if 0 <= v <= top and not lo <= v <= hi})
        for v in bad_vals:
            restore(dev)
            opts = tmax + value_attr(t, v)
            err, tlv = change(dev, opts)
            why = check_rejected(err, tlv, "integer out of range", bad_off)
            if not why:
                pol = parse_attrs(tlv.get(NLMSGERR_ATTR_POLICY, b""))
                pmin = pol.get(NL_POLICY_TYPE_ATTR_MIN_VALUE_U)
                pmax = pol.get(NL_POLICY_TYPE_ATTR_MAX_VALUE_U)
                pmin = struct.unpack("=Q", pmin)[0] if pmin else None
                pmax = struct.unpack("=Q", pmax)[0] if pmax else None
                if (pmin, pmax) != (lo, hi):
                    why = "policy bounds %s..%s, want %d..%d" % (pmin, pmax,
                                                                 lo, hi)
            got = ebdp_options(dev)
            if not why and got != VALID:
                why = "qdisc changed to %s" % show(got)
            if why:
                whys.append("%d: %s" % (v, why))
        restore(dev)
        result(not whys, "%s: %d and %d accepted and read back; %s rejected "
               "('integer out of range', bounds in NLMSGERR_ATTR_POLICY), "
               "qdisc unchanged" % (name, lo, hi,
                                    ", ".join(str(v) for v in bad_vals)),
               "; ".join(whys))

    # --- the cross-field check: its longest message fits in extack ---------
    want = ("TCA_EBDP_QMIN (qmin) 65535 must not exceed "
            "TCA_EBDP_QMAX (qmax) 65534")
    opts = opts_of({TCA_EBDP_QMAX: 65534, TCA_EBDP_QMIN: 65535})
    # sorted by type: QMAX (3) before QMIN (9); the extack points at QMIN
    qmin_off = OPTS_OFF + 4 + len(nla(TCA_EBDP_QMAX, u32(0)))
    for what, fn, d in (("change", change, dev), ("create", create, dev2)):
        err, tlv = fn(d, opts)
        why = check_rejected(err, tlv, want, qmin_off)
        got = ebdp_options(d)
        if not why and what == "change" and got != VALID:
            why = "qdisc changed to %s" % show(got)
        if not why and what == "create" and got is not None:
            why = "an ebdp qdisc exists: %s" % show(got)
        result(not why, "%s: qmin 65535 > qmax 65534 rejected with the whole "
               "%d-character message" % (what, len(want)), why)
        if what == "create" and got is not None:
            delete(dev2)
    restore(dev)

    # --- valid again, on both devices, after all that ----------------------
    got = ebdp_options(dev)
    result(got == VALID, "change path: qdisc still reads back the valid "
           "configuration", "got %s" % (show(got) if got else None))
    err, tlv = create(dev2, opts_of(VALID))
    got = ebdp_options(dev2)
    result(err == 0 and got == VALID,
           "create path: valid message accepted, reads back identically",
           "%s, got %s" % (describe(err, tlv), show(got) if got else None))
    delete(dev2)
    delete(dev)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, struct.error) as e:
        result(False, "netlink exchange", "%s: %s" % (type(e).__name__, e))
    sys.exit(1 if failures else 0)
