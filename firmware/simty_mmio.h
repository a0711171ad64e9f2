/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_mmio.h - the controller's register block at SIMTY_MMIO_BASE:
 * a plain register view of the Simty core's launch inputs, block
 * sequencer (the dispatch port), warp busy bits, fault record, halt
 * input, counters and console FIFO, plus the timer and the host UART.
 * docs/soc.md describes each register; the SoC implements exactly this.
 * Offsets are bytes from SIMTY_MMIO_BASE; every register is 32 bits wide
 * and accessed as a whole word.
 */
#ifndef SIMTY_MMIO_H
#define SIMTY_MMIO_H

/* Identification and configuration (read-only). */
#define SIMTY_MMIO_ID 0x000u        /* SIMTY_MMIO_ID_VALUE */
#define SIMTY_MMIO_WARPS 0x004u     /* WARPS (1 .. 32) */
#define SIMTY_MMIO_LANES 0x008u     /* LANES (1 .. 32, a power of two) */
#define SIMTY_MMIO_CODE_SIZE 0x00Cu /* populated CODE bytes */
#define SIMTY_MMIO_DATA_SIZE 0x010u /* populated DATA bytes */
#define SIMTY_MMIO_CLOCK_HZ 0x014u  /* core and controller clock */

/* Core control. */
#define SIMTY_MMIO_CORE_RESET 0x020u /* W: 1 starts a reset; R bit 0: busy */
#define SIMTY_MMIO_HALT 0x024u       /* RW bit 0: stop issuing */
#define SIMTY_MMIO_ACTIVE 0x028u     /* RW bit 0: launch window (cycles) */

/* Launch-wide inputs, read by the core's CSRs. */
#define SIMTY_MMIO_LAUNCH_NTHREADS 0x030u
#define SIMTY_MMIO_LAUNCH_ARGS 0x034u
#define SIMTY_MMIO_LAUNCH_STACK_TOP 0x038u
#define SIMTY_MMIO_LAUNCH_STACK_LOG2 0x03Cu

/* Block sequencer (docs/soc.md): the core's dispatch port in hardware.
 * Write LAUNCH_*, SEQ_PC and SEQ_FIRST, then SEQ_CTRL START: the blocks of
 * LANES ids SEQ_FIRST .. LAUNCH_NTHREADS - 1 go to the warps as they free,
 * lowest free warp first. */
#define SIMTY_MMIO_SEQ_CTRL 0x040u   /* W: bits below */
#define SIMTY_SEQ_START 0x1u         /* start a launch (ignored while BUSY) */
#define SIMTY_SEQ_STOP 0x2u          /* hand out no further block */
#define SIMTY_MMIO_SEQ_PC 0x044u     /* RW: entry pc of every block */
#define SIMTY_MMIO_SEQ_FIRST 0x048u  /* RW: first logical id (a multiple of
                                        LANES; the low bits are ignored) */
#define SIMTY_MMIO_SEQ_STATUS 0x04Cu /* R: bits below */
#define SIMTY_SEQ_RUNNING 0x1u       /* ids left to hand out, not stopped */
#define SIMTY_SEQ_BUSY 0x2u          /* RUNNING, or a block not yet ended */
#define SIMTY_SEQ_DONE 0x4u          /* the launch ended: every block ran */
#define SIMTY_SEQ_STOPPED 0x8u       /* the launch was stopped */
#define SIMTY_SEQ_FAULT 0x10u        /* = FAULT_VALID */
#define SIMTY_MMIO_SEQ_NEXT 0x050u   /* R: next logical id to hand out */
#define SIMTY_MMIO_WARP_BUSY 0x054u  /* R: bit w = warp w holds threads */
#define SIMTY_MMIO_SEQ_DONE 0x058u   /* R: threads of the blocks that ended */
#define SIMTY_MMIO_SEQ_HELD 0x05Cu   /* R: bit w = warp w holds a block of
                                        this launch */

/* Fault record of the first fault (read-only, cleared by CORE_RESET). */
#define SIMTY_MMIO_FAULT_VALID 0x060u
#define SIMTY_MMIO_FAULT_CAUSE 0x064u
#define SIMTY_MMIO_FAULT_PC 0x068u
#define SIMTY_MMIO_FAULT_HART 0x06Cu
#define SIMTY_MMIO_FAULT_TID 0x070u
#define SIMTY_MMIO_FAULT_ADDR 0x074u

/* Performance counters (SIMTY_COUNTER_MAP): select, then read LO (which
 * latches HI), then HI. */
#define SIMTY_MMIO_CTR_SEL 0x080u
#define SIMTY_MMIO_CTR_LO 0x084u /* R: latches HI; the bus waits (bounded, in
                                  hardware) until the core holds the counter */
#define SIMTY_MMIO_CTR_HI 0x088u
#define SIMTY_MMIO_CTR_CLEAR 0x08Cu /* W: zero every counter */

/* Console FIFO (device printf): read TID, then DATA (which pops). */
#define SIMTY_MMIO_CONSOLE_STATUS 0x090u /* R bits 15:0: bytes held */
#define SIMTY_MMIO_CONSOLE_TID 0x094u
#define SIMTY_MMIO_CONSOLE_DATA 0x098u

/* Free-running 64-bit cycle counter: read LO (latches HI), then HI. */
#define SIMTY_MMIO_TIMER_LO 0x0A0u
#define SIMTY_MMIO_TIMER_HI 0x0A4u

/* Host UART. */
#define SIMTY_MMIO_UART_DATA 0x0B0u   /* R: pop rx byte; W: push tx byte */
#define SIMTY_MMIO_UART_STATUS 0x0B4u /* see bits below */
#define SIMTY_UART_RX_VALID 0x1u      /* a received byte is waiting */
#define SIMTY_UART_TX_READY 0x2u      /* the transmitter takes a byte */
#define SIMTY_UART_RX_OVERRUN 0x4u    /* sticky; write 1 to clear */

/* SoC identification (issue 19): version and build of the bitstream. */
#define SIMTY_MMIO_HW_VERSION 0x0C0u /* R: major << 16 | minor << 8 | patch */
#define SIMTY_MMIO_HW_BUILD 0x0C4u   /* R: source digest, 0 when unknown */
#define SIMTY_MMIO_LINK_BAUD 0x0C8u  /* R: the UART's rate in bits/s */
#define SIMTY_MMIO_EXTENSIONS 0x0CCu /* R: the core's SIMTY_EXT_* bits; bit 8
                                      * the rotate crossbar (INFO carries it) */

/* Link engine (docs/soc.md): COBS, CRC-32 and copies in hardware. */
#define SIMTY_MMIO_LINK_CTRL 0x100u      /* RW */
#define SIMTY_LINK_CTRL_ENABLE 0x1u      /* the engine owns the UART FIFOs */
#define SIMTY_LINK_CTRL_RESET 0x2u       /* W: drop frames, empty queues */
#define SIMTY_MMIO_LINK_INFO 0x104u      /* R: 7:0 RX slots, 15:8 TX slots,
                                            31:16 slot stride */
#define SIMTY_MMIO_LINK_RX_STATUS 0x110u /* R: bits below */
#define SIMTY_LINK_RX_READY 0x1u         /* a frame is held */
#define SIMTY_LINK_RX_SLOT_SHIFT 1u      /* bits 3:1 its RX slot */
#define SIMTY_LINK_RX_KIND_SHIFT 4u      /* bits 5:4 SIMTY_LINK_KIND_* */
#define SIMTY_LINK_RX_LEN_SHIFT 16u      /* bits 31:16 bytes decoded */
#define SIMTY_LINK_KIND_FRAME 0u
#define SIMTY_LINK_KIND_BAD_CRC 1u
#define SIMTY_LINK_KIND_BAD_LENGTH 2u
#define SIMTY_MMIO_LINK_RX_RELEASE 0x114u   /* W: free the held frame's slot */
#define SIMTY_MMIO_LINK_RX_FRAMES 0x118u    /* R: good frames (wraps) */
#define SIMTY_MMIO_LINK_RX_BAD_CRC 0x11Cu   /* R */
#define SIMTY_MMIO_LINK_RX_BAD_LENGTH 0x120u /* R */
#define SIMTY_MMIO_LINK_RX_RUNTS 0x124u     /* R */
#define SIMTY_MMIO_LINK_TX_SEND 0x140u   /* W: 3:0 TX slot, 28:16 length */
#define SIMTY_LINK_TX_LEN_SHIFT 16u
#define SIMTY_MMIO_LINK_TX_STATUS 0x144u /* R: bits below */
#define SIMTY_LINK_TX_FULL 0x1u          /* the send queue takes no more */
#define SIMTY_LINK_TX_IDLE 0x2u          /* nothing queued or being sent */
#define SIMTY_MMIO_LINK_TX_BUSY 0x148u   /* R: bit j = TX slot j in use */
#define SIMTY_MMIO_COPY_SRC 0x160u       /* RW byte address */
#define SIMTY_MMIO_COPY_DST 0x164u       /* RW byte address */
#define SIMTY_MMIO_COPY_LEN 0x168u       /* RW bytes */
#define SIMTY_MMIO_COPY_GO 0x16Cu        /* W: start; R bit 0: busy */

#define SIMTY_MMIO_ID_VALUE 0x53494D54u /* "SIMT" */

#endif /* SIMTY_MMIO_H */
