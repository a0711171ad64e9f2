/* SPDX-License-Identifier: Apache-2.0 */
/* srad.h - the argument block shared by the srad host and kernel (after
 * Rodinia's SRAD, speckle-reducing anisotropic diffusion, in integers):
 * an n x n image of 12-bit intensities. Each iteration is two launches:
 * phase 0 computes every pixel's diffusion coefficient (Q12, from its
 * gradient and its intensity, one unsigned division), phase 1 moves every
 * pixel by the coefficient-weighted differences with its neighbours
 * into a second image (the host swaps the two between iterations).
 * Pointers are device addresses, 32-bit on both sides; the formulas below
 * are the ones both sides compute. */
#ifndef SRAD_H
#define SRAD_H

#include <stdint.h>

struct srad_args {
  uint32_t n;
  uint32_t phase; /* 0: coefficients, 1: update */
#if defined(__riscv)
  const int32_t *img; /* n * n intensities 0 .. 4095 */
  int32_t *coef;      /* n * n coefficients, Q12 (phase 0 writes them) */
  int32_t *out;       /* n * n new intensities (phase 1 writes them) */
#else
  uint32_t img, coef, out;
#endif
};

/* Phase 0: the coefficient of a pixel of intensity v whose differences
 * with its neighbours are dn, ds, dw, de (0 past an edge). */
static inline int32_t srad_coef(int32_t v, int32_t dn, int32_t ds, int32_t dw,
                                int32_t de)
{
  uint32_t g2 = (uint32_t)(dn * dn) + (uint32_t)(ds * ds) +
                (uint32_t)(dw * dw) + (uint32_t)(de * de);
  uint32_t den = ((uint32_t)(v * v) >> 4) + 64;
  uint32_t q = g2 / den;
  return (int32_t)((4096u * 256u) / (256u + q));
}

/* Phase 1: the new intensity, clamped to 0 .. 4095. */
static inline int32_t srad_update(int32_t v, int32_t cn, int32_t dn,
                                  int32_t cs, int32_t ds, int32_t cw,
                                  int32_t dw, int32_t ce, int32_t de)
{
  int32_t div = cn * dn + cs * ds + cw * dw + ce * de;
  v += div >> 14;
  return v < 0 ? 0 : v > 4095 ? 4095 : v;
}

#endif
