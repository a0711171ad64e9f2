/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_alloc.c - device memory allocator: first fit from the top of the
 * arena between the kernel's data and the stack region.
 *
 * Blocks are taken from the highest free gap that fits, so that the space
 * just above the kernel's data stays free for the longest time: loading a
 * larger kernel later is then less likely to collide with allocations.
 * Bookkeeping lives on the host (device memory is never read to manage
 * it). The arena is small and allocations few, so a sorted array is
 * enough.
 */
#include <stdlib.h>
#include <string.h>

#include "simty_internal.h"

#define GRAIN 16u

void simty__alloc_init(struct simty__alloc *a, uint32_t lo, uint32_t hi)
{
  memset(a, 0, sizeof(*a));
  a->lo = (lo + GRAIN - 1) & ~(GRAIN - 1);
  a->hi = hi & ~(GRAIN - 1);
  if (a->hi < a->lo)
    a->hi = a->lo;
}

void simty__alloc_destroy(struct simty__alloc *a)
{
  free(a->blocks);
  memset(a, 0, sizeof(*a));
}

int simty__alloc_get(struct simty__alloc *a, uint64_t size, uint32_t *addr)
{
  if (size == 0)
    return SIMTY_EINVAL;
  if (size > (uint64_t)(a->hi - a->lo))
    return SIMTY_ENOSPC;
  uint32_t need = (uint32_t)((size + GRAIN - 1) & ~(uint64_t)(GRAIN - 1));
  if (a->count == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 16;
    struct simty__block *b = realloc(a->blocks, cap * sizeof(*b));
    if (!b)
      return SIMTY_ENOMEM;
    a->blocks = b;
    a->cap = cap;
  }
  /* Gaps from the top: gap i lies below block i (block count = top). */
  uint32_t gap_end = a->hi;
  for (size_t i = a->count + 1; i-- > 0;) {
    uint32_t gap_start = i ? a->blocks[i - 1].addr + a->blocks[i - 1].size
                           : a->lo;
    if (gap_end - gap_start >= need) {
      uint32_t at = gap_end - need;
      memmove(&a->blocks[i + 1], &a->blocks[i],
              (a->count - i) * sizeof(a->blocks[0]));
      a->blocks[i].addr = at;
      a->blocks[i].size = need;
      a->count++;
      *addr = at;
      return 0;
    }
    if (i)
      gap_end = a->blocks[i - 1].addr;
  }
  return SIMTY_ENOSPC;
}

int simty__alloc_put(struct simty__alloc *a, uint32_t addr)
{
  size_t lo = 0, hi = a->count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a->blocks[mid].addr < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == a->count || a->blocks[lo].addr != addr)
    return SIMTY_EINVAL;
  memmove(&a->blocks[lo], &a->blocks[lo + 1],
          (a->count - lo - 1) * sizeof(a->blocks[0]));
  a->count--;
  return 0;
}

uint32_t simty__alloc_low(const struct simty__alloc *a)
{
  return a->count ? a->blocks[0].addr : a->hi;
}

uint32_t simty__alloc_high(const struct simty__alloc *a)
{
  return a->count ? a->blocks[a->count - 1].addr + a->blocks[a->count - 1].size
                  : a->lo;
}
