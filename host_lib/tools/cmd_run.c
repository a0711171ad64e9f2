/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_run.c - `simty run KERNEL.elf`: load a kernel, write its inputs
 * (--load, --fill), launch it with an argument block (--arg, --args),
 * wait, and print what simty-model prints: console lines "[TID] text",
 * "SYMBOL[i] = VALUE" per --dump, counters; a fault on stderr (with the
 * function and source line when the kernel has debug information), exit 3.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "simty_cli.h"

struct console_log {
  int json;
  int quiet;
  FILE *lines; /* JSON: collected console array body */
  char *buf;
  size_t size;
  int count;
};

static void run_console(void *user, uint32_t tid, const char *line,
                        size_t len)
{
  struct console_log *log = user;
  if (log->quiet)
    return;
  if (!log->json) {
    printf("[%" PRIu32 "] %.*s\n", tid, (int)len, line);
    return;
  }
  if (!log->lines)
    return;
  fprintf(log->lines, "%s{\"tid\": %" PRIu32 ", \"text\": ",
          log->count++ ? ", " : "", tid);
  json_string(log->lines, line, len);
  fputc('}', log->lines);
}

/* --trace FILE: the runner's "BASE_TID PC MASK" lines, each followed by
 * the pc's function and line (looked up once per pc). */
#define TRACE_SLOTS 4096u /* power of two, well above a kernel's hot pcs */
struct trace_log {
  FILE *f;
  const simty_kernel *k;
  struct {
    uint32_t pc;
    char *where; /* NULL: free slot */
  } slot[TRACE_SLOTS];
};

static const char *trace_where(struct trace_log *t, uint32_t pc)
{
  uint32_t h = (pc >> 2) * 2654435761u;
  for (uint32_t i = 0; i < 16; i++) {
    uint32_t j = (h + i) & (TRACE_SLOTS - 1);
    if (t->slot[j].where && t->slot[j].pc == pc)
      return t->slot[j].where;
    if (!t->slot[j].where) {
      char buf[256];
      simty_kernel_source_line(t->k, pc, buf, sizeof buf);
      t->slot[j].where = strdup(buf);
      t->slot[j].pc = pc;
      return t->slot[j].where ? t->slot[j].where : "";
    }
  }
  /* A crowded neighbourhood: look up without keeping it. */
  static char buf[256];
  simty_kernel_source_line(t->k, pc, buf, sizeof buf);
  return buf;
}

static void run_trace(void *user, uint32_t base_tid, uint32_t pc,
                      uint64_t mask)
{
  struct trace_log *t = user;
  const char *where = trace_where(t, pc);
  fprintf(t->f, "%" PRIu32 " %08" PRIx32 " %" PRIx64 "%s%s\n", base_tid, pc,
          mask, *where ? " " : "", where);
}

static void trace_close(struct trace_log *t)
{
  if (!t)
    return;
  for (uint32_t j = 0; j < TRACE_SLOTS; j++)
    free(t->slot[j].where);
  free(t);
}

/* --arg VALUE: number or @SYMBOL[+OFFSET]. */
static int arg_word(simty_kernel *k, const char *v, uint32_t *out)
{
  if (*v == '@') {
    char name[256];
    const char *plus = strchr(v, '+');
    size_t len = plus ? (size_t)(plus - v - 1) : strlen(v + 1);
    uint64_t off = 0;
    if (len == 0 || len >= sizeof(name) ||
        (plus && parse_u64(plus + 1, UINT32_MAX, &off)))
      return -1;
    memcpy(name, v + 1, len);
    name[len] = '\0';
    uint32_t addr;
    if (simty_kernel_symbol(k, name, &addr, NULL))
      return -2;
    *out = addr + (uint32_t)off;
    return 0;
  }
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 0);
  if (!isdigit((unsigned char)v[*v == '-']) || errno || *end ||
      x < INT32_MIN || x > (long long)UINT32_MAX)
    return -1;
  *out = (uint32_t)x;
  return 0;
}

int cmd_run(struct cli *c)
{
  const struct run_opts *o = &c->run;
  simty_device *dev = c->dev;
  struct simty_device_info in;
  simty_device_info(dev, &in);
  simty_kernel *k;
  int e = simty_kernel_load(dev, o->kernel, &k);
  if (e)
    return cli_device_error(c, e, "cannot load the kernel");
  int rc = EXIT_ERROR;
  uint8_t **bufs = calloc(o->ndata ? o->ndata : 1, sizeof(*bufs));
  uint32_t *words = calloc(o->nargs ? o->nargs : 1, sizeof(*words));
  struct console_log log = {.json = c->json, .quiet = o->quiet};
  struct trace_log *trace = NULL;
  if (!words || !bufs) {
    rc = cli_error(c, EXIT_ERROR, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < o->nargs; i++) {
    int r = arg_word(k, o->arg_values[i], &words[i]);
    if (r == -2) {
      rc = cli_error(c, EXIT_ERROR, 0, "%s: no symbol for --arg %s",
                     o->kernel, o->arg_values[i]);
      goto out;
    }
    if (r) {
      rc = cli_usage_error(c, "bad value '%s' for --arg", o->arg_values[i]);
      goto out;
    }
  }
  uint32_t args_addr = 0;
  if (o->args_symbol && simty_kernel_symbol(k, o->args_symbol, &args_addr,
                                            NULL)) {
    rc = cli_error(c, EXIT_ERROR, 0, "%s: no symbol '%s' for --args",
                   o->kernel, o->args_symbol);
    goto out;
  }
  /* Every symbol and range checked before anything is written, so that a
   * bad option costs no run (and no request). */
  if ((rc = data_resolve(c, k, &in)) != EXIT_OK ||
      (rc = data_write_inputs(c)) != EXIT_OK)
    goto out;
  rc = EXIT_ERROR;

  if (o->trace) {
    trace = calloc(1, sizeof *trace);
    if (!trace) {
      rc = cli_error(c, EXIT_ERROR, 0, "out of memory");
      goto out;
    }
    trace->k = k;
    if ((e = simty_set_trace(dev, run_trace, trace)) != 0) {
      rc = cli_device_error(c, e, "cannot trace");
      goto out;
    }
    trace->f = fopen(o->trace, "w");
    if (!trace->f) {
      rc = cli_error(c, EXIT_ERROR, 0, "--trace %s: %s", o->trace,
                     strerror(errno));
      goto out;
    }
  }
  if (c->json)
    log.lines = open_memstream(&log.buf, &log.size);
  simty_set_console(dev, run_console, &log);

  struct simty_launch_config cfg = {
      .nthreads = o->threads ? (uint32_t)o->threads : in.warps * in.lanes,
      .args = o->nargs ? words : NULL,
      .args_size = o->nargs * sizeof(uint32_t),
      .args_addr = args_addr,
      .stack_log2 = (unsigned)o->stack_log2,
      .timeout_cycles = o->max_cycles,
  };
  int timeout = o->timeout_ms > INT32_MAX ? SIMTY_WAIT_FOREVER
                                          : (int)o->timeout_ms;
  e = simty_run(k, &cfg, timeout);
  int faulted = e == SIMTY_EFAULT || e == SIMTY_ETIMEDOUT;
  if (e && !faulted) {
    rc = cli_device_error(c, e, "launch failed");
    goto out;
  }
  struct simty_fault fault;
  simty_get_fault(dev, &fault);
  char source[256] = "";
  if (faulted && fault.cause != SIMTY_FAULT_NONE &&
      simty_kernel_source_line(k, fault.pc, source, sizeof source) <= 0)
    source[0] = '\0';
  struct simty_counters ctr;
  int ce = o->counters ? simty_get_counters(dev, &ctr) : 0;
  if (ce) {
    rc = cli_device_error(c, ce, "cannot read the counters");
    goto out;
  }
  /* Everything read before anything is printed: an error is then the
   * only output (one JSON object). */
  if ((rc = data_read_dumps(c, bufs)) != EXIT_OK ||
      (rc = data_write_dump_files(c, bufs)) != EXIT_OK)
    goto out;

  if (c->json) {
    printf("{\"kernel\": ");
    json_cstring(stdout, o->kernel);
    printf(", \"threads\": %" PRIu32 ", \"status\": \"%s\", \"console\": [",
           cfg.nthreads, e == SIMTY_ETIMEDOUT ? "timeout"
                         : faulted            ? "fault"
                                              : "ok");
    if (log.lines) {
      fclose(log.lines);
      log.lines = NULL;
      fwrite(log.buf, 1, log.size, stdout);
    }
    printf("], \"dumps\": {");
    data_print_dumps(c, bufs, 1);
    printf("}, \"dump_files\": {");
    int first = 1;
    for (size_t i = 0; i < o->ndata; i++)
      if (o->data[i].op == DATA_DUMP && o->data[i].file) {
        printf("%s", first ? "" : ", ");
        json_cstring(stdout, o->data[i].symbol);
        printf(": ");
        json_cstring(stdout, o->data[i].file);
        first = 0;
      }
    printf("}, \"fault\": ");
    if (faulted && fault.cause != SIMTY_FAULT_NONE)
      json_fault(stdout, &fault, source);
    else
      printf("null");
    if (o->counters) {
      printf(", \"counters\": ");
      json_counters(stdout, &ctr);
    }
    printf("}\n");
  } else {
    data_print_dumps(c, bufs, 0);
    if (o->counters) {
      char text[1024];
      simty_counters_format(&ctr, text, sizeof(text));
      fputs(text, stdout);
    }
  }
  fflush(stdout);
  if (faulted) {
    /* A host time-out whose abort left no fault record has no fault line
     * (a lost link never gets here: it is an error, exit 1). */
    char text[160];
    simty_fault_format(&fault, text, sizeof(text));
    if (fault.cause != SIMTY_FAULT_NONE)
      fprintf(stderr, "fault: %s%s%s\n", text, *source ? " in " : "", source);
    if (e == SIMTY_ETIMEDOUT)
      fprintf(stderr, PROG ": host time-out after %" PRIu64
                      " ms: launch aborted\n",
              o->timeout_ms);
    rc = EXIT_FAULT;
  } else {
    rc = EXIT_OK;
  }
out:
  simty_set_console(dev, NULL, NULL);
  if (trace) {
    simty_set_trace(dev, NULL, NULL);
    if (trace->f && fclose(trace->f) != 0 && rc == EXIT_OK)
      rc = cli_error(c, EXIT_ERROR, 0, "--trace %s: %s", o->trace,
                     strerror(errno));
    trace_close(trace);
  }
  if (log.lines)
    fclose(log.lines);
  free(log.buf);
  for (size_t i = 0; bufs && i < o->ndata; i++)
    free(bufs[i]);
  free(bufs);
  free(words);
  simty_kernel_free(k);
  return rc;
}
