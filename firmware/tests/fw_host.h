/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_host.h - a scripted host for the firmware running against the mock
 * SoC: sends request frames into the mock UART, polls the firmware and
 * decodes its responses (protocol v2: a session opens with INFO; seqs
 * are consecutive). Used by the tests and the link benchmark.
 */
#ifndef FW_HOST_H
#define FW_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fw.h"
#include "mock_hal.h"
#include "simty_link.h"

struct fw_host {
  struct fw *fw;
  struct simty_link_decoder dec;
  uint8_t buf[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  size_t tx_read;        /* mock.tx bytes already decoded */
  uint16_t seq;          /* next sequence number */
  uint64_t wire_to_dev;  /* bytes sent to the device */
  uint64_t wire_to_host; /* bytes received from it */
  unsigned round_trips;
  /* Last response */
  uint8_t status;
  uint8_t command;
  uint16_t resp_seq;
  uint16_t length;
  const uint8_t *payload;
  size_t frame_len;
};

void fw_host_init(struct fw_host *h, struct fw *fw);
/* Opens a session: INFO with the next seq; returns its status (-1: no
 * answer). */
int fw_host_open(struct fw_host *h, unsigned max_polls);
/* Queues one request frame (with the given seq) on the device's UART. */
void fw_host_send_seq(struct fw_host *h, uint8_t cmd, uint16_t seq,
                      const void *payload, size_t n);
/* The same with the next seq of the session; returns that seq. */
uint16_t fw_host_send(struct fw_host *h, uint8_t cmd, const void *payload,
                      size_t n);
/* Polls until a frame arrives (true) or max_polls pass (false). */
bool fw_host_receive(struct fw_host *h, unsigned max_polls);
/* One round trip with a fresh seq; returns the response status, or -1 if
 * no answer came within max_polls. */
int fw_host_call(struct fw_host *h, uint8_t cmd, const void *payload, size_t n,
                 unsigned max_polls);

#endif /* FW_HOST_H */
