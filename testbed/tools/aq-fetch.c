// SPDX-License-Identifier: GPL-2.0-only
/*
 * aq-fetch: objects of a fixed size fetched one after another over TCP,
 * each on a connection of its own, and the time each took: the OBSS
 * retry-limit paper's response time ("transferring small fixed-size
 * files iteratively, their completion times are monitored", section 4.2,
 * Fig. 5).
 *
 *   aq-fetch -l PORT
 *	serve: accept connections on PORT (any address), read the object's
 *	size (a decimal number and a newline), send that many octets, close.
 *	One process serves every client at once (poll).
 *   aq-fetch -c ADDR -p PORT -s OCTETS -t SECONDS [-C CC]
 *	fetch: until SECONDS have passed, connect, ask for OCTETS, read them
 *	to the end; print per object "START_S ELAPSED_MS OCTETS" (START_S the
 *	time of day, as date +%s.%N gives it; ELAPSED_MS on CLOCK_MONOTONIC
 *	from connect() to the last octet), and a
 *	last line "# done N objects, M failed".  A connection that fails or
 *	ends short counts as failed and is not timed.  -C sets the
 *	connection's congestion control (TCP_CONGESTION).
 *
 * The time includes the handshake and slow start of a new connection, as
 * a file transfer's does; no object is fetched after SECONDS.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONN	1024
#define MAX_OBJECT	(64 << 20)	/* octets: 64 MiB */
#define REQ_LEN		24

static char zeros[65536];

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double mono_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static void usage_exit(void)
{
	fprintf(stderr, "usage: aq-fetch -l PORT\n"
		"       aq-fetch -c ADDR -p PORT -s OCTETS -t SECONDS [-C CC]\n");
	exit(2);
}

/* a non-negative number from text, or -1 */
static long num(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	return v;
}

/* ------------------------------------------------------------- server */

struct conn {
	int fd;
	char req[REQ_LEN];
	unsigned int req_len;
	long left;		/* octets still to send; -1 while reading */
};

static void conn_close(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
}

/* read the request; false once the connection is to be dropped */
static int conn_read(struct conn *c)
{
	ssize_t n = read(c->fd, c->req + c->req_len, sizeof(c->req) - 1 - c->req_len);
	char *nl;

	if (n <= 0)
		return n < 0 && errno == EAGAIN;
	c->req_len += n;
	c->req[c->req_len] = 0;
	nl = strchr(c->req, '\n');
	if (!nl)
		return c->req_len < sizeof(c->req) - 1;
	*nl = 0;
	c->left = num(c->req, MAX_OBJECT);
	return c->left >= 0;
}

/* send what the socket takes; false once done or failed */
static int conn_write(struct conn *c)
{
	while (c->left > 0) {
		size_t k = c->left < (long)sizeof(zeros) ? (size_t)c->left : sizeof(zeros);
		ssize_t n = write(c->fd, zeros, k);

		if (n < 0)
			return errno == EAGAIN;
		c->left -= n;
	}
	return 0;
}

static int serve(int port)
{
	static struct conn conns[MAX_CONN];
	static struct pollfd pfd[MAX_CONN + 1];
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(port),
				  .sin6_addr = IN6ADDR_ANY_INIT };
	int one = 1, zero = 0, lfd;

	lfd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) ||
	    bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 128)) {
		fprintf(stderr, "aq-fetch: cannot listen on port %d: %m\n", port);
		return 1;
	}
	for (int i = 0; i < MAX_CONN; i++)
		conns[i].fd = -1;
	for (;;) {
		int n = 0, map[MAX_CONN];

		pfd[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int i = 0; i < MAX_CONN; i++) {
			if (conns[i].fd < 0)
				continue;
			map[n - 1] = i;
			pfd[n++] = (struct pollfd){ .fd = conns[i].fd,
				.events = conns[i].left < 0 ? POLLIN : POLLOUT };
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "aq-fetch: poll: %m\n");
			return 1;
		}
		for (int k = 1; k < n; k++) {
			struct conn *c = &conns[map[k - 1]];
			int keep;

			if (!pfd[k].revents)
				continue;
			if (c->left < 0) {
				keep = conn_read(c);
				if (keep && c->left >= 0)
					keep = conn_write(c) || c->left > 0;
			} else {
				keep = conn_write(c) || c->left > 0;
			}
			if (!keep || (c->left == 0 && c->req_len))
				conn_close(c);
		}
		if (pfd[0].revents & POLLIN) {
			int fd;

			while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
				int i;

				for (i = 0; i < MAX_CONN && conns[i].fd >= 0; i++)
					;
				if (i == MAX_CONN) {
					close(fd);
					continue;
				}
				conns[i] = (struct conn){ .fd = fd, .left = -1 };
			}
		}
	}
}

/* ------------------------------------------------------------- client */

/* one object: its time in ms, or -1 */
static double fetch_object(const struct sockaddr_in *a, long size, const char *cc)
{
	char req[REQ_LEN], buf[65536];
	double t0 = mono_s();
	long got = 0;
	int fd, len;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc))) {
		fprintf(stderr, "aq-fetch: congestion control %s: %m\n", cc);
		exit(1);
	}
	len = snprintf(req, sizeof(req), "%ld\n", size);
	if (connect(fd, (const struct sockaddr *)a, sizeof(*a)) ||
	    write(fd, req, len) != len) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	return got == size ? (mono_s() - t0) * 1000.0 : -1;
}

static int client(const char *addr, int port, long size, double dur, const char *cc)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	unsigned long done = 0, failed = 0;
	double end;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "aq-fetch: %s: not an IPv4 address\n", addr);
		return 2;
	}
	end = mono_s() + dur;
	while (mono_s() < end) {
		double t = clock_s(CLOCK_REALTIME), ms = fetch_object(&a, size, cc);

		if (ms < 0) {
			failed++;
			/* a refused or reset connection: not a busy loop */
			usleep(100000);
			continue;
		}
		done++;
		printf("%.6f %.3f %ld\n", t, ms, size);
		fflush(stdout);
	}
	printf("# done %lu objects, %lu failed\n", done, failed);
	return 0;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *cc = NULL;
	long port = -1, size = -1, listen_port = -1;
	double dur = -1;
	int o;

	signal(SIGPIPE, SIG_IGN);
	while ((o = getopt(argc, argv, "l:c:p:s:t:C:")) != -1) {
		switch (o) {
		case 'l':
			listen_port = num(optarg, 65535);
			if (listen_port <= 0)
				usage_exit();
			break;
		case 'c':
			addr = optarg;
			break;
		case 'p':
			port = num(optarg, 65535);
			break;
		case 's':
			size = num(optarg, MAX_OBJECT);
			break;
		case 't':
			dur = num(optarg, 86400);
			break;
		case 'C':
			cc = optarg;
			break;
		default:
			usage_exit();
		}
	}
	if (optind != argc)
		usage_exit();
	if (listen_port > 0)
		return addr ? (usage_exit(), 2) : serve((int)listen_port);
	if (!addr || port <= 0 || size <= 0 || dur <= 0)
		usage_exit();
	return client(addr, (int)port, size, dur, cc);
}
