/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_internal.h - private to the host library: the device handle, the
 * backend table every transport implements, the allocator and helpers.
 *
 * Public API calls (simty_device.c, simty_kernel.c) validate arguments,
 * take the device lock, and call the backend through `struct
 * simty__backend`. The link backends (sim, tcp, ftdi, usb) share one
 * protocol client (backend_link.c); `model` maps each entry straight
 * onto the reference model library.
 */
#ifndef SIMTY_INTERNAL_H
#define SIMTY_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#include "simty.h"
#include "simty_elf.h"
#include "simty_lines.h"

/* ---- Allocator: first fit from the top of an arena, 16-byte grain ---- */

struct simty__block {
  uint32_t addr;
  uint32_t size;
};

struct simty__alloc {
  uint32_t lo, hi;             /* arena [lo, hi) */
  struct simty__block *blocks; /* live blocks sorted by address */
  size_t count, cap;
};

void simty__alloc_init(struct simty__alloc *a, uint32_t lo, uint32_t hi);
void simty__alloc_destroy(struct simty__alloc *a);
/* 0, SIMTY_EINVAL (size 0), SIMTY_ENOSPC, SIMTY_ENOMEM. */
int simty__alloc_get(struct simty__alloc *a, uint64_t size, uint32_t *addr);
/* 0, SIMTY_EINVAL (not the start of a live block). */
int simty__alloc_put(struct simty__alloc *a, uint32_t addr);
/* Lowest live address (hi when empty) and highest live end (lo when
 * empty). */
uint32_t simty__alloc_low(const struct simty__alloc *a);
uint32_t simty__alloc_high(const struct simty__alloc *a);

/* ---- Launch state seen by the backends ---- */

struct simty__launch {
  uint32_t entry;
  uint32_t nthreads;
  uint32_t args;
  uint32_t data_end; /* highest kernel or allocated data byte + 1 */
  unsigned stack_log2;
  uint64_t timeout_cycles;
  unsigned flags; /* SIMTY__LAUNCH_CONTINUE: continues the sequence */
  /* The argument block the backend writes to `args` just before the
   * launch, in the stream (NULL: none). */
  const void *args_data;
  size_t args_size;
};
/* The launch continues the sequence of the one before it: counters add
 * up, console records are kept (protocol: SIMTY_LAUNCH_F_CONTINUE). */
#define SIMTY__LAUNCH_CONTINUE 1u

enum simty__state {
  SIMTY__IDLE = 0,
  SIMTY__RUNNING = 1,
  SIMTY__DONE = 2,
  SIMTY__FAULT = 3,
};

/* A device's status record: its last launch, and its work queue in
 * operation numbers (docs/protocol.md "Queued work"; the model backend
 * numbers its operations the same way). */
struct simty__status {
  enum simty__state state;
  struct simty_fault fault;
  uint32_t ops_accepted; /* number of the last operation accepted */
  uint32_t ops_done;     /* number of the last operation completed */
  uint32_t fault_op;     /* operation that ended the last sequence, 0 none */
  unsigned queued;       /* operations not yet started */
};

/* One operation of the stream not yet known to be complete. */
struct simty__op {
  simty_event ev;
  uint32_t op; /* device operation number; 0: a read the library makes */
  uint32_t addr;
  void *dst;
  size_t len;
};

/* The device's stream (simty_stream.c). */
struct simty__stream {
  simty_event next;     /* last event issued */
  struct simty__op *ops; /* outstanding, in order */
  size_t nops, cap;
  uint32_t last_op;     /* device number of the last operation submitted */
  uint32_t ops_done;    /* the device's, as last reported */
  uint32_t fault_seen;  /* fault_op of the last fault taken into account */
  int fault_pending;    /* a fault not yet returned to the caller */
  simty_event fail_lo, fail_hi; /* events the last fault cancelled */
  simty_event fault_ev; /* the operation that faulted, 0: unknown */
  unsigned seq_launches; /* launches submitted since the last sync */
};

/* ---- Backend table ----
 * Every entry returns 0 or a negative simty_error, leaving a detail with
 * simty__fail(). Addresses and lengths are already range-checked against
 * dev->info. Deadlines are CLOCK_MONOTONIC nanoseconds (simty__now_ns());
 * 0 means "poll once". */
struct simty__backend {
  const char *scheme;
  /* Open the device named by `rest` (the URI after "scheme" and an
   * optional "://" or ":"), store private state in dev->impl and fill
   * dev->info. */
  int (*open)(simty_device *dev, const char *rest);
  void (*close)(simty_device *dev);
  /* write and launch submit one operation, ordered after everything
   * before it (waiting while the device's queue is full), and set
   * dev->stream.last_op to its number; SIMTY_EFAULT when a fault ended
   * the queue before it (the status record that says so has been passed
   * to simty__stream_note()). read is only called with nothing queued or
   * running. */
  int (*write)(simty_device *dev, uint32_t addr, const void *src,
               size_t len);
  int (*read)(simty_device *dev, uint32_t addr, void *dst, size_t len);
  int (*launch)(simty_device *dev, const struct simty__launch *launch);
  /* Progress the work until operation until_op has completed (0: until
   * nothing runs or is queued), a fault has ended the queue, or the
   * deadline passes; feed console bytes to simty__console_byte(). Fills
   * *st (and passes it to simty__stream_note()). */
  int (*wait)(simty_device *dev, uint32_t until_op, uint64_t deadline_ns,
              struct simty__status *st);
  /* Ends the running launch and cancels the queue; passes the resulting
   * status to simty__stream_note(). */
  int (*abort)(simty_device *dev);
  int (*counters)(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT]);
  /* Collects the answers of submissions still in flight (NULL: none are
   * ever left in flight); returns the first error among them. */
  int (*flush)(simty_device *dev);
  /* write/read take transfers of any size and report their progress
   * (simty__progress every SIMTY__PROGRESS_CHUNK bytes of a transfer of
   * at least that size); 0: simty_write/simty_read split them. */
  int own_progress;
};

/* Transfers of this size and more report progress, in steps of it. */
#define SIMTY__PROGRESS_CHUNK (64u * 1024u)

extern const struct simty__backend simty__backend_model;
/* The reference model behind a device of simty__backend_model. */
struct simty_model *simty__model_of(simty_device *dev);
extern const struct simty__backend simty__backend_sim;
extern const struct simty__backend simty__backend_tcp;
extern const struct simty__backend simty__backend_ftdi;
extern const struct simty__backend simty__backend_usb;

/* ---- The device handle ---- */

struct simty_device {
  pthread_mutex_t lock;
  const struct simty__backend *backend;
  void *impl; /* backend state */
  char uri[256];
  struct simty_device_info info;
  char error[512]; /* last error detail */

  struct simty__alloc heap;
  unsigned default_stack_log2;

  /* The kernel loaded last (its layout survives its handle). */
  uint64_t load_generation;
  uint32_t kernel_data_end; /* 0: none loaded */
  struct simty_kernel **kernels; /* live handles, detached at close */
  size_t nkernels, kernels_cap;

  uint32_t *args_blocks; /* argument blocks of the current sequence */
  size_t nargs, args_cap;
  int launched;        /* a launch was started and not yet seen to end */
  /* The link was lost with every answer to a LAUNCH: counted as launched
   * until the backend has asked the device whether it started. */
  int launch_unknown;
  int inherited;       /* that launch was found running at open: another
                          process or session started it, so simty_close()
                          leaves it running */
  int ever_launched;
  struct simty_fault last_fault;
  struct simty__stream stream;

  /* The code bytes of the kernel loaded last, while nothing else has
   * written CODE since (a reload of the same image skips them). */
  uint8_t *code_image;
  size_t code_image_len;
  unsigned code_reuses; /* loads that skipped the code (tests) */

  struct simty__lines console; /* fn, user: simty_set_console() */
  simty_progress_fn progress;
  void *progress_user;
};

struct simty_kernel {
  simty_device *dev; /* NULL once the device is closed */
  uint64_t generation;
  struct simty_elf elf;
};

/* ---- Stream (simty_stream.c) ---- */

/* Takes a status record into account: completed operations, and a new
 * fault (its record becomes last_fault, the operations it cancelled
 * fail). */
void simty__stream_note(simty_device *dev, const struct simty__status *st);
/* Waits (device lock held) until every operation up to `ev` (0: all) has
 * completed, making the reads due; returns as simty_event_wait(). */
int simty__stream_wait(simty_device *dev, simty_event ev,
                       uint64_t deadline_ns);
/* Forgets the stream's state (open, close). */
void simty__stream_free(simty_device *dev);
/* Something was written to [addr, addr + len): a cached code image it
 * touches is forgotten. */
void simty__code_written(simty_device *dev, uint32_t addr, uint64_t len);
/* Public-call prologue: takes the lock and clears the last error. */
void simty__enter(simty_device *dev);
/* Submits a checked launch (flags get CONTINUE inside a sequence). */
int simty__stream_launch(simty_device *dev, struct simty__launch *l,
                         simty_event *ev);
/* Frees the argument blocks of the launches of the sequence that ended
 * (simty_kernel.c). */
void simty__release_args(simty_device *dev);
/* One write to the backend, in progress-sized pieces unless it reports
 * progress itself. */
int simty__backend_write(simty_device *dev, uint32_t addr, const void *src,
                         size_t len);

/* ---- Helpers ---- */

/* Record a detail for dev (or the thread's open error when dev is NULL)
 * and return `code`. */
int simty__fail(simty_device *dev, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
uint64_t simty__now_ns(void);
/* Deadline timeout_ms from now; SIMTY_WAIT_FOREVER gives UINT64_MAX. */
uint64_t simty__deadline_ms(int timeout_ms);
void simty__console_byte(simty_device *dev, uint32_t tid, uint8_t byte);
void simty__console_flush(simty_device *dev);
void simty__progress(simty_device *dev, uint64_t done, uint64_t total);
/* Range check [addr, addr + len) against populated CODE or DATA. */
int simty__check_range(simty_device *dev, uint32_t addr, uint64_t len,
                       const char *what);
/* Top of DATA minus every hardware thread's stack. */
uint32_t simty__stack_bottom(const simty_device *dev, unsigned stack_log2);

/* Parse "key=value&key=value" options (after '?') into unsigned values;
 * unknown keys or bad numbers are an SIMTY_EURI error on dev. */
struct simty__uri_opt {
  const char *key;
  uint64_t min, max;
  uint64_t *value;
};
int simty__parse_opts(simty_device *dev, const char *query,
                      const struct simty__uri_opt *opts, size_t nopts);

#endif /* SIMTY_INTERNAL_H */
