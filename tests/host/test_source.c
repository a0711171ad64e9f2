/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_source.c - kernel addresses to source lines
 * (simty_kernel_source_line()) and the model's instruction trace
 * (simty_set_trace()), on the `model` backend.
 *
 * TEST_KERNEL_DIR holds the host test kernels built by simty-cc (with
 * debug information); TEST_NODEBUG_ELF is globals.elf without its debug
 * sections, TEST_STRIPPED_ELF without any symbol either.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "simty.h"

#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

static simty_device *open_model(void)
{
  simty_device *dev = NULL;
  assert_int_equal(simty_open("model", &dev), 0);
  simty_set_console(dev, NULL, NULL);
  return dev;
}

static simty_kernel *load(simty_device *dev, const char *path)
{
  simty_kernel *k = NULL;
  int e = simty_kernel_load(dev, path, &k);
  if (e)
    fprintf(stderr, "load %s: %s\n", path, simty_last_error(dev));
  assert_int_equal(e, 0);
  return k;
}

static void test_debug_info(void **state)
{
  (void)state;
  simty_device *dev = open_model();
  simty_kernel *k = load(dev, KPATH("globals"));
  uint32_t entry, main_addr;
  assert_int_equal(simty_kernel_layout(k, &entry, NULL), 0);
  assert_int_equal(simty_kernel_symbol(k, "main", &main_addr, NULL), 0);
  char buf[256];
  /* The entry is crt0's _start (assembly: a line, a function symbol). */
  int n = simty_kernel_source_line(k, entry, buf, sizeof buf);
  assert_true(n > 0);
  assert_int_equal(n, (int)strlen(buf));
  assert_non_null(strstr(buf, "crt0.S:"));
  /* main's first instruction: its function and its file. */
  n = simty_kernel_source_line(k, main_addr, buf, sizeof buf);
  assert_true(n > 0);
  assert_true(strncmp(buf, "main at ", 8) == 0);
  assert_non_null(strstr(buf, "tests/host/kernels/globals.c:"));
  /* Truncation is snprintf's: the full length, a terminated prefix. */
  char small[6];
  assert_int_equal(simty_kernel_source_line(k, main_addr, small, sizeof small),
                   n);
  assert_string_equal(small, "main ");
  assert_int_equal(simty_kernel_source_line(k, main_addr, NULL, 0), n);
  /* Addresses no function covers: nothing. */
  strcpy(buf, "junk");
  assert_int_equal(simty_kernel_source_line(k, 0x0, buf, sizeof buf), 0);
  assert_string_equal(buf, "");
  assert_int_equal(simty_kernel_source_line(k, 0x10000000u, buf, sizeof buf),
                   0);
  /* Bad arguments. */
  assert_int_equal(simty_kernel_source_line(NULL, main_addr, buf, sizeof buf),
                   SIMTY_EINVAL);
  assert_int_equal(simty_kernel_source_line(k, main_addr, NULL, 4),
                   SIMTY_EINVAL);
  /* Still answers once the device is closed. */
  simty_close(dev);
  assert_true(simty_kernel_source_line(k, main_addr, buf, sizeof buf) > 0);
  simty_kernel_free(k);
}

static void test_no_debug_info(void **state)
{
  (void)state;
  simty_device *dev = open_model();
  simty_kernel *k = load(dev, TEST_NODEBUG_ELF);
  uint32_t main_addr;
  assert_int_equal(simty_kernel_symbol(k, "main", &main_addr, NULL), 0);
  char buf[256];
  /* The symbol table only: FUNCTION+0xOFF. */
  assert_true(simty_kernel_source_line(k, main_addr, buf, sizeof buf) > 0);
  assert_string_equal(buf, "main+0x0");
  assert_true(simty_kernel_source_line(k, main_addr + 8, buf, sizeof buf) > 0);
  assert_string_equal(buf, "main+0x8");
  simty_kernel_free(k);
  /* Neither: nothing, and no error. */
  k = load(dev, TEST_STRIPPED_ELF);
  uint32_t entry;
  simty_kernel_layout(k, &entry, NULL);
  assert_int_equal(simty_kernel_source_line(k, entry, buf, sizeof buf), 0);
  assert_string_equal(buf, "");
  simty_kernel_free(k);
  simty_close(dev);
}

struct trace_count {
  uint64_t lines, lanes, in_main;
  uint32_t main_lo, main_hi;
};

static void count_trace(void *user, uint32_t base_tid, uint32_t pc,
                        uint64_t mask)
{
  struct trace_count *t = user;
  (void)base_tid;
  t->lines++;
  t->lanes += (uint64_t)__builtin_popcountll(mask);
  t->in_main += pc >= t->main_lo && pc < t->main_hi;
}

static void test_trace(void **state)
{
  (void)state;
  simty_device *dev = open_model();
  simty_kernel *k = load(dev, KPATH("globals"));
  struct trace_count t = {0};
  uint32_t size;
  assert_int_equal(simty_kernel_symbol(k, "main", &t.main_lo, &size), 0);
  t.main_hi = t.main_lo + size;
  int32_t args[2] = {3, 5};
  struct simty_launch_config cfg = {
      .nthreads = 20, .args = args, .args_size = sizeof args};
  assert_int_equal(simty_set_trace(dev, count_trace, &t), 0);
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  struct simty_counters c;
  assert_int_equal(simty_get_counters(dev, &c), 0);
  /* One call per warp instruction, its mask the lanes that retired it. */
  assert_int_equal(t.lines, c.warp_insts);
  assert_int_equal(t.lanes, c.thread_insts);
  assert_true(t.in_main > 0 && t.in_main < t.lines);
  /* Off again: the next launch is not traced. */
  assert_int_equal(simty_set_trace(dev, NULL, NULL), 0);
  uint64_t before = t.lines;
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  assert_int_equal(t.lines, before);
  assert_int_equal(simty_set_trace(NULL, count_trace, &t), SIMTY_EINVAL);
  simty_kernel_free(k);
  simty_close(dev);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_debug_info),
      cmocka_unit_test(test_no_debug_info),
      cmocka_unit_test(test_trace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
