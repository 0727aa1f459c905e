# SPDX-License-Identifier: GPL-2.0
"""Random RTM_NEWQDISC messages for ebdp (issue #20's netlink stress).

Run by 75-netlink-fuzz.sh, as root, in the namespace of DEV (carrying
traffic, an ebdp root on it) and DEV2 (idle, no qdisc):
    python3 netlink_fuzz.py DEV DEV2 COUNT SEED

Each message is a change of DEV's ebdp or a creation on DEV2 (deleted
again when it succeeded), with TCA_OPTIONS made of a random subset of
attributes, each one of: a valid value, a bound, one past a bound, the
largest value of its type, a random value, a wrong length (0-9 bytes),
NLA_F_NESTED or NLA_F_NET_BYTEORDER set, an unknown or zero type, a nest of
garbage, random bytes; now and then the attribute stream is cut inside an
attribute, TCA_OPTIONS lacks NLA_F_NESTED, or is empty.

Outcomes: rejected with an extack message (NLMSGERR_ATTR_MSG), rejected
without one (a defect), or accepted; an accepted message must read back
identically from an RTM_GETQDISC dump for every attribute it carried
(anything else is "inconsistent", a defect), and qmin <= qmax must hold.
A message that is malformed (by construction) and accepted is a defect.

Prints one line per defect ("defect<TAB>what"), then
"counts<TAB>sent=N accepted=A rejected_extack=R rejected_noextack=X
inconsistent=I malformed_accepted=M".
"""
import random
import socket
import struct
import sys

import netlink_strict as ns

U32_MAX = 0xFFFFFFFF


def attr_case(rng, t):
    """(bytes, well_formed, value or None) for attribute type t."""
    lo, hi = ns.RANGES[t]
    is8 = t in ns.U8_ATTRS
    top = 0xFF if is8 else U32_MAX
    r = rng.random()
    if r < 0.40:
        v = rng.randint(lo, hi)
    elif r < 0.55:
        v = rng.choice((lo, hi))
    elif r < 0.65:
        v = rng.choice([x for x in (lo - 1, hi + 1, top) if 0 <= x <= top])
    elif r < 0.72:
        v = rng.randint(0, top)
    else:
        v = None
    if v is not None:
        return ns.value_attr(t, v), True, v
    r = rng.random()
    if r < 0.30:       # wrong length
        n = rng.choice([x for x in range(10) if x != (1 if is8 else 4)])
        return ns.nla(t, bytes(rng.randrange(256) for _ in range(n))), False, None
    if r < 0.50:       # NLA_F_NESTED on a scalar
        inner = ns.nla(rng.randrange(1, 20), ns.u32(rng.randrange(1 << 32)))
        return ns.nla(t | ns.NLA_F_NESTED,
                      rng.choice([inner, ns.u8(1) if is8 else ns.u32(5000)])), False, None
    if r < 0.65:       # NLA_F_NET_BYTEORDER: accepted by the core for ints
        v = rng.randint(lo, hi)
        payload = struct.pack("=B", v) if is8 else struct.pack(">I", v)
        return ns.nla(t | 0x4000, payload), None, None
    return ns.nla(t, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))), False, None


def garbage_attr(rng):
    r = rng.random()
    if r < 0.4:        # unknown type
        t = rng.choice([0, ns.TCA_EBDP_MAX + 1, rng.randrange(ns.TCA_EBDP_MAX + 1, 0x3FFF)])
        return ns.nla(t, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12))))
    if r < 0.7:        # nested garbage
        inner = b"".join(ns.nla(rng.randrange(0, 30), ns.u32(rng.randrange(1 << 32)))
                         for _ in range(rng.randrange(1, 4)))
        return ns.nla(rng.randrange(0, 16) | ns.NLA_F_NESTED, inner)
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))


def build(rng):
    """(options bytes, opts_flags, well_formed, {type: value})"""
    attrs = []
    well = True
    values = {}
    types = [t for t in ns.RANGES if rng.random() < 0.35]
    rng.shuffle(types)
    for t in types:
        a, ok, v = attr_case(rng, t)
        attrs.append(a)
        if ok is False:
            well = False
        if ok and v is not None:
            values[t] = v
    if rng.random() < 0.15:
        attrs.insert(rng.randrange(len(attrs) + 1), garbage_attr(rng))
        well = False
    opts = b"".join(attrs)
    if opts and rng.random() < 0.05:      # cut inside an attribute
        # inside its header or payload, not in the padding after it: the
        # last attribute of a message need not be padded
        cuts, off = [], 0
        for a in attrs:
            n = struct.unpack_from("=H", a)[0] if len(a) >= 4 else len(a)
            cuts += range(off + 1, off + min(n, len(a)))
            off += len(a)
        if cuts:
            opts = opts[:rng.choice(cuts)]
            well = False
    flags = ns.NLA_F_NESTED
    if rng.random() < 0.03:
        flags = 0
        well = False
    return opts, flags, well, values


def range_ok(values):
    for t, v in values.items():
        lo, hi = ns.RANGES[t]
        if not lo <= v <= hi:
            return False
    return True


def main():
    dev = socket.if_nametoindex(sys.argv[1])
    dev2 = socket.if_nametoindex(sys.argv[2])
    count = int(sys.argv[3])
    rng = random.Random(int(sys.argv[4]))
    c = dict(sent=0, accepted=0, rejected_extack=0, rejected_noextack=0,
             inconsistent=0, malformed_accepted=0)
    defects = 0

    def defect(what):
        nonlocal defects
        defects += 1
        if defects <= 20:
            print("defect\t%s" % what.replace("\t", " "))
            sys.stdout.flush()

    for i in range(count):
        opts, flags, well, values = build(rng)
        on_create = rng.random() < 0.3
        target = dev2 if on_create else dev
        if on_create:
            err, tlv = ns.create(dev2, opts, flags)
        else:
            err, tlv = ns.change(dev, opts, flags)
        c["sent"] += 1
        if err < 0:
            msg, _ = ns.ack_text(err, tlv)
            if msg:
                c["rejected_extack"] += 1
            else:
                c["rejected_noextack"] += 1
                defect("message %d rejected without an extack message: %s"
                       % (i, ns.describe(err, tlv)))
            continue
        c["accepted"] += 1
        got = ns.ebdp_options(target)
        if well is False:
            c["malformed_accepted"] += 1
            defect("message %d malformed by construction, accepted; now %s"
                   % (i, ns.show(got) if got else None))
        if got is None:
            c["inconsistent"] += 1
            defect("message %d accepted, no ebdp qdisc reads back" % i)
        else:
            want = values if values is not None else {}
            bad = {t: (v, got.get(t)) for t, v in want.items() if got.get(t) != v}
            if want and not range_ok(want):
                bad["range"] = "out-of-range value accepted"
            q = got.get(ns.TCA_EBDP_QMIN), got.get(ns.TCA_EBDP_QMAX)
            if None not in q and q[0] > q[1]:
                bad["qmin>qmax"] = q
            r = got.get(ns.TCA_EBDP_RELEASE), got.get(ns.TCA_EBDP_ACKPRIO)
            if r[0] and not r[1]:
                bad["release without ackprio"] = r
            if bad:
                c["inconsistent"] += 1
                defect("message %d accepted, read back differs: %s (sent %s)"
                       % (i, bad, ns.show(want)))
        if on_create:
            ns.delete(dev2)
    print("counts\t" + " ".join("%s=%d" % kv for kv in c.items()))


if __name__ == "__main__":
    main()
