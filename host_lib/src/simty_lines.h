/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_lines.h - device console bytes regrouped into lines per thread
 * (internal to Simty tools: the host library, the model CLI).
 *
 * Bytes arrive tagged with a logical thread id, interleaved between
 * threads; each thread's bytes are kept until its '\n' (or until a line
 * reaches SIMTY_LINE_MAX_BYTES, so a kernel printing without newlines
 * cannot grow host memory without bound) and then handed to `fn` without
 * the newline, NUL-terminated.
 */
#ifndef SIMTY_LINES_H
#define SIMTY_LINES_H

#include <stddef.h>
#include <stdint.h>

#define SIMTY_LINE_MAX_BYTES 4096u

typedef void (*simty__line_fn)(void *user, uint32_t tid, const char *text,
                               size_t len);

struct simty__line {
  uint32_t tid;
  int used;
  char *text;
  size_t len, cap;
};

struct simty__lines {
  struct simty__line *slots; /* open addressing on tid */
  size_t nslots, nused;
  simty__line_fn fn;
  void *user;
  int lost; /* a byte was dropped for want of host memory */
};

/* Add one byte of thread `tid`; may call fn. */
void simty__lines_byte(struct simty__lines *l, uint32_t tid, uint8_t byte);

/* Hand unfinished lines to fn in thread order, then forget every thread
 * (ids restart with the next launch). Keeps fn, user and lost. */
void simty__lines_flush(struct simty__lines *l);

/* Free everything (without flushing). */
void simty__lines_free(struct simty__lines *l);

#endif /* SIMTY_LINES_H */
