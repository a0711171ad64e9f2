/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - treewalk: n lookups (half of them present) in an unbalanced
 * binary search tree of n / 2 random keys inserted in random order, one
 * launch, checked against the CPU. --n is the number of queries
 * (threads).
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "treewalk.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "treewalk", EXAMPLE_KERNEL, 256);
  if (ex.n < 2 || ex.n > 65536) {
    fprintf(stderr, "treewalk: --n (queries) must be 2 .. 65536\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t nq = (uint32_t)ex.n, nodes = nq / 2;
  int32_t *key = malloc(nodes * sizeof(int32_t)), *left = malloc(nodes * sizeof(int32_t));
  int32_t *right = malloc(nodes * sizeof(int32_t)), *query = malloc(nq * sizeof(int32_t));
  int32_t *want = malloc(nq * sizeof(int32_t)), *got = malloc(nq * sizeof(int32_t));
  if (!key || !left || !right || !query || !want || !got) {
    fprintf(stderr, "treewalk: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* Distinct even keys (a random permutation of 0, 2, 4, ...), inserted
   * in that order; the odd queries are absent. */
  for (uint32_t i = 0; i < nodes; i++)
    key[i] = (int32_t)(2 * i);
  for (uint32_t i = nodes; i > 1; i--) {
    uint32_t j = example_rand(&ex) % i;
    int32_t tmp = key[i - 1];
    key[i - 1] = key[j];
    key[j] = tmp;
  }
  for (uint32_t i = 0; i < nodes; i++) {
    left[i] = right[i] = TREEWALK_NONE;
    if (i == 0)
      continue;
    int32_t at = 0;
    for (;;) {
      int32_t *next = key[i] < key[at] ? &left[at] : &right[at];
      if (*next == TREEWALK_NONE) {
        *next = (int32_t)i;
        break;
      }
      at = *next;
    }
  }
  for (uint32_t t = 0; t < nq; t++) {
    query[t] = (int32_t)(example_rand(&ex) % (2 * nodes));
    int32_t node = 0, depth = 0;
    want[t] = TREEWALK_NONE;
    while (node != TREEWALK_NONE && key[node] != query[t]) {
      node = query[t] < key[node] ? left[node] : right[node];
      depth++;
    }
    want[t] = node != TREEWALK_NONE ? depth : TREEWALK_NONE - depth;
  }
  struct treewalk_args args = {
      .nqueries = nq,
      .key = example_upload(&ex, key, nodes * sizeof(int32_t)),
      .left = example_upload(&ex, left, nodes * sizeof(int32_t)),
      .right = example_upload(&ex, right, nodes * sizeof(int32_t)),
      .query = example_upload(&ex, query, nq * sizeof(int32_t)),
      .result = example_upload(&ex, NULL, nq * sizeof(int32_t)),
  };
  example_run(&ex, &args, sizeof(args), nq);
  example_download(&ex, args.result, got, nq * sizeof(int32_t));
  uint64_t bad = example_compare(&ex, "result", got, want, nq);
  free(key);
  free(left);
  free(right);
  free(query);
  free(want);
  free(got);
  char summary[96];
  snprintf(summary, sizeof(summary), "%u lookups in a %u-node tree match the CPU", nq, nodes);
  return example_finish(&ex, bad, summary);
}
