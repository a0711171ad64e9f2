/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - nw: Needleman-Wunsch global alignment scores of two random DNA
 * sequences of length n, one launch per anti-diagonal of the score matrix
 * (2n - 1 launches, each cell of a diagonal on its own thread), the whole
 * matrix checked word for word against the CPU. The launches go to the
 * device's stream in one submission: each starts as soon as the one
 * before it ends, with no host round trip between them. The default n is
 * small because every byte costs time on a device behind a serial link.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "nw.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "nw", EXAMPLE_KERNEL, 32);
  example_check_n(&ex, 1024, "the sequence length");
  uint32_t n = (uint32_t)ex.n;
  uint32_t words = (n + 1) * (n + 1);
  uint8_t *a = malloc(n), *b = malloc(n);
  int32_t *h = malloc(words * sizeof(*h)),
          *want = malloc(words * sizeof(*want));
  if (!a || !b || !h || !want) {
    fprintf(stderr, "nw: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* b is a mutated copy of a, so that the best alignment is a real one
   * with matches, substitutions and gaps, not noise. */
  for (uint32_t i = 0; i < n; i++)
    a[i] = (uint8_t)(example_rand(&ex) & 3);
  for (uint32_t i = 0, k = 0; i < n; i++) {
    uint32_t r = example_rand(&ex) % 16;
    if (r == 0 && k + 1 < n)
      k++; /* a deletion */
    b[i] = r == 1 ? (uint8_t)(example_rand(&ex) & 3) : a[k < n ? k : n - 1];
    if (r != 2) /* r == 2: an insertion, a[k] comes again */
      k++;
    if (k >= n)
      k = n - 1;
  }
  /* Row 0 and column 0 hold the gap penalties; the cells the kernel must
   * fill hold a marker. */
  for (uint32_t w = 0; w < words; w++)
    h[w] = (int32_t)0xA5A5A5A5;
  for (uint32_t k = 0; k <= n; k++) {
    h[nw_index(n, k, 0)] = (int32_t)k * NW_GAP;
    h[nw_index(n, 0, k)] = (int32_t)k * NW_GAP;
  }
  for (uint32_t w = 0; w < words; w++)
    want[w] = h[w];
  for (uint32_t i = 1; i <= n; i++)
    for (uint32_t j = 1; j <= n; j++) {
      int32_t best = want[nw_index(n, i - 1, j - 1)] +
                     nw_similarity[a[i - 1] * 4 + b[j - 1]];
      int32_t up = want[nw_index(n, i - 1, j)] + NW_GAP;
      int32_t left = want[nw_index(n, i, j - 1)] + NW_GAP;
      best = up > best ? up : best;
      best = left > best ? left : best;
      want[nw_index(n, i, j)] = best;
    }

  struct nw_args args = {
      .a = example_upload(&ex, a, n),
      .b = example_upload(&ex, b, n),
  };
  uint32_t dev_h = example_upload(&ex, h, words * sizeof(*h));
  for (uint32_t d = 2; d <= 2 * n; d++) {
    uint32_t first = d > n ? d - n : 1, last = d - 1 < n ? d - 1 : n;
    args.d = d;
    args.first = first;
    args.diag = dev_h + 4 * nw_diag_base(n, d);
    args.prev = dev_h + 4 * nw_diag_base(n, d - 1);
    args.prev2 = dev_h + 4 * nw_diag_base(n, d - 2);
    example_submit(&ex, &args, sizeof(args), last - first + 1);
  }
  example_sync(&ex);
  example_download(&ex, dev_h, h, words * sizeof(*h));
  uint64_t bad = example_compare(&ex, "h", h, want, words);
  char summary[96];
  snprintf(summary, sizeof(summary),
           "%ux%u score matrix matches the CPU, "
           "alignment score %d",
           n, n, (int)h[nw_index(n, n, n)]);
  free(a);
  free(b);
  free(h);
  free(want);
  return example_finish(&ex, bad, summary);
}
