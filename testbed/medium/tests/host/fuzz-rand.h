/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The medium's host fuzzers' own randomness (fuzz-frames.c, fuzz-netlink.c):
 * xorshift64*, seeded by the caller through st (never 0).
 */
#ifndef AQ_FUZZ_RAND_H
#define AQ_FUZZ_RAND_H

#include <stdint.h>

static uint64_t st;

static inline uint64_t rnd(void)
{
	st ^= st >> 12;
	st ^= st << 25;
	st ^= st >> 27;
	return st * 2685821657736338717ULL;
}

/* uniform in [0, n), 0 for n = 0 */
static inline unsigned int below(unsigned int n)
{
	return n ? (unsigned int)(rnd() % n) : 0;
}

#endif /* AQ_FUZZ_RAND_H */
