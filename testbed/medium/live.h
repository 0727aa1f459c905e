/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef AQ_LIVE_H
#define AQ_LIVE_H

#include "config.h"

int aq_live_run(struct aq_medium *m, struct aq_opts *o);
int64_t aq_mono_ns(void);

#endif
