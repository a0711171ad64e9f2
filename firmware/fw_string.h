/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_string.h - memcpy and memset for code that builds both hosted (the
 * C library's) and freestanding on the controller, where no libc headers
 * exist and fw_libc.c provides them.
 */
#ifndef FW_STRING_H
#define FW_STRING_H

#include <stddef.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);
#endif

#endif /* FW_STRING_H */
