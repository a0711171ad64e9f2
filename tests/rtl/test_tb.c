/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tb.c - unit tests of the testbench's C side (hw/sim/core/simty_tb.c)
 * without a core: the command line and its exit codes, the wave
 * dispatcher (blocks, partial last block, refill, the busy handshake
 * check), time-out, console line assembly, dump/counter/trace formats.
 *
 *   test_tb KERNEL.elf    (any kernel with the symbols alu_iterations and
 *                          alu_out: bench/kernels/alu.c)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "simty_arch.h"
#include "simty_tb.h"

static const char *kernel_path;
static const uint32_t code_size = SIMTY_DEFAULT_CODE_SIZE;
static const uint32_t data_size = SIMTY_DEFAULT_DATA_SIZE;

/* Build an argv from a NULL-terminated list (writable copies: --dump
 * cuts its argument in place). */
static struct simty_tb *create(unsigned warps, unsigned lanes, int *code, ...)
{
  char *argv[32];
  int argc = 0;
  va_list ap;
  const char *a;
  argv[argc++] = strdup("simty-rtl");
  va_start(ap, code);
  while ((a = va_arg(ap, const char *)) != NULL && argc < 31)
    argv[argc++] = strdup(strcmp(a, "KERNEL") ? a : kernel_path);
  va_end(ap);
  argv[argc] = NULL;
  struct simty_tb *tb =
      simty_tb_create(argc, argv, warps, lanes, code_size, data_size, code);
  /* argv strings must outlive tb (dump names point into them): leak them
   * in tests, like a real argv. */
  return tb;
}

static void test_usage_errors(void **state)
{
  int code;
  (void)state;
  assert_null(create(4, 4, &code, "--warps", "8", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--lanes", "2", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--threads", "0", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--threads", "2147483649", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--stack-log2", "5", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--data-size", "4096", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--bogus", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--dump", "alu_out", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  /* --isa: the core is rv32ima_zicntr; malformed strings refused */
  assert_null(create(4, 4, &code, "--isa", "rv32e", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--isa", "rv32im_zifoo", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "--threads", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
  assert_null(create(4, 4, &code, "KERNEL", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_USAGE);
}

static void test_input_errors(void **state)
{
  int code;
  (void)state;
  assert_null(create(4, 4, &code, "/nonexistent/kernel.elf", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_INPUT);
  assert_null(create(4, 4, &code, "--dump", "no_such:1", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_INPUT);
  assert_null(create(4, 4, &code, "--args", "no_such", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_INPUT);
  /* 16 stacks of 64 KiB fill the 1 MiB DATA: they overlap the kernel. */
  assert_null(create(4, 4, &code, "--stack-log2", "16", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_INPUT);
  /* Dump past the end of DATA. */
  assert_null(create(4, 4, &code, "--dump", "alu_out:300000", "KERNEL", NULL));
  assert_int_equal(code, SIMTY_TB_EXIT_INPUT);
}

static void test_launch_values(void **state)
{
  int code;
  (void)state;
  struct simty_tb *tb = create(2, 8, &code, "--warps=2", "--lanes", "8",
                               "--stack-log2", "12", "--args",
                               "alu_iterations", "--isa", "rv32ima_zicntr",
                               "KERNEL", NULL);
  assert_non_null(tb);
  assert_int_equal(code, 0);
  assert_int_equal(simty_tb_nthreads(tb), 16);
  assert_int_equal(simty_tb_stack_top(tb), SIMTY_DATA_BASE + data_size);
  assert_int_equal(simty_tb_stack_log2(tb), 12);
  /* alu_iterations is the first .data word of alu.c's kernel. */
  assert_true(simty_tb_args(tb) >= SIMTY_DATA_BASE);
  /* The loaded DATA holds its initial value (200). */
  const uint8_t *d = simty_tb_data(tb) + (simty_tb_args(tb) - SIMTY_DATA_BASE);
  assert_int_equal(d[0] | d[1] << 8 | d[2] << 16 | d[3] << 24, 200);
  /* Code is loaded at the base of CODE (first word of crt0: csrr). */
  const uint8_t *c = simty_tb_code(tb);
  assert_int_equal(c[0] & 0x7f, 0x73);
  simty_tb_destroy(tb);
}

/* One edge of a scripted core. */
static enum simty_tb_state step(struct simty_tb *tb, uint32_t busy, int idle,
                                struct simty_tb_dispatch *d)
{
  return simty_tb_step(tb, busy, idle, 0, d);
}

static void test_dispatch_waves(void **state)
{
  int code;
  struct simty_tb_dispatch d;
  (void)state;
  /* 2 warps x 4 lanes, 10 threads: blocks 0, 4 (full) and 8 (2 lanes). */
  struct simty_tb *tb = create(2, 4, &code, "--threads", "10", "KERNEL", NULL);
  assert_non_null(tb);
  assert_int_equal(step(tb, 0, 1, &d), SIMTY_TB_RUNNING);
  assert_true(d.valid);
  assert_int_equal(d.warp, 0);
  assert_int_equal(d.base_tid, 0);
  assert_int_equal(d.mask, 0xf);
  assert_int_equal(d.pc, SIMTY_CODE_BASE);
  /* Not accepted yet: the same request stays. */
  assert_int_equal(step(tb, 0, 1, &d), SIMTY_TB_RUNNING);
  assert_true(d.valid && d.warp == 0 && d.base_tid == 0);
  simty_tb_dispatched(tb, &d);
  /* Warp 0 is taken even before its busy bit rises. */
  assert_int_equal(step(tb, 0, 1, &d), SIMTY_TB_RUNNING);
  assert_true(d.valid && d.warp == 1 && d.base_tid == 4 && d.mask == 0xf);
  simty_tb_dispatched(tb, &d);
  assert_int_equal(step(tb, 3, 0, &d), SIMTY_TB_RUNNING);
  assert_false(d.valid); /* no free warp */
  assert_int_equal(step(tb, 3, 0, &d), SIMTY_TB_RUNNING);
  assert_false(d.valid);
  /* Warp 1 ends first: the partial block goes there, lanes 0-1 only. */
  assert_int_equal(step(tb, 1, 0, &d), SIMTY_TB_RUNNING);
  assert_true(d.valid && d.warp == 1 && d.base_tid == 8 && d.mask == 0x3);
  simty_tb_dispatched(tb, &d);
  assert_int_equal(step(tb, 3, 0, &d), SIMTY_TB_RUNNING);
  assert_false(d.valid);
  /* Every block dispatched: done only when no warp is busy and idle. */
  assert_int_equal(step(tb, 0, 0, &d), SIMTY_TB_RUNNING);
  assert_int_equal(step(tb, 0, 1, &d), SIMTY_TB_DONE);
  assert_false(d.valid);
  assert_int_equal(simty_tb_cycles(tb), 7);
  simty_tb_destroy(tb);
}

/* The glue's inputs are registered: the block the core takes may be the
 * offer of the cycle before, not the newest one. */
static void test_dispatch_of_an_older_offer(void **state)
{
  int code;
  struct simty_tb_dispatch d, taken;
  (void)state;
  /* 2 warps x 4 lanes, 12 threads: blocks 0, 4 and 8. */
  struct simty_tb *tb = create(2, 4, &code, "--threads", "12", "KERNEL", NULL);
  assert_non_null(tb);
  step(tb, 0, 1, &d);
  simty_tb_dispatched(tb, &d); /* block 0 on warp 0 */
  step(tb, 1, 0, &d);
  assert_true(d.valid && d.warp == 1 && d.base_tid == 4);
  simty_tb_dispatched(tb, &d); /* block 4 on warp 1 */
  step(tb, 3, 0, &d);
  step(tb, 3, 0, &d);
  /* Warp 1 ends: block 8 is offered to it... */
  step(tb, 1, 0, &d);
  assert_true(d.valid && d.warp == 1 && d.base_tid == 8);
  taken = d;
  /* ...then warp 0 ends too, and the newest offer moves to warp 0. */
  step(tb, 0, 0, &d);
  assert_true(d.valid && d.warp == 0 && d.base_tid == 8);
  /* The core took the older offer: block 8 runs on warp 1 (whose busy
   * bit rises), nothing is left to offer, and the run ends when warp 1
   * does; had warp 0 been marked taken, it would wait for it forever. */
  simty_tb_dispatched(tb, &taken);
  assert_int_equal(step(tb, 2, 0, &d), SIMTY_TB_RUNNING);
  assert_false(d.valid);
  assert_int_equal(step(tb, 0, 1, &d), SIMTY_TB_DONE);
  simty_tb_destroy(tb);
}

static void test_jitter_holds_offers(void **state)
{
  int code, i, offers = 0, waits = 0, ready = 0;
  struct simty_tb_dispatch d;
  (void)state;
  struct simty_tb *tb = create(4, 4, &code, "+jitter=7", "KERNEL", NULL);
  assert_non_null(tb);
  for (i = 0; i < 200; i++) {
    step(tb, 0, 1, &d);
    if (!d.valid) {
      waits++;
      continue;
    }
    offers++;
    /* Once offered, the block stays offered until taken. */
    struct simty_tb_dispatch again;
    step(tb, 0, 1, &again);
    assert_true(again.valid && again.warp == d.warp &&
                again.base_tid == d.base_tid);
    simty_tb_dispatched(tb, &again);
    if (offers == 4)
      break;
  }
  assert_int_equal(offers, 4); /* every warp got its block */
  assert_true(waits > 0);      /* and some were held back */
  for (i = 0; i < 400; i++)
    ready += simty_tb_console_ready(tb, 1);
  assert_true(ready > 200 && ready < 400);
  simty_tb_destroy(tb);
}

static void test_busy_never_rises(void **state)
{
  int code, i;
  struct simty_tb_dispatch d;
  enum simty_tb_state s = SIMTY_TB_RUNNING;
  (void)state;
  struct simty_tb *tb = create(1, 4, &code, "KERNEL", NULL);
  assert_non_null(tb);
  step(tb, 0, 1, &d);
  simty_tb_dispatched(tb, &d);
  for (i = 0; i < 1000 && s == SIMTY_TB_RUNNING; i++)
    s = step(tb, 0, 1, &d);
  assert_int_equal(s, SIMTY_TB_BROKEN);
  assert_true(i < 100);
  assert_int_equal(simty_tb_finish(tb, s, NULL, NULL, 0.0, 0.0),
                   SIMTY_TB_EXIT_PROTOCOL);
  simty_tb_destroy(tb);
}

static void test_timeout_and_fault(void **state)
{
  int code, i;
  struct simty_tb_dispatch d;
  enum simty_tb_state s = SIMTY_TB_RUNNING;
  uint64_t ctr[SIMTY_CTR_COUNT] = {0};
  (void)state;
  struct simty_tb *tb =
      create(1, 4, &code, "--max-cycles", "5", "KERNEL", NULL);
  assert_non_null(tb);
  step(tb, 0, 1, &d);
  simty_tb_dispatched(tb, &d);
  for (i = 0; i < 100 && s == SIMTY_TB_RUNNING; i++)
    s = step(tb, 1, 0, &d);
  assert_int_equal(s, SIMTY_TB_TIMEOUT);
  assert_int_equal(simty_tb_cycles(tb), 5);
  FILE *out = tmpfile();
  simty_tb_set_output(tb, out);
  assert_int_equal(simty_tb_finish(tb, s, NULL, ctr, 0.0, 0.0),
                   SIMTY_TB_EXIT_FAULT);
  fclose(out);
  simty_tb_destroy(tb);

  tb = create(1, 4, &code, "KERNEL", NULL);
  assert_non_null(tb);
  assert_int_equal(simty_tb_step(tb, 0, 1, 1, &d), SIMTY_TB_FAULTED);
  simty_tb_destroy(tb);
}

static char *read_all(FILE *f)
{
  static char buf[4096];
  size_t n;
  rewind(f);
  n = fread(buf, 1, sizeof(buf) - 1, f);
  buf[n] = '\0';
  return buf;
}

static void test_console_dump_counters(void **state)
{
  int code;
  uint64_t ctr[SIMTY_CTR_COUNT] = {0};
  (void)state;
  struct simty_tb *tb = create(4, 4, &code, "--dump", "alu_iterations:1",
                               "--counters", "KERNEL", NULL);
  assert_non_null(tb);
  FILE *out = tmpfile();
  simty_tb_set_output(tb, out);
  /* Two threads interleave; lines come out whole, in completion order. */
  const char *a = "hi\n", *b = "yo\nopen";
  simty_tb_console(tb, 5, (uint8_t)a[0]);
  simty_tb_console(tb, 3, (uint8_t)b[0]);
  simty_tb_console(tb, 5, (uint8_t)a[1]);
  simty_tb_console(tb, 3, (uint8_t)b[1]);
  simty_tb_console(tb, 3, (uint8_t)b[2]);
  simty_tb_console(tb, 5, (uint8_t)a[2]);
  simty_tb_console(tb, 9, 'z');
  for (const char *p = b + 3; *p; p++)
    simty_tb_console(tb, 3, (uint8_t)*p);
  simty_tb_console(tb, 7, '\n'); /* an empty line */
  ctr[SIMTY_CTR_cycles] = 200;
  ctr[SIMTY_CTR_warp_insts] = 100;
  ctr[SIMTY_CTR_thread_insts] = 300;
  ctr[SIMTY_CTR_affine_vectors] = 1;
  assert_int_equal(simty_tb_finish(tb, SIMTY_TB_DONE, NULL, ctr, 0.0, 0.0), 0);
  assert_string_equal(read_all(out),
                      "[3] yo\n"
                      "[5] hi\n"
                      "[7] \n"
                      "[3] open\n" /* unfinished lines, by thread id */
                      "[9] z\n"
                      "alu_iterations[0] = 200\n"
                      "cycles = 200\n"
                      "warp_insts = 100\n"
                      "thread_insts = 300\n"
                      "divergent_branches = 0\n"
                      "path_merges = 0\n"
                      "replays_mem = 0\n"
                      "replays_indirect = 0\n"
                      "mem_requests = 0\n"
                      "mem_transactions = 0\n"
                      "sched_idle_cycles = 0\n"
                      "cct_peak = 0\n"
                      "uniform_vectors = 0\n"
                      "affine_vectors = 1\n"
                      "ipc = 0.500\n"
                      "simd_efficiency = 0.750\n");
  fclose(out);
  simty_tb_destroy(tb);
}

static void test_trace_file(void **state)
{
  int code;
  struct simty_tb_dispatch d;
  char path[] = "/tmp/simty-tb-trace-XXXXXX";
  int fd = mkstemp(path);
  (void)state;
  assert_true(fd >= 0);
  struct simty_tb *tb =
      create(2, 4, &code, "--threads", "6", "--trace", path, "KERNEL", NULL);
  assert_non_null(tb);
  step(tb, 0, 1, &d);
  simty_tb_dispatched(tb, &d);
  step(tb, 0, 1, &d);
  simty_tb_dispatched(tb, &d);
  simty_tb_retire(tb, 1, 0x10000, 0x3);
  simty_tb_retire(tb, 0, 0x10004, 0xa);
  FILE *out = tmpfile();
  simty_tb_set_output(tb, out);
  assert_int_equal(simty_tb_finish(tb, SIMTY_TB_DONE, NULL, NULL, 0.0, 0.0), 0);
  simty_tb_destroy(tb);
  fclose(out);
  FILE *f = fdopen(fd, "r");
  assert_string_equal(read_all(f), "4 00010000 3\n0 00010004 a\n");
  fclose(f);
  remove(path);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: test_tb KERNEL.elf (bench/kernels/alu.c)\n");
    return 2;
  }
  kernel_path = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_usage_errors),
      cmocka_unit_test(test_input_errors),
      cmocka_unit_test(test_launch_values),
      cmocka_unit_test(test_dispatch_waves),
      cmocka_unit_test(test_dispatch_of_an_older_offer),
      cmocka_unit_test(test_jitter_holds_offers),
      cmocka_unit_test(test_busy_never_rises),
      cmocka_unit_test(test_timeout_and_fault),
      cmocka_unit_test(test_console_dump_counters),
      cmocka_unit_test(test_trace_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
