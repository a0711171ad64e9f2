/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - interp: a bytecode interpreter on the device, each thread
 * running one of eight small programs on its own inputs. The host
 * assembles the programs and checks every thread's result against the
 * same function written directly in C (not against a second interpreter),
 * so both the device and the bytecode are checked. --n is the thread
 * count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "interp.h"

/* Assembly source: a label definition is {LABEL, id}; JMP/JZ/JNZ take a
 * label id, resolved to a word offset when assembling. */
enum { LABEL = 0xFF, END = 0xFE };
struct src {
  uint8_t op;
  int32_t imm;
};

/* sum of 1 .. a */
static const struct src prog_sum[] = {
    {OP_PUSH, 0}, {OP_SET, 0},                            /* s = 0 */
    {OP_ARG, 0},  {OP_SET, 1},                            /* i = a */
    {LABEL, 0},   {OP_GET, 1},  {OP_JZ, 1},               /* while i */
    {OP_GET, 0},  {OP_GET, 1},  {OP_ADD, 0}, {OP_SET, 0}, /* s += i */
    {OP_GET, 1},  {OP_PUSH, 1}, {OP_SUB, 0}, {OP_SET, 1}, /* i-- */
    {OP_JMP, 0},  {LABEL, 1},   {OP_GET, 0}, {OP_HALT, 0}, {END, 0}};
static int32_t ref_sum(int32_t a, int32_t b)
{
  (void)b;
  return a * (a + 1) / 2;
}

/* gcd(a, b), Euclid with remainders */
static const struct src prog_gcd[] = {
    {OP_ARG, 0}, {OP_ARG, 1},               /* a b */
    {LABEL, 0},  {OP_DUP, 0}, {OP_JZ, 1},   /* while b */
    {OP_DUP, 0}, {OP_SET, 0},               /* keep b */
    {OP_MOD, 0}, {OP_GET, 0}, {OP_SWAP, 0}, /* b (a % b) */
    {OP_JMP, 0}, {LABEL, 1},  {OP_DROP, 0}, {OP_HALT, 0}, {END, 0}};
static int32_t ref_gcd(int32_t a, int32_t b)
{
  while (b) {
    int32_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/* a^3 - 3ab + b - 7, wrapping */
static const struct src prog_poly[] = {
    {OP_ARG, 0},  {OP_DUP, 0}, {OP_DUP, 0}, {OP_MUL, 0},  {OP_MUL, 0},
    {OP_PUSH, 3}, {OP_ARG, 0}, {OP_MUL, 0}, {OP_ARG, 1},  {OP_MUL, 0},
    {OP_SUB, 0},  {OP_ARG, 1}, {OP_ADD, 0}, {OP_PUSH, 7}, {OP_SUB, 0},
    {OP_HALT, 0}, {END, 0}};
static int32_t ref_poly(int32_t a, int32_t b)
{
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
  return (int32_t)(ua * ua * ua - 3 * ua * ub + ub - 7);
}

/* Collatz steps from a down to 1 */
static const struct src prog_collatz[] = {
    {OP_PUSH, 0}, {OP_SET, 0},  {OP_ARG, 0}, /* steps = 0; a */
    {LABEL, 0},   {OP_DUP, 0},  {OP_PUSH, 1}, {OP_EQ, 0},
    {OP_JNZ, 3},                                          /* while a != 1 */
    {OP_DUP, 0},  {OP_PUSH, 1}, {OP_AND, 0},  {OP_JZ, 1}, /* odd? */
    {OP_PUSH, 3}, {OP_MUL, 0},  {OP_PUSH, 1}, {OP_ADD, 0},
    {OP_JMP, 2},  {LABEL, 1},   {OP_PUSH, 1}, {OP_SHR, 0}, /* a / 2 */
    {LABEL, 2},   {OP_GET, 0},  {OP_PUSH, 1}, {OP_ADD, 0},
    {OP_SET, 0},  {OP_JMP, 0},  {LABEL, 3},   {OP_GET, 0},
    {OP_HALT, 0}, {END, 0}};
static int32_t ref_collatz(int32_t a, int32_t b)
{
  (void)b;
  int32_t steps = 0;
  for (; a != 1; steps++)
    a = a & 1 ? 3 * a + 1 : a / 2;
  return steps;
}

/* number of one bits of a */
static const struct src prog_popcount[] = {
    {OP_PUSH, 0}, {OP_ARG, 0},                              /* c a */
    {LABEL, 0},   {OP_DUP, 0},  {OP_JZ, 1},                 /* while a */
    {OP_DUP, 0},  {OP_PUSH, 1}, {OP_AND, 0},  {OP_SET, 0},  /* bit */
    {OP_SWAP, 0}, {OP_GET, 0},  {OP_ADD, 0},  {OP_SWAP, 0}, /* c += bit */
    {OP_PUSH, 1}, {OP_SHRU, 0}, {OP_JMP, 0},                /* a >>= 1 */
    {LABEL, 1},   {OP_DROP, 0}, {OP_HALT, 0}, {END, 0}};
static int32_t ref_popcount(int32_t a, int32_t b)
{
  (void)b;
  return __builtin_popcount((uint32_t)a);
}

/* fib(a), iterative, wrapping */
static const struct src prog_fib[] = {
    {OP_PUSH, 0}, {OP_PUSH, 1}, {OP_ARG, 0},  {OP_SET, 0}, /* x y; k = a */
    {LABEL, 0},   {OP_GET, 0},  {OP_JZ, 1},                /* while k */
    {OP_SWAP, 0}, {OP_OVER, 0}, {OP_ADD, 0},               /* y x+y */
    {OP_GET, 0},  {OP_PUSH, 1}, {OP_SUB, 0},  {OP_SET, 0}, /* k-- */
    {OP_JMP, 0},  {LABEL, 1},   {OP_DROP, 0}, {OP_HALT, 0}, {END, 0}};
static int32_t ref_fib(int32_t a, int32_t b)
{
  (void)b;
  uint32_t x = 0, y = 1;
  for (int32_t k = 0; k < a; k++) {
    uint32_t next = x + y;
    x = y;
    y = next;
  }
  return (int32_t)x;
}

/* |a - b| */
static const struct src prog_absdiff[] = {
    {OP_ARG, 0}, {OP_ARG, 1}, {OP_LT, 0},   {OP_JZ, 0}, {OP_ARG, 1},
    {OP_ARG, 0}, {OP_SUB, 0}, {OP_HALT, 0}, {LABEL, 0}, {OP_ARG, 0},
    {OP_ARG, 1}, {OP_SUB, 0}, {OP_HALT, 0}, {END, 0}};
static int32_t ref_absdiff(int32_t a, int32_t b)
{
  return a < b ? b - a : a - b;
}

/* one xorshift32 round: x ^= x << 13; x ^= x >> 17; x ^= x << 5 */
static const struct src prog_xorshift[] = {
    {OP_ARG, 0},  {OP_DUP, 0},   {OP_PUSH, 13}, {OP_SHL, 0},  {OP_XOR, 0},
    {OP_DUP, 0},  {OP_PUSH, 17}, {OP_SHRU, 0},  {OP_XOR, 0},  {OP_DUP, 0},
    {OP_PUSH, 5}, {OP_SHL, 0},   {OP_XOR, 0},   {OP_HALT, 0}, {END, 0}};
static int32_t ref_xorshift(int32_t a, int32_t b)
{
  (void)b;
  uint32_t x = (uint32_t)a;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return (int32_t)x;
}

struct program {
  const char *name;
  const struct src *src;
  int32_t (*ref)(int32_t, int32_t);
  /* inputs: a in [lo0, hi0], b in [lo1, hi1] */
  int32_t lo0, hi0, lo1, hi1;
};

static const struct program programs[] = {
    {"sum", prog_sum, ref_sum, 0, 40, 0, 0},
    {"gcd", prog_gcd, ref_gcd, 1, 500, 1, 500},
    {"poly", prog_poly, ref_poly, -100, 100, -100, 100},
    {"collatz", prog_collatz, ref_collatz, 1, 20, 0, 0},
    {"popcount", prog_popcount, ref_popcount, 0, 0xFFFF, 0, 0},
    {"fib", prog_fib, ref_fib, 0, 40, 0, 0},
    {"absdiff", prog_absdiff, ref_absdiff, -30000, 30000, -30000, 30000},
    {"xorshift", prog_xorshift, ref_xorshift, INT32_MIN, INT32_MAX, 0, 0},
};
#define PROGRAMS (sizeof(programs) / sizeof(programs[0]))
#define MAX_LABELS 8

/* Appends a program to code[] at *size; returns its entry offset. */
static uint32_t assemble(const struct src *src, uint32_t *code, uint32_t *size)
{
  uint32_t base = *size, at = 0, label[MAX_LABELS];
  memset(label, 0xFF, sizeof(label));
  for (const struct src *s = src; s->op != END; s++) {
    if (s->op == LABEL)
      label[s->imm] = at;
    else
      at++;
  }
  for (const struct src *s = src; s->op != END; s++) {
    if (s->op == LABEL)
      continue;
    int32_t imm = s->imm;
    if (s->op == OP_JMP || s->op == OP_JZ || s->op == OP_JNZ) {
      if (label[imm] == 0xFFFFFFFFu) {
        fprintf(stderr, "interp: undefined label %d\n", (int)imm);
        exit(EXAMPLE_USAGE);
      }
      imm = (int32_t)label[imm];
    }
    code[(*size)++] = INTERP_INSN(s->op, imm);
  }
  return base;
}

static int32_t draw(struct example *ex, int32_t lo, int32_t hi)
{
  uint32_t span = (uint32_t)hi - (uint32_t)lo + 1; /* 0: the whole range */
  uint32_t r = example_rand(ex);
  return (int32_t)((uint32_t)lo + (span ? r % span : r));
}

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "interp", EXAMPLE_KERNEL, 64);
  example_check_n(&ex, 65536, "threads");
  uint32_t count = (uint32_t)ex.n;
  uint32_t code[256], size = 0, entry_of[PROGRAMS];
  for (uint32_t p = 0; p < PROGRAMS; p++)
    entry_of[p] = assemble(programs[p].src, code, &size);

  uint32_t *entry = malloc(count * sizeof(*entry));
  uint32_t *which = malloc(count * sizeof(*which));
  int32_t *arg0 = malloc(count * sizeof(*arg0));
  int32_t *arg1 = malloc(count * sizeof(*arg1));
  int32_t *result = malloc(count * sizeof(*result));
  int32_t *want = malloc(count * sizeof(*want));
  if (!entry || !which || !arg0 || !arg1 || !result || !want) {
    fprintf(stderr, "interp: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* Neighbouring threads (lanes of one warp) get unrelated programs. */
  for (uint32_t t = 0; t < count; t++) {
    const struct program *p =
        &programs[which[t] = example_rand(&ex) % PROGRAMS];
    entry[t] = entry_of[which[t]];
    arg0[t] = draw(&ex, p->lo0, p->hi0);
    arg1[t] = draw(&ex, p->lo1, p->hi1);
    want[t] = p->ref(arg0[t], arg1[t]);
  }
  struct interp_args args = {
      .count = count,
      .code = example_upload(&ex, code, size * sizeof(*code)),
      .entry = example_upload(&ex, entry, count * sizeof(*entry)),
      .arg0 = example_upload(&ex, arg0, count * sizeof(*arg0)),
      .arg1 = example_upload(&ex, arg1, count * sizeof(*arg1)),
      .result = example_upload(&ex, NULL, count * sizeof(*result)),
  };
  example_run(&ex, &args, sizeof(args), count);
  example_download(&ex, args.result, result, count * sizeof(*result));
  uint64_t bad = example_compare(&ex, "result", result, want, count);
  for (uint32_t t = 0, shown = 0; t < count && shown < 5; t++)
    if (result[t] != want[t]) {
      fprintf(stderr, "interp: thread %u ran %s(%d, %d)\n", t,
              programs[which[t]].name, (int)arg0[t], (int)arg1[t]);
      shown++;
    }
  char summary[128];
  snprintf(summary, sizeof(summary),
           "%u threads running %u different programs (%u words) match the CPU",
           count, (unsigned)PROGRAMS, size);
  free(entry);
  free(which);
  free(arg0);
  free(arg1);
  free(result);
  free(want);
  return example_finish(&ex, bad, summary);
}
