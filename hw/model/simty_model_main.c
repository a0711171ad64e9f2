/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_main.c - build/bin/simty-model, the kernel runner on the
 * reference model. Options, output and exit codes follow the runner
 * contract shared with the RTL testbench (hw/model/README.md).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_elf.h"
#include "simty_lines.h"
#include "simty_model.h"

#define PROG "simty-model"

enum { EXIT_RACE = 4, EXIT_FAULT = 3, EXIT_USAGE = 2, EXIT_BAD_INPUT = 1 };

static const char usage_text[] =
    "usage: " PROG " [--warps W] [--lanes L] [--threads N] [--stack-log2 S]\n"
    "       [--max-cycles C] [--code-size BYTES] [--data-size BYTES]\n"
    "       [--args SYMBOL] [--dump SYMBOL:COUNT]... [--counters]\n"
    "       [--trace FILE] [--quiet] [--isa ISA] [--racecheck]\n"
    "       [--schedule rr|random:SEED] [--policy simty|pc|ipdom]\n"
    "       [--xbar full|rotate] [--stats FILE] kernel.elf\n"
    "Runs N threads (default W*L) of a Simty kernel on the reference model.\n"
    "Defaults: W=4 L=4 S=10 C=100000000 (0: no time-out), code 65536,\n"
    "data 1048576 bytes. --quiet drops the device console output.\n"
    "--isa: the extensions the model has, e.g. rv32im, rv32ima_zicntr\n"
    "(default rv32i). --racecheck reports data races on stderr (exit 4\n"
    "when there are any); --schedule random:SEED issues warps in a seeded\n"
    "random order instead of round robin. --policy: the reconvergence\n"
    "policy (a model-only study option, default simty); --xbar: the\n"
    "memory crossbar kind (default full; rotate serves a transaction's\n"
    "lanes by rotation and broadcast only); --stats appends the counters\n"
    "and the def-use distance histogram as a JSON line.\n";

struct dump_req {
  const char *symbol;
  uint32_t count;
  uint32_t addr;
};

/* ---- Console: bytes regrouped into lines per logical thread ---- */

struct console {
  struct simty__lines lines;
  int quiet;
};

static void console_line(void *user, uint32_t tid, const char *text,
                         size_t len)
{
  (void)user;
  printf("[%" PRIu32 "] %.*s\n", tid, (int)len, text);
}

static void console_byte(void *user, uint32_t tid, uint8_t byte)
{
  struct console *c = user;
  if (!c->quiet)
    simty__lines_byte(&c->lines, tid, byte);
}

/* Print unfinished lines in thread order, then free everything. */
static void console_finish(struct console *c)
{
  simty__lines_flush(&c->lines);
  simty__lines_free(&c->lines);
}

/* ---- Trace ---- */

static void trace_line(void *user, uint32_t base_tid, uint32_t pc,
                       uint64_t mask)
{
  fprintf((FILE *)user, "%" PRIu32 " %08" PRIx32 " %" PRIx64 "\n", base_tid,
          pc, mask);
}

/* ---- Race checker ---- */

struct racecheck {
  const struct simty_elf *elf;
  uint32_t stack_top;
  unsigned harts, stack_log2;
};

static void race_line(void *user, const struct simty_model_race *race)
{
  const struct racecheck *rc = user;
  char line[600];
  simty_model_race_format(race, rc->elf, rc->stack_top, rc->harts,
                          rc->stack_log2, line, sizeof(line));
  fprintf(stderr, "%s\n", line);
}

/* ---- Options ---- */

static int usage_error(const char *fmt, const char *arg)
{
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(run " PROG " --help for usage)\n");
  return EXIT_USAGE;
}

/* Strict: digits only (0x hex too), no sign, no leading space. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
  if (!s || !isdigit((unsigned char)*s))
    return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end != '\0' || v > max)
    return -1;
  *out = v;
  return 0;
}

static int is_pow2(uint64_t v)
{
  return v && (v & (v - 1)) == 0;
}

static const char *fault_name(uint32_t cause, char *buf, size_t size)
{
  const char *name = "unknown";
  switch (cause) {
#define SIMTY_X_(n, code, text)                                              \
  case code:                                                                 \
    name = #n;                                                               \
    break;
    SIMTY_FAULT_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    break;
  }
  size_t i = 0;
  for (; name[i] && i + 1 < size; i++)
    buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
  buf[i] = '\0';
  return buf;
}

int main(int argc, char **argv)
{
  uint64_t warps = 4, lanes = 4, threads = 0, stack_log2 = 10;
  uint64_t max_cycles = 100000000, code_size = SIMTY_DEFAULT_CODE_SIZE;
  uint64_t data_size = SIMTY_DEFAULT_DATA_SIZE;
  const char *args_symbol = NULL, *trace_path = NULL, *kernel = NULL;
  int want_counters = 0, quiet = 0, racecheck = 0;
  unsigned isa = 0;
  uint64_t seed = 0;
  unsigned policy = SIMTY_POLICY_SIMTY, xbar = SIMTY_XBAR_FULL;
  const char *stats_path = NULL;
  struct dump_req *dumps = calloc((size_t)argc, sizeof(*dumps));
  size_t ndumps = 0;
  if (!dumps) {
    fprintf(stderr, PROG ": out of memory\n");
    return EXIT_BAD_INPUT;
  }

  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
      fputs(usage_text, stdout);
      free(dumps);
      return 0;
    }
    if (strcmp(opt, "--counters") == 0) {
      want_counters = 1;
      continue;
    }
    if (strcmp(opt, "--quiet") == 0) {
      quiet = 1;
      continue;
    }
    if (strcmp(opt, "--racecheck") == 0) {
      racecheck = 1;
      continue;
    }
    if (strncmp(opt, "--", 2) != 0 || strcmp(opt, "--") == 0) {
      if (strcmp(opt, "--") == 0 && i + 1 < argc)
        opt = argv[++i];
      if (kernel) {
        free(dumps);
        return usage_error("more than one kernel given ('%s')", opt);
      }
      kernel = opt;
      continue;
    }
    /* --name VALUE or --name=VALUE */
    char name[32];
    const char *value = NULL, *eq = strchr(opt, '=');
    size_t name_len = eq ? (size_t)(eq - opt) : strlen(opt);
    if (name_len >= sizeof(name)) {
      free(dumps);
      return usage_error("unknown option '%s'", opt);
    }
    memcpy(name, opt, name_len);
    name[name_len] = '\0';
    if (eq)
      value = eq + 1;
    else if (i + 1 < argc)
      value = argv[++i];
    static const char *const valued[] = {
        "--warps", "--lanes", "--threads", "--stack-log2", "--max-cycles",
        "--code-size", "--data-size", "--args", "--dump", "--trace",
        "--isa", "--schedule", "--policy", "--xbar", "--stats"};
    int known = 0;
    for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
      known |= strcmp(name, valued[k]) == 0;
    if (!known) {
      free(dumps);
      return usage_error("unknown option '%s'", name);
    }
    if (!value) {
      free(dumps);
      return usage_error("option %s needs a value", name);
    }
    int bad = 0;
    if (strcmp(name, "--warps") == 0)
      bad = parse_u64(value, 64, &warps) || !is_pow2(warps);
    else if (strcmp(name, "--lanes") == 0)
      bad = parse_u64(value, 64, &lanes) || !is_pow2(lanes);
    else if (strcmp(name, "--threads") == 0)
      bad = parse_u64(value, SIMTY_MAX_THREADS, &threads) || threads == 0;
    else if (strcmp(name, "--stack-log2") == 0)
      bad = parse_u64(value, SIMTY_STACK_LOG2_MAX, &stack_log2) ||
            stack_log2 < SIMTY_STACK_LOG2_MIN;
    else if (strcmp(name, "--max-cycles") == 0)
      bad = parse_u64(value, UINT64_MAX, &max_cycles);
    else if (strcmp(name, "--code-size") == 0)
      bad = parse_u64(value, SIMTY_CODE_WINDOW, &code_size) ||
            code_size == 0 || code_size % 4;
    else if (strcmp(name, "--data-size") == 0)
      bad = parse_u64(value, SIMTY_DATA_WINDOW, &data_size) ||
            data_size == 0 || data_size % 4;
    else if (strcmp(name, "--args") == 0)
      args_symbol = value;
    else if (strcmp(name, "--trace") == 0)
      trace_path = value;
    else if (strcmp(name, "--isa") == 0)
      bad = simty__isa_parse(value, &isa, NULL, 0) != 0;
    else if (strcmp(name, "--policy") == 0)
      bad = simty_model_policy_parse(value, &policy) != 0;
    else if (strcmp(name, "--xbar") == 0)
      bad = simty_model_xbar_parse(value, &xbar) != 0;
    else if (strcmp(name, "--stats") == 0)
      stats_path = value;
    else if (strcmp(name, "--schedule") == 0)
      bad = strcmp(value, "rr") == 0 ? (seed = 0, 0)
            : strncmp(value, "random:", 7) == 0
                ? parse_u64(value + 7, UINT64_MAX, &seed) || seed == 0
                : 1;
    else { /* --dump SYMBOL:COUNT */
      const char *colon = strrchr(value, ':');
      uint64_t count;
      if (!colon || colon == value || parse_u64(colon + 1, 1u << 24, &count)) {
        bad = 1;
      } else {
        size_t len = (size_t)(colon - value);
        char *symbol = malloc(len + 1);
        if (!symbol) {
          fprintf(stderr, PROG ": out of memory\n");
          return EXIT_BAD_INPUT;
        }
        memcpy(symbol, value, len);
        symbol[len] = '\0';
        dumps[ndumps].symbol = symbol;
        dumps[ndumps++].count = (uint32_t)count;
      }
    }
    if (bad) {
      for (size_t k = 0; k < ndumps; k++)
        free((void *)dumps[k].symbol);
      free(dumps);
      fprintf(stderr, PROG ": bad value '%s' for %s\n", value, name);
      fprintf(stderr, "(run " PROG " --help for usage)\n");
      return EXIT_USAGE;
    }
  }
  if (!kernel) {
    free(dumps);
    return usage_error("%s", "no kernel ELF given");
  }
  if (threads == 0)
    threads = warps * lanes;

  int rc = EXIT_BAD_INPUT;
  char err[512];
  struct simty_elf elf;
  simty_model *model = NULL;
  FILE *trace = NULL;
  struct console console = {.lines = {.fn = console_line}, .quiet = quiet};
  uint32_t args = 0;

  if (simty__elf_load_file(kernel, &elf, err, sizeof(err)) != 0) {
    fprintf(stderr, PROG ": %s\n", err);
    goto out_dumps;
  }
  if (simty__elf_check_layout(&elf, (uint32_t)code_size, (uint32_t)data_size,
                              err, sizeof(err)) != 0) {
    fprintf(stderr, PROG ": %s: %s\n", kernel, err);
    goto out_elf;
  }
  if (simty__elf_check_isa(&elf, isa, err, sizeof(err)) != 0) {
    fprintf(stderr, PROG ": %s: %s\n", kernel, err);
    goto out_elf;
  }
  if (args_symbol && simty__elf_symbol(&elf, args_symbol, &args, NULL)) {
    fprintf(stderr, PROG ": %s: no symbol '%s' for --args\n", kernel,
            args_symbol);
    goto out_elf;
  }
  for (size_t k = 0; k < ndumps; k++) {
    if (simty__elf_symbol(&elf, dumps[k].symbol, &dumps[k].addr, NULL)) {
      fprintf(stderr, PROG ": %s: no symbol '%s' for --dump\n", kernel,
              dumps[k].symbol);
      goto out_elf;
    }
  }

  struct simty_model_config config = {(unsigned)warps, (unsigned)lanes,
                                      (uint32_t)code_size,
                                      (uint32_t)data_size, xbar};
  int e = simty_model_create(&config, &model);
  if (e != 0) {
    fprintf(stderr, PROG ": cannot create the model: %s\n",
            simty_model_strerror(e));
    goto out_elf;
  }
  simty_model_set_isa(model, isa);
  simty_model_set_schedule(model, seed);
  simty_model_set_policy(model, policy);
  if (simty_model_functions_from_elf(model, &elf) != 0 ||
      (stats_path && simty_model_set_stats(model, 1) != 0)) {
    fprintf(stderr, PROG ": out of memory\n");
    goto out_model;
  }
  struct racecheck race_ctx = {&elf, SIMTY_DATA_BASE + (uint32_t)data_size,
                               (unsigned)(warps * lanes),
                               (unsigned)stack_log2};
  if (racecheck)
    simty_model_set_racecheck(model, race_line, &race_ctx);
  for (unsigned s = 0; s < elf.segment_count; s++) {
    const struct simty_elf_segment *seg = &elf.segments[s];
    uint8_t *bytes = calloc(seg->mem_size ? seg->mem_size : 1, 1);
    if (!bytes) {
      fprintf(stderr, PROG ": out of memory\n");
      goto out_model;
    }
    memcpy(bytes, seg->data, seg->file_size);
    e = simty_model_write(model, seg->addr, bytes, seg->mem_size);
    free(bytes);
    if (e != 0) {
      fprintf(stderr, PROG ": %s: %s\n", kernel,
              simty_model_last_error(model));
      goto out_model;
    }
  }
  for (size_t k = 0; k < ndumps; k++) {
    uint32_t probe;
    uint64_t last = (uint64_t)dumps[k].addr + 4ull * dumps[k].count;
    if (dumps[k].count &&
        (last > UINT32_MAX ||
         simty_model_read(model, dumps[k].addr, &probe, 4) ||
         simty_model_read(model, (uint32_t)(last - 4), &probe, 4))) {
      fprintf(stderr, PROG ": %s: --dump %s:%u is outside device memory\n",
              kernel, dumps[k].symbol, dumps[k].count);
      goto out_model;
    }
  }
  if (trace_path) {
    trace = fopen(trace_path, "w");
    if (!trace) {
      fprintf(stderr, PROG ": cannot write trace %s: %s\n", trace_path,
              strerror(errno));
      goto out_model;
    }
    setvbuf(trace, NULL, _IOFBF, 1 << 20);
    simty_model_set_trace(model, trace_line, trace);
  }
  simty_model_set_console(model, console_byte, &console);

  struct simty_model_launch_params launch = {
      .entry = elf.entry,
      .nthreads = (uint32_t)threads,
      .args = args,
      .stack_log2 = (unsigned)stack_log2,
      .max_cycles = max_cycles,
      .data_end = elf.data_end,
  };
  e = simty_model_launch(model, &launch);
  if (e != 0) {
    fprintf(stderr, PROG ": %s: %s\n", kernel, simty_model_last_error(model));
    goto out_trace;
  }
  int status = simty_model_run(model, 0);
  console_finish(&console);
  if (console.lines.lost)
    fprintf(stderr, PROG ": out of memory: console output incomplete\n");

  for (size_t k = 0; k < ndumps; k++) {
    for (uint32_t i = 0; i < dumps[k].count; i++) {
      uint8_t w[4];
      simty_model_read(model, dumps[k].addr + 4 * i, w, 4);
      uint32_t v = (uint32_t)w[0] | (uint32_t)w[1] << 8 |
                   (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
      printf("%s[%u] = %" PRId32 "\n", dumps[k].symbol, i, (int32_t)v);
    }
  }
  if (want_counters) {
    static const char *const names[] = {
#define SIMTY_X_(name, index, text) [index] = #name,
        SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
    };
    uint64_t ctr[SIMTY_CTR_COUNT];
    simty_model_counters(model, ctr);
    for (unsigned c = 0; c < SIMTY_CTR_COUNT; c++)
      printf("%s = %" PRIu64 "\n", names[c], ctr[c]);
    double cycles = (double)ctr[SIMTY_CTR_cycles];
    double warp_insts = (double)ctr[SIMTY_CTR_warp_insts];
    printf("ipc = %.3f\n", cycles ? warp_insts / cycles : 0.0);
    printf("simd_efficiency = %.3f\n",
           warp_insts ? (double)ctr[SIMTY_CTR_thread_insts] /
                            (warp_insts * (double)lanes)
                      : 0.0);
  }
  fflush(stdout);
  if (stats_path && simty_model_stats_append(model, stats_path) != 0) {
    fprintf(stderr, PROG ": cannot write stats %s: %s\n", stats_path,
            strerror(errno));
    rc = EXIT_BAD_INPUT;
    goto out_trace;
  }

  if (status == SIMTY_MODEL_FAULTED) {
    struct simty_model_fault f;
    char name[40];
    simty_model_get_fault(model, &f);
    fprintf(stderr,
            "fault: %s (cause %" PRIu32 ") pc=0x%08" PRIx32 " hart=%" PRIu32
            " tid=%" PRIu32 " addr=0x%08" PRIx32 "\n",
            fault_name(f.cause, name, sizeof(name)), f.cause, f.pc, f.hart,
            f.tid, f.addr);
    rc = EXIT_FAULT;
  } else {
    rc = 0;
  }
  if (racecheck) {
    uint64_t races = simty_model_race_count(model);
    fprintf(stderr, "racecheck: %" PRIu64 " racing word%s\n", races,
            races == 1 ? "" : "s");
    if (races && rc == 0)
      rc = EXIT_RACE;
  }

out_trace:
  console_finish(&console);
  if (trace && fclose(trace) != 0) {
    fprintf(stderr, PROG ": error writing trace %s\n", trace_path);
    if (rc == 0)
      rc = EXIT_BAD_INPUT;
  }
out_model:
  simty_model_destroy(model);
out_elf:
  simty__elf_free(&elf);
out_dumps:
  for (size_t k = 0; k < ndumps; k++)
    free((void *)dumps[k].symbol);
  free(dumps);
  return rc;
}
