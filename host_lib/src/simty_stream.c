/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_stream.c - a device's stream: every copy and launch in submission
 * order, the same on every device. Writes and launches go to the backend
 * at once (a link device queues them, docs/protocol.md "Queued work"; the
 * model backend queues them in process); a read waits in the library
 * until everything before it has completed, since no device runs a copy
 * to the host behind a launch. Completion is tracked in the device's
 * operation numbers; a fault fails its operation and every one after it
 * that was submitted before the library learned of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_internal.h"

static int backend_read(simty_device *dev, uint32_t addr, void *dst,
                        size_t len);
static void stream_idle(simty_device *dev);

/* Everything submitted has completed (a wait saw it): the sequence ends. */
static void maybe_idle(simty_device *dev)
{
  if (!dev->stream.nops && !dev->inherited && !dev->launch_unknown &&
      !dev->stream.fault_pending)
    stream_idle(dev);
}

void simty__enter(simty_device *dev)
{
  pthread_mutex_lock(&dev->lock);
  dev->error[0] = '\0';
}

void simty__stream_free(simty_device *dev)
{
  free(dev->stream.ops);
  memset(&dev->stream, 0, sizeof(dev->stream));
  free(dev->code_image);
  dev->code_image = NULL;
  dev->code_image_len = 0;
}

void simty__code_written(simty_device *dev, uint32_t addr, uint64_t len)
{
  if (dev->code_image && addr < dev->info.code_base + (uint64_t)SIMTY_CODE_WINDOW &&
      addr + len > dev->info.code_base) {
    free(dev->code_image);
    dev->code_image = NULL;
    dev->code_image_len = 0;
  }
}

static int push_op(simty_device *dev, uint32_t op, uint32_t addr, void *dst,
                   size_t len, simty_event *ev)
{
  struct simty__stream *s = &dev->stream;
  if (s->nops == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    struct simty__op *v = realloc(s->ops, cap * sizeof(*v));
    if (!v)
      return simty__fail(dev, SIMTY_ENOMEM, "out of host memory");
    s->ops = v;
    s->cap = cap;
  }
  struct simty__op *o = &s->ops[s->nops++];
  o->ev = ++s->next;
  o->op = op;
  o->addr = addr;
  o->dst = dst;
  o->len = len;
  if (ev)
    *ev = o->ev;
  return 0;
}

/* Drops the first n outstanding operations (completed or failed). */
static void pop_ops(struct simty__stream *s, size_t n)
{
  if (n == 0)
    return; /* ops may still be NULL */
  memmove(s->ops, s->ops + n, (s->nops - n) * sizeof(*s->ops));
  s->nops -= n;
}

/* Operation numbers wrap at 2^32: compare by difference. */
static int op_le(uint32_t a, uint32_t b)
{
  return (int32_t)(b - a) >= 0;
}

void simty__stream_note(simty_device *dev, const struct simty__status *st)
{
  struct simty__stream *s = &dev->stream;
  s->ops_done = st->ops_done;
  if (st->fault_op && st->fault_op != s->fault_seen) {
    /* A new fault ended the queue at fault_op: that operation and every
     * later one the library had submitted did not run. */
    s->fault_seen = st->fault_op;
    dev->last_fault = st->fault;
    if (st->state != SIMTY__FAULT || !dev->last_fault.cause)
      dev->last_fault.cause = SIMTY_FAULT_ABORTED;
    size_t i = 0;
    while (i < s->nops && (s->ops[i].op == 0 || !op_le(st->fault_op, s->ops[i].op)))
      i++;
    s->fault_ev = i < s->nops && s->ops[i].op == st->fault_op ? s->ops[i].ev
                                                              : 0;
    /* Reads before the first failed operation still happen; from it on
     * everything fails. */
    if (i < s->nops || s->nops == 0) {
      s->fail_lo = i < s->nops ? s->ops[i].ev : s->next + 1;
      s->fail_hi = s->next;
      s->nops = i;
    }
    s->fault_pending = 1;
  }
  /* Device operations completed, in order; with nothing running or
   * queued, every one accepted has. */
  int idle = st->state != SIMTY__RUNNING && st->queued == 0;
  size_t n = 0;
  while (n < s->nops && s->ops[n].op &&
         (idle || op_le(s->ops[n].op, st->ops_done)))
    n++;
  pop_ops(s, n);
}

/* Event state without waiting: 0 complete, 1 not yet, SIMTY_EFAULT. */
static int event_state(simty_device *dev, simty_event ev)
{
  struct simty__stream *s = &dev->stream;
  if (ev == 0)
    return 0;
  if (ev >= s->fail_lo && ev <= s->fail_hi && s->fail_lo)
    return SIMTY_EFAULT;
  for (size_t i = 0; i < s->nops; i++)
    if (s->ops[i].ev == ev)
      return 1;
  return 0;
}

/* A fault ended the stream: submissions fail until a call that waits
 * (simty_wait(), simty_sync(), simty_event_wait(), a blocking copy)
 * has reported it, so that what runs after a fault does not depend on
 * when the library learned of it. */
static int fault_report(simty_device *dev, int waiting)
{
  char text[160];
  simty_fault_format(&dev->last_fault, text, sizeof(text));
  if (waiting)
    dev->stream.fault_pending = 0;
  return simty__fail(dev, SIMTY_EFAULT,
                     waiting ? "fault: %s"
                             : "fault: %s (submitted after it: not run; "
                               "simty_sync() reports it)",
                     text);
}

static int fault_error(simty_device *dev)
{
  return fault_report(dev, 1);
}

int simty__stream_wait(simty_device *dev, simty_event ev, uint64_t deadline)
{
  struct simty__stream *s = &dev->stream;
  if (ev == 0)
    ev = s->next;
  for (;;) {
    int st = event_state(dev, ev);
    if (st <= 0)
      return st;
    /* Reads at the front: everything before them has completed. */
    if (s->nops && s->ops[0].op == 0) {
      struct simty__op o = s->ops[0];
      int e = backend_read(dev, o.addr, o.dst, o.len);
      if (e)
        return e;
      pop_ops(s, 1);
      continue;
    }
    /* Up to the last device operation at or before ev. */
    uint32_t until = 0;
    for (size_t i = 0; i < s->nops && s->ops[i].ev <= ev; i++)
      if (s->ops[i].op)
        until = s->ops[i].op;
    struct simty__status stat;
    memset(&stat, 0, sizeof(stat));
    int e = dev->backend->wait(dev, until, deadline, &stat);
    if (e)
      return e;
    simty__stream_note(dev, &stat);
    if (event_state(dev, ev) == 1 && s->nops && s->ops[0].op &&
        simty__now_ns() >= deadline)
      return simty__fail(dev, SIMTY_ETIMEDOUT, "work still runs");
  }
}

/* Reads submitted before: made now, so that what follows cannot change
 * the bytes they read. */
static int flush_reads(simty_device *dev)
{
  struct simty__stream *s = &dev->stream;
  if (!s->nops || s->ops[s->nops - 1].op != 0)
    return 0;
  int e = simty__stream_wait(dev, s->ops[s->nops - 1].ev, UINT64_MAX);
  return e == SIMTY_EFAULT ? fault_report(dev, 0) : e;
}

/* Before a submission: a fault not yet reported by a wait refuses it. */
static int submit_check(simty_device *dev)
{
  if (dev->stream.fault_pending)
    return fault_report(dev, 0);
  return flush_reads(dev);
}

/* ---- Copies ---- */

int simty__backend_write(simty_device *dev, uint32_t addr, const void *src,
                         size_t len)
{
  simty__code_written(dev, addr, len);
  if (dev->backend->own_progress)
    return dev->backend->write(dev, addr, src, len);
  int report = len >= SIMTY__PROGRESS_CHUNK;
  for (size_t done = 0; done < len;) {
    size_t n = len - done > SIMTY__PROGRESS_CHUNK ? SIMTY__PROGRESS_CHUNK
                                                  : len - done;
    int e = dev->backend->write(dev, addr + (uint32_t)done,
                                (const uint8_t *)src + done, n);
    if (e)
      return e;
    done += n;
    if (report)
      simty__progress(dev, done, len);
  }
  return 0;
}

/* Reads in progress-sized pieces (nothing runs: the device is idle). */
static int backend_read(simty_device *dev, uint32_t addr, void *dst,
                        size_t len)
{
  if (dev->backend->own_progress)
    return dev->backend->read(dev, addr, dst, len);
  int report = len >= SIMTY__PROGRESS_CHUNK;
  for (size_t done = 0; done < len;) {
    size_t n = len - done > SIMTY__PROGRESS_CHUNK ? SIMTY__PROGRESS_CHUNK
                                                  : len - done;
    int e = dev->backend->read(dev, addr + (uint32_t)done,
                               (uint8_t *)dst + done, n);
    if (e)
      return e;
    done += n;
    if (report)
      simty__progress(dev, done, len);
  }
  return 0;
}

static int write_locked(simty_device *dev, uint32_t addr, const void *src,
                        size_t len, simty_event *ev)
{
  int e = simty__check_range(dev, addr, len, "write");
  if (!e)
    e = submit_check(dev);
  if (e)
    return e;
  if (len == 0) {
    if (ev)
      *ev = 0;
    return 0;
  }
  e = simty__backend_write(dev, addr, src, len);
  if (e == SIMTY_EFAULT && dev->stream.fault_pending)
    return fault_report(dev, 0);
  if (e)
    return e;
  return push_op(dev, dev->stream.last_op, 0, NULL, 0, ev);
}

int simty_write_async(simty_device *dev, uint32_t addr, const void *src,
                      size_t len, simty_event *ev)
{
  if (!dev || (!src && len))
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL source") : SIMTY_EINVAL;
  simty__enter(dev);
  int e = write_locked(dev, addr, src, len, ev);
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_write(simty_device *dev, uint32_t addr, const void *src, size_t len)
{
  if (!dev || (!src && len))
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL source") : SIMTY_EINVAL;
  simty__enter(dev);
  simty_event ev = 0;
  int e = write_locked(dev, addr, src, len, &ev);
  if (!e)
    e = simty__stream_wait(dev, ev, UINT64_MAX);
  if (e == SIMTY_EFAULT)
    e = fault_error(dev);
  if (!e)
    maybe_idle(dev);
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_read_async(simty_device *dev, uint32_t addr, void *dst, size_t len,
                     simty_event *ev)
{
  if (!dev || (!dst && len))
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL destination")
               : SIMTY_EINVAL;
  simty__enter(dev);
  int e = simty__check_range(dev, addr, len, "read");
  if (!e && dev->stream.fault_pending)
    e = fault_report(dev, 0);
  if (!e) {
    if (len == 0) {
      if (ev)
        *ev = 0;
    } else if (dev->stream.nops == 0) {
      /* Nothing before it: made now. */
      e = backend_read(dev, addr, dst, len);
      if (!e && ev)
        *ev = ++dev->stream.next;
    } else {
      e = push_op(dev, 0, addr, dst, len, ev);
    }
  }
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  if (!dev || (!dst && len))
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL destination")
               : SIMTY_EINVAL;
  simty__enter(dev);
  int e = simty__check_range(dev, addr, len, "read");
  if (!e && dev->stream.fault_pending)
    e = fault_error(dev);
  if (!e && dev->stream.nops)
    e = simty__stream_wait(dev, 0, UINT64_MAX);
  if (e == SIMTY_EFAULT)
    e = fault_error(dev);
  if (!e && len)
    e = backend_read(dev, addr, dst, len);
  if (!e)
    maybe_idle(dev);
  pthread_mutex_unlock(&dev->lock);
  return e;
}

/* ---- Launch submission (the checks and argument block: simty_kernel.c) */

int simty__stream_launch(simty_device *dev, struct simty__launch *l,
                         simty_event *ev)
{
  int e = submit_check(dev);
  if (e)
    return e;
  if (dev->stream.seq_launches)
    l->flags |= SIMTY__LAUNCH_CONTINUE;
  if (l->args_data)
    simty__code_written(dev, l->args, l->args_size);
  dev->launch_unknown = 0;
  e = dev->backend->launch(dev, l);
  if (e == SIMTY_EFAULT && dev->stream.fault_pending)
    return fault_report(dev, 0);
  /* A launch lost with the link may be running: the backend resolves it
   * when the device answers again. */
  if (e == 0 || dev->launch_unknown) {
    dev->launched = 1;
    dev->ever_launched = 1;
    dev->stream.seq_launches++;
    if (dev->stream.seq_launches == 1)
      memset(&dev->last_fault, 0, sizeof(dev->last_fault));
  }
  if (e == 0)
    e = push_op(dev, dev->stream.last_op, 0, NULL, 0, ev);
  return e;
}

/* ---- Waiting ---- */

/* Everything submitted has ended: a new sequence begins. */
static void stream_idle(simty_device *dev)
{
  dev->launched = 0;
  dev->inherited = 0;
  dev->stream.seq_launches = 0;
  simty__console_flush(dev);
  simty__release_args(dev);
}

int simty_wait(simty_device *dev, int timeout_ms)
{
  if (!dev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = 0;
  struct simty__stream *s = &dev->stream;
  if (!dev->launched && s->nops == 0) {
    if (s->fault_pending)
      e = fault_error(dev);
    else if (!dev->ever_launched)
      e = simty__fail(dev, SIMTY_ENOLAUNCH, "nothing was launched");
    else if (dev->last_fault.cause)
      e = simty__fail(dev, SIMTY_EFAULT, "the launch faulted");
    goto out;
  }
  uint64_t deadline = timeout_ms == 0 ? 0 : simty__deadline_ms(timeout_ms);
  if (s->nops) {
    e = simty__stream_wait(dev, 0, deadline);
  } else {
    /* A launch found running at open (or one whose LAUNCH was lost with
     * the link): wait for the device to be idle. */
    struct simty__status st;
    memset(&st, 0, sizeof(st));
    e = dev->backend->wait(dev, 0, deadline, &st);
    if (!e) {
      simty__stream_note(dev, &st);
      if (st.state == SIMTY__RUNNING || st.queued)
        e = simty__fail(dev, SIMTY_ETIMEDOUT, "work still runs");
      else if (st.state == SIMTY__FAULT && !s->fault_pending) {
        dev->last_fault = st.fault;
        s->fault_pending = 1;
      }
    }
  }
  if (e == SIMTY_ETIMEDOUT) {
    simty__fail(dev, SIMTY_ETIMEDOUT, "the launch still runs after %d ms",
                timeout_ms);
    goto out;
  }
  if (e && e != SIMTY_EFAULT)
    goto out;
  stream_idle(dev);
  if (e == SIMTY_EFAULT || s->fault_pending)
    e = fault_error(dev);
out:
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_get_fault_event(simty_device *dev, simty_event *ev)
{
  if (!dev || !ev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  *ev = dev->stream.fault_ev;
  pthread_mutex_unlock(&dev->lock);
  return 0;
}

int simty_sync(simty_device *dev, int timeout_ms)
{
  return simty_wait(dev, timeout_ms);
}

int simty_event_wait(simty_device *dev, simty_event ev, int timeout_ms)
{
  if (!dev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = 0;
  if (ev > dev->stream.next) {
    e = simty__fail(dev, SIMTY_EINVAL, "event %" PRIu64 " was never issued",
                    ev);
  } else {
    uint64_t deadline = timeout_ms == 0 ? 0 : simty__deadline_ms(timeout_ms);
    e = simty__stream_wait(dev, ev, deadline);
    if (e == SIMTY_ETIMEDOUT)
      simty__fail(dev, e, "the operation has not completed after %d ms",
                  timeout_ms);
    if (e == SIMTY_EFAULT)
      e = fault_error(dev);
    if (e == 0 || e == SIMTY_EFAULT)
      maybe_idle(dev);
  }
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_event_query(simty_device *dev, simty_event ev)
{
  if (!dev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = ev > dev->stream.next ? SIMTY_EINVAL : event_state(dev, ev);
  if (e == 1) {
    /* Ask the device once, without waiting (the model runs a slice). */
    int w = simty__stream_wait(dev, ev, 0);
    e = w == SIMTY_ETIMEDOUT ? 1 : w;
    if (e == 0 || e == SIMTY_EFAULT)
      e = event_state(dev, ev);
  }
  if (e == 1)
    e = SIMTY_EBUSY;
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_abort(simty_device *dev)
{
  if (!dev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = 0;
  if (dev->launched || dev->stream.nops) {
    /* Reads waiting in the library are cancelled with the rest. */
    e = dev->backend->abort(dev);
  }
  pthread_mutex_unlock(&dev->lock);
  return e;
}
