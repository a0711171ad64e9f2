/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_kernel.c - kernels (load, symbols), launches (launch, wait,
 * abort, faults) and performance counters.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_internal.h"

#define MAX_ARGS_SIZE (64u * 1024u)

/* ---- Kernel loading ---- */

static int track_kernel(simty_device *dev, simty_kernel *k)
{
  if (dev->nkernels == dev->kernels_cap) {
    size_t cap = dev->kernels_cap ? dev->kernels_cap * 2 : 4;
    simty_kernel **v = realloc(dev->kernels, cap * sizeof(*v));
    if (!v)
      return SIMTY_ENOMEM;
    dev->kernels = v;
    dev->kernels_cap = cap;
  }
  dev->kernels[dev->nkernels++] = k;
  return 0;
}

/* Is [addr, addr+len) inside a window but past its populated part? */
static int too_big(uint32_t addr, uint64_t len, uint32_t base, uint32_t window,
                   uint32_t populated)
{
  return addr >= base && addr - base < window &&
         (uint64_t)addr + len > (uint64_t)base + populated;
}

/* Checks an ELF against the device; writes nothing. */
static int check_kernel(simty_device *dev, const struct simty_elf *elf)
{
  const struct simty_device_info *in = &dev->info;
  char err[256];
  for (unsigned s = 0; s < elf->segment_count; s++) {
    const struct simty_elf_segment *seg = &elf->segments[s];
    if (too_big(seg->addr, seg->mem_size, in->code_base, SIMTY_CODE_WINDOW,
                in->code_size))
      return simty__fail(dev, SIMTY_ETOOBIG,
                         "kernel code segment of %" PRIu32
                         " bytes at 0x%08" PRIx32
                         " does not fit the device's %" PRIu32
                         " bytes of code memory",
                         seg->mem_size, seg->addr, in->code_size);
    if (too_big(seg->addr, seg->mem_size, in->data_base, SIMTY_DATA_WINDOW,
                in->data_size))
      return simty__fail(dev, SIMTY_ETOOBIG,
                         "kernel data segment of %" PRIu32
                         " bytes at 0x%08" PRIx32
                         " does not fit the device's %" PRIu32
                         " bytes of data memory",
                         seg->mem_size, seg->addr, in->data_size);
  }
  if (simty__elf_check_layout(elf, in->code_size, in->data_size, err,
                              sizeof(err)) != 0)
    return simty__fail(dev, SIMTY_EBADELF, "%s", err);
  if (simty__elf_check_isa(elf, in->extensions, err, sizeof(err)) != 0)
    return simty__fail(dev, SIMTY_ENOTSUP, "%s", err);
  uint32_t bottom = simty__stack_bottom(dev, dev->default_stack_log2);
  if (elf->data_end > bottom)
    return simty__fail(dev, SIMTY_ETOOBIG,
                       "kernel data ends at 0x%08" PRIx32
                       ", inside the thread stack region from 0x%08" PRIx32,
                       elf->data_end, bottom);
  if (elf->data_end > simty__alloc_low(&dev->heap))
    return simty__fail(dev, SIMTY_ENOSPC,
                       "kernel data ends at 0x%08" PRIx32
                       " and would overlap the allocated block at "
                       "0x%08" PRIx32 ": free it first",
                       elf->data_end, simty__alloc_low(&dev->heap));
  return 0;
}

static int in_code(const simty_device *dev,
                   const struct simty_elf_segment *seg)
{
  return seg->addr - dev->info.code_base < SIMTY_CODE_WINDOW;
}

/* The code segments of an image, as compared between loads: address,
 * sizes and bytes of each. NULL when out of memory or there are none. */
static uint8_t *code_image(const simty_device *dev,
                           const struct simty_elf *elf, size_t *len)
{
  size_t n = 0;
  for (unsigned s = 0; s < elf->segment_count; s++)
    if (in_code(dev, &elf->segments[s]))
      n += 12 + elf->segments[s].file_size;
  *len = n;
  uint8_t *p = n ? malloc(n) : NULL;
  if (!p)
    return NULL;
  size_t at = 0;
  for (unsigned s = 0; s < elf->segment_count; s++) {
    const struct simty_elf_segment *seg = &elf->segments[s];
    if (!in_code(dev, seg))
      continue;
    uint32_t h[3] = {seg->addr, seg->mem_size, seg->file_size};
    memcpy(p + at, h, sizeof(h));
    memcpy(p + at + 12, seg->data, seg->file_size);
    at += 12 + seg->file_size;
  }
  return p;
}

/* Segment bytes, zero-filled to mem_size, in chunks (a large .bss must not
 * need a large host buffer); the code segments only if skip_code is 0. */
static int write_segments(simty_device *dev, const struct simty_elf *elf,
                          int skip_code)
{
  uint64_t total = 0, done = 0;
  for (unsigned s = 0; s < elf->segment_count; s++)
    if (!skip_code || !in_code(dev, &elf->segments[s]))
      total += elf->segments[s].mem_size;
  static const uint8_t zeros[4096];
  for (unsigned s = 0; s < elf->segment_count; s++) {
    const struct simty_elf_segment *seg = &elf->segments[s];
    if (skip_code && in_code(dev, seg))
      continue;
    uint32_t off = 0;
    while (off < seg->mem_size) {
      const void *src;
      uint32_t n;
      if (off < seg->file_size) {
        n = seg->file_size - off;
        if (n > 65536)
          n = 65536;
        src = seg->data + off;
      } else {
        n = seg->mem_size - off;
        if (n > sizeof(zeros))
          n = sizeof(zeros);
        src = zeros;
      }
      int e = dev->backend->write(dev, seg->addr + off, src, n);
      if (e)
        return e;
      off += n;
      done += n;
      if (total >= 65536)
        simty__progress(dev, done, total);
    }
  }
  return 0;
}

static int load_parsed(simty_device *dev, simty_kernel *k, simty_kernel **out)
{
  int e = SIMTY_EBUSY;
  simty__enter(dev);
  if (dev->launched) {
    simty__fail(dev, e, "a launch is running: wait for it or abort it");
    goto fail;
  }
  if (dev->stream.nops) {
    /* Copies still in the stream go first. */
    e = simty__stream_wait(dev, 0, UINT64_MAX);
    if (e)
      goto fail;
  }
  e = check_kernel(dev, &k->elf);
  if (e)
    goto fail;
  e = track_kernel(dev, k);
  if (e) {
    simty__fail(dev, e, "out of host memory");
    goto fail;
  }
  /* From here the old kernel is gone, whether or not the writes work. */
  dev->load_generation++;
  dev->kernel_data_end = 0;
  /* The same code as the kernel loaded last, with nothing written to CODE
   * since: already there. */
  size_t ilen = 0;
  uint8_t *image = code_image(dev, &k->elf, &ilen);
  int same = image && dev->code_image && ilen == dev->code_image_len &&
             memcmp(image, dev->code_image, ilen) == 0;
  if (!same) {
    free(dev->code_image);
    dev->code_image = NULL;
    dev->code_image_len = 0;
  }
  e = write_segments(dev, &k->elf, same);
  if (e) {
    free(image);
    dev->nkernels--;
    goto fail;
  }
  if (same) {
    free(image);
    dev->code_reuses++;
  } else {
    dev->code_image = image;
    dev->code_image_len = image ? ilen : 0;
  }
  k->dev = dev;
  k->generation = dev->load_generation;
  dev->kernel_data_end =
      k->elf.data_end ? k->elf.data_end : dev->info.data_base;
  uint32_t lo = (dev->kernel_data_end + 15u) & ~15u;
  dev->heap.lo = lo < dev->heap.hi ? lo : dev->heap.hi;
  pthread_mutex_unlock(&dev->lock);
  *out = k;
  return 0;
fail:
  pthread_mutex_unlock(&dev->lock);
  simty__elf_free(&k->elf);
  free(k);
  return e;
}

int simty_kernel_load(simty_device *dev, const char *path, simty_kernel **out)
{
  if (!dev || !path || !out)
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL argument")
               : SIMTY_EINVAL;
  simty_kernel *k = calloc(1, sizeof(*k));
  if (!k)
    return simty__fail(dev, SIMTY_ENOMEM, "out of host memory");
  char err[300];
  int r = simty__elf_load_file(path, &k->elf, err, sizeof(err));
  if (r != 0) {
    free(k);
    int e = r == SIMTY_ELF_EFILE     ? SIMTY_EFILE
            : r == SIMTY_ELF_ETOOBIG ? SIMTY_ETOOBIG
                                     : SIMTY_EBADELF;
    pthread_mutex_lock(&dev->lock);
    simty__fail(dev, e, "%s", err);
    pthread_mutex_unlock(&dev->lock);
    return e;
  }
  return load_parsed(dev, k, out);
}

int simty_kernel_load_bytes(simty_device *dev, const void *elf, size_t size,
                            simty_kernel **out)
{
  if (!dev || !elf || !out)
    return dev ? simty__fail(dev, SIMTY_EINVAL, "NULL argument")
               : SIMTY_EINVAL;
  if (size > SIMTY_ELF_MAX_FILE) {
    /* Refused before the parser copies it. */
    pthread_mutex_lock(&dev->lock);
    int e = simty__fail(dev, SIMTY_ETOOBIG,
                        "ELF image of %zu bytes, larger than any Simty "
                        "kernel (at most %u)",
                        size, (unsigned)SIMTY_ELF_MAX_FILE);
    pthread_mutex_unlock(&dev->lock);
    return e;
  }
  simty_kernel *k = calloc(1, sizeof(*k));
  if (!k)
    return simty__fail(dev, SIMTY_ENOMEM, "out of host memory");
  char err[300];
  if (simty__elf_parse(elf, size, &k->elf, err, sizeof(err)) != 0) {
    free(k);
    pthread_mutex_lock(&dev->lock);
    int e = simty__fail(dev, SIMTY_EBADELF, "%s", err);
    pthread_mutex_unlock(&dev->lock);
    return e;
  }
  return load_parsed(dev, k, out);
}

void simty_kernel_free(simty_kernel *kernel)
{
  if (!kernel)
    return;
  simty_device *dev = kernel->dev;
  if (dev) {
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->nkernels; i++)
      if (dev->kernels[i] == kernel) {
        dev->kernels[i] = dev->kernels[--dev->nkernels];
        break;
      }
    pthread_mutex_unlock(&dev->lock);
  }
  simty__elf_free(&kernel->elf);
  free(kernel);
}

int simty_kernel_symbol(const simty_kernel *kernel, const char *name,
                        uint32_t *addr, uint32_t *size)
{
  if (!kernel || !name)
    return SIMTY_EINVAL;
  uint32_t a, s;
  if (simty__elf_symbol(&kernel->elf, name, &a, &s) != 0)
    return SIMTY_ENOSYM;
  if (addr)
    *addr = a;
  if (size)
    *size = s;
  return 0;
}

int simty_kernel_layout(const simty_kernel *kernel, uint32_t *entry,
                        uint32_t *data_end)
{
  if (!kernel)
    return SIMTY_EINVAL;
  if (entry)
    *entry = kernel->elf.entry;
  if (data_end)
    *data_end = kernel->elf.data_end;
  return 0;
}

/* ---- Launches ---- */

void simty__release_args(simty_device *dev)
{
  for (size_t i = 0; i < dev->nargs; i++)
    simty__alloc_put(&dev->heap, dev->args_blocks[i]);
  dev->nargs = 0;
}

/* A device copy of an argument block, kept until its sequence ends. */
static int args_block(simty_device *dev, size_t size, uint32_t *addr)
{
  if (dev->nargs == dev->args_cap) {
    size_t cap = dev->args_cap ? dev->args_cap * 2 : 16;
    uint32_t *v = realloc(dev->args_blocks, cap * sizeof(*v));
    if (!v)
      return simty__fail(dev, SIMTY_ENOMEM, "out of host memory");
    dev->args_blocks = v;
    dev->args_cap = cap;
  }
  int e = simty__alloc_get(&dev->heap, size, addr);
  if (e == SIMTY_ENOSPC && dev->stream.nops) {
    /* The blocks of earlier launches free up once they have run. */
    e = simty__stream_wait(dev, 0, UINT64_MAX);
    if (e)
      return e;
    if (!dev->stream.nops) {
      dev->launched = 0;
      dev->stream.seq_launches = 0;
      simty__release_args(dev);
    }
    e = simty__alloc_get(&dev->heap, size, addr);
  }
  if (e)
    return simty__fail(dev, e, "no device memory for a %zu-byte argument block",
                       size);
  dev->args_blocks[dev->nargs++] = *addr;
  return 0;
}

static int launch_locked(simty_kernel *kernel,
                         const struct simty_launch_config *cfg,
                         simty_event *ev)
{
  simty_device *dev = kernel->dev;
  int e;
  unsigned stack_log2 = cfg->stack_log2 ? cfg->stack_log2
                                        : dev->default_stack_log2;
  if (cfg->nthreads == 0 || cfg->nthreads > SIMTY_MAX_THREADS)
    return simty__fail(dev, SIMTY_EINVAL,
                       "thread count %" PRIu32 " is outside 1 .. %u",
                       cfg->nthreads, SIMTY_MAX_THREADS);
  if (stack_log2 < SIMTY_STACK_LOG2_MIN || stack_log2 > SIMTY_STACK_LOG2_MAX)
    return simty__fail(dev, SIMTY_EINVAL, "stack_log2 %u is outside %d .. %d",
                       stack_log2, SIMTY_STACK_LOG2_MIN, SIMTY_STACK_LOG2_MAX);
  if (cfg->args && (cfg->args_size == 0 || cfg->args_size > MAX_ARGS_SIZE))
    return simty__fail(dev, SIMTY_EINVAL,
                       "argument block of %zu bytes (1 .. %u allowed)",
                       cfg->args_size, MAX_ARGS_SIZE);
  if (kernel->generation != dev->load_generation)
    return simty__fail(dev, SIMTY_ESTALE,
                       "another kernel was loaded on the device since this "
                       "one");
  if (dev->launched && dev->inherited)
    return simty__fail(dev, SIMTY_EBUSY,
                       "a launch found running at open is still running: wait "
                       "for it or abort it");
  if (dev->stream.fault_pending)
    return simty__fail(dev, SIMTY_EFAULT,
                       "a launch submitted before this one faulted: not run "
                       "(simty_wait() or simty_sync() reports the fault)");
  if (!dev->launched && !dev->stream.nops)
    simty__release_args(dev);
  uint32_t args = cfg->args_addr;
  if (cfg->args) {
    e = args_block(dev, cfg->args_size, &args);
    if (e)
      return e;
  }
  uint32_t data_end = dev->kernel_data_end;
  uint32_t heap_top = simty__alloc_high(&dev->heap);
  if (dev->heap.count && heap_top > data_end)
    data_end = heap_top;
  uint32_t bottom = simty__stack_bottom(dev, stack_log2);
  if (data_end > bottom) {
    e = simty__fail(dev, SIMTY_ESTACK,
                    "stacks of 2^%u bytes for %u threads start at "
                    "0x%08" PRIx32 ", below the end of kernel data and "
                    "allocations at 0x%08" PRIx32,
                    stack_log2, dev->info.warps * dev->info.lanes, bottom,
                    data_end);
    goto drop_args;
  }
  struct simty__launch l = {
      .entry = kernel->elf.entry,
      .nthreads = cfg->nthreads,
      .args = args,
      .data_end = data_end,
      .stack_log2 = stack_log2,
      .timeout_cycles = cfg->timeout_cycles,
      .args_data = cfg->args,
      .args_size = cfg->args ? cfg->args_size : 0,
  };
  e = simty__stream_launch(dev, &l, ev);
  if (e == 0 || dev->launch_unknown)
    return e;
drop_args:
  if (cfg->args && dev->nargs && dev->args_blocks[dev->nargs - 1] == args) {
    simty__alloc_put(&dev->heap, args);
    dev->nargs--;
  }
  return e;
}

int simty_launch_async(simty_kernel *kernel,
                       const struct simty_launch_config *cfg, simty_event *ev)
{
  if (!kernel || !cfg)
    return SIMTY_EINVAL;
  simty_device *dev = kernel->dev;
  if (!dev)
    return SIMTY_ECLOSED;
  simty__enter(dev);
  int e = launch_locked(kernel, cfg, ev);
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_launch(simty_kernel *kernel, const struct simty_launch_config *cfg)
{
  if (!kernel || !cfg)
    return SIMTY_EINVAL;
  simty_device *dev = kernel->dev;
  if (!dev)
    return SIMTY_ECLOSED;
  simty__enter(dev);
  int e = launch_locked(kernel, cfg, NULL);
  /* Returns once the device has accepted it. */
  if (!e && dev->backend->flush)
    e = dev->backend->flush(dev);
  if (e == SIMTY_EFAULT && dev->stream.fault_pending)
    e = simty__fail(dev, SIMTY_EFAULT,
                    "a launch submitted before this one faulted: not run "
                    "(simty_wait() or simty_sync() reports the fault)");
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_run(simty_kernel *kernel, const struct simty_launch_config *config,
              int timeout_ms)
{
  int e = simty_launch(kernel, config);
  if (e)
    return e;
  simty_device *dev = kernel->dev;
  e = simty_wait(dev, timeout_ms);
  if (e == SIMTY_ETIMEDOUT) {
    char detail[sizeof(dev->error)];
    pthread_mutex_lock(&dev->lock);
    memcpy(detail, dev->error, sizeof(detail));
    pthread_mutex_unlock(&dev->lock);
    /* Aborting ends the launch; its ABORTED fault is what remains. */
    int ae = simty_abort(dev);
    if (ae == 0)
      ae = simty_wait(dev, 2000);
    if (ae != 0 && ae != SIMTY_EFAULT && ae != SIMTY_ETIMEDOUT) {
      /* The abort itself failed (the link was lost, say): that is the
       * error, not a time-out with a fault record. */
      char why[sizeof(dev->error)];
      pthread_mutex_lock(&dev->lock);
      memcpy(why, dev->error, sizeof(why));
      simty__fail(dev, ae, "%s; aborting it failed: %s", detail, why);
      pthread_mutex_unlock(&dev->lock);
      return ae;
    }
    pthread_mutex_lock(&dev->lock);
    simty__fail(dev, SIMTY_ETIMEDOUT, "%s (aborted)", detail);
    pthread_mutex_unlock(&dev->lock);
  }
  return e;
}

int simty_get_fault(simty_device *dev, struct simty_fault *out)
{
  if (!dev || !out)
    return SIMTY_EINVAL;
  pthread_mutex_lock(&dev->lock);
  *out = dev->last_fault;
  pthread_mutex_unlock(&dev->lock);
  return 0;
}

const char *simty_fault_name(uint32_t cause)
{
  switch (cause) {
  case SIMTY_FAULT_NONE:
    return "none";
  case SIMTY_FAULT_ILLEGAL_INSTRUCTION:
    return "illegal_instruction";
  case SIMTY_FAULT_MISALIGNED_FETCH:
    return "misaligned_fetch";
  case SIMTY_FAULT_MISALIGNED_LOAD:
    return "misaligned_load";
  case SIMTY_FAULT_MISALIGNED_STORE:
    return "misaligned_store";
  case SIMTY_FAULT_FETCH_OUT_OF_RANGE:
    return "fetch_out_of_range";
  case SIMTY_FAULT_LOAD_OUT_OF_RANGE:
    return "load_out_of_range";
  case SIMTY_FAULT_STORE_OUT_OF_RANGE:
    return "store_out_of_range";
  case SIMTY_FAULT_EBREAK:
    return "ebreak";
  case SIMTY_FAULT_TIMEOUT:
    return "timeout";
  case SIMTY_FAULT_ABORTED:
    return "aborted";
  case SIMTY_FAULT_STACK_OVERFLOW:
    return "stack_overflow";
  default:
    return "unknown";
  }
}

int simty_fault_format(const struct simty_fault *f, char *buf, size_t size)
{
  if (!f)
    return snprintf(buf, size, "(no fault record)");
  /* 0xffffffff (a time-out or abort on a link device) is no thread. */
  char hart[16] = "none", tid[16] = "none";
  if (f->hart != UINT32_MAX)
    snprintf(hart, sizeof hart, "%" PRIu32, f->hart);
  if (f->tid != UINT32_MAX)
    snprintf(tid, sizeof tid, "%" PRIu32, f->tid);
  return snprintf(buf, size,
                  "%s (cause %" PRIu32 ") pc=0x%08" PRIx32 " hart=%s tid=%s"
                  " addr=0x%08" PRIx32,
                  simty_fault_name(f->cause), f->cause, f->pc, hart, tid,
                  f->addr);
}

/* ---- Counters ---- */

int simty_get_counters(simty_device *dev, struct simty_counters *out)
{
  if (!dev || !out)
    return SIMTY_EINVAL;
  uint64_t v[SIMTY_CTR_COUNT];
  pthread_mutex_lock(&dev->lock);
  int e = dev->backend->counters(dev, v);
  if (e == 0) {
#define SIMTY_X_(name, index, text) out->name = v[index];
    SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
    out->lanes = dev->info.lanes;
  }
  pthread_mutex_unlock(&dev->lock);
  return e;
}

uint64_t simty_counter_value(const struct simty_counters *c, unsigned index)
{
  if (!c)
    return 0;
  switch (index) {
#define SIMTY_X_(name, idx, text)                                            \
  case idx:                                                                  \
    return c->name;
    SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return 0;
  }
}

const char *simty_counter_name(unsigned index)
{
  static const char *const names[] = {
#define SIMTY_X_(name, idx, text) [idx] = #name,
      SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
  };
  return index < SIMTY_CTR_COUNT ? names[index] : NULL;
}

double simty_counters_ipc(const struct simty_counters *c)
{
  return c && c->cycles ? (double)c->warp_insts / (double)c->cycles : 0.0;
}

double simty_counters_simd_efficiency(const struct simty_counters *c)
{
  if (!c || !c->warp_insts || !c->lanes)
    return 0.0;
  return (double)c->thread_insts / ((double)c->warp_insts * c->lanes);
}

int simty_counters_format(const struct simty_counters *c, char *buf,
                          size_t size)
{
  if (!c)
    return snprintf(buf, size, "(no counters)\n");
  size_t total = 0;
  for (unsigned i = 0; i <= SIMTY_CTR_COUNT + 1; i++) {
    char *at = buf && total < size ? buf + total : NULL;
    size_t room = at ? size - total : 0;
    int n;
    if (i < SIMTY_CTR_COUNT)
      n = snprintf(at, room, "%s = %" PRIu64 "\n", simty_counter_name(i),
                   simty_counter_value(c, i));
    else if (i == SIMTY_CTR_COUNT)
      n = snprintf(at, room, "ipc = %.3f\n", simty_counters_ipc(c));
    else
      n = snprintf(at, room, "simd_efficiency = %.3f\n",
                   simty_counters_simd_efficiency(c));
    if (n < 0)
      return n;
    total += (size_t)n;
  }
  return (int)total;
}
