/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty.h - the Simty host library: the whole user API.
 *
 * Open a Simty device by URI, copy memory to and from it, load a kernel
 * ELF, launch it on N threads with an argument block, wait for it, read
 * faults and performance counters, and receive device printf output.
 *
 *     simty_device *dev;
 *     simty_kernel *k;
 *     if (simty_open(NULL, &dev) == 0 &&                 // $SIMTY_DEVICE or "sim"
 *         simty_kernel_load(dev, "vecadd.elf", &k) == 0) {
 *       uint32_t buf;
 *       simty_malloc(dev, 4096, &buf);
 *       simty_write(dev, buf, host_data, 4096);
 *       struct simty_launch_config cfg = {.nthreads = 1024,
 *                                         .args = &args,
 *                                         .args_size = sizeof(args)};
 *       int e = simty_run(k, &cfg, 10000);             // launch + wait 10 s
 *       if (e != 0)
 *         fprintf(stderr, "%s: %s\n", simty_strerror(e), simty_last_error(dev));
 *       simty_read(dev, buf, host_data, 4096);
 *     }
 *
 * Every copy and launch on a device goes into one in-order stream (like
 * CUDA's default stream): it runs after everything submitted before it
 * and before everything submitted after it, on every device (the model
 * included). simty_write_async(), simty_read_async() and
 * simty_launch_async() return as soon as the work is submitted (on a link
 * device: queued on the device, which starts each launch as soon as the
 * one before it ends, without a host round trip); simty_sync() waits for
 * all of it, simty_event_wait() for one operation. The blocking calls are
 * thin wrappers: simty_write() and simty_read() wait for the copy (and so
 * for the launches submitted before it), simty_launch() only submits,
 * simty_wait() waits for everything submitted.
 *
 * Conventions: every function that can fail returns 0 or a negative code
 * of enum simty_error (never errno values); results come back through
 * out-pointers, which are left untouched on failure. The handle keeps a
 * one-line detail of its last error (simty_last_error()).
 *
 * Thread safety: different device handles are independent and may be used
 * from different threads at the same time. Calls on one device (and on the
 * kernels loaded on it) are serialised by a lock inside the handle, so one
 * device may be shared by several threads; a call waits for the one in
 * progress (for instance simty_wait() in another thread) to return.
 * simty_close() must not race with other calls on the same device.
 * Callbacks (console, progress) run in the thread of the call that
 * triggered them, with the device lock held: they must not call the
 * library on the same device. simty_strerror(), simty_fault_name(),
 * simty_counter_name() and the simty_counters_*() helpers are pure and
 * thread-safe.
 *
 * Device URIs (simty_open() and the SIMTY_DEVICE environment variable;
 * docs/host_lib.md has the details):
 *   sim[?warps=W&lanes=L]          spawn the simulated board (default)
 *   model[?warps=W&lanes=L&code_size=N&data_size=N]
 *                                  the reference model, in process
 *   tcp://HOST:PORT[?margin_ms=N]  a running simulated board or bridge
 *   ftdi://[VID:PID[:SERIAL]][/INTERFACE][?baud=N]
 *                                  FT2232H / FT231X UART (default
 *                                  0403:6010, interface B, 1.5 Mbaud;
 *                                  0403:6015: interface A, 3 Mbaud)
 *   usb://VID:PID[?interface=N]    raw USB bulk endpoints
 */
#ifndef SIMTY_H
#define SIMTY_H

#include <stddef.h>
#include <stdint.h>

#include "simty_arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @name Version
 * The release version of this header, from hw/arch/simty_arch.h (the one
 * source): SIMTY_VERSION_MAJOR, _MINOR, _PATCH and SIMTY_VERSION_CODE
 * (major << 16 | minor << 8 | patch, as firmware and bitstreams report
 * theirs) come from there.
 */
/** @{ */
#define SIMTY_VERSION_STR_(x) #x
#define SIMTY_VERSION_STR(x) SIMTY_VERSION_STR_(x)
/** "major.minor.patch" */
#define SIMTY_VERSION_STRING                                                 \
  SIMTY_VERSION_STR(SIMTY_VERSION_MAJOR)                                     \
  "." SIMTY_VERSION_STR(SIMTY_VERSION_MINOR) "." SIMTY_VERSION_STR(          \
      SIMTY_VERSION_PATCH)
/** major * 10000 + minor * 100 + patch, for #if comparisons. */
#define SIMTY_VERSION                                                        \
  (SIMTY_VERSION_MAJOR * 10000 + SIMTY_VERSION_MINOR * 100 +                 \
   SIMTY_VERSION_PATCH)

/**
 * Version of the library linked in (which may differ from the header a
 * program was compiled with).
 * @return "major.minor.patch"; *code (if not NULL) gets
 *         major << 16 | minor << 8 | patch.
 */
const char *simty_version(uint32_t *code);
/** @} */

/* ------------------------------------------------------------------ */
/** @name Errors */
/** @{ */

/**
 * Every error code of the library: X(NAME, value, description).
 * 0 is success; all errors are negative.
 */
#define SIMTY_ERRNO_MAP(X)                                                   \
  X(OK, 0, "success")                                                        \
  X(EINVAL, -1, "invalid argument")                                          \
  X(EURI, -2, "malformed or unsupported device URI")                         \
  X(ENODEV, -3, "device not found")                                          \
  X(EBUSY, -4, "device busy")                                                \
  X(ENOMEM, -5, "out of host memory")                                        \
  X(ENOSPC, -6, "out of device memory")                                      \
  X(ERANGE, -7, "address range outside device memory")                       \
  X(EIO, -8, "input/output error on the link")                               \
  X(ETIMEDOUT, -9, "timed out")                                              \
  X(EPROTO, -10, "link protocol error")                                      \
  X(ECLOSED, -11, "device closed or disconnected")                           \
  X(EBADELF, -12, "not a valid Simty kernel ELF")                            \
  X(ETOOBIG, -13, "kernel does not fit in device memory")                    \
  X(ENOSYM, -14, "symbol not found")                                         \
  X(EFAULT, -15, "the launch ended with a fault")                            \
  X(ENOLAUNCH, -16, "no launch to wait for")                                 \
  X(ESTALE, -17, "kernel no longer loaded on the device")                    \
  X(ESTACK, -18, "thread stacks would overlap kernel data or allocations")   \
  X(EDEVICE, -19, "the device reported an error")                            \
  X(ENOTSUP, -20, "not supported by this device")                          \
  X(ELINK, -21, "no answer from the device: the link is lost")            \
  X(EFILE, -22, "cannot read the file")

/** Error codes returned by the library (0 = success). */
enum simty_error {
#define SIMTY_X_(name, value, text) SIMTY_##name = value,
  SIMTY_ERRNO_MAP(SIMTY_X_)
#undef SIMTY_X_
};

/**
 * Describe an error code.
 * @param error  a value of enum simty_error (any int is accepted).
 * @return a static description, "unknown error" for other values; never
 *         NULL.
 */
const char *simty_strerror(int error);

/**
 * Name of an error code.
 * @param error  a value of enum simty_error.
 * @return "SIMTY_EINVAL" and so on, "SIMTY_UNKNOWN" for other values.
 */
const char *simty_error_name(int error);

/* ------------------------------------------------------------------ */
/** @} @name Devices */
/** @{ */

/** Opaque handle to an open device. */
typedef struct simty_device simty_device;

/** What a device is: filled by simty_device_info(). */
struct simty_device_info {
  char backend[8];           /**< "model", "sim", "tcp", "ftdi" or "usb" */
  unsigned warps;            /**< hardware warps */
  unsigned lanes;            /**< threads per warp */
  uint32_t code_base;        /**< first byte of kernel code memory */
  uint32_t code_size;        /**< populated code bytes */
  uint32_t data_base;        /**< first byte of data memory */
  uint32_t data_size;        /**< populated data bytes */
  uint32_t clock_hz;         /**< core clock, 0 when not meaningful (model) */
  unsigned protocol_version; /**< link protocol, 0 for the in-process model */
  uint32_t firmware_version; /**< controller firmware, 0 for the model */
  unsigned max_payload;      /**< largest link payload, 0 for the model */
  unsigned counter_count;    /**< performance counters the device has */
  uint32_t hw_version;       /**< bitstream (SoC) version, as
                                  firmware_version; 0 for the model or a
                                  SoC without the register */
  uint32_t hw_build;         /**< bitstream build id (source digest), 0 when
                                  unknown */
  uint32_t link_baud;        /**< the device's link rate, bits/s; 0 unknown */
  unsigned link_window;      /**< requests the library keeps in flight */
  unsigned link_flags;       /**< bit 0: frames handled by the hardware link
                                  engine */
  unsigned extensions;       /**< optional ISA extensions beyond RV32I: bit 0
                                  M, bit 1 A, bit 2 Zicntr (SIMTY_EXT_* of
                                  simty_arch.h); 0 = RV32I */
  unsigned xbar;             /**< the memory crossbar kind (docs/
                                  architecture.md section 3): 0 full, 1
                                  rotate; 0 for a device that does not say
                                  (firmware and bitstreams before it) */
};

/**
 * Open a device.
 * @param uri  device URI (see the top of this header); NULL or "" uses the
 *             SIMTY_DEVICE environment variable, or "sim" when it is unset.
 * @param out  receives the handle on success.
 * @return 0; SIMTY_EINVAL (out NULL), SIMTY_EURI (malformed URI or unknown
 *         scheme), SIMTY_ENODEV (no such device, simulator not found),
 *         SIMTY_EBUSY (interface claimed by another program), SIMTY_EIO,
 *         SIMTY_ETIMEDOUT (device does not answer), SIMTY_EPROTO
 *         (incompatible protocol), SIMTY_ENOMEM. The detail of a failed
 *         open is in simty_last_error(NULL), in the calling thread.
 * Opening a device whose launch is still running (another process's)
 * succeeds and leaves it running: simty_wait() waits for it,
 * simty_abort() ends it, simty_launch() returns SIMTY_EBUSY meanwhile,
 * and simty_close() does not abort it.
 */
int simty_open(const char *uri, simty_device **out);

/**
 * Close a device: aborts a running launch this handle started, frees the
 * handle. A launch that was already running when the device was opened
 * (left by another process or an earlier session) is left running:
 * opening a busy device to inspect it (info, counters) never ends its
 * launch; simty_wait() and simty_abort() act on it like on one's own.
 * Kernel handles loaded on it stay valid for simty_kernel_free() and
 * symbol look-ups; launching them returns SIMTY_ECLOSED.
 * @param dev  the device (NULL is accepted and ignored).
 */
void simty_close(simty_device *dev);

/**
 * Describe a device.
 * @param dev  an open device.
 * @param out  receives the description.
 * @return 0, SIMTY_EINVAL.
 */
int simty_device_info(simty_device *dev, struct simty_device_info *out);

/**
 * The URI a device was opened with (after SIMTY_DEVICE and defaults).
 * @return a string owned by the handle, or "" when dev is NULL.
 */
const char *simty_device_uri(const simty_device *dev);

/**
 * One-line detail of the last error on a device, e.g. "write of 64 bytes
 * at 0x10fffff0 runs past the end of data memory (0x10100000)". A call
 * that succeeds clears it.
 * @param dev  a device, or NULL for the last failed simty_open() of the
 *             calling thread.
 * @return a string owned by the handle (valid until the next call on it),
 *         "" when there was no error.
 */
const char *simty_last_error(const simty_device *dev);

/* ------------------------------------------------------------------ */
/** @} @name Device memory */
/** @{ */

/**
 * Allocate device data memory, 16-byte aligned. Allocations come from the
 * data memory above the loaded kernel's data and below the region kept
 * for thread stacks (WARPS * LANES * 2^stack_log2 bytes at the top of
 * data memory, with the default stack_log2 of 10).
 * @param dev   an open device.
 * @param size  bytes, at least 1.
 * @param addr  receives the device address.
 * @return 0, SIMTY_EINVAL (size 0), SIMTY_ENOSPC (no free block large
 *         enough), SIMTY_ENOMEM.
 */
int simty_malloc(simty_device *dev, size_t size, uint32_t *addr);

/**
 * Free a block from simty_malloc().
 * @param dev   an open device.
 * @param addr  the address simty_malloc() returned.
 * @return 0, SIMTY_EINVAL (not the start of a live allocation).
 */
int simty_free(simty_device *dev, uint32_t addr);

/**
 * Copy host bytes to device memory. [addr, addr + len) must lie inside the
 * populated code memory or inside the populated data memory; any address
 * may be written, allocated or not. Transfers of 64 KiB and more report
 * progress (simty_set_progress()). The copy is ordered in the device's
 * stream: it happens after every launch submitted before it (a write
 * during a launch waits for that launch to end, on every device), and it
 * has happened when the call returns (simty_write_async() does not wait).
 * @param dev   an open device.
 * @param addr  device address.
 * @param src   len bytes (may be NULL when len is 0).
 * @param len   bytes to copy.
 * @return 0, SIMTY_EINVAL, SIMTY_ERANGE (nothing written), SIMTY_EFAULT
 *         (a launch submitted before it faulted: the copy was not made;
 *         simty_get_fault() has the record), SIMTY_EIO, SIMTY_ELINK (no
 *         answer: the link is lost), SIMTY_ECLOSED.
 */
int simty_write(simty_device *dev, uint32_t addr, const void *src,
                size_t len);

/**
 * Copy device memory to the host; same range and ordering rules as
 * simty_write(): the bytes are those the launches submitted before it
 * left.
 * @return 0, SIMTY_EINVAL, SIMTY_ERANGE, SIMTY_EFAULT (a launch submitted
 *         before it faulted: nothing read), SIMTY_EIO, SIMTY_ELINK,
 *         SIMTY_ECLOSED.
 */
int simty_read(simty_device *dev, uint32_t addr, void *dst, size_t len);

/**
 * Receives transfer progress: `done` of `total` bytes of the current
 * simty_write(), simty_read() or kernel load.
 */
typedef void (*simty_progress_fn)(void *user, uint64_t done, uint64_t total);

/**
 * Set the progress receiver of a device (NULL: none, the default).
 * @return 0, SIMTY_EINVAL.
 */
int simty_set_progress(simty_device *dev, simty_progress_fn fn, void *user);

/* ------------------------------------------------------------------ */
/** @} @name Kernels */
/** @{ */

/** Opaque handle to a kernel loaded on a device. */
typedef struct simty_kernel simty_kernel;

/**
 * Load a kernel ELF file: checks it, then writes every loadable segment
 * to the device (zero-filled to its memory size). A device holds one
 * kernel at a time: loading another makes the previous handle stale
 * (launching it returns SIMTY_ESTALE). Loading the same image again
 * (the same code bytes, SHA-256 compared) on a device whose code memory
 * nothing has written since skips uploading the code segments; the data
 * segments are always written again (a kernel starts from fresh data).
 * @param dev   an open device, with no launch running.
 * @param path  an RV32I ELF built by simty-cc.
 * @param out   receives the kernel handle.
 * The file must be a regular file of at most the device's CODE and DATA
 * windows plus 4 MiB (headers, symbols, debug sections) starting with the
 * ELF magic: these are checked before it is read, so a FIFO, a device such
 * as /dev/zero or a huge file fails at once.
 * @return 0; SIMTY_EINVAL; SIMTY_EFILE (cannot open or read the file, or
 *         not a regular file: the detail names the file and gives the
 *         errno text, e.g. "No such file or directory");
 *         SIMTY_EBADELF (not an RV32I executable, bad layout, entry outside
 *         code); SIMTY_ETOOBIG (code or data larger than the device's, data
 *         reaching into the stack region, or a file larger than any
 *         kernel); SIMTY_ENOTSUP (built for an ISA extension the device
 *         lacks, from the ELF's Tag_RISCV_arch); SIMTY_ENOSPC (kernel data
 *         would overlap live simty_malloc() blocks); SIMTY_EBUSY;
 *         link errors.
 */
int simty_kernel_load(simty_device *dev, const char *path,
                      simty_kernel **out);

/**
 * Load a kernel from an ELF image in memory (copied; the caller's buffer
 * may go away). Same rules and errors as simty_kernel_load(); an image
 * larger than a kernel file may be is SIMTY_ETOOBIG before any copy.
 */
int simty_kernel_load_bytes(simty_device *dev, const void *elf, size_t size,
                            simty_kernel **out);

/**
 * Free a kernel handle (its code stays in device memory until another
 * kernel is loaded). NULL is accepted.
 */
void simty_kernel_free(simty_kernel *kernel);

/**
 * Look up a symbol of a kernel (a global array to read back, a variable).
 * @param kernel  a kernel handle.
 * @param name    symbol name.
 * @param addr    receives the device address (may be NULL).
 * @param size    receives the symbol size in bytes (may be NULL).
 * @return 0, SIMTY_EINVAL, SIMTY_ENOSYM.
 */
int simty_kernel_symbol(const simty_kernel *kernel, const char *name,
                        uint32_t *addr, uint32_t *size);

/**
 * Entry point and data end of a kernel.
 * @param entry     receives the ELF entry (may be NULL).
 * @param data_end  receives the end of its data (_end; may be NULL).
 * @return 0, SIMTY_EINVAL.
 */
int simty_kernel_layout(const simty_kernel *kernel, uint32_t *entry,
                        uint32_t *data_end);

/**
 * Where a kernel code address comes from, as one line: "FUNCTION at
 * FILE:LINE" from the kernel ELF's debug information (DWARF line table and
 * scopes, read with elfutils' libdw; FILE as the compiler recorded it),
 * "FUNCTION+0xOFF" from its symbol table when it has no debug information
 * for pc, nothing when neither knows pc or pc is outside the kernel's
 * loaded code. For fault reports and traces:
 * simty_kernel_source_line(k, fault.pc, buf, sizeof buf).
 * @param kernel  a kernel handle (still valid after its device closed).
 * @param pc      a code address.
 * @param buf     receives the line (may be NULL when size is 0).
 * @return the length of the full line (as snprintf), 0 when pc is not
 *         known (buf then holds ""), SIMTY_EINVAL.
 */
int simty_kernel_source_line(const simty_kernel *kernel, uint32_t pc,
                             char *buf, size_t size);

/* ------------------------------------------------------------------ */
/** @} @name Launches */
/** @{ */

/** How to launch a kernel. Zero-initialise, then set nthreads. */
struct simty_launch_config {
  /** Logical threads, 1 .. SIMTY_MAX_THREADS: more than the hardware has
   * is fine, the device runs them in waves. */
  uint32_t nthreads;
  /** Argument block copied to device memory before the launch; kernels
   * read it through simty_args(). NULL: use args_addr. */
  const void *args;
  /** Bytes of the argument block (at most 64 KiB). */
  size_t args_size;
  /** Device address handed to the kernel when args is NULL (0: none). */
  uint32_t args_addr;
  /** log2 of each hardware thread's stack, SIMTY_STACK_LOG2_MIN ..
   * SIMTY_STACK_LOG2_MAX; 0: SIMTY_STACK_LOG2_DEFAULT. */
  unsigned stack_log2;
  /** Device-side time-out in core cycles (a TIMEOUT fault); 0: none. */
  uint64_t timeout_cycles;
};

/**
 * Start a kernel: simty_launch_async() without an event. Returns once the
 * device has accepted the launch (queued behind the launches before it,
 * which it does not wait for); the in-process model backend does the
 * work inside the calls that wait (simty_wait(), simty_sync(), a copy).
 * @param kernel  the kernel loaded last on its device.
 * @param config  launch configuration.
 * @return 0; SIMTY_EINVAL (nthreads 0 or above SIMTY_MAX_THREADS, bad
 *         stack_log2, args_size too large); SIMTY_ESTALE (another kernel
 *         was loaded since); SIMTY_ECLOSED (device closed); SIMTY_EFAULT
 *         (an earlier launch faulted: nothing submitted, the fault is
 *         reported once); SIMTY_ESTACK
 *         (the stack region overlaps kernel data or allocations);
 *         SIMTY_ENOSPC (no room for the argument block); link errors.
 *         SIMTY_ELINK when every answer to the launch was lost: whether
 *         it started is unknown until the device answers again; it counts
 *         as running, and the next simty_wait() or simty_abort() asks the
 *         device (simty_close() aborts it if it runs).
 */
int simty_launch(simty_kernel *kernel,
                 const struct simty_launch_config *config);

/** Wait without a time-out (for simty_wait()). */
#define SIMTY_WAIT_FOREVER (-1)

/**
 * Wait for everything submitted on the device (launches and copies) to
 * end. Console output produced meanwhile goes to the console receiver.
 * @param dev         an open device.
 * @param timeout_ms  milliseconds to wait; 0 only polls;
 *                    SIMTY_WAIT_FOREVER waits until the launch ends.
 * @return 0 when every thread ended; SIMTY_EFAULT when a launch ended
 *         with a fault (details: simty_get_fault(); the work submitted
 *         after it did not run); SIMTY_ETIMEDOUT when work still runs
 *         after timeout_ms (wait again or simty_abort()): the call
 *         returns within a few milliseconds of timeout_ms on every device;
 *         SIMTY_ENOLAUNCH when nothing was launched; link errors
 *         (SIMTY_ELINK: the device stopped answering, the launch may
 *         still run).
 */
int simty_wait(simty_device *dev, int timeout_ms);

/**
 * Abort the running launch, this handle's or one found running at open,
 * and cancel everything queued behind it: it ends with an ABORTED fault,
 * which simty_get_fault() reports at once (and simty_wait() returns as
 * SIMTY_EFAULT). Does nothing (and returns 0) when no launch is running.
 * @return 0, SIMTY_EINVAL, link errors.
 */
int simty_abort(simty_device *dev);

/**
 * simty_launch() then simty_wait(); on a time-out the launch is aborted
 * and SIMTY_ETIMEDOUT is returned.
 * @return as simty_launch() and simty_wait().
 */
int simty_run(simty_kernel *kernel, const struct simty_launch_config *config,
              int timeout_ms);

/** A launch fault (docs/architecture.md section 5). */
struct simty_fault {
  uint32_t cause; /**< enum simty_fault_cause; SIMTY_FAULT_NONE when none */
  uint32_t pc;    /**< faulting instruction */
  uint32_t hart;  /**< hardware thread of the lowest faulting lane */
  uint32_t tid;   /**< logical thread id of that lane (0xffffffff: none,
                       for a time-out or abort on a link device) */
  uint32_t addr;  /**< bad address, instruction word, or 0 */
};

/**
 * Fault record of the last launch that ended.
 * @param dev  an open device.
 * @param out  receives the record (cause SIMTY_FAULT_NONE when the last
 *             launch did not fault or nothing ended yet).
 * @return 0, SIMTY_EINVAL.
 */
int simty_get_fault(simty_device *dev, struct simty_fault *out);

/**
 * Lower-case name of a fault cause, "illegal_instruction" and so on.
 * @return a static string, "unknown" for other values.
 */
const char *simty_fault_name(uint32_t cause);

/**
 * Format a fault as one line:
 * "NAME (cause C) pc=0x%08x hart=H tid=T addr=0x%08x" (H and T are
 * "none" for 0xffffffff: no thread, as for a time-out on a link device).
 * @return the length of the full line (as snprintf; buf may be NULL when
 *         size is 0).
 */
int simty_fault_format(const struct simty_fault *fault, char *buf,
                       size_t size);

/* ------------------------------------------------------------------ */
/** @} @name Streams: queued work */
/** @{ */

/**
 * One operation of a device's stream, from the simty_*_async() calls:
 * numbers that grow with each submission (0 is never an operation and
 * counts as complete).
 */
typedef uint64_t simty_event;

/**
 * Submit a copy of host bytes to device memory, ordered after everything
 * submitted before it. Returns once the bytes are handed over: src may be
 * reused at once. On a link device the data goes to the device's queue
 * (it waits in the device while earlier launches run; when the queue is
 * full the call waits for room); a small write is sent without waiting
 * for the device's answer, so an error in that answer (a fault ended the
 * stream) is returned by a later call.
 * @param ev  receives the operation's event (may be NULL).
 * @return as simty_write(); SIMTY_EFAULT when an earlier launch faulted
 *         (nothing is submitted; the fault is reported once).
 */
int simty_write_async(simty_device *dev, uint32_t addr, const void *src,
                      size_t len, simty_event *ev);

/**
 * Submit a copy of device memory to the host, ordered after everything
 * submitted before it. dst must stay valid and untouched until the
 * operation completes (simty_event_wait(), simty_sync()); the copy is
 * made once the work before it has ended (devices run no copies to the
 * host behind a running launch), at the latest by the next call on the
 * device that needs it in order.
 * @return as simty_read().
 */
int simty_read_async(simty_device *dev, uint32_t addr, void *dst, size_t len,
                     simty_event *ev);

/**
 * Submit a launch, ordered after everything submitted before it: it
 * starts as soon as the previous launch ends. Launches submitted since
 * the last simty_sync() (or simty_wait(), simty_run()) form one sequence:
 * their console output is kept in order, and the performance counters
 * add up over them (cct_peak: the maximum), on every device.
 * @return as simty_launch().
 */
int simty_launch_async(simty_kernel *kernel,
                       const struct simty_launch_config *config,
                       simty_event *ev);

/**
 * Wait until an operation has completed (with everything before it).
 * @param timeout_ms  as simty_wait().
 * @return 0; SIMTY_EFAULT when a launch at or before it faulted (it did
 *         not run; simty_get_fault() has the record); SIMTY_ETIMEDOUT;
 *         SIMTY_EINVAL (an event this device never issued); link errors.
 */
int simty_event_wait(simty_device *dev, simty_event ev, int timeout_ms);

/**
 * Has an operation completed? 0 yes, SIMTY_EBUSY not yet, SIMTY_EFAULT it
 * will not (a fault ended the stream before it). Asks the device once
 * (one link round trip; the model runs a slice of about a millisecond)
 * and never waits longer.
 */
int simty_event_query(simty_device *dev, simty_event ev);

/**
 * The operation whose fault ended the stream last: simty_get_fault() has
 * its record; the operations submitted after it did not run.
 * @param ev  receives its event, 0 when it was not submitted through this
 *            handle's stream (or nothing faulted).
 * @return 0, SIMTY_EINVAL.
 */
int simty_get_fault_event(simty_device *dev, simty_event *ev);

/**
 * Wait for everything submitted on the device: simty_wait().
 */
int simty_sync(simty_device *dev, int timeout_ms);

/* ------------------------------------------------------------------ */
/** @} @name Performance counters */
/** @{ */

/**
 * The performance counters of a launch, one uint64_t per entry of
 * SIMTY_COUNTER_MAP in index order (cycles, warp_insts, thread_insts,
 * divergent_branches, path_merges, replays_mem, replays_indirect,
 * mem_requests, mem_transactions, sched_idle_cycles, cct_peak,
 * uniform_vectors, affine_vectors); docs/architecture.md section 6 gives
 * their exact definitions. `lanes` is the device's, for SIMD efficiency.
 */
struct simty_counters {
#define SIMTY_X_(name, index, text) uint64_t name;
  SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
  unsigned lanes; /**< threads per warp of the device that counted */
};

/**
 * Read the counters of the current or last sequence of launches: the sum
 * over the launches submitted since the last simty_sync()/simty_wait()
 * before them (cct_peak: the maximum), the same on every device.
 * @param dev  an open device.
 * @param out  receives the counters.
 * @return 0, SIMTY_EINVAL, link errors.
 */
int simty_get_counters(simty_device *dev, struct simty_counters *out);

/**
 * Value of one counter by index.
 * @return the value, 0 for an index >= SIMTY_CTR_COUNT.
 */
uint64_t simty_counter_value(const struct simty_counters *c, unsigned index);

/** Name of counter `index` ("cycles"...), NULL past the last. */
const char *simty_counter_name(unsigned index);

/** Instructions per cycle: warp_insts / cycles (0 when cycles is 0). */
double simty_counters_ipc(const struct simty_counters *c);

/** SIMD efficiency: thread_insts / (warp_insts * lanes) (0 when nothing
 * ran). */
double simty_counters_simd_efficiency(const struct simty_counters *c);

/**
 * Format counters as text: one "NAME = VALUE" line per counter, then
 * "ipc = %.3f" and "simd_efficiency = %.3f" (the simty-model format).
 * @return the length of the full text (as snprintf).
 */
int simty_counters_format(const struct simty_counters *c, char *buf,
                          size_t size);

/* ------------------------------------------------------------------ */
/** @} @name Device console (printf from kernels) */
/** @{ */

/**
 * Receives one line a kernel thread printed: `line` holds `len` bytes
 * without the newline, followed by a NUL. Lines are regrouped per logical
 * thread; an unfinished line is delivered when its launch ends.
 */
typedef void (*simty_console_fn)(void *user, uint32_t tid, const char *line,
                                 size_t len);

/**
 * Set the console receiver of a device. The default receiver prints
 * "[TID] text" lines to stdout; fn NULL drops console output.
 * @return 0, SIMTY_EINVAL.
 */
int simty_set_console(simty_device *dev, simty_console_fn fn, void *user);

/**
 * Receives each warp instruction a launch executes, in execution order:
 * the logical id of lane 0 of the block, the pc, and the lanes that
 * retired it (the simty-model --trace line). simty_kernel_source_line()
 * names the pc's function and line.
 */
typedef void (*simty_trace_fn)(void *user, uint32_t base_tid, uint32_t pc,
                               uint64_t mask);

/**
 * Set the instruction trace receiver of a device (NULL: no trace). Only
 * the in-process model can trace; it runs slower while a receiver is set.
 * Called from simty_wait() with the device lock held.
 * @return 0, SIMTY_EINVAL, SIMTY_ENOTSUP (a device other than the model).
 */
int simty_set_trace(simty_device *dev, simty_trace_fn fn, void *user);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_H */
