/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hal.h - what the firmware needs from the hardware: word access to the
 * MMIO register block (simty_mmio.h) and byte access to CODE and DATA.
 * The UART, the timer and the Simty core are all reached through the
 * registers, so a mocked register file tests the firmware down to its
 * register accesses.
 *
 * On the controller (the default) these are inline volatile accesses. With
 * FW_HOST defined they are ordinary functions a test or benchmark supplies.
 */
#ifndef FW_HAL_H
#define FW_HAL_H

#include <stdint.h>

#include "simty_arch.h"

#ifdef FW_HOST

uint32_t hal_reg_read(uint32_t offset);
void hal_reg_write(uint32_t offset, uint32_t value);
/* The firmware has checked that [addr, addr + n) lies in populated CODE
 * or DATA before calling these. */
void hal_mem_write(uint32_t addr, const uint8_t *src, uint32_t n);
void hal_mem_read(uint32_t addr, uint8_t *dst, uint32_t n);

#else

#include "fw_string.h"

static inline uint32_t hal_reg_read(uint32_t offset)
{
  return *(volatile uint32_t *)(uintptr_t)(SIMTY_MMIO_BASE + offset);
}

static inline void hal_reg_write(uint32_t offset, uint32_t value)
{
  *(volatile uint32_t *)(uintptr_t)(SIMTY_MMIO_BASE + offset) = value;
}

/* CODE and DATA are ordinary memory on the controller's bus with byte
 * enables (docs/soc.md). */
static inline void hal_mem_write(uint32_t addr, const uint8_t *src, uint32_t n)
{
  memcpy((void *)(uintptr_t)addr, src, n);
}

static inline void hal_mem_read(uint32_t addr, uint8_t *dst, uint32_t n)
{
  memcpy(dst, (const void *)(uintptr_t)addr, n);
}

#endif /* FW_HOST */

#endif /* FW_HAL_H */
