/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_TIME64_H
#define _SHIM_LINUX_TIME64_H
#define NSEC_PER_USEC 1000ULL
#define USEC_PER_SEC 1000000ULL
#endif
