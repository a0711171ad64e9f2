/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model.h - the reference SIMT model of Simty (the golden model).
 *
 * Executes RV32I kernels on WARPS x LANES threads with the architectural
 * semantics of docs/architecture.md: per-warp paths (pc, mask, depth)
 * kept in a strictly ordered set with merge-on-insert, leader/follower
 * memory accesses, serialised indirect jumps, faults, grid dispatch in
 * waves and every performance counter of SIMTY_COUNTER_MAP.
 *
 * One opaque handle per model; no global state, so several models may
 * coexist. A model is not internally locked: use one handle from one
 * thread at a time (thread-compatible).
 *
 * Typical use:
 *
 *     simty_model *m;
 *     simty_model_create(&(struct simty_model_config){
 *         .warps = 4, .lanes = 4, .xbar = SIMTY_XBAR_FULL}, &m);
 *     simty_model_write(m, addr, bytes, len);           // load segments
 *     simty_model_launch(m, &(struct simty_model_launch_params){
 *         .entry = elf_entry, .nthreads = 64, .stack_log2 = 10,
 *         .max_cycles = 100000000, .data_end = end_of_kernel_data});
 *     simty_model_run(m, 0);                            // to completion
 *     simty_model_counters(m, counters);
 *     simty_model_destroy(m);
 *
 * Scheduling and cycle accounting: see hw/model/README.md.
 */
#ifndef SIMTY_MODEL_H
#define SIMTY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "simty_arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest supported WARPS and LANES (lane masks are 64-bit). */
#define SIMTY_MODEL_MAX_WARPS 64u
#define SIMTY_MODEL_MAX_LANES 64u

/** Return codes of the model API: 0 success, negative errors. */
#define SIMTY_MODEL_ERROR_MAP(X)                                             \
  X(OK, 0, "success")                                                        \
  X(INVALID, -1, "invalid argument")                                         \
  X(RANGE, -2, "address range outside device memory")                        \
  X(NOMEM, -3, "out of host memory")                                         \
  X(BUSY, -4, "a launch is in progress")                                     \
  X(NOT_LAUNCHED, -5, "no launch to run")                                    \
  X(STACK_OVERLAP, -6, "thread stacks overlap kernel data")

enum simty_model_error {
#define SIMTY_X_(name, code, text) SIMTY_MODEL_##name = code,
  SIMTY_MODEL_ERROR_MAP(SIMTY_X_)
#undef SIMTY_X_
};

/** Text of a simty_model_error code (never NULL). */
const char *simty_model_strerror(int error);

/** Opaque model handle. */
typedef struct simty_model simty_model;

/** Device configuration, fixed for the life of a model. */
struct simty_model_config {
  unsigned warps;     /**< power of two, 1..SIMTY_MODEL_MAX_WARPS */
  unsigned lanes;     /**< power of two, 1..SIMTY_MODEL_MAX_LANES */
  uint32_t code_size; /**< populated CODE bytes: multiple of 4, at most
                           SIMTY_CODE_WINDOW; 0 = SIMTY_DEFAULT_CODE_SIZE */
  uint32_t data_size; /**< populated DATA bytes: multiple of 4, at most
                           SIMTY_DATA_WINDOW; 0 = SIMTY_DEFAULT_DATA_SIZE */
  unsigned xbar;      /**< memory crossbar kind, enum simty_model_xbar;
                           0 = SIMTY_XBAR_FULL */
};

/** The memory crossbar kind of a device (docs/architecture.md section 3,
 * "Crossbar kind"): which lanes of the leader's line one transaction
 * serves. Memory results are the same under both; only the transactions
 * (and so the schedule counters) differ. */
enum simty_model_xbar {
  SIMTY_XBAR_FULL = 0,   /**< every lane in the leader's line (default) */
  SIMTY_XBAR_ROTATE = 1, /**< lanes at the leader's word (broadcast) or at
                              its rotation: word (l + w - k) mod LANES */
};
#define SIMTY_XBAR_COUNT 2u

/** "full", "rotate"; NULL for an unknown kind. */
const char *simty_model_xbar_name(unsigned xbar);

/** Parse a crossbar kind name. Returns 0, or -1 if unknown. */
int simty_model_xbar_parse(const char *name, unsigned *xbar);

/** Launch parameters (docs/architecture.md section 4). */
struct simty_model_launch_params {
  uint32_t entry;      /**< first pc of every thread, 4-aligned, in CODE */
  uint32_t nthreads;   /**< 1 .. SIMTY_MAX_THREADS logical threads */
  uint32_t args;       /**< CSR simty_args */
  unsigned stack_log2; /**< SIMTY_STACK_LOG2_MIN .. _MAX; 0 = default */
  uint64_t max_cycles; /**< time-out in cycles (TIMEOUT fault); 0 = none */
  uint32_t data_end;   /**< end of the kernel's data (_end), for the stack
                            overlap check; 0 = no kernel data */
};

/** State of a model's current (or last) launch. */
enum simty_model_status {
  SIMTY_MODEL_IDLE = 0,    /**< nothing launched yet */
  SIMTY_MODEL_RUNNING = 1, /**< launched, threads remain */
  SIMTY_MODEL_DONE = 2,    /**< every thread ended */
  SIMTY_MODEL_FAULTED = 3, /**< ended by a fault (see the fault record) */
};

/** Fault record (docs/architecture.md section 5). */
struct simty_model_fault {
  uint32_t cause; /**< enum simty_fault_cause; SIMTY_FAULT_NONE if none */
  uint32_t pc;    /**< faulting instruction */
  uint32_t hart;  /**< mhartid of the lowest faulting lane */
  uint32_t tid;   /**< logical thread id of that lane */
  uint32_t addr;  /**< bad address, instruction word, or 0 */
};

/** Receives each byte a thread stores to CONSOLE, in stream order. */
typedef void (*simty_model_console_fn)(void *user, uint32_t tid,
                                       uint8_t byte);

/** Receives each executed warp instruction: the logical id of lane 0 of
 * the block, the pc and the lanes that retired it. */
typedef void (*simty_model_trace_fn)(void *user, uint32_t base_tid,
                                     uint32_t pc, uint64_t mask);

/** One race found by the checker (docs/architecture.md section 7): two
 * accesses to one byte of DATA by different threads, at least one a
 * write, neither atomic. `first` happened before `second`. */
struct simty_model_race_access {
  uint32_t tid;  /**< logical thread */
  uint32_t hart; /**< hardware thread (mhartid) */
  uint32_t pc;   /**< the load or store */
  int write;     /**< 1 store, 0 load */
};
struct simty_model_race {
  uint32_t addr; /**< the byte of `second`'s access found racing */
  struct simty_model_race_access first, second;
};

/** Receives each race, once per word per launch. */
typedef void (*simty_model_race_fn)(void *user,
                                    const struct simty_model_race *race);

/**
 * Create a model with zeroed CODE and DATA.
 * @param config  warps, lanes and memory sizes (see the struct).
 * @param out     receives the handle on success.
 * @return 0, SIMTY_MODEL_INVALID for a bad configuration or NULL
 *         argument, SIMTY_MODEL_NOMEM.
 */
int simty_model_create(const struct simty_model_config *config,
                       simty_model **out);

/** Free a model (NULL is accepted). */
void simty_model_destroy(simty_model *model);

/** The configuration in effect (sizes resolved from their defaults). */
void simty_model_get_config(const simty_model *model,
                            struct simty_model_config *out);

/**
 * Copy host bytes to device memory. [addr, addr + len) must lie inside the
 * populated CODE or inside the populated DATA. Writes to CODE re-decode
 * the words they touch. Allowed while a launch is running (between run
 * calls).
 * @return 0, SIMTY_MODEL_RANGE (nothing written), SIMTY_MODEL_INVALID.
 */
int simty_model_write(simty_model *model, uint32_t addr, const void *src,
                      size_t len);

/**
 * Copy device memory to the host; same range rule as simty_model_write.
 * (Not const: a failure records its detail in the handle.)
 * @return 0, SIMTY_MODEL_RANGE, SIMTY_MODEL_INVALID.
 */
int simty_model_read(simty_model *model, uint32_t addr, void *dst,
                     size_t len);

/** Set the console byte receiver (NULL to drop console bytes). */
void simty_model_set_console(simty_model *model, simty_model_console_fn fn,
                             void *user);

/** Set the per-instruction trace receiver (NULL: no trace, full speed). */
void simty_model_set_trace(simty_model *model, simty_model_trace_fn fn,
                           void *user);

/**
 * Set the optional ISA extensions the model implements (SIMTY_EXT_M,
 * SIMTY_EXT_A, SIMTY_EXT_ZICNTR of simty_arch.h; 0 = RV32I, the default).
 * Re-decodes CODE. Not while a launch is running.
 * @return 0, SIMTY_MODEL_INVALID (unknown bit), SIMTY_MODEL_BUSY.
 */
int simty_model_set_isa(simty_model *model, unsigned extensions);

/** The extensions in effect (SIMTY_EXT_* bits). */
unsigned simty_model_isa(const simty_model *model);

/**
 * Issue order (docs/architecture.md section 7): seed 0 = round robin (the
 * default), else a random schedule drawn from that seed. Takes effect at
 * the next launch.
 */
void simty_model_set_schedule(simty_model *model, uint64_t seed);

/**
 * Turn the race checker on (fn != NULL) or off. Takes effect at the next
 * launch; races are reported as they are found, each racing word once
 * per launch.
 */
void simty_model_set_racecheck(simty_model *model, simty_model_race_fn fn,
                               void *user);

/** Racing words found in the current or last launch (checker on). */
uint64_t simty_model_race_count(const simty_model *model);

struct simty_elf; /* host_lib/src/simty_elf.h */

/** One line describing a race (no newline), with the symbols of the
 * kernel `elf` (NULL: addresses only) and the stack area of a launch
 * with `harts` hardware threads of 2^stack_log2 bytes below stack_top.
 * For the model CLI and the host library's model device. */
void simty_model_race_format(const struct simty_model_race *race,
                             const struct simty_elf *elf, uint32_t stack_top,
                             unsigned harts, unsigned stack_log2, char *buf,
                             size_t size);

/**
 * Start a launch: reset the counters and the fault record, free every
 * warp. Nothing executes until simty_model_run(). A running launch is
 * replaced only after it ends (DONE or FAULTED) or is aborted.
 * @return 0; SIMTY_MODEL_INVALID for nthreads, stack_log2, or an entry not
 *         4-aligned inside CODE; SIMTY_MODEL_STACK_OVERLAP when
 *         stack_top - (WARPS * LANES << stack_log2) < data_end;
 *         SIMTY_MODEL_BUSY if a launch is still running.
 */
int simty_model_launch(simty_model *model,
                       const struct simty_model_launch_params *params);

/**
 * Run the current launch for at most `max_cycles` more cycles (issue
 * slots), 0 meaning until it ends.
 * @return the status after the run (enum simty_model_status), or
 *         SIMTY_MODEL_NOT_LAUNCHED if nothing was ever launched.
 */
int simty_model_run(simty_model *model, uint64_t max_cycles);

/** End a running launch with an ABORTED fault (pc/hart/tid as for a
 * time-out, see README). No effect unless RUNNING. */
void simty_model_abort(simty_model *model);

/** Status of the current or last launch. */
enum simty_model_status simty_model_status(const simty_model *model);

/** The fault record of the last launch (cause NONE when it did not
 * fault). */
void simty_model_get_fault(const simty_model *model,
                           struct simty_model_fault *out);

/** Copy the SIMTY_CTR_COUNT counters (indices of SIMTY_COUNTER_MAP). */
void simty_model_counters(const simty_model *model,
                          uint64_t out[SIMTY_CTR_COUNT]);

/* ---- Reconvergence policies (model-only study options; see
 * docs/architecture.md, "Reconvergence policies", and hw/model/README.md) */

/** How a warp picks the path it runs and where paths meet again. Every
 * policy computes the same memory results; only the schedule (and so
 * the schedule counters) differs. */
enum simty_model_policy {
  SIMTY_POLICY_SIMTY = 0, /**< min(depth:~pc): Simty's rule (default) */
  SIMTY_POLICY_PC = 1,    /**< lowest pc first (then deepest); merge */
  SIMTY_POLICY_IPDOM = 2, /**< stack, reconvergence at the immediate
                               post-dominator of the kernel's CFG */
};
#define SIMTY_POLICY_COUNT 3u

/** "simty", "pc", "ipdom"; NULL for an unknown policy. */
const char *simty_model_policy_name(unsigned policy);

/** Parse a policy name. Returns 0, or -1 if unknown. */
int simty_model_policy_parse(const char *name, unsigned *policy);

/**
 * Select the reconvergence policy for the next launches.
 * @return 0, SIMTY_MODEL_INVALID (unknown policy), SIMTY_MODEL_BUSY.
 */
int simty_model_set_policy(simty_model *model, unsigned policy);

/** The policy in effect. */
unsigned simty_model_policy(const simty_model *model);

/** A function of the kernel: [addr, addr + size) in CODE. */
struct simty_model_func {
  uint32_t addr;
  uint32_t size;
};

/**
 * Give the ipdom analysis the kernel's function boundaries (copied;
 * overlapping or out-of-CODE entries are clipped or ignored). Code not
 * covered by any function is analysed as pseudo-functions (each maximal
 * uncovered run). n = 0: CODE is one function.
 * @return 0, SIMTY_MODEL_NOMEM, SIMTY_MODEL_INVALID, SIMTY_MODEL_BUSY.
 */
int simty_model_set_functions(simty_model *model,
                              const struct simty_model_func *funcs,
                              size_t n);

/** simty_model_set_functions() with the sized STT_FUNC symbols of `elf`
 * (none if stripped). */
int simty_model_functions_from_elf(simty_model *model,
                                   const struct simty_elf *elf);

/** What the ipdom analysis found (for tests and the documentation). */
struct simty_model_cfg_info {
  uint32_t functions;    /**< functions and pseudo-functions analysed */
  uint32_t branches;     /**< conditional branches */
  uint32_t to_exit;      /**< branches/indirect jumps whose IPDOM is the
                              function's exit */
  uint32_t no_ipdom;     /**< branches/indirect jumps that cannot reach an
                              exit (no IPDOM: enclosing point inherited) */
  uint32_t jump_tables;  /**< indirect jumps resolved through a table */
  uint32_t unresolved;   /**< other indirect jumps (edge to the exit) */
};

/** Run the analysis on the current CODE if needed and report it.
 * @return 0 or SIMTY_MODEL_NOMEM. */
int simty_model_cfg_info(simty_model *model,
                         struct simty_model_cfg_info *out);

/** The reconvergence point the ipdom policy uses for a divergence at the
 * instruction `pc`: a pc, 0xFFFFFFFE (the function's exit) or 0xFFFFFFFF
 * (none: the enclosing point). Runs the analysis if needed. */
uint32_t simty_model_ipdom_of(simty_model *model, uint32_t pc);

/* ---- Statistics: the def-use distance histogram ---- */

/** Histogram bins: bin i counts distances in [bounds[i-1], bounds[i]),
 * bin 0 distances < 1 (never), the last bin distances >= 64. */
#define SIMTY_DEFUSE_BINS 8u
#define SIMTY_DEFUSE_BOUNDS {1, 2, 3, 4, 8, 16, 32, 64}

/**
 * Turn statistics on or off for the next launches (off by default: no
 * cost). On, every retired warp instruction's source registers (x0
 * excluded) add their distance, in that warp's retired instructions,
 * from the instruction that last wrote them in the block (unwritten
 * registers are not counted).
 * @return 0, SIMTY_MODEL_NOMEM, SIMTY_MODEL_BUSY.
 */
int simty_model_set_stats(simty_model *model, int on);

/** The histogram of the current or last launch (zeros when off). */
void simty_model_defuse(const simty_model *model,
                        uint64_t out[SIMTY_DEFUSE_BINS + 1]);

/**
 * Append the launch's statistics to `path` as one JSON line: policy,
 * warps, lanes, nthreads, every counter by name, the def-use histogram
 * (docs: /work/spec contract, hw/model/README.md "Statistics").
 * @return 0, or -1 with errno set (file not writable).
 */
int simty_model_stats_append(const simty_model *model, const char *path);

/** Detail of the last error this model returned: every call that returns
 * an error (other than for a NULL model) sets it first. */
const char *simty_model_last_error(const simty_model *model);

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_MODEL_H */
