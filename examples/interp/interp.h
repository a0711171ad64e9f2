/* SPDX-License-Identifier: Apache-2.0 */
/* interp.h - the bytecode of the interp example and the argument block
 * shared by its host and kernel. Pointers are device addresses: 32-bit on
 * both sides. */
#ifndef INTERP_H
#define INTERP_H

#include <stdint.h>

/* An instruction is one word: the opcode in bits 0-7, a signed immediate
 * in bits 8-31. Jump targets are word offsets from the program's start.
 * The machine is a stack of INTERP_STACK words plus INTERP_LOCALS local
 * variables; two inputs are readable with ARG. */
#define INTERP_INSN(op, imm) ((uint32_t)(imm) << 8 | (uint32_t)(op))
#define INTERP_STACK 16
#define INTERP_LOCALS 4
/* A thread that runs this many instructions without HALT faults. */
#define INTERP_MAX_STEPS 100000u

enum interp_op {
  /* Control and data movement: the kernel's switch (a jump table). */
  OP_HALT = 0, /* stop; the result is the top of the stack */
  OP_PUSH,     /* push imm */
  OP_ARG,      /* push input imm (0 or 1) */
  OP_GET,      /* push local imm */
  OP_SET,      /* pop into local imm */
  OP_DUP,      /* a -- a a */
  OP_DROP,     /* a -- */
  OP_SWAP,     /* a b -- b a */
  OP_OVER,     /* a b -- a b a */
  OP_JMP,      /* go to imm */
  OP_JZ,       /* pop; go to imm if it is zero */
  OP_JNZ,      /* pop; go to imm if it is not zero */
  /* Binary operations a b -- (a OP b): the kernel's table of function
   * pointers, indexed by op - OP_ADD. */
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_MOD, /* signed remainder; b == 0 gives a */
  OP_AND,
  OP_OR,
  OP_XOR,
  OP_SHL,  /* a << (b & 31) */
  OP_SHR,  /* arithmetic a >> (b & 31) */
  OP_SHRU, /* logical a >> (b & 31) */
  OP_LT,   /* signed a < b: 1 or 0 */
  OP_EQ,   /* a == b: 1 or 0 */
  OP_COUNT
};

/* One program per thread: thread t runs the program at code + entry[t]
 * with inputs arg0[t] and arg1[t]. */
struct interp_args {
  uint32_t count; /* threads with a job */
#if defined(__riscv)
  const uint32_t *code;
  const uint32_t *entry;
  const int32_t *arg0;
  const int32_t *arg1;
  int32_t *result;
#else
  uint32_t code, entry, arg0, arg1, result;
#endif
};

#endif
