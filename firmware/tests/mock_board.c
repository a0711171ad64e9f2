/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mock_board.c - the real firmware engine on the mock SoC (link engine,
 * copy engine and core mocked at register level) behind a byte stream,
 * as simty-sim --fd N serves it: lets host-side link code (the board
 * tests' Python wire, say) be checked against the firmware before the
 * RTL engine exists. Kernels do not run: the mock core ends each block
 * after a few polls. Not a test by itself.
 *
 * usage: simty-mock-board --fd N [--warps W] [--lanes L] [other simty-sim
 * options, ignored]
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fw.h"
#include "mock_hal.h"

static struct fw fw;

int main(int argc, char **argv)
{
  int fd = -1;
  uint32_t warps = 4, lanes = 4;
  for (int i = 1; i + 1 < argc; i++) {
    if (strcmp(argv[i], "--fd") == 0)
      fd = atoi(argv[++i]);
    else if (strcmp(argv[i], "--warps") == 0)
      warps = (uint32_t)atoi(argv[++i]);
    else if (strcmp(argv[i], "--lanes") == 0)
      lanes = (uint32_t)atoi(argv[++i]);
  }
  if (fd < 0) {
    fprintf(stderr, "usage: simty-mock-board --fd N [--warps W] [--lanes L]\n");
    return 1;
  }
  mock_reset(warps, lanes);
  mock.run_polls = 20;
  fw_init(&fw);
  uint64_t polls = 0;
  static uint8_t buf[65536];
  for (;;) {
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, mock.txq_n || fw.wait_parked || mock.held_n ? 0 : 1) < 0 &&
        errno != EINTR)
      break;
    if (p.revents & (POLLIN | POLLHUP)) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0)
        break;
      mock_uart_push(buf, (size_t)n);
    }
    for (int i = 0; i < 64; i++, polls++)
      fw_poll(&fw);
    size_t off = 0;
    while (off < mock.tx_len) {
      ssize_t n = write(fd, mock.tx + off, mock.tx_len - off);
      if (n <= 0)
        return 1;
      off += (size_t)n;
    }
    mock.tx_len = 0;
  }
  fprintf(stderr, "%llu cycles in 1.0 s (%llu cycles/s); mock board, %u "
                  "violation(s)%s%s\n",
          (unsigned long long)polls, (unsigned long long)polls,
          mock.violations, mock.violations ? ": " : "", mock.violation);
  return mock.violations ? 3 : 0;
}
