/* SPDX-License-Identifier: Apache-2.0 */
// muldiv_mix - M instructions under divergence, memory replays and every
// warp at once: each thread runs a data-dependent loop of divides,
// remainders and multiplies (some lanes dividing while others take
// another path, results feeding loads and stores at scattered addresses)
// and checks each result against shift-and-subtract and shift-and-add
// references in plain RV32I. On the RTL this contends for the shared
// divide unit from every warp; rtl-diff compares the traces and counters
// with the model.
// isa: rv32im
// dump: bad:N
// dump: acc:N
// expect-all: i < N: bad[i] == 0
// run: one-wave
// run: waves
// threads: min(3 * W * L + 5, 1024 - L)
#include <stdint.h>

#include "simty_kernel.h"

int32_t bad[1024];
int32_t acc[1024];
int32_t table[1024 * 8];   /* 8 words per thread: no races */

/* The M instructions themselves (no C undefined behaviour at zero
 * divisors or overflow). */
#define M_OP(op, a, b)                                                       \
  ({                                                                         \
    uint32_t r_;                                                             \
    __asm__ volatile(op " %0, %1, %2" : "=r"(r_) : "r"(a), "r"(b));          \
    r_;                                                                      \
  })

/* References in plain RV32I: shift-and-subtract, shift-and-add. */
static uint32_t ref_divu(uint32_t a, uint32_t b, uint32_t *rem)
{
  if (b == 0) {
    *rem = a;
    return 0xffffffffu;
  }
  uint32_t q = 0, r = 0;
  for (int i = 31; i >= 0; i--) {
    uint32_t top = r >> 31;
    r = (r << 1) | ((a >> i) & 1u);
    if (top || r >= b) {
      r -= b;
      q |= 1u << i;
    }
  }
  *rem = r;
  return q;
}

static uint32_t ref_div(int32_t a, int32_t b, uint32_t *rem)
{
  if (b == 0) {
    *rem = (uint32_t)a;
    return 0xffffffffu;
  }
  uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
  uint32_t ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
  uint32_t ur, uq = ref_divu(ua, ub, &ur);
  *rem = a < 0 ? 0u - ur : ur;
  return (a < 0) != (b < 0) ? 0u - uq : uq;
}

static uint64_t ref_mulu64(uint32_t a, uint32_t b)
{
  uint64_t p = 0, x = a;
  while (b) {
    if (b & 1u)
      p += x;
    x <<= 1;
    b >>= 1;
  }
  return p;
}

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t x = t * 2654435761u + 12345u;
  int32_t errors = 0;
  int32_t sum = 0;
  for (uint32_t k = 0; k < 6 + (t % 5); k++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    uint32_t a = x, b = (x >> 7) & (k & 1 ? 0xffu : 0x7u);
    uint32_t r_ref, q_ref;
    if (x & 4) {
      q_ref = ref_divu(a, b, &r_ref);
      uint32_t q = M_OP("divu", a, b), r = M_OP("remu", a, b);
      errors += (q != q_ref) + (r != r_ref);
      table[t * 8 + (q & 7)] = (int32_t)r;    /* scattered: replays */
    } else {
      int32_t sa = (int32_t)a >> (k & 3), sb = (int32_t)b - 3;
      if (k == 5)
        sa = INT32_MIN, sb = -1;                /* overflow */
      q_ref = ref_div(sa, sb, &r_ref);
      uint32_t q = M_OP("div", sa, sb), r = M_OP("rem", sa, sb);
      errors += (q != q_ref) + (r != r_ref);
      sum += (int32_t)q;
    }
    uint64_t p = ref_mulu64(a, b);
    errors += (M_OP("mul", a, b) != (uint32_t)p) +
              (M_OP("mulhu", a, b) != (uint32_t)(p >> 32));
    sum += (int32_t)M_OP("mulh", a, x) + table[t * 8 + (k & 7)];
  }
  bad[t] = errors;
  acc[t] = sum;
  return 0;
}
