/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - bfs: breadth-first search depths from node 0 of a random
 * undirected graph in CSR form, one launch per level until a level adds no
 * node, checked against a queue-based BFS on the CPU.
 *
 * The graph: --n nodes; the first 15/16 form a random tree rooted at node 0
 * plus random extra edges among themselves (so paths get shorter than the
 * tree's), the last 1/16 a separate component that must stay unreached.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs.h"
#include "example.h"

struct edge {
  uint32_t a, b;
};

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "bfs", EXAMPLE_KERNEL, 512);
  if (ex.n < 2 || ex.n > (1u << 18)) {
    fprintf(stderr, "bfs: --n (nodes) must be 2 .. 262144\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t nodes = (uint32_t)ex.n;
  uint32_t main_nodes = nodes - nodes / 16; /* reachable from node 0 */
  uint32_t extra = main_nodes / 2;
  uint32_t max_edges = nodes + extra;
  struct edge *edges = malloc(max_edges * sizeof(*edges));
  uint32_t *row = calloc(nodes + 1, sizeof(*row));
  uint32_t *col = malloc(2 * max_edges * sizeof(*col));
  uint32_t *fill = calloc(nodes, sizeof(*fill));
  int32_t *want = malloc(nodes * sizeof(*want));
  int32_t *depth = malloc(nodes * sizeof(*depth));
  uint32_t *queue = malloc(nodes * sizeof(*queue));
  if (!edges || !row || !col || !fill || !want || !depth || !queue) {
    fprintf(stderr, "bfs: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }

  /* Tree edges: each node to a random earlier node of its component. A
   * bias toward recent nodes makes the tree deep enough for several
   * levels. */
  uint32_t m = 0;
  for (uint32_t v = 1; v < nodes; v++) {
    uint32_t first = v < main_nodes ? 0 : main_nodes;
    if (v == first)
      continue;
    uint32_t span = v - first, back = example_rand(&ex) % span;
    if (span > 8 && (example_rand(&ex) & 3) != 0)
      back %= 8;
    edges[m++] = (struct edge){v, v - 1 - back};
  }
  for (uint32_t i = 0; i < extra; i++) {
    uint32_t a = example_rand(&ex) % main_nodes;
    uint32_t b = example_rand(&ex) % main_nodes;
    if (a != b)
      edges[m++] = (struct edge){a, b};
  }
  /* CSR with each edge in both directions. */
  for (uint32_t i = 0; i < m; i++) {
    row[edges[i].a + 1]++;
    row[edges[i].b + 1]++;
  }
  for (uint32_t v = 0; v < nodes; v++)
    row[v + 1] += row[v];
  for (uint32_t i = 0; i < m; i++) {
    col[row[edges[i].a] + fill[edges[i].a]++] = edges[i].b;
    col[row[edges[i].b] + fill[edges[i].b]++] = edges[i].a;
  }

  /* CPU reference: a queue. */
  for (uint32_t v = 0; v < nodes; v++)
    want[v] = BFS_UNREACHED;
  uint32_t head = 0, tail = 0;
  want[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint32_t e = row[v]; e < row[v + 1]; e++)
      if (want[col[e]] == BFS_UNREACHED) {
        want[col[e]] = want[v] + 1;
        queue[tail++] = col[e];
      }
  }

  for (uint32_t v = 0; v < nodes; v++)
    depth[v] = v == 0 ? 0 : BFS_UNREACHED;
  uint8_t *joined = calloc(nodes, 1);
  if (!joined)
    example_die(&ex, SIMTY_ENOMEM, "out of memory");
  int changed = 1;
  struct bfs_args args = {
      .nodes = nodes,
      .row = example_upload(&ex, row, (nodes + 1) * sizeof(*row)),
      .col = example_upload(&ex, col, 2 * m * sizeof(*col)),
      .in = example_upload(&ex, depth, nodes * sizeof(*depth)),
      .out = example_upload(&ex, NULL, nodes * sizeof(*depth)),
      .joined = example_upload(&ex, joined, nodes),
  };
  /* A level that adds no node ends the search; `nodes` levels is the most
   * a correct kernel can take, so a runaway one cannot loop forever. */
  for (args.level = 0; changed && args.level < (int32_t)nodes; args.level++) {
    example_run(&ex, &args, sizeof(args), nodes);
    uint32_t written = args.out;
    args.out = args.in;
    args.in = written;
    example_download(&ex, args.joined, joined, nodes);
    changed = 0;
    for (uint32_t v = 0; v < nodes; v++)
      changed |= joined[v];
    if (changed) {
      memset(joined, 0, nodes);
      int e = simty_write(ex.dev, args.joined, joined, nodes);
      if (e)
        example_die(&ex, e, "cannot reset the joined flags");
    }
  }
  /* After the swap, `in` holds the last level's depths. */
  example_download(&ex, args.in, depth, nodes * sizeof(*depth));
  uint64_t bad = example_compare(&ex, "depth", depth, want, nodes);
  uint32_t reached = 0;
  int32_t deepest = 0;
  for (uint32_t v = 0; v < nodes; v++)
    if (want[v] != BFS_UNREACHED) {
      reached++;
      deepest = want[v] > deepest ? want[v] : deepest;
    }
  char summary[128];
  snprintf(summary, sizeof(summary),
           "%u nodes, %u edges: %u reached, depth %d, in %d launches", nodes, m,
           reached, (int)deepest, (int)args.level);
  free(joined);
  free(edges);
  free(row);
  free(col);
  free(fill);
  free(want);
  free(depth);
  free(queue);
  return example_finish(&ex, bad, summary);
}
