/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_tb.h - the C side of the Verilator testbench of simty_core.
 *
 * The C++ glue (simty_tb_main.cpp) owns the Verilated model (simty_tb_top.v:
 * the core plus the read registers of its two RAMs, which reach the
 * memories' contents through DPI at the clock edge) and does the clocking;
 * everything else lives here
 * in C: command line (docs/runner-cli.md, the same contract as
 * simty-model), ELF loading, the memories' contents, the wave dispatcher,
 * the console, traces, time-out and the final report.
 *
 * Per cycle the glue samples the core's outputs before the rising edge,
 * reports what happened at that edge (retire, console byte, dispatch
 * accepted), clocks, then asks simty_tb_step() what to drive next. The
 * core's inputs are registered in simty_tb_top.v: what the glue drives
 * after one edge reaches the core at the next.
 */
#ifndef SIMTY_TB_H
#define SIMTY_TB_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of the CLI contract, plus one for a broken core. */
enum {
  SIMTY_TB_EXIT_OK = 0,
  SIMTY_TB_EXIT_INPUT = 1,
  SIMTY_TB_EXIT_USAGE = 2,
  SIMTY_TB_EXIT_FAULT = 3,
  /* The core broke its interface contract (memory access outside the
   * populated range, dispatch handshake, ...): a testbench error. */
  SIMTY_TB_EXIT_PROTOCOL = 4,
};

/* What the glue should do after simty_tb_step(). */
enum simty_tb_state {
  SIMTY_TB_RUNNING = 0,
  SIMTY_TB_DONE,     /* every thread ended */
  SIMTY_TB_FAULTED,  /* fault_valid_o */
  SIMTY_TB_TIMEOUT,  /* --max-cycles reached: the glue raises halt_i */
  SIMTY_TB_BROKEN,   /* protocol violation, message already printed */
};

/* Dispatch port values to drive until the next rising edge. */
struct simty_tb_dispatch {
  int valid;
  unsigned warp;
  uint32_t pc;
  uint32_t base_tid;
  uint32_t mask;
};

struct simty_tb_fault {
  unsigned cause;
  uint32_t pc, hart, tid, addr;
};

struct simty_tb;

/* The core's memory crossbar kind (simty_tb_top's XBAR: 0 full, 1
 * rotate), set before simty_tb_create: `--xbar K` must name it. */
extern unsigned simty_tb_xbar;

/* Parse the command line and load the kernel for a core built with
 * `warps` x `lanes` and the given memory sizes. Returns the testbench, or
 * NULL with *exit_code set (messages already printed). */
struct simty_tb *simty_tb_create(int argc, char **argv, unsigned warps,
                                 unsigned lanes, uint32_t code_size,
                                 uint32_t data_size, int *exit_code);
void simty_tb_destroy(struct simty_tb *tb);

/* Memory images, indexed from the base of their window. */
uint8_t *simty_tb_code(struct simty_tb *tb);
uint8_t *simty_tb_data(struct simty_tb *tb);

/* Launch-wide CSR values. */
uint32_t simty_tb_nthreads(const struct simty_tb *tb);
uint32_t simty_tb_args(const struct simty_tb *tb);
uint32_t simty_tb_stack_top(const struct simty_tb *tb);
unsigned simty_tb_stack_log2(const struct simty_tb *tb);

/* Waveform file requested (+vcd[=F], +fst[=F], --vcd F), or NULL. */
const char *simty_tb_wave_file(const struct simty_tb *tb);
/* Print retirements on stderr (+trace). */
int simty_tb_verbose_trace(const struct simty_tb *tb);
/* console_ready_i for the next cycle: always 1, or toggling
 * (+console-stall), or pseudo-random (+jitter=SEED, which also delays
 * dispatches at random). Timing only: results must not change. */
int simty_tb_console_ready(struct simty_tb *tb, int ready_now);

/* Events of the last rising edge. */
void simty_tb_retire(struct simty_tb *tb, unsigned warp, uint32_t pc,
                     uint32_t mask);
void simty_tb_console(struct simty_tb *tb, uint32_t tid, uint8_t byte);
/* Dispatch `d` (what the core's dispatch inputs held) was accepted at
 * the edge. Inputs take effect one edge after the glue sets them
 * (simty_tb_top.v registers them), so `d` may differ from the dispatch
 * simty_tb_step() returned last; the next step offers anew. */
void simty_tb_dispatched(struct simty_tb *tb,
                         const struct simty_tb_dispatch *d);
/* A memory request that breaks the contract (reported by the glue). */
void simty_tb_protocol_error(struct simty_tb *tb, const char *what,
                             uint32_t addr);

/* After a rising edge (cycle counted from the first dispatch): given the
 * core's warp_busy_o, idle_o and fault_valid_o, decide the state and the
 * dispatch to drive next. */
enum simty_tb_state simty_tb_step(struct simty_tb *tb, uint32_t warp_busy,
                                  int idle, int fault_valid,
                                  struct simty_tb_dispatch *next);

/* Finish: print console leftovers, dumps, counters (ctr[] indexed by
 * SIMTY_COUNTER_MAP), the fault line, the cycles report (wall-clock and
 * process CPU seconds of the run loop). Returns the exit code. `fault` is NULL unless state is FAULTED or TIMEOUT (for TIMEOUT
 * only its cause is used). */
int simty_tb_finish(struct simty_tb *tb, enum simty_tb_state state,
                    const struct simty_tb_fault *fault, const uint64_t *ctr,
                    double seconds, double cpu_seconds);

/* Where console lines, dumps and counters go (stdout by default). */
void simty_tb_set_output(struct simty_tb *tb, FILE *out);

/* Simulated cycles since the first dispatch. */
uint64_t simty_tb_cycles(const struct simty_tb *tb);

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_TB_H */
