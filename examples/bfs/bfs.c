/* bfs.c - kernel: one level of a breadth-first search, bottom-up.
 *
 * Thread v handles node v only: if v is not reached yet and one of its
 * neighbours is in the frontier (depth == level), v joins the next level.
 * Each depth is written by its own node's thread alone, and the reads of
 * neighbours' depths compare with `level`: a neighbour joining the next
 * level during this launch goes from UNREACHED to level + 1, neither
 * equal to `level`, so no read can see a half-done launch. The only shared
 * word, `changed`, is only ever set to 1: concurrent writers store the
 * same value. Node degrees differ, so lanes leave the neighbour loop at
 * different times (divergence), and neighbours lie anywhere in memory
 * (scattered loads: replays). */
#include <simty_kernel.h>

#include "bfs.h"

int main(void)
{
  const struct bfs_args *args = simty_args();
  uint32_t v = simty_thread_id();
  if (v >= args->nodes || args->depth[v] != BFS_UNREACHED)
    return 0;
  for (uint32_t e = args->row[v]; e < args->row[v + 1]; e++) {
    if (args->depth[args->col[e]] == args->level) {
      args->depth[v] = args->level + 1;
      *args->changed = 1;
      break;
    }
  }
  return 0;
}
