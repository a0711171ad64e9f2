/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend_model.c - the `model` device: the reference model library in
 * process, behind the same API as a board.
 *
 * URI: model[?warps=W&lanes=L&code_size=BYTES&data_size=BYTES&isa=ISA
 *            &racecheck=0|1&seed=N]
 * (defaults 4 x 4, 64 KiB code, 1 MiB data, like the simulated board;
 * RV32I, no race checker, round robin). isa is an ISA string such as
 * rv32ima_zicntr; racecheck=1 reports data races on stderr; seed=N > 0
 * issues warps in a random order drawn from N (docs/architecture.md 7).
 *
 * The model has no thread of its own: simty_launch() only sets the launch
 * up and simty_wait() runs it, in slices of cycles so that the host
 * deadline is honoured even for a kernel that never ends.
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

/* The backend's state: the model and what the race reports need. */
struct model_impl {
  simty_model *model;
  unsigned stack_log2; /* of the current launch */
};

simty_model *simty__model_of(simty_device *dev)
{
  return ((struct model_impl *)dev->impl)->model;
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
                          c.warps * c.lanes, ((struct model_impl *)dev->impl)->stack_log2, line,
                          sizeof(line));
  fprintf(stderr, "simty: model: %s\n", line);
}

static int model_open(simty_device *dev, const char *rest)
{
  uint64_t warps = 4, lanes = 4, code_size = SIMTY_DEFAULT_CODE_SIZE,
           data_size = SIMTY_DEFAULT_DATA_SIZE, racecheck = 0, seed = 0;
  unsigned isa = 0;
  if (*rest && *rest != '?')
    return simty__fail(dev, SIMTY_EURI,
                       "expected model[?warps=W&lanes=L&code_size=N"
                       "&data_size=N&isa=ISA&racecheck=1&seed=N], got "
                       "'model:%s'",
                       rest);
  /* isa= takes a string: take it out before the numeric options. */
  char query[256];
  snprintf(query, sizeof(query), "%s", *rest ? rest + 1 : rest);
  for (char *p = query; p && *p;) {
    char *amp = strchr(p, '&');
    size_t len = amp ? (size_t)(amp - p) : strlen(p);
    if (strncmp(p, "isa=", 4) != 0) {
      p = amp ? amp + 1 : NULL;
      continue;
    }
    char value[64], unknown[48];
    snprintf(value, sizeof(value), "%.*s", (int)(len - 4), p + 4);
    if (simty__isa_parse(value, &isa, unknown, sizeof(unknown)) != 0)
      return simty__fail(dev, SIMTY_EURI,
                         "bad value '%s' for URI option 'isa': the model "
                         "has rv32i plus m, a, _zicntr ('%s' unknown)",
                         value, unknown);
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
                                      (uint32_t)data_size};
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
  struct model_impl *impl = calloc(1, sizeof(*impl));
  if (!impl) {
    simty_model_destroy(m);
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of memory");
  }
  impl->model = m;
  impl->stack_log2 = SIMTY_STACK_LOG2_DEFAULT;
  dev->impl = impl;
  simty_model_get_config(m, &config);
  simty_model_set_console(m, console_byte, dev);
  simty_model_set_isa(m, isa);
  simty_model_set_schedule(m, seed);
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
  return 0;
}

static void model_close(simty_device *dev)
{
  simty_model_destroy(simty__model_of(dev));
  free(dev->impl);
  dev->impl = NULL;
}

static int model_write(simty_device *dev, uint32_t addr, const void *src,
                       size_t len)
{
  return map_error(dev, simty_model_write(simty__model_of(dev), addr, src, len));
}

static int model_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  return map_error(dev, simty_model_read(simty__model_of(dev), addr, dst, len));
}

static int model_launch(simty_device *dev, const struct simty__launch *l)
{
  struct simty_model_launch_params p = {
      .entry = l->entry,
      .nthreads = l->nthreads,
      .args = l->args,
      .stack_log2 = l->stack_log2,
      .max_cycles = l->timeout_cycles,
      .data_end = l->data_end,
  };
  ((struct model_impl *)dev->impl)->stack_log2 = l->stack_log2;
  return map_error(dev, simty_model_launch(simty__model_of(dev), &p));
}

static int model_wait(simty_device *dev, uint64_t deadline_ns,
                      struct simty__status *st)
{
  simty_model *m = simty__model_of(dev);
  int status;
  for (;;) {
    status = simty_model_run(m, SLICE_CYCLES);
    if (status < 0)
      return map_error(dev, status);
    if (status != SIMTY_MODEL_RUNNING || simty__now_ns() >= deadline_ns)
      break;
  }
  st->state = status == SIMTY_MODEL_RUNNING   ? SIMTY__RUNNING
              : status == SIMTY_MODEL_FAULTED ? SIMTY__FAULT
              : status == SIMTY_MODEL_DONE    ? SIMTY__DONE
                                              : SIMTY__IDLE;
  struct simty_model_fault f;
  simty_model_get_fault(m, &f);
  st->fault.cause = f.cause;
  st->fault.pc = f.pc;
  st->fault.hart = f.hart;
  st->fault.tid = f.tid;
  st->fault.addr = f.addr;
  return 0;
}

static int model_abort(simty_device *dev)
{
  simty_model_abort(simty__model_of(dev));
  return 0;
}

static int model_counters(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT])
{
  simty_model_counters(simty__model_of(dev), out);
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
