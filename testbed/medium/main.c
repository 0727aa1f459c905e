// SPDX-License-Identifier: GPL-2.0-only
/*
 * aqmedium: the airqueue 802.11 medium for mac80211_hwsim.
 *
 *   aqmedium -c CONFIG            live: register with mac80211_hwsim
 *   aqmedium -c CONFIG --sim      simulation: traffic from the config,
 *                                 virtual clock, no kernel
 * Options: -d SECONDS (duration), -S FILE (stats at exit / SIGUSR1),
 * -u PATH (stats socket), -t FILE (per-frame trace), --no-hwsim-ext,
 * --check (validate the config and exit), --seed N (the random seed,
 * overriding the config's "seed").
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "config.h"
#include "live.h"
#include "sim.h"

static void usage(const char *p)
{
	fprintf(stderr,
		"usage: %s -c CONFIG [--sim] [-d SECONDS] [-S STATS_FILE] [-u STATS_SOCKET]\n"
		"          [-t TRACE_FILE] [--no-hwsim-ext] [--hwsim-ext] [--check] [--seed N]\n", p);
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "sim", no_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "stats", required_argument, NULL, 'S' },
		{ "stats-socket", required_argument, NULL, 'u' },
		{ "trace", required_argument, NULL, 't' },
		{ "no-hwsim-ext", no_argument, NULL, 'N' },
		{ "hwsim-ext", no_argument, NULL, 'E' },
		{ "check", no_argument, NULL, 'C' },
		{ "seed", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cfg = NULL, *trace = NULL, *stats = NULL, *sock = NULL;
	double dur = -1;
	int sim_mode = 0, check = 0, ext = -1, opt, ret = 0, seeded = 0;
	unsigned long long seed = 0;
	char *end;
	struct aq_medium *m = calloc(1, sizeof(*m));
	struct aq_sim sim = { 0 };
	struct aq_opts o;
	char err[1024];

	while ((opt = getopt_long(argc, argv, "c:sd:S:u:t:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'c': cfg = optarg; break;
		case 's': sim_mode = 1; break;
		case 'd': dur = atof(optarg); break;
		case 'S': stats = optarg; break;
		case 'u': sock = optarg; break;
		case 't': trace = optarg; break;
		case 'N': ext = 0; break;
		case 'E': ext = 1; break;
		case 'C': check = 1; break;
		case 'R':
			seed = strtoull(optarg, &end, 0);
			if (!*optarg || *end) {
				fprintf(stderr, "aqmedium: --seed: invalid value \"%s\" (expected a whole number)\n",
					optarg);
				free(m);
				return 2;
			}
			seeded = 1;
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (!cfg || !m) {
		usage(argv[0]);
		return 2;
	}
	if (aq_config_load(cfg, NULL, m, &sim, &o, err, sizeof(err))) {
		fprintf(stderr, "aqmedium: %s\n", err);
		aq_sim_free(&sim);	/* the flows parsed before the error */
		aq_fini(m);
		free(m);
		return 1;
	}
	if (seeded)
		aq_seed(m, seed);	/* overrides the config's "seed" */
	if (dur >= 0)
		o.duration_s = dur;
	if (stats)
		snprintf(o.stats_file, sizeof(o.stats_file), "%s", stats);
	if (sock)
		snprintf(o.stats_socket, sizeof(o.stats_socket), "%s", sock);
	if (trace)
		snprintf(o.trace, sizeof(o.trace), "%s", trace);
	if (ext >= 0)
		o.hwsim_ext = ext;
	if (check) {
		printf("config ok: phy %s, %u radios, %u flows\n", aq_std_name(m->phy.std),
		       m->n_radios, sim.n_flows);
		goto out;
	}
	if (o.trace[0]) {
		m->trace = fopen(o.trace, "w");
		if (!m->trace) {
			fprintf(stderr, "aqmedium: trace: cannot open %s: %m\n", o.trace);
			ret = 1;
			goto out;
		}
	}
	if (sim_mode) {
		double c0 = cpu_s(), c1;
		FILE *sf = stdout;

		if (o.duration_s <= 0)
			o.duration_s = 10;
		aq_sim_start(m, &sim);
		aq_run_until(m, (int64_t)(o.duration_s * AQ_NS_PER_S));
		c1 = cpu_s();
		if (o.stats_file[0]) {
			sf = fopen(o.stats_file, "w");
			if (!sf) {
				fprintf(stderr, "aqmedium: stats: cannot open %s: %m\n", o.stats_file);
				sf = stdout;
			}
		}
		aq_stats_json(m, sf);
		if (sf != stdout)
			fclose(sf);
		fprintf(stderr, "aqmedium: simulated %.3f s: %llu events, %llu transmissions in %.3f s CPU (%.0f events/s, %.0f transmissions/s); %llu went through the heap\n",
			o.duration_s, (unsigned long long)m->st.events,
			(unsigned long long)m->st.transmissions, c1 - c0,
			(c1 - c0) > 0 ? m->st.events / (c1 - c0) : 0,
			(c1 - c0) > 0 ? m->st.transmissions / (c1 - c0) : 0,
			(unsigned long long)m->heap_inserts);
	} else {
		ret = aq_live_run(m, &o);
	}
out:
	if (m->trace)
		fclose(m->trace);
	m->trace = NULL;
	aq_fini(m);
	aq_sim_free(&sim);
	free(m);
	return ret;
}
