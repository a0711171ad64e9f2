/* SPDX-License-Identifier: Apache-2.0 */
/*
 * alu.c - ALU-bound core benchmark: uniform control flow, no memory access
 * in the loop, long dependency-free stretches so that a pipelined core can
 * issue every cycle. Each thread mixes four independent registers for
 * alu_iterations rounds (shifts, adds, xors: RV32I has no multiply) and
 * stores one word, so IPC measures the issue rate of the core.
 */
#include <stdint.h>

#include "simty_kernel.h"

volatile uint32_t alu_iterations = 200;
uint32_t alu_out[4096];

int main(void)
{
  uint32_t tid = simty_thread_id();
  uint32_t a = tid, b = tid ^ 0x5bd1e995u, c = tid + 0x3c6ef372u,
           d = ~tid;
  uint32_t n = alu_iterations;
  for (uint32_t i = 0; i < n; i++) {
    a += b ^ (c >> 3);
    b ^= c + (d << 5);
    c -= d ^ (a >> 7);
    d += a ^ (b << 2);
    a ^= a >> 11;
    b += b << 3;
    c ^= c << 9;
    d -= d >> 13;
  }
  alu_out[tid % 4096] = a ^ b ^ c ^ d;
  return 0;
}
