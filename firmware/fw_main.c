/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_main.c - the controller's entry from start.S: initialise, then poll
 * forever. All the logic is in fw_engine.c and fw_dispatch.c, which the
 * host tests run too.
 */
#include "fw.h"

/* In .bss: start.S zeroes it, fw_init() sets it up. */
static struct fw firmware;

int main(void)
{
  fw_init(&firmware);
  for (;;)
    fw_poll(&firmware);
}
