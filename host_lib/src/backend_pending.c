/*
 * backend_pending.c - TEMPORARY: link backends not written yet. Each open
 * fails with SIMTY_ENOTSUP and says so. Replaced by the protocol client.
 */
#include "simty_internal.h"

static int pending_open(simty_device *dev, const char *rest)
{
  (void)rest;
  return simty__fail(dev, SIMTY_ENOTSUP,
                     "the %s backend is not available in this build",
                     dev->backend->scheme);
}

#define PENDING(name)                                                        \
  const struct simty__backend simty__backend_##name = {.scheme = #name,      \
                                                       .open = pending_open}
PENDING(sim);
PENDING(tcp);
PENDING(ftdi);
PENDING(usb);
