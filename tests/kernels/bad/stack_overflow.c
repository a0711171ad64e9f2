/* SPDX-License-Identifier: Apache-2.0 */
// stack_overflow - the stack guard (docs/architecture.md section 3,
// "Stacks"): a load or store in another hardware thread's stack faults
// stack_overflow with the usual record (lowest lane, pc, logical address).
// A frame larger than the stack reaches the next thread's stack below it;
// the lowest stack (hart W*L - 1) overflows below the stack area, which
// the guard does not cover: with one hardware thread (1x1) nothing faults.
// dump: result:N
// run: big-frame
// A 1.6 KB local array on the default 1 KiB stacks.
// cflags: -DMODE=1
// expect-exit: 3 if HW > 1 else 0
// expect: HW == 1 or fault_name == "stack_overflow" and fault_cause == 11
// expect: HW == 1 or STACK_TOP - ((fault_hart + 2) << S) <= fault_addr < STACK_TOP - ((fault_hart + 1) << S)
// expect: HW == 1 or fault_hart % L == 0 and fault_pc >= addr("main")
// run: big-frame-fits
// The same kernel with 2 KiB stacks runs.
// cflags: -DMODE=1
// stack-log2: 11
// expect-all: i < N: result[i] == 399 * 400 // 2 + i
// run: neighbour-load
// The last block's threads load the word just below their own stack, the
// top word of the next hardware thread's stack: its lowest lane faults
// (the lowest stack's thread, alone in its warp at 1x1, reads kernel data).
// cflags: -DMODE=2
// expect-exit: 3 if HW > 1 else 0
// expect: HW == 1 or fault_name == "stack_overflow" and fault_tid == N - L
// expect: HW == 1 or fault_addr == STACK_TOP - ((fault_hart + 1) << S) - 4
// expect-all: i < N - L: result[i] == i + 1
// run: own-stack-pointer
// Pointers to a thread's own stack variables work through the
// interleaving (a callee writes through them).
// cflags: -DMODE=3
// expect-all: i < N: result[i] == 3 * i + 10
#include <stdint.h>

#include "simty_kernel.h"

uint32_t result[1024];

#if MODE == 1
int main(void)
{
  volatile uint32_t buf[400]; /* 1600 bytes */
  uint32_t t = simty_thread_id();
  for (uint32_t i = 0; i < 400; i++)
    buf[i] = i;
  uint32_t sum = 0;
  for (uint32_t i = 0; i < 400; i++)
    sum += buf[i];
  result[t] = sum + t;
  return 0;
}
#elif MODE == 2
static inline uint32_t csr_stack_top(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_STACK_TOP);
}
static inline uint32_t csr_stack_log2(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_STACK_LOG2);
}
int main(void)
{
  uint32_t t = simty_thread_id();
  result[t] = t + 1;
  if (t >= simty_thread_count() - simty_lane_count()) {
    uint32_t below = csr_stack_top() -
                     ((simty_hart_id() + 1) << csr_stack_log2()) - 4;
    result[t] = *(volatile uint32_t *)below;
  }
  return 0;
}
#else
__attribute__((noinline)) static void fill(uint32_t *a, uint32_t *b,
                                           uint32_t t)
{
  *a = t + 4;
  *b = 2 * t + 6;
}
int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t a, b;
  fill(&a, &b, t);
  result[t] = a + b;
  return 0;
}
#endif
