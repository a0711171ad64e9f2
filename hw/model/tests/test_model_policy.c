/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model_policy.c - the model's reconvergence policies (simty, pc,
 * ipdom) and statistics: exact warp instruction counts and traces of tiny
 * divergent kernels worked out by hand (if/else, calls, early returns,
 * a jump table, function pointers, threads ending in a branch), the
 * ipdom analysis (function exits, jump tables), equal memory under every
 * policy (also loops with a break and recursion), and the def-use
 * distance histogram.
 */
#include <stdio.h>
#include <unistd.h>

#include "model_test_util.h"

#define PC(i) (SIMTY_CODE_BASE + 4u * (i))

static const unsigned policies[] = {SIMTY_POLICY_SIMTY, SIMTY_POLICY_PC,
                                    SIMTY_POLICY_IPDOM};

/* Run `p` on 1 x lanes under `policy`, with functions `f` (n of them). */
static struct harness *run_policy(const struct prog *p, unsigned lanes,
                                  unsigned policy,
                                  const struct simty_model_func *f, size_t n)
{
  struct harness *h = harness_new(1, lanes);
  assert_int_equal(simty_model_set_policy(h->m, policy), 0);
  assert_int_equal(simty_model_set_functions(h->m, f, n), 0);
  harness_run(h, p, lanes);
  if (h->status != SIMTY_MODEL_DONE)
    fail_msg("policy %u: status %d, fault cause %u pc 0x%08x", policy,
             h->status, h->fault.cause, h->fault.pc);
  return h;
}

static void expect_pcs(const struct harness *h, const uint32_t *pcs,
                       const uint64_t *masks, unsigned n)
{
  if (h->ntrace != n)
    fail_msg("trace has %u entries, expected %u", h->ntrace, n);
  for (unsigned i = 0; i < n; i++)
    if (h->trace[i].pc != pcs[i] || h->trace[i].mask != masks[i])
      fail_msg("trace[%u] = (%08x, %llx), expected (%08x, %llx)", i,
               h->trace[i].pc, (unsigned long long)h->trace[i].mask, pcs[i],
               (unsigned long long)masks[i]);
}

/* if/else with the else block after the join (GCC's reordering):
 *    0 lui x31; 1 csrr x5 tid; 2 addi x6 2; 3 bltu x5 x6 -> 9
 *    4 then: addi x7 1
 *    5 JOIN: slli x9 x5 2; 6 add; 7 sw x7; 8 ecall
 *    9 else: addi x7 2; 10 jal -> 5
 * simty and pc: the then side (lower pc) runs through the join to the
 * end, then the else side runs the join again: 4 + 5 + 6 = 15.
 * ipdom: the join (5) post-dominates the branch: 4 + 1 + 2 + 4 = 11. */
static void test_reordered_if_else(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE));
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 0, 2));
  emit(&p, BLTU(5, 6, 24)); /* 3 -> 9 */
  emit(&p, ADDI(7, 0, 1));  /* 4 */
  emit(&p, SLLI(9, 5, 2));  /* 5 JOIN */
  emit(&p, ADD(9, 9, RES));
  emit(&p, SW(7, 9, 0));
  emit(&p, ECALL);          /* 8 */
  emit(&p, ADDI(7, 0, 2));  /* 9 else */
  emit(&p, JAL(0, -20));    /* 10 -> 5 */
  const uint64_t want[] = {15, 15, 11};
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 4, policies[k], NULL, 0);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], want[k]);
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 38);
    assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 1);
    for (unsigned t = 0; t < 4; t++)
      assert_int_equal(peek(h, OUT(t)), t < 2 ? 2 : 1);
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      const uint32_t pcs[] = {PC(0), PC(1), PC(2), PC(3), PC(4), PC(9),
                              PC(10), PC(5), PC(6), PC(7), PC(8)};
      const uint64_t masks[] = {0xf, 0xf, 0xf, 0xf, 0xc, 0x3,
                                0x3, 0xf, 0xf, 0xf, 0xf};
      expect_pcs(h, pcs, masks, 11);
      assert_int_equal(simty_model_ipdom_of(h->m, PC(3)), PC(5));
      assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 2);
    }
    harness_free(h);
  }
}

/* Odd lanes call a function placed after main (functions main = 0..7,
 * f = 8..9):
 *    0 csrr; 1 andi x5 1; 2 beq x5 x0 -> 5; 3 jal ra f; 4 jal -> 7
 *    5 addi; 6 addi; 7 ecall; 8 f: addi; 9 ret
 * simty: the call (depth 1) runs first and returns to 4, then the even
 * lanes at 5 (lower pc), merge at 7: 10 warp instructions.
 * pc: the even lanes' 5, 6, 7 (pc 7 < 8) end before the odd lanes run
 * f: 11 (7 runs twice).
 * ipdom: IPDOM(2) = 7: the fall-through side 3, 8, 9, 4 then 5, 6,
 * then 7 once: 10. */
static void test_call_in_branch(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 0 */
  emit(&p, ANDI(5, 5, 1));          /* 1 */
  emit(&p, BEQ(5, 0, 12));          /* 2: even -> 5 */
  emit(&p, JAL(1, 20));             /* 3: odd: call 8 */
  emit(&p, JAL(0, 12));             /* 4: -> 7 */
  emit(&p, ADDI(6, 0, 7));          /* 5 */
  emit(&p, ADDI(6, 6, 1));          /* 6 */
  emit(&p, ECALL);                  /* 7 */
  emit(&p, ADDI(7, 0, 3));          /* 8: f */
  emit(&p, JALR(0, 1, 0));          /* 9: ret */
  const struct simty_model_func funcs[] = {{PC(0), 32}, {PC(8), 8}};
  const uint64_t want[] = {10, 11, 10};
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 4, policies[k], funcs, 2);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], want[k]);
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts],
                     3 * 4 + 4 * 2 + 2 * 2 + 4);
    if (policies[k] == SIMTY_POLICY_PC) {
      const uint32_t pcs[] = {PC(0), PC(1), PC(2), PC(3), PC(5), PC(6),
                              PC(7), PC(8), PC(9), PC(4), PC(7)};
      const uint64_t masks[] = {0xf, 0xf, 0xf, 0xa, 0x5, 0x5,
                                0x5, 0xa, 0xa, 0xa, 0xa};
      expect_pcs(h, pcs, masks, 11);
    }
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      const uint32_t pcs[] = {PC(0), PC(1), PC(2), PC(3), PC(8),
                              PC(9), PC(4), PC(5), PC(6), PC(7)};
      const uint64_t masks[] = {0xf, 0xf, 0xf, 0xa, 0xa,
                                0xa, 0xa, 0x5, 0x5, 0xf};
      expect_pcs(h, pcs, masks, 10);
      struct simty_model_cfg_info info;
      assert_int_equal(simty_model_cfg_info(h->m, &info), 0);
      assert_int_equal(info.functions, 3); /* + the rest of CODE */
      assert_int_equal(info.branches, 1);
    }
    harness_free(h);
  }
}

/* A function with two returns (shrink-wrapped early return): its branch
 * has no post-dominator inside the function, so ipdom reconverges at the
 * function's exit and returns once for every lane.
 *    0 csrr x5; 1 jal ra f; 2 addi x8; 3 ecall
 *    4 f: bne x5 x0 -> 7; 5 addi x7 9; 6 ret; 7 addi; 8 addi; 9 ret
 * simty: 0 1 4 | 5 6 | 7 8 9 | 2 3 = 10.
 * pc: lane 0 returns to 2 (pc 2 < 7) and ends first: 12.
 * ipdom: 0 1 4 | 5 | 7 8 | 9 (all lanes) | 2 3 = 9. */
static void test_early_return_exit(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 0 */
  emit(&p, JAL(1, 12));             /* 1: call 4 */
  emit(&p, ADDI(8, 7, 1));          /* 2 */
  emit(&p, ECALL);                  /* 3 */
  emit(&p, BNE(5, 0, 12));          /* 4: f; lanes 1..3 -> 7 */
  emit(&p, ADDI(7, 0, 9));          /* 5 */
  emit(&p, JALR(0, 1, 0));          /* 6 */
  emit(&p, ADDI(7, 0, 5));          /* 7 */
  emit(&p, ADDI(7, 7, 1));          /* 8 */
  emit(&p, JALR(0, 1, 0));          /* 9 */
  const struct simty_model_func funcs[] = {{PC(0), 16}, {PC(4), 24}};
  const uint64_t want[] = {10, 12, 9};
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 4, policies[k], funcs, 2);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], want[k]);
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 31);
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      const uint32_t pcs[] = {PC(0), PC(1), PC(4), PC(5), PC(7),
                              PC(8), PC(9), PC(2), PC(3)};
      const uint64_t masks[] = {0xf, 0xf, 0xf, 0x1, 0xe,
                                0xe, 0xf, 0xf, 0xf};
      expect_pcs(h, pcs, masks, 9);
      assert_int_equal(simty_model_ipdom_of(h->m, PC(4)), 0xFFFFFFFEu);
    }
    harness_free(h);
  }
}

/* A switch through a bounds-checked jump table in DATA (GCC's pattern):
 *    0 lui x31; 1 csrr x5; 2 andi x5 3; 3 addi x6 3; 4 bltu x6 x5 -> 19
 *    5 lui x10; 6 addi x10 0x100; 7 slli x11 x5 2; 8 add x11 x11 x10
 *    9 lw x12 0(x11); 10 jalr x0 x12
 *    11/13/15/17 case k: addi x7 10(k+1); jal -> 19
 *    19 JOIN: slli; add; sw x7; ecall
 * Every policy: 11 + 3 replays of the jalr + 4 x 2 + 4 = 26 warp
 * instructions; the analysis finds the table and IPDOM(10) = 19. */
static void test_jump_table(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE));   /* 0 */
  emit(&p, CSRR(5, SIMTY_CSR_TID));      /* 1 */
  emit(&p, ANDI(5, 5, 3));               /* 2 */
  emit(&p, ADDI(6, 0, 3));               /* 3 */
  emit(&p, BLTU(6, 5, 60));              /* 4: -> 19 (never) */
  emit(&p, LUI(10, SIMTY_DATA_BASE));    /* 5 */
  emit(&p, ADDI(10, 10, 0x100));         /* 6 */
  emit(&p, SLLI(11, 5, 2));              /* 7 */
  emit(&p, ADD(11, 11, 10));             /* 8 */
  emit(&p, LW(12, 11, 0));               /* 9 */
  emit(&p, JALR(0, 12, 0));              /* 10 */
  for (int k = 0; k < 4; k++) {          /* 11..18 */
    emit(&p, ADDI(7, 0, 10 * (k + 1)));
    emit(&p, JAL(0, 4 * (19 - (int)p.n)));
  }
  emit(&p, SLLI(9, 5, 2));               /* 19 JOIN */
  emit(&p, ADD(9, 9, RES));
  emit(&p, SW(7, 9, 0));
  emit(&p, ECALL);
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = harness_new(1, 4);
    assert_int_equal(simty_model_set_policy(h->m, policies[k]), 0);
    for (unsigned c = 0; c < 4; c++)
      poke(h, SIMTY_DATA_BASE + 0x100 + 4 * c, PC(11 + 2 * c));
    harness_run(h, &p, 4);
    assert_int_equal(h->status, SIMTY_MODEL_DONE);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 26);
    assert_int_equal(h->ctr[SIMTY_CTR_replays_indirect], 3);
    for (unsigned t = 0; t < 4; t++)
      assert_int_equal(peek(h, OUT(t)), 10 * (t + 1));
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      struct simty_model_cfg_info info;
      assert_int_equal(simty_model_cfg_info(h->m, &info), 0);
      assert_int_equal(info.jump_tables, 1);
      assert_int_equal(info.unresolved, 0);
      assert_int_equal(simty_model_ipdom_of(h->m, PC(10)), PC(19));
      /* the stack: JOIN, then the four cases (no entry per replay) */
      assert_int_equal(h->ctr[SIMTY_CTR_cct_peak], 5 - 2);
    }
    harness_free(h);
  }
}

/* A loop with a per-lane trip count and a break: every policy computes
 * the same sums. Lane t adds 1..(t + 1) but stops at 3:
 *    0 lui x31; 1 csrr x5; 2 addi x6 x5 1 (trips); 3 li x7 0; 4 li x8 0
 *    5 LOOP: addi x8 x8 1; 6 addi x9 x0 4; 7 beq x8 x9 -> 11 (break)
 *    8 add x7 x7 x8; 9 bne x8 x6 -> 5; 10 nop
 *    11 EXIT: slli; add; sw x7; ecall
 * Both branches' IPDOM is EXIT (the break bypasses the nop). */
static void test_loop_break_same_memory(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE)); /* 0 */
  emit(&p, CSRR(5, SIMTY_CSR_TID));    /* 1 */
  emit(&p, ADDI(6, 5, 1));             /* 2 */
  emit(&p, ADDI(7, 0, 0));             /* 3 */
  emit(&p, ADDI(8, 0, 0));             /* 4 */
  emit(&p, ADDI(8, 8, 1));             /* 5 LOOP */
  emit(&p, ADDI(9, 0, 4));             /* 6 */
  emit(&p, BEQ(8, 9, 16));             /* 7 -> 11 */
  emit(&p, ADD(7, 7, 8));              /* 8 */
  emit(&p, BNE(8, 6, -16));            /* 9 -> 5 */
  emit(&p, NOP);                       /* 10 */
  emit(&p, SLLI(10, 5, 2));            /* 11 EXIT */
  emit(&p, ADD(10, 10, RES));
  emit(&p, SW(7, 10, 0));
  emit(&p, ECALL);
  uint64_t thread_insts = 0;
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 8, policies[k], NULL, 0);
    for (unsigned t = 0; t < 8; t++) {
      uint32_t n = t + 1 < 3 ? t + 1 : 3, sum = n * (n + 1) / 2;
      assert_int_equal(peek(h, OUT(t)), sum);
    }
    if (k == 0)
      thread_insts = h->ctr[SIMTY_CTR_thread_insts];
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], thread_insts);
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      assert_int_equal(simty_model_ipdom_of(h->m, PC(7)), PC(11));
      assert_int_equal(simty_model_ipdom_of(h->m, PC(9)), PC(11));
    }
    harness_free(h);
  }
}

/* A divergent call through a function pointer (even lanes fA, odd fB):
 *    0 lui x31; 1 csrr x5; 2 andi x6 x5 1; 3 auipc x10; 4 addi x10 36
 *    5 slli x6 x6 3; 6 add x10 x10 x6; 7 jalr ra x10
 *    8 slli x9 x5 2; 9 add; 10 sw x7; 11 ecall
 *    12 fA: addi x7 1; 13 ret; 14 fB: addi x7 2; 15 ret
 * simty: 0-7 | fA 12 13 (depth 1 first) | 7 replays | fB 14 15 | 8-11
 * = 17. pc: the replay at 7 first, then fA, whose lanes reach 8 (lower
 * than 14) and finish alone: 21. ipdom: a call reconverges at pc + 4:
 * 0-7 | 7 | 14 15 | 12 13 | 8-11 = 17. */
static void test_function_pointer(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE)); /* 0 */
  emit(&p, CSRR(5, SIMTY_CSR_TID));    /* 1 */
  emit(&p, ANDI(6, 5, 1));             /* 2 */
  emit(&p, AUIPC(10, 0));              /* 3 */
  emit(&p, ADDI(10, 10, 36));          /* 4: PC(12) */
  emit(&p, SLLI(6, 6, 3));             /* 5 */
  emit(&p, ADD(10, 10, 6));            /* 6 */
  emit(&p, JALR(1, 10, 0));            /* 7 */
  emit(&p, SLLI(9, 5, 2));             /* 8 */
  emit(&p, ADD(9, 9, RES));            /* 9 */
  emit(&p, SW(7, 9, 0));               /* 10 */
  emit(&p, ECALL);                     /* 11 */
  emit(&p, ADDI(7, 0, 1));             /* 12 fA */
  emit(&p, JALR(0, 1, 0));             /* 13 */
  emit(&p, ADDI(7, 0, 2));             /* 14 fB */
  emit(&p, JALR(0, 1, 0));             /* 15 */
  const struct simty_model_func funcs[] = {
      {PC(0), 48}, {PC(12), 8}, {PC(14), 8}};
  const uint64_t want[] = {17, 21, 17};
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 4, policies[k], funcs, 3);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], want[k]);
    assert_int_equal(h->ctr[SIMTY_CTR_replays_indirect], 1);
    /* the jalr retires its served lanes only, 2 then 2 */
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts],
                     7 * 4 + 2 + 2 + 4 * 2 + 4 * 4);
    for (unsigned t = 0; t < 4; t++)
      assert_int_equal(peek(h, OUT(t)), 1 + (t & 1));
    if (policies[k] == SIMTY_POLICY_IPDOM) {
      const uint32_t pcs[] = {PC(0), PC(1), PC(2),  PC(3),  PC(4),
                              PC(5), PC(6), PC(7),  PC(7),  PC(14),
                              PC(15), PC(12), PC(13), PC(8), PC(9),
                              PC(10), PC(11)};
      const uint64_t masks[] = {0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x5, 0xa,
                                0xa, 0xa, 0x5, 0x5, 0xf, 0xf, 0xf, 0xf};
      expect_pcs(h, pcs, masks, 17);
      assert_int_equal(simty_model_ipdom_of(h->m, PC(7)), PC(8));
    }
    harness_free(h);
  }
}

/* Recursion: f(n) = n ? n + f(n - 1) : 0 with n = tid, each lane with
 * its own stack in DATA: same sums and thread instructions under every
 * policy. The early `beq` and the body meet at the `ret` (21), the
 * IPDOM, at each call depth.
 *    0 lui x31; 1 csrr x5; 2 slli x2 x5 10; 3 add x2 x2 x31
 *    4 addi x2 x2 2032; 5 mv a0 x5; 6 jal ra f
 *    7 slli; 8 add; 9 sw a0; 10 ecall
 *    11 f: beq a0 x0 -> 21; 12 addi sp -8; 13 sw ra 4(sp); 14 sw a0 0(sp)
 *    15 addi a0 -1; 16 jal ra f; 17 lw x11 0(sp); 18 lw ra 4(sp)
 *    19 addi sp 8; 20 add a0 a0 x11; 21 ret */
static void test_recursion(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE)); /* 0 */
  emit(&p, CSRR(5, SIMTY_CSR_TID));    /* 1 */
  emit(&p, SLLI(2, 5, 10));            /* 2 */
  emit(&p, ADD(2, 2, RES));            /* 3 */
  emit(&p, ADDI(2, 2, 2032));          /* 4 */
  emit(&p, ADDI(10, 5, 0));            /* 5 */
  emit(&p, JAL(1, 20));                /* 6: -> 11 */
  emit(&p, SLLI(9, 5, 2));             /* 7 */
  emit(&p, ADD(9, 9, RES));            /* 8 */
  emit(&p, SW(10, 9, 0));              /* 9 */
  emit(&p, ECALL);                     /* 10 */
  emit(&p, BEQ(10, 0, 40));            /* 11 f: -> 21 */
  emit(&p, ADDI(2, 2, -8));            /* 12 */
  emit(&p, SW(1, 2, 4));               /* 13 */
  emit(&p, SW(10, 2, 0));              /* 14 */
  emit(&p, ADDI(10, 10, -1));          /* 15 */
  emit(&p, JAL(1, -20));               /* 16: -> 11 */
  emit(&p, LW(11, 2, 0));              /* 17 */
  emit(&p, LW(1, 2, 4));               /* 18 */
  emit(&p, ADDI(2, 2, 8));             /* 19 */
  emit(&p, ADD(10, 10, 11));           /* 20 */
  emit(&p, JALR(0, 1, 0));             /* 21 */
  const struct simty_model_func funcs[] = {{PC(0), 44}, {PC(11), 44}};
  uint64_t thread_insts = 0, mem_requests = 0;
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 8, policies[k], funcs, 2);
    for (unsigned t = 0; t < 8; t++)
      assert_int_equal(peek(h, OUT(t)), t * (t + 1) / 2);
    if (k == 0) {
      thread_insts = h->ctr[SIMTY_CTR_thread_insts];
      mem_requests = h->ctr[SIMTY_CTR_mem_requests];
    }
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], thread_insts);
    assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], mem_requests);
    if (policies[k] == SIMTY_POLICY_IPDOM)
      assert_int_equal(simty_model_ipdom_of(h->m, PC(11)), PC(21));
    harness_free(h);
  }
}

/* Odd lanes end inside a branch (ecall); under ipdom the branch's IPDOM
 * is the exit, and the ended lanes leave every stack entry:
 *    0 lui; 1 csrr x5; 2 andi x6 x5 1; 3 beq x6 x0 -> 5; 4 ecall
 *    5 slli; 6 add; 7 sw x5; 8 ecall
 * Every policy: 4 + 1 + 4 = 9 warp instructions. */
static void test_exit_in_branch(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE));
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ANDI(6, 5, 1));
  emit(&p, BEQ(6, 0, 8));
  emit(&p, ECALL);
  emit(&p, SLLI(9, 5, 2));
  emit(&p, ADD(9, 9, RES));
  emit(&p, SW(5, 9, 0));
  emit(&p, ECALL);
  for (unsigned k = 0; k < 3; k++) {
    struct harness *h = run_policy(&p, 4, policies[k], NULL, 0);
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 9);
    assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 4 * 4 + 2 + 4 * 2);
    for (unsigned t = 0; t < 4; t++)
      assert_int_equal(peek(h, OUT(t)), t & 1 ? 0 : t);
    if (policies[k] == SIMTY_POLICY_IPDOM)
      assert_int_equal(simty_model_ipdom_of(h->m, PC(3)), 0xFFFFFFFEu);
    harness_free(h);
  }
}

/* The default policy is simty, and selecting it changes nothing. */
static void test_default_and_names(void **state)
{
  (void)state;
  struct harness *h = harness_new(1, 4);
  assert_int_equal(simty_model_policy(h->m), SIMTY_POLICY_SIMTY);
  assert_int_equal(simty_model_set_policy(h->m, 3), SIMTY_MODEL_INVALID);
  unsigned pol = 99;
  assert_int_equal(simty_model_policy_parse("ipdom", &pol), 0);
  assert_int_equal(pol, SIMTY_POLICY_IPDOM);
  assert_int_equal(simty_model_policy_parse("stack", &pol), -1);
  assert_string_equal(simty_model_policy_name(SIMTY_POLICY_PC), "pc");
  assert_null(simty_model_policy_name(7));
  harness_free(h);
}

/* Def-use distances (1 lane):
 *    1 lui x31          writes x31 @1
 *    2 addi x5 x0 1     @2
 *    3 addi x6 x5 2     x5: 1
 *    4 add x7 x5 x6     x5: 2, x6: 1
 *    5..8 nop x4        (x0 not counted)
 *    9 sw x7 0(x31)     x7: 5 -> [4,8); x31: 8 -> [8,16)
 *   10 ecall
 * counts = [0, 2, 1, 0, 1, 1, 0, 0, 0]. Stats do not change counters. */
static void test_defuse_histogram(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(RES, SIMTY_DATA_BASE));
  emit(&p, ADDI(5, 0, 1));
  emit(&p, ADDI(6, 5, 2));
  emit(&p, ADD(7, 5, 6));
  for (int i = 0; i < 4; i++)
    emit(&p, NOP);
  emit(&p, SW(7, RES, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 1);
  harness_run(h, &p, 1);
  uint64_t plain[SIMTY_CTR_COUNT];
  memcpy(plain, h->ctr, sizeof(plain));
  uint64_t c[SIMTY_DEFUSE_BINS + 1];
  simty_model_defuse(h->m, c);
  for (unsigned b = 0; b <= SIMTY_DEFUSE_BINS; b++)
    assert_int_equal(c[b], 0); /* off by default */

  assert_int_equal(simty_model_set_stats(h->m, 1), 0);
  harness_launch(h, 1, 0, 0);
  assert_int_equal(h->status, SIMTY_MODEL_DONE);
  assert_memory_equal(plain, h->ctr, sizeof(plain));
  simty_model_defuse(h->m, c);
  const uint64_t want[SIMTY_DEFUSE_BINS + 1] = {0, 2, 1, 0, 1, 1, 0, 0, 0};
  assert_memory_equal(c, want, sizeof(want));

  char path[] = "/tmp/simty_stats_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(simty_model_stats_append(h->m, path), 0);
  assert_int_equal(simty_model_stats_append(h->m, path), 0);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[2048];
  unsigned lines = 0;
  while (fgets(line, sizeof(line), f)) {
    lines++;
    assert_non_null(strstr(line, "{\"policy\": \"simty\", \"warps\": 1, "
                                 "\"lanes\": 1, \"nthreads\": 1, "
                                 "\"counters\": {\"cycles\": 10, "));
    assert_non_null(strstr(line, "\"defuse\": {\"bins\": [1, 2, 3, 4, 8, "
                                 "16, 32, 64], \"counts\": [0, 2, 1, 0, 1, "
                                 "1, 0, 0, 0]}}\n"));
  }
  fclose(f);
  unlink(path);
  assert_int_equal(lines, 2);
  assert_int_equal(simty_model_set_stats(h->m, 0), 0);
  harness_free(h);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reordered_if_else),
      cmocka_unit_test(test_call_in_branch),
      cmocka_unit_test(test_early_return_exit),
      cmocka_unit_test(test_jump_table),
      cmocka_unit_test(test_loop_break_same_memory),
      cmocka_unit_test(test_function_pointer),
      cmocka_unit_test(test_recursion),
      cmocka_unit_test(test_exit_in_branch),
      cmocka_unit_test(test_default_and_names),
      cmocka_unit_test(test_defuse_histogram),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
