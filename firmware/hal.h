/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hal.h - what the firmware needs from the hardware: word access to the
 * MMIO register block (simty_mmio.h) and word access to the link buffer
 * (LINKBUF, SIMTY_LINKBUF_BASE), where the link engine holds received
 * frames and the firmware builds responses. The UART, the link engine,
 * the copy engine, the timer and the Simty core are all reached through
 * the registers, so a mocked register file tests the firmware down to
 * its register accesses. The copy engine moves WRITE and READ data; the
 * firmware itself writes CODE and DATA only to run a queued WRITE, whose
 * data it kept in its own RAM (hal_mem_write8/32).
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
/* addr: a word-aligned byte address inside LINKBUF. */
uint32_t hal_link_read32(uint32_t addr);
void hal_link_write32(uint32_t addr, uint32_t value);
/* addr: inside populated CODE or DATA (word-aligned for write32). */
void hal_mem_write8(uint32_t addr, uint8_t value);
void hal_mem_write32(uint32_t addr, uint32_t value);

#else

static inline uint32_t hal_reg_read(uint32_t offset)
{
  return *(volatile uint32_t *)(uintptr_t)(SIMTY_MMIO_BASE + offset);
}

static inline void hal_reg_write(uint32_t offset, uint32_t value)
{
  *(volatile uint32_t *)(uintptr_t)(SIMTY_MMIO_BASE + offset) = value;
}

/* LINKBUF accesses are volatile too, so that they stay in program order
 * with the register writes that hand a slot to the engine (TX_SEND,
 * RX_RELEASE, COPY_GO). */
static inline uint32_t hal_link_read32(uint32_t addr)
{
  return *(volatile const uint32_t *)(uintptr_t)addr;
}

static inline void hal_link_write32(uint32_t addr, uint32_t value)
{
  *(volatile uint32_t *)(uintptr_t)addr = value;
}

/* CODE and DATA: the controller's own stores (byte enables per lane). */
static inline void hal_mem_write8(uint32_t addr, uint8_t value)
{
  *(volatile uint8_t *)(uintptr_t)addr = value;
}

static inline void hal_mem_write32(uint32_t addr, uint32_t value)
{
  *(volatile uint32_t *)(uintptr_t)addr = value;
}

#endif /* FW_HOST */

#endif /* FW_HAL_H */
