/* SPDX-License-Identifier: Apache-2.0 */
/* bfs.c - kernel: one level of a breadth-first search, bottom-up.
 *
 * Thread v handles node v only: if v is not reached yet and one of its
 * neighbours is in the frontier (depth == level), v joins the next level.
 * Depths are read from one buffer and written to another, each node's
 * entry by its own thread: no thread reads a word another thread writes
 * in the same launch, so every thread's values and control flow are the
 * same however the warps interleave. A node joining the level also sets
 * its own byte of `joined`, which tells the host whether to go on: one
 * writer per byte, so the launch is race-free (simty-model --racecheck)
 * without atomics. Node degrees differ, so lanes leave the neighbour loop at
 * different times (divergence), and neighbours lie anywhere in memory
 * (scattered loads: replays). */
#include <simty_kernel.h>

#include "bfs.h"

int main(void)
{
  const struct bfs_args *args = simty_args();
  uint32_t v = simty_thread_id();
  if (v >= args->nodes)
    return 0;
  int32_t depth = args->in[v];
  if (depth == BFS_UNREACHED) {
    for (uint32_t e = args->row[v]; e < args->row[v + 1]; e++) {
      if (args->in[args->col[e]] == args->level) {
        depth = args->level + 1;
        args->joined[v] = 1;
        break;
      }
    }
  }
  args->out[v] = depth;
  return 0;
}
