/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_tb.c - the C side of the simty_core testbench: see simty_tb.h.
 *
 * The command line and every output format follow the kernel-runner
 * contract shared with simty-model, so one test runner and one diff
 * script drive both: any difference in output is a difference in
 * behaviour.
 */
#include "simty_tb.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "simty_arch.h"
#include "simty_elf.h"
#include "simty_lines.h"

#define PROG "simty-rtl"

/* A warp accepted a block but has not raised warp_busy_o yet: after this
 * many cycles the core has broken the dispatch contract. */
#define BUSY_RISE_LIMIT 64

enum warp_state { WARP_FREE = 0, WARP_PENDING, WARP_RUNNING };

struct dump_request {
  const char *symbol;
  uint32_t addr;
  uint32_t count;
};

struct simty_tb {
  unsigned warps, lanes;
  uint32_t code_size, data_size;
  uint8_t *code, *data;
  struct simty_elf elf;

  /* launch */
  uint32_t nthreads, args, stack_top;
  unsigned stack_log2;
  uint64_t max_cycles;

  /* options */
  struct dump_request *dumps;
  unsigned dump_count;
  int counters, quiet, verbose_trace, console_stall, cycles_report;
  uint64_t jitter; /* xorshift state of +jitter, 0 when off */
  FILE *trace;
  const char *wave_file;

  /* dispatcher */
  uint64_t next_base; /* next block's first logical id */
  uint32_t *warp_base;
  unsigned char *warp_state;
  unsigned *warp_age;
  struct simty_tb_dispatch driven;
  /* The last step's outcome holds while warp_busy and idle stay as they
   * were (no warp pending, no jitter, no dispatch since): most cycles. */
  int settled;
  uint32_t settled_busy;
  int settled_idle;
  int started;
  uint64_t cycles;

  /* console */
  struct simty__lines lines; /* regrouped per thread, as the model does */
  FILE *out; /* stdout, or a test's file */
};

static const char *const counter_names[SIMTY_CTR_COUNT] = {
#define SIMTY_X_(name, index, text) [index] = #name,
    SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
};

static const char *fault_name(unsigned cause)
{
  switch (cause) {
#define SIMTY_X_(name, code, text)                                           \
  case code:                                                                 \
    return #name;
    SIMTY_FAULT_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "unknown";
  }
}

/* The extensions the bench's core is built with (simty_tb_top's EXT_*
 * parameters, rtl.mk): --isa accepts any ISA string they cover. */
#ifndef SIMTY_TB_EXTENSIONS
#define SIMTY_TB_EXTENSIONS (SIMTY_EXT_M | SIMTY_EXT_A | SIMTY_EXT_ZICNTR)
#endif

/* "rv32i[m][a][_zicntr]" -> SIMTY_EXT_* bits, or -1. */
static long parse_isa(const char *s)
{
  long ext = 0;
  if (strncmp(s, "rv32i", 5))
    return -1;
  s += 5;
  if (*s == 'm') {
    ext |= SIMTY_EXT_M;
    s++;
  }
  if (*s == 'a') {
    ext |= SIMTY_EXT_A;
    s++;
  }
  if (!strcmp(s, "_zicntr"))
    return ext | SIMTY_EXT_ZICNTR;
  return *s ? -1 : ext;
}

unsigned simty_tb_xbar;

static const char *const xbar_names[] = {"full", "rotate"};

static void usage(FILE *out)
{
  fprintf(out,
          "usage: " PROG " [--warps W] [--lanes L] [--threads N] "
          "[--stack-log2 S]\n"
          "       [--max-cycles C] [--code-size BYTES] [--data-size BYTES]\n"
          "       [--args SYMBOL] [--dump SYMBOL:COUNT]... [--counters]\n"
          "       [--isa rv32i[m][a][_zicntr]] (the core is rv32ima_zicntr)\n"
          "       [--xbar full|rotate] (the core's crossbar kind only)\n"
          "       [--trace FILE] [--quiet] [--vcd FILE] [--cycles-report]\n"
          "       [+trace] [+vcd[=FILE]] [+fst[=FILE]] [+console-stall] "
          "[+jitter=SEED]\n"
          "       kernel.elf\n");
}

static void err_msg(const char *fmt, ...)
{
  va_list ap;
  fputs(PROG ": ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* Unsigned number, decimal or 0x hex, the whole string. */
static int parse_u64(const char *s, uint64_t *out)
{
  char *end;
  unsigned long long v;
  if (!s || !*s || *s == '-' || *s == '+')
    return -1;
  errno = 0;
  v = strtoull(s, &end, 0);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

static void free_tb(struct simty_tb *tb)
{
  if (!tb)
    return;
  if (tb->trace)
    fclose(tb->trace);
  simty__lines_free(&tb->lines);
  free(tb->dumps);
  free(tb->warp_base);
  free(tb->warp_state);
  free(tb->warp_age);
  free(tb->code);
  free(tb->data);
  simty__elf_free(&tb->elf);
  free(tb);
}

void simty_tb_destroy(struct simty_tb *tb) { free_tb(tb); }

/* Is [addr, addr + len) inside the window starting at base of size size? */
static int inside(uint32_t addr, uint64_t len, uint32_t base, uint32_t size)
{
  return addr >= base && (uint64_t)addr - base + len <= size;
}

static uint8_t *device_bytes(struct simty_tb *tb, uint32_t addr, uint64_t len)
{
  if (inside(addr, len, SIMTY_DATA_BASE, tb->data_size))
    return tb->data + (addr - SIMTY_DATA_BASE);
  if (inside(addr, len, SIMTY_CODE_BASE, tb->code_size))
    return tb->code + (addr - SIMTY_CODE_BASE);
  return NULL;
}

/* One finished console line of a thread, in the model's format. */
static void print_line(void *user, uint32_t tid, const char *text,
                       size_t len)
{
  struct simty_tb *tb = user;
  fprintf(tb->out, "[%" PRIu32 "] %.*s\n", tid, (int)len, text);
}

struct simty_tb *simty_tb_create(int argc, char **argv, unsigned warps,
                                 unsigned lanes, uint32_t code_size,
                                 uint32_t data_size, int *exit_code)
{
  struct simty_tb *tb = calloc(1, sizeof(*tb));
  const char *kernel = NULL, *trace_path = NULL, *args_symbol = NULL;
  uint64_t threads = (uint64_t)warps * lanes, stack_log2 = 10;
  uint64_t max_cycles = 100000000u;
  char err[256];
  unsigned i;
  int a;

  *exit_code = SIMTY_TB_EXIT_INPUT;
  if (!tb) {
    err_msg("out of memory");
    return NULL;
  }
  tb->out = stdout;
  tb->lines.fn = print_line;
  tb->lines.user = tb;
  tb->warps = warps;
  tb->lanes = lanes;
  tb->code_size = code_size;
  tb->data_size = data_size;
  tb->dumps = calloc((size_t)argc + 1, sizeof(*tb->dumps));
  if (!tb->dumps) {
    err_msg("out of memory");
    free_tb(tb);
    return NULL;
  }

  for (a = 1; a < argc; a++) {
    const char *opt = argv[a];
    const char *val = NULL;
    uint64_t n;
    /* Options that take a value: --name VALUE or --name=VALUE. */
    static const char *const valued[] = {
        "--warps",     "--lanes",     "--threads", "--stack-log2",
        "--max-cycles", "--code-size", "--data-size", "--args",
        "--dump",      "--trace",     "--vcd",     "--isa",
        "--xbar",      NULL};
    char name[32];
    const char *eq = strchr(opt, '=');
    size_t name_len = eq && opt[0] == '-' ? (size_t)(eq - opt) : strlen(opt);
    int takes_value = 0;
    if (name_len < sizeof(name)) {
      memcpy(name, opt, name_len);
      name[name_len] = '\0';
      for (i = 0; valued[i]; i++)
        if (!strcmp(name, valued[i]))
          takes_value = 1;
    } else {
      name[0] = '\0';
    }
    if (takes_value) {
      if (eq && opt[0] == '-') {
        val = eq + 1;
      } else if (a + 1 < argc) {
        val = argv[++a];
      } else {
        err_msg("option %s needs a value", name);
        usage(stderr);
        goto usage_error;
      }
      opt = name;
    }

    if (!strcmp(opt, "--warps") || !strcmp(opt, "--lanes")) {
      unsigned built = opt[2] == 'w' ? warps : lanes;
      if (parse_u64(val, &n) || n != built) {
        err_msg("this binary is built for %u warps x %u lanes; %s %s is "
                "not supported (build build/rtl/core_WxL/simty-rtl)",
                warps, lanes, opt, val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--threads")) {
      if (parse_u64(val, &threads) || threads < 1 ||
          threads > SIMTY_MAX_THREADS) {
        err_msg("--threads must be 1..%u, not '%s'", SIMTY_MAX_THREADS, val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--stack-log2")) {
      if (parse_u64(val, &stack_log2) || stack_log2 < SIMTY_STACK_LOG2_MIN ||
          stack_log2 > SIMTY_STACK_LOG2_MAX) {
        err_msg("--stack-log2 must be %d..%d, not '%s'", SIMTY_STACK_LOG2_MIN,
                SIMTY_STACK_LOG2_MAX, val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--max-cycles")) {
      if (parse_u64(val, &max_cycles)) {
        err_msg("--max-cycles must be a number (0: no time-out), not '%s'",
                val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--code-size") || !strcmp(opt, "--data-size")) {
      uint32_t built = opt[2] == 'c' ? code_size : data_size;
      if (parse_u64(val, &n) || n != built) {
        err_msg("this binary is built for %s %" PRIu32
                " (a parameter of the core); '%s' is not supported",
                opt, built, val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--args")) {
      args_symbol = val;
    } else if (!strcmp(opt, "--dump")) {
      struct dump_request *d = &tb->dumps[tb->dump_count];
      const char *colon = strrchr(val, ':');
      if (!colon || colon == val || parse_u64(colon + 1, &n) ||
          n > SIMTY_DATA_WINDOW / 4) {
        err_msg("--dump wants SYMBOL:COUNT, not '%s'", val);
        goto usage_error;
      }
      /* The symbol is the text before the colon: cut it in place. */
      d->symbol = val;
      argv[a][colon - argv[a]] = '\0';
      d->count = (uint32_t)n;
      tb->dump_count++;
    } else if (!strcmp(opt, "--trace")) {
      trace_path = val;
    } else if (!strcmp(opt, "--isa")) {
      long want = parse_isa(val);
      if (want < 0) {
        err_msg("--isa wants rv32i[m][a][_zicntr], not '%s'", val);
        goto usage_error;
      }
      if ((unsigned long)want & ~(unsigned long)SIMTY_TB_EXTENSIONS) {
        err_msg("--isa %s: the core has rv32ima_zicntr", val);
        goto usage_error;
      }
    } else if (!strcmp(opt, "--xbar")) {
      const char *built = simty_tb_xbar < 2 ? xbar_names[simty_tb_xbar] : "?";
      if (strcmp(val, "full") && strcmp(val, "rotate")) {
        err_msg("--xbar wants full or rotate, not '%s'", val);
        goto usage_error;
      }
      if (strcmp(val, built)) {
        err_msg("this binary's core has the %s crossbar; --xbar %s is not "
                "supported (build build/rtl/core_WxL%s/simty-rtl)",
                built, val, strcmp(val, "rotate") ? "" : "_rotate");
        goto usage_error;
      }
    } else if (!strcmp(opt, "--vcd")) {
      tb->wave_file = val;
    } else if (!strcmp(opt, "--counters")) {
      tb->counters = 1;
    } else if (!strcmp(opt, "--quiet")) {
      tb->quiet = 1;
    } else if (!strcmp(opt, "--cycles-report")) {
      tb->cycles_report = 1;
    } else if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
      usage(stdout);
      *exit_code = SIMTY_TB_EXIT_OK;
      free_tb(tb);
      return NULL;
    } else if (!strcmp(opt, "+trace")) {
      tb->verbose_trace = 1;
    } else if (!strcmp(opt, "+console-stall")) {
      tb->console_stall = 1;
    } else if (!strncmp(opt, "+jitter=", 8)) {
      if (parse_u64(opt + 8, &n)) {
        err_msg("+jitter wants a number (seed), not '%s'", opt + 8);
        goto usage_error;
      }
      /* Any seed, never the all-zero xorshift state. */
      tb->jitter = n * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
      if (!tb->jitter)
        tb->jitter = 1;
    } else if (!strncmp(opt, "+vcd", 4) || !strncmp(opt, "+fst", 4)) {
      if (opt[4] == '=' && opt[5])
        tb->wave_file = opt + 5;
      else if (opt[4] == '\0')
        tb->wave_file = opt[1] == 'v' ? "simty-rtl.vcd" : "simty-rtl.fst";
      else {
        err_msg("unknown option '%s'", opt);
        goto usage_error;
      }
    } else if (opt[0] == '-' || opt[0] == '+') {
      err_msg("unknown option '%s'", opt);
      usage(stderr);
      goto usage_error;
    } else if (kernel) {
      err_msg("one kernel only ('%s' and '%s')", kernel, opt);
      goto usage_error;
    } else {
      kernel = opt;
    }
  }
  if (!kernel) {
    err_msg("no kernel given");
    usage(stderr);
    goto usage_error;
  }
  tb->nthreads = (uint32_t)threads;
  tb->stack_log2 = (unsigned)stack_log2;
  tb->max_cycles = max_cycles;
  tb->stack_top = SIMTY_DATA_BASE + data_size;

  /* Bad input from here on: exit 1. */
  if (simty__elf_load_file(kernel, &tb->elf, err, sizeof(err))) {
    err_msg("%s", err); /* names the file already */
    free_tb(tb);
    return NULL;
  }
  if (simty__elf_check_layout(&tb->elf, code_size, data_size, err,
                              sizeof(err))) {
    err_msg("%s: %s", kernel, err);
    free_tb(tb);
    return NULL;
  }
  if ((((uint64_t)warps * lanes) << stack_log2) >
          (uint64_t)tb->stack_top - SIMTY_DATA_BASE ||
      tb->stack_top - (((uint64_t)warps * lanes) << stack_log2) <
          tb->elf.data_end) {
    err_msg("%s: %u thread stacks of %u bytes overlap the kernel data "
            "(which ends at 0x%08" PRIx32 ")",
            kernel, warps * lanes, 1u << stack_log2, tb->elf.data_end);
    free_tb(tb);
    return NULL;
  }
  if (args_symbol &&
      simty__elf_symbol(&tb->elf, args_symbol, &tb->args, NULL)) {
    err_msg("%s: no symbol '%s' for --args", kernel, args_symbol);
    free_tb(tb);
    return NULL;
  }

  tb->code = calloc(code_size, 1);
  tb->data = calloc(data_size, 1);
  tb->warp_base = calloc(warps, sizeof(*tb->warp_base));
  tb->warp_state = calloc(warps, 1);
  tb->warp_age = calloc(warps, sizeof(*tb->warp_age));
  if (!tb->code || !tb->data || !tb->warp_base || !tb->warp_state ||
      !tb->warp_age) {
    err_msg("out of memory");
    free_tb(tb);
    return NULL;
  }
  for (i = 0; i < tb->elf.segment_count; i++) {
    const struct simty_elf_segment *s = &tb->elf.segments[i];
    uint8_t *dst = device_bytes(tb, s->addr, s->mem_size);
    if (!dst) { /* check_layout accepted it: cannot happen */
      err_msg("%s: segment at 0x%08" PRIx32 " outside memory", kernel,
              s->addr);
      free_tb(tb);
      return NULL;
    }
    memcpy(dst, s->data, s->file_size);
  }
  for (i = 0; i < tb->dump_count; i++) {
    struct dump_request *d = &tb->dumps[i];
    if (simty__elf_symbol(&tb->elf, d->symbol, &d->addr, NULL)) {
      err_msg("%s: no symbol '%s' for --dump", kernel, d->symbol);
      free_tb(tb);
      return NULL;
    }
    if (!device_bytes(tb, d->addr, 4ull * d->count)) {
      err_msg("%s: --dump %s:%" PRIu32 " (0x%08" PRIx32
              ") is outside device memory",
              kernel, d->symbol, d->count, d->addr);
      free_tb(tb);
      return NULL;
    }
  }
  if (trace_path) {
    tb->trace = fopen(trace_path, "w");
    if (!tb->trace) {
      err_msg("%s: %s", trace_path, strerror(errno));
      free_tb(tb);
      return NULL;
    }
    setvbuf(tb->trace, NULL, _IOFBF, 1 << 20);
  }
  *exit_code = SIMTY_TB_EXIT_OK;
  return tb;

usage_error:
  *exit_code = SIMTY_TB_EXIT_USAGE;
  free_tb(tb);
  return NULL;
}

uint8_t *simty_tb_code(struct simty_tb *tb) { return tb->code; }
uint8_t *simty_tb_data(struct simty_tb *tb) { return tb->data; }
uint32_t simty_tb_nthreads(const struct simty_tb *tb) { return tb->nthreads; }
uint32_t simty_tb_args(const struct simty_tb *tb) { return tb->args; }
uint32_t simty_tb_stack_top(const struct simty_tb *tb) { return tb->stack_top; }
unsigned simty_tb_stack_log2(const struct simty_tb *tb)
{
  return tb->stack_log2;
}
const char *simty_tb_wave_file(const struct simty_tb *tb)
{
  return tb->wave_file;
}
int simty_tb_verbose_trace(const struct simty_tb *tb)
{
  return tb->verbose_trace;
}
static uint32_t jitter_next(struct simty_tb *tb)
{
  uint64_t x = tb->jitter;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  tb->jitter = x;
  return (uint32_t)(x >> 32);
}

int simty_tb_console_ready(struct simty_tb *tb, int ready_now)
{
  if (tb->jitter)
    return (jitter_next(tb) & 3) != 0; /* low a quarter of the time */
  if (tb->console_stall)
    return !ready_now;
  return 1;
}
uint64_t simty_tb_cycles(const struct simty_tb *tb) { return tb->cycles; }
void simty_tb_set_output(struct simty_tb *tb, FILE *out) { tb->out = out; }

void simty_tb_retire(struct simty_tb *tb, unsigned warp, uint32_t pc,
                     uint32_t mask)
{
  uint32_t base = 0;
  if (warp < tb->warps) {
    base = tb->warp_base[warp];
  }
  if (tb->trace)
    fprintf(tb->trace, "%" PRIu32 " %08" PRIx32 " %" PRIx32 "\n", base, pc,
            mask);
  if (tb->verbose_trace)
    fprintf(stderr, "retire cycle=%" PRIu64 " warp=%u base=%" PRIu32
                    " pc=%08" PRIx32 " mask=%" PRIx32 "\n",
            tb->cycles, warp, base, pc, mask);
}

void simty_tb_console(struct simty_tb *tb, uint32_t tid, uint8_t byte)
{
  if (!tb->quiet)
    simty__lines_byte(&tb->lines, tid, byte);
}

void simty_tb_dispatched(struct simty_tb *tb,
                         const struct simty_tb_dispatch *d)
{
  unsigned w = d->warp;
  tb->warp_base[w] = d->base_tid;
  tb->warp_state[w] = WARP_PENDING;
  tb->warp_age[w] = 0;
  tb->next_base = (uint64_t)d->base_tid + tb->lanes;
  tb->started = 1;
  tb->driven.valid = 0;
  tb->settled = 0;
}

void simty_tb_protocol_error(struct simty_tb *tb, const char *what,
                             uint32_t addr)
{
  err_msg("core broke its interface at cycle %" PRIu64 ": %s (0x%08" PRIx32
          ")",
          tb->cycles, what, addr);
}

/* The end of a step that keeps running: `next` stays offered, and the
 * outcome holds until warp_busy or idle change (see `settled`). */
static enum simty_tb_state keep_running(struct simty_tb *tb,
                                        const struct simty_tb_dispatch *next,
                                        int pending, uint32_t warp_busy,
                                        int idle)
{
  tb->driven = *next;
  tb->settled = !pending && !tb->jitter;
  tb->settled_busy = warp_busy;
  tb->settled_idle = idle;
  return SIMTY_TB_RUNNING;
}

enum simty_tb_state simty_tb_step(struct simty_tb *tb, uint32_t warp_busy,
                                  int idle, int fault_valid,
                                  struct simty_tb_dispatch *next)
{
  unsigned w;
  int all_free = 1, pending = 0;

  if (tb->started)
    tb->cycles++;
  next->valid = 0;
  if (fault_valid)
    return SIMTY_TB_FAULTED;
  if (tb->settled && warp_busy == tb->settled_busy &&
      idle == tb->settled_idle) {
    if (tb->started && tb->max_cycles && tb->cycles >= tb->max_cycles)
      return SIMTY_TB_TIMEOUT;
    *next = tb->driven;
    return SIMTY_TB_RUNNING;
  }
  tb->settled = 0;
  for (w = 0; w < tb->warps; w++) {
    int busy = (warp_busy >> w) & 1;
    switch (tb->warp_state[w]) {
    case WARP_PENDING:
      pending = 1;
      if (busy)
        tb->warp_state[w] = WARP_RUNNING;
      else if (++tb->warp_age[w] > BUSY_RISE_LIMIT) {
        err_msg("core broke its interface at cycle %" PRIu64
                ": warp_busy_o[%u] did not rise within %d cycles of the "
                "dispatch",
                tb->cycles, w, BUSY_RISE_LIMIT);
        return SIMTY_TB_BROKEN;
      }
      break;
    case WARP_RUNNING:
      if (!busy)
        tb->warp_state[w] = WARP_FREE;
      break;
    default:
      break;
    }
    if (tb->warp_state[w] != WARP_FREE || busy)
      all_free = 0;
  }
  if (tb->started && tb->max_cycles && tb->cycles >= tb->max_cycles)
    return SIMTY_TB_TIMEOUT;
  if (tb->next_base >= tb->nthreads) {
    if (all_free && idle)
      return SIMTY_TB_DONE;
    return keep_running(tb, next, pending, warp_busy, idle); /* no offer */
  }
  /* Next block to the lowest free warp. The offer reaches the core one
   * edge later (registered inputs), so it may change before it is taken
   * (a lower warp freed meanwhile); simty_tb_dispatched() is told which
   * one was taken. */
  for (w = 0; w < tb->warps; w++)
    if (tb->warp_state[w] == WARP_FREE && !((warp_busy >> w) & 1))
      break;
  /* +jitter: hold a ready block back now and then, as a busier host
   * would; an offer stays up until it is taken. */
  if (w < tb->warps && tb->jitter && !tb->driven.valid &&
      (jitter_next(tb) & 7) < 3)
    w = tb->warps;
  if (w < tb->warps) {
    uint64_t left = tb->nthreads - tb->next_base;
    next->valid = 1;
    next->warp = w;
    next->pc = tb->elf.entry;
    next->base_tid = (uint32_t)tb->next_base;
    next->mask = left >= tb->lanes ? (uint32_t)(((uint64_t)1 << tb->lanes) - 1)
                                   : (uint32_t)(((uint64_t)1 << left) - 1);
  }
  return keep_running(tb, next, pending, warp_busy, idle);
}

int simty_tb_finish(struct simty_tb *tb, enum simty_tb_state state,
                    const struct simty_tb_fault *fault, const uint64_t *ctr,
                    double seconds, double cpu_seconds)
{
  unsigned i;
  uint32_t k;
  int code = SIMTY_TB_EXIT_OK;

  if (state == SIMTY_TB_BROKEN)
    code = SIMTY_TB_EXIT_PROTOCOL;
  /* Unfinished console lines, by thread id. */
  simty__lines_flush(&tb->lines);
  for (i = 0; i < tb->dump_count; i++) {
    const struct dump_request *d = &tb->dumps[i];
    const uint8_t *p = device_bytes(tb, d->addr, 4ull * d->count);
    for (k = 0; k < d->count; k++, p += 4) {
      uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      fprintf(tb->out, "%s[%" PRIu32 "] = %" PRId32 "\n", d->symbol, k,
              (int32_t)v);
    }
  }
  if (tb->counters) {
    for (i = 0; i < SIMTY_CTR_COUNT; i++)
      fprintf(tb->out, "%s = %" PRIu64 "\n", counter_names[i], ctr[i]);
    fprintf(tb->out, "ipc = %.3f\n", ctr[SIMTY_CTR_cycles]
                               ? (double)ctr[SIMTY_CTR_warp_insts] /
                                     (double)ctr[SIMTY_CTR_cycles]
                               : 0.0);
    fprintf(tb->out, "simd_efficiency = %.3f\n",
           ctr[SIMTY_CTR_warp_insts]
               ? (double)ctr[SIMTY_CTR_thread_insts] /
                     ((double)ctr[SIMTY_CTR_warp_insts] * tb->lanes)
               : 0.0);
  }
  fflush(tb->out);
  if (state == SIMTY_TB_FAULTED || state == SIMTY_TB_TIMEOUT) {
    /* A time-out names no thread (docs/architecture.md section 5). */
    struct simty_tb_fault f = {SIMTY_FAULT_TIMEOUT, 0, UINT32_MAX, UINT32_MAX,
                               0};
    if (state == SIMTY_TB_FAULTED && fault)
      f = *fault;
    char name[64];
    const char *n = fault_name(f.cause);
    for (i = 0; n[i] && i + 1 < sizeof(name); i++)
      name[i] = (char)(n[i] >= 'A' && n[i] <= 'Z' ? n[i] - 'A' + 'a' : n[i]);
    name[i] = '\0';
    fprintf(stderr,
            "fault: %s (cause %u) pc=0x%08" PRIx32 " hart=%" PRIu32
            " tid=%" PRIu32 " addr=0x%08" PRIx32 "\n",
            name, f.cause, f.pc, f.hart, f.tid, f.addr);
    code = SIMTY_TB_EXIT_FAULT;
  }
  /* CPU time as well: on a shared machine it is the steadier figure. */
  if (tb->cycles_report)
    fprintf(stderr,
            "cycles-report: cycles=%" PRIu64 " seconds=%.3f "
            "cycles_per_second=%.0f cpu_seconds=%.3f "
            "cycles_per_cpu_second=%.0f\n",
            tb->cycles, seconds,
            seconds > 0 ? (double)tb->cycles / seconds : 0.0, cpu_seconds,
            cpu_seconds > 0 ? (double)tb->cycles / cpu_seconds : 0.0);
  if (tb->trace && fflush(tb->trace)) {
    err_msg("writing the trace: %s", strerror(errno));
    code = code ? code : SIMTY_TB_EXIT_INPUT;
  }
  if (tb->lines.lost) {
    err_msg("out of memory buffering console lines: output incomplete");
    code = code ? code : SIMTY_TB_EXIT_INPUT;
  }
  return code;
}
