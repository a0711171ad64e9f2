/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link_bench.c - one phase of the link benchmark, through the host library
 * as a user program would do it: open the device, then bulk-write or
 * bulk-read BYTES of DATA memory with one simty_write / simty_read, then
 * close. bench/bench_link.py runs it against a simulated board once per
 * phase and takes the board cycles of each phase from the board's report.
 *
 * usage: simty-bench-link URI open|write|read BYTES
 * Prints one line: "PHASE BYTES bytes, device baud B, window W".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty.h"

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: %s URI open|write|read BYTES\n", argv[0]);
    return 2;
  }
  const char *phase = argv[2];
  char *end;
  unsigned long n = strtoul(argv[3], &end, 0);
  if (*argv[3] == '\0' || *end != '\0' ||
      (strcmp(phase, "open") && strcmp(phase, "write") && strcmp(phase, "read"))) {
    fprintf(stderr, "%s: bad arguments\n", argv[0]);
    return 2;
  }
  simty_device *dev = NULL;
  int e = simty_open(argv[1], &dev);
  if (e) {
    fprintf(stderr, "open %s: %s\n", argv[1], simty_last_error(NULL));
    return 1;
  }
  struct simty_device_info info;
  simty_device_info(dev, &info);
  if (n > info.data_size) {
    fprintf(stderr, "%lu bytes: the device has %u bytes of DATA\n", n,
            (unsigned)info.data_size);
    simty_close(dev);
    return 1;
  }
  unsigned char *buf = malloc(n ? n : 1);
  if (!buf) {
    simty_close(dev);
    return 1;
  }
  for (unsigned long i = 0; i < n; i++)
    buf[i] = (unsigned char)(i * 131u + (i >> 8) + 7u);
  if (strcmp(phase, "write") == 0)
    e = simty_write(dev, info.data_base, buf, n);
  else if (strcmp(phase, "read") == 0)
    e = simty_read(dev, info.data_base, buf, n);
  if (e) {
    fprintf(stderr, "%s of %lu bytes: %s\n", phase, n, simty_last_error(dev));
    free(buf);
    simty_close(dev);
    return 1;
  }
  printf("%s %lu bytes, device at %u baud, window %u\n", phase, n,
         (unsigned)info.link_baud, info.link_window);
  free(buf);
  simty_close(dev);
  return 0;
}
