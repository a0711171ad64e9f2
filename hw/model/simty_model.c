/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model.c - model handle, device memory, launch, grid dispatcher and
 * round-robin scheduler (see simty_model.h and hw/model/README.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_model_internal.h"

const char *simty_model_strerror(int error)
{
  switch (error) {
#define SIMTY_X_(name, code, text)                                           \
  case code:                                                                 \
    return text;
    SIMTY_MODEL_ERROR_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "unknown error";
  }
}

static int fail(struct simty_model *m, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->error, sizeof(m->error), fmt, ap);
  va_end(ap);
  return code;
}

static int is_pow2(unsigned v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

static unsigned log2u(unsigned v)
{
  unsigned s = 0;
  while ((1u << s) < v)
    s++;
  return s;
}

static void decode_range(struct simty_model *m, uint32_t off, size_t len)
{
  uint32_t first = off / 4, last = (uint32_t)((off + len + 3) / 4);
  for (uint32_t i = first; i < last; i++) {
    const uint8_t *p = m->code + (size_t)i * 4;
    uint32_t word = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    simty__model_decode(word, m->isa, &m->decoded[i]);
  }
}

int simty_model_create(const struct simty_model_config *config,
                       simty_model **out)
{
  if (!config || !out)
    return SIMTY_MODEL_INVALID;
  *out = NULL;
  uint32_t code_size = config->code_size ? config->code_size
                                         : SIMTY_DEFAULT_CODE_SIZE;
  uint32_t data_size = config->data_size ? config->data_size
                                         : SIMTY_DEFAULT_DATA_SIZE;
  if (!is_pow2(config->warps) || config->warps > SIMTY_MODEL_MAX_WARPS ||
      !is_pow2(config->lanes) || config->lanes > SIMTY_MODEL_MAX_LANES ||
      code_size % 4 != 0 || code_size > SIMTY_CODE_WINDOW ||
      data_size % 4 != 0 || data_size > SIMTY_DATA_WINDOW ||
      config->xbar >= SIMTY_XBAR_COUNT)
    return SIMTY_MODEL_INVALID;

  struct simty_model *m = calloc(1, sizeof(*m));
  if (!m)
    return SIMTY_MODEL_NOMEM;
  m->warps = config->warps;
  m->lanes = config->lanes;
  m->lane_shift = log2u(m->lanes);
  m->line_shift = m->lane_shift + 2;
  m->xbar = config->xbar;
  m->full_mask = m->lanes == 64 ? ~0ull : (1ull << m->lanes) - 1;
  m->code_size = code_size;
  m->data_size = data_size;
  size_t regs_per_warp = (size_t)SIMTY_REG_ROWS * m->lanes;
  m->code = calloc(code_size ? code_size : 1, 1);
  m->data = calloc(data_size ? data_size : 1, 1);
  m->decoded = calloc(code_size / 4 + 1, sizeof(*m->decoded));
  m->warp = calloc(m->warps, sizeof(*m->warp));
  m->regfile = calloc(regs_per_warp * m->warps, sizeof(uint32_t));
  /* A warp holds at most one path per lane, plus one transiently while a
   * split inserts its second half. */
  m->pathstore = calloc((size_t)(m->lanes + 1) * m->warps,
                        sizeof(*m->pathstore));
  m->instret = calloc((size_t)m->warps * m->lanes, sizeof(*m->instret));
  m->resv = calloc((size_t)m->warps * m->lanes, sizeof(*m->resv));
  m->shadow = calloc(data_size / SIMTY_RACE_PAGE + 1, sizeof(*m->shadow));
  /* ipdom: a divergence turns the top into the reconvergence entry and
   * pushes at most two sides, each a strict subset of the lanes; with the
   * bottom entry that bounds the stack by 2 * lanes + 1. */
  m->stackstore = calloc((size_t)(2 * m->lanes + 2) * m->warps,
                         sizeof(*m->stackstore));
  if (!m->stackstore || !m->code || !m->data || !m->decoded || !m->warp || !m->regfile ||
      !m->pathstore || !m->instret || !m->resv || !m->shadow) {
    simty_model_destroy(m);
    return SIMTY_MODEL_NOMEM;
  }
  for (unsigned i = 0; i < m->warps; i++) {
    m->warp[i].regs = m->regfile + regs_per_warp * i;
    m->warp[i].paths = m->pathstore + (size_t)(m->lanes + 1) * i;
    m->warp[i].stack = m->stackstore + (size_t)(2 * m->lanes + 2) * i;
  }
  decode_range(m, 0, code_size);
  *out = m;
  return SIMTY_MODEL_OK;
}

void simty_model_destroy(simty_model *m)
{
  if (!m)
    return;
  free(m->code);
  free(m->data);
  free(m->decoded);
  free(m->warp);
  free(m->regfile);
  free(m->pathstore);
  free(m->instret);
  free(m->resv);
  free(m->stackstore);
  free(m->funcs);
  free(m->rpc);
  free(m->stats);
  if (m->shadow)
    simty__model_race_reset(m);
  free(m->shadow);
  free(m);
}

void simty_model_get_config(const simty_model *m,
                            struct simty_model_config *out)
{
  out->warps = m->warps;
  out->lanes = m->lanes;
  out->code_size = m->code_size;
  out->data_size = m->data_size;
  out->xbar = m->xbar;
}

static const char *const xbar_names[SIMTY_XBAR_COUNT] = {"full", "rotate"};

const char *simty_model_xbar_name(unsigned xbar)
{
  return xbar < SIMTY_XBAR_COUNT ? xbar_names[xbar] : NULL;
}

int simty_model_xbar_parse(const char *name, unsigned *xbar)
{
  for (unsigned x = 0; name && x < SIMTY_XBAR_COUNT; x++)
    if (strcmp(name, xbar_names[x]) == 0) {
      *xbar = x;
      return 0;
    }
  return -1;
}

/* Locate [addr, addr + len) in CODE or DATA: the host pointer, or NULL. */
static uint8_t *locate(const struct simty_model *m, uint32_t addr, size_t len,
                       int *is_code)
{
  /* Offsets from each base, never addr + len: a length near SIZE_MAX
   * would wrap that sum back into range. */
  if (addr >= SIMTY_CODE_BASE && addr - SIMTY_CODE_BASE <= m->code_size &&
      len <= (size_t)(m->code_size - (addr - SIMTY_CODE_BASE))) {
    *is_code = 1;
    return m->code + (addr - SIMTY_CODE_BASE);
  }
  if (addr >= SIMTY_DATA_BASE && addr - SIMTY_DATA_BASE <= m->data_size &&
      len <= (size_t)(m->data_size - (addr - SIMTY_DATA_BASE))) {
    *is_code = 0;
    return m->data + (addr - SIMTY_DATA_BASE);
  }
  return NULL;
}

int simty_model_write(simty_model *m, uint32_t addr, const void *src,
                      size_t len)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (!src && len)
    return fail(m, SIMTY_MODEL_INVALID, "write from a NULL buffer");
  if (len == 0)
    return SIMTY_MODEL_OK;
  int is_code;
  uint8_t *p = locate(m, addr, len, &is_code);
  if (!p)
    return fail(m, SIMTY_MODEL_RANGE,
                "write of %zu bytes at 0x%08x is outside CODE (0x%08x, %u "
                "bytes) and DATA (0x%08x, %u bytes)",
                len, addr, SIMTY_CODE_BASE, m->code_size, SIMTY_DATA_BASE,
                m->data_size);
  memcpy(p, src, len);
  if (is_code) {
    decode_range(m, addr - SIMTY_CODE_BASE, len);
    m->rpc_valid = 0;
  }
  return SIMTY_MODEL_OK;
}

int simty_model_read(simty_model *m, uint32_t addr, void *dst, size_t len)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (!dst && len)
    return fail(m, SIMTY_MODEL_INVALID, "read into a NULL buffer");
  if (len == 0)
    return SIMTY_MODEL_OK;
  int is_code;
  const uint8_t *p = locate(m, addr, len, &is_code);
  if (!p)
    return fail(m, SIMTY_MODEL_RANGE,
                "read of %zu bytes at 0x%08x is outside CODE (0x%08x, %u "
                "bytes) and DATA (0x%08x, %u bytes)",
                len, addr, SIMTY_CODE_BASE, m->code_size, SIMTY_DATA_BASE,
                m->data_size);
  memcpy(dst, p, len);
  return SIMTY_MODEL_OK;
}

void simty_model_set_console(simty_model *m, simty_model_console_fn fn,
                             void *user)
{
  m->console_fn = fn;
  m->console_user = user;
}

void simty_model_set_trace(simty_model *m, simty_model_trace_fn fn,
                           void *user)
{
  m->trace_fn = fn;
  m->trace_user = user;
}

int simty_model_launch(simty_model *m,
                       const struct simty_model_launch_params *p)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (!p)
    return fail(m, SIMTY_MODEL_INVALID, "no launch parameters");
  if (m->status == SIMTY_MODEL_RUNNING)
    return fail(m, SIMTY_MODEL_BUSY, "a launch is still running");
  unsigned stack_log2 = p->stack_log2 ? p->stack_log2
                                      : SIMTY_STACK_LOG2_DEFAULT;
  if (p->nthreads == 0 || p->nthreads > SIMTY_MAX_THREADS)
    return fail(m, SIMTY_MODEL_INVALID,
                "thread count %u is outside 1..%u", p->nthreads,
                SIMTY_MAX_THREADS);
  if (stack_log2 < SIMTY_STACK_LOG2_MIN || stack_log2 > SIMTY_STACK_LOG2_MAX)
    return fail(m, SIMTY_MODEL_INVALID, "stack_log2 %u is outside %u..%u",
                stack_log2, SIMTY_STACK_LOG2_MIN, SIMTY_STACK_LOG2_MAX);
  if (p->entry % 4 != 0 || p->entry - SIMTY_CODE_BASE >= m->code_size)
    return fail(m, SIMTY_MODEL_INVALID,
                "entry 0x%08x is not a 4-aligned address in CODE", p->entry);
  uint64_t stacks = (uint64_t)m->warps * m->lanes << stack_log2;
  uint32_t stack_top = SIMTY_DATA_BASE + m->data_size;
  if (stacks > m->data_size || stack_top - stacks < p->data_end)
    return fail(m, SIMTY_MODEL_STACK_OVERLAP,
                "%u thread stacks of %u bytes (0x%08llx..0x%08x) overlap "
                "kernel data ending at 0x%08x",
                m->warps * m->lanes, 1u << stack_log2,
                (unsigned long long)((uint64_t)stack_top - stacks), stack_top,
                p->data_end);
  /* Interleaving rotates address bits inside the area: it must be
   * aligned to its size (always so when data_size is a power of two). */
  if (m->data_size % stacks != 0)
    return fail(m, SIMTY_MODEL_INVALID,
                "the stack area of %u threads x %u bytes (0x%llx bytes) does "
                "not divide the data size 0x%x: the area must be aligned to "
                "its size (use a power-of-two data size)",
                m->warps * m->lanes, 1u << stack_log2,
                (unsigned long long)stacks, m->data_size);

  if (m->policy == SIMTY_POLICY_IPDOM && !m->rpc_valid &&
      simty__model_cfg_analyse(m) != 0)
    return fail(m, SIMTY_MODEL_NOMEM, "no memory for the ipdom analysis");
  m->key_rot = m->policy == SIMTY_POLICY_PC ? 32u : 0u;
  memset(m->defuse, 0, sizeof(m->defuse));
  if (m->stats)
    memset(m->stats, 0, m->warps * sizeof(*m->stats));
  m->time_base += m->ctr[SIMTY_CTR_cycles];
  simty__model_race_reset(m);
  memset(m->instret, 0, (size_t)m->warps * m->lanes * sizeof(*m->instret));
  memset(m->resv, 0, (size_t)m->warps * m->lanes * sizeof(*m->resv));
  m->nresv = 0;
  m->rng = m->seed;
  m->burst = 1;
  m->entry = p->entry;
  m->nthreads = p->nthreads;
  m->args = p->args;
  m->stack_log2 = stack_log2;
  m->stack_top = stack_top;
  m->area_size = (uint32_t)stacks;
  m->area_base = stack_top - (uint32_t)stacks;
  m->harts_shift = (unsigned)__builtin_ctz(m->warps * m->lanes);
  m->max_cycles = p->max_cycles;
  m->nblocks = ((uint64_t)p->nthreads + m->lanes - 1) >> m->lane_shift;
  m->next_block = 0;
  m->live_warps = 0;
  m->turn = 0;
  memset(&m->fault, 0, sizeof(m->fault));
  memset(m->ctr, 0, sizeof(m->ctr));
  for (unsigned i = 0; i < m->warps; i++)
    m->warp[i].npaths = 0;
  m->status = SIMTY_MODEL_RUNNING;
  m->error[0] = '\0';
  return SIMTY_MODEL_OK;
}

/* Hand the next block of LANES logical ids to free warp `wi`. */
static void dispatch(struct simty_model *m, unsigned wi)
{
  struct simty_warp *w = &m->warp[wi];
  uint64_t base = m->next_block++ << m->lane_shift;
  uint64_t count = m->nthreads - base;
  uint64_t mask = count >= m->lanes ? m->full_mask : (1ull << count) - 1;
  memset(w->regs, 0, (size_t)SIMTY_REG_ROWS * m->lanes * sizeof(uint32_t));
  w->base_tid = (uint32_t)base;
  for (unsigned l = 0; l < m->lanes; l++) /* a new thread: no reservation */
    if (m->resv[wi * m->lanes + l]) {
      m->resv[wi * m->lanes + l] = 0;
      m->nresv--;
    }
  if (m->policy == SIMTY_POLICY_IPDOM) {
    w->stack[0] = (struct simty_stack_entry){mask, m->entry, 0,
                                             SIMTY_RPC_NONE, 0, 0};
  } else {
    w->paths[0].key = simty_rotl64(simty_path_key(m->entry, 0), m->key_rot);
    w->paths[0].mask = mask;
  }
  w->npaths = 1;
  if (m->stats) /* new threads: no register written yet */
    memset(m->stats[wi].written, 0, sizeof(m->stats[wi].written));
  m->live_warps++;
}

/* Time-out and abort records name no thread: every implementation (the
 * model, the firmware watchdog, the host) can give the same record. */
static void stop_fault(struct simty_model *m, uint32_t cause)
{
  m->fault = (struct simty_model_fault){cause, 0, UINT32_MAX, UINT32_MAX, 0};
  m->status = SIMTY_MODEL_FAULTED;
}

/* splitmix64: the random schedule's generator. */
static uint64_t next_random(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The warp whose issue slot comes after `wi`'s: the next one in round
 * robin, or under a random schedule the same warp until its burst ends
 * (or it has nothing left to run), then a random warp for a random burst
 * of 1..16 slots: any warp while blocks remain to dispatch, else one of
 * the busy warps, so that the tail of a launch is not mostly idle. */
static unsigned next_turn(struct simty_model *m, unsigned wi,
                          unsigned warp_mask)
{
  if (!m->seed)
    return (wi + 1) & warp_mask;
  int more_blocks = m->next_block != m->nblocks;
  if (--m->burst > 0 && (more_blocks || m->warp[wi].npaths))
    return wi;
  uint64_t r = next_random(&m->rng);
  m->burst = 1 + (unsigned)(r >> 60);
  unsigned busy = 0;
  for (unsigned i = 0; i < m->warps; i++)
    busy += m->warp[i].npaths != 0;
  if (more_blocks || busy == 0)
    return (unsigned)r & warp_mask;
  unsigned k = (unsigned)(r % busy);
  for (unsigned i = 0; i < m->warps; i++)
    if (m->warp[i].npaths && k-- == 0)
      return i;
  return wi; /* not reached */
}

int simty_model_run(simty_model *m, uint64_t max_cycles)
{
  if (m->status == SIMTY_MODEL_IDLE)
    return fail(m, SIMTY_MODEL_NOT_LAUNCHED, "nothing was launched");
  uint64_t budget = max_cycles ? max_cycles : UINT64_MAX;
  const unsigned warp_mask = m->warps - 1;
  uint64_t *const ctr = m->ctr;
  while (m->status == SIMTY_MODEL_RUNNING && budget-- > 0) {
    if (m->max_cycles && ctr[SIMTY_CTR_cycles] >= m->max_cycles) {
      stop_fault(m, SIMTY_FAULT_TIMEOUT);
      break;
    }
    unsigned wi = m->turn;
    struct simty_warp *w = &m->warp[wi];
    ctr[SIMTY_CTR_cycles]++;
    if (w->npaths == 0) {
      if (m->next_block == m->nblocks) {
        ctr[SIMTY_CTR_sched_idle_cycles]++;
        m->turn = next_turn(m, wi, warp_mask);
        continue;
      }
      dispatch(m, wi);
    }
    if (simty__model_exec(m, wi) != 0) {
      m->status = SIMTY_MODEL_FAULTED;
      break;
    }
    m->turn = next_turn(m, wi, warp_mask);
    if (w->npaths == 0 && --m->live_warps == 0 &&
        m->next_block == m->nblocks)
      m->status = SIMTY_MODEL_DONE;
  }
  return m->status;
}

int simty_model_set_isa(simty_model *m, unsigned extensions)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (extensions & ~(SIMTY_EXT_M | SIMTY_EXT_A | SIMTY_EXT_ZICNTR))
    return fail(m, SIMTY_MODEL_INVALID, "unknown extension bits 0x%x",
                extensions);
  if (m->status == SIMTY_MODEL_RUNNING)
    return fail(m, SIMTY_MODEL_BUSY, "a launch is still running");
  m->isa = extensions;
  decode_range(m, 0, m->code_size);
  m->rpc_valid = 0;
  return SIMTY_MODEL_OK;
}

unsigned simty_model_isa(const simty_model *m)
{
  return m->isa;
}

void simty_model_set_schedule(simty_model *m, uint64_t seed)
{
  m->seed = seed;
}

void simty_model_set_racecheck(simty_model *m, simty_model_race_fn fn,
                               void *user)
{
  m->race_fn = fn;
  m->race_user = user;
}

uint64_t simty_model_race_count(const simty_model *m)
{
  return m->races;
}

void simty_model_abort(simty_model *m)
{
  if (m->status == SIMTY_MODEL_RUNNING)
    stop_fault(m, SIMTY_FAULT_ABORTED);
}

enum simty_model_status simty_model_status(const simty_model *m)
{
  return m->status;
}

void simty_model_get_fault(const simty_model *m,
                           struct simty_model_fault *out)
{
  *out = m->fault;
}

void simty_model_counters(const simty_model *m,
                          uint64_t out[SIMTY_CTR_COUNT])
{
  memcpy(out, m->ctr, sizeof(m->ctr));
}

const char *simty_model_last_error(const simty_model *m)
{
  return m->error;
}

/* ---- Reconvergence policies ---- */

static const char *const policy_names[SIMTY_POLICY_COUNT] = {
    [SIMTY_POLICY_SIMTY] = "simty",
    [SIMTY_POLICY_PC] = "pc",
    [SIMTY_POLICY_IPDOM] = "ipdom",
};

const char *simty_model_policy_name(unsigned policy)
{
  return policy < SIMTY_POLICY_COUNT ? policy_names[policy] : NULL;
}

int simty_model_policy_parse(const char *name, unsigned *policy)
{
  for (unsigned p = 0; name && p < SIMTY_POLICY_COUNT; p++)
    if (strcmp(name, policy_names[p]) == 0) {
      *policy = p;
      return 0;
    }
  return -1;
}

int simty_model_set_policy(simty_model *m, unsigned policy)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (policy >= SIMTY_POLICY_COUNT)
    return fail(m, SIMTY_MODEL_INVALID, "unknown policy %u", policy);
  if (m->status == SIMTY_MODEL_RUNNING)
    return fail(m, SIMTY_MODEL_BUSY, "a launch is still running");
  m->policy = policy;
  return SIMTY_MODEL_OK;
}

unsigned simty_model_policy(const simty_model *m)
{
  return m->policy;
}

/* ---- Statistics ---- */

int simty_model_set_stats(simty_model *m, int on)
{
  if (!m)
    return SIMTY_MODEL_INVALID;
  if (m->status == SIMTY_MODEL_RUNNING)
    return fail(m, SIMTY_MODEL_BUSY, "a launch is still running");
  if (!on) {
    free(m->stats);
    m->stats = NULL;
  } else if (!m->stats) {
    m->stats = calloc(m->warps, sizeof(*m->stats));
    if (!m->stats)
      return fail(m, SIMTY_MODEL_NOMEM, "no memory for statistics");
  }
  return SIMTY_MODEL_OK;
}

void simty_model_defuse(const simty_model *m,
                        uint64_t out[SIMTY_DEFUSE_BINS + 1])
{
  memcpy(out, m->defuse, sizeof(m->defuse));
}

int simty_model_stats_append(const simty_model *m, const char *path)
{
  static const char *const names[] = {
#define SIMTY_X_(name, index, text) [index] = #name,
      SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
  };
  static const unsigned bounds[] = SIMTY_DEFUSE_BOUNDS;
  FILE *f = fopen(path, "a");
  if (!f)
    return -1;
  fprintf(f, "{\"policy\": \"%s\", \"warps\": %u, \"lanes\": %u, "
             "\"nthreads\": %u, \"counters\": {",
          policy_names[m->policy], m->warps, m->lanes, m->nthreads);
  for (unsigned c = 0; c < SIMTY_CTR_COUNT; c++)
    fprintf(f, "%s\"%s\": %llu", c ? ", " : "", names[c],
            (unsigned long long)m->ctr[c]);
  fprintf(f, "}, \"defuse\": {\"bins\": [");
  for (unsigned b = 0; b < SIMTY_DEFUSE_BINS; b++)
    fprintf(f, "%s%u", b ? ", " : "", bounds[b]);
  fprintf(f, "], \"counts\": [");
  for (unsigned b = 0; b <= SIMTY_DEFUSE_BINS; b++)
    fprintf(f, "%s%llu", b ? ", " : "", (unsigned long long)m->defuse[b]);
  fprintf(f, "]}}\n");
  return fclose(f) == 0 ? 0 : -1;
}
