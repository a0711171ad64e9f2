/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fault_client.c - one operation of the fault-injection suite
 * (tests/board/test_fault_injection.py) through libsimty, on a device
 * reached through the fault proxy (tests/board/fault_proxy.py):
 *
 *   fault_client URI bulk SEED BYTES OFFSET
 *       writes BYTES pseudo-random bytes (from SEED) at data_base + OFFSET,
 *       reads them back and compares them byte by byte
 *   fault_client URI inc KERNEL.elf THREADS SEED
 *       loads KERNEL (tests/board/kernels/inc.c), zeroes x[0..THREADS+15],
 *       runs THREADS threads (each adds 1 to x[tid]) and reads x back:
 *       after a successful run x[0..THREADS-1] must all be 1 and the 16
 *       words after them 0; after a failed one, no word may exceed 1
 *   fault_client URI abort
 *       ends a launch another (killed) process left running, as
 *       `simty abort` does: nothing running is success too
 *
 * One line on stdout: "RESULT ok", "RESULT error NAME STEP: DETAIL" (a
 * library error: the driver decides whether NAME is a clean one) or
 * "RESULT corrupt DETAIL" (wrong data after success, or a launch that ran
 * twice). Exit status 0, 1, 2 respectively; 64 on a usage error. Run with
 * SIMTY_LINK_STATS=1 the library prints its link counters (retransmits)
 * on stderr when the device is closed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty.h"

enum { R_OK = 0, R_ERROR = 1, R_CORRUPT = 2, R_USAGE = 64 };

static uint32_t rng_state;

static uint32_t rng(void)
{
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

static int fail_error(simty_device *dev, int e, const char *step)
{
  printf("RESULT error %s %s: %s\n", simty_error_name(e), step,
         simty_last_error(dev));
  return R_ERROR;
}

static int op_bulk(simty_device *dev, uint32_t seed, uint32_t bytes,
                   uint32_t offset)
{
  struct simty_device_info in;
  simty_device_info(dev, &in);
  uint8_t *src = malloc(bytes ? bytes : 1);
  uint8_t *dst = malloc(bytes ? bytes : 1);
  if (!src || !dst) {
    free(src);
    free(dst);
    printf("RESULT error SIMTY_ENOMEM host buffers\n");
    return R_ERROR;
  }
  rng_state = seed ? seed : 1;
  for (uint32_t i = 0; i < bytes; i++)
    src[i] = (uint8_t)rng();
  memset(dst, 0xA5, bytes);
  int rc;
  int e = simty_write(dev, in.data_base + offset, src, bytes);
  if (e) {
    rc = fail_error(dev, e, "write");
  } else if ((e = simty_read(dev, in.data_base + offset, dst, bytes)) != 0) {
    rc = fail_error(dev, e, "read");
  } else {
    uint32_t bad = 0, first = 0;
    for (uint32_t i = 0; i < bytes; i++)
      if (src[i] != dst[i] && bad++ == 0)
        first = i;
    if (bad) {
      printf("RESULT corrupt %" PRIu32 " of %" PRIu32
             " bytes differ after a successful write and read (first at "
             "offset %" PRIu32 ": wrote 0x%02x, read 0x%02x)\n",
             bad, bytes, first, src[first], dst[first]);
      rc = R_CORRUPT;
    } else {
      printf("RESULT ok\n");
      rc = R_OK;
    }
  }
  free(src);
  free(dst);
  return rc;
}

static int op_inc(simty_device *dev, const char *elf, uint32_t threads)
{
  simty_kernel *k;
  int e = simty_kernel_load(dev, elf, &k);
  if (e)
    return fail_error(dev, e, "load");
  uint32_t x;
  uint32_t xsize;
  if ((e = simty_kernel_symbol(k, "x", &x, &xsize)) != 0) {
    simty_kernel_free(k);
    return fail_error(dev, e, "symbol x");
  }
  uint32_t words = threads + 16;
  if ((size_t)words * 4 > xsize) {
    simty_kernel_free(k);
    printf("RESULT error SIMTY_EINVAL THREADS + 16 > x's %" PRIu32 " words\n",
           xsize / 4);
    return R_ERROR;
  }
  uint32_t *v = calloc(words, 4);
  if (!v) {
    simty_kernel_free(k);
    printf("RESULT error SIMTY_ENOMEM host buffers\n");
    return R_ERROR;
  }
  int rc;
  if ((e = simty_write(dev, x, v, (size_t)words * 4)) != 0) {
    rc = fail_error(dev, e, "zero x");
    goto out;
  }
  struct simty_launch_config cfg = {.nthreads = threads};
  int run = simty_run(k, &cfg, 20000);
  char run_detail[256];
  snprintf(run_detail, sizeof run_detail, "%s", simty_last_error(dev));
  /* Read x back whatever the run said: even a failed launch may have run,
   * but never twice. */
  for (uint32_t i = 0; i < words; i++)
    v[i] = 0xDEADBEEFu;
  e = simty_read(dev, x, v, (size_t)words * 4);
  uint32_t twice = 0, wrong = 0, first = 0;
  if (e == 0) {
    for (uint32_t i = 0; i < words; i++) {
      uint32_t want = i < threads ? 1u : 0u;
      if (v[i] > 1u)
        twice++;
      if (v[i] != want && wrong++ == 0)
        first = i;
    }
  }
  if (e == 0 && twice) {
    printf("RESULT corrupt %" PRIu32 " words of x above 1 after a run that "
           "returned %s (x[%" PRIu32 "] = %" PRIu32 "): a launch ran twice\n",
           twice, simty_error_name(run), first, v[first]);
    rc = R_CORRUPT;
  } else if (run == 0 && e == 0 && wrong) {
    printf("RESULT corrupt %" PRIu32 " words of x wrong after a successful "
           "run (x[%" PRIu32 "] = %" PRIu32 ")\n",
           wrong, first, v[first]);
    rc = R_CORRUPT;
  } else if (run) {
    printf("RESULT error %s run: %s\n", simty_error_name(run), run_detail);
    rc = R_ERROR;
  } else if (e) {
    rc = fail_error(dev, e, "read x");
  } else {
    printf("RESULT ok\n");
    rc = R_OK;
  }
out:
  free(v);
  simty_kernel_free(k);
  return rc;
}

static int op_abort(simty_device *dev)
{
  int e = simty_wait(dev, 0);
  if (e == 0 || e == SIMTY_ENOLAUNCH || e == SIMTY_EFAULT) {
    printf("RESULT ok\n");
    return R_OK;
  }
  if (e != SIMTY_ETIMEDOUT)
    return fail_error(dev, e, "status");
  if ((e = simty_abort(dev)) != 0)
    return fail_error(dev, e, "abort");
  e = simty_wait(dev, 10000);
  if (e != 0 && e != SIMTY_EFAULT)
    return fail_error(dev, e, "wait after abort");
  printf("RESULT ok\n");
  return R_OK;
}

static int num(const char *s, uint32_t *out)
{
  char *end;
  unsigned long v = strtoul(s, &end, 0);
  if (!*s || *end || v > UINT32_MAX)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

int main(int argc, char **argv)
{
  uint32_t a, b, c;
  int bulk = argc == 6 && !strcmp(argv[2], "bulk") && !num(argv[3], &a) &&
             !num(argv[4], &b) && !num(argv[5], &c);
  int inc = argc == 6 && !strcmp(argv[2], "inc") && !num(argv[4], &a) &&
            !num(argv[5], &b);
  int abrt = argc == 3 && !strcmp(argv[2], "abort");
  if (!bulk && !inc && !abrt) {
    fprintf(stderr, "usage: fault_client URI bulk SEED BYTES OFFSET\n"
                    "       fault_client URI inc KERNEL.elf THREADS SEED\n"
                    "       fault_client URI abort\n");
    return R_USAGE;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  simty_device *dev;
  int e = simty_open(argv[1], &dev);
  if (e) {
    printf("RESULT error %s open: %s\n", simty_error_name(e),
           simty_last_error(NULL));
    return R_ERROR;
  }
  int rc = bulk  ? op_bulk(dev, a, b, c)
           : inc ? op_inc(dev, argv[3], a)
                 : op_abort(dev);
  simty_close(dev);
  return rc;
}
