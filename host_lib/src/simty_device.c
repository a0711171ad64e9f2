/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_device.c - device handles: URI selection of a backend, errors,
 * device memory (allocation, checked copies with progress) and the
 * device console (bytes regrouped into lines per thread).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simty_internal.h"

/* ---- Errors ---- */

const char *simty_strerror(int error)
{
  switch (error) {
#define SIMTY_X_(name, value, text)                                          \
  case value:                                                                \
    return text;
    SIMTY_ERRNO_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "unknown error";
  }
}

const char *simty_version(uint32_t *code)
{
  if (code)
    *code = SIMTY_VERSION_CODE;
  return SIMTY_VERSION_STRING;
}

const char *simty_error_name(int error)
{
  switch (error) {
#define SIMTY_X_(name, value, text)                                          \
  case value:                                                                \
    return "SIMTY_" #name;
    SIMTY_ERRNO_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "SIMTY_UNKNOWN";
  }
}

/* Detail of the last failed simty_open() in this thread. */
static _Thread_local char open_error[512];

int simty__fail(simty_device *dev, int code, const char *fmt, ...)
{
  char *buf = dev ? dev->error : open_error;
  size_t size = dev ? sizeof(dev->error) : sizeof(open_error);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return code;
}

const char *simty_last_error(const simty_device *dev)
{
  return dev ? dev->error : open_error;
}

uint64_t simty__now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t simty__deadline_ms(int timeout_ms)
{
  if (timeout_ms < 0)
    return UINT64_MAX;
  return simty__now_ns() + (uint64_t)timeout_ms * 1000000u;
}

/* ---- URI options ---- */

int simty__parse_opts(simty_device *dev, const char *query,
                      const struct simty__uri_opt *opts, size_t nopts)
{
  const char *p = query;
  while (p && *p) {
    const char *end = strchr(p, '&');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *eq = memchr(p, '=', len);
    if (!eq)
      return simty__fail(dev, SIMTY_EURI, "URI option '%.*s' has no value",
                         (int)len, p);
    size_t klen = (size_t)(eq - p);
    size_t k = 0;
    for (; k < nopts; k++)
      if (strlen(opts[k].key) == klen && memcmp(opts[k].key, p, klen) == 0)
        break;
    if (k == nopts)
      return simty__fail(dev, SIMTY_EURI, "unknown URI option '%.*s'",
                         (int)klen, p);
    char num[32];
    size_t vlen = len - klen - 1;
    if (vlen == 0 || vlen >= sizeof(num) || !isdigit((unsigned char)eq[1]))
      return simty__fail(dev, SIMTY_EURI, "bad value for URI option '%s'",
                         opts[k].key);
    memcpy(num, eq + 1, vlen);
    num[vlen] = '\0';
    char *stop;
    errno = 0;
    unsigned long long v = strtoull(num, &stop, 0);
    if (errno || *stop || v < opts[k].min || v > opts[k].max)
      return simty__fail(dev, SIMTY_EURI,
                         "bad value '%s' for URI option '%s' (%" PRIu64
                         " .. %" PRIu64 ")",
                         num, opts[k].key, opts[k].min, opts[k].max);
    *opts[k].value = v;
    p = end ? end + 1 : NULL;
  }
  return 0;
}

/* ---- Open and close ---- */

static const struct simty__backend *const backends[] = {
    &simty__backend_model, &simty__backend_sim, &simty__backend_tcp,
    &simty__backend_ftdi,  &simty__backend_usb,
};

static void console_default(void *user, uint32_t tid, const char *line,
                            size_t len)
{
  (void)user;
  printf("[%" PRIu32 "] %.*s\n", tid, (int)len, line);
}

int simty_open(const char *uri, simty_device **out)
{
  if (!out)
    return simty__fail(NULL, SIMTY_EINVAL, "no place for the handle");
  if (!uri || !*uri) {
    uri = getenv("SIMTY_DEVICE");
    if (!uri || !*uri)
      uri = "sim";
  }
  size_t slen = strcspn(uri, ":?");
  const struct simty__backend *be = NULL;
  for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
    if (strlen(backends[i]->scheme) == slen &&
        strncmp(backends[i]->scheme, uri, slen) == 0)
      be = backends[i];
  if (!be)
    return simty__fail(NULL, SIMTY_EURI,
                       "unknown device URI '%s' (expected sim, model, "
                       "tcp://HOST:PORT, ftdi://[VID:PID[:SERIAL]][/IF] or "
                       "usb://VID:PID)",
                       uri);
  if (strlen(uri) >= sizeof(((simty_device *)0)->uri))
    return simty__fail(NULL, SIMTY_EURI, "device URI too long");
  const char *rest = uri + slen;
  if (strncmp(rest, "://", 3) == 0)
    rest += 3;
  else if (*rest == ':')
    rest += 1;
  /* model and sim take options only: "model:" or "sim://" is a
   * truncated URI, not the default device. (The other schemes check what
   * follows their separator themselves; "ftdi://" means every default.) */
  if (rest != uri + slen &&
      (be == &simty__backend_model || be == &simty__backend_sim))
    return simty__fail(NULL, SIMTY_EURI,
                       "device URI '%s': %s takes no ':' (%s[?OPTIONS])", uri,
                       be->scheme, be->scheme);

  simty_device *dev = calloc(1, sizeof(*dev));
  if (!dev)
    return simty__fail(NULL, SIMTY_ENOMEM, "out of memory");
  if (pthread_mutex_init(&dev->lock, NULL) != 0) {
    free(dev);
    return simty__fail(NULL, SIMTY_ENOMEM, "cannot create a mutex");
  }
  dev->backend = be;
  snprintf(dev->uri, sizeof(dev->uri), "%s", uri);
  dev->default_stack_log2 = SIMTY_STACK_LOG2_DEFAULT;
  dev->console.fn = console_default;
  snprintf(dev->info.backend, sizeof(dev->info.backend), "%s", be->scheme);
  int e = be->open(dev, rest);
  if (e == 0 && (dev->info.warps == 0 || dev->info.lanes == 0 ||
                 dev->info.data_size == 0 || dev->info.code_size == 0)) {
    be->close(dev);
    e = simty__fail(dev, SIMTY_EPROTO, "device reports no warps or memory");
  }
  if (e != 0) {
    simty__fail(NULL, e, "%s: %s", uri, dev->error);
    pthread_mutex_destroy(&dev->lock);
    free(dev);
    return e;
  }
  /* A launch the backend found running belongs to whoever started it:
   * opening a busy device (to inspect it, say) must not end it. */
  dev->inherited = dev->launched;
  uint32_t bottom = simty__stack_bottom(dev, dev->default_stack_log2);
  simty__alloc_init(&dev->heap, dev->info.data_base, bottom);
  dev->error[0] = '\0';
  open_error[0] = '\0';
  *out = dev;
  return 0;
}

void simty_close(simty_device *dev)
{
  if (!dev)
    return;
  pthread_mutex_lock(&dev->lock);
  /* Only a launch this handle started is aborted; one found running at
   * open is left to its owner (simty_abort() ends it on request). */
  if (dev->launched && !dev->inherited) {
    struct simty__status st;
    if (dev->backend->abort(dev) == 0)
      dev->backend->wait(dev, 0, simty__now_ns() + 1000000000u, &st);
  }
  simty__console_flush(dev);
  dev->backend->close(dev);
  simty__stream_free(dev);
  simty__release_args(dev);
  free(dev->args_blocks);
  for (size_t i = 0; i < dev->nkernels; i++)
    dev->kernels[i]->dev = NULL;
  free(dev->kernels);
  simty__lines_free(&dev->console);
  simty__alloc_destroy(&dev->heap);
  pthread_mutex_unlock(&dev->lock);
  pthread_mutex_destroy(&dev->lock);
  free(dev);
}

int simty_device_info(simty_device *dev, struct simty_device_info *out)
{
  if (!dev || !out)
    return SIMTY_EINVAL;
  pthread_mutex_lock(&dev->lock);
  *out = dev->info;
  pthread_mutex_unlock(&dev->lock);
  return 0;
}

const char *simty_device_uri(const simty_device *dev)
{
  return dev ? dev->uri : "";
}

uint32_t simty__stack_bottom(const simty_device *dev, unsigned stack_log2)
{
  uint64_t top = (uint64_t)dev->info.data_base + dev->info.data_size;
  uint64_t region = (uint64_t)dev->info.warps * dev->info.lanes << stack_log2;
  return region > dev->info.data_size ? dev->info.data_base
                                      : (uint32_t)(top - region);
}

/* ---- Memory ---- */

int simty__check_range(simty_device *dev, uint32_t addr, uint64_t len,
                       const char *what)
{
  const struct simty_device_info *in = &dev->info;
  /* Offsets from each base, never addr + len: a length near 2^64 would
   * wrap that sum back into range. */
  if (addr >= in->code_base && addr - in->code_base <= in->code_size &&
      len <= (uint64_t)in->code_size - (addr - in->code_base))
    return 0;
  if (addr >= in->data_base && addr - in->data_base <= in->data_size &&
      len <= (uint64_t)in->data_size - (addr - in->data_base))
    return 0;
  const char *where = "outside code and data memory";
  if (addr >= in->code_base && addr - in->code_base < in->code_size)
    where = "past the end of code memory";
  else if (addr >= in->data_base && addr - in->data_base < in->data_size)
    where = "past the end of data memory";
  else if (addr - SIMTY_FW_BASE < SIMTY_FW_WINDOW)
    where = "in the protected firmware region";
  else if (addr >= SIMTY_MMIO_BASE)
    where = "in the protected controller registers";
  return simty__fail(dev, SIMTY_ERANGE,
                     "%s of %" PRIu64 " bytes at 0x%08" PRIx32
                     " is %s (code 0x%08" PRIx32 "+0x%" PRIx32
                     ", data 0x%08" PRIx32 "+0x%" PRIx32 ")",
                     what, len, addr, where, in->code_base, in->code_size,
                     in->data_base, in->data_size);
}

void simty__progress(simty_device *dev, uint64_t done, uint64_t total)
{
  if (dev->progress)
    dev->progress(dev->progress_user, done, total);
}

int simty_set_progress(simty_device *dev, simty_progress_fn fn, void *user)
{
  if (!dev)
    return SIMTY_EINVAL;
  pthread_mutex_lock(&dev->lock);
  dev->progress = fn;
  dev->progress_user = user;
  pthread_mutex_unlock(&dev->lock);
  return 0;
}

int simty_malloc(simty_device *dev, size_t size, uint32_t *addr)
{
  if (!dev || !addr)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = simty__alloc_get(&dev->heap, size, addr);
  if (e == SIMTY_EINVAL)
    simty__fail(dev, e, "cannot allocate 0 bytes");
  else if (e == SIMTY_ENOSPC)
    simty__fail(dev, e,
                "no free block of %zu bytes in device data memory "
                "0x%08" PRIx32 "..0x%08" PRIx32
                " (between kernel data and thread stacks)",
                size, dev->heap.lo, dev->heap.hi);
  else if (e)
    simty__fail(dev, e, "out of host memory");
  pthread_mutex_unlock(&dev->lock);
  return e;
}

int simty_free(simty_device *dev, uint32_t addr)
{
  if (!dev)
    return SIMTY_EINVAL;
  simty__enter(dev);
  int e = simty__alloc_put(&dev->heap, addr);
  if (e)
    simty__fail(dev, e, "0x%08" PRIx32 " is not an allocated block", addr);
  pthread_mutex_unlock(&dev->lock);
  return e;
}

/* ---- Console ---- */

int simty_set_console(simty_device *dev, simty_console_fn fn, void *user)
{
  if (!dev)
    return SIMTY_EINVAL;
  pthread_mutex_lock(&dev->lock);
  dev->console.fn = fn;
  dev->console.user = user;
  pthread_mutex_unlock(&dev->lock);
  return 0;
}

void simty__console_byte(simty_device *dev, uint32_t tid, uint8_t byte)
{
  simty__lines_byte(&dev->console, tid, byte);
}

void simty__console_flush(simty_device *dev)
{
  simty__lines_flush(&dev->console);
}
