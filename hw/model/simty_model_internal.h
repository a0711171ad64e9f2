/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_internal.h - the model's private state, shared by its files.
 *
 * simty_model.c      handle, device memory, launch, dispatcher, scheduler
 * simty_model_decode.c  RV32I decoding into struct simty_insn (once per
 *                    CODE word, at load)
 * simty_model_exec.c one warp instruction: lanes, paths, memory, counters
 */
#ifndef SIMTY_MODEL_INTERNAL_H
#define SIMTY_MODEL_INTERNAL_H

#include <stdint.h>

#include "simty_model.h"

/* Decoded operations. Everything the ISA section does not accept decodes
 * to OP_ILLEGAL, so the executor never sees a bad encoding. */
enum simty_op {
  OP_ILLEGAL = 0,
  OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
  OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
  OP_LB, OP_LH, OP_LW, OP_LBU, OP_LHU,
  OP_SB, OP_SH, OP_SW,
  OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI,
  OP_SLLI, OP_SRLI, OP_SRAI,
  OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR,
  OP_AND,
  OP_FENCE, OP_ECALL, OP_EBREAK, OP_CSR,
  /* M extension */
  OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
  /* A extension: LR, SC, then the AMOs */
  OP_LR, OP_SC, OP_AMOSWAP, OP_AMOADD, OP_AMOXOR, OP_AMOAND, OP_AMOOR,
  OP_AMOMIN, OP_AMOMAX, OP_AMOMINU, OP_AMOMAXU,
};

/* Register row that absorbs writes to x0: x0 itself (row 0) always reads
 * as zero, and the executor never needs a "rd != 0" test per lane. */
#define SIMTY_REG_SINK 32u
#define SIMTY_REG_ROWS 33u

struct simty_insn {
  uint8_t op;     /* enum simty_op */
  uint8_t rd;     /* destination row; SIMTY_REG_SINK for x0 */
  uint8_t rs1;
  uint8_t rs2;
  int32_t imm;    /* immediate, shift amount, or CSR number */
  uint32_t word;  /* the raw encoding (fault records, call/return) */
};

/* A path: priority key and lane mask. The key orders paths: greater key,
 * higher priority. key = depth << 32 | ~pc, so a deeper path wins and at
 * equal depth the lower pc wins; equal keys are equal (pc, depth). */
struct simty_path {
  uint64_t key;
  uint64_t mask;
};

static inline uint64_t simty_path_key(uint32_t pc, uint32_t depth)
{
  return (uint64_t)depth << 32 | (uint32_t)~pc;
}

static inline uint32_t simty_key_pc(uint64_t key)
{
  return ~(uint32_t)key;
}

static inline uint32_t simty_key_depth(uint64_t key)
{
  return (uint32_t)(key >> 32);
}

/* Reconvergence markers of the ipdom policy (never 4-aligned, so never
 * a pc): RPC_EXIT = the exit of the function (its return instructions),
 * RPC_NONE = no reconvergence point known. */
#define SIMTY_RPC_EXIT 0xFFFFFFFEu
#define SIMTY_RPC_NONE 0xFFFFFFFFu

/* One entry of the ipdom policy's reconvergence stack: lanes `mask` run
 * at (pc, depth) until they reach (rpc, rdepth), where the entry below
 * waits for them. A reconvergence entry for a function exit has pc =
 * SIMTY_RPC_EXIT and learns in retpc the return instruction its lanes
 * reached. */
struct simty_stack_entry {
  uint64_t mask;
  uint32_t pc, depth, rpc, rdepth, retpc;
};

struct simty_warp {
  uint32_t *regs;            /* [SIMTY_REG_ROWS][lanes] */
  struct simty_path *paths;  /* ascending key: the head is paths[npaths-1] */
  unsigned npaths;           /* 0: free (no live thread); ipdom: stack size */
  uint32_t base_tid;         /* logical id of lane 0 of the block */
  struct simty_stack_entry *stack; /* ipdom: the stack, top at npaths-1 */
};

/* Statistics (simty_model_set_stats): per warp, its issued instructions
 * and when each register was last written (0: not in this block). */
struct simty_stats_warp {
  uint64_t issued;
  uint64_t written[32];
};

struct simty_race_cell; /* simty_model_race.c */

struct simty_model {
  unsigned warps, lanes;
  unsigned lane_shift;  /* log2(lanes) */
  unsigned line_shift;  /* log2(lanes * 4): bytes of a memory line */
  unsigned xbar;        /* enum simty_model_xbar */
  uint64_t full_mask;   /* every lane */
  uint32_t code_size, data_size;
  uint8_t *code, *data;
  struct simty_insn *decoded; /* one per CODE word */

  struct simty_warp *warp;
  uint32_t *regfile;
  struct simty_path *pathstore;

  /* current launch */
  enum simty_model_status status;
  uint32_t entry, nthreads, args, stack_top, stack_log2;
  /* The stack area [area_base, stack_top), area_size = harts << stack_log2
   * bytes, harts = 1 << harts_shift hardware threads: loads and stores in
   * it are checked against the thread's own stack and interleaved
   * (docs/architecture.md section 3, "Stacks"). */
  uint32_t area_base, area_size;
  unsigned harts_shift;
  uint64_t max_cycles;
  uint64_t next_block, nblocks;
  unsigned live_warps;
  unsigned turn; /* warp whose issue slot comes next */
  struct simty_model_fault fault;
  uint64_t ctr[SIMTY_CTR_COUNT];

  simty_model_console_fn console_fn;
  void *console_user;
  simty_model_trace_fn trace_fn;
  void *trace_user;

  /* Extensions (SIMTY_EXT_*) the decoder accepts. */
  unsigned isa;
  /* Zicntr: device time before this launch, instructions retired per
   * hardware thread in this launch. */
  uint64_t time_base;
  uint64_t *instret; /* [warps * lanes] */
  /* A: each hardware thread's reservation (word address, 0 = none) and
   * how many are set (0 lets stores skip the search). */
  uint32_t *resv;    /* [warps * lanes] */
  unsigned nresv;

  /* Schedule: seed 0 = round robin, else random from the seed. */
  uint64_t seed, rng;
  unsigned burst; /* slots left for the current warp */

  /* Race checker (NULL: off): shadow of DATA, one page per 4 KiB. */
  simty_model_race_fn race_fn;
  void *race_user;
  struct simty_race_cell **shadow;
  uint64_t races;

  /* Reconvergence policy (enum simty_model_policy). key_rot rotates
   * the path key: 0 = depth first (simty), 32 = pc first (pc). */
  unsigned policy;
  unsigned key_rot;
  /* ipdom: the stacks, the function table and, per CODE word, the
   * reconvergence point of a divergence at that instruction. */
  struct simty_stack_entry *stackstore;
  struct simty_model_func *funcs;
  size_t nfuncs;
  uint32_t *rpc;      /* [code_size / 4]; NULL until analysed */
  int rpc_valid;      /* 0: CODE or functions changed since */
  struct simty_model_cfg_info cfg_info;

  /* Statistics (NULL: off, the default) */
  struct simty_stats_warp *stats;
  uint64_t defuse[SIMTY_DEFUSE_BINS + 1];

  char error[256];
};

/* Rotations of the path key between the simty layout (depth << 32 | ~pc)
 * and the policy's: rotating by 32 orders by pc first. */
static inline uint64_t simty_rotl64(uint64_t x, unsigned r)
{
  return x << r | x >> ((64 - r) & 63);
}

/* ipdom: analyse CODE (simty_model_cfg.c): fill m->rpc. Returns 0 or
 * SIMTY_MODEL_NOMEM. */
int simty__model_cfg_analyse(struct simty_model *m);

/* Decode one instruction word for RV32I plus the extensions `isa`. */
void simty__model_decode(uint32_t word, unsigned isa, struct simty_insn *out);

/* Race checker shadow pages: bytes of DATA per page. */
#define SIMTY_RACE_PAGE 4096u

/* Free the race checker's shadow and zero its count (each launch). */
void simty__model_race_reset(struct simty_model *m);

/* Race checker: the lanes `lanes` of warp `wi` access `size` bytes at
 * addr[l] (DATA only) at `pc`; `write` for stores. */
void simty__model_race_access(struct simty_model *m, unsigned wi,
                              uint64_t lanes, const uint32_t *addr,
                              unsigned size, uint32_t pc, int write);

/* A: a word of DATA was written (store, AMO, successful SC): every
 * reservation on it is lost. */
static inline void simty__model_resv_kill(struct simty_model *m,
                                          uint32_t addr)
{
  if (m->nresv == 0)
    return;
  uint32_t word = addr & ~3u;
  unsigned harts = m->warps * m->lanes;
  for (unsigned h = 0; h < harts; h++)
    if (m->resv[h] == word) {
      m->resv[h] = 0;
      m->nresv--;
    }
}

/* Execute the head path's instruction of warp `wi` (which has a path).
 * Returns 0, or -1 after filling model->fault. */
int simty__model_exec(struct simty_model *m, unsigned wi);

/* Fill the fault record for lane `lane` of warp `wi`. */
void simty__model_fault(struct simty_model *m, unsigned wi, unsigned lane,
                        uint32_t cause, uint32_t pc, uint32_t addr);

#endif /* SIMTY_MODEL_INTERNAL_H */
