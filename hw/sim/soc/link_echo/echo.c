/* SPDX-License-Identifier: Apache-2.0 */
/*
 * echo.c - controller program of the link engine's SoC test
 * (link_echo_test.py): with the engine enabled, every frame received is
 * answered through a TX slot. A good frame's payload goes LINKBUF -> DATA
 * -> CODE -> LINKBUF by three COPYs at odd, different alignments, and the
 * answer echoes it with command | 0x80; a BAD_CRC or BAD_LENGTH frame is
 * answered with that status and no payload. The header is built with
 * byte, halfword and word accesses to LINKBUF. TX slots are used in turn,
 * each once its TX_BUSY bit is 0, so up to 4 answers are queued at once.
 */
#include <stdint.h>

#include "simty_arch.h"
#include "simty_mmio.h"

#define REG(off) (*(volatile uint32_t *)(SIMTY_MMIO_BASE + (off)))
#define RX_SLOTS 2u

static void copy(uint32_t dst, uint32_t src, uint32_t len)
{
  while (REG(SIMTY_MMIO_COPY_GO) & 1u) {
  }
  REG(SIMTY_MMIO_COPY_SRC) = src;
  REG(SIMTY_MMIO_COPY_DST) = dst;
  REG(SIMTY_MMIO_COPY_LEN) = len;
  REG(SIMTY_MMIO_COPY_GO) = 1u;
}

int main(void)
{
  uint32_t j = 0, count = 0;
  REG(SIMTY_MMIO_LINK_CTRL) = SIMTY_LINK_CTRL_ENABLE | SIMTY_LINK_CTRL_RESET;
  for (;;) {
    uint32_t st;
    while (!((st = REG(SIMTY_MMIO_LINK_RX_STATUS)) & SIMTY_LINK_RX_READY)) {
    }
    uint32_t slot = (st >> SIMTY_LINK_RX_SLOT_SHIFT) & 7u;
    uint32_t kind = (st >> SIMTY_LINK_RX_KIND_SHIFT) & 3u;
    uint32_t len = st >> SIMTY_LINK_RX_LEN_SHIFT;
    uint32_t rx = SIMTY_LINKBUF_BASE + slot * SIMTY_LINK_SLOT_BYTES;
    while (REG(SIMTY_MMIO_LINK_TX_BUSY) & (1u << j)) {
    }
    uint32_t tx = SIMTY_LINKBUF_BASE + (RX_SLOTS + j) * SIMTY_LINK_SLOT_BYTES;
    volatile uint8_t *rxb = (volatile uint8_t *)rx;
    volatile uint8_t *txb = (volatile uint8_t *)tx;
    uint32_t n = 0;
    if (kind == SIMTY_LINK_KIND_FRAME) {
      n = len - 12u;
      uint32_t a = count & 3u;
      copy(SIMTY_DATA_BASE + 0x1001u + a, rx + 8u, n);
      copy(SIMTY_CODE_BASE + 0x2002u + 3u * a, SIMTY_DATA_BASE + 0x1001u + a, n);
      copy(tx + 8u, SIMTY_CODE_BASE + 0x2002u + 3u * a, n);
    }
    /* Header: version and command bytes, the seq halfword, then the
     * length and status by a word store (status = kind: 1 BAD_CRC,
     * 2 BAD_LENGTH, as the protocol's codes). */
    txb[0] = rxb[0];
    txb[1] = (uint8_t)(rxb[1] | 0x80u);
    *(volatile uint16_t *)(tx + 2u) = *(volatile uint16_t *)(rx + 2u);
    *(volatile uint32_t *)(tx + 4u) = n | (kind << 16);
    REG(SIMTY_MMIO_LINK_RX_RELEASE) = 0;
    REG(SIMTY_MMIO_LINK_TX_SEND) = (j & 15u) | ((8u + n) << SIMTY_LINK_TX_LEN_SHIFT);
    j = (j + 1u) & 3u;
    count++;
  }
}
