/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_usb.c - the FTDI bridge's USB timing in the simulated board
 * (see simty_sim_usb.h).
 */
#include "simty_sim_usb.h"

#include <string.h>

void simty_sim_usb_init(struct simty_sim_usb *u, int kind, uint64_t clk_hz)
{
  memset(u, 0, sizeof *u);
  u->kind = kind;
  /* The latency timer is 1 ms on both chips (the host library sets it). */
  u->latency_cycles = clk_hz / 1000u;
  if (kind == SIMTY_SIM_USB_HS) {
    u->frame_cycles = clk_hz / 8000u; /* 125 us microframes */
    u->packet = 510u;                 /* 512-byte packets, 2 status bytes */
    u->rx_capacity = 4096u;
  } else {
    u->frame_cycles = clk_hz / 1000u; /* 1 ms frames */
    u->packet = 62u;                  /* 64-byte packets, 2 status bytes */
    u->rx_capacity = 512u;
  }
  if (u->frame_cycles == 0)
    u->frame_cycles = 1;
}

int simty_sim_usb_host_sent(struct simty_sim_usb *u, uint64_t total,
                            uint64_t cycle)
{
  if (total <= u->out_seen)
    return 0;
  uint64_t at = (cycle / u->frame_cycles + 1u) * u->frame_cycles;
  uint32_t n = u->chunk_tail - u->chunk_head;
  if (n && u->chunk[(u->chunk_tail - 1u) % SIMTY_SIM_USB_CHUNKS].at == at) {
    /* Another write in the same frame: it arrives with the first. */
    u->chunk[(u->chunk_tail - 1u) % SIMTY_SIM_USB_CHUNKS].total = total;
  } else {
    if (n == SIMTY_SIM_USB_CHUNKS)
      return -1;
    u->chunk[u->chunk_tail % SIMTY_SIM_USB_CHUNKS].total = total;
    u->chunk[u->chunk_tail % SIMTY_SIM_USB_CHUNKS].at = at;
    u->chunk_tail++;
  }
  u->out_seen = total;
  return 0;
}

uint64_t simty_sim_usb_usable(struct simty_sim_usb *u, uint64_t cycle)
{
  while (u->chunk_head != u->chunk_tail &&
         u->chunk[u->chunk_head % SIMTY_SIM_USB_CHUNKS].at <= cycle) {
    u->out_usable = u->chunk[u->chunk_head % SIMTY_SIM_USB_CHUNKS].total;
    u->chunk_head++;
  }
  return u->out_usable;
}

int simty_sim_usb_rx_room(const struct simty_sim_usb *u)
{
  return u->rx_len < u->rx_capacity;
}

void simty_sim_usb_rx_byte(struct simty_sim_usb *u, uint8_t b, uint64_t cycle)
{
  if (u->rx_len >= u->rx_capacity)
    return; /* the caller checks simty_sim_usb_rx_room() first */
  if (u->rx_len == 0)
    u->rx_since = cycle;
  u->rx[u->rx_len++] = b;
}

uint32_t simty_sim_usb_to_host(struct simty_sim_usb *u, uint64_t cycle,
                               uint8_t *out, uint32_t max)
{
  if (u->rx_len == 0)
    return 0;
  if (u->rx_len < u->packet && cycle - u->rx_since < u->latency_cycles)
    return 0;
  uint32_t n = u->rx_len < u->packet ? u->rx_len : u->packet;
  if (n > max)
    return 0; /* the host side has no room: try again later */
  memcpy(out, u->rx, n);
  u->rx_len -= n;
  memmove(u->rx, u->rx + n, u->rx_len);
  /* The timer starts again for what is left. */
  u->rx_since = cycle;
  u->packets_in++;
  return n;
}
