/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model_simt.c - SIMT mechanics of the reference model at the library
 * level: path split and merge, call-depth priority and saturation,
 * indirect-jump serialisation, leader/follower coalescing, store lane
 * order, value-structure counters, scheduling and cycle accounting,
 * dispatch in waves, time-out, abort, reuse and API errors.
 */
#include "model_test_util.h"

static void expect_done(struct harness *h)
{
  if (h->status != SIMTY_MODEL_DONE)
    fail_msg("status %d, fault cause %u pc 0x%08x addr 0x%08x", h->status,
             h->fault.cause, h->fault.pc, h->fault.addr);
}

static void expect_trace(const struct harness *h,
                         const struct trace_entry *want, unsigned n)
{
  if (h->ntrace != n)
    fail_msg("trace has %u entries, expected %u", h->ntrace, n);
  for (unsigned i = 0; i < n; i++)
    if (h->trace[i].pc != want[i].pc || h->trace[i].mask != want[i].mask ||
        h->trace[i].base_tid != want[i].base_tid)
      fail_msg("trace[%u] = (%u, %08x, %llx), expected (%u, %08x, %llx)", i,
               h->trace[i].base_tid, h->trace[i].pc,
               (unsigned long long)h->trace[i].mask, want[i].base_tid,
               want[i].pc, (unsigned long long)want[i].mask);
}

#define PC(i) (SIMTY_CODE_BASE + 4u * (i))

/* if (tid < 2) x7 = 2 else x7 = 1; join: the lower pc (else side) first. */
static void test_split_and_merge(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 0 */
  emit(&p, ADDI(6, 0, 2));          /* 1 */
  emit(&p, BLTU(5, 6, 12));         /* 2: lanes 0, 1 -> 5 */
  emit(&p, ADDI(7, 0, 1));          /* 3: lanes 2, 3 */
  emit(&p, JAL(0, 8));              /* 4: -> 6 */
  emit(&p, ADDI(7, 0, 2));          /* 5: lanes 0, 1 */
  emit(&p, ECALL);                  /* 6: join */
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  const struct trace_entry want[] = {
      {0, PC(0), 0xf}, {0, PC(1), 0xf}, {0, PC(2), 0xf}, {0, PC(3), 0xc},
      {0, PC(4), 0xc}, {0, PC(5), 0x3}, {0, PC(6), 0xf}};
  expect_trace(h, want, 7);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 7);
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 12 + 2 + 2 + 2 + 4);
  assert_int_equal(h->ctr[SIMTY_CTR_cct_peak], 0);
  /* csrr tid: affine; addi x6, 3 x addi x7 partial/equal: uniform */
  assert_int_equal(h->ctr[SIMTY_CTR_affine_vectors], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_uniform_vectors], 3);
  harness_free(h);
}

/* A branch whose target is pc + 4 splits, and both halves merge at once
 * (the contract's literal rule: one divergent branch, one merge). */
static void test_branch_to_next_splits_and_merges(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, BNE(5, 0, 4));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  const struct trace_entry want[] = {
      {0, PC(0), 0xf}, {0, PC(1), 0xf}, {0, PC(2), 0xf}};
  expect_trace(h, want, 3);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 1);
  harness_free(h);
}

/* Odd lanes call a function placed after everything: at depth 1 it runs
 * before the even lanes' depth-0 code at a lower pc. */
static void test_call_depth_priority(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 0 */
  emit(&p, ANDI(5, 5, 1));          /* 1 */
  emit(&p, BEQ(5, 0, 12));          /* 2: even -> 5 */
  emit(&p, JAL(1, 20));             /* 3: odd: call 8 (depth 1) */
  emit(&p, JAL(0, 12));             /* 4: -> 7 */
  emit(&p, ADDI(6, 0, 7));          /* 5: even */
  emit(&p, ADDI(6, 6, 1));          /* 6: even */
  emit(&p, ECALL);                  /* 7: join */
  emit(&p, ADDI(7, 0, 3));          /* 8: function */
  emit(&p, JALR(0, 1, 0));          /* 9: return (depth 0) to 4 */
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  const struct trace_entry want[] = {
      {0, PC(0), 0xf}, {0, PC(1), 0xf}, {0, PC(2), 0xf}, {0, PC(3), 0xa},
      {0, PC(8), 0xa}, {0, PC(9), 0xa}, {0, PC(4), 0xa}, {0, PC(5), 0x5},
      {0, PC(6), 0x5}, {0, PC(7), 0xf}};
  expect_trace(h, want, 10);
  assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 1);
  harness_free(h);
}

/* Lane 1 waits at JOIN (depth 0). Lane 0 first returns at depth 0 (stays
 * 0), makes 300 calls (saturating at 255), then `nret` returns and jumps
 * to JOIN: it merges with lane 1 only if its depth is back to 0. */
static struct harness *depth_run(unsigned nret)
{
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  uint32_t bne = emit(&p, NOP); /* patched: lane 1 -> JOIN */
  /* a return at depth 0 */
  emit(&p, AUIPC(1, 0));
  emit(&p, ADDI(1, 1, 12));
  emit(&p, JALR(0, 1, 0));
  /* 300 calls */
  emit(&p, ADDI(6, 0, 300));
  uint32_t call = emit(&p, JAL(1, 4));
  emit(&p, ADDI(6, 6, -1));
  emit(&p, BNE(6, 0, (int32_t)(call - here(&p))));
  /* nret returns */
  emit(&p, ADDI(6, 0, (int32_t)nret));
  uint32_t ret = emit(&p, AUIPC(1, 0));
  emit(&p, ADDI(1, 1, 12));
  emit(&p, JALR(0, 1, 0));
  emit(&p, ADDI(6, 6, -1));
  emit(&p, BNE(6, 0, (int32_t)(ret - here(&p))));
  uint32_t jump = emit(&p, NOP); /* patched: -> JOIN */
  uint32_t join = emit(&p, ADDI(7, 0, 1));
  emit(&p, ECALL);
  patch(&p, bne, BNE(5, 0, (int32_t)(join - bne)));
  patch(&p, jump, JAL(0, (int32_t)(join - jump)));
  struct harness *h = harness_new(1, 2);
  harness_run(h, &p, 2);
  expect_done(h);
  /* the caller checks how JOIN ran */
  h->fault.addr = join; /* stash for the caller */
  return h;
}

static void test_call_depth_saturation(void **state)
{
  (void)state;
  struct harness *h = depth_run(255);
  uint32_t join = h->fault.addr;
  unsigned at_join = 0;
  for (unsigned i = 0; i < h->ntrace; i++)
    if (h->trace[i].pc == join) {
      at_join++;
      assert_int_equal(h->trace[i].mask, 0x3); /* merged */
    }
  assert_int_equal(at_join, 1);
  harness_free(h);

  /* One return short: lane 0 arrives at depth 1 and runs JOIN alone, as
   * the higher-priority path, before lane 1. */
  h = depth_run(254);
  join = h->fault.addr;
  uint64_t masks[2] = {0, 0};
  at_join = 0;
  for (unsigned i = 0; i < h->ntrace; i++)
    if (h->trace[i].pc == join && at_join < 2)
      masks[at_join++] = h->trace[i].mask;
  assert_int_equal(at_join, 2);
  assert_int_equal(masks[0], 0x1);
  assert_int_equal(masks[1], 0x2);
  harness_free(h);
}

/* jalr x0 to A+16 (even lanes) or A+24 (odd lanes): the leader's lanes go
 * on, the others replay the jump first (same pc, lower than the target). */
static void test_jalr_serialization(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 0 */
  emit(&p, ANDI(6, 5, 1));          /* 1 */
  emit(&p, SLLI(6, 6, 3));          /* 2 */
  emit(&p, AUIPC(7, 0));            /* 3: A */
  emit(&p, ADD(7, 7, 6));           /* 4 */
  emit(&p, JALR(0, 7, 16));         /* 5: -> 7 or 9 */
  emit(&p, EBREAK);                 /* 6 */
  emit(&p, ADDI(8, 0, 1));          /* 7: even */
  emit(&p, JAL(0, 8));              /* 8: -> 10 */
  emit(&p, ADDI(8, 0, 2));          /* 9: odd */
  emit(&p, ECALL);                  /* 10 */
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  const struct trace_entry want[] = {
      {0, PC(0), 0xf}, {0, PC(1), 0xf}, {0, PC(2), 0xf}, {0, PC(3), 0xf},
      {0, PC(4), 0xf}, {0, PC(5), 0x5}, {0, PC(5), 0xa}, {0, PC(7), 0x5},
      {0, PC(8), 0x5}, {0, PC(9), 0xa}, {0, PC(10), 0xf}};
  expect_trace(h, want, 11);
  assert_int_equal(h->ctr[SIMTY_CTR_replays_indirect], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 0);
  assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 11);
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 5 * 4 + 2 + 2 + 4 + 2 + 4);
  harness_free(h);
}

/* Four lanes, four targets; rd == rs1, so a replayed lane must still see
 * its own rs1. All four paths coexist: cct_peak = 4 - 2. */
static void test_jalr_four_targets_cct_peak(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);                /* 0 */
  emit(&p, CSRR(5, SIMTY_CSR_TID)); /* 1 */
  emit(&p, SLLI(6, 5, 3));          /* 2 */
  emit(&p, AUIPC(7, 0));            /* 3: A */
  emit(&p, ADD(7, 7, 6));           /* 4 */
  emit(&p, JALR(7, 7, 16));         /* 5: -> 7, 9, 11, 13 */
  emit(&p, EBREAK);                 /* 6 */
  for (unsigned k = 0; k < 4; k++) {
    emit(&p, ADDI(8, 0, (int32_t)(10 + k))); /* 7, 9, 11, 13 */
    emit(&p, JAL(0, (int32_t)(4 * (15 - (8 + 2 * k))))); /* -> 15 */
  }
  emit(&p, SLLI(9, 5, 2));          /* 15 */
  emit(&p, ADD(9, 9, RES));
  emit(&p, SW(8, 9, 0));
  emit(&p, SW(7, 9, 64));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  for (uint32_t t = 0; t < 4; t++) {
    assert_int_equal(peek(h, OUT(t)), 10 + t);
    assert_int_equal(peek(h, OUT(16 + t)), PC(6)); /* link */
  }
  assert_int_equal(h->ctr[SIMTY_CTR_replays_indirect], 3);
  assert_int_equal(h->ctr[SIMTY_CTR_cct_peak], 2);
  assert_int_equal(h->ctr[SIMTY_CTR_path_merges], 3);
  unsigned jalr_runs = 0;
  for (unsigned i = 0; i < h->ntrace; i++)
    if (h->trace[i].pc == PC(5))
      assert_int_equal(h->trace[i].mask, 1ull << jalr_runs++);
  assert_int_equal(jalr_runs, 4);
  harness_free(h);
}

struct coalesce_case {
  int32_t stride, offset;
  int reverse;
  unsigned load_transactions;
};

static void test_coalescing(void **state)
{
  (void)state;
  static const struct coalesce_case cases[] = {
      {4, 0x400, 0, 1},   /* unit stride */
      {0, 0x400, 0, 1},   /* broadcast */
      {8, 0x400, 0, 2},   /* 2-word stride: a 4-word line holds 2 */
      {64, 0x400, 0, 4},  /* scattered */
      {4, 0x404, 0, 2},   /* unit stride, not line-aligned */
      {4, 0x400, 1, 1},   /* permutation within the line */
      {-4, 0x40c, 0, 1},  /* descending within the line */
      {16, 0x400, 0, 4},  /* one word per line */
  };
  for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    const struct coalesce_case *c = &cases[k];
    struct prog p = {0};
    emit_res_base(&p);
    emit(&p, CSRR(5, SIMTY_CSR_TID));
    if (c->reverse) {
      emit(&p, SUB(6, 0, 5));
      emit(&p, ADDI(6, 6, 3));
    } else {
      emit(&p, ADDI(6, 5, 0));
    }
    /* x8 = x6 * stride: shifts and adds, strides are small */
    emit(&p, ADDI(8, 0, 0));
    for (int bit = 0; bit < 8; bit++) {
      int32_t mag = c->stride < 0 ? -c->stride : c->stride;
      if (mag & (1 << bit)) {
        emit(&p, SLLI(11, 6, (unsigned)bit));
        emit(&p, c->stride < 0 ? SUB(8, 8, 11) : ADD(8, 8, 11));
      }
    }
    emit(&p, ADD(8, 8, RES));
    uint32_t lw = emit(&p, LW(10, 8, c->offset));
    emit(&p, SLLI(9, 5, 2));
    emit(&p, ADD(9, 9, RES));
    emit(&p, SW(10, 9, 0));
    emit(&p, ECALL);
    struct harness *h = harness_new(1, 4);
    harness_load(h, &p);
    for (uint32_t i = 0; i < 64; i++)
      poke(h, SIMTY_DATA_BASE + 0x400 + 4 * i, 0xa0000000u + 4 * i);
    harness_launch(h, 4, 0, 0);
    expect_done(h);
    for (int32_t t = 0; t < 4; t++) {
      int32_t idx = c->reverse ? 3 - t : t;
      uint32_t off = (uint32_t)(c->offset + idx * c->stride) - 0x400;
      assert_int_equal(peek(h, OUT((uint32_t)t)), 0xa0000000u + off);
    }
    unsigned tx = c->load_transactions;
    if (h->ctr[SIMTY_CTR_mem_transactions] != tx + 1)
      fail_msg("case %u: %llu transactions, expected %u + 1 (store)", k,
               (unsigned long long)h->ctr[SIMTY_CTR_mem_transactions], tx);
    assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 8);
    assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], tx - 1);
    /* each replay's served half merges back at pc + 4 */
    assert_int_equal(h->ctr[SIMTY_CTR_path_merges], tx - 1);
    /* the replays run right after the served lanes left, lowest first */
    unsigned runs = 0;
    uint64_t seen = 0;
    for (unsigned i = 0; i < h->ntrace; i++)
      if (h->trace[i].pc == lw) {
        assert_int_equal(seen & h->trace[i].mask, 0);
        seen |= h->trace[i].mask;
        runs++;
      }
    assert_int_equal(runs, tx);
    assert_int_equal(seen, 0xf);
    harness_free(h);
  }
}

/* Only the lane-order rule decides which store remains. */
static void test_store_lane_order(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 5, 100));
  emit(&p, SW(6, RES, 0));        /* all lanes, same word: lane 3 wins */
  emit(&p, SRLI(7, 5, 1));
  emit(&p, ADD(7, 7, RES));
  emit(&p, SB(6, 7, 4));          /* lanes 0,1 -> byte 4; 2,3 -> byte 5 */
  emit(&p, ADD(8, 5, RES));
  emit(&p, SB(6, 8, 8));          /* distinct bytes of one word */
  emit(&p, SH(6, RES, 14));       /* all lanes, one halfword */
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  poke(h, OUT(1), 0xeeeeeeeeu);
  poke(h, OUT(3), 0xeeeeeeeeu);
  harness_run(h, &p, 4);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), 103);
  assert_int_equal(peek(h, OUT(1)), 0xeeee6765u);
  assert_int_equal(peek(h, OUT(2)), 0x67666564u);
  assert_int_equal(peek(h, OUT(3)), 0x0067eeeeu);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 4);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 16);
  harness_free(h);
}

static void test_uniform_affine_counters(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID));     /* affine 0,1,2,3 */
  emit(&p, ADDI(6, 0, 5));              /* uniform */
  emit(&p, SLLI(7, 5, 2));              /* affine, stride 4 */
  emit(&p, XOR(8, 5, 5));               /* uniform 0 */
  emit(&p, ANDI(9, 5, 1));              /* 0,1,0,1: neither */
  emit(&p, LUI(10, SIMTY_DATA_BASE));   /* uniform */
  emit(&p, ADD(11, 10, 7));             /* affine */
  emit(&p, SW(5, 11, 0));               /* no rd */
  emit(&p, LW(12, 11, 0));              /* affine (reads back tid) */
  emit(&p, LW(13, 10, 0));              /* broadcast: uniform */
  emit(&p, SUB(14, 0, 5));              /* affine, stride -1 */
  emit(&p, ADDI(0, 5, 1));              /* rd = x0: not counted */
  emit(&p, BEQ(9, 0, 12));              /* even lanes -> +12 */
  emit(&p, ADDI(15, 5, 10));            /* lanes 1,3: 11,13: affine */
  emit(&p, JAL(0, 16));                 /* -> ECALL */
  emit(&p, XORI(15, 5, 1));             /* lanes 0,2: 1,3: affine */
  emit(&p, SRLI(16, 5, 1));             /* lanes 0,2: 0,1: neither */
  emit(&p, ADDI(17, 5, 0));             /* lanes 0,2: 0,2: affine */
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_uniform_vectors], 4);
  assert_int_equal(h->ctr[SIMTY_CTR_affine_vectors], 8);
  harness_free(h);

  /* Single lanes never count; the 64-lane full-mask path does. */
  p.n = 0;
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 0, 1));
  emit(&p, ECALL);
  h = harness_new(1, 1);
  harness_run(h, &p, 1);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_uniform_vectors], 0);
  assert_int_equal(h->ctr[SIMTY_CTR_affine_vectors], 0);
  harness_free(h);
  h = harness_new(1, 64);
  harness_run(h, &p, 64);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_uniform_vectors], 1);
  assert_int_equal(h->ctr[SIMTY_CTR_affine_vectors], 1);
  harness_free(h);
}

/* One thread on four warps: three of every four slots are idle. */
static void test_round_robin_idle_cycles(void **state)
{
  (void)state;
  struct prog p = {0};
  for (int i = 0; i < 4; i++)
    emit(&p, NOP);
  emit(&p, ECALL);
  struct harness *h = harness_new(4, 1);
  harness_run(h, &p, 1);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 5);
  assert_int_equal(h->ctr[SIMTY_CTR_cycles], 4 * 4 + 1);
  assert_int_equal(h->ctr[SIMTY_CTR_sched_idle_cycles], 4 * 3);
  /* four threads, one per warp: no idle slot */
  harness_launch(h, 4, 0, 0);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_cycles], 20);
  assert_int_equal(h->ctr[SIMTY_CTR_sched_idle_cycles], 0);
  for (unsigned i = 0; i < h->ntrace; i++)
    assert_int_equal(h->trace[i].base_tid, i % 4); /* round robin */
  harness_free(h);
}

/* 37 threads on 2 warps x 4 lanes, uneven work: every logical id runs
 * exactly once (each increments its own word) and the last block is
 * partial. */
static void test_multi_wave_dispatch(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ANDI(6, 5, 3));
  uint32_t loop = emit(&p, BEQ(6, 0, 12));
  emit(&p, ADDI(6, 6, -1));
  emit(&p, JAL(0, (int32_t)(loop - here(&p))));
  emit(&p, SLLI(7, 5, 2));
  emit(&p, ADD(7, 7, RES));
  emit(&p, LW(8, 7, 0));
  emit(&p, ADDI(8, 8, 1));
  emit(&p, SW(8, 7, 0));
  emit(&p, CSRR(9, SIMTY_CSR_MHARTID));
  emit(&p, SW(9, 7, 256));
  emit(&p, ECALL);
  struct harness *h = harness_new(2, 4);
  harness_run(h, &p, 37);
  expect_done(h);
  uint64_t thread_insts = 0;
  for (uint32_t t = 0; t < 40; t++) {
    assert_int_equal(peek(h, OUT(t)), t < 37);
    if (t < 37) {
      thread_insts += 12 + 3 * (t & 3);
      assert_int_equal(peek(h, OUT(64 + t)) % 4, t % 4); /* lane */
    }
  }
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], thread_insts);
  uint64_t bases = 0;
  for (unsigned i = 0; i < h->ntrace; i++) {
    assert_int_equal(h->trace[i].base_tid % 4, 0);
    bases |= 1ull << (h->trace[i].base_tid / 4);
    if (h->trace[i].base_tid == 36)
      assert_int_equal(h->trace[i].mask, 0x1); /* lanes past 37 */
  }
  assert_int_equal(bases, 0x3ff);
  harness_free(h);
}

/* Big configurations, several waves: out[tid] = 3 * tid. */
static void big_config(unsigned warps, unsigned lanes)
{
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, SLLI(6, 5, 1));
  emit(&p, ADD(6, 6, 5));
  emit(&p, SLLI(7, 5, 2));
  emit(&p, ADD(7, 7, RES));
  emit(&p, SW(6, 7, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new(warps, lanes);
  uint32_t n = warps * lanes * 2 + 5;
  harness_run(h, &p, n);
  expect_done(h);
  for (uint32_t t = 0; t < n + lanes; t++)
    assert_int_equal(peek(h, OUT(t)), t < n ? 3 * t : 0);
  uint64_t blocks = (n + lanes - 1) / lanes;
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], blocks);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], n);
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 8ull * n);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 8 * blocks);
  harness_free(h);
}

static void test_big_configurations(void **state)
{
  (void)state;
  big_config(16, 32);
  big_config(64, 64);
  big_config(8, 8);
  big_config(1, 2);
}

static void test_timeout(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, NOP);
  uint32_t loop = emit(&p, JAL(0, 0));
  struct harness *h = harness_new(2, 2);
  harness_load(h, &p);
  harness_launch(h, 4, 0, 100);
  (void)loop;
  assert_fault(h, SIMTY_FAULT_TIMEOUT, 0, UINT32_MAX, UINT32_MAX, 0);
  assert_int_equal(h->ctr[SIMTY_CTR_cycles], 100);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 100);
  /* a launch that needs exactly max_cycles completes */
  p.n = 0;
  emit(&p, NOP);
  emit(&p, ECALL);
  harness_load(h, &p);
  harness_launch(h, 4, 0, 4);
  expect_done(h);
  assert_int_equal(h->ctr[SIMTY_CTR_cycles], 4);
  harness_launch(h, 4, 0, 3);
  assert_fault(h, SIMTY_FAULT_TIMEOUT, 0, UINT32_MAX, UINT32_MAX, 0);
  harness_free(h);
}

static void test_step_abort_and_reuse(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, JAL(0, 0));
  struct harness *h = harness_new(2, 2);
  harness_load(h, &p);
  assert_int_equal(simty_model_run(h->m, 1), SIMTY_MODEL_NOT_LAUNCHED);
  struct simty_model_launch_params lp = {.entry = SIMTY_CODE_BASE,
                                         .nthreads = 4};
  assert_int_equal(simty_model_launch(h->m, &lp), 0);
  assert_int_equal(simty_model_run(h->m, 10), SIMTY_MODEL_RUNNING);
  assert_int_equal(simty_model_run(h->m, 5), SIMTY_MODEL_RUNNING);
  uint64_t ctr[SIMTY_CTR_COUNT];
  simty_model_counters(h->m, ctr);
  assert_int_equal(ctr[SIMTY_CTR_cycles], 15);
  assert_int_equal(simty_model_launch(h->m, &lp), SIMTY_MODEL_BUSY);
  simty_model_abort(h->m);
  assert_int_equal(simty_model_status(h->m), SIMTY_MODEL_FAULTED);
  struct simty_model_fault f;
  simty_model_get_fault(h->m, &f);
  assert_int_equal(f.cause, SIMTY_FAULT_ABORTED);
  assert_int_equal(f.pc, 0); /* an abort names no thread */
  assert_int_equal(f.hart, UINT32_MAX);
  assert_int_equal(f.tid, UINT32_MAX);

  /* after an abort and a fault, new code and a new launch work */
  p.n = 0;
  emit(&p, EBREAK);
  harness_load(h, &p);
  harness_launch(h, 4, 0, 0);
  assert_fault(h, SIMTY_FAULT_EBREAK, PC(0), 0, 0, 0);
  p.n = 0;
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, SLLI(6, 5, 2));
  emit(&p, ADD(6, 6, RES));
  emit(&p, SW(5, 6, 0));
  emit(&p, ECALL);
  harness_load(h, &p);
  poke(h, OUT(3), 0);
  harness_launch(h, 4, 0, 0);
  expect_done(h);
  assert_int_equal(h->fault.cause, SIMTY_FAULT_NONE);
  assert_int_equal(peek(h, OUT(3)), 3);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 12);
  harness_free(h);
}

static void test_api_errors(void **state)
{
  (void)state;
  simty_model *m = NULL;
  struct simty_model_config bad[] = {
      {3, 4, 0, 0, 0}, {4, 0, 0, 0, 0}, {0, 4, 0, 0, 0}, {128, 4, 0, 0, 0},
      {4, 128, 0, 0, 0}, {4, 4, 6, 0, 0}, {4, 4, 0, 10, 0},
      {4, 4, SIMTY_CODE_WINDOW + 4, 0, 0}, {4, 4, 0, SIMTY_DATA_WINDOW + 4, 0},
      {4, 4, 0, 0, SIMTY_XBAR_COUNT}};
  for (unsigned k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
    assert_int_equal(simty_model_create(&bad[k], &m), SIMTY_MODEL_INVALID);
    assert_null(m);
  }
  struct simty_model_config cfg = {4, 4, 0x1000, 0x2000, 0};
  assert_int_equal(simty_model_create(&cfg, &m), 0);
  uint8_t buf[16] = {0};
  assert_int_equal(simty_model_write(m, SIMTY_CODE_BASE + 0x1000 - 8, buf, 16),
                   SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_write(m, SIMTY_DATA_BASE + 0x2000, buf, 1),
                   SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_write(m, SIMTY_DATA_BASE - 1, buf, 2),
                   SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_write(m, 0, buf, 4), SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_write(m, 0xfffffff0u, buf, 16),
                   SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_read(m, SIMTY_CONSOLE_ADDR, buf, 4),
                   SIMTY_MODEL_RANGE);
  assert_int_equal(simty_model_read(m, SIMTY_DATA_BASE + 0x2000 - 16, buf, 16),
                   0);
  assert_int_equal(simty_model_write(m, SIMTY_CODE_BASE, buf, 16), 0);

  struct simty_model_launch_params lp = {.entry = SIMTY_CODE_BASE,
                                         .nthreads = 1,
                                         .stack_log2 = 6};
  lp.nthreads = 0;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  lp.nthreads = SIMTY_MAX_THREADS + 1;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  lp.nthreads = 1;
  lp.entry = SIMTY_CODE_BASE + 2;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  lp.entry = SIMTY_CODE_BASE + 0x1000;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  lp.entry = SIMTY_CODE_BASE;
  lp.stack_log2 = 5;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  lp.stack_log2 = 21;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  /* 16 stacks of 256 bytes = 4 KiB at the top of 8 KiB of DATA */
  lp.stack_log2 = 8;
  lp.data_end = SIMTY_DATA_BASE + 0x1001;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_STACK_OVERLAP);
  assert_true(strlen(simty_model_last_error(m)) > 0);
  lp.stack_log2 = 10; /* 16 KiB of stacks > 8 KiB of DATA */
  lp.data_end = 0;
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_STACK_OVERLAP);
  lp.stack_log2 = 8;
  lp.data_end = SIMTY_DATA_BASE + 0x1000;
  assert_int_equal(simty_model_launch(m, &lp), 0);
  simty_model_abort(m);
  /* the largest thread count is accepted */
  lp.nthreads = SIMTY_MAX_THREADS;
  assert_int_equal(simty_model_launch(m, &lp), 0);
  simty_model_abort(m);
  simty_model_destroy(m);
  simty_model_destroy(NULL);
  assert_string_equal(simty_model_strerror(SIMTY_MODEL_RANGE),
                      "address range outside device memory");
}

/* Range checks never wrap: a length near SIZE_MAX used to pass as
 * addr + len wrapped around, and the copy overran the caller's buffer
 * (issue 15). Each is refused before anything is copied. */
static void test_range_wraparound(void **state)
{
  (void)state;
  simty_model *m = NULL;
  struct simty_model_config cfg = {4, 4, 0x1000, 0x2000, 0};
  assert_int_equal(simty_model_create(&cfg, &m), 0);
  uint8_t guard[32];
  memset(guard, 0x5a, sizeof(guard));
  uint8_t *buf = guard + 8; /* 16 bytes, 8 guard bytes either side */
  const size_t lens[] = {SIZE_MAX, SIZE_MAX - 15, (size_t)0 - SIMTY_DATA_BASE,
                         (size_t)0 - SIMTY_CODE_BASE + 4, (size_t)1 << 63};
  const uint32_t addrs[] = {SIMTY_DATA_BASE, SIMTY_DATA_BASE + 0x10,
                            SIMTY_CODE_BASE, SIMTY_DATA_BASE + 0x2000,
                            SIMTY_CODE_BASE + 0x1000};
  for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
    for (unsigned j = 0; j < sizeof(addrs) / sizeof(addrs[0]); j++) {
      assert_int_equal(simty_model_read(m, addrs[j], buf, lens[i]),
                       SIMTY_MODEL_RANGE);
      assert_int_equal(simty_model_write(m, addrs[j], buf, lens[i]),
                       SIMTY_MODEL_RANGE);
    }
  for (unsigned i = 0; i < sizeof(guard); i++)
    assert_int_equal(guard[i], 0x5a);
  /* The exact ends are still accepted, and zero bytes at the end. */
  assert_int_equal(simty_model_read(m, SIMTY_DATA_BASE, buf, 16), 0);
  assert_int_equal(simty_model_read(m, SIMTY_CODE_BASE + 0x1000 - 4, buf, 4),
                   0);
  assert_int_equal(simty_model_read(m, SIMTY_DATA_BASE + 0x2000, buf, 0), 0);
  simty_model_destroy(m);
}

/* Two models coexist: no shared state. */
static void test_two_models(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_WARPS));
  emit(&p, SW(5, RES, 0));
  emit(&p, ECALL);
  struct harness *a = harness_new(2, 4), *b = harness_new(8, 2);
  harness_load(a, &p);
  harness_load(b, &p);
  harness_launch(a, 1, 0, 0);
  harness_launch(b, 1, 0, 0);
  assert_int_equal(peek(a, OUT(0)), 2);
  assert_int_equal(peek(b, OUT(0)), 8);
  harness_free(a);
  harness_free(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_split_and_merge),
      cmocka_unit_test(test_branch_to_next_splits_and_merges),
      cmocka_unit_test(test_call_depth_priority),
      cmocka_unit_test(test_call_depth_saturation),
      cmocka_unit_test(test_jalr_serialization),
      cmocka_unit_test(test_jalr_four_targets_cct_peak),
      cmocka_unit_test(test_coalescing),
      cmocka_unit_test(test_store_lane_order),
      cmocka_unit_test(test_uniform_affine_counters),
      cmocka_unit_test(test_round_robin_idle_cycles),
      cmocka_unit_test(test_multi_wave_dispatch),
      cmocka_unit_test(test_big_configurations),
      cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_step_abort_and_reuse),
      cmocka_unit_test(test_api_errors),
      cmocka_unit_test(test_range_wraparound),
      cmocka_unit_test(test_two_models),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
