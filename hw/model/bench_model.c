/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_model.c - speed of the reference model (not a test).
 *
 *   simty-model-bench compute.elf [iterations]
 *
 * Runs bench/kernels/compute.c at 4x4 and 8x8 (one thread per hardware
 * thread, so every warp is busy and no lane is idle), on one core, and
 * prints thread and warp instructions per second of wall-clock time
 * (clock_gettime(CLOCK_MONOTONIC) around simty_model_run only). Each
 * run's results are checked against the same hash computed here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simty_elf.h"
#include "simty_model.h"

static uint32_t expected_hash(uint32_t tid, uint32_t n)
{
  uint32_t x = tid ^ 0x9e3779b9u, h = 0x811c9dc5u;
  for (uint32_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h = (h ^ x) + (h << 6) + (h >> 2) + i;
  }
  return h;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench(const struct simty_elf *elf, unsigned warps, unsigned lanes,
                 uint32_t iterations)
{
  simty_model *m;
  struct simty_model_config cfg = {warps, lanes, 0, 0, SIMTY_XBAR_FULL};
  uint32_t iter_addr, out_addr;
  if (simty_model_create(&cfg, &m) != 0 ||
      simty__elf_symbol(elf, "bench_iterations", &iter_addr, NULL) ||
      simty__elf_symbol(elf, "bench_out", &out_addr, NULL)) {
    fprintf(stderr, "bench: cannot set up the model or find symbols\n");
    return -1;
  }
  for (unsigned s = 0; s < elf->segment_count; s++) {
    const struct simty_elf_segment *seg = &elf->segments[s];
    uint8_t *bytes = calloc(seg->mem_size + 1, 1);
    memcpy(bytes, seg->data, seg->file_size);
    simty_model_write(m, seg->addr, bytes, seg->mem_size);
    free(bytes);
  }
  uint8_t le[4] = {(uint8_t)iterations, (uint8_t)(iterations >> 8),
                   (uint8_t)(iterations >> 16), (uint8_t)(iterations >> 24)};
  simty_model_write(m, iter_addr, le, 4);
  uint32_t nthreads = warps * lanes;
  struct simty_model_launch_params p = {.entry = elf->entry,
                                        .nthreads = nthreads,
                                        .data_end = elf->data_end};
  if (simty_model_launch(m, &p) != 0) {
    fprintf(stderr, "bench: launch refused: %s\n", simty_model_last_error(m));
    simty_model_destroy(m);
    return -1;
  }
  double t0 = now();
  int status = simty_model_run(m, 0);
  double seconds = now() - t0;
  uint64_t ctr[SIMTY_CTR_COUNT];
  simty_model_counters(m, ctr);
  int rc = status == SIMTY_MODEL_DONE ? 0 : -1;
  for (uint32_t t = 0; t < nthreads && rc == 0; t++) {
    uint8_t w[4];
    simty_model_read(m, out_addr + 4 * t, w, 4);
    uint32_t v = (uint32_t)w[0] | (uint32_t)w[1] << 8 |
                 (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
    if (v != expected_hash(t, iterations)) {
      fprintf(stderr, "bench: thread %u computed 0x%08x, expected 0x%08x\n",
              t, v, expected_hash(t, iterations));
      rc = -1;
    }
  }
  if (rc == 0)
    printf("%ux%u: %" PRIu64 " thread insts, %" PRIu64 " warp insts in "
           "%.3f s: %.1f M thread insts/s, %.1f M warp insts/s\n",
           warps, lanes, ctr[SIMTY_CTR_thread_insts],
           ctr[SIMTY_CTR_warp_insts], seconds,
           (double)ctr[SIMTY_CTR_thread_insts] / seconds / 1e6,
           (double)ctr[SIMTY_CTR_warp_insts] / seconds / 1e6);
  else
    fprintf(stderr, "bench: %ux%u run failed (status %d)\n", warps, lanes,
            status);
  simty_model_destroy(m);
  return rc;
}

int main(int argc, char **argv)
{
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: simty-model-bench compute.elf [iterations]\n");
    return 2;
  }
  uint32_t iterations = argc == 3 ? (uint32_t)strtoul(argv[2], NULL, 0)
                                  : 2000000;
  struct simty_elf elf;
  char err[256];
  if (simty__elf_load_file(argv[1], &elf, err, sizeof(err)) != 0) {
    fprintf(stderr, "simty-model-bench: %s\n", err);
    return 1;
  }
  int rc = 0;
  rc |= bench(&elf, 4, 4, iterations);
  rc |= bench(&elf, 8, 8, iterations / 4);
  simty__elf_free(&elf);
  return rc ? 1 : 0;
}
