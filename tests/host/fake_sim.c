/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_sim.c - stands in for build/bin/simty-sim in the sim backend
 * tests: `fake_sim --fd N [--warps W] [--lanes L] [--xbar full|rotate]`
 * serves the fake device (the reference model behind the link protocol)
 * on socket N until the host closes it, then exits 0, as the simulated
 * board does. With FAKE_SIM_IGNORE_XBAR=1 in the environment it ignores
 * --xbar (a board of the other kind than the one asked for).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_device.h"

int main(int argc, char **argv)
{
  struct fake_device d;
  memset(&d, 0, sizeof(d));
  int fd = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--fd") == 0)
      fd = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--warps") == 0)
      d.warps = (unsigned)atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--lanes") == 0)
      d.lanes = (unsigned)atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--xbar") == 0) {
      if (simty_model_xbar_parse(argv[i + 1], &d.xbar) != 0) {
        fprintf(stderr, "fake_sim: --xbar wants full or rotate, not '%s'\n",
                argv[i + 1]);
        return 1;
      }
      const char *ignore = getenv("FAKE_SIM_IGNORE_XBAR");
      if (ignore && strcmp(ignore, "1") == 0)
        d.xbar = 0;
    }
  }
  if (fd < 0) {
    fprintf(stderr, "fake_sim: --fd N required\n");
    return 2;
  }
  return fake_device_run_fd(&d, fd) ? 1 : 0;
}
