/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_elf.c - libFuzzer target for the kernel loader: arbitrary bytes
 * through simty_kernel_load_bytes() on a fresh model device (the ELF
 * parser, the layout and size checks, the segment writes). A kernel that
 * loads is looked up (symbols, layout) and launched on a few threads with
 * a device time-out of a few thousand cycles, so the model executes
 * whatever the mutated code holds, and its fault is read back.
 *
 * Checked besides what ASan and UBSan catch: every refusal is one of the
 * loader's documented errors with a detail, and a kernel that loads has
 * its entry inside code memory.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simty.h"

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond))                                                             \
      __builtin_trap();                                                      \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  simty_device *dev = NULL;
  /* Small memories keep each run cheap; a fresh device per input keeps
   * runs independent (a crash replays alone). */
  if (simty_open("model?warps=2&lanes=4&data_size=262144", &dev) != 0)
    __builtin_trap();
  simty_set_console(dev, NULL, NULL);
  simty_kernel *k = NULL;
  int e = simty_kernel_load_bytes(dev, size ? data : (const void *)"", size,
                                  &k);
  if (e != 0) {
    CHECK(e == SIMTY_EBADELF || e == SIMTY_ETOOBIG || e == SIMTY_ENOSPC ||
          e == SIMTY_ENOTSUP);
    CHECK(k == NULL);
    CHECK(simty_last_error(dev)[0] != '\0');
    simty_close(dev);
    return 0;
  }
  struct simty_device_info in;
  simty_device_info(dev, &in);
  uint32_t entry = 0, data_end = 0, addr, sym_size;
  CHECK(simty_kernel_layout(k, &entry, &data_end) == 0);
  CHECK(entry >= in.code_base && entry - in.code_base < in.code_size);
  (void)simty_kernel_symbol(k, "main", &addr, &sym_size);
  (void)simty_kernel_symbol(k, "_end", &addr, &sym_size);
  (void)simty_kernel_symbol(k, "", &addr, &sym_size);
  struct simty_launch_config cfg = {.nthreads = 12, .timeout_cycles = 3000};
  e = simty_launch(k, &cfg);
  if (e == 0) {
    e = simty_wait(dev, 2000);
    CHECK(e == 0 || e == SIMTY_EFAULT);
    struct simty_fault f;
    CHECK(simty_get_fault(dev, &f) == 0);
    char line[200];
    simty_fault_format(&f, line, sizeof(line));
  } else {
    CHECK(e == SIMTY_ESTACK || e == SIMTY_ENOSPC);
  }
  simty_kernel_free(k);
  simty_close(dev);
  return 0;
}
