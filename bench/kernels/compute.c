/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compute.c - compute-heavy benchmark kernel: no divergence, no memory in
 * the loop. Every thread runs bench_iterations rounds of a xorshift
 * generator folded into a shift-add hash (RV32I has no multiply), then
 * stores its hash. The host side (hw/model/bench_model.c) recomputes the
 * hashes to check the run.
 */
#include <stdint.h>

#include "simty_kernel.h"

volatile uint32_t bench_iterations = 1000;
uint32_t bench_out[4096];

int main(void)
{
  uint32_t tid = simty_thread_id();
  uint32_t x = tid ^ 0x9e3779b9u, h = 0x811c9dc5u;
  uint32_t n = bench_iterations;
  for (uint32_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h = (h ^ x) + (h << 6) + (h >> 2) + i;
  }
  bench_out[tid % 4096] = h;
  return 0;
}
