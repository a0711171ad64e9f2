/* SPDX-License-Identifier: Apache-2.0 */
/* nw.c - kernel: one cell of a Needleman-Wunsch diagonal per thread,
 *   H[i][j] = max(H[i-1][j-1] + s(a[i-1], b[j-1]),
 *                 H[i-1][j] + gap, H[i][j-1] + gap).
 * The three-way max branches differently on each lane (divergence); with
 * the matrix stored by diagonal the three neighbour loads, the sequence
 * bytes and the similarity table are each one transaction per warp. */
#include <simty_kernel.h>

#include "nw.h"

int main(void)
{
  const struct nw_args *args = simty_args();
  uint32_t i = args->first + simty_thread_id(), j = args->d - i;
  int32_t best =
      args->prev2[i - 1] + nw_similarity[args->a[i - 1] * 4 + args->b[j - 1]];
  int32_t up = args->prev[i - 1] + NW_GAP; /* H[i-1][j] */
  int32_t left = args->prev[i] + NW_GAP;   /* H[i][j-1] */
  if (up > best)
    best = up;
  if (left > best)
    best = left;
  args->diag[i] = best;
  return 0;
}
