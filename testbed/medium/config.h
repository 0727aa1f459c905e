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
void aq_hwsim_index_addr(int idx, uint8_t *radio_addr, uint8_t *vif_addr);

#endif
