/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_transport_hw.c - the ftdi:// and usb:// transports with libftdi1
 * and libusb-1.0 replaced by mocks (-Wl,--wrap=...). Behind the mocked
 * chip sits the fake device (the link protocol over the reference model)
 * on a socket pair, so whole API calls run over the mocked transports.
 *
 * Checked: URI parsing; the configuration the transports apply (interface,
 * baud rate, 8N1, no flow control, 1 ms latency timer, kernel driver
 * detach and reattach, interface claim and release); device not found;
 * busy interface; partial transfers (short writes, writes that time out
 * after moving part of the data, reads that return bytes a few at a
 * time); read time-outs; bad CRC and wrong sequence numbers on responses;
 * unplugging mid-session.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <ftdi.h>
#include <libusb.h>

#include "fake_device.h"
#include "simty.h"
#include "simty_transport.h"

#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

/* ---- The chip behind the mocks: a fake device on a socket pair ---- */

static struct {
  struct fake_device dev;
  int fd;               /* host end */
  int running;
  /* Injected behaviour. */
  int open_rc;          /* ftdi_usb_open_desc_index / claim result */
  int max_write;        /* bytes moved per write call (0: all) */
  int write_timeout_partial; /* USB: report TIMEOUT after a partial write */
  int max_read;         /* bytes returned per read call (0: all) */
  int read_timeouts;    /* reads that find nothing first */
  int unplug_after;     /* data calls before the device vanishes (0: never) */
  int unplugged;
  /* Observed. */
  int writes, reads, partial_writes;
  unsigned baud, latency, flow, bits, stop, parity;
  int interface, vid, pid;
  char serial[64];
  int detach_mode, closed, freed, reset, flushed;
  int auto_detach, claimed, released, usb_closed, usb_exited;
} chip;

static struct ftdi_context the_ftdi;

static void chip_start(void)
{
  memset(&chip, 0, sizeof(chip));
  chip.dev.warps = 4;
  chip.dev.lanes = 4;
  assert_int_equal(fake_device_start_fd(&chip.dev, &chip.fd), 0);
  chip.running = 1;
}

static void chip_stop(void)
{
  if (!chip.running)
    return;
  close(chip.fd);
  fake_device_stop(&chip.dev);
  chip.running = 0;
}

/* Moves host bytes to the device; returns bytes moved or -1 unplugged. */
static int chip_write(const unsigned char *buf, int size)
{
  if (chip.unplug_after && ++chip.writes + chip.reads >= chip.unplug_after)
    chip.unplugged = 1;
  if (chip.unplugged)
    return -1;
  int n = chip.max_write && size > chip.max_write ? chip.max_write : size;
  if (n < size)
    chip.partial_writes++;
  ssize_t w = send(chip.fd, buf, (size_t)n, MSG_NOSIGNAL);
  return w < 0 ? -1 : (int)w;
}

/* Device bytes to the host, waiting up to wait_ms for the first. */
static int chip_read(unsigned char *buf, int size, int wait_ms)
{
  if (chip.unplug_after && ++chip.reads + chip.writes >= chip.unplug_after)
    chip.unplugged = 1;
  if (chip.unplugged)
    return -1;
  if (chip.read_timeouts > 0) {
    chip.read_timeouts--;
    return 0;
  }
  struct pollfd pfd = {chip.fd, POLLIN, 0};
  if (poll(&pfd, 1, wait_ms) <= 0)
    return 0;
  int n = chip.max_read && size > chip.max_read ? chip.max_read : size;
  ssize_t r = recv(chip.fd, buf, (size_t)n, MSG_DONTWAIT);
  return r < 0 ? 0 : (int)r;
}

/* ---- libftdi1 mocks ---- */

struct ftdi_context *__wrap_ftdi_new(void);
struct ftdi_context *__wrap_ftdi_new(void)
{
  memset(&the_ftdi, 0, sizeof(the_ftdi));
  return &the_ftdi;
}

void __wrap_ftdi_free(struct ftdi_context *f);
void __wrap_ftdi_free(struct ftdi_context *f)
{
  assert_ptr_equal(f, &the_ftdi);
  chip.freed++;
}

int __wrap_ftdi_set_interface(struct ftdi_context *f, enum ftdi_interface i);
int __wrap_ftdi_set_interface(struct ftdi_context *f, enum ftdi_interface i)
{
  (void)f;
  chip.interface = i;
  return 0;
}

int __wrap_ftdi_usb_open_desc_index(struct ftdi_context *f, int vendor,
                                    int product, const char *description,
                                    const char *serial, unsigned int index);
int __wrap_ftdi_usb_open_desc_index(struct ftdi_context *f, int vendor,
                                    int product, const char *description,
                                    const char *serial, unsigned int index)
{
  (void)description;
  (void)index;
  chip.vid = vendor;
  chip.pid = product;
  snprintf(chip.serial, sizeof(chip.serial), "%s", serial ? serial : "");
  chip.detach_mode = f->module_detach_mode;
  return chip.open_rc;
}

#define FTDI_SETTER(name, field, type)                                       \
  int __wrap_##name(struct ftdi_context *f, type v);                         \
  int __wrap_##name(struct ftdi_context *f, type v)                          \
  {                                                                          \
    (void)f;                                                                 \
    chip.field = (unsigned)v;                                                \
    return chip.unplugged ? -666 : 0;                                        \
  }
FTDI_SETTER(ftdi_set_baudrate, baud, int)
FTDI_SETTER(ftdi_set_latency_timer, latency, unsigned char)
FTDI_SETTER(ftdi_setflowctrl, flow, int)

int __wrap_ftdi_set_line_property(struct ftdi_context *f,
                                  enum ftdi_bits_type bits,
                                  enum ftdi_stopbits_type sbit,
                                  enum ftdi_parity_type parity);
int __wrap_ftdi_set_line_property(struct ftdi_context *f,
                                  enum ftdi_bits_type bits,
                                  enum ftdi_stopbits_type sbit,
                                  enum ftdi_parity_type parity)
{
  (void)f;
  chip.bits = bits;
  chip.stop = sbit;
  chip.parity = parity;
  return 0;
}

int __wrap_ftdi_usb_reset(struct ftdi_context *f);
int __wrap_ftdi_usb_reset(struct ftdi_context *f)
{
  (void)f;
  chip.reset++;
  return 0;
}

int __wrap_ftdi_tcioflush(struct ftdi_context *f);
int __wrap_ftdi_tcioflush(struct ftdi_context *f)
{
  (void)f;
  chip.flushed++;
  return 0;
}

int __wrap_ftdi_usb_close(struct ftdi_context *f);
int __wrap_ftdi_usb_close(struct ftdi_context *f)
{
  (void)f;
  chip.closed++;
  return 0;
}

const char *__wrap_ftdi_get_error_string(struct ftdi_context *f);
const char *__wrap_ftdi_get_error_string(struct ftdi_context *f)
{
  (void)f;
  return "mock error";
}

int __wrap_ftdi_write_data(struct ftdi_context *f, const unsigned char *buf,
                           int size);
int __wrap_ftdi_write_data(struct ftdi_context *f, const unsigned char *buf,
                           int size)
{
  (void)f;
  int n = chip_write(buf, size);
  return n < 0 ? -666 : n;
}

int __wrap_ftdi_read_data(struct ftdi_context *f, unsigned char *buf,
                          int size);
int __wrap_ftdi_read_data(struct ftdi_context *f, unsigned char *buf,
                          int size)
{
  /* The real call waits up to usb_read_timeout for data. */
  int n = chip_read(buf, size, f->usb_read_timeout);
  return n < 0 ? -666 : n;
}

/* ---- libusb-1.0 mocks ---- */

static libusb_context *const the_ctx = (libusb_context *)0x1000;
static libusb_device_handle *const the_handle =
    (libusb_device_handle *)0x2000;
static libusb_device *const the_device = (libusb_device *)0x3000;

int __wrap_libusb_init(libusb_context **ctx);
int __wrap_libusb_init(libusb_context **ctx)
{
  *ctx = the_ctx;
  return 0;
}

void __wrap_libusb_exit(libusb_context *ctx);
void __wrap_libusb_exit(libusb_context *ctx)
{
  assert_ptr_equal(ctx, the_ctx);
  chip.usb_exited++;
}

libusb_device_handle *__wrap_libusb_open_device_with_vid_pid(
    libusb_context *ctx, uint16_t vid, uint16_t pid);
libusb_device_handle *__wrap_libusb_open_device_with_vid_pid(
    libusb_context *ctx, uint16_t vid, uint16_t pid)
{
  (void)ctx;
  chip.vid = vid;
  chip.pid = pid;
  return chip.open_rc == -3 ? NULL : the_handle;
}

void __wrap_libusb_close(libusb_device_handle *h);
void __wrap_libusb_close(libusb_device_handle *h)
{
  assert_ptr_equal(h, the_handle);
  chip.usb_closed++;
}

int __wrap_libusb_set_auto_detach_kernel_driver(libusb_device_handle *h,
                                                int enable);
int __wrap_libusb_set_auto_detach_kernel_driver(libusb_device_handle *h,
                                                int enable)
{
  (void)h;
  chip.auto_detach = enable;
  return 0;
}

int __wrap_libusb_claim_interface(libusb_device_handle *h, int iface);
int __wrap_libusb_claim_interface(libusb_device_handle *h, int iface)
{
  (void)h;
  chip.interface = iface;
  if (chip.open_rc)
    return chip.open_rc;
  chip.claimed++;
  return 0;
}

int __wrap_libusb_release_interface(libusb_device_handle *h, int iface);
int __wrap_libusb_release_interface(libusb_device_handle *h, int iface)
{
  (void)h;
  assert_int_equal(iface, chip.interface);
  chip.released++;
  return 0;
}

libusb_device *__wrap_libusb_get_device(libusb_device_handle *h);
libusb_device *__wrap_libusb_get_device(libusb_device_handle *h)
{
  (void)h;
  return the_device;
}

static struct libusb_endpoint_descriptor endpoints[3];
static struct libusb_interface_descriptor altsetting;
static struct libusb_interface interfaces[1];
static struct libusb_config_descriptor config;

int __wrap_libusb_get_active_config_descriptor(
    libusb_device *d, struct libusb_config_descriptor **out);
int __wrap_libusb_get_active_config_descriptor(
    libusb_device *d, struct libusb_config_descriptor **out)
{
  assert_ptr_equal(d, the_device);
  /* An interrupt endpoint first, then bulk IN 0x81 and bulk OUT 0x02. */
  memset(endpoints, 0, sizeof(endpoints));
  endpoints[0].bEndpointAddress = 0x83;
  endpoints[0].bmAttributes = LIBUSB_TRANSFER_TYPE_INTERRUPT;
  endpoints[1].bEndpointAddress = 0x81;
  endpoints[1].bmAttributes = LIBUSB_TRANSFER_TYPE_BULK;
  endpoints[1].wMaxPacketSize = 64;
  endpoints[2].bEndpointAddress = 0x02;
  endpoints[2].bmAttributes = LIBUSB_TRANSFER_TYPE_BULK;
  endpoints[2].wMaxPacketSize = 64;
  altsetting.bNumEndpoints = 3;
  altsetting.endpoint = endpoints;
  interfaces[0].altsetting = &altsetting;
  interfaces[0].num_altsetting = 1;
  config.bNumInterfaces = 1;
  config.interface = interfaces;
  *out = &config;
  return 0;
}

void __wrap_libusb_free_config_descriptor(struct libusb_config_descriptor *c);
void __wrap_libusb_free_config_descriptor(struct libusb_config_descriptor *c)
{
  assert_ptr_equal(c, &config);
}

int __wrap_libusb_clear_halt(libusb_device_handle *h, unsigned char ep);
int __wrap_libusb_clear_halt(libusb_device_handle *h, unsigned char ep)
{
  (void)h;
  (void)ep;
  return 0;
}

const char *__wrap_libusb_error_name(int code);
const char *__wrap_libusb_error_name(int code)
{
  return code == LIBUSB_ERROR_BUSY ? "LIBUSB_ERROR_BUSY" : "LIBUSB_ERROR";
}

int __wrap_libusb_bulk_transfer(libusb_device_handle *h, unsigned char ep,
                                unsigned char *data, int length,
                                int *transferred, unsigned int timeout);
int __wrap_libusb_bulk_transfer(libusb_device_handle *h, unsigned char ep,
                                unsigned char *data, int length,
                                int *transferred, unsigned int timeout)
{
  assert_ptr_equal(h, the_handle);
  *transferred = 0;
  if (ep == 0x02) {
    int n = chip_write(data, length);
    if (n < 0)
      return LIBUSB_ERROR_NO_DEVICE;
    *transferred = n;
    /* A time-out that still moved part of the data. */
    if (n < length && chip.write_timeout_partial)
      return LIBUSB_ERROR_TIMEOUT;
    return 0;
  }
  assert_int_equal(ep, 0x81);
  assert_true(length >= 64); /* whole packets only */
  int n = chip_read(data, length, (int)timeout);
  if (n < 0)
    return LIBUSB_ERROR_NO_DEVICE;
  *transferred = n;
  return n ? 0 : LIBUSB_ERROR_TIMEOUT;
}

/* ---- Tests ---- */

static void test_ftdi_uri(void **state)
{
  (void)state;
  struct simty_ftdi_params p;
  char err[200];
  assert_int_equal(simty_ftdi_parse("", &p, err, sizeof(err)), 0);
  assert_int_equal(p.vid, 0x0403);
  assert_int_equal(p.pid, 0x6010);
  assert_int_equal(p.interface, INTERFACE_B);
  assert_int_equal(p.baud, 1500000); /* the iCE40 boards' FT2232H rate */
  assert_string_equal(p.serial, "");
  /* The ULX3S's FT231X: its single port at its highest rate. */
  assert_int_equal(simty_ftdi_parse("0403:6015", &p, err, sizeof(err)), 0);
  assert_int_equal(p.interface, INTERFACE_A);
  assert_int_equal(p.baud, 3000000);
  assert_int_equal(
      simty_ftdi_parse("0403:6015:FT12AB/a?baud=115200", &p, err, sizeof(err)),
      0);
  assert_int_equal(p.pid, 0x6015);
  assert_string_equal(p.serial, "FT12AB");
  assert_int_equal(p.interface, INTERFACE_A);
  assert_int_equal(p.baud, 115200);
  assert_int_equal(simty_ftdi_parse("/D", &p, err, sizeof(err)), 0);
  assert_int_equal(p.interface, INTERFACE_D);
  static const char *const bad[] = {"0403",      "0403:",   ":6010",
                                    "x403:6010", "0403:6010/E",
                                    "0403:6010/", "?baud=0", "?speed=9600",
                                    "12345:1",   "0403:6010:"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    assert_int_equal(simty_ftdi_parse(bad[i], &p, err, sizeof(err)),
                     SIMTY_EURI);
}

static void test_usb_uri(void **state)
{
  (void)state;
  struct simty_usb_params p;
  char err[200];
  assert_int_equal(simty_usb_parse("1d50:6130", &p, err, sizeof(err)), 0);
  assert_int_equal(p.vid, 0x1d50);
  assert_int_equal(p.pid, 0x6130);
  assert_int_equal(p.interface, 0);
  assert_int_equal(
      simty_usb_parse("1d50:6130?interface=2", &p, err, sizeof(err)), 0);
  assert_int_equal(p.interface, 2);
  static const char *const bad[] = {"", "1d50", "1d50:", "zz:1",
                                    "1d50:6130?iface=1", "1d50:6130?interface=",
                                    "1d50:6130x"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    assert_int_equal(simty_usb_parse(bad[i], &p, err, sizeof(err)),
                     SIMTY_EURI);
}

static simty_device *open_ok(const char *uri)
{
  simty_device *dev = NULL;
  int e = simty_open(uri, &dev);
  if (e)
    fprintf(stderr, "%s: %s\n", uri, simty_last_error(NULL));
  assert_int_equal(e, 0);
  simty_set_console(dev, NULL, NULL);
  return dev;
}

/* Data through the device and back, and one kernel run. */
static void exercise(simty_device *dev, size_t len)
{
  uint8_t *buf = malloc(len), *back = malloc(len);
  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t)(i ^ (i >> 7));
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE + 16, buf, len), 0);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE + 16, back, len), 0);
  assert_memory_equal(buf, back, len);
  free(buf);
  free(back);
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("fault"), &k), 0);
  uint32_t out;
  assert_int_equal(simty_malloc(dev, 64 * 4, &out), 0);
  uint32_t args[2] = {1000, out}; /* nobody faults */
  struct simty_launch_config cfg = {
      .nthreads = 64, .args = args, .args_size = sizeof(args)};
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  uint32_t got[64];
  assert_int_equal(simty_read(dev, out, got, sizeof(got)), 0);
  for (uint32_t t = 0; t < 64; t++)
    assert_int_equal(got[t], t + 1);
  simty_free(dev, out);
  simty_kernel_free(k);
}

static void test_ftdi_open_configures(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("ftdi://0403:6014:SER1/A?baud=1000000");
  assert_int_equal(chip.vid, 0x0403);
  assert_int_equal(chip.pid, 0x6014);
  assert_string_equal(chip.serial, "SER1");
  assert_int_equal(chip.interface, INTERFACE_A);
  assert_int_equal(chip.detach_mode, AUTO_DETACH_REATACH_SIO_MODULE);
  assert_int_equal(chip.baud, 1000000);
  assert_int_equal(chip.bits, BITS_8);
  assert_int_equal(chip.stop, STOP_BIT_1);
  assert_int_equal(chip.parity, NONE);
  assert_int_equal(chip.flow, SIO_DISABLE_FLOW_CTRL);
  assert_int_equal(chip.latency, 1);
  assert_int_equal(chip.reset, 1);
  assert_int_equal(chip.flushed, 1);
  assert_true(the_ftdi.usb_read_timeout > 0 &&
              the_ftdi.usb_read_timeout <= 100);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_string_equal(in.backend, "ftdi");
  exercise(dev, 10000);
  simty_close(dev);
  assert_int_equal(chip.closed, 1); /* ftdi_usb_close reattaches ftdi_sio */
  assert_int_equal(chip.freed, 1);
  chip_stop();
}

static void test_ftdi_not_found_and_busy(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = NULL;
  chip.open_rc = -3;
  assert_int_equal(simty_open("ftdi://", &dev), SIMTY_ENODEV);
  assert_int_equal(chip.freed, 1);
  chip.open_rc = -5;
  assert_int_equal(simty_open("ftdi://", &dev), SIMTY_EBUSY);
  assert_non_null(strstr(simty_last_error(NULL), "busy"));
  assert_int_equal(chip.freed, 2);
  assert_int_equal(chip.closed, 0); /* never opened, never closed */
  assert_null(dev);
  chip_stop();
}

/* Short writes, responses trickling in a few bytes per read, and reads
 * that time out before the data come. */
static void test_ftdi_partial_transfers(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("ftdi://");
  chip.max_write = 37;
  chip.max_read = 5;
  chip.read_timeouts = 3;
  exercise(dev, 6000);
  assert_true(chip.partial_writes > 100);
  simty_close(dev);
  chip_stop();
}

/* Responses with a bad CRC or a wrong sequence number, and garbage:
 * retransmission and resynchronisation keep the session going without
 * executing anything twice. */
static void test_ftdi_bad_frames(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("ftdi://");
  unsigned writes = chip.dev.executed[SIMTY_CMD_WRITE];
  fake_device_set(&chip.dev, &chip.dev.corrupt_responses, 2);
  fake_device_set(&chip.dev, &chip.dev.stale_before, 2);
  fake_device_set(&chip.dev, &chip.dev.garbage_before, 2);
  uint8_t buf[9000], back[9000];
  for (size_t i = 0; i < sizeof(buf); i++)
    buf[i] = (uint8_t)(i * 3);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, sizeof(buf)), 0);
  assert_int_equal(chip.dev.executed[SIMTY_CMD_WRITE] - writes, 3);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, back, sizeof(back)), 0);
  assert_memory_equal(buf, back, sizeof(buf));
  simty_close(dev);
  chip_stop();
}

static void test_ftdi_unplug(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("ftdi://");
  chip.unplug_after = chip.writes + chip.reads + 3;
  uint8_t buf[20000] = {0};
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, sizeof(buf)),
                   SIMTY_ECLOSED);
  assert_non_null(strstr(simty_last_error(dev), "unplugged"));
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, buf, 4), SIMTY_ECLOSED);
  simty_close(dev);
  assert_int_equal(chip.closed, 1);
  chip_stop();
}

/* A device that never answers: deadlines, retransmissions with back-off,
 * then SIMTY_ELINK (the link is lost, not a time-out). */
static void test_ftdi_silent_device(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("ftdi://");
  fake_device_set(&chip.dev, &chip.dev.drop_responses, 1000);
  uint32_t w = 1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, &w, 4), SIMTY_ELINK);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double dt = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  /* 5 attempts, the margin of 0.1 s doubling each time up to 8x. */
  assert_true(dt >= 2.2 && dt < 5.0);
  assert_non_null(strstr(simty_last_error(dev), "5 attempts"));
  assert_non_null(strstr(simty_last_error(dev), "link is lost"));
  simty_close(dev);
  chip_stop();
}

static void test_usb_open_configures(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("usb://1d50:6130");
  assert_int_equal(chip.vid, 0x1d50);
  assert_int_equal(chip.pid, 0x6130);
  assert_int_equal(chip.auto_detach, 1);
  assert_int_equal(chip.claimed, 1);
  assert_int_equal(chip.interface, 0);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_string_equal(in.backend, "usb");
  exercise(dev, 10000);
  simty_close(dev);
  assert_int_equal(chip.released, 1);
  assert_int_equal(chip.usb_closed, 1);
  assert_int_equal(chip.usb_exited, 1);
  chip_stop();
}

static void test_usb_not_found_and_busy(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = NULL;
  chip.open_rc = -3;
  assert_int_equal(simty_open("usb://1d50:6130", &dev), SIMTY_ENODEV);
  assert_int_equal(chip.usb_exited, 1);
  chip.open_rc = LIBUSB_ERROR_BUSY;
  assert_int_equal(simty_open("usb://1d50:6130?interface=1", &dev),
                   SIMTY_EBUSY);
  assert_non_null(strstr(simty_last_error(NULL), "interface 1"));
  assert_int_equal(chip.usb_closed, 1);
  assert_int_equal(chip.usb_exited, 2);
  assert_int_equal(chip.released, 0);
  assert_null(dev);
  chip_stop();
}

/* Writes that time out after moving part of the data: the transport
 * resumes after the moved bytes, so nothing is lost or repeated. */
static void test_usb_partial_timeouts(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("usb://1d50:6130");
  chip.max_write = 100;
  chip.write_timeout_partial = 1;
  chip.max_read = 64;
  chip.read_timeouts = 4;
  unsigned writes = chip.dev.executed[SIMTY_CMD_WRITE];
  exercise(dev, 12000);
  assert_true(chip.partial_writes > 100);
  /* 12000 bytes in 4092-byte frames, plus the kernel and its arguments. */
  assert_true(chip.dev.executed[SIMTY_CMD_WRITE] - writes >= 3);
  assert_int_equal(chip.dev.duplicates, 0);
  simty_close(dev);
  chip_stop();
}

static void test_usb_unplug_and_bad_frames(void **state)
{
  (void)state;
  chip_start();
  simty_device *dev = open_ok("usb://1d50:6130");
  fake_device_set(&chip.dev, &chip.dev.corrupt_responses, 1);
  fake_device_set(&chip.dev, &chip.dev.stale_before, 1);
  uint32_t w = 0x12345678, r = 0;
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, &w, 4), 0);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, &r, 4), 0);
  assert_int_equal(r, w);
  chip.unplug_after = chip.writes + chip.reads + 1;
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, &r, 4), SIMTY_ECLOSED);
  simty_close(dev);
  assert_int_equal(chip.usb_closed, 1);
  chip_stop();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ftdi_uri),
      cmocka_unit_test(test_usb_uri),
      cmocka_unit_test(test_ftdi_open_configures),
      cmocka_unit_test(test_ftdi_not_found_and_busy),
      cmocka_unit_test(test_ftdi_partial_transfers),
      cmocka_unit_test(test_ftdi_bad_frames),
      cmocka_unit_test(test_ftdi_unplug),
      cmocka_unit_test(test_ftdi_silent_device),
      cmocka_unit_test(test_usb_open_configures),
      cmocka_unit_test(test_usb_not_found_and_busy),
      cmocka_unit_test(test_usb_partial_timeouts),
      cmocka_unit_test(test_usb_unplug_and_bad_frames),
  };
  return cmocka_run_group_tests_name("ftdi-usb-mocked", tests, NULL, NULL);
}
