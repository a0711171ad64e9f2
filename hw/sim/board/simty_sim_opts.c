/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_opts.c - option parsing of the simulated board (see
 * simty_sim_opts.h and `simty-sim --help`).
 */
#include "simty_sim_opts.h"
#include "simty_sim_usb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: simty-sim (--port N | --fd N) [options] [+fw=FIRMWARE.hex]\n"
    "  --port N       serve the host link on 127.0.0.1:N (0: any free port,\n"
    "                 printed on stderr); waits for one connection\n"
    "  --serve        with --port: a persistent board, up across connections\n"
    "                 (memory, counters and a running launch survive a host\n"
    "                 that disconnects) until SIGINT/SIGTERM; e.g.\n"
    "                 `simty-sim --serve --port 7000 &` then\n"
    "                 `simty --device tcp://localhost:7000 info`\n"
    "  --fd N         serve it on the connected socket N (host library)\n"
    "  --warps W      hardware warps (a binary per configuration)\n"
    "  --lanes L      lanes per warp\n"
    "  --xbar full|rotate  the core's memory crossbar (the launcher picks\n"
    "                 the binary built with it: board_WxL_rotate)\n"
    "  --vcd FILE     dump a VCD waveform\n"
    "  --fst FILE     dump an FST waveform\n"
    "  --usb fs|hs|off  USB timing of the FTDI bridge (default fs: the\n"
    "                 ULX3S's FT231X, 1 ms frames, 62-byte packets, 1 ms\n"
    "                 latency timer; hs: FT2232H, 125 us microframes)\n"
    "  --unpaced      link bytes as fast as the firmware takes them, no USB\n"
    "                 timing (quick tests; link figures are then not a\n"
    "                 board's). By default bytes pass at the UART's rate\n"
    "  --paced        the default (kept for old scripts)\n"
    "  --uart-phy     the board with the real UART PHY: bytes cross the\n"
    "                 SoC's RX/TX pins bit by bit at its baud rate\n"
    "  --max-cycles N stop after N cycles (exit 4)\n"
    "  --profile FILE write the controller's cycles per pc (\"pc count\"\n"
    "                 lines) at exit: where the firmware spends its time\n"
    "  --verbose      print the cycle report on exit (and, serving, each\n"
    "                 connection); also SIMTY_SIM_VERBOSE=1 or the URI\n"
    "                 sim?verbose=1. The default with --port; with --fd (the\n"
    "                 host library's sim URI) the board is quiet\n"
    "  --quiet        no cycle report, even with --port\n"
    "Exits 0 when the host closes the link (--serve: at SIGINT/SIGTERM),\n"
    "3 if the controller traps.\n";

static int parse_num(const char *opt, const char *s, long long lo,
                     long long hi, long long *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || *s == '\0' || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "simty-sim: %s: bad value '%s' (%lld..%lld)\n", opt, s,
            lo, hi);
    return -1;
  }
  *out = v;
  return 0;
}

int simty_sim_parse(int argc, char **argv, struct simty_sim_opts *o)
{
  memset(o, 0, sizeof *o);
  o->port = -1;
  o->fd = -1;
  o->paced = 1;
  o->usb = SIMTY_SIM_USB_FS;
  o->verbose = -1; /* from the mode, unless --verbose/--quiet/environment */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '+')
      continue;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return 1;
    }
    if (!strcmp(a, "--paced")) {
      o->paced = 1;
      continue;
    }
    if (!strcmp(a, "--unpaced")) {
      o->paced = 0;
      o->usb = SIMTY_SIM_USB_OFF;
      continue;
    }
    if (!strcmp(a, "--usb")) {
      const char *k = i + 1 < argc ? argv[++i] : "";
      if (!strcmp(k, "fs"))
        o->usb = SIMTY_SIM_USB_FS;
      else if (!strcmp(k, "hs"))
        o->usb = SIMTY_SIM_USB_HS;
      else if (!strcmp(k, "off"))
        o->usb = SIMTY_SIM_USB_OFF;
      else {
        fprintf(stderr, "simty-sim: --usb: expected fs, hs or off, not '%s'\n",
                k);
        return -1;
      }
      continue;
    }
    if (!strcmp(a, "--serve")) {
      o->serve = 1;
      continue;
    }
    if (!strcmp(a, "--verbose") || !strcmp(a, "--quiet")) {
      o->verbose = a[2] == 'v';
      continue;
    }
    if (!strcmp(a, "--uart-phy")) {
      o->uart_phy = 1;
      continue;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long n;
    if (!strcmp(a, "--port") || !strcmp(a, "--fd") || !strcmp(a, "--warps") ||
        !strcmp(a, "--lanes") || !strcmp(a, "--max-cycles") ||
        !strcmp(a, "--vcd") || !strcmp(a, "--fst") || !strcmp(a, "--profile")) {
      if (!v) {
        fprintf(stderr, "simty-sim: %s needs a value\n%s", a, usage);
        return -1;
      }
      i++;
      if (!strcmp(a, "--profile")) {
        o->profile = v;
        continue;
      }
      if (!strcmp(a, "--vcd") || !strcmp(a, "--fst")) {
        if (o->wave) {
          fprintf(stderr, "simty-sim: one waveform at a time\n");
          return -1;
        }
        o->wave = a[2] == 'v' ? SIMTY_SIM_WAVE_VCD : SIMTY_SIM_WAVE_FST;
        o->wave_file = v;
        continue;
      }
      if (!strcmp(a, "--max-cycles")) {
        if (parse_num(a, v, 1, (long long)1 << 62, &n))
          return -1;
        o->max_cycles = (uint64_t)n;
        continue;
      }
      if (parse_num(a, v, 0, 65535, &n))
        return -1;
      if (!strcmp(a, "--port"))
        o->port = (int)n;
      else if (!strcmp(a, "--fd"))
        o->fd = (int)n;
      else if (!strcmp(a, "--warps"))
        o->warps = (int)n;
      else
        o->lanes = (int)n;
      continue;
    }
    fprintf(stderr, "simty-sim: unknown option '%s'\n%s", a, usage);
    return -1;
  }
  if ((o->port >= 0) == (o->fd >= 0)) {
    fprintf(stderr, "simty-sim: give exactly one of --port and --fd\n%s",
            usage);
    return -1;
  }
  if (o->serve && o->port < 0) {
    fprintf(stderr, "simty-sim: --serve needs --port\n");
    return -1;
  }
  if (o->verbose < 0) {
    const char *env = getenv("SIMTY_SIM_VERBOSE");
    if (env && *env)
      o->verbose = strcmp(env, "0") != 0;
    else
      o->verbose = o->port >= 0;
  }
  return 0;
}

int simty_sim_check_image(int argc, char **argv, unsigned long max_words)
{
  const char *path = NULL;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "+fw=", 4))
      path = argv[i] + 4;
  if (!path || !*path) {
    fprintf(stderr, "simty-sim: no firmware image (+fw=FILE; the simty-sim "
                    "launcher passes build/firmware/firmware.hex)\n");
    return -1;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "simty-sim: %s: %s\n", path, strerror(errno));
    return -1;
  }
  char line[256];
  unsigned long words = 0, lineno = 0;
  int rc = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\n' || *p == '\0' || (p[0] == '/' && p[1] == '/'))
      continue;
    char *end;
    errno = 0;
    unsigned long v = strtoul(p, &end, 16);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
      end++;
    if (end == p || *end != '\0' || errno || v > 0xFFFFFFFFul) {
      fprintf(stderr, "simty-sim: %s:%lu: not a 32-bit hex word\n", path, lineno);
      rc = -1;
      break;
    }
    words++;
  }
  fclose(f);
  if (rc == 0 && words == 0) {
    fprintf(stderr, "simty-sim: %s: empty firmware image\n", path);
    rc = -1;
  }
  if (rc == 0 && words > max_words) {
    fprintf(stderr, "simty-sim: %s: %lu words do not fit the %lu-word FW RAM of this "
                    "board\n", path, words, max_words);
    rc = -1;
  }
  return rc;
}
