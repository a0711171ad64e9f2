/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model_xbar.c - the memory crossbar kind (docs/architecture.md
 * section 3, "Crossbar kind"): which lanes one transaction serves under
 * `full` and under `rotate` (rotation by the leader's word, plus
 * broadcast of that word), for loads, stores, sub-word accesses, the
 * interleaved stacks, atomics and the console; memory results are the
 * same under both kinds, only transactions and replays differ.
 */
#include "model_test_util.h"

#define AMO_(f5, rd, addr, src) enc_r((f5) << 2, src, addr, 2, rd, 0x2f)
#define AMOADD(rd, src, addr) AMO_(0x00, rd, addr, src)

#define LANES 8u
/* The accessed words: DATA + 0x400, 64 words (8 lines of 8 words). */
#define AREA (SIMTY_DATA_BASE + 0x400u)
/* Per-lane address table: lane l's address at TABLE + 4l (one line). */
#define TABLE (SIMTY_DATA_BASE + 0x600u)

static void expect_done(struct harness *h)
{
  if (h->status != SIMTY_MODEL_DONE)
    fail_msg("status %d, fault cause %u pc 0x%08x addr 0x%08x", h->status,
             h->fault.cause, h->fault.pc, h->fault.addr);
}

/* One access on 1 x LANES lanes, lane l at address AREA + off[l]. */
struct access {
  const char *name;
  uint32_t off[LANES];
  /* served masks of the access's transactions, in order, 0-terminated */
  uint64_t full[LANES + 1];
  uint64_t rotate[LANES + 1];
};

/* What one run left: the access's served masks, its transactions, the
 * lanes' results and the area's words. */
struct outcome {
  uint64_t masks[LANES + 1];
  unsigned ntx;
  uint64_t replays;
  uint32_t out[LANES];
  uint32_t area[64];
};

/* Emit the prologue: x5 = tid, x7 = OUT(tid), x8 = table[tid]. */
static void emit_prologue(struct prog *p)
{
  emit_res_base(p);
  emit(p, CSRR(5, SIMTY_CSR_TID));
  emit(p, SLLI(6, 5, 2));
  emit(p, ADD(7, 6, RES));
  emit(p, LW(8, 7, (int32_t)(TABLE - SIMTY_DATA_BASE)));
}

/* Run `access_word` (its address in x8, its result, if any, in x10) and
 * store x10 to OUT(tid). The table load and the result store are one
 * transaction each (unit stride, line-aligned). */
static void run_access(const struct access *a, uint32_t access_word,
                       unsigned xbar, unsigned ext, struct outcome *o)
{
  struct prog p = {0};
  emit_prologue(&p);
  emit(&p, ADDI(10, 5, 0x51)); /* the value a store writes */
  uint32_t pc = emit(&p, access_word);
  emit(&p, SW(10, 7, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new_xbar(1, LANES, xbar);
  assert_int_equal(simty_model_set_isa(h->m, ext), 0);
  harness_load(h, &p);
  for (uint32_t i = 0; i < 64; i++)
    poke(h, AREA + 4 * i, 0xa0000000u + 0x01010101u * i);
  for (uint32_t l = 0; l < LANES; l++)
    poke(h, TABLE + 4 * l, AREA + a->off[l]);
  harness_launch(h, LANES, 0, 0);
  expect_done(h);
  memset(o, 0, sizeof(*o));
  for (unsigned i = 0; i < h->ntrace; i++)
    if (h->trace[i].pc == pc) {
      assert_true(o->ntx < LANES);
      o->masks[o->ntx++] = h->trace[i].mask;
    }
  /* the table load and the result store: one transaction each */
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], o->ntx + 2);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 3 * LANES);
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 9 * LANES);
  o->replays = h->ctr[SIMTY_CTR_replays_mem];
  assert_int_equal(o->replays, o->ntx - 1);
  for (uint32_t l = 0; l < LANES; l++)
    o->out[l] = peek(h, OUT(l));
  for (uint32_t i = 0; i < 64; i++)
    o->area[i] = peek(h, AREA + 4 * i);
  harness_free(h);
}

static void expect_masks(const char *name, const char *kind,
                         const struct outcome *o, const uint64_t *want)
{
  unsigned n = 0;
  while (want[n])
    n++;
  for (unsigned i = 0; i < n || i < o->ntx; i++)
    if (i >= n || i >= o->ntx || o->masks[i] != want[i])
      fail_msg("%s, %s: transaction %u serves 0x%llx, expected 0x%llx "
               "(%u transactions, expected %u)",
               name, kind, i,
               (unsigned long long)(i < o->ntx ? o->masks[i] : 0),
               (unsigned long long)(i < n ? want[i] : 0), o->ntx, n);
}

/* Run `a` under both kinds: the served masks each kind gives, and the
 * same results and memory under both. */
static void check_access(const struct access *a, uint32_t access_word,
                         unsigned ext, struct outcome *full,
                         struct outcome *rot)
{
  run_access(a, access_word, SIMTY_XBAR_FULL, ext, full);
  run_access(a, access_word, SIMTY_XBAR_ROTATE, ext, rot);
  expect_masks(a->name, "full", full, a->full);
  expect_masks(a->name, "rotate", rot, a->rotate);
  assert_memory_equal(full->out, rot->out, sizeof(full->out));
  assert_memory_equal(full->area, rot->area, sizeof(full->area));
}

#define W(i) (4u * (i))

/* Word loads (line = 8 words = 32 bytes). */
static const struct access load_cases[] = {
    {"unit stride", {W(0), W(1), W(2), W(3), W(4), W(5), W(6), W(7)},
     {0xff}, {0xff}},
    /* unit stride off the line: lanes 0-4 in the first line, 5-7 in the
     * next, whose leader (lane 5, word 0) rotates too */
    {"unit stride, offset", {W(3), W(4), W(5), W(6), W(7), W(8), W(9), W(10)},
     {0x1f, 0xe0}, {0x1f, 0xe0}},
    {"rotation in the line", {W(3), W(4), W(5), W(6), W(7), W(0), W(1), W(2)},
     {0xff}, {0xff}},
    {"broadcast", {W(4), W(4), W(4), W(4), W(4), W(4), W(4), W(4)},
     {0xff}, {0xff}},
    /* rotation by 2, lanes 5 and 7 read the leader's word 2 */
    {"rotation and broadcast",
     {W(2), W(3), W(4), W(5), W(6), W(2), W(0), W(2)}, {0xff}, {0xff}},
    /* descending: lane l reads word 7 - l; leader k at word 7 - k
     * rotates lane l to word l + 7 - 2k: only lanes k and k + 4 */
    {"reversed", {W(7), W(6), W(5), W(4), W(3), W(2), W(1), W(0)},
     {0xff}, {0x11, 0x22, 0x44, 0x88}},
    /* two-word stride: 2 lines; under rotate one lane a transaction */
    {"stride 2", {W(0), W(2), W(4), W(6), W(8), W(10), W(12), W(14)},
     {0x0f, 0xf0}, {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80}},
    /* even lanes in one line, odd lanes in the next, each half a
     * rotation of its leader: the other line replays as under full */
    {"two lines, rotated",
     {W(1), W(9), W(3), W(11), W(5), W(13), W(7), W(15)},
     {0x55, 0xaa}, {0x55, 0xaa}},
};

static void test_loads(void **state)
{
  (void)state;
  for (unsigned k = 0; k < sizeof(load_cases) / sizeof(load_cases[0]); k++) {
    const struct access *a = &load_cases[k];
    struct outcome full, rot;
    check_access(a, LW(10, 8, 0), 0, &full, &rot);
    for (uint32_t l = 0; l < LANES; l++)
      assert_int_equal(full.out[l], 0xa0000000u + 0x01010101u * (a->off[l] / 4));
  }
}

/* A permuted access costs more transactions under rotate, same data. */
static void test_permuted_costs_more(void **state)
{
  (void)state;
  const struct access *rev = &load_cases[5];
  struct outcome full, rot;
  check_access(rev, LW(10, 8, 0), 0, &full, &rot);
  assert_int_equal(full.ntx, 1);
  assert_int_equal(full.replays, 0);
  assert_int_equal(rot.ntx, 4);
  assert_int_equal(rot.replays, 3);
}

/* Sub-word accesses are decided per word: bytes of the leader's word are
 * its broadcast. */
static void test_subword(void **state)
{
  (void)state;
  static const struct access cases[] = {
      /* byte stride: lanes 0-3 in word 0, 4-7 in word 1 */
      {"byte stride", {0, 1, 2, 3, 4, 5, 6, 7}, {0xff}, {0x0f, 0xf0}},
      /* bytes of word l: a rotation */
      {"byte of each word", {1, 5, 9, 13, 17, 21, 25, 29}, {0xff}, {0xff}},
      /* every lane a byte of word 3: broadcast */
      {"bytes of one word", {12, 13, 14, 15, 12, 13, 14, 15}, {0xff}, {0xff}},
  };
  for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    struct outcome full, rot;
    check_access(&cases[k], LBU(10, 8, 0), 0, &full, &rot);
    for (uint32_t l = 0; l < LANES; l++) {
      uint32_t off = cases[k].off[l];
      uint32_t word = 0xa0000000u + 0x01010101u * (off / 4);
      assert_int_equal(full.out[l], (word >> (8 * (off & 3))) & 0xff);
    }
  }
  /* halfword stride: two halfwords a word, four words */
  static const struct access half = {
      "halfword stride", {0, 2, 4, 6, 8, 10, 12, 14}, {0xff},
      {0x03, 0x0c, 0x30, 0xc0}};
  struct outcome full, rot;
  check_access(&half, LHU(10, 8, 0), 0, &full, &rot);
}

/* Stores: the same served sets; where lanes write one byte, the higher
 * lane's value remains under both kinds. */
static void test_stores(void **state)
{
  (void)state;
  static const struct access rev = {
      "reversed store", {W(7), W(6), W(5), W(4), W(3), W(2), W(1), W(0)},
      {0xff}, {0x11, 0x22, 0x44, 0x88}};
  struct outcome full, rot;
  check_access(&rev, SW(10, 8, 0), 0, &full, &rot);
  for (uint32_t l = 0; l < LANES; l++)
    assert_int_equal(rot.area[7 - l], 0x51 + l);
  /* lanes 2j and 2j + 1 write byte j of word 0: a broadcast under
   * rotate, lane 2j + 1 wins */
  static const struct access bytes = {
      "colliding bytes", {0, 0, 1, 1, 2, 2, 3, 3}, {0xff}, {0xff}};
  check_access(&bytes, SB(10, 8, 0), 0, &full, &rot);
  assert_int_equal(rot.area[0], 0x58565452u);
  /* a word stored twice (lanes 0 and 4 at word 5) and a rotation: under
   * rotate lane 4 is not at the leader's word (5) by rotation (word 1)
   * but by broadcast */
  static const struct access mixed = {
      "rotation and broadcast store",
      {W(5), W(6), W(7), W(0), W(5), W(2), W(3), W(4)}, {0xff}, {0xff}};
  check_access(&mixed, SW(10, 8, 0), 0, &full, &rot);
  assert_int_equal(rot.area[5], 0x55);
}

/* The same stack offset in the lanes' own stacks is one transaction
 * under rotate: lane l's word lands at word l of its line. */
static void test_stack_spill(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_MHARTID));
  emit(&p, CSRR(6, SIMTY_CSR_STACK_TOP));
  emit(&p, SLLI(7, 5, 6));     /* stack_log2 = 6 in the harness */
  emit(&p, SUB(6, 6, 7));      /* sp */
  emit(&p, ADDI(10, 5, 100));
  emit(&p, SW(10, 6, -4));     /* spill */
  emit(&p, SW(5, 6, -12));
  emit(&p, LW(11, 6, -4));     /* reload */
  emit(&p, LW(12, 6, -12));
  emit(&p, ADD(11, 11, 12));
  emit(&p, CSRR(13, SIMTY_CSR_TID));
  emit(&p, SLLI(13, 13, 2));
  emit(&p, ADD(13, 13, RES));
  emit(&p, SW(11, 13, 0));
  emit(&p, ECALL);
  for (unsigned xbar = 0; xbar < SIMTY_XBAR_COUNT; xbar++) {
    struct harness *h = harness_new_xbar(2, LANES, xbar);
    harness_run(h, &p, 2 * LANES);
    expect_done(h);
    for (uint32_t t = 0; t < 2 * LANES; t++)
      assert_int_equal(peek(h, OUT(t)), 2 * t + 100);
    /* 5 memory instructions a warp, one transaction each */
    assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 10);
    assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 0);
    harness_free(h);
  }
}

/* Atomics follow the crossbar's rule; their lane-order semantics do not
 * change. */
static void test_atomics(void **state)
{
  (void)state;
  /* every lane adds 0x51 + l to word 3: a broadcast, one transaction;
   * lane l gets the word's value after lanes 0 .. l - 1 */
  static const struct access same = {
      "amoadd, one word", {W(3), W(3), W(3), W(3), W(3), W(3), W(3), W(3)},
      {0xff}, {0xff}};
  struct outcome full, rot;
  check_access(&same, AMOADD(10, 10, 8), SIMTY_EXT_A, &full, &rot);
  uint32_t v = 0xa0000000u + 0x01010101u * 3;
  for (uint32_t l = 0; l < LANES; l++) {
    assert_int_equal(rot.out[l], v);
    v += 0x51 + l;
  }
  assert_int_equal(rot.area[3], v);
  /* reversed: four transactions under rotate, the same old values */
  static const struct access rev = {
      "amoadd, reversed", {W(7), W(6), W(5), W(4), W(3), W(2), W(1), W(0)},
      {0xff}, {0x11, 0x22, 0x44, 0x88}};
  check_access(&rev, AMOADD(10, 10, 8), SIMTY_EXT_A, &full, &rot);
  for (uint32_t l = 0; l < LANES; l++) {
    assert_int_equal(rot.out[l], 0xa0000000u + 0x01010101u * (7 - l));
    assert_int_equal(rot.area[7 - l],
                     0xa0000000u + 0x01010101u * (7 - l) + 0x51 + l);
  }
}

/* Console stores keep their rule: every console lane in one
 * transaction, bytes in lane order. */
static void test_console(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 5, 'a'));
  emit(&p, LUI(7, SIMTY_CONSOLE_ADDR));
  emit(&p, ANDI(8, 5, 3));
  emit(&p, ADD(7, 7, 8));
  emit(&p, SB(6, 7, 0));       /* lane l: byte l & 3 of the console word */
  emit(&p, ECALL);
  struct harness *h = harness_new_xbar(1, LANES, SIMTY_XBAR_ROTATE);
  harness_run(h, &p, LANES);
  expect_done(h);
  assert_int_equal(h->nconsole, LANES);
  for (uint32_t l = 0; l < LANES; l++) {
    assert_int_equal(h->console[l].tid, l);
    assert_int_equal(h->console[l].byte, 'a' + l);
  }
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 1);
  harness_free(h);
}

/* Names, parsing, the configuration the model reports. */
static void test_api(void **state)
{
  (void)state;
  unsigned x = 99;
  assert_string_equal(simty_model_xbar_name(SIMTY_XBAR_FULL), "full");
  assert_string_equal(simty_model_xbar_name(SIMTY_XBAR_ROTATE), "rotate");
  assert_null(simty_model_xbar_name(SIMTY_XBAR_COUNT));
  assert_int_equal(simty_model_xbar_parse("rotate", &x), 0);
  assert_int_equal(x, SIMTY_XBAR_ROTATE);
  assert_int_equal(simty_model_xbar_parse("full", &x), 0);
  assert_int_equal(x, SIMTY_XBAR_FULL);
  assert_int_equal(simty_model_xbar_parse("rot", &x), -1);
  assert_int_equal(simty_model_xbar_parse(NULL, &x), -1);
  assert_int_equal(x, SIMTY_XBAR_FULL);
  struct harness *h = harness_new_xbar(2, 4, SIMTY_XBAR_ROTATE);
  struct simty_model_config c;
  simty_model_get_config(h->m, &c);
  assert_int_equal(c.xbar, SIMTY_XBAR_ROTATE);
  harness_free(h);
  h = harness_new(2, 4);
  simty_model_get_config(h->m, &c);
  assert_int_equal(c.xbar, SIMTY_XBAR_FULL);
  harness_free(h);
  simty_model *m = NULL;
  struct simty_model_config bad = {4, 4, 0, 0, SIMTY_XBAR_COUNT};
  assert_int_equal(simty_model_create(&bad, &m), SIMTY_MODEL_INVALID);
  assert_null(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_loads),
      cmocka_unit_test(test_permuted_costs_more),
      cmocka_unit_test(test_subword),
      cmocka_unit_test(test_stores),
      cmocka_unit_test(test_stack_spill),
      cmocka_unit_test(test_atomics),
      cmocka_unit_test(test_console),
      cmocka_unit_test(test_api),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
