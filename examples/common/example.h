/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example.h - what every example host program shares: options, opening
 * the device and loading the kernel, copying buffers, running, checking
 * against the CPU and printing the verdict and the counters.
 *
 * Options of every example:
 *   --device URI   device (default: $SIMTY_DEVICE, else sim)
 *   --kernel PATH  kernel ELF (default: the one `make` builds)
 *   --n N          problem size (each example has its own default)
 *   --seed S       seed of the random inputs (default 1)
 *   --quiet        no counters
 * Exit status: 0 the device result matches the CPU, 1 it does not,
 * 2 usage, 3 the kernel faulted, 4 a device or library error.
 */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "simty.h"

enum {
  EXAMPLE_PASS = 0,
  EXAMPLE_MISMATCH = 1,
  EXAMPLE_USAGE = 2,
  EXAMPLE_FAULT = 3,
  EXAMPLE_DEVICE_ERROR = 4,
};

struct example {
  const char *name;
  simty_device *dev;
  simty_kernel *kernel;
  struct simty_device_info info;
  uint64_t n;         /* --n, or the example's default */
  uint32_t seed;      /* --seed */
  int quiet;          /* --quiet */
  uint64_t rng;       /* state of example_rand() */
  int timeout_ms;     /* per launch */
  unsigned launches;  /* launches run so far */
  unsigned submitted; /* launches submitted since the last example_sync() */
  struct simty_counters total; /* summed over launches (cct_peak: max) */
};

/* Parses the options, opens the device, loads the kernel. Exits with a
 * message on failure. default_n: problem size unless --n is given. */
void example_init(struct example *ex, int argc, char **argv,
                  const char *name, const char *default_kernel,
                  uint64_t default_n);

/* The same for a kernel built for ISA extensions (SIMTY_EXT_* bits): on a
 * device without them it prints "NAME: SKIP: ..." and exits with
 * EXAMPLE_PASS, so that a run of every example on such a device goes on. */
void example_init_isa(struct example *ex, int argc, char **argv,
                      const char *name, const char *default_kernel,
                      uint64_t default_n, unsigned extensions);

/* Ends the program with EXAMPLE_USAGE ("NAME: --n[ (WHAT)] must be 1 ..
 * MAX", the device closed) unless 1 <= --n <= max. what may be NULL. */
void example_check_n(struct example *ex, uint64_t max, const char *what);

/* Deterministic pseudo-random numbers from --seed. */
static inline uint32_t example_rand(struct example *ex)
{
  /* xorshift64*: plenty for test inputs, identical on every host. */
  ex->rng ^= ex->rng >> 12;
  ex->rng ^= ex->rng << 25;
  ex->rng ^= ex->rng >> 27;
  return (uint32_t)((ex->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Allocates device memory and copies `size` bytes of src into it (src
 * NULL: fills with 0xA5 so that words the kernel forgets are visible).
 * Exits on failure. Returns the device address. */
uint32_t example_upload(struct example *ex, const void *src, size_t size);

/* Copies device memory back. Exits on failure. */
void example_download(struct example *ex, uint32_t addr, void *dst,
                      size_t size);

/* Runs the kernel on nthreads threads with an argument block. Exits with
 * status 3 (fault printed) or 4 on failure. */
void example_run(struct example *ex, const void *args, size_t args_size,
                 uint32_t nthreads);

/* Compares n 32-bit words; prints the first few mismatches. Returns the
 * number of mismatching words. */
/* Submits a launch to the device's stream without waiting for it (the
 * device starts it as soon as the work before it ends); exits as
 * example_run() on failure. example_sync() waits for everything
 * submitted and adds the sequence's counters to the total. */
void example_submit(struct example *ex, const void *args, size_t args_size,
                    uint32_t nthreads);
void example_sync(struct example *ex);

uint64_t example_compare(struct example *ex, const char *what,
                         const int32_t *got, const int32_t *want,
                         uint64_t n);

/* Prints PASS or FAIL, the counters summed over every launch unless --quiet,
 * closes the device; returns the exit status. */
int example_finish(struct example *ex, uint64_t mismatches,
                   const char *summary);

/* Prints a message and exits with status 4 after a library error. */
void example_die(struct example *ex, int error, const char *what);

#endif /* EXAMPLE_H */
