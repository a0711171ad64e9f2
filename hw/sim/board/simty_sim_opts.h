/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_opts.h - command line of the simulated board binary (the
 * simty-sim launcher picks the binary for --warps/--lanes and waveforms).
 */
#ifndef SIMTY_SIM_OPTS_H
#define SIMTY_SIM_OPTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum simty_sim_wave { SIMTY_SIM_WAVE_NONE = 0, SIMTY_SIM_WAVE_VCD = 1,
                      SIMTY_SIM_WAVE_FST = 2 };

struct simty_sim_opts {
  int port;              /* -1 unless --port */
  int fd;                /* -1 unless --fd */
  int warps, lanes;      /* 0 = not given */
  int wave;              /* enum simty_sim_wave */
  const char *wave_file;
  int paced;             /* model the UART wire rate (default; --unpaced) */
  int usb;               /* enum simty_sim_usb_kind: the FTDI's USB timing */
  int uart_phy;          /* --uart-phy: the binary must be the UART board */
  uint64_t max_cycles;   /* 0 = no limit */
  const char *profile;   /* controller pc histogram file, or NULL */
  int serve;             /* --serve: stay up across connections (--port) */
  int verbose;           /* print the cycle report (and connections) */
};

/* Parses argv (plusargs +x=y are left to Verilator). Returns 0 to run,
 * 1 after --help, -1 on a bad option (message on stderr). */
int simty_sim_parse(int argc, char **argv, struct simty_sim_opts *o);

/* Checks the +fw=FILE image among argv: one 32-bit hex word a line (the
 * format of build/firmware/firmware.hex), at most max_words of them.
 * Returns 0, or -1 with a message on stderr. No +fw= is an error too:
 * a board without firmware would only sit silent. */
int simty_sim_check_image(int argc, char **argv, unsigned long max_words);

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_SIM_OPTS_H */
