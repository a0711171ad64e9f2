/* SPDX-License-Identifier: Apache-2.0 */
/* example_blob_stub.c - the examples' host API (examples/common/example.h)
 * without a device, for bench/example_core_ipc.py: linked with an
 * example's host.c instead of example.c, it draws the same inputs (same
 * example_rand, --n and --seed), and example_run prints a C file that
 * puts every uploaded buffer and the argument block in the kernel's .data
 * (bench_args; a word equal to an upload's address becomes that array's
 * address). Downloads read zeros and comparisons report no mismatch. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define STUB_MAX_BUFS 32
#define STUB_TOKEN 0xB10B0000u /* the fake device address of upload i: +64 i */

static struct {
  uint8_t *data;
  size_t size;
} bufs[STUB_MAX_BUFS];
static unsigned nbufs;

void example_init(struct example *ex, int argc, char **argv, const char *name,
                  const char *default_kernel, uint64_t default_n)
{
  example_init_isa(ex, argc, argv, name, default_kernel, default_n, 0);
}

void example_init_isa(struct example *ex, int argc, char **argv,
                      const char *name, const char *default_kernel,
                      uint64_t default_n, unsigned extensions)
{
  (void)default_kernel;
  (void)extensions;
  memset(ex, 0, sizeof(*ex));
  ex->name = name;
  ex->n = default_n;
  ex->seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--n") == 0)
      ex->n = strtoull(argv[i + 1], NULL, 0);
    else if (strcmp(argv[i], "--seed") == 0)
      ex->seed = (uint32_t)strtoul(argv[i + 1], NULL, 0);
  }
  ex->rng = 0x9E3779B97F4A7C15ull ^ ex->seed;
}

void example_check_n(struct example *ex, uint64_t max, const char *what)
{
  if (ex->n >= 1 && ex->n <= max)
    return;
  fprintf(stderr, "%s: --n%s%s%s must be 1 .. %" PRIu64 "\n", ex->name,
          what ? " (" : "", what ? what : "", what ? ")" : "", max);
  exit(EXAMPLE_USAGE);
}

uint32_t example_upload(struct example *ex, const void *src, size_t size)
{
  if (nbufs == STUB_MAX_BUFS) {
    fprintf(stderr, "%s: too many uploads for the stub\n", ex->name);
    exit(1);
  }
  size_t words = (size + 3) / 4;
  bufs[nbufs].data = calloc(words ? words : 1, 4);
  if (!bufs[nbufs].data) {
    fprintf(stderr, "%s: out of memory\n", ex->name);
    exit(1);
  }
  if (src)
    memcpy(bufs[nbufs].data, src, size);
  bufs[nbufs].size = words * 4;
  return STUB_TOKEN + 64u * nbufs++;
}

void example_download(struct example *ex, uint32_t addr, void *dst, size_t size)
{
  (void)ex;
  (void)addr;
  memset(dst, 0, size);
}

static void print_word(uint32_t w)
{
  if (w >= STUB_TOKEN && (w - STUB_TOKEN) % 64 == 0 &&
      (w - STUB_TOKEN) / 64 < nbufs)
    printf("(uint32_t)bench_buf%u", (unsigned)((w - STUB_TOKEN) / 64));
  else
    printf("0x%08" PRIx32 "u", w);
}

void example_run(struct example *ex, const void *args, size_t args_size,
                 uint32_t nthreads)
{
  printf("/* %s: %" PRIu32 " threads */\n#include <stdint.h>\n", ex->name,
         nthreads);
  for (unsigned b = 0; b < nbufs; b++) {
    printf("uint32_t bench_buf%u[%zu] = {", b, bufs[b].size / 4);
    for (size_t i = 0; i < bufs[b].size / 4; i++) {
      uint32_t w;
      memcpy(&w, bufs[b].data + 4 * i, 4);
      printf("%s0x%08" PRIx32 "u", i ? ", " : "", w);
    }
    printf("};\n");
  }
  printf("uint32_t bench_args[%zu] = {", (args_size + 3) / 4);
  for (size_t i = 0; i < (args_size + 3) / 4; i++) {
    uint32_t w = 0;
    memcpy(&w, (const uint8_t *)args + 4 * i,
           args_size - 4 * i < 4 ? args_size - 4 * i : 4);
    printf("%s", i ? ", " : "");
    print_word(w);
  }
  printf("};\n");
  fprintf(stderr, "%s: threads %" PRIu32 "\n", ex->name, nthreads);
}

void example_submit(struct example *ex, const void *args, size_t args_size,
                    uint32_t nthreads)
{
  example_run(ex, args, args_size, nthreads);
}

void example_sync(struct example *ex)
{
  (void)ex;
}

uint64_t example_compare(struct example *ex, const char *what,
                         const int32_t *got, const int32_t *want, uint64_t n)
{
  (void)ex;
  (void)what;
  (void)got;
  (void)want;
  (void)n;
  return 0;
}

int example_finish(struct example *ex, uint64_t mismatches, const char *summary)
{
  (void)ex;
  (void)mismatches;
  (void)summary;
  return 0;
}

void example_die(struct example *ex, int error, const char *what)
{
  fprintf(stderr, "%s: %s (%d)\n", ex->name, what, error);
  exit(1);
}

/* Called only on the examples' error paths. */
void simty_kernel_free(simty_kernel *kernel)
{
  (void)kernel;
}

void simty_close(simty_device *dev)
{
  (void)dev;
}
