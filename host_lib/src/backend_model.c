/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend_model.c - the `model` device: the reference model library in
 * process, behind the same API as a board.
 *
 * URI: model[?warps=W&lanes=L&code_size=BYTES&data_size=BYTES&isa=ISA
 *            &racecheck=0|1&seed=N&policy=simty|pc|ipdom&xbar=full|rotate
 *            &stats=PATH]
 * (defaults 4 x 4, 64 KiB code, 1 MiB data, like the simulated board;
 * RV32I, no race checker, round robin, Simty's reconvergence rule, the
 * full memory crossbar, no statistics). xbar selects the crossbar kind
 * (docs/architecture.md section 3, "Crossbar kind"). isa is an ISA
 * string such as rv32ima_zicntr; racecheck=1 reports data races on
 * stderr; seed=N > 0 issues warps in a random order
 * drawn from N (docs/architecture.md 7); policy selects a reconvergence
 * policy (a model-only study option, docs/architecture.md "Reconvergence
 * policies"); stats=PATH appends one JSON line per launch (counters and
 * the def-use distance histogram, hw/model/README.md).
 *
 * The model has no thread of its own. Like a board's firmware, the backend
 * keeps a work queue (docs/protocol.md "Queued work", numbered the same
 * way): writes and launches submitted while a launch is pending wait in
 * it, and the calls that wait (the stream's wait, which the library calls
 * before a read) run the launches in slices of cycles, so that the host
 * deadline is honoured even for a kernel that never ends, and the queued
 * work after each. A fault cancels the queue; the counters of CONTINUE
 * launches add up as on a board.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_elf.h"

#include "simty_internal.h"
#include "simty_model.h"

/* Cycles per slice between deadline checks: about a millisecond of model
 * time, so a time-out overshoots by little. */
#define SLICE_CYCLES 20000u

/* A queued operation: a write (its bytes copied) or a launch. */
struct qop {
  uint32_t number;
  int is_launch;
  struct simty__launch launch;
  uint32_t addr;
  size_t len;
  uint8_t *data;
};

struct mstate {
  simty_model *m;
  struct qop *q; /* queue, oldest first */
  size_t n, cap;
  uint32_t accepted, done, fault_op, running_op;
  unsigned cancelled;
  uint64_t acc[SIMTY_CTR_COUNT]; /* earlier launches of the sequence */
  unsigned stack_log2;           /* of the running launch, for race reports */
  char *stats_path;              /* stats=PATH, or NULL */
  int stats_pending;             /* a launch whose line is not written yet */
  uint64_t funcs_generation;     /* load generation of the ipdom functions */
};

static struct mstate *ms_of(simty_device *dev)
{
  return (struct mstate *)dev->impl;
}

simty_model *simty__model_of(simty_device *dev)
{
  return ms_of(dev)->m;
}

static int map_error(simty_device *dev, int e)
{
  const char *detail = simty_model_last_error(simty__model_of(dev));
  const char *text = detail && *detail ? detail : simty_model_strerror(e);
  switch (e) {
  case SIMTY_MODEL_OK:
    return 0;
  case SIMTY_MODEL_RANGE:
    return simty__fail(dev, SIMTY_ERANGE, "model: %s", text);
  case SIMTY_MODEL_NOMEM:
    return simty__fail(dev, SIMTY_ENOMEM, "model: %s", text);
  case SIMTY_MODEL_BUSY:
    return simty__fail(dev, SIMTY_EBUSY, "model: %s", text);
  case SIMTY_MODEL_NOT_LAUNCHED:
    return simty__fail(dev, SIMTY_ENOLAUNCH, "model: %s", text);
  case SIMTY_MODEL_STACK_OVERLAP:
    return simty__fail(dev, SIMTY_ESTACK, "model: %s", text);
  default:
    return simty__fail(dev, SIMTY_EINVAL, "model: %s", text);
  }
}

static void console_byte(void *user, uint32_t tid, uint8_t byte)
{
  simty__console_byte((simty_device *)user, tid, byte);
}

/* Race reports: one line each on stderr, with the symbols of the kernel
 * loaded last. */
static void race_report(void *user, const struct simty_model_race *race)
{
  simty_device *dev = user;
  const struct simty_elf *elf = NULL;
  for (size_t i = 0; i < dev->nkernels; i++)
    if (dev->kernels[i]->generation == dev->load_generation)
      elf = &dev->kernels[i]->elf;
  struct simty_model_config c;
  simty_model_get_config(simty__model_of(dev), &c);
  char line[600];
  simty_model_race_format(race, elf, SIMTY_DATA_BASE + c.data_size,
                          c.warps * c.lanes, ms_of(dev)->stack_log2, line,
                          sizeof(line));
  fprintf(stderr, "simty: model: %s\n", line);
}

static int model_open(simty_device *dev, const char *rest)
{
  uint64_t warps = 4, lanes = 4, code_size = SIMTY_DEFAULT_CODE_SIZE,
           data_size = SIMTY_DEFAULT_DATA_SIZE, racecheck = 0, seed = 0;
  unsigned isa = 0, policy = SIMTY_POLICY_SIMTY, xbar = SIMTY_XBAR_FULL;
  char stats_path[256] = "";
  if (*rest && *rest != '?')
    return simty__fail(dev, SIMTY_EURI,
                       "expected model[?warps=W&lanes=L&code_size=N"
                       "&data_size=N&isa=ISA&racecheck=1&seed=N"
                       "&policy=simty|pc|ipdom&xbar=full|rotate"
                       "&stats=PATH], got "
                       "'model:%s'",
                       rest);
  /* isa=, policy=, xbar= and stats= take strings: take them out before the
   * numeric options. */
  char query[512];
  snprintf(query, sizeof(query), "%s", *rest ? rest + 1 : rest);
  for (char *p = query; p && *p;) {
    char *amp = strchr(p, '&');
    size_t len = amp ? (size_t)(amp - p) : strlen(p);
    if (strncmp(p, "isa=", 4) == 0) {
      char value[64], unknown[48];
      snprintf(value, sizeof(value), "%.*s", (int)(len - 4), p + 4);
      if (simty__isa_parse(value, &isa, unknown, sizeof(unknown)) != 0)
        return simty__fail(dev, SIMTY_EURI,
                           "bad value '%s' for URI option 'isa': the model "
                           "has rv32i plus m, a, _zicntr ('%s' unknown)",
                           value, unknown);
    } else if (strncmp(p, "policy=", 7) == 0) {
      char value[64];
      snprintf(value, sizeof(value), "%.*s", (int)(len - 7), p + 7);
      if (simty_model_policy_parse(value, &policy) != 0)
        return simty__fail(dev, SIMTY_EURI,
                           "bad value '%s' for URI option 'policy': "
                           "simty, pc or ipdom",
                           value);
    } else if (strncmp(p, "xbar=", 5) == 0) {
      char value[64];
      snprintf(value, sizeof(value), "%.*s", (int)(len - 5), p + 5);
      if (simty_model_xbar_parse(value, &xbar) != 0)
        return simty__fail(dev, SIMTY_EURI,
                           "bad value '%s' for URI option 'xbar': "
                           "full or rotate",
                           value);
    } else if (strncmp(p, "stats=", 6) == 0) {
      if (len == 6 || len - 6 >= sizeof(stats_path))
        return simty__fail(dev, SIMTY_EURI,
                           "URI option 'stats' needs a path (at most %zu "
                           "bytes)",
                           sizeof(stats_path) - 1);
      snprintf(stats_path, sizeof(stats_path), "%.*s", (int)(len - 6),
               p + 6);
    } else {
      p = amp ? amp + 1 : NULL;
      continue;
    }
    memmove(p, amp ? amp + 1 : p + len, strlen(amp ? amp + 1 : p + len) + 1);
  }
  size_t qlen = strlen(query);
  if (qlen && query[qlen - 1] == '&')
    query[qlen - 1] = '\0';
  const struct simty__uri_opt opts[] = {
      {"warps", 1, SIMTY_MODEL_MAX_WARPS, &warps},
      {"lanes", 1, SIMTY_MODEL_MAX_LANES, &lanes},
      {"code_size", 4, SIMTY_CODE_WINDOW, &code_size},
      {"data_size", 4, SIMTY_DATA_WINDOW, &data_size},
      {"racecheck", 0, 1, &racecheck},
      {"seed", 0, UINT64_MAX, &seed},
  };
  int e = simty__parse_opts(dev, query, opts, sizeof(opts) / sizeof(opts[0]));
  if (e)
    return e;
  struct simty_model_config config = {(unsigned)warps, (unsigned)lanes,
                                      (uint32_t)code_size,
                                      (uint32_t)data_size, xbar};
  simty_model *m = NULL;
  e = simty_model_create(&config, &m);
  if (e == SIMTY_MODEL_NOMEM)
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of memory");
  if (e)
    return simty__fail(dev, SIMTY_EURI,
                       "model: bad configuration %" PRIu64 "x%" PRIu64
                       " (powers of two), code %" PRIu64 ", data %" PRIu64
                       " (multiples of 4)",
                       warps, lanes, code_size, data_size);
  struct mstate *ms = calloc(1, sizeof(*ms));
  if (!ms) {
    simty_model_destroy(m);
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of memory");
  }
  ms->m = m;
  ms->stack_log2 = SIMTY_STACK_LOG2_DEFAULT;
  ms->funcs_generation = UINT64_MAX;
  if (stats_path[0] && ((ms->stats_path = strdup(stats_path)) == NULL ||
                        simty_model_set_stats(m, 1) != 0)) {
    free(ms->stats_path);
    free(ms);
    simty_model_destroy(m);
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of memory");
  }
  dev->impl = ms;
  simty_model_get_config(m, &config);
  simty_model_set_console(m, console_byte, dev);
  simty_model_set_isa(m, isa);
  simty_model_set_schedule(m, seed);
  simty_model_set_policy(m, policy);
  if (racecheck)
    simty_model_set_racecheck(m, race_report, dev);
  struct simty_device_info *in = &dev->info;
  in->warps = config.warps;
  in->lanes = config.lanes;
  in->code_base = SIMTY_CODE_BASE;
  in->code_size = config.code_size;
  in->data_base = SIMTY_DATA_BASE;
  in->data_size = config.data_size;
  in->counter_count = SIMTY_CTR_COUNT;
  in->extensions = isa;
  in->xbar = xbar;   /* SIMTY_XBAR_FULL 0, SIMTY_XBAR_ROTATE 1, as simty.h */
  return 0;
}

static void queue_clear(struct mstate *ms)
{
  for (size_t i = 0; i < ms->n; i++)
    free(ms->q[i].data);
  ms->cancelled = (unsigned)ms->n;
  ms->n = 0;
}

static void model_close(simty_device *dev)
{
  struct mstate *ms = ms_of(dev);
  queue_clear(ms);
  free(ms->q);
  simty_model_destroy(ms->m);
  free(ms->stats_path);
  free(ms);
  dev->impl = NULL;
}

static int busy(struct mstate *ms)
{
  return ms->running_op || ms->n;
}

static struct qop *push(simty_device *dev)
{
  struct mstate *ms = ms_of(dev);
  if (ms->n == ms->cap) {
    size_t cap = ms->cap ? ms->cap * 2 : 16;
    struct qop *v = realloc(ms->q, cap * sizeof(*v));
    if (!v)
      return NULL;
    ms->q = v;
    ms->cap = cap;
  }
  struct qop *o = &ms->q[ms->n++];
  memset(o, 0, sizeof(*o));
  o->number = ++ms->accepted;
  dev->stream.last_op = o->number;
  return o;
}

static int model_write(simty_device *dev, uint32_t addr, const void *src,
                       size_t len)
{
  struct mstate *ms = ms_of(dev);
  if (!busy(ms)) {
    int e = map_error(dev, simty_model_write(ms->m, addr, src, len));
    if (!e)
      dev->stream.last_op = ms->done = ++ms->accepted;
    return e;
  }
  uint8_t *copy = malloc(len ? len : 1);
  struct qop *o = copy ? push(dev) : NULL;
  if (!o) {
    free(copy);
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of host memory");
  }
  memcpy(copy, src, len);
  o->addr = addr;
  o->len = len;
  o->data = copy;
  return 0;
}

static int model_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  return map_error(dev, simty_model_read(simty__model_of(dev), addr, dst, len));
}

static int start(simty_device *dev, const struct simty__launch *l)
{
  struct mstate *ms = ms_of(dev);
  uint64_t now[SIMTY_CTR_COUNT];
  simty_model_counters(ms->m, now);
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++) {
    if (!(l->flags & SIMTY__LAUNCH_CONTINUE))
      ms->acc[i] = 0;
    else if (i == SIMTY_CTR_cct_peak)
      ms->acc[i] = now[i] > ms->acc[i] ? now[i] : ms->acc[i];
    else
      ms->acc[i] += now[i];
  }
  struct simty_model_launch_params p = {
      .entry = l->entry,
      .nthreads = l->nthreads,
      .args = l->args,
      .stack_log2 = l->stack_log2,
      .max_cycles = l->timeout_cycles,
      .data_end = l->data_end,
  };
  ms->stack_log2 = l->stack_log2;
  if (simty_model_policy(ms->m) == SIMTY_POLICY_IPDOM &&
      ms->funcs_generation != dev->load_generation) {
    /* The ipdom analysis needs the function boundaries of the kernels
     * loaded (the last load's; CODE is analysed at launch). */
    int e = simty_model_set_functions(ms->m, NULL, 0);
    for (size_t i = 0; e == 0 && i < dev->nkernels; i++)
      if (dev->kernels[i]->generation == dev->load_generation)
        e = simty_model_functions_from_elf(ms->m, &dev->kernels[i]->elf);
    if (e)
      return map_error(dev, e);
    ms->funcs_generation = dev->load_generation;
  }
  int e = simty_model_launch(ms->m, &p);
  ms->stats_pending = e == 0 && ms->stats_path != NULL;
  return map_error(dev, e);
}

/* stats=PATH: the line of the launch that just ended. */
static void stats_flush(struct mstate *ms)
{
  if (!ms->stats_pending)
    return;
  ms->stats_pending = 0;
  if (simty_model_stats_append(ms->m, ms->stats_path) != 0)
    fprintf(stderr, "simty: model: cannot append stats to %s\n",
            ms->stats_path);
}

static int model_launch(simty_device *dev, const struct simty__launch *l)
{
  /* The checks a board makes when it accepts a launch (the model makes
   * them again when the launch starts). */
  const struct simty_device_info *in = &dev->info;
  uint64_t top = (uint64_t)in->data_base + in->data_size;
  if ((l->entry & 3u) || l->entry < in->code_base ||
      l->entry - in->code_base >= in->code_size || l->nthreads == 0 ||
      l->nthreads > SIMTY_MAX_THREADS || l->stack_log2 < SIMTY_STACK_LOG2_MIN ||
      l->stack_log2 > SIMTY_STACK_LOG2_MAX)
    return simty__fail(dev, SIMTY_EINVAL, "model: invalid launch");
  uint64_t stacks = (uint64_t)in->warps * in->lanes << l->stack_log2;
  if (stacks > top - l->data_end)
    return simty__fail(dev, SIMTY_ESTACK,
                       "model: thread stacks would overlap kernel data");
  if (l->args_data) {
    int e = model_write(dev, l->args, l->args_data, l->args_size);
    if (e)
      return e;
  }
  struct qop *o = push(dev);
  if (!o)
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of host memory");
  o->is_launch = 1;
  o->launch = *l;
  return 0;
}

/* Runs the queue until until_op has completed (0: until it is empty and
 * nothing runs), a fault ends it, or the deadline passes. */
static int pump(simty_device *dev, uint32_t until_op, uint64_t deadline_ns)
{
  struct mstate *ms = ms_of(dev);
  for (;;) {
    if (ms->running_op) {
      int status = simty_model_run(ms->m, SLICE_CYCLES);
      if (status < 0)
        return map_error(dev, status);
      if (status == SIMTY_MODEL_RUNNING) {
        if (simty__now_ns() >= deadline_ns)
          return 0;
        continue;
      }
      stats_flush(ms);
      if (status == SIMTY_MODEL_FAULTED) {
        ms->fault_op = ms->running_op;
        ms->running_op = 0;
        queue_clear(ms);
        return 0;
      }
      ms->done = ms->running_op;
      ms->running_op = 0;
    }
    if (until_op && (int32_t)(ms->done - until_op) >= 0)
      return 0;
    if (!ms->n)
      return 0;
    struct qop o = ms->q[0];
    memmove(ms->q, ms->q + 1, (ms->n - 1) * sizeof(*ms->q));
    ms->n--;
    if (o.is_launch) {
      int e = start(dev, &o.launch);
      if (e) {
        ms->fault_op = o.number;
        queue_clear(ms);
        return e;
      }
      ms->running_op = o.number;
    } else {
      int e = map_error(dev, simty_model_write(ms->m, o.addr, o.data, o.len));
      free(o.data);
      if (e)
        return e;
      ms->done = o.number;
    }
  }
}

static void status_of(simty_device *dev, struct simty__status *st)
{
  struct mstate *ms = ms_of(dev);
  int status = simty_model_status(ms->m);
  st->state = status == SIMTY_MODEL_RUNNING   ? SIMTY__RUNNING
              : status == SIMTY_MODEL_FAULTED ? SIMTY__FAULT
              : status == SIMTY_MODEL_DONE    ? SIMTY__DONE
                                              : SIMTY__IDLE;
  struct simty_model_fault f;
  simty_model_get_fault(ms->m, &f);
  st->fault.cause = st->state == SIMTY__FAULT ? f.cause : 0;
  st->fault.pc = f.pc;
  st->fault.hart = f.hart;
  st->fault.tid = f.tid;
  st->fault.addr = f.addr;
  st->ops_accepted = ms->accepted;
  st->ops_done = ms->done;
  st->fault_op = ms->fault_op;
  st->queued = (unsigned)ms->n;
}

static int model_wait(simty_device *dev, uint32_t until_op,
                      uint64_t deadline_ns, struct simty__status *st)
{
  int e = pump(dev, until_op, deadline_ns);
  status_of(dev, st);
  simty__stream_note(dev, st);
  return e;
}

static int model_abort(simty_device *dev)
{
  struct mstate *ms = ms_of(dev);
  if (ms->running_op) {
    simty_model_abort(ms->m);
    stats_flush(ms);
    ms->fault_op = ms->running_op;
  } else if (ms->n) {
    ms->fault_op = ms->q[0].number;
  } else {
    return 0;
  }
  ms->running_op = 0;
  queue_clear(ms);
  struct simty__status st;
  status_of(dev, &st);
  if (st.state != SIMTY__FAULT) {
    /* Cancelled before it started: no launch record says so. */
    st.state = SIMTY__FAULT;
    memset(&st.fault, 0, sizeof(st.fault));
    st.fault.cause = SIMTY_FAULT_ABORTED;
    st.fault.hart = st.fault.tid = 0xFFFFFFFFu;
  }
  simty__stream_note(dev, &st);
  return 0;
}

static int model_counters(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT])
{
  struct mstate *ms = ms_of(dev);
  simty_model_counters(ms->m, out);
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++) {
    if (i == SIMTY_CTR_cct_peak)
      out[i] = out[i] > ms->acc[i] ? out[i] : ms->acc[i];
    else
      out[i] += ms->acc[i];
  }
  return 0;
}

const struct simty__backend simty__backend_model = {
    .scheme = "model",
    .open = model_open,
    .close = model_close,
    .write = model_write,
    .read = model_read,
    .launch = model_launch,
    .wait = model_wait,
    .abort = model_abort,
    .counters = model_counters,
};
