/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - srad (Rodinia, in integers): 4 iterations of speckle-reducing
 * anisotropic diffusion on an n x n image of noisy blocks, two launches
 * per iteration (coefficients, then update into the other image buffer),
 * checked against the CPU. --n is the image side.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "srad.h"

#define SRAD_ITERATIONS 4

static void cpu_iteration(uint32_t n, const int32_t *img, int32_t *coef,
                          int32_t *out)
{
  for (int phase = 0; phase < 2; phase++)
    for (uint32_t r = 0; r < n; r++)
      for (uint32_t c = 0; c < n; c++) {
        uint32_t i = r * n + c;
        int32_t v = img[i];
        int32_t dn = r > 0 ? img[i - n] - v : 0;
        int32_t ds = r + 1 < n ? img[i + n] - v : 0;
        int32_t dw = c > 0 ? img[i - 1] - v : 0;
        int32_t de = c + 1 < n ? img[i + 1] - v : 0;
        if (phase == 0) {
          coef[i] = srad_coef(v, dn, ds, dw, de);
          continue;
        }
        int32_t cc = coef[i];
        int32_t cs = r + 1 < n ? coef[i + n] : cc;
        int32_t ce = c + 1 < n ? coef[i + 1] : cc;
        out[i] = srad_update(v, cc, dn, cs, ds, cc, dw, ce, de);
      }
}

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "srad", EXAMPLE_KERNEL, 32);
  example_check_n(&ex, 512, "the image side");
  uint32_t n = (uint32_t)ex.n, nn = n * n;
  int32_t *img[2] = {malloc(nn * sizeof(int32_t)), malloc(nn * sizeof(int32_t))};
  int32_t *coef = malloc(nn * sizeof(*coef)), *got = malloc(nn * sizeof(*got));
  if (!img[0] || !img[1] || !coef || !got) {
    fprintf(stderr, "srad: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* Blocks of 8 x 8 pixels of one brightness, plus speckle noise. */
  uint32_t level[64];
  for (unsigned k = 0; k < 64; k++)
    level[k] = 512 + example_rand(&ex) % 3072;
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t c = 0; c < n; c++)
      img[0][r * n + c] = (int32_t)(level[((r / 8) % 8) * 8 + (c / 8) % 8] +
                                    example_rand(&ex) % 400) - 200;
  uint32_t dimg[2] = {example_upload(&ex, img[0], nn * sizeof(int32_t)),
                      example_upload(&ex, NULL, nn * sizeof(int32_t))};
  uint32_t dcoef = example_upload(&ex, NULL, nn * sizeof(int32_t));
  for (unsigned k = 0; k < SRAD_ITERATIONS; k++) {
    cpu_iteration(n, img[k & 1], coef, img[(k + 1) & 1]);
    for (uint32_t phase = 0; phase < 2; phase++) {
      struct srad_args args = {.n = n, .phase = phase, .img = dimg[k & 1],
                               .coef = dcoef, .out = dimg[(k + 1) & 1]};
      example_run(&ex, &args, sizeof(args), nn);
    }
  }
  example_download(&ex, dimg[SRAD_ITERATIONS & 1], got, nn * sizeof(*got));
  uint64_t bad = example_compare(&ex, "image", got, img[SRAD_ITERATIONS & 1], nn);
  free(img[0]);
  free(img[1]);
  free(coef);
  free(got);
  char summary[96];
  snprintf(summary, sizeof(summary), "%u iterations on %ux%u match the CPU",
           SRAD_ITERATIONS, n, n);
  return example_finish(&ex, bad, summary);
}
