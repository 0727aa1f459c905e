/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-ins so that sch_ebdp/ebdp.h builds in a host program. */
#ifndef _SHIM_LINUX_TYPES_H
#define _SHIM_LINUX_TYPES_H
#include <stdint.h>
#include <stdbool.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif
