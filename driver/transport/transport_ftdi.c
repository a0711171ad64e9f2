/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_ftdi.c - the link over an FTDI UART (FT2232H on iCE40 boards,
 * FT231X on the ULX3S) through libftdi1.
 *
 * ftdi://[VID:PID[:SERIAL]][/INTERFACE][?baud=N]
 *   defaults 0403:6010 (FT2232H: the iCE40 boards), interface B, and the
 *   rate the board's bitstream uses for that chip: 1,500,000 baud on the
 *   FT2232H, FT232H and FT4232H (the iCE40 boards' 12 MHz clock samples
 *   at most 1.5 Mbaud: 8 clocks a bit), 3,000,000 baud and interface A on
 *   the FT230X/FT231X (0403:6015, the ULX3S: the chip's highest rate);
 * 8N1, no flow control.
 *
 * The kernel's ftdi_sio driver is detached at open and reattached at
 * close (libftdi's AUTO_DETACH_REATACH_SIO_MODULE), so the board's serial
 * port comes back for other tools. The latency timer is set to 1 ms:
 * the default 16 ms would add that much to every response (the chip holds
 * a short packet until the timer fires).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ftdi.h>
#include <libusb.h>

#include "simty.h"
#include "simty_transport.h"

#define FTDI_DEFAULT_VID 0x0403
#define FTDI_DEFAULT_PID 0x6010
#define FTDI_PID_FT231X 0x6015
#define FTDI_BAUD_HIGH_SPEED 1500000u /* FT2232H and kin, iCE40 boards */
#define FTDI_BAUD_FT231X 3000000u     /* the chip's highest, ULX3S */
/* USB time-out of each libftdi read or write: short, so that the
 * transport's own deadline is checked often. */
#define FTDI_USB_TIMEOUT_MS 50
/* ftdi_read_data() / ftdi_write_data() return this when the device is
 * gone (libftdi's "USB device unavailable"). */
#define FTDI_UNAVAILABLE (-666)

static int parse_hex16(const char *s, size_t len, int *out)
{
  if (len == 0 || len > 4)
    return -1;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isxdigit((unsigned char)s[i]))
      return -1;
    v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0'
                                               : (tolower(s[i]) - 'a' + 10));
  }
  *out = v;
  return 0;
}

int simty_ftdi_parse(const char *rest, struct simty_ftdi_params *p, char *err,
                     size_t err_size)
{
  memset(p, 0, sizeof(*p));
  p->vid = FTDI_DEFAULT_VID;
  p->pid = FTDI_DEFAULT_PID;
  p->interface = INTERFACE_B;
  p->baud = 0; /* the chip's default, once the PID is known */
  const char *q = strchr(rest, '?');
  size_t head = q ? (size_t)(q - rest) : strlen(rest);
  const char *slash = memchr(rest, '/', head);
  size_t dev_len = slash ? (size_t)(slash - rest) : head;
  if (dev_len) {
    /* VID:PID[:SERIAL] */
    const char *c1 = memchr(rest, ':', dev_len);
    if (!c1)
      goto bad;
    const char *c2 = memchr(c1 + 1, ':', dev_len - (size_t)(c1 + 1 - rest));
    size_t pid_len =
        c2 ? (size_t)(c2 - c1 - 1) : dev_len - (size_t)(c1 + 1 - rest);
    if (parse_hex16(rest, (size_t)(c1 - rest), &p->vid) ||
        parse_hex16(c1 + 1, pid_len, &p->pid))
      goto bad;
    if (c2) {
      size_t slen = dev_len - (size_t)(c2 + 1 - rest);
      if (slen == 0 || slen >= sizeof(p->serial))
        goto bad;
      memcpy(p->serial, c2 + 1, slen);
      p->serial[slen] = '\0';
    }
  }
  if (slash) {
    size_t ilen = head - dev_len - 1;
    char c = ilen == 1 ? (char)toupper((unsigned char)slash[1]) : 0;
    if (c < 'A' || c > 'D') {
      snprintf(err, err_size,
               "bad FTDI interface '%.*s' in ftdi://%s (A, B, C or D)",
               (int)ilen, slash + 1, rest);
      return SIMTY_EURI;
    }
    p->interface = INTERFACE_A + (c - 'A');
  } else if (p->pid == FTDI_PID_FT231X) {
    p->interface = INTERFACE_A; /* a single-port chip */
  }
  if (q) {
    char *end;
    errno = 0;
    if (strncmp(q + 1, "baud=", 5) != 0 || !isdigit((unsigned char)q[6])) {
      snprintf(err, err_size, "unknown FTDI option '%s' (baud=N)", q + 1);
      return SIMTY_EURI;
    }
    unsigned long b = strtoul(q + 6, &end, 10);
    if (errno || *end || b < 300 || b > 12000000) {
      snprintf(err, err_size, "bad baud rate '%s'", q + 6);
      return SIMTY_EURI;
    }
    p->baud = (uint32_t)b;
  }
  if (p->baud == 0)
    p->baud = p->pid == FTDI_PID_FT231X ? FTDI_BAUD_FT231X : FTDI_BAUD_HIGH_SPEED;
  return 0;
bad:
  snprintf(err, err_size,
           "expected ftdi://[VID:PID[:SERIAL]][/INTERFACE][?baud=N] with hex "
           "VID and PID, got 'ftdi://%s'",
           rest);
  return SIMTY_EURI;
}

static int ftdi_send(struct simty_transport *t, const uint8_t *buf, size_t n,
                     uint64_t deadline)
{
  struct ftdi_context *f = t->priv;
  while (n) {
    int chunk = n > 4096 ? 4096 : (int)n;
    int w = ftdi_write_data(f, buf, chunk);
    if (w == FTDI_UNAVAILABLE || w == LIBUSB_ERROR_NO_DEVICE)
      return simty__transport_fail(t, SIMTY_ECLOSED, "FTDI device unplugged");
    if (w < 0)
      return simty__transport_fail(t, SIMTY_EIO, "FTDI write: %s",
                                   ftdi_get_error_string(f));
    /* A write that timed out may still have sent part of the data:
     * libftdi reports what went out, which is what we skip. */
    buf += w;
    n -= (size_t)w;
    if (n && simty__transport_now_ns() >= deadline)
      return simty__transport_fail(t, SIMTY_ETIMEDOUT,
                                   "FTDI write timed out (%zu bytes left)", n);
  }
  return 0;
}

static int ftdi_recv(struct simty_transport *t, uint8_t *buf, size_t cap,
                     size_t *got, uint64_t deadline)
{
  struct ftdi_context *f = t->priv;
  *got = 0;
  for (;;) {
    int r = ftdi_read_data(f, buf, cap > 4096 ? 4096 : (int)cap);
    if (r == FTDI_UNAVAILABLE || r == LIBUSB_ERROR_NO_DEVICE)
      return simty__transport_fail(t, SIMTY_ECLOSED, "FTDI device unplugged");
    if (r < 0)
      return simty__transport_fail(t, SIMTY_EIO, "FTDI read: %s",
                                   ftdi_get_error_string(f));
    if (r > 0) {
      *got = (size_t)r;
      return 0;
    }
    if (simty__transport_now_ns() >= deadline)
      return 0;
  }
}

static void ftdi_close_transport(struct simty_transport *t)
{
  struct ftdi_context *f = t->priv;
  ftdi_usb_close(f); /* reattaches ftdi_sio */
  ftdi_free(f);
  free(t);
}

static const struct simty_transport_ops ftdi_ops = {ftdi_send, ftdi_recv,
                                                    ftdi_close_transport};

int simty_transport_ftdi(const char *rest, struct simty_transport **out,
                         char *err, size_t err_size)
{
  struct simty_ftdi_params p;
  int e = simty_ftdi_parse(rest, &p, err, err_size);
  if (e)
    return e;
  struct simty_transport *t = calloc(1, sizeof(*t));
  struct ftdi_context *f = ftdi_new();
  if (!t || !f) {
    free(t);
    if (f)
      ftdi_free(f);
    snprintf(err, err_size, "out of memory");
    return SIMTY_ENOMEM;
  }
  f->module_detach_mode = AUTO_DETACH_REATACH_SIO_MODULE;
  const char *step = "select interface";
  int r = ftdi_set_interface(f, (enum ftdi_interface)p.interface);
  if (r < 0)
    goto fail_ctx;
  step = "open";
  r = ftdi_usb_open_desc_index(f, p.vid, p.pid, NULL,
                               p.serial[0] ? p.serial : NULL, 0);
  if (r < 0) {
    /* libftdi: -3 no such device, -5 cannot claim (in use), -4 cannot
     * open (permissions). */
    int code = r == -3 ? SIMTY_ENODEV : r == -5 ? SIMTY_EBUSY : SIMTY_ENODEV;
    snprintf(err, err_size, "FTDI %04x:%04x%s%s interface %c: %s%s", p.vid,
             p.pid, p.serial[0] ? " serial " : "", p.serial,
             'A' + p.interface - INTERFACE_A, ftdi_get_error_string(f),
             r == -5   ? " (interface busy: another program holds it)"
             : r == -4 ? " (check the udev permissions)"
                       : "");
    ftdi_free(f);
    free(t);
    return code;
  }
  step = "reset";
  if ((r = ftdi_usb_reset(f)) < 0)
    goto fail_open;
  step = "set the baud rate";
  if ((r = ftdi_set_baudrate(f, (int)p.baud)) < 0)
    goto fail_open;
  step = "set 8N1";
  if ((r = ftdi_set_line_property(f, BITS_8, STOP_BIT_1, NONE)) < 0)
    goto fail_open;
  step = "disable flow control";
  if ((r = ftdi_setflowctrl(f, SIO_DISABLE_FLOW_CTRL)) < 0)
    goto fail_open;
  step = "set the latency timer";
  if ((r = ftdi_set_latency_timer(f, 1)) < 0)
    goto fail_open;
  step = "flush";
  if ((r = ftdi_tcioflush(f)) < 0)
    goto fail_open;
  f->usb_read_timeout = FTDI_USB_TIMEOUT_MS;
  f->usb_write_timeout = FTDI_USB_TIMEOUT_MS;
  t->ops = &ftdi_ops;
  t->priv = f;
  t->kind = "ftdi";
  t->bytes_per_sec = p.baud / 10u; /* 8N1: ten bit times per byte */
  t->margin_ms = 100;
  t->wait_slice_ms = 100;
  *out = t;
  return 0;
fail_open:
  snprintf(err, err_size, "FTDI %04x:%04x: cannot %s: %s", p.vid, p.pid, step,
           ftdi_get_error_string(f));
  ftdi_usb_close(f);
  ftdi_free(f);
  free(t);
  return r == FTDI_UNAVAILABLE || r == LIBUSB_ERROR_NO_DEVICE ? SIMTY_ECLOSED
                                                              : SIMTY_EIO;
fail_ctx:
  snprintf(err, err_size, "FTDI: cannot %s: %s", step,
           ftdi_get_error_string(f));
  ftdi_free(f);
  free(t);
  return SIMTY_EIO;
}
