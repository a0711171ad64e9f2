/* SPDX-License-Identifier: Apache-2.0 */
/* hotspot.h - the argument block shared by the hotspot host and kernel
 * (after Rodinia's hotspot, in fixed point): one explicit time step of the
 * heat equation on an n x n grid of temperatures (Q8 degrees) with a power
 * map, edges clamped. Pointers are device addresses, 32-bit on both sides.
 * hotspot_step() is the one formula both sides compute. */
#ifndef HOTSPOT_H
#define HOTSPOT_H

#include <stdint.h>

struct hotspot_args {
  uint32_t n;
  int32_t rx, ry, rz; /* conductances, Q4 */
  int32_t cap;        /* step / capacitance, Q8 */
  int32_t amb;        /* ambient temperature, Q8 */
#if defined(__riscv)
  const int32_t *power; /* n * n, Q8 */
  const int32_t *in;    /* n * n temperatures */
  int32_t *out;
#else
  uint32_t power, in, out;
#endif
};

/* New temperature of a cell from itself t, its neighbours (north, south,
 * east, west; the cell itself past an edge) and its power p. */
static inline int32_t hotspot_step(const struct hotspot_args *a, int32_t t,
                                   int32_t nn, int32_t s, int32_t e,
                                   int32_t w, int32_t p)
{
  int32_t flow = (nn + s - 2 * t) * a->ry + (e + w - 2 * t) * a->rx +
                 (a->amb - t) * a->rz;
  return t + (((p + (flow >> 4)) * a->cap) >> 8);
}

#endif
