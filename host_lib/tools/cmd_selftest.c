/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_selftest.c - `simty selftest [--full]`: board bring-up, step by step
 * (link, memory, kernel, threads, counters, divergence, console, fault,
 * abort), each saying ok or FAIL with what failed and how long it took.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "selftest_kernel.h"
#include "simty_cli.h"

extern const unsigned char simty_selftest_elf[];
extern const unsigned long simty_selftest_elf_size;


struct selftest {
  simty_device *dev;
  struct simty_device_info info;
  simty_kernel *kernel;
  int json;
  int full;
  int show_progress; /* text on a terminal: long steps say where they are */
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
    json_cstring(stdout, t->detail);
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

/* "  memory       code 0x00010000: 12 of 64 KiB" on stderr, redrawn. */
static void memory_progress(int region, uint32_t base, uint64_t off,
                            uint32_t size)
{
  fprintf(stderr, "\r\033[K  memory       %s 0x%08" PRIx32 ": %" PRIu64
                  " of %" PRIu32 " KiB...",
          region ? "data" : "code", base, off / 1024, size / 1024);
  fflush(stderr);
}

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
    if (t->show_progress)
      memory_progress(r, base, 0, size);
    ok = test_address_lines(t, base, size);
    /* Quick mode: the first and the last window of each region. */
    for (uint64_t off = 0; ok && off < size;) {
      uint32_t len = size - off < chunk ? (uint32_t)(size - off) : chunk;
      if (t->show_progress)
        memory_progress(r, base, off, size);
      ok = test_window(t, base + (uint32_t)off, len, buf, back);
      tested += len;
      off += len;
      if (!t->full && off < size - WINDOW && size > 2 * WINDOW)
        off = size - WINDOW;
    }
  }
  free(buf);
  free(back);
  if (t->show_progress) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
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

int cmd_selftest(struct cli *c)
{
  simty_device *dev = c->dev;
  int json = c->json;
  struct selftest t = {.dev = dev, .json = json, .full = c->full,
                       .show_progress = !json && isatty(STDERR_FILENO)};
  t.step_start = seconds();
  simty_device_info(dev, &t.info);
  const struct simty_device_info *in = &t.info;
  if (json) {
    printf("{\"device\": ");
    json_cstring(stdout, simty_device_uri(dev));
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
