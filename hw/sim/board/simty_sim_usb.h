/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_usb.h - the USB side of the simulated board's link, in
 * simulated time: what an FTDI USB-UART bridge does to the bytes between
 * the host and the board's UART, so that link figures on the simulated
 * board are those of a real board.
 *
 * Host to board: a write of the host reaches the chip in a USB bulk OUT
 * transfer, which the host controller schedules in the next (micro)frame:
 * bytes the host sent during a frame become available to the UART at the
 * frame's end. The UART then takes them at the wire rate (the caller
 * paces that).
 *
 * Board to host: the chip collects received UART bytes and hands them to
 * the host in bulk IN packets: at once when a packet is full (62 data
 * bytes at full speed, 510 at high speed), otherwise when its latency
 * timer (1 ms, as the host library sets it) runs out since the oldest
 * byte waiting. Its receive buffer holds 512 bytes (FT231X) or 4 KiB
 * (FT2232H); when it is full the board's transmitter waits.
 *
 * Figures from the FTDI datasheets (FT231X, FT2232H) and application
 * note AN232B-04 (data throughput, latency and handshaking).
 */
#ifndef SIMTY_SIM_USB_H
#define SIMTY_SIM_USB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum simty_sim_usb_kind {
  SIMTY_SIM_USB_OFF = 0, /* bytes pass at once (fast tests) */
  SIMTY_SIM_USB_FS = 1,  /* full speed, FT231X (ULX3S): 1 ms frames */
  SIMTY_SIM_USB_HS = 2,  /* high speed, FT2232H (iCE40 boards): 125 us */
};

#define SIMTY_SIM_USB_CHUNKS 256u /* host writes waiting for their frame */
#define SIMTY_SIM_USB_RXBUF 4096u /* largest chip receive buffer modelled */

struct simty_sim_usb {
  int kind;                /* enum simty_sim_usb_kind */
  uint64_t frame_cycles;   /* USB (micro)frame, in board cycles */
  uint64_t latency_cycles; /* the chip's latency timer */
  uint32_t packet;         /* data bytes of a full bulk IN packet */
  uint32_t rx_capacity;    /* the chip's receive buffer */

  /* Host to board: bytes received from the host (running total) and the
   * total that has reached the chip, by frame. */
  uint64_t out_seen;
  uint64_t out_usable;
  struct {
    uint64_t total; /* out_seen once this chunk has arrived */
    uint64_t at;    /* cycle at which it arrives */
  } chunk[SIMTY_SIM_USB_CHUNKS];
  uint32_t chunk_head, chunk_tail;

  /* Board to host: bytes the chip holds, and since when the oldest. */
  uint8_t rx[SIMTY_SIM_USB_RXBUF];
  uint32_t rx_len;
  uint64_t rx_since;
  uint64_t packets_in; /* bulk IN packets handed to the host */
};

/* kind: enum simty_sim_usb_kind; clk_hz: the board clock. */
void simty_sim_usb_init(struct simty_sim_usb *u, int kind, uint64_t clk_hz);

/* The host has sent `total` bytes so far (a running count); the new ones
 * reach the chip at the end of the frame in progress at `cycle`. Returns
 * 0, or -1 when too many writes are waiting (the caller tries later). */
int simty_sim_usb_host_sent(struct simty_sim_usb *u, uint64_t total,
                            uint64_t cycle);

/* Running count of host bytes that have reached the chip by `cycle`: the
 * board's UART may take bytes up to this count. */
uint64_t simty_sim_usb_usable(struct simty_sim_usb *u, uint64_t cycle);

/* Whether the chip can take one more byte from the board's UART. */
int simty_sim_usb_rx_room(const struct simty_sim_usb *u);

/* A byte from the board's UART reaches the chip at `cycle`. */
void simty_sim_usb_rx_byte(struct simty_sim_usb *u, uint8_t b, uint64_t cycle);

/* Bytes the chip hands to the host at `cycle` (a full packet, or what it
 * holds once the latency timer ran out): copies up to max of them to out
 * and returns how many. */
uint32_t simty_sim_usb_to_host(struct simty_sim_usb *u, uint64_t cycle,
                               uint8_t *out, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_SIM_USB_H */
