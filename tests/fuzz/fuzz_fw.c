/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_fw.c - libFuzzer target for the firmware's protocol engine
 * (firmware/fw_engine.c, fw_dispatch.c) built for the host (-DFW_HOST)
 * on the mocked SoC (firmware/tests/mock_hal.c).
 *
 * Input: byte 0 seeds the chunking, the rest is the wire stream from the
 * host. The stream goes into the mock link engine's UART in chunks of 1
 * to 64 bytes, with 1 to 8 fw_poll() calls after each; then the firmware
 * is polled until it has been quiet for a while (at most FUZZ_MAX_POLLS
 * polls in all, so every input ends).
 *
 * Checked besides what ASan and UBSan catch:
 *   - the mock SoC saw no violation (a busy TX slot rewritten, a slot
 *     released twice, ...: see mock_hal.c);
 *   - every byte the firmware sent decodes, with the host's decoder
 *     (driver/link/simty_link.c), into valid frames only: version 2, a
 *     response command, a known status, an error status with its 4-byte
 *     detail payload, a payload within SIMTY_MAX_PAYLOAD.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "mock_hal.h"
#include "simty_link.h"
#include "simty_proto.h"

#define FUZZ_MAX_POLLS 20000u
#define FUZZ_QUIET_POLLS 200u

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz_fw: check failed: %s\n", #cond);                 \
      abort();                                                               \
    }                                                                        \
  } while (0)

static struct fw fw;
static uint8_t frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
static struct simty_link_decoder dec;
static size_t tx_read;

/* Decodes what the firmware sent since the last call. */
static void check_answers(void)
{
  if (mock.violations) {
    fprintf(stderr, "fuzz_fw: mock violation: %s\n", mock.violation);
    abort();
  }
  while (tx_read < mock.tx_len) {
    enum simty_link_event ev = simty_link_decoder_feed(&dec, mock.tx[tx_read++]);
    if (ev == SIMTY_LINK_NONE)
      continue;
    CHECK(ev == SIMTY_LINK_FRAME);
    CHECK(dec.len >= SIMTY_FRAME_OVERHEAD);
    CHECK(frame[SIMTY_HDR_VERSION] == SIMTY_PROTO_VERSION);
    CHECK(simty_frame_command(frame) & SIMTY_RESPONSE_FLAG);
    uint8_t st = simty_frame_status(frame);
    CHECK(st <= SIMTY_ST_SEQUENCE);
    uint16_t len = simty_frame_length(frame);
    CHECK(len <= SIMTY_MAX_PAYLOAD);
    CHECK(dec.len == SIMTY_FRAME_SIZE(len));
    if (st != SIMTY_ST_OK)
      CHECK(len == SIMTY_ERROR_PAYLOAD);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  mock_reset(4, 4);
  fw_init(&fw);
  simty_link_decoder_init(&dec, frame, sizeof frame);
  tx_read = 0;
  if (size == 0)
    return 0;
  uint32_t rng = data[0] * 2654435761u + 1u;
  size_t pos = 1;
  unsigned polls = 0;
  while (pos < size && polls < FUZZ_MAX_POLLS) {
    rng = rng * 1103515245u + 12345u;
    size_t chunk = 1 + ((rng >> 16) & 63u);
    if (chunk > size - pos)
      chunk = size - pos;
    mock_uart_push(data + pos, chunk);
    pos += chunk;
    unsigned n = 1 + ((rng >> 24) & 7u);
    for (unsigned i = 0; i < n && polls < FUZZ_MAX_POLLS; i++, polls++) {
      fw_poll(&fw);
      check_answers();
    }
  }
  /* Let it finish what it was given: poll until quiet. */
  unsigned quiet = 0;
  while (quiet < FUZZ_QUIET_POLLS && polls < FUZZ_MAX_POLLS) {
    size_t before = mock.tx_len, rx_before = mock.rx_head;
    fw_poll(&fw);
    polls++;
    check_answers();
    quiet = (mock.tx_len == before && mock.rx_head == rx_before) ? quiet + 1 : 0;
  }
  return 0;
}
