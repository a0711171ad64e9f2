/* SPDX-License-Identifier: Apache-2.0 */
/* nw.h - the argument block shared by the nw (Needleman-Wunsch) host and
 * kernel, the scoring both use and the layout of the score matrix.
 * Pointers are device addresses: 32-bit on both sides. */
#ifndef NW_H
#define NW_H

#include <stdint.h>

/* Bases are 0..3 (A, C, G, T). Similarity: +5 for a match, -1 for a
 * transition (A<->G, C<->T), -3 for a transversion. 16 bytes, aligned to
 * 16: one memory line even with 4 lanes, so the lanes' look-ups never
 * replay. */
static _Alignas(16) const int8_t nw_similarity[16] = {
    5,  -3, -1, -3, /* A */
    -3, 5,  -3, -1, /* C */
    -1, -3, 5,  -3, /* G */
    -3, -1, -3, 5,  /* T */
};
#define NW_GAP (-4)

/* The (n+1) x (n+1) score matrix H[i][j] is stored by anti-diagonal
 * d = i + j, diagonal after diagonal, each in order of i: the cells of one
 * diagonal, and the cells of the two before that they read, are
 * consecutive words. nw_diag_base() is the word index such that H[i][d-i]
 * is at nw_diag_base(d) + i (diagonals past the middle start at
 * i = d - n). */
static inline uint32_t nw_diag_base(uint32_t n, uint32_t d)
{
  if (d <= n)
    return d * (d + 1) / 2;
  /* Diagonals d .. 2n hold rest * (rest + 1) / 2 cells. */
  uint32_t rest = 2 * n - d + 1;
  return (n + 1) * (n + 1) - rest * (rest + 1) / 2 - (d - n);
}

static inline uint32_t nw_index(uint32_t n, uint32_t i, uint32_t j)
{
  return nw_diag_base(n, i + j) + i;
}

/* One launch per diagonal d = i + j, 2 .. 2n: its cells 1 <= i, j <= n
 * depend only on diagonals d - 1 and d - 2. Row 0 and column 0 are set by
 * the host. The host passes the three diagonals' start addresses, so that
 * the kernel needs no multiply (a libgcc call on RV32I) to index them. */
struct nw_args {
  uint32_t d;     /* the diagonal this launch fills */
  uint32_t first; /* row i of this launch's thread 0 */
#if defined(__riscv)
  const uint8_t *a;     /* n bases: rows */
  const uint8_t *b;     /* n bases: columns */
  int32_t *diag;        /* diagonal d: H[i][d - i] at diag[i] */
  const int32_t *prev;  /* diagonal d - 1, likewise */
  const int32_t *prev2; /* diagonal d - 2 */
#else
  uint32_t a, b, diag, prev, prev2;
#endif
};

#endif
