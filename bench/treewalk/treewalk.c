/* SPDX-License-Identifier: Apache-2.0 */
/* treewalk.c - kernel: one lookup per thread, a loop whose trip count is
 * the depth of the query's node (data dependent: lanes leave the loop at
 * different iterations) with a data-dependent left/right choice inside;
 * the node loads are scattered once the lanes' paths part. */
#include <simty_kernel.h>

#include "treewalk.h"

int main(void)
{
  const struct treewalk_args *args = simty_args();
  uint32_t t = simty_thread_id();
  if (t >= args->nqueries)
    return 0;
  int32_t q = args->query[t];
  int32_t node = 0, depth = 0;
  while (node != TREEWALK_NONE) {
    int32_t k = args->key[node];
    if (k == q) {
      args->result[t] = depth;
      return 0;
    }
    node = q < k ? args->left[node] : args->right[node];
    depth++;
  }
  args->result[t] = TREEWALK_NONE - depth;
  return 0;
}
