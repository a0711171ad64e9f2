/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_info.c - `simty info` and `simty --version`. Versions are printed
 * "major.minor.patch" in text and JSON alike.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "simty_cli.h"
#include "simty_proto.h"

int cli_version(struct cli *c)
{
  /* A device named by --device or $SIMTY_DEVICE adds its side. */
  const char *uri = c->uri ? c->uri : getenv("SIMTY_DEVICE");
  simty_device *dev = NULL;
  if (uri && *uri && simty_open(uri, &dev) != 0)
    return cli_error(c, EXIT_ERROR, 0, "%s", simty_last_error(NULL));
  struct simty_device_info in = {0};
  char fw[16] = "", hw[16] = "";
  if (dev) {
    simty_device_info(dev, &in);
    version_text(fw, sizeof fw, in.firmware_version);
    version_text(hw, sizeof hw, in.hw_version);
  }
  if (c->json) {
    printf("{\"simty\": \"%s\", \"library_version\": \"%s\", "
           "\"protocol_version\": %u, \"device\": ",
           SIMTY_VERSION_STRING, simty_version(NULL),
           (unsigned)SIMTY_PROTO_VERSION);
    if (!dev) {
      printf("null}\n");
    } else {
      printf("{\"uri\": ");
      json_cstring(stdout, simty_device_uri(dev));
      if (in.protocol_version)
        printf(", \"firmware_version\": \"%s\", \"bitstream_version\": "
               "\"%s\", \"bitstream_build\": \"%08" PRIx32
               "\", \"protocol_version\": %u}}\n",
               fw, hw, in.hw_build, in.protocol_version);
      else
        printf(", \"backend\": \"%s\"}}\n", in.backend);
    }
  } else {
    printf(PROG " %s (host library %s, link protocol %u)\n",
           SIMTY_VERSION_STRING, simty_version(NULL),
           (unsigned)SIMTY_PROTO_VERSION);
    if (dev && in.protocol_version)
      printf("device %s: firmware %s, bitstream %s (build %08" PRIx32
             "), link protocol %u\n",
             simty_device_uri(dev), fw, hw, in.hw_build, in.protocol_version);
    else if (dev)
      printf("device %s: the in-process model of this library\n",
             simty_device_uri(dev));
  }
  if (dev)
    simty_close(dev);
  return EXIT_OK;
}

/* The device's ISA in RISC-V's naming: rv32i, then its extensions in
 * canonical order (single letters, then Z extensions after "_"). */
static void isa_text(char *buf, size_t size, unsigned ext)
{
  snprintf(buf, size, "rv32i%s%s%s", (ext & SIMTY_EXT_M) ? "m" : "",
           (ext & SIMTY_EXT_A) ? "a" : "",
           (ext & SIMTY_EXT_ZICNTR) ? "_zicntr" : "");
}

int cmd_info(struct cli *c)
{
  simty_device *dev = c->dev;
  struct simty_device_info in;
  simty_device_info(dev, &in);
  char fw[16], hw[16];
  version_text(fw, sizeof fw, in.firmware_version);
  version_text(hw, sizeof hw, in.hw_version);
  char isa[32];
  isa_text(isa, sizeof isa, in.extensions);
  if (c->json) {
    printf("{\"uri\": ");
    json_cstring(stdout, simty_device_uri(dev));
    printf(", \"backend\": \"%s\", \"warps\": %u, \"lanes\": %u, "
           "\"code_base\": %" PRIu32 ", \"code_size\": %" PRIu32
           ", \"data_base\": %" PRIu32 ", \"data_size\": %" PRIu32
           ", \"clock_hz\": %" PRIu32 ", \"library_version\": \"%s\", "
           "\"protocol_version\": %u, \"isa\": \"%s\", \"xbar\": \"%s\", ",
           in.backend, in.warps, in.lanes, in.code_base, in.code_size,
           in.data_base, in.data_size, in.clock_hz, simty_version(NULL),
           in.protocol_version, isa, in.xbar ? "rotate" : "full");
    /* The in-process model has no firmware or bitstream: null, as the
     * text says n/a. */
    if (in.protocol_version)
      printf("\"firmware_version\": \"%s\", \"bitstream_version\": %s%s%s, "
             "\"bitstream_build\": \"%08" PRIx32 "\", ",
             fw, in.hw_version ? "\"" : "", in.hw_version ? hw : "null",
             in.hw_version ? "\"" : "", in.hw_build);
    else
      printf("\"firmware_version\": null, \"bitstream_version\": null, "
             "\"bitstream_build\": null, ");
    printf("\"max_payload\": %u, \"link_baud\": %" PRIu32
           ", \"link_window\": %u, \"link_engine\": %s, "
           "\"counter_count\": %u}\n",
           in.max_payload, in.link_baud, in.link_window,
           (in.link_flags & 1u) ? "true" : "false", in.counter_count);
    return EXIT_OK;
  }
  printf("device:      %s\n", simty_device_uri(dev));
  printf("backend:     %s\n", in.backend);
  printf("core:        %u warps x %u lanes (%u hardware threads)\n", in.warps,
         in.lanes, in.warps * in.lanes);
  printf("isa:         %s\n", isa);
  printf("crossbar:    %s\n", in.xbar ? "rotate" : "full");
  printf("code memory: 0x%08" PRIx32 ", %" PRIu32 " KiB\n", in.code_base,
         in.code_size / 1024);
  printf("data memory: 0x%08" PRIx32 ", %" PRIu32 " KiB\n", in.data_base,
         in.data_size / 1024);
  if (in.clock_hz)
    printf("clock:       %.3f MHz\n", in.clock_hz / 1e6);
  else
    printf("clock:       n/a\n");
  printf("library:     version %s\n", simty_version(NULL));
  if (in.protocol_version) {
    printf("protocol:    version %u, payloads up to %u bytes, %u requests in "
           "flight\n",
           in.protocol_version, in.max_payload, in.link_window);
    if (in.link_baud)
      printf("link:        %" PRIu32 " baud%s\n", in.link_baud,
             (in.link_flags & 1u) ? ", frames in the hardware link engine" : "");
    printf("firmware:    version %s\n", fw);
    if (in.hw_version)
      printf("bitstream:   version %s, build %08" PRIx32 "\n", hw, in.hw_build);
    else
      printf("bitstream:   version not reported (a SoC older than 0.2.0)\n");
  } else {
    printf("protocol:    n/a (in-process)\n");
  }
  printf("counters:    %u\n", in.counter_count);
  return EXIT_OK;
}
