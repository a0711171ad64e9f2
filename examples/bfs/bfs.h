/* SPDX-License-Identifier: Apache-2.0 */
/* bfs.h - the argument block shared by the bfs host and kernel. Pointers
 * are device addresses: 32-bit on both sides. */
#ifndef BFS_H
#define BFS_H

#include <stdint.h>

#define BFS_UNREACHED (-1)

/* One launch per level, `level` going 0, 1, 2, ... Node v's neighbours are
 * col[row[v]] .. col[row[v + 1] - 1] (CSR; the graph is undirected, so
 * these are also the nodes with an edge to v). The depths are double
 * buffered: a launch reads `in` and writes `out`, the host swaps them for
 * the next level. */
struct bfs_args {
  uint32_t nodes;
  int32_t level; /* the frontier: nodes whose depth is `level` */
#if defined(__riscv)
  const uint32_t *row; /* nodes + 1 offsets into col */
  const uint32_t *col;
  const int32_t *in; /* per node: BFS depth so far, or BFS_UNREACHED */
  int32_t *out;      /* per node: depth after this level */
  uint8_t *joined;   /* per node: set to 1 when it joins the next level */
#else
  uint32_t row, col, in, out, joined;
#endif
};

#endif
