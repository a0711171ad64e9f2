/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stream.c - the device stream, end to end on one device (URI in
 * argv[1]): test_sim.py runs it on the simulated board and on the model
 * and compares what it prints, which must be the same on both except the
 * lines it marks as timing ("~ " prefix). Checks itself as well (exit 1
 * with a FAIL line).
 *
 * 1. write, launch, launch, write, launch, launch, reads, all submitted
 *    before any wait: the results are the CPU's, in stream order (the
 *    second write lands between the second and third launches), and the
 *    counters cover the four launches.
 * 2. five queued launches, the third faults: the fault names it, the
 *    fourth and fifth never run (their buffers stay zero), the device
 *    takes new work afterwards.
 * 3. A blocking write behind a running launch waits for it (the same on
 *    every device); simty_wait(dev, 10) on a kernel that spins returns
 *    within tens of milliseconds; simty_get_fault() right after
 *    simty_abort() says aborted; simty_last_error() is cleared by a call
 *    that succeeds.
 * 4. Loading the same kernel again skips its code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simty.h"
#include "simty_internal.h"

#ifndef TEST_KERNEL_DIR
#define TEST_KERNEL_DIR "build/kernels/tests/host/kernels"
#endif
#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

struct axpb_args {
  uint32_t n;
  int32_t a, b;
  uint32_t in, out;
};

struct fault_args {
  uint32_t victim;
  uint32_t out;
};

#define N 40u

static simty_device *dev;

static void check(int ok, const char *what, int e)
{
  if (ok)
    return;
  printf("FAIL: %s (%s: %s)\n", what, simty_error_name(e),
         simty_last_error(dev));
  exit(1);
}

#define CALL(expr)                                                           \
  do {                                                                       \
    int e_ = (expr);                                                         \
    check(e_ == 0, #expr, e_);                                               \
  } while (0)

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint32_t alloc_zero(size_t bytes)
{
  uint32_t a;
  CALL(simty_malloc(dev, bytes, &a));
  void *z = calloc(1, bytes);
  CALL(simty_write_async(dev, a, z, bytes, NULL));
  free(z);
  return a;
}

static void print_counters(const char *what)
{
  struct simty_counters c;
  CALL(simty_get_counters(dev, &c));
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++) {
    const char *name = simty_counter_name(i);
    int timing = strcmp(name, "cycles") == 0 ||
                 strcmp(name, "sched_idle_cycles") == 0;
    printf("%s%s %s = %" PRIu64 "\n", timing ? "~ " : "", what, name,
           simty_counter_value(&c, i));
  }
}

static void stream_in_order(void)
{
  simty_kernel *k = NULL;
  CALL(simty_kernel_load(dev, KPATH("axpb"), &k));
  int32_t in[N], patch[4] = {1000, 2000, 3000, 4000};
  for (uint32_t i = 0; i < N; i++)
    in[i] = (int32_t)(i * 7u) - 50;
  uint32_t din, dout[4];
  CALL(simty_malloc(dev, sizeof(in), &din));
  for (int j = 0; j < 4; j++)
    CALL(simty_malloc(dev, sizeof(in), &dout[j]));
  /* Everything submitted before any wait. */
  simty_event ev[8];
  CALL(simty_write_async(dev, din, in, sizeof(in), &ev[0]));
  struct axpb_args a0 = {N, 2, 1, din, dout[0]};
  struct axpb_args a1 = {N, 3, -1, dout[0], dout[1]};
  struct axpb_args a2 = {N, 1, 5, din, dout[2]};
  struct axpb_args a3 = {N, -2, 0, dout[2], dout[3]};
  struct simty_launch_config cfg = {.nthreads = N, .args_size = sizeof(a0)};
  cfg.args = &a0;
  CALL(simty_launch_async(k, &cfg, &ev[1]));
  cfg.args = &a1;
  CALL(simty_launch_async(k, &cfg, &ev[2]));
  /* Ordered after the two launches: they see the original input. */
  CALL(simty_write_async(dev, din, patch, sizeof(patch), &ev[3]));
  cfg.args = &a2;
  CALL(simty_launch_async(k, &cfg, &ev[4]));
  cfg.args = &a3;
  CALL(simty_launch_async(k, &cfg, &ev[5]));
  int32_t out[4][N];
  CALL(simty_read_async(dev, dout[1], out[1], sizeof(out[1]), &ev[6]));
  CALL(simty_read_async(dev, dout[3], out[3], sizeof(out[3]), &ev[7]));
  for (int j = 1; j < 8; j++)
    check(ev[j] > ev[j - 1], "events grow", 0);
  CALL(simty_event_wait(dev, ev[7], 60000));
  CALL(simty_event_query(dev, ev[2]));
  CALL(simty_sync(dev, 60000));
  CALL(simty_read(dev, dout[0], out[0], sizeof(out[0])));
  CALL(simty_read(dev, dout[2], out[2], sizeof(out[2])));
  memcpy(in, patch, sizeof(patch));
  uint64_t sum = 0;
  for (uint32_t i = 0; i < N; i++) {
    int32_t orig = (int32_t)(i * 7u) - 50;
    int32_t w0 = 2 * orig + 1, w1 = 3 * w0 - 1, w2 = in[i] + 5, w3 = -2 * w2;
    check(out[0][i] == w0 && out[1][i] == w1 && out[2][i] == w2 &&
              out[3][i] == w3,
          "stream results", 0);
    sum += (uint32_t)out[3][i] + (uint32_t)out[1][i];
  }
  printf("stream: 4 launches, results checksum %" PRIu64 "\n", sum);
  print_counters("stream");
  /* `calls` counts launches since load: 4, in .data */
  uint32_t calls_addr;
  CALL(simty_kernel_symbol(k, "calls", &calls_addr, NULL));
  int32_t calls;
  CALL(simty_read(dev, calls_addr, &calls, 4));
  check(calls == 104, "kernel ran 4 times", calls);
  printf("stream: calls = %d\n", (int)calls);
  /* A blocking write right after a launch is ordered after it (it waits
   * for it), on every device: the launch's words are overwritten. */
  cfg.args = &a0;
  CALL(simty_launch(k, &cfg));
  int32_t marker[N];
  for (uint32_t i = 0; i < N; i++)
    marker[i] = -7;
  CALL(simty_write(dev, dout[0], marker, sizeof(marker)));
  CALL(simty_read(dev, dout[0], out[0], sizeof(out[0])));
  check(memcmp(out[0], marker, sizeof(marker)) == 0, "write after launch", 0);
  CALL(simty_sync(dev, 60000));
  printf("stream: a blocking write after a launch lands after it\n");

  /* 4. The same image again: its code is not uploaded again, its data
   * is (calls starts from 100 again). */
  unsigned reuses = dev->code_reuses;
  simty_kernel *k2 = NULL;
  CALL(simty_kernel_load(dev, KPATH("axpb"), &k2));
  check(dev->code_reuses == reuses + 1, "second load skipped the code", 0);
  CALL(simty_read(dev, calls_addr, &calls, 4));
  check(calls == 100, "data segments written again", calls);
  /* Anything written into CODE forgets the image. */
  uint32_t word = 0;
  CALL(simty_read(dev, 0x00010000u, &word, 4));
  CALL(simty_write(dev, 0x00010000u, &word, 4));
  simty_kernel *k3 = NULL;
  CALL(simty_kernel_load(dev, KPATH("axpb"), &k3));
  check(dev->code_reuses == reuses + 1, "a write to CODE forces an upload", 0);
  printf("reload: code skipped once, uploaded after a write to CODE\n");
  simty_kernel_free(k3);
  simty_kernel_free(k2);
  simty_kernel_free(k);
  for (int j = 0; j < 4; j++)
    CALL(simty_free(dev, dout[j]));
  CALL(simty_free(dev, din));
}

static void fault_stops_the_stream(void)
{
  simty_kernel *k = NULL;
  CALL(simty_kernel_load(dev, KPATH("fault"), &k));
  uint32_t out[6];
  for (int j = 0; j < 6; j++)
    out[j] = alloc_zero(N * 4);
  CALL(simty_sync(dev, 60000));
  simty_event ev[5];
  struct fault_args fa;
  struct simty_launch_config cfg = {
      .nthreads = N, .args = &fa, .args_size = sizeof(fa)};
  for (int j = 0; j < 5; j++) {
    fa.victim = j == 2 ? 17u : 0xFFFFFFFFu;
    fa.out = out[j];
    int e = simty_launch_async(k, &cfg, &ev[j]);
    /* The fault may be learned while submitting the last ones. */
    check(e == 0 || (e == SIMTY_EFAULT && j > 2), "queued launches", e);
    if (e)
      ev[j] = 0;
  }
  int e = simty_sync(dev, 60000);
  if (e == 0 && (ev[3] == 0 || ev[4] == 0))
    e = SIMTY_EFAULT; /* reported by the submission already */
  check(e == SIMTY_EFAULT, "the sequence ends with a fault", e);
  struct simty_fault f;
  CALL(simty_get_fault(dev, &f));
  check(f.cause == SIMTY_FAULT_STORE_OUT_OF_RANGE && f.tid == 17,
        "fault record", (int)f.cause);
  simty_event fev = 0;
  CALL(simty_get_fault_event(dev, &fev));
  check(fev == ev[2], "the fault names the third launch", (int)fev);
  check(simty_event_query(dev, ev[1]) == 0, "second launch completed", 0);
  check(simty_event_query(dev, ev[2]) == SIMTY_EFAULT, "third failed", 0);
  check(ev[3] == 0 || simty_event_query(dev, ev[3]) == SIMTY_EFAULT,
        "fourth did not run", 0);
  printf("fault: %s tid=%u, by the third of five launches\n",
         simty_fault_name(f.cause), (unsigned)f.tid);
  uint32_t got[N];
  for (int j = 0; j < 5; j++) {
    if (j == 2)
      continue; /* how far the faulting launch got depends on timing */
    CALL(simty_read(dev, out[j], got, sizeof(got)));
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < N; i++)
      nonzero += got[i] == i + 1;
    check(nonzero == (j < 2 ? N : 0), "launches 1-2 ran, 4-5 did not", j);
    printf("fault: launch %d wrote %u of %u words\n", j + 1,
           (unsigned)nonzero, N);
  }
  /* The device takes new work. */
  fa.victim = 0xFFFFFFFFu;
  fa.out = out[5];
  CALL(simty_run(k, &cfg, 60000));
  CALL(simty_read(dev, out[5], got, sizeof(got)));
  check(got[N - 1] == N, "new work after the fault", 0);
  printf("fault: the next launch ran\n");
  simty_kernel_free(k);
  for (int j = 0; j < 6; j++)
    CALL(simty_free(dev, out[j]));
}

static void waits_and_errors(void)
{
  simty_kernel *k = NULL;
  CALL(simty_kernel_load(dev, KPATH("axpb"), &k));
  simty_kernel *spin = NULL;
  /* A failed call leaves a detail; the next successful one clears it. */
  check(simty_free(dev, 0x12345670u) == SIMTY_EINVAL, "bad free", 0);
  check(simty_last_error(dev)[0] != 0, "error detail kept", 0);
  uint32_t a;
  CALL(simty_malloc(dev, 64, &a));
  check(simty_last_error(dev)[0] == 0, "cleared after a success", 0);
  CALL(simty_free(dev, a));
  simty_kernel_free(k);
  CALL(simty_kernel_load(dev, KPATH("spin"), &spin));
  struct simty_launch_config cfg = {.nthreads = 40};
  CALL(simty_launch(spin, &cfg));
  /* A wait that has timed out on the host still takes the device's
   * answer: a round trip, which on a simulated board is its simulation
   * speed (slower the faster the board's clock, and on a loaded host).
   * wait(0) is one round trip: the bound below allows two and 100 ms. */
  double t0 = now_ms();
  int e = simty_wait(dev, 0);
  double rt = now_ms() - t0;
  check(e == SIMTY_ETIMEDOUT, "wait 0 ms on a spinning kernel", e);
  t0 = now_ms();
  e = simty_wait(dev, 10);
  double dt = now_ms() - t0;
  check(e == SIMTY_ETIMEDOUT, "wait 10 ms on a spinning kernel", e);
  printf("~ wait(10) returned after %.1f ms (a round trip: %.1f ms)\n", dt, rt);
  if (!(dt >= 9.5 && dt < 10.0 + 2.0 * rt + 100.0)) {
    printf("FAIL: wait(10) returns in time: %.1f ms, not 9.5 .. %.1f\n", dt,
           10.0 + 2.0 * rt + 100.0);
    exit(1);
  }
  CALL(simty_abort(dev));
  struct simty_fault f;
  CALL(simty_get_fault(dev, &f));
  check(f.cause == SIMTY_FAULT_ABORTED, "fault right after abort", 0);
  printf("abort: get_fault says %s at once\n", simty_fault_name(f.cause));
  check(simty_wait(dev, 1000) == SIMTY_EFAULT, "wait reports the abort", 0);
  simty_kernel_free(spin);
}

int main(int argc, char **argv)
{
  const char *uri = argc > 1 ? argv[1] : "model";
  int e = simty_open(uri, &dev);
  if (e) {
    printf("FAIL: open %s: %s\n", uri, simty_last_error(NULL));
    return 1;
  }
  stream_in_order();
  fault_stops_the_stream();
  waits_and_errors();
  simty_close(dev);
  printf("test_stream: PASS\n");
  return 0;
}
