/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_host_isa.c - the model device's ISA option and the loader's check
 * of a kernel's RISC-V attributes (docs/architecture.md section 2): the
 * device info lists the extensions, and a kernel that needs one the
 * device lacks is refused with SIMTY_ENOTSUP naming it.
 *
 * The kernel is tests/host/kernels/hello.c built for RV32I; the test
 * rewrites the Tag_RISCV_arch string of its .riscv.attributes section to
 * ask for more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "simty.h"

#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

static unsigned char *read_file(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)n);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* Replace the image's arch string (the one starting "rv32i2p1") by
 * `arch`, NUL-padded to the old length. */
static void set_arch(unsigned char *img, size_t size, const char *arch)
{
  for (size_t i = 0; i + 8 < size; i++) {
    if (memcmp(img + i, "rv32i2p1", 8) != 0)
      continue;
    size_t len = strlen((const char *)img + i);
    assert_true(strlen(arch) <= len);
    memset(img + i, 0, len);
    memcpy(img + i, arch, strlen(arch));
    return;
  }
  fail_msg("no Tag_RISCV_arch string in the kernel");
}

static void test_info_lists_extensions(void **state)
{
  (void)state;
  static const struct {
    const char *uri;
    unsigned ext;
  } cases[] = {
      {"model", 0},
      {"model?isa=rv32i", 0},
      {"model?isa=rv32im", SIMTY_EXT_M},
      {"model?warps=2&isa=rv32ima_zicntr&lanes=8",
       SIMTY_EXT_M | SIMTY_EXT_A | SIMTY_EXT_ZICNTR},
      {"model?isa=rv32ia&racecheck=1&seed=3", SIMTY_EXT_A},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    simty_device *dev;
    assert_int_equal(simty_open(cases[i].uri, &dev), 0);
    struct simty_device_info info;
    assert_int_equal(simty_device_info(dev, &info), 0);
    assert_int_equal(info.extensions, cases[i].ext);
    assert_int_equal(info.xbar, 0);   /* full unless xbar= says */
    if (i == 3) {
      assert_int_equal(info.warps, 2);
      assert_int_equal(info.lanes, 8);
    }
    simty_close(dev);
  }
  /* the crossbar kind: model?xbar= */
  simty_device *xdev;
  struct simty_device_info xinfo;
  assert_int_equal(simty_open("model?xbar=rotate&isa=rv32im", &xdev), 0);
  assert_int_equal(simty_device_info(xdev, &xinfo), 0);
  assert_int_equal(xinfo.xbar, 1);
  assert_int_equal(xinfo.extensions, SIMTY_EXT_M);
  simty_close(xdev);
  assert_int_equal(simty_open("model?xbar=full", &xdev), 0);
  assert_int_equal(simty_device_info(xdev, &xinfo), 0);
  assert_int_equal(xinfo.xbar, 0);
  simty_close(xdev);
  const char *bad[] = {"model?isa=rv32gc", "model?isa=", "model?isa=rv64im",
                       "model?racecheck=2", "model?seed=x"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    simty_device *dev = NULL;
    assert_int_equal(simty_open(bad[i], &dev), SIMTY_EURI);
  }
}

static void test_loader_refuses_missing_extension(void **state)
{
  (void)state;
  size_t size;
  unsigned char *img = read_file(KPATH("hello"), &size);
  set_arch(img, size, "rv32i2p1_m_a2p1");
  simty_device *dev;
  simty_kernel *k = NULL;

  assert_int_equal(simty_open("model", &dev), 0);
  assert_int_equal(simty_kernel_load_bytes(dev, img, size, &k),
                   SIMTY_ENOTSUP);
  assert_null(k);
  const char *why = simty_last_error(dev);
  if (!strstr(why, "needs the M and A extensions") ||
      !strstr(why, "rv32i2p1_m_a2p1"))
    fail_msg("error detail: %s", why);
  simty_close(dev);

  assert_int_equal(simty_open("model?isa=rv32im", &dev), 0);
  assert_int_equal(simty_kernel_load_bytes(dev, img, size, &k),
                   SIMTY_ENOTSUP);
  if (!strstr(simty_last_error(dev), "needs the A extension"))
    fail_msg("error detail: %s", simty_last_error(dev));
  simty_close(dev);

  assert_int_equal(simty_open("model?isa=rv32ima", &dev), 0);
  assert_int_equal(simty_kernel_load_bytes(dev, img, size, &k), 0);
  simty_kernel_free(k);
  simty_close(dev);

  /* an extension no Simty device has */
  set_arch(img, size, "rv32i2p1_c2p0");
  assert_int_equal(simty_open("model?isa=rv32ima_zicntr", &dev), 0);
  assert_int_equal(simty_kernel_load_bytes(dev, img, size, &k),
                   SIMTY_ENOTSUP);
  if (!strstr(simty_last_error(dev), "'c'"))
    fail_msg("error detail: %s", simty_last_error(dev));
  simty_close(dev);
  free(img);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_info_lists_extensions),
      cmocka_unit_test(test_loader_refuses_missing_extension),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
