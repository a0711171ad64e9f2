/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example.c - shared scaffolding of the example host programs (see
 * example.h).
 */
#include "example.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *name, const char *msg)
{
  fprintf(stderr,
          "%s: %s\nusage: %s [--device URI] [--kernel PATH] [--n N] "
          "[--seed S] [--quiet]\n",
          name, msg, name);
  exit(EXAMPLE_USAGE);
}

/* A number of at most 32 bits, digits only (0x hex too): no sign, no
 * leading space, nothing after. Every size and seed is 32-bit: a larger
 * value used to be truncated silently (--n 4294967297 ran n = 1). */
static uint64_t parse_number(const char *name, const char *opt,
                             const char *value)
{
  char *end = NULL;
  errno = 0;
  unsigned long long v = value && isdigit((unsigned char)*value)
                             ? strtoull(value, &end, 0)
                             : 0;
  if (!end || errno || *end || v > UINT32_MAX) {
    char msg[160];
    snprintf(msg, sizeof(msg), "bad value '%s' for %s (0 .. %" PRIu32 ")",
             value ? value : "", opt, UINT32_MAX);
    usage(name, msg);
  }
  return v;
}

void example_die(struct example *ex, int error, const char *what)
{
  fprintf(stderr, "%s: %s: %s (%s)\n", ex->name, what,
          simty_strerror(error), simty_last_error(ex->dev));
  exit(EXAMPLE_DEVICE_ERROR);
}

void example_init(struct example *ex, int argc, char **argv,
                  const char *name, const char *default_kernel,
                  uint64_t default_n)
{
  example_init_isa(ex, argc, argv, name, default_kernel, default_n, 0);
}

void example_init_isa(struct example *ex, int argc, char **argv,
                      const char *name, const char *default_kernel,
                      uint64_t default_n, unsigned extensions)
{
  memset(ex, 0, sizeof(*ex));
  ex->name = name;
  ex->n = default_n;
  ex->seed = 1;
  ex->timeout_ms = 120000;
  const char *uri = NULL, *kernel = default_kernel;
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(opt, "--quiet") == 0) {
      ex->quiet = 1;
      continue;
    }
    if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0)
      usage(name, "runs the example and checks it against the CPU");
    if (strcmp(opt, "--device") == 0)
      uri = value;
    else if (strcmp(opt, "--kernel") == 0)
      kernel = value;
    else if (strcmp(opt, "--n") == 0)
      ex->n = parse_number(name, opt, value);
    else if (strcmp(opt, "--seed") == 0)
      ex->seed = (uint32_t)parse_number(name, opt, value);
    else {
      char msg[160];
      snprintf(msg, sizeof(msg), "unknown option '%s'", opt);
      usage(name, msg);
    }
    if (!value) {
      char msg[160];
      snprintf(msg, sizeof(msg), "option %s needs a value", opt);
      usage(name, msg);
    }
    i++;
  }
  ex->rng = 0x9E3779B97F4A7C15ull ^ ex->seed;
  int e = simty_open(uri, &ex->dev);
  if (e)
    example_die(ex, e, "cannot open the device");
  simty_device_info(ex->dev, &ex->info);
  if ((ex->info.extensions & extensions) != extensions) {
    unsigned missing = extensions & ~ex->info.extensions;
    printf("%s: SKIP: device %s lacks the%s%s%s extension this example "
           "needs (the model has it: model?isa=rv32ima_zicntr)\n",
           name, simty_device_uri(ex->dev),
           missing & SIMTY_EXT_M ? " M" : "", missing & SIMTY_EXT_A ? " A" : "",
           missing & SIMTY_EXT_ZICNTR ? " Zicntr" : "");
    simty_close(ex->dev);
    exit(EXAMPLE_PASS);
  }
  e = simty_kernel_load(ex->dev, kernel, &ex->kernel);
  if (e)
    example_die(ex, e, "cannot load the kernel");
  printf("%s: device %s (%u warps x %u lanes), n = %" PRIu64 "\n", name,
         simty_device_uri(ex->dev), ex->info.warps, ex->info.lanes, ex->n);
}

void example_check_n(struct example *ex, uint64_t max, const char *what)
{
  if (ex->n >= 1 && ex->n <= max)
    return;
  fprintf(stderr, "%s: --n%s%s%s must be 1 .. %" PRIu64 "\n", ex->name,
          what ? " (" : "", what ? what : "", what ? ")" : "", max);
  simty_kernel_free(ex->kernel);
  simty_close(ex->dev);
  exit(EXAMPLE_USAGE);
}

uint32_t example_upload(struct example *ex, const void *src, size_t size)
{
  uint32_t addr;
  int e = simty_malloc(ex->dev, size ? size : 1, &addr);
  if (e)
    example_die(ex, e, "cannot allocate device memory");
  if (size) {
    void *fill = NULL;
    if (!src) {
      fill = malloc(size);
      if (!fill)
        example_die(ex, SIMTY_ENOMEM, "out of host memory");
      memset(fill, 0xA5, size);
      src = fill;
    }
    e = simty_write_async(ex->dev, addr, src, size, NULL);
    free(fill);
    if (e)
      example_die(ex, e, "cannot write device memory");
  }
  return addr;
}

void example_download(struct example *ex, uint32_t addr, void *dst,
                      size_t size)
{
  int e = simty_read(ex->dev, addr, dst, size);
  if (e)
    example_die(ex, e, "cannot read device memory");
}

/* Counters add up over launches, except a peak which is a maximum. */
static void add_counters(struct example *ex, const struct simty_counters *c)
{
#define SUM_(name, index, text)                                                \
  ex->total.name = index == SIMTY_CTR_cct_peak                                 \
                       ? (c->name > ex->total.name ? c->name : ex->total.name) \
                       : ex->total.name + c->name;
  SIMTY_COUNTER_MAP(SUM_)
#undef SUM_
  ex->total.lanes = c->lanes;
}


/* A launch's result: a fault ends the program with its record. */
static void launch_check(struct example *ex, int e)
{
  if (e == SIMTY_EFAULT) {
    struct simty_fault f;
    char text[160];
    simty_get_fault(ex->dev, &f);
    simty_fault_format(&f, text, sizeof(text));
    fprintf(stderr, "%s: FAIL: the kernel faulted: %s\n", ex->name, text);
    exit(EXAMPLE_FAULT);
  }
  if (e)
    example_die(ex, e, "launch failed");
}

void example_run(struct example *ex, const void *args, size_t args_size,
                 uint32_t nthreads)
{
  struct simty_launch_config cfg = {
      .nthreads = nthreads, .args = args, .args_size = args_size};
  int e = simty_run(ex->kernel, &cfg, ex->timeout_ms);
  launch_check(ex, e);
  struct simty_counters c;
  e = simty_get_counters(ex->dev, &c);
  if (e)
    example_die(ex, e, "cannot read the counters");
  add_counters(ex, &c);
  ex->launches++;
}

void example_submit(struct example *ex, const void *args, size_t args_size,
                    uint32_t nthreads)
{
  struct simty_launch_config cfg = {
      .nthreads = nthreads, .args = args, .args_size = args_size};
  int e = simty_launch_async(ex->kernel, &cfg, NULL);
  launch_check(ex, e);
  ex->submitted++;
}

void example_sync(struct example *ex)
{
  int e = simty_sync(ex->dev, ex->timeout_ms);
  if (e == SIMTY_EFAULT) {
    struct simty_fault f;
    char text[160];
    simty_get_fault(ex->dev, &f);
    simty_fault_format(&f, text, sizeof(text));
    fprintf(stderr, "%s: FAIL: the kernel faulted: %s\n", ex->name, text);
    exit(EXAMPLE_FAULT);
  }
  if (e)
    example_die(ex, e, "waiting for the launches failed");
  if (!ex->submitted)
    return;
  /* The counters of a sequence cover all its launches. */
  struct simty_counters c;
  e = simty_get_counters(ex->dev, &c);
  if (e)
    example_die(ex, e, "cannot read the counters");
  add_counters(ex, &c);
  ex->launches += ex->submitted;
  ex->submitted = 0;
}

uint64_t example_compare(struct example *ex, const char *what,
                         const int32_t *got, const int32_t *want, uint64_t n)
{
  uint64_t bad = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (got[i] == want[i])
      continue;
    if (bad < 5)
      fprintf(stderr, "%s: %s[%" PRIu64 "] = %" PRId32 ", expected %" PRId32
                      "\n",
              ex->name, what, i, got[i], want[i]);
    bad++;
  }
  if (bad > 5)
    fprintf(stderr, "%s: ... %" PRIu64 " mismatches in %s\n", ex->name, bad,
            what);
  return bad;
}

int example_finish(struct example *ex, uint64_t mismatches,
                   const char *summary)
{
  if (mismatches)
    printf("%s: FAIL: %" PRIu64 " mismatches (%s)\n", ex->name, mismatches,
           summary);
  else
    printf("%s: PASS: %s\n", ex->name, summary);
  if (!ex->quiet && ex->launches) {
    char text[1024];
    simty_counters_format(&ex->total, text, sizeof(text));
    printf("counters (%u launch%s):\n%s", ex->launches,
           ex->launches == 1 ? "" : "es", text);
  }
  simty_kernel_free(ex->kernel);
  simty_close(ex->dev);
  return mismatches ? EXAMPLE_MISMATCH : EXAMPLE_PASS;
}
