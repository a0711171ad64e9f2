/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_exec.c - one warp instruction of the reference model.
 *
 * The head (highest-priority) path of a warp executes its instruction for
 * the lanes of its mask; the outcome replaces the head by one or two new
 * paths, each inserted into the warp's sorted set with merge
 * (docs/architecture.md section 1). Registers are laid out [reg][lane] so
 * that each operation is one tight loop over lanes; a full mask takes a
 * plain counted loop, a partial one walks the set bits.
 */
#include <string.h>

#include "simty_model_internal.h"

#define CTZ64(x) ((unsigned)__builtin_ctzll(x))
#define POP64(x) ((unsigned)__builtin_popcountll(x))

/* Run `body` with `l` bound to each lane of `mask`, in ascending order. */
#define FOR_LANES(mask, full, nlanes, body)                                  \
  do {                                                                       \
    if (full) {                                                              \
      for (unsigned l = 0; l < (nlanes); l++) {                              \
        body;                                                                \
      }                                                                      \
    } else {                                                                 \
      for (uint64_t m_ = (mask); m_ != 0; m_ &= m_ - 1) {                    \
        unsigned l = CTZ64(m_);                                              \
        body;                                                                \
      }                                                                      \
    }                                                                        \
  } while (0)

/* The lanes of M one memory transaction serves (architecture.md 3, rule
 * 3), from the lanes' physical addresses: those in the leader's line;
 * with the rotate crossbar, of those only the lanes whose word of the
 * line is the leader's word w (broadcast) or the rotation of it,
 * (l + w - k) mod LANES for leader k. */
static uint64_t served_lanes(const struct simty_model *m, uint64_t M,
                             const uint32_t *paddr)
{
  const unsigned n = m->lanes, shift = m->line_shift, k = CTZ64(M);
  const int full = M == m->full_mask;
  const uint32_t line = paddr[k] >> shift;
  uint64_t served = 0;
  if (m->xbar == SIMTY_XBAR_ROTATE) {
    const uint32_t wmask = n - 1, w = (paddr[k] >> 2) & wmask;
    FOR_LANES(M, full, n, {
      const uint32_t wl = (paddr[l] >> 2) & wmask;
      served |= (uint64_t)(paddr[l] >> shift == line &&
                           (wl == w || wl == ((l + w - k) & wmask)))
                << l;
    });
  } else {
    FOR_LANES(M, full, n,
              served |= (uint64_t)(paddr[l] >> shift == line) << l);
  }
  return served;
}

void simty__model_fault(struct simty_model *m, unsigned wi, unsigned lane,
                        uint32_t cause, uint32_t pc, uint32_t addr)
{
  m->fault.cause = cause;
  m->fault.pc = pc;
  m->fault.hart = wi * m->lanes + lane;
  m->fault.tid = m->warp[wi].base_tid + lane;
  m->fault.addr = addr;
}

/* Checks the target of a jump or taken branch at `pc`, before the jump has
 * any effect; `lane` is the lowest lane taking it. A target that is not
 * 4-aligned faults as MISALIGNED_FETCH (pc = the jump, addr = target); one
 * outside the populated CODE faults as the fetch of that target would
 * (FETCH_OUT_OF_RANGE, pc = addr = target). Only falling through past the
 * last word of CODE reaches a path whose fetch faults later
 * (docs/architecture.md, section 5). Returns -1 after a fault, else 0. */
static int check_target(struct simty_model *m, unsigned wi, unsigned lane,
                        uint32_t pc, uint32_t target)
{
  if (target & 3) {
    simty__model_fault(m, wi, lane, SIMTY_FAULT_MISALIGNED_FETCH, pc, target);
    return -1;
  }
  if (target - SIMTY_CODE_BASE >= m->code_size) {
    simty__model_fault(m, wi, lane, SIMTY_FAULT_FETCH_OUT_OF_RANGE, target,
                       target);
    return -1;
  }
  return 0;
}

/* ---- Path set: ascending keys, head at the end ----
 *
 * The functions below take keys in the simty layout (depth << 32 | ~pc)
 * and store them rotated by m->key_rot (0 for simty, 32 for the pc
 * policy: ~pc << 32 | depth). The ipdom policy keeps a stack instead
 * (further below). */

static void stack_move(struct simty_model *m, struct simty_warp *w,
                       uint64_t key, uint64_t mask);
static void stack_split(struct simty_model *m, struct simty_warp *w,
                        uint64_t key_a, uint64_t mask_a, uint64_t key_b,
                        uint64_t mask_b);
static void stack_end(struct simty_model *m, struct simty_warp *w,
                      uint64_t mask);

static void path_insert(struct simty_model *m, struct simty_warp *w,
                        uint64_t key, uint64_t mask)
{
  struct simty_path *p = w->paths;
  unsigned i = w->npaths;
  while (i > 0 && p[i - 1].key > key)
    i--;
  if (i > 0 && p[i - 1].key == key) {
    p[i - 1].mask |= mask;
    m->ctr[SIMTY_CTR_path_merges]++;
    return;
  }
  memmove(&p[i + 1], &p[i], (w->npaths - i) * sizeof(*p));
  p[i].key = key;
  p[i].mask = mask;
  w->npaths++;
  if (w->npaths > 2 && w->npaths - 2 > m->ctr[SIMTY_CTR_cct_peak])
    m->ctr[SIMTY_CTR_cct_peak] = w->npaths - 2;
}

/* The head moves on as one path: the common, non-divergent case. While it
 * stays strictly above the next path it keeps its slot. */
static void path_replace_head(struct simty_model *m, struct simty_warp *w,
                              uint64_t key, uint64_t mask)
{
  if (m->policy == SIMTY_POLICY_IPDOM) {
    stack_move(m, w, key, mask);
    return;
  }
  key = simty_rotl64(key, m->key_rot);
  unsigned n = w->npaths;
  if (n == 1 || key > w->paths[n - 2].key) {
    w->paths[n - 1].key = key;
    w->paths[n - 1].mask = mask;
    return;
  }
  w->npaths = n - 1;
  path_insert(m, w, key, mask);
}

/* The head splits in two (both non-empty). */
static void path_split_head(struct simty_model *m, struct simty_warp *w,
                            uint64_t key_a, uint64_t mask_a, uint64_t key_b,
                            uint64_t mask_b)
{
  if (m->policy == SIMTY_POLICY_IPDOM) {
    stack_split(m, w, key_a, mask_a, key_b, mask_b);
    return;
  }
  w->npaths--;
  path_insert(m, w, simty_rotl64(key_a, m->key_rot), mask_a);
  path_insert(m, w, simty_rotl64(key_b, m->key_rot), mask_b);
}

/* The head's threads end (ecall). */
static void path_end_head(struct simty_model *m, struct simty_warp *w,
                          uint64_t mask)
{
  if (m->policy == SIMTY_POLICY_IPDOM)
    stack_end(m, w, mask);
  else
    w->npaths--;
}

/* ---- The ipdom policy's stack (docs/architecture.md, "Reconvergence
 * policies"): the top entry runs; an entry whose lanes reach its
 * reconvergence point (rpc, rdepth) is popped, its lanes waiting in the
 * entry below. A divergence turns the top into the reconvergence entry
 * (at the instruction's point from simty_model_cfg.c) and pushes one
 * entry per side, the fall-through side on top (it runs first). */

static int at_return(const struct simty_model *m, uint32_t pc)
{
  uint32_t off = pc - SIMTY_CODE_BASE;
  if (off >= m->code_size)
    return 0;
  const struct simty_insn *in = &m->decoded[off >> 2];
  return in->op == OP_JALR && in->rd == SIMTY_REG_SINK && in->rs1 == 1 &&
         in->imm == 0;
}

/* Pop every entry that has nothing left to run at the top. */
static void stack_settle(struct simty_model *m, struct simty_warp *w)
{
  struct simty_stack_entry *s = w->stack;
  while (w->npaths) {
    struct simty_stack_entry *t = &s[w->npaths - 1];
    if (t->mask == 0) {
      w->npaths--;
      continue;
    }
    if (t->pc == SIMTY_RPC_EXIT) /* every side returned: return together */
      t->pc = t->retpc;
    if (t->pc == t->rpc && t->depth == t->rdepth) {
      m->ctr[SIMTY_CTR_path_merges]++;
      w->npaths--;
      continue;
    }
    if (t->rpc == SIMTY_RPC_EXIT && t->depth == t->rdepth &&
        at_return(m, t->pc)) {
      /* At the function's exit: wait in the nearest exit entry below. */
      for (unsigned i = w->npaths - 1; i-- > 0;)
        if (s[i].pc == SIMTY_RPC_EXIT && s[i].depth == t->depth) {
          s[i].retpc = t->pc;
          break;
        }
      m->ctr[SIMTY_CTR_path_merges]++;
      w->npaths--;
      continue;
    }
    break;
  }
}

static void stack_push(struct simty_model *m, struct simty_warp *w,
                       uint64_t key, uint64_t mask, uint32_t rpc,
                       uint32_t rdepth)
{
  uint32_t pc = simty_key_pc(key), depth = simty_key_depth(key);
  if (pc == rpc && depth == rdepth)
    return; /* already where the entry below waits */
  w->stack[w->npaths++] = (struct simty_stack_entry){mask, pc, depth, rpc,
                                                      rdepth, 0};
  if (w->npaths > 2 && w->npaths - 2 > m->ctr[SIMTY_CTR_cct_peak])
    m->ctr[SIMTY_CTR_cct_peak] = w->npaths - 2;
}

static void stack_move(struct simty_model *m, struct simty_warp *w,
                       uint64_t key, uint64_t mask)
{
  struct simty_stack_entry *t = &w->stack[w->npaths - 1];
  t->pc = simty_key_pc(key);
  t->depth = simty_key_depth(key);
  t->mask = mask;
  stack_settle(m, w);
}

static void stack_split(struct simty_model *m, struct simty_warp *w,
                        uint64_t key_a, uint64_t mask_a, uint64_t key_b,
                        uint64_t mask_b)
{
  struct simty_stack_entry *t = &w->stack[w->npaths - 1];
  uint32_t rpc = m->rpc[(t->pc - SIMTY_CODE_BASE) >> 2], rdepth = t->depth;
  if (rpc == SIMTY_RPC_NONE || (rpc == t->rpc && rdepth == t->rdepth)) {
    /* No point of its own, or the top's own (a replay of an indirect
     * jump served in turns): the sides meet where the top would have,
     * without a new reconvergence entry. */
    rpc = t->rpc;
    rdepth = t->rdepth;
    w->npaths--;
  } else {
    t->pc = rpc;
    t->retpc = 0;
  }
  stack_push(m, w, key_a, mask_a, rpc, rdepth);
  stack_push(m, w, key_b, mask_b, rpc, rdepth);
  stack_settle(m, w);
}

static void stack_end(struct simty_model *m, struct simty_warp *w,
                      uint64_t mask)
{
  /* The lanes leave every entry; entries left empty go at once, so that
   * the stack keeps its bound (2 x LANES + 1). */
  unsigned n = 0;
  for (unsigned i = 0; i < w->npaths; i++) {
    w->stack[i].mask &= ~mask;
    if (w->stack[i].mask)
      w->stack[n++] = w->stack[i];
  }
  w->npaths = n;
  stack_settle(m, w);
}

/* ---- Value structure of register results ---- */

static uint32_t inverse_odd(uint32_t odd)
{
  uint32_t x = odd; /* correct to 3 bits; each step doubles them */
  for (int i = 0; i < 5; i++)
    x *= 2u - odd * x;
  return x;
}

/* Count a written vector v (lanes `wmask`, 2 or more) as uniform, affine,
 * or neither (docs/architecture.md section 6, counters 11 and 12). */
static void classify(struct simty_model *m, const uint32_t *v, uint64_t wmask)
{
  unsigned l0 = CTZ64(wmask);
  uint64_t rest = wmask & (wmask - 1);
  uint32_t v0 = v[l0];

  if (wmask == m->full_mask) {
    uint32_t s = v[1] - v[0];
    for (unsigned l = 2; l < m->lanes; l++)
      if (v[l] - v[l - 1] != s)
        return;
    m->ctr[s == 0 ? SIMTY_CTR_uniform_vectors : SIMTY_CTR_affine_vectors]++;
    return;
  }

  int uniform = 1;
  for (uint64_t r = rest; r; r &= r - 1)
    if (v[CTZ64(r)] != v0) {
      uniform = 0;
      break;
    }
  if (uniform) {
    m->ctr[SIMTY_CTR_uniform_vectors]++;
    return;
  }
  /* Solve (l1 - l0) * s = v[l1] - v0 (mod 2^32) for the first follower
   * l1; with gap g = 2^t * odd there are 2^t solutions (t <= 5), try
   * each against every lane. */
  unsigned l1 = CTZ64(rest);
  uint32_t g = l1 - l0, diff = v[l1] - v0;
  unsigned t = (unsigned)__builtin_ctz(g);
  if (diff & ((1u << t) - 1u))
    return;
  uint32_t s0 = (diff >> t) * inverse_odd(g >> t);
  for (uint32_t j = 0; j < (1u << t); j++) {
    uint32_t s = t ? s0 + (j << (32 - t)) : s0;
    int ok = 1;
    for (uint64_t r = rest; r; r &= r - 1) {
      unsigned l = CTZ64(r);
      if (v[l] != v0 + (uint32_t)(l - l0) * s) {
        ok = 0;
        break;
      }
    }
    if (ok) {
      m->ctr[SIMTY_CTR_affine_vectors]++;
      return;
    }
  }
}

static uint32_t depth_after(uint32_t depth, const struct simty_insn *in)
{
  uint32_t rd = (in->word >> 7) & 0x1f;
  if (rd == 1) /* call: jal/jalr with rd = ra */
    return depth < SIMTY_DEPTH_MAX ? depth + 1 : depth;
  if (in->op == OP_JALR && rd == 0 && in->rs1 == 1) /* return */
    return depth > 0 ? depth - 1 : 0;
  return depth;
}

/* ---- Little-endian device memory ---- */

static uint32_t ld_u8(const uint8_t *p)
{
  return p[0];
}

static uint32_t ld_u16(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t ld_u32(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static void st_bytes(uint8_t *p, uint32_t v, unsigned size)
{
  p[0] = (uint8_t)v;
  if (size >= 2)
    p[1] = (uint8_t)(v >> 8);
  if (size == 4) {
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
  }
}

/* ---- Interleaved stacks and the stack guard (docs/architecture.md
 * section 3, "Stacks") ----
 *
 * In the stack area, logical byte `o` from the area's base lies in region
 * r = o >> s (hart h = N-1-r's stack) at word w and byte b of that
 * region; it is stored at physical word w * N + h of the area, byte b.
 * Everything but the memory array itself (faults, the race checker) sees
 * logical addresses. */

static inline int stack_foreign(const struct simty_model *m, uint32_t a,
                                uint32_t own_region)
{
  uint32_t o = a - m->area_base;
  return o < m->area_size && o >> m->stack_log2 != own_region;
}

static inline uint32_t stack_phys(const struct simty_model *m, uint32_t a)
{
  uint32_t o = a - m->area_base;
  if (o >= m->area_size)
    return a;
  const unsigned s = m->stack_log2;
  uint32_t h = (m->area_size >> s) - 1u - (o >> s);
  uint32_t w = (o & ((1u << s) - 1u)) >> 2;
  return m->area_base + (((w << m->harts_shift) | h) << 2) + (o & 3u);
}

/* The fault of lane `l`'s bad address: misaligned, else out of range, else
 * another thread's stack. */
static uint32_t mem_cause(uint32_t a, uint32_t align, int in_range,
                          int store)
{
  if (a & align)
    return store ? SIMTY_FAULT_MISALIGNED_STORE : SIMTY_FAULT_MISALIGNED_LOAD;
  if (!in_range)
    return store ? SIMTY_FAULT_STORE_OUT_OF_RANGE
                 : SIMTY_FAULT_LOAD_OUT_OF_RANGE;
  return SIMTY_FAULT_STACK_OVERFLOW;
}

/* ---- M: signed division, with RISC-V's results for y = 0 (quotient
 * -1, remainder x) and -2^31 / -1 (quotient -2^31, remainder 0) ---- */

static uint32_t div_s(uint32_t x, uint32_t y)
{
  if (y == 0)
    return UINT32_MAX;
  if (x == 0x80000000u && y == UINT32_MAX)
    return x;
  return (uint32_t)((int32_t)x / (int32_t)y);
}

static uint32_t rem_s(uint32_t x, uint32_t y)
{
  if (y == 0)
    return x;
  if (x == 0x80000000u && y == UINT32_MAX)
    return 0;
  return (uint32_t)((int32_t)x % (int32_t)y);
}

/* ---- Statistics: def-use distances ---- */

/* Which source registers an operation reads: bit 0 rs1, bit 1 rs2. */
static unsigned sources(unsigned op)
{
  switch (op) {
  case OP_LUI: case OP_AUIPC: case OP_JAL: case OP_FENCE: case OP_ECALL:
  case OP_EBREAK: case OP_CSR: case OP_ILLEGAL:
    return 0;
  case OP_JALR: case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU:
  case OP_ADDI: case OP_SLTI: case OP_SLTIU: case OP_XORI: case OP_ORI:
  case OP_ANDI: case OP_SLLI: case OP_SRLI: case OP_SRAI: case OP_LR:
    return 1;
  default: /* branches, stores, register-register ALU and M, SC, AMOs */
    return 3;
  }
}

static unsigned defuse_bin(uint64_t d)
{
  if (d < 4)
    return (unsigned)d; /* 1, 2, 3 (0 never happens) */
  unsigned b = 4;
  for (uint64_t lim = 8; d >= lim && b < SIMTY_DEFUSE_BINS; lim <<= 1)
    b++;
  return b;
}

static void count_defuse(struct simty_model *m, unsigned wi,
                         const struct simty_insn *in, uint64_t written)
{
  struct simty_stats_warp *s = &m->stats[wi];
  uint64_t now = ++s->issued;
  unsigned src = sources(in->op);
  if ((src & 1) && in->rs1 && s->written[in->rs1])
    m->defuse[defuse_bin(now - s->written[in->rs1])]++;
  if ((src & 2) && in->rs2 && s->written[in->rs2])
    m->defuse[defuse_bin(now - s->written[in->rs2])]++;
  if (written && in->rd != SIMTY_REG_SINK)
    s->written[in->rd] = now;
}

/* ---- The instruction ---- */

int simty__model_exec(struct simty_model *m, unsigned wi)
{
  struct simty_warp *w = &m->warp[wi];
  uint64_t key, M;
  if (m->policy != SIMTY_POLICY_IPDOM) {
    const struct simty_path *head = &w->paths[w->npaths - 1];
    key = simty_rotl64(head->key, (64u - m->key_rot) & 63u);
    M = head->mask;
  } else {
    const struct simty_stack_entry *top = &w->stack[w->npaths - 1];
    key = simty_path_key(top->pc, top->depth);
    M = top->mask;
  }
  const uint32_t pc = simty_key_pc(key), depth = simty_key_depth(key);
  const unsigned n = m->lanes;
  const int full = M == m->full_mask;
  const uint64_t key_next = simty_path_key(pc + 4, depth);

  uint32_t code_off = pc - SIMTY_CODE_BASE;
  if (code_off >= m->code_size) {
    simty__model_fault(m, wi, CTZ64(M), SIMTY_FAULT_FETCH_OUT_OF_RANGE, pc,
                       pc);
    return -1;
  }
  const struct simty_insn *in = &m->decoded[code_off >> 2];
  uint32_t *const R = w->regs;
#define REG(r) (R + (size_t)(r) * n)
  uint32_t *d = REG(in->rd);
  const uint32_t *a = REG(in->rs1), *b = REG(in->rs2);
  const uint32_t imm = (uint32_t)in->imm;
  uint64_t retired = M; /* lanes that retire the instruction */
  uint64_t written = M; /* lanes that write rd (0: no rd) */

  switch ((enum simty_op)in->op) {
  case OP_LUI: FOR_LANES(M, full, n, d[l] = imm); goto seq;
  case OP_AUIPC: FOR_LANES(M, full, n, d[l] = pc + imm); goto seq;
  case OP_ADDI: FOR_LANES(M, full, n, d[l] = a[l] + imm); goto seq;
  case OP_SLTI:
    FOR_LANES(M, full, n, d[l] = (int32_t)a[l] < (int32_t)imm);
    goto seq;
  case OP_SLTIU: FOR_LANES(M, full, n, d[l] = a[l] < imm); goto seq;
  case OP_XORI: FOR_LANES(M, full, n, d[l] = a[l] ^ imm); goto seq;
  case OP_ORI: FOR_LANES(M, full, n, d[l] = a[l] | imm); goto seq;
  case OP_ANDI: FOR_LANES(M, full, n, d[l] = a[l] & imm); goto seq;
  case OP_SLLI: FOR_LANES(M, full, n, d[l] = a[l] << imm); goto seq;
  case OP_SRLI: FOR_LANES(M, full, n, d[l] = a[l] >> imm); goto seq;
  case OP_SRAI:
    FOR_LANES(M, full, n, d[l] = (uint32_t)((int32_t)a[l] >> imm));
    goto seq;
  case OP_ADD: FOR_LANES(M, full, n, d[l] = a[l] + b[l]); goto seq;
  case OP_SUB: FOR_LANES(M, full, n, d[l] = a[l] - b[l]); goto seq;
  case OP_SLL: FOR_LANES(M, full, n, d[l] = a[l] << (b[l] & 31)); goto seq;
  case OP_SLT:
    FOR_LANES(M, full, n, d[l] = (int32_t)a[l] < (int32_t)b[l]);
    goto seq;
  case OP_SLTU: FOR_LANES(M, full, n, d[l] = a[l] < b[l]); goto seq;
  case OP_XOR: FOR_LANES(M, full, n, d[l] = a[l] ^ b[l]); goto seq;
  case OP_SRL: FOR_LANES(M, full, n, d[l] = a[l] >> (b[l] & 31)); goto seq;
  case OP_SRA:
    FOR_LANES(M, full, n,
              d[l] = (uint32_t)((int32_t)a[l] >> (b[l] & 31)));
    goto seq;
  case OP_OR: FOR_LANES(M, full, n, d[l] = a[l] | b[l]); goto seq;
  case OP_AND: FOR_LANES(M, full, n, d[l] = a[l] & b[l]); goto seq;
  case OP_FENCE: written = 0; goto seq;

  /* M: the RISC-V results, division by zero and overflow included */
  case OP_MUL: FOR_LANES(M, full, n, d[l] = a[l] * b[l]); goto seq;
  case OP_MULH:
    FOR_LANES(M, full, n,
              d[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] *
                                           (int64_t)(int32_t)b[l]) >> 32));
    goto seq;
  case OP_MULHSU:
    FOR_LANES(M, full, n,
              d[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[l] *
                                           (int64_t)(uint64_t)b[l]) >> 32));
    goto seq;
  case OP_MULHU:
    FOR_LANES(M, full, n,
              d[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32));
    goto seq;
  case OP_DIV: FOR_LANES(M, full, n, d[l] = div_s(a[l], b[l])); goto seq;
  case OP_DIVU:
    FOR_LANES(M, full, n, d[l] = b[l] == 0 ? UINT32_MAX : a[l] / b[l]);
    goto seq;
  case OP_REM: FOR_LANES(M, full, n, d[l] = rem_s(a[l], b[l])); goto seq;
  case OP_REMU:
    FOR_LANES(M, full, n, d[l] = b[l] == 0 ? a[l] : a[l] % b[l]);
    goto seq;

  case OP_CSR: {
    uint32_t v;
    switch (imm) {
    case SIMTY_CSR_MHARTID: {
      uint32_t hart0 = wi * n;
      FOR_LANES(M, full, n, d[l] = hart0 + l);
      goto seq;
    }
    case SIMTY_CSR_TID: {
      uint32_t base = w->base_tid;
      FOR_LANES(M, full, n, d[l] = base + l);
      goto seq;
    }
    case SIMTY_CSR_NTHREADS: v = m->nthreads; break;
    case SIMTY_CSR_LANES: v = m->lanes; break;
    case SIMTY_CSR_WARPS: v = m->warps; break;
    case SIMTY_CSR_ARGS: v = m->args; break;
    case SIMTY_CSR_STACK_TOP: v = m->stack_top; break;
    /* Zicntr: this issue slot is counted already, so slots before it
     * are cycles - 1. */
    case SIMTY_CSR_CYCLE: v = (uint32_t)(m->ctr[SIMTY_CTR_cycles] - 1); break;
    case SIMTY_CSR_CYCLEH:
      v = (uint32_t)((m->ctr[SIMTY_CTR_cycles] - 1) >> 32);
      break;
    case SIMTY_CSR_TIME:
      v = (uint32_t)(m->time_base + m->ctr[SIMTY_CTR_cycles] - 1);
      break;
    case SIMTY_CSR_TIMEH:
      v = (uint32_t)((m->time_base + m->ctr[SIMTY_CTR_cycles] - 1) >> 32);
      break;
    case SIMTY_CSR_INSTRET: {
      const uint64_t *ir = m->instret + (size_t)wi * n;
      FOR_LANES(M, full, n, d[l] = (uint32_t)ir[l]);
      goto seq;
    }
    case SIMTY_CSR_INSTRETH: {
      const uint64_t *ir = m->instret + (size_t)wi * n;
      FOR_LANES(M, full, n, d[l] = (uint32_t)(ir[l] >> 32));
      goto seq;
    }
    default: v = m->stack_log2; break; /* decode admits no other CSR */
    }
    FOR_LANES(M, full, n, d[l] = v);
    goto seq;
  }

  case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
  case OP_BGEU: {
    uint64_t taken = 0;
    switch ((enum simty_op)in->op) {
    case OP_BEQ: FOR_LANES(M, full, n, taken |= (uint64_t)(a[l] == b[l]) << l); break;
    case OP_BNE: FOR_LANES(M, full, n, taken |= (uint64_t)(a[l] != b[l]) << l); break;
    case OP_BLT:
      FOR_LANES(M, full, n,
                taken |= (uint64_t)((int32_t)a[l] < (int32_t)b[l]) << l);
      break;
    case OP_BGE:
      FOR_LANES(M, full, n,
                taken |= (uint64_t)((int32_t)a[l] >= (int32_t)b[l]) << l);
      break;
    case OP_BLTU: FOR_LANES(M, full, n, taken |= (uint64_t)(a[l] < b[l]) << l); break;
    default: FOR_LANES(M, full, n, taken |= (uint64_t)(a[l] >= b[l]) << l); break;
    }
    written = 0;
    if (taken == 0) {
      path_replace_head(m, w, key_next, M);
      break;
    }
    uint32_t target = pc + imm;
    if (check_target(m, wi, CTZ64(taken), pc, target))
      return -1;
    uint64_t key_target = simty_path_key(target, depth);
    if (taken == M) {
      path_replace_head(m, w, key_target, M);
    } else {
      m->ctr[SIMTY_CTR_divergent_branches]++;
      path_split_head(m, w, key_target, taken, key_next, M & ~taken);
    }
    break;
  }

  case OP_JAL: {
    uint32_t target = pc + imm;
    if (check_target(m, wi, CTZ64(M), pc, target))
      return -1;
    FOR_LANES(M, full, n, d[l] = pc + 4);
    path_replace_head(m, w, simty_path_key(target, depth_after(depth, in)),
                      M);
    break;
  }

  case OP_JALR: {
    /* Lanes following the leader's target, found before rd is written
     * (rd may be rs1). */
    unsigned leader = CTZ64(M);
    uint32_t target = (a[leader] + imm) & ~1u;
    if (check_target(m, wi, leader, pc, target))
      return -1;
    uint64_t same = 0;
    FOR_LANES(M, full, n,
              same |= (uint64_t)(((a[l] + imm) & ~1u) == target) << l);
    retired = written = same;
    FOR_LANES(same, same == m->full_mask, n, d[l] = pc + 4);
    uint64_t key_target = simty_path_key(target, depth_after(depth, in));
    if (same == M) {
      path_replace_head(m, w, key_target, M);
    } else {
      m->ctr[SIMTY_CTR_replays_indirect]++;
      path_split_head(m, w, key_target, same, key, M & ~same);
    }
    break;
  }

  case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU: {
    static const uint8_t size_of[] = {[OP_LB] = 1, [OP_LH] = 2, [OP_LW] = 4,
                                      [OP_LBU] = 1, [OP_LHU] = 2};
    const unsigned size = size_of[in->op];
    const uint32_t align = size - 1, last = m->data_size - size;
    /* lane l's own stack is region own - l of the area */
    const uint32_t own = (m->area_size >> m->stack_log2) - 1u - wi * n;
    uint32_t addr[SIMTY_MODEL_MAX_LANES], paddr[SIMTY_MODEL_MAX_LANES];
    uint64_t bad = 0;
    FOR_LANES(M, full, n, {
      uint32_t ad = a[l] + imm;
      addr[l] = ad;
      paddr[l] = stack_phys(m, ad);
      bad |= (uint64_t)((ad & align) != 0 || ad - SIMTY_DATA_BASE > last ||
                        stack_foreign(m, ad, own - l))
             << l;
    });
    if (bad) {
      unsigned l = CTZ64(bad);
      simty__model_fault(m, wi, l,
                         mem_cause(addr[l], align,
                                   addr[l] - SIMTY_DATA_BASE <= last, 0),
                         pc, addr[l]);
      return -1;
    }
    const uint64_t served = served_lanes(m, M, paddr);
    const int sfull = served == m->full_mask;
    const uint8_t *mem = m->data - SIMTY_DATA_BASE;
    switch ((enum simty_op)in->op) {
    case OP_LB:
      FOR_LANES(served, sfull, n,
                d[l] = (uint32_t)(int32_t)(int8_t)ld_u8(mem + paddr[l]));
      break;
    case OP_LH:
      FOR_LANES(served, sfull, n,
                d[l] = (uint32_t)(int32_t)(int16_t)ld_u16(mem + paddr[l]));
      break;
    case OP_LW: FOR_LANES(served, sfull, n, d[l] = ld_u32(mem + paddr[l])); break;
    case OP_LBU: FOR_LANES(served, sfull, n, d[l] = ld_u8(mem + paddr[l])); break;
    default: FOR_LANES(served, sfull, n, d[l] = ld_u16(mem + paddr[l])); break;
    }
    if (m->race_fn)
      simty__model_race_access(m, wi, served, addr, size, pc, 0);
    retired = written = served;
    goto memory_done;
  }

  case OP_SB: case OP_SH: case OP_SW: {
    const unsigned size = in->op == OP_SB ? 1 : in->op == OP_SH ? 2 : 4;
    const uint32_t align = size - 1, last = m->data_size - size;
    /* lane l's own stack is region own - l of the area */
    const uint32_t own = (m->area_size >> m->stack_log2) - 1u - wi * n;
    uint32_t addr[SIMTY_MODEL_MAX_LANES], paddr[SIMTY_MODEL_MAX_LANES];
    uint64_t bad = 0;
    FOR_LANES(M, full, n, {
      uint32_t ad = a[l] + imm;
      addr[l] = ad;
      paddr[l] = stack_phys(m, ad);
      bad |= (uint64_t)((ad & align) != 0 ||
                        (ad - SIMTY_DATA_BASE > last &&
                         ad - SIMTY_CONSOLE_ADDR > 4u - size) ||
                        stack_foreign(m, ad, own - l))
             << l;
    });
    if (bad) {
      unsigned l = CTZ64(bad);
      simty__model_fault(m, wi, l,
                         mem_cause(addr[l], align,
                                   addr[l] - SIMTY_DATA_BASE <= last ||
                                       addr[l] - SIMTY_CONSOLE_ADDR <=
                                           4u - size,
                                   1),
                         pc, addr[l]);
      return -1;
    }
    const uint32_t leader_addr = paddr[CTZ64(M)];
    const uint64_t served = served_lanes(m, M, paddr);
    if (leader_addr - SIMTY_CONSOLE_ADDR < 4u) {
      /* The console word is its own line: every console lane is served,
       * bytes in lane order (under rotate too: every console lane is at
       * the leader's word, a broadcast). */
      if (m->console_fn)
        for (uint64_t s = served; s; s &= s - 1) {
          unsigned l = CTZ64(s);
          m->console_fn(m->console_user, w->base_tid + l, (uint8_t)b[l]);
        }
    } else {
      uint8_t *mem = m->data - SIMTY_DATA_BASE;
      /* Ascending lane order: the higher lane's bytes remain. */
      FOR_LANES(served, served == m->full_mask, n,
                st_bytes(mem + paddr[l], b[l], size));
      if (m->nresv)
        for (uint64_t s = served; s; s &= s - 1)
          simty__model_resv_kill(m, paddr[CTZ64(s)]);
      if (m->race_fn)
        simty__model_race_access(m, wi, served, addr, size, pc, 1);
    }
    retired = served;
    written = 0;
    goto memory_done;
  }

  case OP_LR: case OP_SC: case OP_AMOSWAP: case OP_AMOADD: case OP_AMOXOR:
  case OP_AMOAND: case OP_AMOOR: case OP_AMOMIN: case OP_AMOMAX:
  case OP_AMOMINU: case OP_AMOMAXU: {
    /* Word accesses to DATA only; lr.w faults as a load, the others as a
     * store. Served lanes apply one after the other in lane order, each
     * reading the value the previous lane left (architecture.md 3). */
    const int is_lr = in->op == OP_LR;
    const uint32_t last = m->data_size - 4;
    /* lane l's own stack is region own - l of the area */
    const uint32_t own = (m->area_size >> m->stack_log2) - 1u - wi * n;
    uint32_t addr[SIMTY_MODEL_MAX_LANES];
    uint64_t bad = 0;
    FOR_LANES(M, full, n, {
      uint32_t ad = a[l]; /* no offset: the address is rs1 */
      addr[l] = ad;
      bad |= (uint64_t)((ad & 3) != 0 || ad - SIMTY_DATA_BASE > last ||
                        stack_foreign(m, ad, own - l))
             << l;
    });
    if (bad) {
      unsigned l = CTZ64(bad);
      simty__model_fault(m, wi, l,
                         mem_cause(addr[l], 3,
                                   addr[l] - SIMTY_DATA_BASE <= last, !is_lr),
                         pc, addr[l]);
      return -1;
    }
    /* From here on, physical addresses (reservations included). */
    FOR_LANES(M, full, n, addr[l] = stack_phys(m, addr[l]));
    const uint64_t served = served_lanes(m, M, addr);
    uint8_t *mem = m->data - SIMTY_DATA_BASE;
    uint32_t *resv = m->resv + (size_t)wi * n;
    /* rd is written after every lane has read its operands: rd may be
     * rs1 or rs2 of a later lane. */
    uint32_t old[SIMTY_MODEL_MAX_LANES];
    for (uint64_t s = served; s; s &= s - 1) {
      unsigned l = CTZ64(s);
      uint8_t *p = mem + addr[l];
      uint32_t v = ld_u32(p), src = b[l], nv;
      old[l] = v;
      switch ((enum simty_op)in->op) {
      case OP_LR:
        if (!resv[l])
          m->nresv++;
        resv[l] = addr[l];
        continue;
      case OP_SC:
        if (resv[l] == addr[l]) {
          resv[l] = 0;
          m->nresv--;
          st_bytes(p, src, 4);
          simty__model_resv_kill(m, addr[l]);
          old[l] = 0;
        } else {
          if (resv[l]) {
            resv[l] = 0;
            m->nresv--;
          }
          old[l] = 1;
        }
        continue;
      case OP_AMOSWAP: nv = src; break;
      case OP_AMOADD: nv = v + src; break;
      case OP_AMOXOR: nv = v ^ src; break;
      case OP_AMOAND: nv = v & src; break;
      case OP_AMOOR: nv = v | src; break;
      case OP_AMOMIN: nv = (int32_t)v < (int32_t)src ? v : src; break;
      case OP_AMOMAX: nv = (int32_t)v > (int32_t)src ? v : src; break;
      case OP_AMOMINU: nv = v < src ? v : src; break;
      default: nv = v > src ? v : src; break; /* OP_AMOMAXU */
      }
      st_bytes(p, nv, 4);
      simty__model_resv_kill(m, addr[l]);
    }
    FOR_LANES(served, served == m->full_mask, n, d[l] = old[l]);
    retired = written = served;
    goto memory_done;
  }

  case OP_ECALL:
    path_end_head(m, w, M); /* the threads of M end */
    written = 0;
    break;

  case OP_EBREAK:
    simty__model_fault(m, wi, CTZ64(M), SIMTY_FAULT_EBREAK, pc, 0);
    return -1;

  default: /* OP_ILLEGAL */
    simty__model_fault(m, wi, CTZ64(M), SIMTY_FAULT_ILLEGAL_INSTRUCTION, pc,
                       in->word);
    return -1;
  }
  goto retire;

memory_done:
  m->ctr[SIMTY_CTR_mem_requests] += POP64(retired);
  m->ctr[SIMTY_CTR_mem_transactions]++;
  if (retired == M) {
    path_replace_head(m, w, key_next, M);
  } else {
    m->ctr[SIMTY_CTR_replays_mem]++;
    path_split_head(m, w, key_next, retired, key, M & ~retired);
  }
  goto retire;

seq:
  path_replace_head(m, w, key_next, M);

retire:
  if (in->rd != SIMTY_REG_SINK && (written & (written - 1)))
    classify(m, d, written);
  m->ctr[SIMTY_CTR_warp_insts]++;
  m->ctr[SIMTY_CTR_thread_insts] += POP64(retired);
  if (m->isa & SIMTY_EXT_ZICNTR) {
    uint64_t *ir = m->instret + (size_t)wi * n;
    FOR_LANES(retired, retired == m->full_mask, n, ir[l]++);
  }
  if (m->trace_fn)
    m->trace_fn(m->trace_user, w->base_tid, pc, retired);
  if (m->stats)
    count_defuse(m, wi, in, written);
  return 0;
#undef REG
}
