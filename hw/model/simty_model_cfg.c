/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_cfg.c - static control-flow analysis of CODE for the ipdom
 * reconvergence policy (a model-only study option).
 *
 * Each function (from the ELF's sized STT_FUNC symbols; uncovered runs of
 * CODE become pseudo-functions) is a graph of instruction nodes plus one
 * virtual EXIT node:
 *   - a conditional branch goes to pc + 4 and to its target;
 *   - jal x0 goes to its target, or to EXIT when the target lies outside
 *     the function (a tail call);
 *   - a call (jal/jalr with a link register) falls through to pc + 4;
 *   - a return (jalr x0, 0(ra)), ecall, ebreak and illegal words go to
 *     EXIT, as does falling off the end of the function;
 *   - any other jalr x0 (an indirect jump) goes to the targets of its
 *     jump table when the table is found (below), else to EXIT.
 * Immediate post-dominators are the dominators of the reverse graph
 * rooted at EXIT (Cooper, Harvey and Kennedy's iterative algorithm).
 *
 * The result, per CODE word, is where the lanes of a divergence at that
 * instruction meet again: for a branch or indirect jump its immediate
 * post-dominator (SIMTY_RPC_EXIT when that is EXIT, SIMTY_RPC_NONE when
 * the instruction cannot reach EXIT), for a call or a memory access
 * (whose lanes may be served in turns) pc + 4, for a return
 * SIMTY_RPC_NONE.
 *
 * Jump tables: for `jalr x0, 0(r)`, the latest writer of r in the 16
 * instructions before it must be `lw r, off(b)`, the writer of b
 * `add b, x, y` with x or y a constant (lui, lui+addi, auipc+addi) T:
 * the table is at T + off. Its size is N + 1 when a bltu/bgeu against a
 * constant N precedes (the bounds check), else it runs while its words
 * are aligned addresses inside the function. Tables are read from the
 * device memory (CODE or DATA) as loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "simty_elf.h"
#include "simty_model_internal.h"

#define WINDOW 16u       /* instructions searched back for a table */
#define MAX_TABLE 4096u  /* entries of one jump table */

static uint32_t rd_word(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* A word of device memory (CODE or DATA); -1 if outside. */
static int mem_word(const struct simty_model *m, uint32_t addr, uint32_t *out)
{
  if (addr & 3)
    return -1;
  if (addr - SIMTY_CODE_BASE < m->code_size) {
    *out = rd_word(m->code + (addr - SIMTY_CODE_BASE));
    return 0;
  }
  if (addr - SIMTY_DATA_BASE < m->data_size) {
    *out = rd_word(m->data + (addr - SIMTY_DATA_BASE));
    return 0;
  }
  return -1;
}

static int is_branch(unsigned op)
{
  return op >= OP_BEQ && op <= OP_BGEU;
}

static int is_return(const struct simty_insn *in)
{
  return in->op == OP_JALR && in->rd == SIMTY_REG_SINK && in->rs1 == 1 &&
         in->imm == 0;
}

/* Does the instruction write register r (1..31)? */
static int writes(const struct simty_insn *in, unsigned r)
{
  unsigned op = in->op;
  if (in->rd != r)
    return 0;
  return !(is_branch(op) || op == OP_SB || op == OP_SH || op == OP_SW ||
           op == OP_FENCE || op == OP_ECALL || op == OP_EBREAK ||
           op == OP_ILLEGAL);
}

/* The latest writer of r in words [lo, i), at most WINDOW back: its
 * index, or -1. */
static long writer(const struct simty_model *m, uint32_t lo, uint32_t i,
                   unsigned r)
{
  for (uint32_t k = 0; k < WINDOW && i > lo; k++) {
    i--;
    if (writes(&m->decoded[i], r))
      return (long)i;
  }
  return -1;
}

/* The constant r holds before word i (lui, auipc, addi of those), or -1. */
static int const_of(const struct simty_model *m, uint32_t lo, uint32_t i,
                    unsigned r, uint32_t *out, int depth)
{
  if (r == 0) {
    *out = 0;
    return 0;
  }
  long w = writer(m, lo, i, r);
  if (w < 0 || depth > 3)
    return -1;
  const struct simty_insn *in = &m->decoded[w];
  uint32_t pc = SIMTY_CODE_BASE + (uint32_t)w * 4, v;
  switch (in->op) {
  case OP_LUI: *out = (uint32_t)in->imm; return 0;
  case OP_AUIPC: *out = pc + (uint32_t)in->imm; return 0;
  case OP_ADDI:
    if (const_of(m, lo, (uint32_t)w, in->rs1, &v, depth + 1))
      return -1;
    *out = v + (uint32_t)in->imm;
    return 0;
  default: return -1;
  }
}

/* Jump table of the indirect jump at word i of function [lo, hi): fills
 * targets (word indices) and returns their count, 0 if not found. */
static uint32_t jump_table(const struct simty_model *m, uint32_t lo,
                           uint32_t hi, uint32_t i, uint32_t *targets)
{
  const struct simty_insn *j = &m->decoded[i];
  long wl = writer(m, lo, i, j->rs1);
  if (wl < 0 || m->decoded[wl].op != OP_LW || j->imm != 0)
    return 0;
  const struct simty_insn *ld = &m->decoded[wl];
  long wa = writer(m, lo, (uint32_t)wl, ld->rs1);
  if (wa < 0 || m->decoded[wa].op != OP_ADD)
    return 0;
  const struct simty_insn *add = &m->decoded[wa];
  uint32_t base;
  if (const_of(m, lo, (uint32_t)wa, add->rs1, &base, 0) &&
      const_of(m, lo, (uint32_t)wa, add->rs2, &base, 0))
    return 0;
  base += (uint32_t)ld->imm;

  /* The bounds check: the nearest bltu/bgeu with a constant operand. */
  uint32_t bound = 0;
  for (uint32_t k = (uint32_t)wa, n = 0; k > lo && n < WINDOW; n++) {
    const struct simty_insn *b = &m->decoded[--k];
    if (b->op != OP_BLTU && b->op != OP_BGEU)
      continue;
    uint32_t c;
    if (!const_of(m, lo, k, b->rs1, &c, 0) ||
        !const_of(m, lo, k, b->rs2, &c, 0))
      bound = c < MAX_TABLE ? c + 1 : 0;
    break;
  }
  uint32_t count = 0, limit = bound ? bound : MAX_TABLE;
  for (; count < limit; count++) {
    uint32_t t;
    if (mem_word(m, base + 4 * count, &t) || (t & 3) ||
        t - SIMTY_CODE_BASE >= m->code_size ||
        (t - SIMTY_CODE_BASE) / 4 < lo || (t - SIMTY_CODE_BASE) / 4 >= hi)
      break;
    targets[count] = (t - SIMTY_CODE_BASE) / 4;
  }
  if (bound && count != bound)
    return 0; /* a bounded table with a word that is no target: unsure */
  return count;
}

/* Graph of one function: nodes 0..n-1 = words lo.., node n = EXIT. */
struct graph {
  uint32_t n;
  uint32_t *succ_start, *succ; /* CSR successors */
  uint32_t *pred_start, *pred; /* CSR predecessors */
};

static int analyse_function(struct simty_model *m, uint32_t lo, uint32_t hi,
                            uint32_t *scratch_targets)
{
  const uint32_t n = hi - lo, exit_node = n;
  struct simty_model_cfg_info *info = &m->cfg_info;
  int rc = SIMTY_MODEL_NOMEM;
  /* Edges: at most 2 per node plus the jump tables' entries. */
  size_t cap = 2 * (size_t)n + 2, ne = 0;
  uint32_t *from = malloc(cap * sizeof(*from)), *to = malloc(cap * sizeof(*to));
  uint32_t *succ_start = calloc(n + 2, sizeof(uint32_t));
  uint32_t *pred_start = calloc(n + 2, sizeof(uint32_t));
  uint32_t *succ = NULL, *pred = NULL, *order = NULL, *po = NULL,
           *idom = NULL, *stack = NULL, *it = NULL;
  if (!from || !to || !succ_start || !pred_start)
    goto out;

#define EDGE(a, b)                                                           \
  do {                                                                       \
    if (ne == cap) {                                                         \
      cap *= 2;                                                              \
      uint32_t *f2 = realloc(from, cap * sizeof(*from));                     \
      if (!f2)                                                               \
        goto out;                                                            \
      from = f2;                                                             \
      uint32_t *t2 = realloc(to, cap * sizeof(*to));                         \
      if (!t2)                                                               \
        goto out;                                                            \
      to = t2;                                                               \
    }                                                                        \
    from[ne] = (a);                                                          \
    to[ne++] = (b);                                                          \
  } while (0)

  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = lo + k;
    const struct simty_insn *in = &m->decoded[i];
    uint32_t next = k + 1 < n ? k + 1 : exit_node;
    uint32_t tgt = i + (uint32_t)(in->imm / 4); /* word index, wraps */
    uint32_t tnode = tgt >= lo && tgt < hi && (in->imm & 3) == 0
                         ? tgt - lo : exit_node;
    switch (in->op) {
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
    case OP_BGEU:
      info->branches++;
      EDGE(k, next);
      EDGE(k, tnode);
      break;
    case OP_JAL:
      EDGE(k, in->rd == SIMTY_REG_SINK ? tnode : next);
      break;
    case OP_JALR:
      if (in->rd != SIMTY_REG_SINK) {
        EDGE(k, next); /* a call */
      } else if (is_return(in)) {
        EDGE(k, exit_node);
      } else {
        uint32_t c = jump_table(m, lo, hi, i, scratch_targets);
        if (c) {
          info->jump_tables++;
          for (uint32_t e = 0; e < c; e++)
            EDGE(k, scratch_targets[e] - lo);
        } else {
          info->unresolved++;
          EDGE(k, exit_node);
        }
      }
      break;
    case OP_ECALL: case OP_EBREAK: case OP_ILLEGAL:
      EDGE(k, exit_node);
      break;
    default:
      EDGE(k, next);
      break;
    }
  }
#undef EDGE

  succ = malloc((ne + 1) * sizeof(*succ));
  pred = malloc((ne + 1) * sizeof(*pred));
  order = malloc((n + 1) * sizeof(*order)); /* postorder -> node */
  po = malloc((n + 1) * sizeof(*po));       /* node -> postorder number */
  idom = malloc((n + 1) * sizeof(*idom));
  stack = malloc((n + 1) * sizeof(*stack));
  it = malloc((n + 1) * sizeof(*it));
  if (!succ || !pred || !order || !po || !idom || !stack || !it)
    goto out;
  for (size_t e = 0; e < ne; e++) {
    succ_start[from[e] + 1]++;
    pred_start[to[e] + 1]++;
  }
  for (uint32_t k = 0; k <= n; k++) {
    succ_start[k + 1] += succ_start[k];
    pred_start[k + 1] += pred_start[k];
  }
  {
    uint32_t *fs = it; /* fill cursors, reused below */
    memcpy(fs, succ_start, (n + 1) * sizeof(*fs));
    for (size_t e = 0; e < ne; e++)
      succ[fs[from[e]]++] = to[e];
    memcpy(fs, pred_start, (n + 1) * sizeof(*fs));
    for (size_t e = 0; e < ne; e++)
      pred[fs[to[e]]++] = from[e];
  }

  /* Postorder of the reverse graph from EXIT (its edges: pred). */
  const uint32_t UNSEEN = UINT32_MAX;
  for (uint32_t k = 0; k <= n; k++) {
    po[k] = UNSEEN;
    idom[k] = UNSEEN;
  }
  uint32_t npo = 0, sp = 0;
  stack[sp] = exit_node;
  it[sp++] = pred_start[exit_node];
  po[exit_node] = UNSEEN - 1; /* on the stack */
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (it[sp - 1] < pred_start[v + 1]) {
      uint32_t u = pred[it[sp - 1]++];
      if (po[u] == UNSEEN) {
        po[u] = UNSEEN - 1;
        stack[sp] = u;
        it[sp++] = pred_start[u];
      }
    } else {
      po[v] = npo;
      order[npo++] = v;
      sp--;
    }
  }

  /* Dominators of the reverse graph: a node's reverse predecessors are
   * its successors. */
  idom[exit_node] = exit_node;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t r = npo - 1; r-- > 0;) { /* reverse postorder, root out */
      uint32_t v = order[r], nd = UNSEEN;
      for (uint32_t e = succ_start[v]; e < succ_start[v + 1]; e++) {
        uint32_t s = succ[e];
        if (idom[s] == UNSEEN)
          continue;
        if (nd == UNSEEN) {
          nd = s;
          continue;
        }
        uint32_t a = s, b = nd;
        while (a != b) {
          while (po[a] < po[b])
            a = idom[a];
          while (po[b] < po[a])
            b = idom[b];
        }
        nd = a;
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = 1;
      }
    }
  }

  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = lo + k, pc = SIMTY_CODE_BASE + i * 4;
    const struct simty_insn *in = &m->decoded[i];
    uint32_t r = SIMTY_RPC_NONE;
    int jump = in->op == OP_JALR && in->rd == SIMTY_REG_SINK;
    if (is_branch(in->op) || (jump && !is_return(in))) {
      if (idom[k] == UNSEEN) {
        info->no_ipdom++;
      } else if (idom[k] == exit_node) {
        info->to_exit++;
        r = SIMTY_RPC_EXIT;
      } else {
        r = SIMTY_CODE_BASE + (lo + idom[k]) * 4;
      }
    } else if (!jump) {
      r = pc + 4; /* calls, memory accesses: their own lanes, served in
                     turns, meet at the next instruction */
    }
    m->rpc[i] = r;
  }
  rc = 0;
out:
  free(from);
  free(to);
  free(succ_start);
  free(pred_start);
  free(succ);
  free(pred);
  free(order);
  free(po);
  free(idom);
  free(stack);
  free(it);
  return rc;
}

static int cmp_func(const void *a, const void *b)
{
  const struct simty_model_func *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int simty__model_cfg_analyse(struct simty_model *m)
{
  const uint32_t words = m->code_size / 4;
  memset(&m->cfg_info, 0, sizeof(m->cfg_info));
  if (!m->rpc) {
    m->rpc = malloc((words + 1) * sizeof(*m->rpc));
    if (!m->rpc)
      return SIMTY_MODEL_NOMEM;
  }
  uint32_t *targets = malloc(MAX_TABLE * sizeof(*targets));
  if (!targets)
    return SIMTY_MODEL_NOMEM;
  /* Functions in word indices, sorted, clipped to CODE and to each
   * other; the gaps become pseudo-functions. */
  uint32_t pos = 0;
  int rc = 0;
  for (size_t f = 0; f <= m->nfuncs && rc == 0; f++) {
    uint32_t lo = words, hi = words;
    if (f < m->nfuncs) {
      uint32_t a = m->funcs[f].addr - SIMTY_CODE_BASE;
      if (m->funcs[f].addr < SIMTY_CODE_BASE || a >= m->code_size)
        continue;
      uint64_t end = (uint64_t)a + m->funcs[f].size;
      lo = a / 4;
      hi = (uint32_t)((end > m->code_size ? m->code_size : end) + 3) / 4;
      if (lo < pos)
        lo = pos;
      if (hi <= lo)
        continue;
    }
    if (pos < lo) { /* the gap before */
      m->cfg_info.functions++;
      rc = analyse_function(m, pos, lo, targets);
      if (rc)
        break;
    }
    if (lo < hi) {
      m->cfg_info.functions++;
      rc = analyse_function(m, lo, hi, targets);
    }
    pos = hi;
  }
  free(targets);
  if (rc == 0)
    m->rpc_valid = 1;
  return rc;
}

int simty_model_set_functions(simty_model *m,
                              const struct simty_model_func *funcs, size_t n)
{
  if (!m || (!funcs && n))
    return SIMTY_MODEL_INVALID;
  if (m->status == SIMTY_MODEL_RUNNING)
    return SIMTY_MODEL_BUSY;
  struct simty_model_func *copy = NULL;
  if (n) {
    copy = malloc(n * sizeof(*copy));
    if (!copy)
      return SIMTY_MODEL_NOMEM;
    memcpy(copy, funcs, n * sizeof(*copy));
    qsort(copy, n, sizeof(*copy), cmp_func);
  }
  free(m->funcs);
  m->funcs = copy;
  m->nfuncs = n;
  m->rpc_valid = 0;
  return SIMTY_MODEL_OK;
}

int simty_model_functions_from_elf(simty_model *m,
                                   const struct simty_elf *elf)
{
  if (!m || !elf)
    return SIMTY_MODEL_INVALID;
  size_t n = 0;
  struct simty_model_func *f =
      malloc((elf->symbol_count + 1) * sizeof(*f));
  if (!f)
    return SIMTY_MODEL_NOMEM;
  for (uint32_t i = 0; elf->symtab && i < elf->symbol_count; i++) {
    const uint8_t *sym = elf->symtab + (size_t)i * 16; /* Elf32_Sym */
    uint32_t value = rd_word(sym + 4), size = rd_word(sym + 8);
    unsigned type = sym[12] & 0xf, shndx = sym[14] | sym[15] << 8;
    if (type == 2 /* STT_FUNC */ && size && shndx != 0)
      f[n++] = (struct simty_model_func){value, size};
  }
  int rc = simty_model_set_functions(m, f, n);
  free(f);
  return rc;
}

int simty_model_cfg_info(simty_model *m, struct simty_model_cfg_info *out)
{
  if (!m->rpc_valid) {
    int rc = simty__model_cfg_analyse(m);
    if (rc)
      return rc;
  }
  *out = m->cfg_info;
  return 0;
}

uint32_t simty_model_ipdom_of(simty_model *m, uint32_t pc)
{
  if ((!m->rpc_valid && simty__model_cfg_analyse(m)) ||
      pc - SIMTY_CODE_BASE >= m->code_size || (pc & 3))
    return SIMTY_RPC_NONE;
  return m->rpc[(pc - SIMTY_CODE_BASE) / 4];
}
