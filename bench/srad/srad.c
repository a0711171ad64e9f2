/* SPDX-License-Identifier: Apache-2.0 */
/* srad.c - kernel: one pixel per thread, phase 0 or 1 of an iteration
 * (srad.h). Phase 0's unsigned divisions are libgcc calls whose loop
 * length depends on each lane's operands (divergent loops); edge pixels
 * take their own branches in both phases; loads are unit stride along a
 * row and one row up or down. */
#include <simty_kernel.h>

#include "srad.h"

int main(void)
{
  const struct srad_args *args = simty_args();
  uint32_t n = args->n;
  uint32_t i = simty_thread_id();
  if (i >= n * n)
    return 0;
  uint32_t r = i / n, c = i % n;
  const int32_t *img = args->img;
  int32_t v = img[i];
  int32_t dn = r > 0 ? img[i - n] - v : 0;
  int32_t ds = r + 1 < n ? img[i + n] - v : 0;
  int32_t dw = c > 0 ? img[i - 1] - v : 0;
  int32_t de = c + 1 < n ? img[i + 1] - v : 0;
  if (args->phase == 0) {
    args->coef[i] = srad_coef(v, dn, ds, dw, de);
    return 0;
  }
  /* Rodinia's choice: a pixel's own coefficient for its north and west
   * flows, the south and east neighbours' for theirs. */
  const int32_t *k = args->coef;
  int32_t cc = k[i];
  int32_t cs = r + 1 < n ? k[i + n] : cc;
  int32_t ce = c + 1 < n ? k[i + 1] : cc;
  args->out[i] = srad_update(v, cc, dn, cs, ds, cc, dw, ce, de);
  return 0;
}
