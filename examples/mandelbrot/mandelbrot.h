/* SPDX-License-Identifier: Apache-2.0 */
/* mandelbrot.h - the argument block shared by the mandelbrot host and
 * kernel, and the fixed-point format both compute in. Pointers are device
 * addresses: 32-bit on both sides. */
#ifndef MANDELBROT_H
#define MANDELBROT_H

#include <stdint.h>

/* Q19.12: 12 fraction bits. Points tested are within |z| <= 2, so an
 * iterate is at most |x| <= 4 + 2 and |y| <= 4 + 1.25: squared, below 2^31
 * with 12 fraction bits (Q13 would overflow). */
#define MANDEL_FRAC 12
#define MANDEL_ONE (1 << MANDEL_FRAC)
#define MANDEL_ESCAPE (4 * MANDEL_ONE) /* |z|^2 > 4: the point escapes */

struct mandelbrot_args {
  uint32_t width, height;
  uint32_t max_iter;
  int32_t x0, y0; /* Q12 coordinates of pixel (0, 0) */
  int32_t dx, dy; /* Q12 step between pixels */
#if defined(__riscv)
  uint32_t *iters; /* width x height escape iteration counts, row-major */
#else
  uint32_t iters;
#endif
};

/* Q12 product, rounded toward zero. The magnitudes are multiplied, so
 * libgcc's __mulsi3 loops once per bit of |b| (at most 15 here) instead of
 * 32 times for every negative number. */
static inline int32_t mandel_mul(int32_t a, int32_t b)
{
  uint32_t ua = a < 0 ? -(uint32_t)a : (uint32_t)a;
  uint32_t ub = b < 0 ? -(uint32_t)b : (uint32_t)b;
  uint32_t p = (ua * ub) >> MANDEL_FRAC;
  return (a < 0) != (b < 0) ? -(int32_t)p : (int32_t)p;
}

/* Iterations of z = z^2 + c from z = 0 before |z|^2 > 4, at most max_iter:
 * the same code runs on the device and as the CPU reference. */
static inline uint32_t mandel_escape(int32_t cx, int32_t cy, uint32_t max_iter)
{
  int32_t x = 0, y = 0;
  uint32_t it = 0;
  for (; it < max_iter; it++) {
    int32_t xx = mandel_mul(x, x), yy = mandel_mul(y, y);
    if (xx + yy > MANDEL_ESCAPE)
      break;
    int32_t xy = mandel_mul(x, y);
    x = xx - yy + cx;
    y = 2 * xy + cy;
  }
  return it;
}

#endif
