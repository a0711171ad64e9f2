/* SPDX-License-Identifier: Apache-2.0 */
/* interp.c - kernel: a bytecode stack machine, one program per thread.
 *
 * Control opcodes go through a switch that GCC compiles to a jump table:
 * a `jalr` whose target is each lane's own opcode, so lanes at different
 * opcodes split (one replay per extra target) and merge again at the loop
 * head. Binary operations call through a table of function pointers: an
 * indirect call (`jalr ra`), which also raises the path's call depth. An
 * interpreter is the worst case for SIMT: its lanes share little but the
 * dispatch loop. */
#include <simty_kernel.h>

#include "interp.h"

typedef int32_t (*binop_fn)(int32_t, int32_t);

static int32_t op_add(int32_t a, int32_t b)
{
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
static int32_t op_sub(int32_t a, int32_t b)
{
  return (int32_t)((uint32_t)a - (uint32_t)b);
}
static int32_t op_mul(int32_t a, int32_t b)
{
  return (int32_t)((uint32_t)a * (uint32_t)b);
}
static int32_t op_mod(int32_t a, int32_t b)
{
  /* INT32_MIN % -1 overflows in C; its remainder is 0. */
  if (b == 0)
    return a;
  return b == -1 ? 0 : a % b;
}
static int32_t op_and(int32_t a, int32_t b)
{
  return a & b;
}
static int32_t op_or(int32_t a, int32_t b)
{
  return a | b;
}
static int32_t op_xor(int32_t a, int32_t b)
{
  return a ^ b;
}
static int32_t op_shl(int32_t a, int32_t b)
{
  return (int32_t)((uint32_t)a << (b & 31));
}
static int32_t op_shr(int32_t a, int32_t b)
{
  return a >> (b & 31);
}
static int32_t op_shru(int32_t a, int32_t b)
{
  return (int32_t)((uint32_t)a >> (b & 31));
}
static int32_t op_lt(int32_t a, int32_t b)
{
  return a < b;
}
static int32_t op_eq(int32_t a, int32_t b)
{
  return a == b;
}

static binop_fn const binops[OP_COUNT - OP_ADD] = {
    [OP_ADD - OP_ADD] = op_add, [OP_SUB - OP_ADD] = op_sub,
    [OP_MUL - OP_ADD] = op_mul, [OP_MOD - OP_ADD] = op_mod,
    [OP_AND - OP_ADD] = op_and, [OP_OR - OP_ADD] = op_or,
    [OP_XOR - OP_ADD] = op_xor, [OP_SHL - OP_ADD] = op_shl,
    [OP_SHR - OP_ADD] = op_shr, [OP_SHRU - OP_ADD] = op_shru,
    [OP_LT - OP_ADD] = op_lt,   [OP_EQ - OP_ADD] = op_eq,
};

/* A malformed program stops the whole launch with an EBREAK fault, which
 * the host reports: better than a wrong result. */
static int32_t run(const uint32_t *code, int32_t arg0, int32_t arg1)
{
  int32_t stack[INTERP_STACK], locals[INTERP_LOCALS] = {0};
  uint32_t sp = 0, pc = 0;
  for (uint32_t steps = 0; steps < INTERP_MAX_STEPS; steps++) {
    uint32_t insn = code[pc++];
    uint32_t op = insn & 0xFF;
    int32_t imm = (int32_t)insn >> 8;
    if (op >= OP_ADD) {
      if (op >= OP_COUNT || sp < 2)
        simty_trap();
      sp--;
      stack[sp - 1] = binops[op - OP_ADD](stack[sp - 1], stack[sp]);
      continue;
    }
    switch (op) {
    case OP_HALT:
      if (sp < 1)
        simty_trap();
      return stack[sp - 1];
    case OP_PUSH:
      if (sp >= INTERP_STACK)
        simty_trap();
      stack[sp++] = imm;
      break;
    case OP_ARG:
      if (sp >= INTERP_STACK)
        simty_trap();
      stack[sp++] = imm == 0 ? arg0 : arg1;
      break;
    case OP_GET:
      if (sp >= INTERP_STACK || (uint32_t)imm >= INTERP_LOCALS)
        simty_trap();
      stack[sp++] = locals[imm];
      break;
    case OP_SET:
      if (sp < 1 || (uint32_t)imm >= INTERP_LOCALS)
        simty_trap();
      locals[imm] = stack[--sp];
      break;
    case OP_DUP:
      if (sp < 1 || sp >= INTERP_STACK)
        simty_trap();
      stack[sp] = stack[sp - 1];
      sp++;
      break;
    case OP_DROP:
      if (sp < 1)
        simty_trap();
      sp--;
      break;
    case OP_SWAP: {
      if (sp < 2)
        simty_trap();
      int32_t top = stack[sp - 1];
      stack[sp - 1] = stack[sp - 2];
      stack[sp - 2] = top;
      break;
    }
    case OP_OVER:
      if (sp < 2 || sp >= INTERP_STACK)
        simty_trap();
      stack[sp] = stack[sp - 2];
      sp++;
      break;
    case OP_JMP:
      pc = (uint32_t)imm;
      break;
    case OP_JZ:
      if (sp < 1)
        simty_trap();
      if (stack[--sp] == 0)
        pc = (uint32_t)imm;
      break;
    case OP_JNZ:
      if (sp < 1)
        simty_trap();
      if (stack[--sp] != 0)
        pc = (uint32_t)imm;
      break;
    default:
      simty_trap();
    }
  }
  simty_trap(); /* ran too long: a program that never halts */
}

int main(void)
{
  const struct interp_args *args = simty_args();
  uint32_t t = simty_thread_id();
  if (t >= args->count)
    return 0;
  args->result[t] =
      run(args->code + args->entry[t], args->arg0[t], args->arg1[t]);
  return 0;
}
