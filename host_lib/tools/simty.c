/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty.c - the simty command-line tool: device information, running a
 * kernel, counters and board bring-up self-test, on any device URI.
 *
 *   simty [--device URI] [--json] info
 *   simty [--device URI] [--json] run KERNEL.elf [--threads N] [--arg V]...
 *         [--args SYMBOL] [--dump SYMBOL:COUNT]... [--counters]
 *         [--timeout MS] [--max-cycles C] [--stack-log2 S] [--quiet]
 *   simty [--device URI] [--json] counters
 *   simty [--device URI] [--json] abort
 *   simty [--device URI] [--json] selftest [--full]
 *
 * `run` prints what simty-model prints (console lines "[TID] text", then
 * "SYMBOL[i] = VALUE" per --dump, then counters), a fault on stderr, and
 * exits 3 on a fault. Exit codes: 0 success, 1 error (bad input, device
 * error, self-test failure), 2 usage, 3 kernel fault or host time-out.
 *
 * Only `run` ends a launch it started (at a time-out, or when it exits);
 * `info` and `counters` leave a launch another process left running
 * alone, and `abort` ends it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "selftest_kernel.h"
#include "simty.h"
#include "simty_proto.h"

#define PROG "simty"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_FAULT = 3 };

extern const unsigned char simty_selftest_elf[];
extern const unsigned long simty_selftest_elf_size;

static const char usage_text[] =
    "usage: " PROG " [--device URI] [--json] COMMAND [options]\n"
    "       " PROG " [--device URI] --version   versions of the host side (and\n"
    "                                         of the device, when named)\n"
    "\n"
    "commands:\n"
    "  info                      describe the device\n"
    "  run KERNEL.elf [options]  run a kernel\n"
    "      --threads N           logical threads (default: warps x lanes)\n"
    "      --arg VALUE           append a 32-bit word to the argument block:\n"
    "                            a number (decimal, 0x hex, negative) or\n"
    "                            @SYMBOL[+OFFSET], a kernel address\n"
    "      --args SYMBOL         argument pointer = address of SYMBOL\n"
    "      --dump SYMBOL:COUNT   print COUNT words at SYMBOL afterwards\n"
    "      --counters            print the performance counters\n"
    "      --timeout MS          host time-out, then abort (default 60000)\n"
    "      --max-cycles C        device time-out in cycles (default none)\n"
    "      --stack-log2 S        per-thread stack size (default 10)\n"
    "      --quiet               drop the device console output\n"
    "  counters                  counters of the device's last launch\n"
    "  abort                     end a launch left running (by another\n"
    "                            process) with an ABORTED fault\n"
    "  selftest [--full]         board bring-up: link, memory, lanes and\n"
    "                            warps, divergence, console, faults, abort\n"
    "\n"
    "The device is --device URI, else $SIMTY_DEVICE, else sim. URIs: sim,\n"
    "model[?warps=W&lanes=L], tcp://HOST:PORT,\n"
    "ftdi://[VID:PID[:SERIAL]][/INTERFACE], usb://VID:PID.\n"
    "Exit: 0 ok, 1 error, 2 usage, 3 kernel fault or time-out.\n";

/* ---- Small helpers ---- */

/* major << 16 | minor << 8 | patch as "major.minor.patch". */
static void version_text(char *out, size_t size, uint32_t v)
{
  snprintf(out, size, "%" PRIu32 ".%" PRIu32 ".%" PRIu32, v >> 16,
           (v >> 8) & 0xffu, v & 0xffu);
}

/* The host side's versions; with a device named (--device or
 * $SIMTY_DEVICE), the device's too: its firmware, bitstream and protocol. */
static int print_version(const char *uri)
{
  printf(PROG " %s (host library %s, link protocol %u)\n", SIMTY_VERSION_STRING,
         simty_version(NULL), (unsigned)SIMTY_PROTO_VERSION);
  if (!uri || !*uri)
    return EXIT_OK;
  simty_device *dev = NULL;
  if (simty_open(uri, &dev) != 0) {
    fprintf(stderr, PROG ": %s\n", simty_last_error(NULL));
    return EXIT_ERROR;
  }
  struct simty_device_info in;
  simty_device_info(dev, &in);
  if (in.protocol_version) {
    char fw[16], hw[16];
    version_text(fw, sizeof fw, in.firmware_version);
    version_text(hw, sizeof hw, in.hw_version);
    printf("device %s: firmware %s, bitstream %s (build %08" PRIx32
           "), link protocol %u\n",
           simty_device_uri(dev), fw, hw, in.hw_build, in.protocol_version);
  } else {
    printf("device %s: the in-process model of this library\n",
           simty_device_uri(dev));
  }
  simty_close(dev);
  return EXIT_OK;
}

static int usage_error(const char *fmt, ...)
{
  va_list ap;
  fprintf(stderr, PROG ": ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(run " PROG " --help for usage)\n");
  return EXIT_USAGE;
}

static int device_error(simty_device *dev, int e, const char *what)
{
  const char *detail = simty_last_error(dev);
  fprintf(stderr, PROG ": %s: %s%s%s\n", what, simty_strerror(e),
          *detail ? ": " : "", detail);
  return EXIT_ERROR;
}

/* Strict: digits only (0x hex too), no sign, no leading space (strtoull
 * alone would take " 5" or " -1"). */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
  if (!s || !isdigit((unsigned char)*s))
    return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > max)
    return -1;
  *out = v;
  return 0;
}

static void json_string(FILE *f, const char *s, size_t len)
{
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c < 0x20 || c >= 0x7f)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void json_counters(FILE *f, const struct simty_counters *c)
{
  fputc('{', f);
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
    fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", simty_counter_name(i),
            simty_counter_value(c, i));
  fprintf(f, ", \"ipc\": %.3f, \"simd_efficiency\": %.3f}",
          simty_counters_ipc(c), simty_counters_simd_efficiency(c));
}

static void json_fault(FILE *f, const struct simty_fault *flt)
{
  fprintf(f,
          "{\"name\": \"%s\", \"cause\": %" PRIu32 ", \"pc\": %" PRIu32
          ", \"hart\": %" PRIu32 ", \"tid\": %" PRIu32 ", \"addr\": %" PRIu32
          "}",
          simty_fault_name(flt->cause), flt->cause, flt->pc, flt->hart,
          flt->tid, flt->addr);
}

/* Progress of long transfers, on a terminal only. */
static void progress(void *user, uint64_t done, uint64_t total)
{
  (void)user;
  fprintf(stderr, "\r  transfer %3u%% (%" PRIu64 " of %" PRIu64 " KiB)",
          (unsigned)(done * 100 / (total ? total : 1)), done / 1024,
          total / 1024);
  if (done >= total)
    fputs("\r\033[K", stderr);
  fflush(stderr);
}

/* ---- info ---- */

static int cmd_info(simty_device *dev, int json)
{
  struct simty_device_info in;
  simty_device_info(dev, &in);
  if (json) {
    printf("{\"uri\": ");
    json_string(stdout, simty_device_uri(dev), strlen(simty_device_uri(dev)));
    char fw[16], hw[16];
    version_text(fw, sizeof fw, in.firmware_version);
    version_text(hw, sizeof hw, in.hw_version);
    printf(", \"backend\": \"%s\", \"warps\": %u, \"lanes\": %u, "
           "\"code_base\": %" PRIu32 ", \"code_size\": %" PRIu32
           ", \"data_base\": %" PRIu32 ", \"data_size\": %" PRIu32
           ", \"clock_hz\": %" PRIu32 ", \"library_version\": \"%s\", "
           "\"protocol_version\": %u, \"firmware_version\": \"%s\", "
           "\"bitstream_version\": \"%s\", \"bitstream_build\": \"%08" PRIx32
           "\", \"max_payload\": %u, \"link_baud\": %" PRIu32
           ", \"link_window\": %u, \"link_engine\": %s, "
           "\"counter_count\": %u}\n",
           in.backend, in.warps, in.lanes, in.code_base, in.code_size,
           in.data_base, in.data_size, in.clock_hz, simty_version(NULL),
           in.protocol_version, fw, hw, in.hw_build, in.max_payload,
           in.link_baud, in.link_window,
           (in.link_flags & 1u) ? "true" : "false", in.counter_count);
    return EXIT_OK;
  }
  printf("device:      %s\n", simty_device_uri(dev));
  printf("backend:     %s\n", in.backend);
  printf("core:        %u warps x %u lanes (%u hardware threads)\n", in.warps,
         in.lanes, in.warps * in.lanes);
  printf("code memory: 0x%08" PRIx32 ", %" PRIu32 " KiB\n", in.code_base,
         in.code_size / 1024);
  printf("data memory: 0x%08" PRIx32 ", %" PRIu32 " KiB\n", in.data_base,
         in.data_size / 1024);
  if (in.clock_hz)
    printf("clock:       %.3f MHz\n", in.clock_hz / 1e6);
  else
    printf("clock:       n/a\n");
  printf("library:     version %s\n", simty_version(NULL));
  if (in.protocol_version) {
    char v[16];
    printf("protocol:    version %u, payloads up to %u bytes, %u requests in "
           "flight\n",
           in.protocol_version, in.max_payload, in.link_window);
    if (in.link_baud)
      printf("link:        %" PRIu32 " baud%s\n", in.link_baud,
             (in.link_flags & 1u) ? ", frames in the hardware link engine" : "");
    version_text(v, sizeof v, in.firmware_version);
    printf("firmware:    version %s\n", v);
    version_text(v, sizeof v, in.hw_version);
    if (in.hw_version)
      printf("bitstream:   version %s, build %08" PRIx32 "\n", v, in.hw_build);
    else
      printf("bitstream:   version not reported (a SoC older than 0.2.0)\n");
  } else {
    printf("protocol:    n/a (in-process)\n");
  }
  printf("counters:    %u\n", in.counter_count);
  return EXIT_OK;
}

/* ---- counters ---- */

static int cmd_counters(simty_device *dev, int json)
{
  struct simty_counters c;
  int e = simty_get_counters(dev, &c);
  if (e)
    return device_error(dev, e, "cannot read the counters");
  if (json) {
    json_counters(stdout, &c);
    putchar('\n');
  } else {
    char text[1024];
    simty_counters_format(&c, text, sizeof(text));
    fputs(text, stdout);
  }
  return EXIT_OK;
}

/* ---- abort ---- */

/* Ends a launch found running at open (the library leaves such a launch
 * alone unless asked). Nothing running is not an error. */
static int cmd_abort(simty_device *dev, int json)
{
  simty_set_console(dev, NULL, NULL); /* the other program's output */
  int e = simty_wait(dev, 0);
  const char *what;
  struct simty_fault f = {0};
  if (e == SIMTY_ENOLAUNCH || e == 0 || e == SIMTY_EFAULT) {
    what = e == SIMTY_ENOLAUNCH ? "no launch is running"
                                : "the launch had already ended";
  } else if (e != SIMTY_ETIMEDOUT) {
    return device_error(dev, e, "cannot read the launch status");
  } else {
    if ((e = simty_abort(dev)) != 0)
      return device_error(dev, e, "cannot abort");
    e = simty_wait(dev, 10000);
    if (e != SIMTY_EFAULT && e != 0)
      return device_error(dev, e, "abort sent, but the launch did not end");
    simty_get_fault(dev, &f);
    what = "aborted the running launch";
  }
  int aborted = f.cause == SIMTY_FAULT_ABORTED;
  if (json) {
    printf("{\"aborted\": %s, \"status\": ", aborted ? "true" : "false");
    json_string(stdout, what, strlen(what));
    printf("}\n");
  } else {
    printf("%s\n", what);
  }
  return EXIT_OK;
}

/* ---- run ---- */

struct dump_req {
  char *symbol;
  uint32_t count;
  uint32_t addr;
};

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

struct run_opts {
  const char *kernel;
  uint64_t threads;
  const char **arg_values;
  size_t nargs;
  const char *args_symbol;
  struct dump_req *dumps;
  size_t ndumps;
  int counters;
  int quiet;
  uint64_t timeout_ms;
  uint64_t max_cycles;
  uint64_t stack_log2;
};

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

static int cmd_run(simty_device *dev, int json, const struct run_opts *o)
{
  struct simty_device_info in;
  simty_device_info(dev, &in);
  simty_kernel *k;
  int e = simty_kernel_load(dev, o->kernel, &k);
  if (e)
    return device_error(dev, e, "cannot load the kernel");
  int rc = EXIT_ERROR;
  uint32_t *words = calloc(o->nargs ? o->nargs : 1, sizeof(*words));
  if (!words) {
    fprintf(stderr, PROG ": out of memory\n");
    goto out_kernel;
  }
  for (size_t i = 0; i < o->nargs; i++) {
    int r = arg_word(k, o->arg_values[i], &words[i]);
    if (r == -2) {
      fprintf(stderr, PROG ": %s: no symbol for --arg %s\n", o->kernel,
              o->arg_values[i]);
      goto out_words;
    }
    if (r) {
      rc = usage_error("bad value '%s' for --arg", o->arg_values[i]);
      goto out_words;
    }
  }
  uint32_t args_addr = 0;
  if (o->args_symbol && simty_kernel_symbol(k, o->args_symbol, &args_addr,
                                            NULL)) {
    fprintf(stderr, PROG ": %s: no symbol '%s' for --args\n", o->kernel,
            o->args_symbol);
    goto out_words;
  }
  for (size_t i = 0; i < o->ndumps; i++) {
    struct dump_req *d = (struct dump_req *)&o->dumps[i];
    if (simty_kernel_symbol(k, d->symbol, &d->addr, NULL)) {
      fprintf(stderr, PROG ": %s: no symbol '%s' for --dump\n", o->kernel,
              d->symbol);
      goto out_words;
    }
    /* Checked against the device's memories here, before the launch, so
     * that a bad --dump costs no run (and no request). */
    uint64_t end = (uint64_t)d->addr + 4ull * d->count;
    int inside =
        (d->addr >= in.code_base && end <= (uint64_t)in.code_base + in.code_size) ||
        (d->addr >= in.data_base && end <= (uint64_t)in.data_base + in.data_size);
    if (d->count && !inside) {
      fprintf(stderr, PROG ": %s: --dump %s:%" PRIu32
                      " is outside device memory\n",
              o->kernel, d->symbol, d->count);
      goto out_words;
    }
  }

  struct console_log log = {.json = json, .quiet = o->quiet};
  if (json)
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
    rc = device_error(dev, e, "launch failed");
    goto out_console;
  }
  struct simty_fault fault;
  simty_get_fault(dev, &fault);
  struct simty_counters c;
  int ce = o->counters ? simty_get_counters(dev, &c) : 0;
  if (ce) {
    rc = device_error(dev, ce, "cannot read the counters");
    goto out_console;
  }
  if (json)
    printf("{\"kernel\": ");
  if (json) {
    json_string(stdout, o->kernel, strlen(o->kernel));
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
  }
  int read_failed = 0;
  for (size_t i = 0; i < o->ndumps; i++) {
    const struct dump_req *d = &o->dumps[i];
    if (json) {
      printf("%s", i ? ", " : "");
      json_string(stdout, d->symbol, strlen(d->symbol));
      printf(": [");
    }
    /* The whole array in one read: a bulk transfer on a link device. */
    uint8_t *words = d->count ? malloc(4u * (size_t)d->count) : NULL;
    int re = !d->count ? 0
             : words   ? simty_read(dev, d->addr, words, 4u * (size_t)d->count)
                       : SIMTY_ENOMEM;
    if (re && !read_failed)
      read_failed = re;
    for (uint32_t j = 0; !re && j < d->count; j++) {
      const uint8_t *w = words + 4u * (size_t)j;
      int32_t v = (int32_t)((uint32_t)w[0] | (uint32_t)w[1] << 8 |
                            (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24);
      if (json)
        printf("%s%" PRId32, j ? ", " : "", v);
      else
        printf("%s[%" PRIu32 "] = %" PRId32 "\n", d->symbol, j, v);
    }
    free(words);
    if (json)
      printf("]");
  }
  if (json) {
    printf("}, \"fault\": ");
    if (faulted)
      json_fault(stdout, &fault);
    else
      printf("null");
    if (o->counters) {
      printf(", \"counters\": ");
      json_counters(stdout, &c);
    }
    printf("}\n");
  } else if (o->counters) {
    char text[1024];
    simty_counters_format(&c, text, sizeof(text));
    fputs(text, stdout);
  }
  fflush(stdout);
  if (read_failed) {
    rc = device_error(dev, read_failed, "cannot read --dump memory");
    goto out_console;
  }
  if (faulted) {
    /* A host time-out whose abort left no fault record has no fault line
     * (a lost link never gets here: it is an error, exit 1). */
    char text[160];
    simty_fault_format(&fault, text, sizeof(text));
    if (fault.cause != SIMTY_FAULT_NONE)
      fprintf(stderr, "fault: %s\n", text);
    if (e == SIMTY_ETIMEDOUT)
      fprintf(stderr, PROG ": host time-out after %" PRIu64
                      " ms: launch aborted\n",
              o->timeout_ms);
    rc = EXIT_FAULT;
  } else {
    rc = EXIT_OK;
  }
out_console:
  simty_set_console(dev, NULL, NULL);
  if (log.lines)
    fclose(log.lines);
  free(log.buf);
out_words:
  free(words);
out_kernel:
  simty_kernel_free(k);
  return rc;
}

/* ---- selftest ---- */

struct selftest {
  simty_device *dev;
  struct simty_device_info info;
  simty_kernel *kernel;
  int json;
  int full;
  int failures, steps;
  double step_start;
  char detail[512];
};

static double seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void step_report(struct selftest *t, const char *name, int ok)
{
  double now = seconds();
  double took = now - t->step_start;
  t->step_start = now;
  t->steps++;
  t->failures += !ok;
  if (t->json) {
    printf("%s{\"name\": \"%s\", \"ok\": %s, \"seconds\": %.3f, "
           "\"detail\": ",
           t->steps > 1 ? ", " : "", name, ok ? "true" : "false", took);
    json_string(stdout, t->detail, strlen(t->detail));
    printf("}");
  } else {
    printf("  %-12s %s%s%s (%.2f s)\n", name, ok ? "ok" : "FAIL",
           *t->detail ? ": " : "", t->detail, took);
  }
  fflush(stdout);
}

static int st_fail(struct selftest *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->detail, sizeof(t->detail), fmt, ap);
  va_end(ap);
  return 0;
}

static int st_lib(struct selftest *t, int e, const char *what)
{
  return st_fail(t, "%s: %s (%s)", what, simty_strerror(e),
                 simty_last_error(t->dev));
}

static uint32_t xorshift(uint32_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static uint32_t pattern_word(int pattern, uint32_t addr, uint32_t *rng)
{
  switch (pattern) {
  case 0:
    return addr; /* address in address: catches aliasing and stuck lines */
  case 1:
    return ~addr;
  case 2:
    return 1u << ((addr >> 2) & 31); /* walking one on the data lines */
  case 3:
    return (addr >> 2) & 1 ? 0x55555555u : 0xAAAAAAAAu;
  default:
    return xorshift(rng);
  }
}

#define PATTERNS 5

/* Writes and reads back every pattern over [addr, addr + len). */
static int test_window(struct selftest *t, uint32_t addr, uint32_t len,
                       uint32_t *buf, uint32_t *back)
{
  uint32_t n = len / 4;
  for (int p = 0; p < PATTERNS; p++) {
    uint32_t rng = 0x12345678u ^ addr ^ (uint32_t)p;
    for (uint32_t i = 0; i < n; i++)
      buf[i] = pattern_word(p, addr + 4 * i, &rng);
    int e = simty_write(t->dev, addr, buf, len);
    if (e)
      return st_lib(t, e, "write");
    e = simty_read(t->dev, addr, back, len);
    if (e)
      return st_lib(t, e, "read");
    for (uint32_t i = 0; i < n; i++)
      if (back[i] != buf[i])
        return st_fail(t,
                       "pattern %d at 0x%08" PRIx32 ": wrote 0x%08" PRIx32
                       ", read 0x%08" PRIx32,
                       p, addr + 4 * i, buf[i], back[i]);
  }
  return 1;
}

/* Distinct words at base + 2^k: a stuck or shorted address line makes
 * two of them alias. */
static int test_address_lines(struct selftest *t, uint32_t base,
                              uint32_t size)
{
  uint32_t offs[33];
  int n = 0;
  offs[n++] = 0;
  for (uint32_t o = 4; o < size && o; o <<= 1)
    offs[n++] = o;
  for (int i = 0; i < n; i++) {
    uint32_t v = 0xA0000000u | (uint32_t)i;
    int e = simty_write(t->dev, base + offs[i], &v, 4);
    if (e)
      return st_lib(t, e, "write");
  }
  for (int i = 0; i < n; i++) {
    uint32_t v;
    int e = simty_read(t->dev, base + offs[i], &v, 4);
    if (e)
      return st_lib(t, e, "read");
    if (v != (0xA0000000u | (uint32_t)i))
      return st_fail(t,
                     "address line: 0x%08" PRIx32 " reads 0x%08" PRIx32
                     ", expected 0x%08" PRIx32 " (aliasing)",
                     base + offs[i], v, 0xA0000000u | (uint32_t)i);
  }
  return 1;
}

/* Quick mode tests this much at each end of a region (address lines are
 * always tested over all of it); --full tests every byte. 1 KiB keeps the
 * quick test to seconds on the simulated board, whose link moves a few
 * KiB per second. */
#define WINDOW (1024u)

static int step_memory(struct selftest *t)
{
  const struct simty_device_info *in = &t->info;
  uint32_t regions[2][2] = {{in->code_base, in->code_size},
                            {in->data_base, in->data_size}};
  uint32_t chunk = t->full ? 256u * 1024u : WINDOW;
  uint32_t *buf = malloc(chunk), *back = malloc(chunk);
  uint64_t tested = 0;
  int ok = buf && back;
  if (!ok)
    st_fail(t, "out of host memory");
  for (int r = 0; ok && r < 2; r++) {
    uint32_t base = regions[r][0], size = regions[r][1] & ~3u;
    ok = test_address_lines(t, base, size);
    /* Quick mode: the first and the last window of each region. */
    for (uint64_t off = 0; ok && off < size;) {
      uint32_t len = size - off < chunk ? (uint32_t)(size - off) : chunk;
      ok = test_window(t, base + (uint32_t)off, len, buf, back);
      tested += len;
      off += len;
      if (!t->full && off < size - WINDOW && size > 2 * WINDOW)
        off = size - WINDOW;
    }
  }
  free(buf);
  free(back);
  if (ok)
    snprintf(t->detail, sizeof(t->detail),
             "%" PRIu64 " KiB%s of code and data, %d patterns, address "
             "lines",
             tested / 1024, t->full ? " (all)" : "", PATTERNS);
  return ok;
}

/* Launches the self-test kernel and waits. 0, or a library error with the
 * detail in t->detail. */
static int st_launch(struct selftest *t, uint32_t mode, uint32_t param,
                     uint32_t out, uint32_t nthreads, int timeout_ms)
{
  struct selftest_args a = {mode, param, out};
  struct simty_launch_config cfg = {
      .nthreads = nthreads, .args = &a, .args_size = sizeof(a)};
  int e = simty_launch(t->kernel, &cfg);
  if (e) {
    st_lib(t, e, "launch");
    return e;
  }
  e = simty_wait(t->dev, timeout_ms);
  if (e && e != SIMTY_EFAULT && e != SIMTY_ETIMEDOUT)
    st_lib(t, e, "wait");
  return e;
}

static int step_threads(struct selftest *t, uint32_t out, uint32_t nthreads,
                        struct simty_counters *c)
{
  int e = st_launch(t, SELFTEST_IDENTITY, 0, out, nthreads, 60000);
  if (e == SIMTY_EFAULT) {
    struct simty_fault f;
    char text[160];
    simty_get_fault(t->dev, &f);
    simty_fault_format(&f, text, sizeof(text));
    return st_fail(t, "unexpected fault: %s", text);
  }
  if (e == SIMTY_ETIMEDOUT)
    return st_fail(t, "the launch did not end within 60 s");
  if (e)
    return 0;
  uint32_t harts = t->info.warps * t->info.lanes;
  uint32_t *w = malloc((size_t)nthreads * 12);
  uint8_t *seen = calloc(harts, 1);
  int ok = w && seen;
  if (!ok)
    return st_fail(t, "out of host memory");
  e = simty_read(t->dev, out, w, (size_t)nthreads * 12);
  if (e)
    ok = st_lib(t, e, "read");
  for (uint32_t i = 0; ok && i < nthreads; i++) {
    uint32_t tid = w[3 * i], hart = w[3 * i + 1], n = w[3 * i + 2];
    if (tid != i || n != nthreads || hart >= harts ||
        hart % t->info.lanes != i % t->info.lanes)
      ok = st_fail(t,
                   "thread %" PRIu32 " reported tid %" PRIu32 ", hart %" PRIu32
                   ", count %" PRIu32 " (expected lane %" PRIu32 ")",
                   i, tid, hart, n, i % t->info.lanes);
    else
      seen[hart] = 1;
  }
  for (uint32_t h = 0; ok && h < harts; h++)
    if (!seen[h])
      ok = st_fail(t, "hardware thread %" PRIu32 " (warp %" PRIu32
                      ", lane %" PRIu32 ") never ran",
                   h, h / t->info.lanes, h % t->info.lanes);
  if (ok && (e = simty_get_counters(t->dev, c)) != 0)
    ok = st_lib(t, e, "counters");
  if (ok)
    snprintf(t->detail, sizeof(t->detail),
             "%" PRIu32 " threads on all %u warps x %u lanes", nthreads,
             t->info.warps, t->info.lanes);
  free(w);
  free(seen);
  return ok;
}

static int step_counters(struct selftest *t, uint32_t out, uint32_t nthreads,
                         const struct simty_counters *c1)
{
  const struct simty_counters *c = c1;
  if (c->cycles == 0 || c->warp_insts == 0)
    return st_fail(t, "cycles %" PRIu64 ", warp_insts %" PRIu64
                      " after a launch",
                   c->cycles, c->warp_insts);
  if (c->thread_insts < c->warp_insts ||
      c->thread_insts > c->warp_insts * t->info.lanes)
    return st_fail(t, "thread_insts %" PRIu64 " outside warp_insts %" PRIu64
                      " x 1..%u lanes",
                   c->thread_insts, c->warp_insts, t->info.lanes);
  if (c->mem_requests < 3ull * nthreads || c->mem_transactions == 0)
    return st_fail(t, "mem_requests %" PRIu64 " for %" PRIu32
                      " threads storing 3 words each",
                   c->mem_requests, nthreads);
  /* Twice the threads: the counters are reset per launch and must grow. */
  struct simty_counters c2;
  int e = st_launch(t, SELFTEST_IDENTITY, 0, out, 2 * nthreads, 60000);
  if (e)
    return e == SIMTY_EFAULT ? st_fail(t, "unexpected fault") : 0;
  if ((e = simty_get_counters(t->dev, &c2)) != 0)
    return st_lib(t, e, "counters");
  if (c2.thread_insts <= c->thread_insts || c2.cycles <= c->cycles)
    return st_fail(t, "counters did not advance with twice the threads: "
                      "thread_insts %" PRIu64 " -> %" PRIu64,
                   c->thread_insts, c2.thread_insts);
  snprintf(t->detail, sizeof(t->detail),
           "ipc %.3f, simd efficiency %.3f, thread_insts %" PRIu64
           " -> %" PRIu64,
           simty_counters_ipc(c), simty_counters_simd_efficiency(c),
           c->thread_insts, c2.thread_insts);
  return 1;
}

static int step_diverge(struct selftest *t, uint32_t out, uint32_t nthreads)
{
  int e = st_launch(t, SELFTEST_DIVERGE, 0, out, nthreads, 60000);
  if (e)
    return e == SIMTY_EFAULT ? st_fail(t, "unexpected fault") : 0;
  uint32_t *w = malloc((size_t)nthreads * 4);
  if (!w)
    return st_fail(t, "out of host memory");
  int ok = 1;
  if ((e = simty_read(t->dev, out, w, (size_t)nthreads * 4)) != 0)
    ok = st_lib(t, e, "read");
  for (uint32_t i = 0; ok && i < nthreads; i++)
    if (w[i] != selftest_diverge(i))
      ok = st_fail(t, "thread %" PRIu32 ": 0x%08" PRIx32
                      ", expected 0x%08" PRIx32,
                   i, w[i], selftest_diverge(i));
  free(w);
  struct simty_counters c;
  if (ok && (e = simty_get_counters(t->dev, &c)) != 0)
    ok = st_lib(t, e, "counters");
  if (ok && t->info.lanes > 1 &&
      (c.divergent_branches == 0 || c.path_merges == 0))
    ok = st_fail(t, "divergent_branches %" PRIu64 ", path_merges %" PRIu64
                    ": divergence or reconvergence not counted",
                 c.divergent_branches, c.path_merges);
  if (ok)
    snprintf(t->detail, sizeof(t->detail),
             "%" PRIu64 " divergent branches, %" PRIu64
             " merges, simd efficiency %.3f",
             c.divergent_branches, c.path_merges,
             simty_counters_simd_efficiency(&c));
  return ok;
}

struct captured {
  uint32_t count;
  uint32_t bad_tid;
  int bad;
};

static void capture_console(void *user, uint32_t tid, const char *line,
                            size_t len)
{
  struct captured *cap = user;
  char want[32];
  snprintf(want, sizeof(want), "selftest %" PRIu32, tid);
  if (len != strlen(want) || memcmp(line, want, len) != 0) {
    if (!cap->bad)
      cap->bad_tid = tid;
    cap->bad = 1;
  }
  cap->count++;
}

static int step_console(struct selftest *t, uint32_t out, uint32_t nthreads)
{
  struct captured cap = {0, 0, 0};
  uint32_t printers = nthreads < 8 ? nthreads : 8;
  simty_set_console(t->dev, capture_console, &cap);
  int e = st_launch(t, SELFTEST_CONSOLE, printers, out, nthreads, 60000);
  simty_set_console(t->dev, NULL, NULL);
  if (e)
    return e == SIMTY_EFAULT ? st_fail(t, "unexpected fault") : 0;
  if (cap.bad)
    return st_fail(t, "thread %" PRIu32 " printed a wrong line",
                   cap.bad_tid);
  if (cap.count != printers)
    return st_fail(t, "%" PRIu32 " console lines, expected %" PRIu32,
                   cap.count, printers);
  snprintf(t->detail, sizeof(t->detail), "%" PRIu32 " lines", printers);
  return 1;
}

static int step_fault(struct selftest *t, uint32_t out, uint32_t nthreads)
{
  uint32_t victim = nthreads - 1; /* in the last wave */
  int e = st_launch(t, SELFTEST_TRAP, victim, out, nthreads, 60000);
  if (e != SIMTY_EFAULT)
    return e ? 0 : st_fail(t, "ebreak in thread %" PRIu32 " did not fault",
                           victim);
  struct simty_fault f;
  simty_get_fault(t->dev, &f);
  if (f.cause != SIMTY_FAULT_EBREAK || f.tid != victim)
    return st_fail(t, "fault %s in thread %" PRIu32
                      ", expected ebreak in thread %" PRIu32,
                   simty_fault_name(f.cause), f.tid, victim);
  /* The device must take the next launch. */
  e = st_launch(t, SELFTEST_IDENTITY, 0, out, 1, 60000);
  if (e)
    return e == SIMTY_EFAULT ? st_fail(t, "launch after the fault faulted")
                             : 0;
  snprintf(t->detail, sizeof(t->detail),
           "ebreak reported at pc 0x%08" PRIx32 " tid %" PRIu32
           "; next launch ran",
           f.pc, f.tid);
  return 1;
}

static int step_abort(struct selftest *t, uint32_t out)
{
  int e = st_launch(t, SELFTEST_SPIN, 0, out, t->info.warps * t->info.lanes,
                    50);
  if (e != SIMTY_ETIMEDOUT)
    return e ? (e == SIMTY_EFAULT ? st_fail(t, "spinning kernel faulted") : 0)
             : st_fail(t, "a kernel that never ends ended");
  if ((e = simty_abort(t->dev)) != 0)
    return st_lib(t, e, "abort");
  e = simty_wait(t->dev, 10000);
  struct simty_fault f;
  simty_get_fault(t->dev, &f);
  if (e != SIMTY_EFAULT || f.cause != SIMTY_FAULT_ABORTED)
    return st_fail(t, "after abort: %s, fault %s", simty_strerror(e),
                   simty_fault_name(f.cause));
  snprintf(t->detail, sizeof(t->detail),
           "wait timed out, abort ended the launch");
  return 1;
}

static int cmd_selftest(simty_device *dev, int json, int full)
{
  struct selftest t = {.dev = dev, .json = json, .full = full};
  t.step_start = seconds();
  simty_device_info(dev, &t.info);
  const struct simty_device_info *in = &t.info;
  if (json) {
    printf("{\"device\": ");
    json_string(stdout, simty_device_uri(dev), strlen(simty_device_uri(dev)));
    printf(", \"steps\": [");
  } else {
    printf("selftest of %s (%u warps x %u lanes)\n", simty_device_uri(dev),
           in->warps, in->lanes);
  }

  /* link: the device answered INFO at open; check what it said and do a
   * round trip. */
  int ok = 1;
  t.detail[0] = '\0';
  if (!in->warps || (in->warps & (in->warps - 1)) || !in->lanes ||
      (in->lanes & (in->lanes - 1)) || in->code_size < 4096 ||
      in->data_size < 65536)
    ok = st_fail(&t, "implausible device info: %u x %u, code %" PRIu32
                     ", data %" PRIu32,
                 in->warps, in->lanes, in->code_size, in->data_size);
  uint8_t ping[256], pong[256];
  for (unsigned i = 0; ok && i < sizeof(ping); i++)
    ping[i] = (uint8_t)(i * 7 + 3);
  int e = ok ? simty_write(dev, in->data_base, ping, sizeof(ping)) : 0;
  if (ok && e)
    ok = st_lib(&t, e, "write");
  if (ok && (e = simty_read(dev, in->data_base, pong, sizeof(pong))) != 0)
    ok = st_lib(&t, e, "read");
  if (ok && memcmp(ping, pong, sizeof(ping)) != 0)
    ok = st_fail(&t, "256 bytes written and read back differ");
  if (ok) {
    if (in->protocol_version)
      snprintf(t.detail, sizeof(t.detail),
               "protocol %u, firmware 0x%06" PRIx32 ", %u-byte payloads",
               in->protocol_version, in->firmware_version, in->max_payload);
    else
      snprintf(t.detail, sizeof(t.detail), "in-process %s", in->backend);
  }
  step_report(&t, "link", ok);
  int link_ok = ok;

  if (link_ok) {
    t.detail[0] = '\0';
    step_report(&t, "memory", step_memory(&t));
  }

  t.detail[0] = '\0';
  ok = link_ok;
  if (ok) {
    e = simty_kernel_load_bytes(dev, simty_selftest_elf,
                                simty_selftest_elf_size, &t.kernel);
    if (e)
      ok = st_lib(&t, e, "load");
    else
      snprintf(t.detail, sizeof(t.detail), "%lu-byte ELF",
               simty_selftest_elf_size);
    step_report(&t, "kernel", ok);
  }
  if (ok) {
    /* Three full waves plus a partial block. */
    uint32_t harts = in->warps * in->lanes;
    uint32_t nthreads = 3 * harts + (in->lanes > 1 ? in->lanes / 2 : 1);
    uint32_t out;
    e = simty_malloc(dev, (size_t)2 * nthreads * 12, &out);
    if (e) {
      st_lib(&t, e, "allocate");
      step_report(&t, "threads", 0);
    } else {
      struct simty_counters c;
      t.detail[0] = '\0';
      int threads_ok = step_threads(&t, out, nthreads, &c);
      step_report(&t, "threads", threads_ok);
      t.detail[0] = '\0';
      if (threads_ok)
        step_report(&t, "counters", step_counters(&t, out, nthreads, &c));
      t.detail[0] = '\0';
      step_report(&t, "divergence", step_diverge(&t, out, nthreads));
      t.detail[0] = '\0';
      step_report(&t, "console", step_console(&t, out, nthreads));
      t.detail[0] = '\0';
      step_report(&t, "fault", step_fault(&t, out, nthreads));
      t.detail[0] = '\0';
      step_report(&t, "abort", step_abort(&t, out));
      simty_free(dev, out);
    }
    simty_kernel_free(t.kernel);
  }
  if (json)
    printf("], \"passed\": %d, \"failed\": %d}\n", t.steps - t.failures,
           t.failures);
  else if (t.failures)
    printf("selftest: FAIL (%d of %d steps failed)\n", t.failures, t.steps);
  else
    printf("selftest: PASS (%d steps)\n", t.steps);
  return t.failures ? EXIT_ERROR : EXIT_OK;
}

/* ---- main ---- */

int main(int argc, char **argv)
{
  const char *uri = NULL, *command = NULL;
  int json = 0, full = 0, version = 0;
  struct run_opts ro = {.timeout_ms = 60000};
  ro.arg_values = calloc((size_t)argc, sizeof(*ro.arg_values));
  ro.dumps = calloc((size_t)argc, sizeof(*ro.dumps));
  int rc = EXIT_USAGE;
  if (!ro.arg_values || !ro.dumps) {
    fprintf(stderr, PROG ": out of memory\n");
    rc = EXIT_ERROR;
    goto out;
  }
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
      fputs(usage_text, stdout);
      rc = EXIT_OK;
      goto out;
    }
    if (strcmp(opt, "--version") == 0) {
      version = 1;
      continue;
    }
    if (strcmp(opt, "--json") == 0) {
      json = 1;
      continue;
    }
    if (strcmp(opt, "--counters") == 0) {
      ro.counters = 1;
      continue;
    }
    if (strcmp(opt, "--quiet") == 0) {
      ro.quiet = 1;
      continue;
    }
    if (strcmp(opt, "--full") == 0) {
      full = 1;
      continue;
    }
    if (opt[0] == '-' && opt[1] != '-') {
      rc = usage_error("unknown option '%s'", opt);
      goto out;
    }
    if (strncmp(opt, "--", 2) != 0) {
      if (!command)
        command = opt;
      else if (strcmp(command, "run") == 0 && !ro.kernel)
        ro.kernel = opt;
      else {
        rc = usage_error("unexpected argument '%s'", opt);
        goto out;
      }
      continue;
    }
    /* --name VALUE or --name=VALUE */
    char name[32];
    const char *eq = strchr(opt, '=');
    size_t nlen = eq ? (size_t)(eq - opt) : strlen(opt);
    if (nlen >= sizeof(name)) {
      rc = usage_error("unknown option '%s'", opt);
      goto out;
    }
    memcpy(name, opt, nlen);
    name[nlen] = '\0';
    static const char *const valued[] = {
        "--device", "--threads",    "--arg",       "--args",
        "--dump",   "--timeout",    "--max-cycles", "--stack-log2"};
    int known = 0;
    for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
      known |= strcmp(name, valued[k]) == 0;
    if (!known) {
      rc = usage_error("unknown option '%s'", name);
      goto out;
    }
    const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    if (!value) {
      rc = usage_error("option %s needs a value", name);
      goto out;
    }
    int bad = 0;
    if (strcmp(name, "--device") == 0)
      uri = value;
    else if (strcmp(name, "--threads") == 0)
      bad = parse_u64(value, SIMTY_MAX_THREADS, &ro.threads) || !ro.threads;
    else if (strcmp(name, "--arg") == 0)
      ro.arg_values[ro.nargs++] = value;
    else if (strcmp(name, "--args") == 0)
      ro.args_symbol = value;
    else if (strcmp(name, "--timeout") == 0)
      bad = parse_u64(value, UINT64_MAX, &ro.timeout_ms);
    else if (strcmp(name, "--max-cycles") == 0)
      bad = parse_u64(value, UINT64_MAX, &ro.max_cycles);
    else if (strcmp(name, "--stack-log2") == 0)
      bad = parse_u64(value, SIMTY_STACK_LOG2_MAX, &ro.stack_log2) ||
            ro.stack_log2 < SIMTY_STACK_LOG2_MIN;
    else { /* --dump SYMBOL:COUNT */
      const char *colon = strrchr(value, ':');
      uint64_t count;
      if (!colon || colon == value || parse_u64(colon + 1, 1u << 24, &count)) {
        bad = 1;
      } else {
        struct dump_req *d = &ro.dumps[ro.ndumps++];
        d->symbol = strndup(value, (size_t)(colon - value));
        d->count = (uint32_t)count;
        if (!d->symbol) {
          fprintf(stderr, PROG ": out of memory\n");
          rc = EXIT_ERROR;
          goto out;
        }
      }
    }
    if (bad) {
      rc = usage_error("bad value '%s' for %s", value, name);
      goto out;
    }
  }
  if (version) {
    rc = print_version(uri ? uri : getenv("SIMTY_DEVICE"));
    goto out;
  }
  if (!command) {
    rc = usage_error("no command given");
    goto out;
  }
  int is_run = strcmp(command, "run") == 0;
  if (strcmp(command, "info") && !is_run && strcmp(command, "counters") &&
      strcmp(command, "selftest") && strcmp(command, "abort")) {
    rc = usage_error("unknown command '%s'", command);
    goto out;
  }
  if (is_run && !ro.kernel) {
    rc = usage_error("run needs a kernel ELF");
    goto out;
  }
  if (!is_run && (ro.kernel || ro.nargs || ro.ndumps || ro.args_symbol ||
                  ro.threads || ro.counters)) {
    rc = usage_error("run options given to '%s'", command);
    goto out;
  }
  if (ro.nargs && ro.args_symbol) {
    rc = usage_error("--arg and --args exclude each other");
    goto out;
  }

  simty_device *dev;
  int e = simty_open(uri, &dev);
  if (e) {
    fprintf(stderr, PROG ": cannot open the device: %s: %s\n",
            simty_strerror(e), simty_last_error(NULL));
    rc = EXIT_ERROR;
    goto out;
  }
  if (!json && isatty(STDERR_FILENO))
    simty_set_progress(dev, progress, NULL);
  if (strcmp(command, "info") == 0)
    rc = cmd_info(dev, json);
  else if (strcmp(command, "counters") == 0)
    rc = cmd_counters(dev, json);
  else if (strcmp(command, "abort") == 0)
    rc = cmd_abort(dev, json);
  else if (is_run)
    rc = cmd_run(dev, json, &ro);
  else
    rc = cmd_selftest(dev, json, full);
  simty_close(dev);
out:
  for (size_t k = 0; k < ro.ndumps; k++)
    free(ro.dumps[k].symbol);
  free(ro.dumps);
  free(ro.arg_values);
  return rc;
}
