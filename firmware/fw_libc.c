/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_libc.c - the four string functions a freestanding build may need:
 * GCC emits calls to them for struct copies and clears (the firmware
 * itself clears with memset; CODE/DATA transfers are the copy engine's).
 * Unused ones are dropped by --gc-sections. Built for the controller
 * only; the host uses its C library.
 */
#include "fw_string.h"
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
  uint8_t *d = dst;
  const uint8_t *s = src;
  if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
    for (; n >= 4; n -= 4, d += 4, s += 4)
      *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
  }
  while (n--)
    *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
  uint8_t *d = dst;
  const uint8_t *s = src;
  if (d < s) {
    while (n--)
      *d++ = *s++;
  } else {
    while (n--)
      d[n] = s[n];
  }
  return dst;
}

void *memset(void *dst, int c, size_t n)
{
  uint8_t *d = dst;
  while (n--)
    *d++ = (uint8_t)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
  const uint8_t *x = a, *y = b;
  for (; n; n--, x++, y++) {
    if (*x != *y)
      return *x < *y ? -1 : 1;
  }
  return 0;
}
