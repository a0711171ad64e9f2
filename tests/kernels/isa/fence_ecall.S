/* SPDX-License-Identifier: Apache-2.0 */
// fence_ecall - fence, fence.i and fence.tso are no-ops; ecall ends only the
// calling threads (whatever a0 and a7 hold), the others of the warp go on.
// dump: result:N + L
// dump: done:N + L
// dump: after:N + L
// dump: survivors:N + L
// expect-all: i < N: result[i] == 0 and done[i] == 1 and after[i] == 0
// expect-all: i < N: survivors[i] == (1 if i % 3 == 0 else 0)
// expect-all: i < L: result[N + i] == 0 and done[N + i] == 0
// run: one-wave
// threads: W * L
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
#include "isa.h"

  ISA_BEGIN
  li s1, 1
  addi a0, s0, 7
  fence
  fence rw, rw
  fence iorw, iorw
  fence r, w
  .word 0x8330000f             /* fence.tso */
  .option arch, +zifencei
  fence.i
  addi a1, s0, 7
  CHECK_EQ a0, a1

  /* Threads with tid % 3 == 1 or 2 mark themselves done and end with
   * ecall; nothing after the ecall may run for them. */
  li t0, 3
  mv t1, s0
1:
  bltu t1, t0, 2f
  sub t1, t1, t0
  j 1b
2:
  beqz t1, 4f
  slli t2, s0, 2
  la t3, done
  add t3, t3, t2
  li t4, 1
  sw t4, 0(t3)
  li t4, 1
  bne t1, t4, 3f
  li a7, 93
  li a0, 0
  ecall
  j 5f
3:
  li a7, 0x123                 /* the core ignores a7 and a0 */
  li a0, -1
  ecall
5:
  la t3, after
  add t3, t3, t2
  li t4, 1
  sw t4, 0(t3)
  li s1, 99
  j isa_fail
4:
  slli t2, s0, 2
  la t3, survivors
  add t3, t3, t2
  li t4, 1
  sw t4, 0(t3)
  ISA_END

  .bss
  .balign 64
after:
  .space 4 * ISA_MAX_THREADS
survivors:
  .space 4 * ISA_MAX_THREADS
