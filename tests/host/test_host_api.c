/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_host_api.c - the public API of libsimty on the `model` backend:
 * URIs, device info, memory and its range checks, the allocator, kernel
 * loading and its refusals, launches and their error paths, waits with
 * time-outs, abort, faults, console lines, counters, progress and use
 * from several threads.
 *
 * Kernels come from tests/host/kernels/, built by simty-cc into
 * TEST_KERNEL_DIR.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "simty.h"

#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

struct axpb_args {
  uint32_t n;
  int32_t a, b;
  uint32_t in, out;
};

struct fault_args {
  uint32_t victim;
  uint32_t out;
};

static simty_device *open_model(const char *uri)
{
  simty_device *dev = NULL;
  int e = simty_open(uri ? uri : "model", &dev);
  if (e)
    fprintf(stderr, "open: %s\n", simty_last_error(NULL));
  assert_int_equal(e, 0);
  assert_non_null(dev);
  simty_set_console(dev, NULL, NULL);
  return dev;
}

static simty_kernel *load(simty_device *dev, const char *name)
{
  simty_kernel *k = NULL;
  int e = simty_kernel_load(dev, name, &k);
  if (e)
    fprintf(stderr, "load %s: %s\n", name, simty_last_error(dev));
  assert_int_equal(e, 0);
  return k;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs axpb on n elements and checks the result against the CPU. */
static void run_axpb(simty_device *dev, simty_kernel *k, uint32_t n,
                     int32_t a, int32_t b)
{
  int32_t *in = malloc(n * 4), *out = malloc(n * 4);
  assert_non_null(in);
  assert_non_null(out);
  for (uint32_t i = 0; i < n; i++)
    in[i] = (int32_t)(i * 7919u) - 5000;
  struct axpb_args args = {n, a, b, 0, 0};
  assert_int_equal(simty_malloc(dev, n * 4, &args.in), 0);
  assert_int_equal(simty_malloc(dev, n * 4, &args.out), 0);
  assert_int_equal(simty_write(dev, args.in, in, n * 4), 0);
  struct simty_launch_config cfg = {
      .nthreads = n, .args = &args, .args_size = sizeof(args)};
  int e = simty_run(k, &cfg, 20000);
  if (e)
    fprintf(stderr, "run: %s\n", simty_last_error(dev));
  assert_int_equal(e, 0);
  assert_int_equal(simty_read(dev, args.out, out, n * 4), 0);
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(out[i], (int32_t)((uint32_t)a * (uint32_t)in[i] +
                                       (uint32_t)b));
  assert_int_equal(simty_free(dev, args.in), 0);
  assert_int_equal(simty_free(dev, args.out), 0);
  free(in);
  free(out);
}

/* ---- Errors and URIs ---- */

static void test_strerror(void **state)
{
  (void)state;
  static const int codes[] = {
#define SIMTY_X_(name, value, text) value,
      SIMTY_ERRNO_MAP(SIMTY_X_)
#undef SIMTY_X_
  };
  size_t n = sizeof(codes) / sizeof(codes[0]);
  for (size_t i = 0; i < n; i++) {
    assert_true(codes[i] <= 0);
    assert_string_not_equal(simty_strerror(codes[i]), "unknown error");
    for (size_t j = 0; j < i; j++) {
      assert_int_not_equal(codes[i], codes[j]);
      assert_string_not_equal(simty_strerror(codes[i]),
                              simty_strerror(codes[j]));
    }
  }
  assert_string_equal(simty_strerror(SIMTY_ERANGE),
                      "address range outside device memory");
  assert_string_equal(simty_error_name(SIMTY_ETIMEDOUT), "SIMTY_ETIMEDOUT");
  assert_string_equal(simty_strerror(-9999), "unknown error");
  assert_string_equal(simty_error_name(12345), "SIMTY_UNKNOWN");
}

/* The library reports the version of simty_arch.h, in both forms. */
static void test_version(void **state)
{
  (void)state;
  uint32_t code = 0;
  const char *v = simty_version(&code);
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", SIMTY_VERSION_MAJOR,
           SIMTY_VERSION_MINOR, SIMTY_VERSION_PATCH);
  assert_string_equal(v, want);
  assert_string_equal(SIMTY_VERSION_STRING, want);
  assert_int_equal(code, ((uint32_t)SIMTY_VERSION_MAJOR << 16) |
                             ((uint32_t)SIMTY_VERSION_MINOR << 8) |
                             (uint32_t)SIMTY_VERSION_PATCH);
  assert_int_equal(SIMTY_VERSION, SIMTY_VERSION_MAJOR * 10000 +
                                      SIMTY_VERSION_MINOR * 100 +
                                      SIMTY_VERSION_PATCH);
  assert_non_null(simty_version(NULL));
}

static void test_bad_uri(void **state)
{
  (void)state;
  static const char *const bad[] = {
      "nonsense",           "modelx",         "model:extra",
      "model?warps=3",      "model?bogus=1",  "model?warps=",
      "model?lanes=128",    "model?warps",    "model?data_size=6",
      "http://example.com", "tcp://",         "tcp://host",
      "tcp://host:99999",   "usb://",         "usb://zz:1",
      "ftdi://0403",        "ftdi://0403:6010/7",
      /* Truncated after the separator (issue 15). */
      "model:",             "model://",       "sim:",
      "sim://",             "model:?warps=2", "usb:",
      /* The model's study options (issue 18). */
      "model?policy=stack", "model?policy=",  "model?stats=",
      /* The crossbar kind (issue 14). */
      "model?xbar=rot",     "model?xbar=",    "model?xbar=full2",
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    simty_device *dev = (simty_device *)0x1;
    int e = simty_open(bad[i], &dev);
    if (e != SIMTY_EURI)
      fprintf(stderr, "URI '%s': %s (%s)\n", bad[i], simty_error_name(e),
              simty_last_error(NULL));
    assert_int_equal(e, SIMTY_EURI);
    assert_ptr_equal(dev, (simty_device *)0x1); /* untouched */
    assert_true(strlen(simty_last_error(NULL)) > 0);
  }
  assert_int_equal(simty_open("model", NULL), SIMTY_EINVAL);
}

static void test_env_uri(void **state)
{
  (void)state;
  setenv("SIMTY_DEVICE", "model?warps=2&lanes=8", 1);
  simty_device *dev = open_model("");
  struct simty_device_info in;
  assert_int_equal(simty_device_info(dev, &in), 0);
  assert_string_equal(in.backend, "model");
  assert_int_equal(in.warps, 2);
  assert_int_equal(in.lanes, 8);
  assert_string_equal(simty_device_uri(dev), "model?warps=2&lanes=8");
  simty_close(dev);
  setenv("SIMTY_DEVICE", "bogus://", 1);
  assert_int_equal(simty_open(NULL, &dev), SIMTY_EURI);
  unsetenv("SIMTY_DEVICE");
}

static void test_info(void **state)
{
  (void)state;
  simty_device *dev =
      open_model("model?warps=8&lanes=2&code_size=8192&data_size=262144");
  struct simty_device_info in;
  assert_int_equal(simty_device_info(dev, &in), 0);
  assert_int_equal(in.warps, 8);
  assert_int_equal(in.lanes, 2);
  assert_int_equal(in.code_base, SIMTY_CODE_BASE);
  assert_int_equal(in.code_size, 8192);
  assert_int_equal(in.data_base, SIMTY_DATA_BASE);
  assert_int_equal(in.data_size, 262144);
  assert_int_equal(in.counter_count, SIMTY_CTR_COUNT);
  assert_int_equal(in.protocol_version, 0);
  assert_int_equal(simty_device_info(dev, NULL), SIMTY_EINVAL);
  assert_int_equal(simty_device_info(NULL, &in), SIMTY_EINVAL);
  simty_close(dev);
  simty_close(NULL);
}

/* ---- Memory ---- */

static void test_memory_roundtrip(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  uint8_t buf[1000], back[1000];
  for (unsigned i = 0; i < sizeof(buf); i++)
    buf[i] = (uint8_t)(i * 31 + 1);
  /* Unaligned address and length, in both regions, up to the last byte. */
  const uint32_t addrs[] = {SIMTY_DATA_BASE + 3,
                            SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE - 1000,
                            SIMTY_CODE_BASE + 1,
                            SIMTY_CODE_BASE + SIMTY_DEFAULT_CODE_SIZE - 1000};
  for (unsigned i = 0; i < 4; i++) {
    memset(back, 0, sizeof(back));
    assert_int_equal(simty_write(dev, addrs[i], buf, sizeof(buf)), 0);
    assert_int_equal(simty_read(dev, addrs[i], back, sizeof(back)), 0);
    assert_memory_equal(buf, back, sizeof(buf));
  }
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, NULL, 0), 0);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, NULL, 0), 0);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, NULL, 4), SIMTY_EINVAL);
  assert_int_equal(simty_read(NULL, SIMTY_DATA_BASE, back, 4), SIMTY_EINVAL);
  simty_close(dev);
}

static void test_memory_out_of_range(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  uint32_t end = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  uint8_t ones[64], back[64];
  memset(ones, 0xff, sizeof(ones));
  memset(back, 0x11, sizeof(back));
  assert_int_equal(simty_write(dev, end - 32, back, 32), 0);
  /* Straddling the end: refused as a whole, nothing written. */
  assert_int_equal(simty_write(dev, end - 32, ones, 64), SIMTY_ERANGE);
  assert_non_null(strstr(simty_last_error(dev), "past the end of data"));
  assert_int_equal(simty_read(dev, end - 32, back, 32), 0);
  for (int i = 0; i < 32; i++)
    assert_int_equal(back[i], 0x11);
  const uint32_t bad[] = {
      0,                        /* firmware */
      SIMTY_FW_WINDOW - 4,      /* firmware, last word */
      SIMTY_CODE_BASE + SIMTY_DEFAULT_CODE_SIZE, /* past code */
      SIMTY_DATA_BASE - 4,      /* below data */
      end,                      /* past data */
      SIMTY_CONSOLE_ADDR,       /* console: kernels only */
      SIMTY_MMIO_BASE,          /* controller registers */
      0xfffffffc,
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    assert_int_equal(simty_write(dev, bad[i], ones, 4), SIMTY_ERANGE);
    assert_int_equal(simty_read(dev, bad[i], back, 4), SIMTY_ERANGE);
  }
  assert_int_equal(simty_write(dev, 0, ones, 4), SIMTY_ERANGE);
  assert_non_null(strstr(simty_last_error(dev), "firmware"));
  /* Length overflowing 32 bits. */
  assert_int_equal(simty_read(dev, 0xfffffff0u, back, 64), SIMTY_ERANGE);
  simty_close(dev);
}

/* A length near 2^64 wrapped addr + len back into range: the check passed
 * and the copy ran 64 KiB past a 16-byte buffer before the model refused a
 * later chunk (issue 15). The 16 bytes sit at the start of a large
 * patterned block, so an overrun shows even without a sanitizer. */
static void test_memory_length_wraparound(void **state)
{
  (void)state;
  simty_device *dev = open_model("model?data_size=65536");
  const size_t block = 256 * 1024;
  uint8_t *buf = malloc(block);
  assert_non_null(buf);
  memset(buf, 0x5a, block);
  const size_t lens[] = {(size_t)-1, (size_t)-1 - 15,
                         (size_t)0 - SIMTY_DATA_BASE, (size_t)1 << 63};
  const uint32_t addrs[] = {SIMTY_DATA_BASE, SIMTY_DATA_BASE + 16,
                            SIMTY_CODE_BASE, SIMTY_DATA_BASE + 65536};
  for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
    for (size_t j = 0; j < sizeof(addrs) / sizeof(addrs[0]); j++) {
      assert_int_equal(simty_read(dev, addrs[j], buf, lens[i]),
                       SIMTY_ERANGE);
      assert_int_equal(simty_write(dev, addrs[j], buf, lens[i]),
                       SIMTY_ERANGE);
    }
  for (size_t i = 0; i < block; i++)
    if (buf[i] != 0x5a)
      fail_msg("byte %zu of the host buffer was overwritten", i);
  free(buf);
  simty_close(dev);
}

static void test_allocator(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  uint32_t entry, data_end;
  assert_int_equal(simty_kernel_layout(k, &entry, &data_end), 0);
  uint32_t stack_bottom = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE -
                          (16u << SIMTY_STACK_LOG2_DEFAULT);
  uint32_t a[40];
  for (int i = 0; i < 40; i++) {
    assert_int_equal(simty_malloc(dev, (size_t)(i * 37 + 1), &a[i]), 0);
    assert_int_equal(a[i] % 16, 0);
    assert_true(a[i] >= data_end);
    assert_true(a[i] + (uint32_t)(i * 37 + 1) <= stack_bottom);
    for (int j = 0; j < i; j++) { /* no overlap */
      uint32_t ea = a[i] + (uint32_t)(i * 37 + 1);
      uint32_t eb = a[j] + (uint32_t)(j * 37 + 1);
      assert_true(ea <= a[j] || eb <= a[i]);
    }
  }
  uint32_t x;
  assert_int_equal(simty_malloc(dev, 0, &x), SIMTY_EINVAL);
  assert_int_equal(simty_malloc(dev, SIMTY_DEFAULT_DATA_SIZE, &x),
                   SIMTY_ENOSPC);
  assert_int_equal(simty_free(dev, a[3] + 16), SIMTY_EINVAL);
  assert_int_equal(simty_free(dev, a[3]), 0);
  assert_int_equal(simty_free(dev, a[3]), SIMTY_EINVAL); /* double free */
  /* The freed hole is reused by a block that fits it. */
  assert_int_equal(simty_malloc(dev, 3 * 37 + 1, &x), 0);
  assert_int_equal(x, a[3]);
  /* Fill the arena completely: every byte between the kernel's data and
   * the stacks is handed out, in 16-byte grains. */
  uint32_t big;
  size_t got = 0;
  for (int i = 0; i < 40; i++)
    got += ((size_t)(i * 37 + 1) + 15) & ~(size_t)15;
  for (size_t sz = 512 * 1024; sz >= 16; sz /= 2)
    while (simty_malloc(dev, sz, &big) == 0)
      got += sz;
  assert_int_equal(got, stack_bottom - ((data_end + 15) & ~15u));
  assert_int_equal(simty_malloc(dev, 16, &big), SIMTY_ENOSPC);
  assert_true(strlen(simty_last_error(dev)) > 0);
  simty_kernel_free(k);
  simty_close(dev);
}

/* A kernel whose data would overlap live allocations is refused. */
static void test_load_over_allocations(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  uint32_t blocks[64];
  int n = 0;
  while (n < 64 && simty_malloc(dev, 64 * 1024, &blocks[n]) == 0)
    n++;
  assert_true(n > 8);
  simty_kernel *k = NULL;
  assert_int_equal(simty_kernel_load(dev, KPATH("big_data"), &k),
                   SIMTY_ENOSPC);
  assert_null(k);
  assert_non_null(strstr(simty_last_error(dev), "overlap"));
  for (int i = 0; i < n; i++)
    assert_int_equal(simty_free(dev, blocks[i]), 0);
  k = load(dev, KPATH("big_data"));
  simty_kernel_free(k);
  simty_close(dev);
}

static void progress_cb(void *user, uint64_t done, uint64_t total)
{
  uint64_t *p = user;
  assert_true(done > p[0]); /* strictly increasing */
  assert_true(done <= total);
  p[0] = done;
  p[1] = total;
  p[2]++;
}

static void test_progress(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  uint64_t seen[3] = {0, 0, 0};
  assert_int_equal(simty_set_progress(dev, progress_cb, seen), 0);
  size_t len = 300 * 1024;
  uint8_t *buf = calloc(len, 1);
  assert_non_null(buf);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, len), 0);
  assert_int_equal(seen[0], len);
  assert_int_equal(seen[1], len);
  assert_true(seen[2] >= 4);
  /* Small transfers stay quiet. */
  seen[0] = seen[1] = seen[2] = 0;
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, buf, 1024), 0);
  assert_int_equal(seen[2], 0);
  free(buf);
  simty_close(dev);
}

/* ---- Kernels ---- */

static void test_kernel_load_errors(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = NULL;
  /* A missing file is a file error with the errno text, not "device not
   * found" (issue 15). */
  assert_int_equal(simty_kernel_load(dev, TEST_KERNEL_DIR "/missing.elf", &k),
                   SIMTY_EFILE);
  assert_non_null(strstr(simty_last_error(dev), "missing.elf"));
  assert_non_null(strstr(simty_last_error(dev), "No such file or directory"));
  assert_string_equal(simty_strerror(SIMTY_EFILE), "cannot read the file");
  static const char junk[] = "this is not an ELF file at all, just text";
  assert_int_equal(simty_kernel_load_bytes(dev, junk, sizeof(junk), &k),
                   SIMTY_EBADELF);
  assert_true(strlen(simty_last_error(dev)) > 0);
  assert_int_equal(simty_kernel_load_bytes(dev, junk, 0, &k), SIMTY_EBADELF);
  /* A host executable: right format family, wrong machine. */
  assert_int_equal(simty_kernel_load(dev, "/proc/self/exe", &k),
                   SIMTY_EBADELF);
  /* A truncated kernel. */
  FILE *f = fopen(KPATH("axpb"), "rb");
  assert_non_null(f);
  uint8_t head[200];
  assert_int_equal(fread(head, 1, sizeof(head), f), sizeof(head));
  fclose(f);
  assert_int_equal(simty_kernel_load_bytes(dev, head, sizeof(head), &k),
                   SIMTY_EBADELF);
  assert_null(k);
  assert_int_equal(simty_kernel_load(dev, NULL, &k), SIMTY_EINVAL);
  assert_int_equal(simty_kernel_load(NULL, KPATH("axpb"), &k), SIMTY_EINVAL);
  simty_close(dev);
}

/* The loader checks a file's type, size and magic before reading it
 * whole: a FIFO with no writer used to block forever, /dev/zero to read
 * until memory ran out, a huge sparse file to take seconds and gigabytes
 * (issue 15). Each now fails at once; the alarm turns a hang into a
 * failure. */
static void test_kernel_file_checks(void **state)
{
  (void)state;
  char dir[] = "/tmp/simty-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char fifo[64], sparse[64], tiny[64], text[64];
  snprintf(fifo, sizeof(fifo), "%s/fifo.elf", dir);
  snprintf(sparse, sizeof(sparse), "%s/sparse.elf", dir);
  snprintf(tiny, sizeof(tiny), "%s/tiny.elf", dir);
  snprintf(text, sizeof(text), "%s/text.elf", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  /* 3 GiB, all a hole but for an ELF magic. */
  int fd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "\177ELF", 4), 4);
  assert_int_equal(ftruncate(fd, (off_t)3 << 30), 0);
  close(fd);
  FILE *f = fopen(tiny, "wb");
  assert_non_null(f);
  fputs("\177E", f);
  fclose(f);
  f = fopen(text, "wb");
  assert_non_null(f);
  for (int i = 0; i < 10000; i++)
    fputs("not an ELF file\n", f);
  fclose(f);

  simty_device *dev = open_model(NULL);
  simty_kernel *k = NULL;
  alarm(20);
  double t0 = now_s();
  assert_int_equal(simty_kernel_load(dev, fifo, &k), SIMTY_EFILE);
  assert_non_null(strstr(simty_last_error(dev), "not a regular file"));
  assert_non_null(strstr(simty_last_error(dev), "FIFO"));
  assert_int_equal(simty_kernel_load(dev, "/dev/zero", &k), SIMTY_EFILE);
  assert_non_null(strstr(simty_last_error(dev), "character device"));
  assert_int_equal(simty_kernel_load(dev, dir, &k), SIMTY_EFILE);
  assert_non_null(strstr(simty_last_error(dev), "directory"));
  assert_int_equal(simty_kernel_load(dev, sparse, &k), SIMTY_ETOOBIG);
  assert_non_null(strstr(simty_last_error(dev), "larger than any"));
  assert_int_equal(simty_kernel_load(dev, tiny, &k), SIMTY_EBADELF);
  assert_int_equal(simty_kernel_load(dev, text, &k), SIMTY_EBADELF);
  assert_non_null(strstr(simty_last_error(dev), "not an ELF file"));
  /* The same bound for an image in memory, before it is copied. */
  size_t huge = (size_t)SIMTY_CODE_WINDOW + SIMTY_DATA_WINDOW + (8u << 20);
  uint8_t *image = calloc(1, huge);
  assert_non_null(image);
  memcpy(image, "\177ELF", 4);
  assert_int_equal(simty_kernel_load_bytes(dev, image, huge, &k),
                   SIMTY_ETOOBIG);
  free(image);
  assert_true(now_s() - t0 < 2.0);
  alarm(0);
  assert_null(k);
  /* A good kernel still loads. */
  simty_kernel_free(load(dev, KPATH("axpb")));
  simty_close(dev);
  unlink(fifo);
  unlink(sparse);
  unlink(tiny);
  unlink(text);
  rmdir(dir);
}

static void test_kernel_too_big(void **state)
{
  (void)state;
  simty_kernel *k = NULL;
  /* Data: 128 KiB of .bss on a device with 64 KiB of data memory. */
  simty_device *dev = open_model("model?data_size=65536");
  assert_int_equal(simty_kernel_load(dev, KPATH("big_data"), &k),
                   SIMTY_ETOOBIG);
  assert_non_null(strstr(simty_last_error(dev), "data"));
  simty_close(dev);
  /* Code: a device with 256 bytes of code memory. */
  dev = open_model("model?code_size=256");
  assert_int_equal(simty_kernel_load(dev, KPATH("axpb"), &k), SIMTY_ETOOBIG);
  assert_non_null(strstr(simty_last_error(dev), "code"));
  simty_close(dev);
  /* Data that reaches the stack region of 16 threads x 1 KiB. */
  dev = open_model("model?data_size=139264"); /* 136 KiB */
  assert_int_equal(simty_kernel_load(dev, KPATH("big_data"), &k),
                   SIMTY_ETOOBIG);
  assert_non_null(strstr(simty_last_error(dev), "stack"));
  simty_close(dev);
  assert_null(k);
}

static void test_symbols(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  uint32_t addr = 0, size = 0, entry = 0;
  assert_int_equal(simty_kernel_symbol(k, "calls", &addr, &size), 0);
  assert_int_equal(size, 4);
  assert_true(addr >= SIMTY_DATA_BASE);
  assert_int_equal(simty_kernel_symbol(k, "main", &addr, NULL), 0);
  assert_int_equal(simty_kernel_layout(k, &entry, NULL), 0);
  assert_true(addr >= SIMTY_CODE_BASE && entry >= SIMTY_CODE_BASE);
  assert_int_equal(simty_kernel_symbol(k, "no_such_symbol", &addr, &size),
                   SIMTY_ENOSYM);
  assert_int_equal(simty_kernel_symbol(k, NULL, &addr, &size), SIMTY_EINVAL);
  int32_t calls;
  assert_int_equal(simty_kernel_symbol(k, "calls", &addr, NULL), 0);
  assert_int_equal(simty_read(dev, addr, &calls, 4), 0);
  assert_int_equal(calls, 100);
  simty_kernel_free(k);
  simty_close(dev);
}

/* ---- Launches ---- */

static void test_run_many_threads(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  run_axpb(dev, k, 1000, 3, -7); /* 1000 threads on 16 hardware threads */
  run_axpb(dev, k, 1, -1, 5);
  run_axpb(dev, k, 17, 2, 0);
  /* .data is set up per load, not per launch. */
  uint32_t addr;
  int32_t calls;
  assert_int_equal(simty_kernel_symbol(k, "calls", &addr, NULL), 0);
  assert_int_equal(simty_read(dev, addr, &calls, 4), 0);
  assert_int_equal(calls, 103);
  simty_kernel_free(k);
  k = load(dev, KPATH("axpb"));
  assert_int_equal(simty_read(dev, addr, &calls, 4), 0);
  assert_int_equal(calls, 100);
  simty_kernel_free(k);
  simty_close(dev);
}

static void test_launch_errors(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  struct axpb_args args = {0, 1, 1, 0, 0};
  struct simty_launch_config cfg = {
      .nthreads = 0, .args = &args, .args_size = sizeof(args)};
  assert_int_equal(simty_wait(dev, 0), SIMTY_ENOLAUNCH);
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL); /* zero threads */
  assert_non_null(strstr(simty_last_error(dev), "thread count 0"));
  cfg.nthreads = SIMTY_MAX_THREADS + 1u;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL);
  cfg.nthreads = 4;
  cfg.stack_log2 = 21;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL);
  cfg.stack_log2 = 5;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL);
  /* 16 threads x 2^16 bytes = 1 MiB: the stacks cover the kernel data. */
  cfg.stack_log2 = 16;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ESTACK);
  cfg.stack_log2 = 0;
  cfg.args_size = 0;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL);
  cfg.args_size = 70000;
  assert_int_equal(simty_launch(k, &cfg), SIMTY_EINVAL);
  cfg.args_size = sizeof(args);
  assert_int_equal(simty_launch(NULL, &cfg), SIMTY_EINVAL);
  assert_int_equal(simty_launch(k, NULL), SIMTY_EINVAL);
  /* A second launch before the first ended is queued behind it; a
   * kernel load waits for neither: it is refused. */
  assert_int_equal(simty_launch(k, &cfg), 0);
  assert_int_equal(simty_launch(k, &cfg), 0);
  simty_kernel *k2 = NULL;
  assert_int_equal(simty_kernel_load(dev, KPATH("axpb"), &k2), SIMTY_EBUSY);
  assert_int_equal(simty_wait(dev, 5000), 0);
  assert_int_equal(simty_wait(dev, 0), 0); /* the last outcome again */
  /* Stale: another kernel loaded since. */
  k2 = load(dev, KPATH("spin"));
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ESTALE);
  simty_kernel_free(k2);
  simty_kernel_free(k);
  simty_close(dev);
}

/* The stream's calls on the model: events, ordering of copies, argument
 * checks. (tests/host/test_stream.c runs the same scenarios on the
 * simulated board and the model.) */
static void test_stream_api(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  uint32_t buf;
  assert_int_equal(simty_malloc(dev, 64, &buf), 0);
  int32_t in[16], out[16];
  for (int i = 0; i < 16; i++)
    in[i] = i;
  simty_event e1 = 0, e2 = 0, e3 = 0;
  assert_int_equal(simty_write_async(dev, buf, in, sizeof(in), &e1), 0);
  struct axpb_args args = {16, 2, 3, buf, buf};
  struct simty_launch_config cfg = {
      .nthreads = 16, .args = &args, .args_size = sizeof(args)};
  assert_int_equal(simty_launch_async(k, &cfg, &e2), 0);
  /* the host buffer may change at once: the write took a copy */
  memset(in, 0x55, sizeof(in));
  assert_int_equal(simty_read_async(dev, buf, out, sizeof(out), &e3), 0);
  assert_true(e1 < e2 && e2 < e3);
  int q = simty_event_query(dev, e3); /* asks the device once */
  assert_true(q == 0 || q == SIMTY_EBUSY);
  assert_int_equal(simty_event_wait(dev, e3, 5000), 0);
  for (int i = 0; i < 16; i++)
    assert_int_equal(out[i], 2 * i + 3);
  assert_int_equal(simty_event_query(dev, e2), 0);
  assert_int_equal(simty_event_query(dev, 0), 0);
  assert_int_equal(simty_event_query(dev, e3 + 1), SIMTY_EINVAL);
  assert_int_equal(simty_event_wait(dev, e3 + 100, 10), SIMTY_EINVAL);
  assert_int_equal(simty_event_query(NULL, e1), SIMTY_EINVAL);
  assert_int_equal(simty_write_async(dev, 0, in, 4, NULL), SIMTY_ERANGE);
  assert_int_equal(simty_read_async(dev, buf, NULL, 4, NULL), SIMTY_EINVAL);
  assert_int_equal(simty_sync(dev, 5000), 0);
  simty_event fev = 1;
  assert_int_equal(simty_get_fault_event(dev, &fev), 0);
  assert_int_equal(fev, 0);
  simty_kernel_free(k);
  simty_close(dev);
}

static void test_closed_device(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  simty_close(dev);
  struct simty_launch_config cfg = {.nthreads = 1};
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ECLOSED);
  assert_int_equal(simty_run(k, &cfg, 100), SIMTY_ECLOSED);
  uint32_t addr;
  assert_int_equal(simty_kernel_symbol(k, "calls", &addr, NULL), 0);
  simty_kernel_free(k);
}

static void test_close_while_running(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("spin"));
  struct simty_launch_config cfg = {.nthreads = 64};
  assert_int_equal(simty_launch(k, &cfg), 0);
  assert_int_equal(simty_wait(dev, 10), SIMTY_ETIMEDOUT);
  simty_close(dev); /* aborts; must not hang or leak */
  simty_kernel_free(k);
}

static void test_wait_timeout_and_abort(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("spin"));
  struct simty_launch_config cfg = {.nthreads = 40};
  assert_int_equal(simty_launch(k, &cfg), 0);
  double t0 = now_s();
  assert_int_equal(simty_wait(dev, 100), SIMTY_ETIMEDOUT);
  double dt = now_s() - t0;
  assert_true(dt >= 0.095 && dt < 2.0);
  assert_non_null(strstr(simty_last_error(dev), "still runs"));
  assert_int_equal(simty_wait(dev, 0), SIMTY_ETIMEDOUT); /* poll */
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(simty_wait(dev, 1000), SIMTY_EFAULT);
  struct simty_fault f;
  assert_int_equal(simty_get_fault(dev, &f), 0);
  assert_int_equal(f.cause, SIMTY_FAULT_ABORTED);
  assert_int_equal(simty_abort(dev), 0); /* nothing running: no effect */
  /* simty_run aborts by itself after its time-out. */
  t0 = now_s();
  assert_int_equal(simty_run(k, &cfg, 50), SIMTY_ETIMEDOUT);
  assert_true(now_s() - t0 < 2.0);
  assert_non_null(strstr(simty_last_error(dev), "aborted"));
  assert_int_equal(simty_get_fault(dev, &f), 0);
  assert_int_equal(f.cause, SIMTY_FAULT_ABORTED);
  /* Device-side time-out in cycles. */
  cfg.timeout_cycles = 5000;
  assert_int_equal(simty_run(k, &cfg, 10000), SIMTY_EFAULT);
  assert_int_equal(simty_get_fault(dev, &f), 0);
  assert_int_equal(f.cause, SIMTY_FAULT_TIMEOUT);
  assert_non_null(strstr(simty_last_error(dev), "timeout"));
  simty_kernel_free(k);
  /* The device still works. */
  k = load(dev, KPATH("axpb"));
  run_axpb(dev, k, 100, 5, 1);
  simty_kernel_free(k);
  simty_close(dev);
}

static void test_fault_details(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("fault"));
  uint32_t out;
  assert_int_equal(simty_malloc(dev, 64 * 4, &out), 0);
  uint32_t zeros[64] = {0};
  assert_int_equal(simty_write(dev, out, zeros, sizeof(zeros)), 0);
  struct fault_args args = {37, out};
  struct simty_launch_config cfg = {
      .nthreads = 64, .args = &args, .args_size = sizeof(args)};
  assert_int_equal(simty_run(k, &cfg, 10000), SIMTY_EFAULT);
  struct simty_fault f;
  assert_int_equal(simty_get_fault(dev, &f), 0);
  assert_int_equal(f.cause, SIMTY_FAULT_STORE_OUT_OF_RANGE);
  assert_int_equal(f.tid, 37);
  assert_int_equal(f.hart % 4, 37 % 4); /* lane = tid % LANES */
  assert_int_equal(f.addr, 0);
  uint32_t entry;
  simty_kernel_layout(k, &entry, NULL);
  assert_true(f.pc >= SIMTY_CODE_BASE &&
              f.pc < SIMTY_CODE_BASE + SIMTY_DEFAULT_CODE_SIZE);
  assert_non_null(strstr(simty_last_error(dev), "store_out_of_range"));
  char text[160];
  simty_fault_format(&f, text, sizeof(text));
  assert_non_null(strstr(text, "store_out_of_range (cause 7) pc=0x"));
  assert_non_null(strstr(text, "tid=37 addr=0x00000000"));
  assert_string_equal(simty_fault_name(SIMTY_FAULT_EBREAK), "ebreak");
  assert_string_equal(simty_fault_name(99), "unknown");
  assert_int_equal(simty_wait(dev, 0), SIMTY_EFAULT); /* outcome kept */
  /* Memory keeps what the launch wrote before the fault: thread 37's
   * block is dispatched only once blocks of the first wave (threads
   * 0..15, equal work) have ended. */
  uint32_t got[64];
  assert_int_equal(simty_read(dev, out, got, sizeof(got)), 0);
  for (uint32_t t = 0; t < 16; t++)
    assert_int_equal(got[t], t + 1);
  /* The device stays usable: a launch where nobody faults. */
  args.victim = 1000;
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  assert_int_equal(simty_get_fault(dev, &f), 0);
  assert_int_equal(f.cause, SIMTY_FAULT_NONE);
  assert_int_equal(simty_read(dev, out, got, sizeof(got)), 0);
  for (uint32_t t = 0; t < 64; t++)
    assert_int_equal(got[t], t + 1);
  simty_kernel_free(k);
  simty_close(dev);
}

/* ---- Console ---- */

struct lines {
  char text[64][48];
  uint32_t tid[64];
  int n;
};

static void collect(void *user, uint32_t tid, const char *line, size_t len)
{
  struct lines *l = user;
  assert_true(len < sizeof(l->text[0]));
  assert_int_equal(line[len], '\0');
  assert_int_equal(strlen(line), len);
  if (l->n < 64) {
    memcpy(l->text[l->n], line, len + 1);
    l->tid[l->n++] = tid;
  }
}

static void test_console(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("hello"));
  struct lines l;
  memset(&l, 0, sizeof(l));
  assert_int_equal(simty_set_console(dev, collect, &l), 0);
  struct simty_launch_config cfg = {.nthreads = 6};
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  assert_int_equal(l.n, 9); /* 6 full lines + 3 unfinished */
  int seen_full[6] = {0}, seen_tail[6] = {0};
  for (int i = 0; i < l.n; i++) {
    char want[48];
    snprintf(want, sizeof(want), "hello from %u of 6", l.tid[i]);
    if (strcmp(l.text[i], want) == 0) {
      seen_full[l.tid[i]]++;
      continue;
    }
    snprintf(want, sizeof(want), "tail %u", l.tid[i]);
    assert_string_equal(l.text[i], want);
    seen_tail[l.tid[i]]++;
    /* Unfinished lines come last, in thread order. */
    assert_true(i >= 6);
  }
  for (int t = 0; t < 6; t++) {
    assert_int_equal(seen_full[t], 1);
    assert_int_equal(seen_tail[t], t & 1);
  }
  /* NULL drops the output. */
  memset(&l, 0, sizeof(l));
  assert_int_equal(simty_set_console(dev, NULL, NULL), 0);
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  assert_int_equal(l.n, 0);
  simty_kernel_free(k);
  simty_close(dev);
}

/* ---- Counters ---- */

/* The model's reconvergence policies and statistics (URI options policy=
 * and stats=): same results under every policy, one JSON line per
 * launch with the policy's name and the counters. */
static void test_model_policies(void **state)
{
  (void)state;
  char path[] = "/tmp/simty_host_stats_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  static const char *const policies[] = {"simty", "pc", "ipdom"};
  uint64_t thread_insts[3];
  for (unsigned i = 0; i < 3; i++) {
    char uri[128];
    snprintf(uri, sizeof(uri), "model?policy=%s&stats=%s", policies[i],
             path);
    simty_device *dev = open_model(uri);
    simty_kernel *k = load(dev, KPATH("axpb"));
    run_axpb(dev, k, 61, 3, -7);
    struct simty_counters c;
    assert_int_equal(simty_get_counters(dev, &c), 0);
    thread_insts[i] = c.thread_insts;
    assert_int_equal(thread_insts[i], thread_insts[0]);
    simty_kernel_free(k);
    simty_close(dev);
  }
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[4096];
  for (unsigned i = 0; i < 3; i++) {
    assert_non_null(fgets(line, sizeof(line), f));
    char want[64];
    snprintf(want, sizeof(want), "{\"policy\": \"%s\", \"warps\": 4, ",
             policies[i]);
    assert_memory_equal(line, want, strlen(want));
    assert_non_null(strstr(line, "\"defuse\": {\"bins\": [1, 2, 3, 4, 8"));
  }
  assert_null(fgets(line, sizeof(line), f));
  fclose(f);
  unlink(path);
}

/* The crossbar kind (URI option xbar=): same results and requests
 * under full and rotate. */
static void test_model_xbar(void **state)
{
  (void)state;
  static const char *const uris[] = {"model?xbar=full", "model?xbar=rotate",
                                     "model?lanes=8&xbar=rotate"};
  struct simty_counters c[3];
  for (unsigned i = 0; i < 3; i++) {
    simty_device *dev = open_model(uris[i]);
    simty_kernel *k = load(dev, KPATH("axpb"));
    run_axpb(dev, k, 61, 3, -7);
    assert_int_equal(simty_get_counters(dev, &c[i]), 0);
    simty_kernel_free(k);
    simty_close(dev);
  }
  assert_int_equal(c[1].thread_insts, c[0].thread_insts);
  assert_int_equal(c[1].mem_requests, c[0].mem_requests);
  assert_int_equal(c[2].mem_requests, c[0].mem_requests);
}

static void test_counters(void **state)
{
  (void)state;
  simty_device *dev = open_model(NULL);
  simty_kernel *k = load(dev, KPATH("axpb"));
  run_axpb(dev, k, 64, 2, 3);
  struct simty_counters c;
  assert_int_equal(simty_get_counters(dev, &c), 0);
  assert_int_equal(c.lanes, 4);
  assert_true(c.cycles >= c.warp_insts);
  assert_true(c.warp_insts > 0);
  /* 64 threads in full blocks without divergence after the i < n test. */
  assert_true(c.thread_insts <= c.warp_insts * 4);
  assert_true(c.thread_insts >= c.warp_insts);
  assert_true(c.mem_requests >= 64 * 2);
  assert_int_equal(simty_counter_value(&c, SIMTY_CTR_warp_insts),
                   c.warp_insts);
  assert_int_equal(simty_counter_value(&c, 99), 0);
  assert_string_equal(simty_counter_name(0), "cycles");
  assert_string_equal(simty_counter_name(SIMTY_CTR_affine_vectors),
                      "affine_vectors");
  assert_null(simty_counter_name(SIMTY_CTR_COUNT));
  double ipc = simty_counters_ipc(&c);
  assert_true(ipc > 0.0 && ipc <= 1.0);
  assert_true(simty_counters_simd_efficiency(&c) > 0.0);

  char text[2048];
  int n = simty_counters_format(&c, text, sizeof(text));
  assert_int_equal((size_t)n, strlen(text));
  /* Names in SIMTY_COUNTER_MAP order, then ipc and simd_efficiency. */
  const char *p = text;
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++) {
    char want[64];
    snprintf(want, sizeof(want), "%s = %llu\n", simty_counter_name(i),
             (unsigned long long)simty_counter_value(&c, i));
    assert_memory_equal(p, want, strlen(want));
    p += strlen(want);
  }
  char tail[80];
  snprintf(tail, sizeof(tail), "ipc = %.3f\nsimd_efficiency = %.3f\n", ipc,
           simty_counters_simd_efficiency(&c));
  assert_string_equal(p, tail);
  /* Truncation behaves like snprintf. */
  char small[16];
  assert_int_equal(simty_counters_format(&c, small, sizeof(small)), n);
  assert_int_equal(strlen(small), sizeof(small) - 1);
  assert_int_equal(simty_counters_format(&c, NULL, 0), n);
  /* Reset per launch. */
  uint64_t before = c.thread_insts;
  run_axpb(dev, k, 4, 1, 1);
  assert_int_equal(simty_get_counters(dev, &c), 0);
  assert_true(c.thread_insts < before);
  simty_kernel_free(k);
  simty_close(dev);
}

/* ---- Threads ---- */

static void *worker(void *arg)
{
  simty_device *dev = arg;
  /* Each thread: its own block, written and read back many times. */
  uint32_t addr;
  if (simty_malloc(dev, 4096, &addr))
    return (void *)1;
  uint8_t buf[4096], back[4096];
  for (int round = 0; round < 50; round++) {
    for (unsigned i = 0; i < sizeof(buf); i++)
      buf[i] = (uint8_t)(i + round + addr);
    if (simty_write(dev, addr, buf, sizeof(buf)) ||
        simty_read(dev, addr, back, sizeof(back)) ||
        memcmp(buf, back, sizeof(buf)))
      return (void *)1;
  }
  return NULL;
}

static void test_threads(void **state)
{
  (void)state;
  simty_device *shared = open_model(NULL);
  simty_device *own[2] = {open_model(NULL), open_model(NULL)};
  pthread_t th[6];
  for (int i = 0; i < 4; i++)
    assert_int_equal(pthread_create(&th[i], NULL, worker, shared), 0);
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&th[4 + i], NULL, worker, own[i]), 0);
  for (int i = 0; i < 6; i++) {
    void *r;
    assert_int_equal(pthread_join(th[i], &r), 0);
    assert_null(r);
  }
  simty_close(shared);
  simty_close(own[0]);
  simty_close(own[1]);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strerror),
      cmocka_unit_test(test_version),
      cmocka_unit_test(test_bad_uri),
      cmocka_unit_test(test_env_uri),
      cmocka_unit_test(test_info),
      cmocka_unit_test(test_memory_roundtrip),
      cmocka_unit_test(test_memory_out_of_range),
      cmocka_unit_test(test_memory_length_wraparound),
      cmocka_unit_test(test_allocator),
      cmocka_unit_test(test_load_over_allocations),
      cmocka_unit_test(test_progress),
      cmocka_unit_test(test_kernel_load_errors),
      cmocka_unit_test(test_kernel_file_checks),
      cmocka_unit_test(test_kernel_too_big),
      cmocka_unit_test(test_symbols),
      cmocka_unit_test(test_run_many_threads),
      cmocka_unit_test(test_launch_errors),
      cmocka_unit_test(test_stream_api),
      cmocka_unit_test(test_closed_device),
      cmocka_unit_test(test_close_while_running),
      cmocka_unit_test(test_wait_timeout_and_abort),
      cmocka_unit_test(test_fault_details),
      cmocka_unit_test(test_console),
      cmocka_unit_test(test_counters),
      cmocka_unit_test(test_model_policies),
      cmocka_unit_test(test_model_xbar),
      cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests_name("host-api", tests, NULL, NULL);
}
