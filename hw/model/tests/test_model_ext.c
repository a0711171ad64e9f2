/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model_ext.c - the model's optional extensions (docs/architecture.md
 * section 2): M edge cases, A (AMOs serialised in lane order, LR/SC
 * reservations, faults), Zicntr counter values, each illegal when off;
 * the race checker and the random schedule through the library API.
 */
#include "model_test_util.h"

#define MUL_(f3, rd, a, b) enc_r(1, b, a, f3, rd, 0x33)
#define MUL(rd, a, b) MUL_(0, rd, a, b)
#define MULH(rd, a, b) MUL_(1, rd, a, b)
#define MULHSU(rd, a, b) MUL_(2, rd, a, b)
#define MULHU(rd, a, b) MUL_(3, rd, a, b)
#define DIV(rd, a, b) MUL_(4, rd, a, b)
#define DIVU(rd, a, b) MUL_(5, rd, a, b)
#define REM(rd, a, b) MUL_(6, rd, a, b)
#define REMU(rd, a, b) MUL_(7, rd, a, b)
#define AMO_(f5, rd, addr, src) enc_r((f5) << 2, src, addr, 2, rd, 0x2f)
#define LR(rd, addr) AMO_(0x02, rd, addr, 0)
#define SC(rd, src, addr) AMO_(0x03, rd, addr, src)
#define AMOSWAP(rd, src, addr) AMO_(0x01, rd, addr, src)
#define AMOADD(rd, src, addr) AMO_(0x00, rd, addr, src)
#define AMOMAX(rd, src, addr) AMO_(0x14, rd, addr, src)
#define AMOMINU(rd, src, addr) AMO_(0x18, rd, addr, src)

#define ALL_EXT (SIMTY_EXT_M | SIMTY_EXT_A | SIMTY_EXT_ZICNTR)

static void expect_done(struct harness *h)
{
  if (h->status != SIMTY_MODEL_DONE)
    fail_msg("status %d, fault cause %u pc 0x%08x addr 0x%08x", h->status,
             h->fault.cause, h->fault.pc, h->fault.addr);
}

static struct harness *harness_ext(unsigned warps, unsigned lanes,
                                   unsigned ext)
{
  struct harness *h = harness_new(warps, lanes);
  assert_int_equal(simty_model_set_isa(h->m, ext), 0);
  assert_int_equal(simty_model_isa(h->m), ext);
  return h;
}

/* x5 = tid, x6 = lane (for `lanes` lanes) */
static void emit_ids(struct prog *p)
{
  emit(p, CSRR(5, SIMTY_CSR_TID));
  emit(p, CSRR(6, SIMTY_CSR_LANES));
  emit(p, ADDI(6, 6, -1));
  emit(p, AND(6, 6, 5));
}

/* ---- M ---- */

struct m_case {
  uint32_t a, b, mul, mulh, mulhsu, mulhu, div, divu, rem, remu;
};

static void test_m_edge_cases(void **state)
{
  (void)state;
  static const struct m_case cases[] = {
      /* division by zero: quotient all ones, remainder the dividend */
      {7, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff, 7, 7},
      {0x80000000, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff, 0x80000000,
       0x80000000},
      /* signed overflow: -2^31 / -1 = -2^31, remainder 0 */
      {0x80000000, 0xffffffff, 0x80000000, 0, 0x80000000, 0x7fffffff,
       0x80000000, 0, 0, 0x80000000},
      /* truncation towards zero, sign of the remainder = the dividend's */
      {0xfffffff9, 2, 0xfffffff2, 0xffffffff, 0xffffffff, 1, 0xfffffffd,
       0x7ffffffc, 0xffffffff, 1},
      {7, 0xfffffffe, 0xfffffff2, 0xffffffff, 6, 6, 0xfffffffd, 0, 1, 7},
      /* high products */
      {0xffffffff, 0xffffffff, 1, 0, 0xffffffff, 0xfffffffe, 1, 1, 0, 0},
      {0x80000000, 0x80000000, 0, 0x40000000, 0xc0000000, 0x40000000, 1, 1,
       0, 0},
  };
  const size_t n = sizeof(cases) / sizeof(cases[0]);
  struct prog p = {0};
  emit_res_base(&p);
  for (size_t i = 0; i < n; i++) {
    emit_li(&p, 1, cases[i].a);
    emit_li(&p, 2, cases[i].b);
    const uint32_t ops[8] = {MUL(3, 1, 2),  MULH(3, 1, 2), MULHSU(3, 1, 2),
                             MULHU(3, 1, 2), DIV(3, 1, 2),  DIVU(3, 1, 2),
                             REM(3, 1, 2),  REMU(3, 1, 2)};
    for (unsigned k = 0; k < 8; k++) {
      emit(&p, ops[k]);
      emit(&p, SW(3, RES, (int32_t)(4 * (8 * i + k))));
    }
  }
  emit(&p, ECALL);
  struct harness *h = harness_ext(1, 1, SIMTY_EXT_M);
  harness_run(h, &p, 1);
  expect_done(h);
  for (size_t i = 0; i < n; i++) {
    const uint32_t *want = &cases[i].mul;
    for (unsigned k = 0; k < 8; k++)
      if (peek(h, OUT(8 * i + k)) != want[k])
        fail_msg("case %zu (0x%08x, 0x%08x) op %u: 0x%08x, want 0x%08x", i,
                 cases[i].a, cases[i].b, k, peek(h, OUT(8 * i + k)), want[k]);
  }
  harness_free(h);
}

/* Each extension's encodings are illegal while it is off. */
static void test_extensions_off_are_illegal(void **state)
{
  (void)state;
  const uint32_t words[] = {MUL(3, 1, 2), REMU(3, 1, 2),
                            AMOADD(3, 2, RES), LR(3, RES),
                            CSRR(3, SIMTY_CSR_CYCLE),
                            CSRR(3, SIMTY_CSR_INSTRETH)};
  const unsigned needs[] = {SIMTY_EXT_M, SIMTY_EXT_M, SIMTY_EXT_A,
                            SIMTY_EXT_A, SIMTY_EXT_ZICNTR, SIMTY_EXT_ZICNTR};
  for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
    struct prog p = {0};
    emit_res_base(&p);
    emit(&p, words[i]);
    emit(&p, ECALL);
    /* every other extension on: still illegal */
    struct harness *h = harness_ext(1, 4, ALL_EXT & ~needs[i]);
    harness_run(h, &p, 4);
    assert_int_equal(h->status, SIMTY_MODEL_FAULTED);
    assert_int_equal(h->fault.cause, SIMTY_FAULT_ILLEGAL_INSTRUCTION);
    assert_int_equal(h->fault.addr, words[i]);
    /* and legal once it is on (set_isa re-decodes the loaded code) */
    assert_int_equal(simty_model_set_isa(h->m, ALL_EXT), 0);
    harness_launch(h, 4, 0, 100000);
    expect_done(h);
    harness_free(h);
  }
  struct harness *h = harness_new(1, 1);
  assert_int_equal(simty_model_set_isa(h->m, 0x8), SIMTY_MODEL_INVALID);
  harness_free(h);
}

/* ---- A ---- */

/* All lanes of one warp add to one word: served in one transaction, in
 * lane order, each lane getting its own old value. */
static void test_amo_same_word_lane_order(void **state)
{
  (void)state;
  for (unsigned lanes = 1; lanes <= 32; lanes *= 2) {
    struct prog p = {0};
    emit_res_base(&p);
    emit_ids(&p);
    emit(&p, ADDI(7, 6, 1));            /* x7 = lane + 1 */
    emit(&p, ADDI(8, RES, 1024));       /* x8 = the shared word */
    emit(&p, AMOADD(9, 7, 8));          /* sum += lane + 1 */
    emit(&p, ADDI(10, RES, 1028));
    emit(&p, AMOSWAP(11, 5, 10));       /* swap in the tid */
    emit(&p, SLLI(12, 5, 2));
    emit(&p, ADD(12, 12, RES));
    emit(&p, SW(9, 12, 0));             /* OUT(tid) = old sum */
    emit(&p, SW(11, 12, 512));          /* OUT(128 + tid) = old swap */
    emit(&p, ECALL);
    struct harness *h = harness_ext(1, lanes, SIMTY_EXT_A);
    uint32_t init = 0xdead;
    assert_int_equal(simty_model_write(h->m, OUT(257), &init, 4), 0);
    harness_run(h, &p, lanes);
    expect_done(h);
    uint32_t sum = 0;
    for (unsigned l = 0; l < lanes; l++) {
      assert_int_equal(peek(h, OUT(l)), sum); /* lanes before it, in order */
      sum += l + 1;
      assert_int_equal(peek(h, OUT(128 + l)), l == 0 ? init : l - 1);
    }
    assert_int_equal(peek(h, OUT(256)), sum);
    assert_int_equal(peek(h, OUT(257)), lanes - 1);
    /* two AMOs and two stores, one transaction each, no replay */
    assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 4);
    assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 0);
    assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 4 * lanes);
    harness_free(h);
  }
}

/* Every AMO op, and lanes of one line on different words; lanes in
 * another line replay. */
static void test_amo_ops_and_lines(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  /* x8 = &word[tid * 2]: lanes 0,1 share the leader's 4-word line at 4
   * lanes, lanes 2,3 the next one (a replay) */
  emit(&p, SLLI(8, 5, 3));
  emit(&p, ADD(8, 8, RES));
  emit_li(&p, 7, 0xfffffff0);            /* -16 */
  emit(&p, AMOMAX(9, 7, 8));              /* max(5, -16) = 5 */
  emit(&p, AMOMINU(9, 7, 8));             /* minu(5, 0xfffffff0) = 5 */
  emit(&p, SW(9, 8, 4));
  emit(&p, ECALL);
  struct harness *h = harness_ext(1, 4, SIMTY_EXT_A);
  for (unsigned t = 0; t < 4; t++) {
    uint32_t v = 5;
    assert_int_equal(simty_model_write(h->m, OUT(2 * t), &v, 4), 0);
  }
  harness_run(h, &p, 4);
  expect_done(h);
  for (unsigned t = 0; t < 4; t++) {
    assert_int_equal(peek(h, OUT(2 * t)), 5);
    assert_int_equal(peek(h, OUT(2 * t + 1)), 5);
  }
  assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 3);
  harness_free(h);
}

/* All lanes lr.w then sc.w one word: the lowest lane succeeds, its
 * write ends the others' reservations; the lr/sc loop adds each thread
 * once; a store from another warp, or an sc.w to another address, fails
 * the sc. */
static void test_lr_sc(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  emit_li(&p, 8, OUT(1024));             /* the contended word */
  emit(&p, LR(9, 8));
  emit(&p, ADDI(7, 5, 100));
  emit(&p, SC(10, 7, 8));                /* x10 = 0 for lane 0 only */
  emit(&p, SLLI(12, 5, 2));
  emit(&p, ADD(12, 12, RES));
  emit(&p, SW(10, 12, 0));               /* OUT(tid) = sc result */
  /* the increment loop on OUT(1025) */
  emit(&p, ADDI(13, 8, 4));
  uint32_t loop = here(&p);
  emit(&p, LR(14, 13));
  emit(&p, ADDI(14, 14, 1));
  emit(&p, SC(15, 14, 13));
  emit(&p, BNE(15, 0, (int32_t)(loop - here(&p))));
  /* sc.w to another word than the reserved one fails, writes nothing */
  emit(&p, LR(14, 13));
  emit(&p, ADDI(16, 12, 2000));         /* OUT(500 + tid) */
  emit(&p, SC(15, 7, 16));
  emit(&p, SW(15, 12, 1024));            /* OUT(256 + tid) = 1 */
  emit(&p, ECALL);
  struct harness *h = harness_ext(2, 4, SIMTY_EXT_A);
  harness_run(h, &p, 8);
  expect_done(h);
  /* round robin interleaves the warps: both reserve, then warp 0's lane
   * 0 stores first and ends every other reservation, warp 1's included */
  assert_int_equal(peek(h, OUT(0)), 0);
  for (unsigned t = 1; t < 8; t++)
    assert_int_equal(peek(h, OUT(t)), 1);
  assert_int_equal(peek(h, OUT(1024)), 100);
  assert_int_equal(peek(h, OUT(1025)), 8);
  for (unsigned t = 0; t < 8; t++) {
    assert_int_equal(peek(h, OUT(256 + t)), 1);
    assert_int_equal(peek(h, OUT(500 + t)), 0);
  }
  harness_free(h);
}

/* A store to the reserved word by another warp, between lr and sc,
 * fails the sc. */
static void test_sc_fails_after_other_store(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  emit(&p, ADDI(8, RES, 1024));
  /* warp 1 (tid 1 at 1 lane) stores; warp 0 reserves before that
   * store (round robin, one instruction each in turn) */
  uint32_t br = emit(&p, 0);
  emit(&p, LR(9, 8));                    /* warp 0 */
  emit(&p, NOP);
  emit(&p, NOP);
  emit(&p, SC(10, 5, 8));
  emit(&p, SW(10, RES, 0));
  emit(&p, ECALL);
  uint32_t other = here(&p);
  emit(&p, SW(5, 8, 0));                 /* warp 1 */
  emit(&p, ECALL);
  patch(&p, br, BNE(5, 0, (int32_t)(other - br)));
  struct harness *h = harness_ext(2, 1, SIMTY_EXT_A);
  harness_run(h, &p, 2);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), 1);   /* failed */
  assert_int_equal(peek(h, OUT(256)), 1); /* warp 1's value remains */
  harness_free(h);
}

/* A reservation does not outlive its logical thread: the next thread
 * of the same hardware thread cannot complete the sc.w. */
static void test_reservation_ends_with_thread(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  uint32_t br = emit(&p, 0);
  emit(&p, LR(9, RES));                  /* thread 0: reserve, end */
  emit(&p, ECALL);
  uint32_t second = here(&p);
  emit(&p, SC(10, 5, RES));              /* thread 1: no reservation */
  emit(&p, SW(10, RES, 4));
  emit(&p, ECALL);
  patch(&p, br, BNE(5, 0, (int32_t)(second - br)));
  struct harness *h = harness_ext(1, 1, SIMTY_EXT_A);
  harness_run(h, &p, 2);
  expect_done(h);
  assert_int_equal(peek(h, OUT(1)), 1);
  assert_int_equal(peek(h, OUT(0)), 0);
  harness_free(h);
}

static void test_amo_faults(void **state)
{
  (void)state;
  struct {
    uint32_t word, addr, cause;
  } cases[] = {
      {AMOADD(3, 0, 8), SIMTY_DATA_BASE + 2, SIMTY_FAULT_MISALIGNED_STORE},
      {LR(3, 8), SIMTY_DATA_BASE + 1, SIMTY_FAULT_MISALIGNED_LOAD},
      {SC(3, 0, 8), SIMTY_DATA_BASE + 6, SIMTY_FAULT_MISALIGNED_STORE},
      {AMOSWAP(3, 0, 8), SIMTY_CONSOLE_ADDR, SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {LR(3, 8), SIMTY_CODE_BASE, SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {AMOADD(3, 0, 8), SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE,
       SIMTY_FAULT_STORE_OUT_OF_RANGE},
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct prog p = {0};
    emit_li(&p, 8, cases[i].addr);
    uint32_t pc = emit(&p, cases[i].word);
    emit(&p, ECALL);
    struct harness *h = harness_ext(1, 2, SIMTY_EXT_A);
    harness_run(h, &p, 2);
    assert_int_equal(h->status, SIMTY_MODEL_FAULTED);
    assert_int_equal(h->fault.cause, cases[i].cause);
    assert_int_equal(h->fault.pc, pc);
    assert_int_equal(h->fault.addr, cases[i].addr);
    harness_free(h);
  }
}

/* Atomics in the stack area: on a lane's own stack they go through the
 * interleaving (one transaction for the warp, each lane its own word,
 * LR/SC reservations per physical word); in another lane's stack they
 * fault STACK_OVERFLOW. Stacks of 64 bytes (the harness's stack_log2). */
static void test_amo_stack(void **state)
{
  (void)state;
  const uint32_t top = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_MHARTID));
  emit(&p, CSRR(6, SIMTY_CSR_STACK_TOP));
  emit(&p, SLLI(7, 5, 6));
  emit(&p, SUB(6, 6, 7));        /* sp */
  emit(&p, ADDI(8, 6, -4));
  emit(&p, ADDI(9, 6, -8));
  emit(&p, ADDI(10, 5, 100));
  emit(&p, SW(10, 8, 0));         /* [sp-4] = hart + 100 */
  emit(&p, ADDI(11, 0, 7));
  emit(&p, AMOADD(12, 11, 8));    /* x12 = hart + 100, [sp-4] += 7 */
  emit(&p, LR(13, 9));
  emit(&p, SC(14, 5, 9));         /* x14 = 0, [sp-8] = hart */
  emit(&p, LW(15, 8, 0));
  emit(&p, LW(16, 9, 0));
  emit(&p, SLLI(17, 5, 4));
  emit(&p, ADD(17, 17, RES));
  emit(&p, SW(12, 17, 0));
  emit(&p, SW(14, 17, 4));
  emit(&p, SW(15, 17, 8));
  emit(&p, SW(16, 17, 12));
  emit(&p, ECALL);
  struct harness *h = harness_ext(1, 4, SIMTY_EXT_A);
  harness_run(h, &p, 4);
  expect_done(h);
  for (uint32_t t = 0; t < 4; t++) {
    assert_int_equal(peek(h, OUT(4 * t)), t + 100);
    assert_int_equal(peek(h, OUT(4 * t + 1)), 0);
    assert_int_equal(peek(h, OUT(4 * t + 2)), t + 107);
    assert_int_equal(peek(h, OUT(4 * t + 3)), t);
    /* word 15 (sp - 4) of hart t's stack is physical word 15 * 4 + t */
    assert_int_equal(peek(h, top - 256 + 4 * (15 * 4 + t)), t + 107);
  }
  /* 10 memory instructions: the six on the stacks one transaction each,
   * the four result stores one per lane (16 bytes apart per lane) */
  assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 4 * 3);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 6 + 4 * 4);
  harness_free(h);

  /* lane 1 adds to hart 0's top word; the others to their own sp - 4 */
  p.n = 0;
  emit(&p, CSRR(5, SIMTY_CSR_MHARTID));
  emit(&p, CSRR(6, SIMTY_CSR_STACK_TOP));
  emit(&p, SLLI(8, 5, 6));
  emit(&p, SUB(8, 6, 8));
  emit(&p, ADDI(8, 8, -4));       /* sp - 4 */
  emit(&p, ADDI(7, 5, -1));
  emit(&p, SLTIU(7, 7, 1));
  emit(&p, SUB(7, 0, 7));
  emit(&p, ANDI(7, 7, 64));       /* lane 1: 64 */
  emit(&p, ADD(8, 8, 7));         /* lane 1: top - 4 */
  uint32_t amo = emit(&p, AMOADD(9, 5, 8));
  emit(&p, ECALL);
  h = harness_ext(1, 4, SIMTY_EXT_A);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_STACK_OVERFLOW, amo, 1, 1, top - 4);
  assert_int_equal(peek(h, top - 4), 0);
  harness_free(h);
}

/* ---- Zicntr ---- */

static void test_counters(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);                          /* 4 instructions */
  emit(&p, CSRR(7, SIMTY_CSR_CYCLE));
  emit(&p, CSRR(8, SIMTY_CSR_CYCLE));
  emit(&p, CSRR(9, SIMTY_CSR_INSTRET));
  emit(&p, CSRR(10, SIMTY_CSR_TIME));
  emit(&p, CSRR(11, SIMTY_CSR_CYCLEH));
  emit(&p, CSRR(12, SIMTY_CSR_TIMEH));
  emit(&p, CSRR(13, SIMTY_CSR_INSTRETH));
  emit(&p, SLLI(14, 5, 5));
  emit(&p, ADD(14, 14, RES));
  emit(&p, SW(7, 14, 0));
  emit(&p, SW(8, 14, 4));
  emit(&p, SW(9, 14, 8));
  emit(&p, SW(10, 14, 12));
  emit(&p, SW(11, 14, 16));
  emit(&p, SW(12, 14, 20));
  emit(&p, SW(13, 14, 24));
  emit(&p, ECALL);
  /* 2 warps of 1 lane, round robin: warp w issues in slots w, w + 2... */
  struct harness *h = harness_ext(2, 1, SIMTY_EXT_ZICNTR);
  harness_run(h, &p, 2);
  expect_done(h);
  for (unsigned t = 0; t < 2; t++) {
    uint32_t first = 2 * 5 + t; /* its 6th instruction */
    assert_int_equal(peek(h, OUT(8 * t)), first);
    assert_int_equal(peek(h, OUT(8 * t + 1)), first + 2);
    assert_int_equal(peek(h, OUT(8 * t + 2)), 7);  /* 7 retired before */
    assert_int_equal(peek(h, OUT(8 * t + 3)), first + 6); /* time */
    assert_int_equal(peek(h, OUT(8 * t + 4)), 0);
    assert_int_equal(peek(h, OUT(8 * t + 5)), 0);
    assert_int_equal(peek(h, OUT(8 * t + 6)), 0);
  }
  /* time goes on across launches; cycle and instret start again */
  uint64_t cycles = h->ctr[SIMTY_CTR_cycles];
  harness_launch(h, 4, 0, 100000);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), 10);
  assert_int_equal(peek(h, OUT(2)), 7);
  assert_int_equal(peek(h, OUT(3)), cycles + 16);
  /* the hardware thread's second logical thread counts on: the 22
   * instructions of the first, then its own 7 */
  assert_int_equal(peek(h, OUT(8 * 2 + 2)), 22 + 7);
  harness_free(h);
}

/* ---- Race checker and schedule ---- */

struct races {
  unsigned n;
  struct simty_model_race r[8];
};

static void on_race(void *user, const struct simty_model_race *race)
{
  struct races *rs = user;
  if (rs->n < 8)
    rs->r[rs->n] = *race;
  rs->n++;
}

static void test_racecheck(void **state)
{
  (void)state;
  /* every thread: OUT(tid) = tid (no race); OUT(64) += 1 (a race);
   * a push/pop on its stack (reused by later waves: no race); an atomic
   * add to OUT(65) (never a race); a read of OUT(66) (reads only) */
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  emit(&p, SLLI(7, 5, 2));
  emit(&p, ADD(7, 7, RES));
  emit(&p, SW(5, 7, 0));
  emit(&p, LW(8, RES, 256));
  emit(&p, ADDI(8, 8, 1));
  uint32_t store_pc = emit(&p, SW(8, RES, 256));
  emit(&p, CSRR(2, SIMTY_CSR_STACK_TOP));
  emit(&p, CSRR(9, SIMTY_CSR_MHARTID));
  emit(&p, SLLI(9, 9, 6));              /* stack_log2 = 6 in the harness */
  emit(&p, SUB(2, 2, 9));
  emit(&p, SW(5, 2, -4));
  emit(&p, LW(9, 2, -4));
  emit(&p, ADDI(10, RES, 260));
  emit(&p, AMOADD(11, 5, 10));
  emit(&p, LW(12, RES, 264));
  emit(&p, ECALL);
  struct harness *h = harness_ext(2, 4, SIMTY_EXT_A);
  struct races rs = {0};
  simty_model_set_racecheck(h->m, on_race, &rs);
  harness_run(h, &p, 32); /* 4 waves of 2 warps */
  expect_done(h);
  assert_int_equal(rs.n, 1);
  assert_int_equal(simty_model_race_count(h->m), 1);
  assert_int_equal(rs.r[0].addr & ~3u, OUT(64));
  /* lanes 0 and 1 of warp 0 read it, then lane 0's store is the first
   * write by a thread other than a reader */
  assert_int_equal(rs.r[0].second.pc, store_pc);
  assert_true(rs.r[0].first.tid != rs.r[0].second.tid);
  assert_true(rs.r[0].first.write || rs.r[0].second.write);

  /* off again: nothing reported, and the count restarts per launch */
  simty_model_set_racecheck(h->m, NULL, NULL);
  harness_launch(h, 32, 0, 1000000);
  expect_done(h);
  assert_int_equal(rs.n, 1);
  assert_int_equal(simty_model_race_count(h->m), 0);
  harness_free(h);
}

/* The random schedule: same results and thread counters as round robin
 * for a race-free kernel, other cycle counts, reproducible per seed. */
static void test_random_schedule(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_ids(&p);
  emit(&p, ANDI(7, 5, 7));               /* a tid-dependent loop */
  uint32_t loop = here(&p);
  emit(&p, ADDI(7, 7, -1));
  emit(&p, BGE(7, 0, (int32_t)(loop - here(&p))));
  emit(&p, SLLI(8, 5, 2));
  emit(&p, ADD(8, 8, RES));
  emit(&p, SW(5, 8, 0));
  emit(&p, ECALL);
  uint64_t ref[SIMTY_CTR_COUNT], seeded[SIMTY_CTR_COUNT];
  struct harness *h = harness_new(4, 4);
  harness_run(h, &p, 100);
  expect_done(h);
  memcpy(ref, h->ctr, sizeof(ref));
  int differs = 0;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    simty_model_set_schedule(h->m, seed);
    uint32_t zero[100] = {0};
    simty_model_write(h->m, OUT(0), zero, sizeof(zero));
    harness_launch(h, 100, 0, 1000000);
    expect_done(h);
    memcpy(seeded, h->ctr, sizeof(seeded));
    for (unsigned t = 0; t < 100; t++)
      assert_int_equal(peek(h, OUT(t)), t);
    for (unsigned c = SIMTY_CTR_warp_insts; c <= SIMTY_CTR_mem_transactions;
         c++)
      assert_int_equal(seeded[c], ref[c]);
    differs |= seeded[SIMTY_CTR_cycles] != ref[SIMTY_CTR_cycles];
    /* the same seed again: the same run */
    harness_launch(h, 100, 0, 1000000);
    assert_int_equal(h->ctr[SIMTY_CTR_cycles], seeded[SIMTY_CTR_cycles]);
  }
  assert_true(differs);
  harness_free(h);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_m_edge_cases),
      cmocka_unit_test(test_extensions_off_are_illegal),
      cmocka_unit_test(test_amo_same_word_lane_order),
      cmocka_unit_test(test_amo_ops_and_lines),
      cmocka_unit_test(test_lr_sc),
      cmocka_unit_test(test_sc_fails_after_other_store),
      cmocka_unit_test(test_reservation_ends_with_thread),
      cmocka_unit_test(test_amo_faults),
      cmocka_unit_test(test_amo_stack),
      cmocka_unit_test(test_counters),
      cmocka_unit_test(test_racecheck),
      cmocka_unit_test(test_random_schedule),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
