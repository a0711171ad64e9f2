/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_arch.h - the one source of Simty's architectural contract.
 *
 * Memory map, CSR numbers, fault causes, performance counters and launch
 * limits. The RTL include (simty_arch.vh), the kernel and firmware linker
 * script fragments (simty_memory.ld) are generated from this file by
 * hw/arch/gen_arch.c; the firmware, the model and the host library include
 * it directly. docs/architecture.md explains every value. Change a value
 * here and everything else follows on the next build.
 *
 * Plain C preprocessor only: this header is included by C11 host code,
 * freestanding firmware, kernels and assembly (crt0.S).
 */
#ifndef SIMTY_ARCH_H
#define SIMTY_ARCH_H

/* ---- Release version: the one source ----
 * The host library (SIMTY_VERSION_*, simty_version()), simty.pc, the
 * firmware (INFO fw_version), the SoC's HW_VERSION register, CHANGELOG.md
 * and the release tarball's name all take it from here. */
#define SIMTY_VERSION_MAJOR 0
#define SIMTY_VERSION_MINOR 2
#define SIMTY_VERSION_PATCH 0
/* As the firmware and the SoC report it: major << 16 | minor << 8 | patch. */
#define SIMTY_VERSION_CODE                                                   \
  ((SIMTY_VERSION_MAJOR << 16) | (SIMTY_VERSION_MINOR << 8) |                \
   SIMTY_VERSION_PATCH)

/* ---- Memory map (byte addresses, as seen by Simty and the controller) ---- */

/* Controller firmware: code, data and stack. Private: never host-writable. */
#define SIMTY_FW_BASE 0x00000000u
#define SIMTY_FW_WINDOW 0x00010000u /* 64 KiB address window */

/* Kernel instruction memory: host read/write, Simty fetch only. */
#define SIMTY_CODE_BASE 0x00010000u
#define SIMTY_CODE_WINDOW 0x00010000u /* 64 KiB address window */

/* Shared data memory: host read/write, Simty load/store, controller r/w.
 * Kernel .rodata/.data/.bss start at the base; per-thread stacks are
 * carved from the top at launch. */
#define SIMTY_DATA_BASE 0x10000000u
#define SIMTY_DATA_WINDOW 0x01000000u /* 16 MiB address window */

/* Device printf: a store of any width here from a kernel thread appends
 * the low byte, tagged with the storing thread's logical id, to the
 * device console stream. Store only; loads fault. */
#define SIMTY_CONSOLE_ADDR 0x20000000u

/* Controller MMIO (Simty launch/status/counters, timer, UART). Private. */
#define SIMTY_MMIO_BASE 0xF0000000u
#define SIMTY_MMIO_WINDOW 0x00010000u

/* The link engine's frame buffer (RX then TX slots), in the upper half of
 * the MMIO window: the controller's only, never the host's. */
#define SIMTY_LINKBUF_BASE 0xF0008000u
#define SIMTY_LINKBUF_WINDOW 0x00008000u
#define SIMTY_LINK_SLOT_BYTES 4112u /* 12 + 4096 bytes, rounded up to 16 */

/* Sizes actually populated on the simulated board and the model by
 * default. A board may populate less (reported by INFO); never more than
 * the window. */
#define SIMTY_DEFAULT_CODE_SIZE 0x00010000u /* 64 KiB */
#define SIMTY_DEFAULT_DATA_SIZE 0x00100000u /* 1 MiB */

/* ---- Thread and launch CSRs (read-only, custom machine range) ---- */

#define SIMTY_CSR_MHARTID 0xF14 /* hardware thread: warp * LANES + lane */
#define SIMTY_CSR_TID 0xFC0       /* logical thread index within the launch */
#define SIMTY_CSR_NTHREADS 0xFC1  /* thread count of the launch */
#define SIMTY_CSR_LANES 0xFC2     /* LANES (threads per warp) */
#define SIMTY_CSR_WARPS 0xFC3     /* WARPS (hardware warps) */
#define SIMTY_CSR_ARGS 0xFC4      /* launch argument pointer */
#define SIMTY_CSR_STACK_TOP 0xFC5 /* top of the stack region (exclusive) */
#define SIMTY_CSR_STACK_LOG2 0xFC6 /* log2 of the per-thread stack size */

/* ---- Optional ISA extensions (docs/architecture.md section 2) ---- */

#define SIMTY_EXT_M 0x1u      /* integer multiply and divide */
#define SIMTY_EXT_A 0x2u      /* atomics (LR/SC, AMOs) on DATA */
#define SIMTY_EXT_ZICNTR 0x4u /* cycle, time, instret counters */

/* Zicntr counter CSRs (standard numbers, read-only) */
#define SIMTY_CSR_CYCLE 0xC00
#define SIMTY_CSR_TIME 0xC01
#define SIMTY_CSR_INSTRET 0xC02
#define SIMTY_CSR_CYCLEH 0xC80
#define SIMTY_CSR_TIMEH 0xC81
#define SIMTY_CSR_INSTRETH 0xC82

/* ---- Call depth (reconvergence priority) ---- */

#define SIMTY_DEPTH_BITS 8
#define SIMTY_DEPTH_MAX ((1u << SIMTY_DEPTH_BITS) - 1u) /* saturates */

/* ---- Launch limits ---- */

#define SIMTY_STACK_LOG2_MIN 6  /* 64-byte stacks at the least */
#define SIMTY_STACK_LOG2_MAX 20 /* 1 MiB stacks at the most */
#define SIMTY_STACK_LOG2_DEFAULT 10 /* 1 KiB per hardware thread */
#define SIMTY_MAX_THREADS 0x80000000u /* 2^31 logical threads per launch */

/* ---- Fault causes: X(name, code, description) ---- */

#define SIMTY_FAULT_MAP(X)                                                   \
  X(NONE, 0, "no fault")                                                     \
  X(ILLEGAL_INSTRUCTION, 1, "illegal instruction")                           \
  X(MISALIGNED_FETCH, 2, "jump to a misaligned target")                      \
  X(MISALIGNED_LOAD, 3, "misaligned load")                                   \
  X(MISALIGNED_STORE, 4, "misaligned store")                                 \
  X(FETCH_OUT_OF_RANGE, 5, "instruction fetch outside code memory")          \
  X(LOAD_OUT_OF_RANGE, 6, "load outside data memory")                        \
  X(STORE_OUT_OF_RANGE, 7, "store outside data memory")                      \
  X(EBREAK, 8, "ebreak")                                                     \
  X(TIMEOUT, 9, "launch time-out")                                           \
  X(ABORTED, 10, "launch aborted by the host")                              \
  X(STACK_OVERFLOW, 11, "load or store in another thread's stack")

#ifndef __ASSEMBLER__
enum simty_fault_cause {
#define SIMTY_X_(name, code, text) SIMTY_FAULT_##name = code,
  SIMTY_FAULT_MAP(SIMTY_X_)
#undef SIMTY_X_
};
#endif

/* ---- Performance counters (64-bit): X(name, index, description) ----
 * Exact definitions in docs/architecture.md, "Performance counters". */

#define SIMTY_COUNTER_MAP(X)                                                 \
  X(cycles, 0, "core clock cycles while a launch runs")                      \
  X(warp_insts, 1, "warp instructions executed (non-empty mask)")            \
  X(thread_insts, 2, "thread instructions retired (sum of mask popcounts)")  \
  X(divergent_branches, 3, "conditional branches that split a path")         \
  X(path_merges, 4, "paths merged at equal pc and depth (reconvergence)")    \
  X(replays_mem, 5, "memory instructions that left lanes to replay")         \
  X(replays_indirect, 6, "indirect jumps that left lanes to replay")         \
  X(mem_requests, 7, "thread memory accesses (loads+stores+console)")        \
  X(mem_transactions, 8, "memory line transactions")                         \
  X(sched_idle_cycles, 9, "cycles in which no warp instruction issued")      \
  X(cct_peak, 10, "peak cold context table entries in any warp")             \
  X(uniform_vectors, 11, "register results equal on all written lanes")      \
  X(affine_vectors, 12, "register results base+lane*stride, not uniform")

#ifndef __ASSEMBLER__
enum simty_counter_index {
#define SIMTY_X_(name, index, text) SIMTY_CTR_##name = index,
  SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
      SIMTY_CTR_COUNT
};
#endif

#endif /* SIMTY_ARCH_H */
