# SPDX-License-Identifier: GPL-2.0
# Socket helper of tcp_airtime's VM tests and benchmark (run with python3,
# not executable: the VM runner runs only NN-name.sh).
#
#   idle N             N loopback connections (2 N sockets), every socket
#                      with TCP_CONGESTION "airtime"; prints "ready N" once
#                      they are established and holds them until its
#                      standard input closes
#   recv ADDR PORT CC  listen on ADDR:PORT with TCP_CONGESTION CC, accept
#                      one connection and print at once its window_clamp
#                      (TCP_WINDOW_CLAMP), SO_RCVBUF, rcv_ssthresh
#                      (TCP_INFO) and its /proc/net/tcp_airtime line
#                      ("first ..."); read until EOF, then print the same
#                      ("end ...") and the bytes read
#   send ADDR PORT BYTES [WAIT]
#                      connect, wait, send BYTES.  WAIT: seconds (default
#                      0), or a file: until a line of it starts "first "
#                      (the receiver's, so that it is read before any data
#                      arrives however long the guest takes to get there:
#                      under the virtual clock a receiver that waits on the
#                      host's file system lets guest time jump past a
#                      sender's timer)
#   sink ADDR PORT     accept connections on ADDR:PORT and read each to
#                      EOF, forever
#   churn ADDR PORT    connect (the namespace's default congestion
#                      control), send 32 kB, close after the sink has
#                      (no TIME_WAIT here), and again, until SIGTERM; then
#                      print "churn ok N failed M"
import os
import select
import socket
import struct
import sys
import time

TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
TCP_WINDOW_CLAMP = getattr(socket, "TCP_WINDOW_CLAMP", 10)
CC = os.environ.get("AQ_IDLE_CC", "airtime").encode()


def airtime_line(port):
    try:
        with open("/proc/net/tcp_airtime") as f:
            for line in f:
                if line.split()[0].endswith(":%d" % port):
                    return line.strip()
    except OSError:
        pass
    return "-"


def state(tag, s):
    port = s.getsockname()[1]
    wc = s.getsockopt(socket.IPPROTO_TCP, TCP_WINDOW_CLAMP)
    rb = s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
    # struct tcp_info: tcpi_rcv_ssthresh, the window offered, is the u32
    # at byte 64 (8 bytes of u8 fields, then rto ... pmtu)
    info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    ssthresh = struct.unpack_from("I", info, 64)[0]
    print("%s window_clamp %d rcvbuf %d rcv_ssthresh %d air %s" %
          (tag, wc, rb, ssthresh, airtime_line(port)), flush=True)


def idle(n):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2 * n + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft),
                                                    max(want, hard)))
    lst = socket.socket()
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, CC)
    lst.bind(("127.0.0.1", 0))
    lst.listen(4096)
    addr = lst.getsockname()
    keep = []
    done = 0
    while done < n:
        batch = min(512, n - done)
        cli = []
        for _ in range(batch):
            c = socket.socket()
            c.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, CC)
            c.connect(addr)
            cli.append(c)
        for _ in range(batch):
            a, _ = lst.accept()
            keep.append(a)
        keep.extend(cli)
        done += batch
    print("ready %d" % done, flush=True)
    select.select([sys.stdin], [], [])
    sys.stdin.read()
    # abort (RST, SO_LINGER 0): no TIME_WAIT sockets left for 60 s to
    # slow down the next script's readers of /proc/net/tcp
    linger = struct.pack("ii", 1, 0)
    for s in keep:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
        s.close()


def recv(addr, port, cc):
    lst = socket.socket()
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, cc.encode())
    lst.bind((addr, port))
    lst.listen(1)
    print("listening", flush=True)
    s, _ = lst.accept()
    state("first", s)
    total = 0
    while True:
        b = s.recv(65536)
        if not b:
            break
        total += len(b)
    state("end", s)
    print("bytes %d" % total, flush=True)
    s.close()


def first_seen(path):
    try:
        with open(path) as f:
            return any(line.startswith("first ") for line in f)
    except OSError:
        return False


def send(addr, port, nbytes, wait="0"):
    s = socket.create_connection((addr, port))
    try:
        wait_s = float(wait)
    except ValueError:
        wait_s = 0.0
        deadline = time.monotonic() + 600
        while not first_seen(wait) and time.monotonic() < deadline:
            time.sleep(0.01)
    if wait_s:
        time.sleep(wait_s)
    buf = b"x" * 65536
    left = nbytes
    while left > 0:
        left -= s.send(buf[:min(left, len(buf))])
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    s.close()


def sink(addr, port):
    lst = socket.socket()
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.bind((addr, port))
    lst.listen(256)
    conns = []
    while True:
        r, _, _ = select.select([lst] + conns, [], [])
        for s in r:
            if s is lst:
                conns.append(lst.accept()[0])
                continue
            try:
                b = s.recv(65536)
            except OSError:
                b = b""
            if not b:
                conns.remove(s)
                s.close()


def churn(addr, port):
    import signal
    counts = {"ok": 0, "failed": 0}

    def stop(*_):
        print("churn ok %d failed %d" % (counts["ok"], counts["failed"]),
              flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    buf = b"x" * 32768
    while True:
        try:
            s = socket.create_connection((addr, port), timeout=5)
            s.sendall(buf)
            # the sink closes first and keeps the TIME_WAIT: thousands of
            # connections a minute would use up the ephemeral ports here
            s.shutdown(socket.SHUT_WR)
            while s.recv(4096):
                pass
            s.close()
            counts["ok"] += 1
        except OSError:
            counts["failed"] += 1


def main():
    mode = sys.argv[1]
    if mode == "idle":
        idle(int(sys.argv[2]))
    elif mode == "recv":
        recv(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif mode == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
             sys.argv[5] if len(sys.argv) > 5 else "0")
    elif mode == "sink":
        sink(sys.argv[2], int(sys.argv[3]))
    elif mode == "churn":
        churn(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit("usage: airtime_socks.py idle N | recv ADDR PORT CC | "
                 "send ADDR PORT BYTES [WAIT] | sink ADDR PORT | churn ADDR PORT")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
