/* SPDX-License-Identifier: GPL-2.0-only */
/* JSON configuration of the airqueue medium. */
#ifndef AQ_CONFIG_H
#define AQ_CONFIG_H

#include <stddef.h>
#include "medium.h"
#include "sim.h"

struct aq_opts {
	double duration_s;		/* sim: virtual seconds; live: 0 = forever */
	bool unknown_add;		/* add radios not in the config */
	bool hwsim_ext;			/* send the proposed extension attributes */
	char trace[256];
	char stats_socket[256];
	char stats_file[256];
};

/* Load a config from a file (text == NULL) or from a string.  On error,
 * returns -1 with a message naming the field and the value in err. */
int aq_config_load(const char *path, const char *text, struct aq_medium *m,
		   struct aq_sim *sim, struct aq_opts *o, char *err, size_t errlen);
int aq_parse_mac(const char *s, uint8_t *mac);
struct aq_hwsim_ext;
/* Parse the patched hwsim's ext_attrs line into @e (e->present set).  Every
 * key is required, numbers above 6.12's HWSIM_ATTR_MAX and distinct, the
 * flag one bit above the upstream ones; unknown keys are skipped.  On error
 * returns -1 with the reason in err. */
int aq_hwsim_ext_parse(const char *line, struct aq_hwsim_ext *e, char *err,
		       size_t errlen);
void aq_hwsim_index_addr(int idx, uint8_t *radio_addr, uint8_t *vif_addr);

#endif
