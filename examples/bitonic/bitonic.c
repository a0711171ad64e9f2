/* SPDX-License-Identifier: Apache-2.0 */
/* bitonic.c - kernel: one compare-exchange of a bitonic sort stage per
 * thread. Thread t takes the t-th index i whose bit j is clear and orders
 * keys i and i + j, ascending when bit k of i is clear, descending
 * otherwise. The pairs of a stage are disjoint: no two threads touch the
 * same key. Whether to swap depends on the data (a divergent branch); for
 * j >= lanes a warp's lanes read consecutive keys, for smaller j the
 * lanes' keys still share a line or two. */
#include <simty_kernel.h>

#include "bitonic.h"

int main(void)
{
  const struct bitonic_args *args = simty_args();
  uint32_t t = simty_thread_id(), j = args->j;
  uint32_t i = ((t & ~(j - 1)) << 1) | (t & (j - 1));
  int32_t *keys = args->keys;
  int32_t a = keys[i], b = keys[i + j];
  int ascending = (i & args->k) == 0;
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[i + j] = a;
  }
  return 0;
}
