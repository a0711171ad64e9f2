/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_host.c - scripted host side for firmware tests and the benchmark.
 */
#include "fw_host.h"

#include <string.h>

void fw_host_init(struct fw_host *h, struct fw *fw)
{
  memset(h, 0, sizeof *h);
  h->fw = fw;
  h->seq = 0x7F00; /* anything: INFO sets the device's window */
  simty_link_decoder_init(&h->dec, h->buf, sizeof h->buf);
}

void fw_host_send_seq(struct fw_host *h, uint8_t cmd, uint16_t seq,
                      const void *payload, size_t n)
{
  static uint8_t frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD + 64)];
  static uint8_t wire[SIMTY_WIRE_MAX(sizeof frame)];
  if (n)
    memcpy(frame + SIMTY_HDR_SIZE, payload, n);
  size_t len = simty_frame_seal(frame, cmd, seq, 0, (uint16_t)n);
  size_t w = simty_link_encode(frame, len, wire);
  mock_uart_push(wire, w);
  h->wire_to_dev += w;
}

uint16_t fw_host_send(struct fw_host *h, uint8_t cmd, const void *payload,
                      size_t n)
{
  uint16_t seq = h->seq++;
  fw_host_send_seq(h, cmd, seq, payload, n);
  return seq;
}

int fw_host_open(struct fw_host *h, unsigned max_polls)
{
  return fw_host_call(h, SIMTY_CMD_INFO, NULL, 0, max_polls);
}

bool fw_host_receive(struct fw_host *h, unsigned max_polls)
{
  for (unsigned i = 0; i <= max_polls; i++) {
    while (h->tx_read < mock.tx_len) {
      uint8_t b = mock.tx[h->tx_read++];
      h->wire_to_host++;
      if (simty_link_decoder_feed(&h->dec, b) == SIMTY_LINK_FRAME) {
        const uint8_t *f = h->dec.buf;
        h->command = simty_frame_command(f);
        h->resp_seq = simty_frame_seq(f);
        h->status = simty_frame_status(f);
        h->length = simty_frame_length(f);
        h->payload = simty_frame_payload(f);
        h->frame_len = h->dec.len;
        return true;
      }
    }
    if (i < max_polls)
      fw_poll(h->fw);
  }
  return false;
}

int fw_host_call(struct fw_host *h, uint8_t cmd, const void *payload, size_t n,
                 unsigned max_polls)
{
  uint16_t seq = fw_host_send(h, cmd, payload, n);
  h->round_trips++;
  while (fw_host_receive(h, max_polls)) {
    if (h->resp_seq == seq && h->command == (cmd | SIMTY_RESPONSE_FLAG))
      return h->status;
  }
  return -1;
}
