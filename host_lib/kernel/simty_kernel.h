/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_kernel.h - what a kernel thread can ask of the device.
 *
 * Include this in kernel sources built with simty-cc. Every thread of a
 * launch enters main(); the launch argument block is simty_args().
 * Returning from main, or simty_exit(), ends the calling thread only.
 */
#ifndef SIMTY_KERNEL_H
#define SIMTY_KERNEL_H

#include <stdint.h>

#include "simty_arch.h"

#define SIMTY_STR_(x) #x
#define SIMTY_STR(x) SIMTY_STR_(x)

/* CSRs that never change during a thread's life: not volatile, so the
 * compiler may read them once. */
#define SIMTY_CSR_READ_(csr)                                                 \
  ({                                                                         \
    uint32_t v_;                                                             \
    __asm__(".option push\n.option arch, +zicsr\n"                          \
            "csrr %0, " SIMTY_STR(csr) "\n.option pop"                      \
            : "=r"(v_));                          \
    v_;                                                                      \
  })

/** Logical index of this thread within the launch, 0 .. count-1. */
static inline uint32_t simty_thread_id(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_TID);
}

/** Number of threads of the launch. */
static inline uint32_t simty_thread_count(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_NTHREADS);
}

/** Hardware thread running this logical thread: warp * lanes + lane. */
static inline uint32_t simty_hart_id(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_MHARTID);
}

/** Threads per warp (a power of two). */
static inline uint32_t simty_lane_count(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_LANES);
}

/** Hardware warps of the core. */
static inline uint32_t simty_warp_count(void)
{
  return SIMTY_CSR_READ_(SIMTY_CSR_WARPS);
}

/** SIMD lane of this thread within its warp. */
static inline uint32_t simty_lane_id(void)
{
  return simty_hart_id() & (simty_lane_count() - 1u);
}

/** Hardware warp running this thread. */
static inline uint32_t simty_warp_id(void)
{
  return simty_hart_id() >> __builtin_ctz(simty_lane_count());
}

/** The launch's argument block (device address given at launch). */
static inline void *simty_args(void)
{
  return (void *)(uintptr_t)SIMTY_CSR_READ_(SIMTY_CSR_ARGS);
}

/** End the calling thread now; other threads go on. */
__attribute__((noreturn)) void _exit(int status);
static inline __attribute__((noreturn)) void simty_exit(int status)
{
  _exit(status);
}

/** Stop the whole launch with an EBREAK fault (assertion failure). */
static inline __attribute__((noreturn)) void simty_trap(void)
{
  __asm__ volatile("ebreak");
  __builtin_unreachable();
}

/** Append one byte to the device console, tagged with this thread. */
static inline void simty_putchar(int c)
{
  *(volatile uint8_t *)(uintptr_t)SIMTY_CONSOLE_ADDR = (uint8_t)c;
}

/** Append a string to the device console (no newline added). */
static inline void simty_puts(const char *s)
{
  while (*s)
    simty_putchar(*s++);
}

/* ---- Zicntr counters (devices with Zicntr only: simty-cc --isa
 * ..._zicntr; elsewhere reading them faults ILLEGAL_INSTRUCTION). Values:
 * docs/architecture.md section 2. ---- */

#define SIMTY_CSR_READ_VOLATILE_(csr)                                        \
  ({                                                                         \
    uint32_t v_;                                                             \
    __asm__ volatile(".option push\n.option arch, +zicsr\n"                 \
                     "csrr %0, " SIMTY_STR(csr) "\n.option pop"             \
                     : "=r"(v_));                                            \
    v_;                                                                      \
  })

/* A 64-bit counter from its two halves, re-read if the low half wrapped
 * between them. */
#define SIMTY_COUNTER64_(lo, hi)                                             \
  ({                                                                         \
    uint32_t h_, l_, h2_;                                                    \
    do {                                                                     \
      h_ = SIMTY_CSR_READ_VOLATILE_(hi);                                     \
      l_ = SIMTY_CSR_READ_VOLATILE_(lo);                                     \
      h2_ = SIMTY_CSR_READ_VOLATILE_(hi);                                    \
    } while (h_ != h2_);                                                     \
    (uint64_t)h_ << 32 | l_;                                                 \
  })

/** Core cycles since the launch began (rdcycle / rdcycleh). */
static inline uint64_t simty_cycles(void)
{
  return SIMTY_COUNTER64_(SIMTY_CSR_CYCLE, SIMTY_CSR_CYCLEH);
}

/** Device time in core clock ticks (rdtime / rdtimeh). */
static inline uint64_t simty_time(void)
{
  return SIMTY_COUNTER64_(SIMTY_CSR_TIME, SIMTY_CSR_TIMEH);
}

/** Instructions this hardware thread retired in the launch (rdinstret /
 * rdinstreth). */
static inline uint64_t simty_instret(void)
{
  return SIMTY_COUNTER64_(SIMTY_CSR_INSTRET, SIMTY_CSR_INSTRETH);
}

#endif /* SIMTY_KERNEL_H */
