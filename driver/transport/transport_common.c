/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_common.c - what every byte transport and the session share:
 * the monotonic clock their deadlines use and the error-detail helper.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "simty_transport.h"

uint64_t simty__transport_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int simty__transport_fail(struct simty_transport *t, int code, const char *fmt,
                          ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->err, sizeof(t->err), fmt, ap);
  va_end(ap);
  return code;
}
