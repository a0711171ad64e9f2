/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend_model.c - the `model` device: the reference model library in
 * process, behind the same API as a board.
 *
 * URI: model[?warps=W&lanes=L&code_size=BYTES&data_size=BYTES&isa=ISA
 *            &racecheck=0|1&seed=N&policy=simty|pc|ipdom&stats=PATH]
 * (defaults 4 x 4, 64 KiB code, 1 MiB data, like the simulated board;
 * RV32I, no race checker, round robin, Simty's reconvergence rule, no
 * statistics). isa is an ISA string such as rv32ima_zicntr; racecheck=1
 * reports data races on stderr; seed=N > 0 issues warps in a random order
 * drawn from N (docs/architecture.md 7); policy selects a reconvergence
 * policy (a model-only study option, docs/architecture.md "Reconvergence
 * policies"); stats=PATH appends one JSON line per launch (counters and
 * the def-use distance histogram, hw/model/README.md).
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
  char *stats_path;    /* stats=PATH, or NULL */
  int stats_pending;   /* a launch whose line is not written yet */
  uint64_t funcs_generation; /* load generation the ipdom functions are of */
};

static simty_model *model_of(simty_device *dev)
{
  return ((struct model_impl *)dev->impl)->model;
}

static int map_error(simty_device *dev, int e)
{
  const char *detail = simty_model_last_error(model_of(dev));
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
  simty_model_get_config(model_of(dev), &c);
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
  unsigned isa = 0, policy = SIMTY_POLICY_SIMTY;
  char stats_path[256] = "";
  if (*rest && *rest != '?')
    return simty__fail(dev, SIMTY_EURI,
                       "expected model[?warps=W&lanes=L&code_size=N"
                       "&data_size=N&isa=ISA&racecheck=1&seed=N"
                       "&policy=simty|pc|ipdom&stats=PATH], got "
                       "'model:%s'",
                       rest);
  /* isa=, policy= and stats= take strings: take them out before the
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
  impl->funcs_generation = UINT64_MAX;
  if (stats_path[0] && ((impl->stats_path = strdup(stats_path)) == NULL ||
                        simty_model_set_stats(m, 1) != 0)) {
    free(impl->stats_path);
    free(impl);
    simty_model_destroy(m);
    return simty__fail(dev, SIMTY_ENOMEM, "model: out of memory");
  }
  dev->impl = impl;
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
  return 0;
}

static void model_close(simty_device *dev)
{
  simty_model_destroy(model_of(dev));
  free(((struct model_impl *)dev->impl)->stats_path);
  free(dev->impl);
  dev->impl = NULL;
}

static int model_write(simty_device *dev, uint32_t addr, const void *src,
                       size_t len)
{
  return map_error(dev, simty_model_write(model_of(dev), addr, src, len));
}

static int model_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  return map_error(dev, simty_model_read(model_of(dev), addr, dst, len));
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
  struct model_impl *impl = dev->impl;
  impl->stack_log2 = l->stack_log2;
  if (simty_model_policy(impl->model) == SIMTY_POLICY_IPDOM &&
      impl->funcs_generation != dev->load_generation) {
    /* The ipdom analysis needs the function boundaries of the kernels
     * loaded (the last load's; CODE is analysed at launch). */
    int e = simty_model_set_functions(impl->model, NULL, 0);
    for (size_t i = 0; e == 0 && i < dev->nkernels; i++)
      if (dev->kernels[i]->generation == dev->load_generation)
        e = simty_model_functions_from_elf(impl->model,
                                           &dev->kernels[i]->elf);
    if (e)
      return map_error(dev, e);
    impl->funcs_generation = dev->load_generation;
  }
  int e = simty_model_launch(impl->model, &p);
  impl->stats_pending = e == 0 && impl->stats_path != NULL;
  return map_error(dev, e);
}

static int model_wait(simty_device *dev, uint64_t deadline_ns,
                      struct simty__status *st)
{
  simty_model *m = model_of(dev);
  int status;
  for (;;) {
    status = simty_model_run(m, SLICE_CYCLES);
    if (status < 0)
      return map_error(dev, status);
    if (status != SIMTY_MODEL_RUNNING || simty__now_ns() >= deadline_ns)
      break;
  }
  struct model_impl *impl = dev->impl;
  if (status != SIMTY_MODEL_RUNNING && impl->stats_pending) {
    impl->stats_pending = 0;
    if (simty_model_stats_append(m, impl->stats_path) != 0)
      fprintf(stderr, "simty: model: cannot append stats to %s\n",
              impl->stats_path);
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
  simty_model_abort(model_of(dev));
  return 0;
}

static int model_counters(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT])
{
  simty_model_counters(model_of(dev), out);
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
