/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_usb.c - the link over raw USB bulk endpoints (libusb-1.0),
 * for boards whose USB core exposes the byte stream directly.
 *
 * usb://VID:PID[?interface=N]: the first bulk IN and bulk OUT endpoints of
 * interface N (default 0). A kernel driver bound to the interface is
 * detached while we hold it (libusb auto-detach) and reattached at close.
 *
 * libusb's bulk time-outs can hide a partial transfer: a transfer that
 * times out may still have moved bytes, which `transferred` reports. The
 * writer resumes after them, the reader returns them; neither drops nor
 * repeats data.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libusb.h>

#include "simty.h"
#include "simty_transport.h"

/* Time-out of one bulk transfer: short, the transport's deadline rules. */
#define USB_CHUNK_TIMEOUT_MS 50u

struct usb_priv {
  libusb_context *ctx;
  libusb_device_handle *h;
  int interface;
  unsigned char ep_in, ep_out;
  uint16_t in_packet; /* max packet size of the IN endpoint */
  /* Bytes received beyond what the caller could take. */
  uint8_t spill[1024];
  size_t spill_len, spill_pos;
};

static unsigned chunk_timeout(uint64_t deadline)
{
  uint64_t now = simty__transport_now_ns();
  if (now >= deadline)
    return 1;
  uint64_t ms = (deadline - now + 999999u) / 1000000u;
  return ms < USB_CHUNK_TIMEOUT_MS ? (unsigned)ms : USB_CHUNK_TIMEOUT_MS;
}

int simty_usb_parse(const char *rest, struct simty_usb_params *p, char *err,
                    size_t err_size)
{
  memset(p, 0, sizeof(*p));
  unsigned vid, pid;
  int n = 0;
  char tail[64] = "";
  if (sscanf(rest, "%4x:%4x%n", &vid, &pid, &n) != 2 ||
      !isxdigit((unsigned char)rest[0]) || !strchr(rest, ':') ||
      !isxdigit((unsigned char)strchr(rest, ':')[1]))
    goto bad;
  p->vid = (int)vid;
  p->pid = (int)pid;
  const char *q = rest + n;
  if (*q) {
    unsigned iface;
    int m = 0;
    if (strlen(q) >= sizeof(tail) ||
        sscanf(q, "?interface=%3u%n", &iface, &m) != 1 || q[m] ||
        !isdigit((unsigned char)q[11]) || iface > 255)
      goto bad;
    p->interface = (int)iface;
  }
  return 0;
bad:
  snprintf(err, err_size,
           "expected usb://VID:PID[?interface=N] with hex VID and PID, got "
           "'usb://%s'",
           rest);
  return SIMTY_EURI;
}

static int usb_error(struct simty_transport *t, int r, const char *what)
{
  if (r == LIBUSB_ERROR_NO_DEVICE)
    return simty__transport_fail(t, SIMTY_ECLOSED,
                                 "USB device unplugged during %s", what);
  return simty__transport_fail(t, SIMTY_EIO, "USB %s: %s", what,
                               libusb_error_name(r));
}

static int usb_send(struct simty_transport *t, const uint8_t *buf, size_t n,
                    uint64_t deadline)
{
  struct usb_priv *u = t->priv;
  while (n) {
    int len = n > 16384 ? 16384 : (int)n;
    int done = 0;
    int r = libusb_bulk_transfer(u->h, u->ep_out, (unsigned char *)buf, len,
                                 &done, chunk_timeout(deadline));
    /* Count what moved even when the transfer timed out. */
    if (done > 0) {
      buf += done;
      n -= (size_t)done;
    }
    if (r == LIBUSB_ERROR_TIMEOUT) {
      if (n && simty__transport_now_ns() >= deadline)
        return simty__transport_fail(
            t, SIMTY_ETIMEDOUT, "USB write timed out with %zu bytes left", n);
      continue;
    }
    if (r == LIBUSB_ERROR_PIPE) {
      libusb_clear_halt(u->h, u->ep_out);
      continue;
    }
    if (r < 0)
      return usb_error(t, r, "write");
  }
  return 0;
}

static int usb_recv(struct simty_transport *t, uint8_t *buf, size_t cap,
                    size_t *got, uint64_t deadline)
{
  struct usb_priv *u = t->priv;
  *got = 0;
  if (u->spill_pos < u->spill_len) {
    size_t n = u->spill_len - u->spill_pos;
    if (n > cap)
      n = cap;
    memcpy(buf, u->spill + u->spill_pos, n);
    u->spill_pos += n;
    *got = n;
    return 0;
  }
  for (;;) {
    /* Ask for whole packets: a request shorter than the packet the device
     * sends would overflow. */
    uint8_t *dst = buf;
    int len = (int)cap;
    if (cap < u->in_packet) {
      dst = u->spill;
      len = (int)sizeof(u->spill);
    }
    int done = 0;
    int r = libusb_bulk_transfer(u->h, u->ep_in, dst, len, &done,
                                 chunk_timeout(deadline));
    if (done > 0) {
      if (dst == u->spill) {
        size_t n = (size_t)done < cap ? (size_t)done : cap;
        memcpy(buf, u->spill, n);
        u->spill_pos = n;
        u->spill_len = (size_t)done;
        *got = n;
      } else {
        *got = (size_t)done;
      }
      return 0;
    }
    if (r == LIBUSB_ERROR_TIMEOUT || r == 0) {
      if (simty__transport_now_ns() >= deadline)
        return 0;
      continue;
    }
    if (r == LIBUSB_ERROR_PIPE) {
      libusb_clear_halt(u->h, u->ep_in);
      continue;
    }
    return usb_error(t, r, "read");
  }
}

static void usb_close(struct simty_transport *t)
{
  struct usb_priv *u = t->priv;
  libusb_release_interface(u->h, u->interface);
  libusb_close(u->h); /* auto-detach reattaches the kernel driver */
  libusb_exit(u->ctx);
  free(u);
  free(t);
}

static const struct simty_transport_ops usb_ops = {usb_send, usb_recv,
                                                   usb_close};

/* First bulk IN and OUT endpoints of the interface. */
static int find_endpoints(struct usb_priv *u, char *err, size_t err_size)
{
  libusb_device *d = libusb_get_device(u->h);
  struct libusb_config_descriptor *cfg = NULL;
  int r = libusb_get_active_config_descriptor(d, &cfg);
  if (r < 0) {
    snprintf(err, err_size, "cannot read the USB configuration: %s",
             libusb_error_name(r));
    return SIMTY_EIO;
  }
  int found = 0;
  if (u->interface < cfg->bNumInterfaces &&
      cfg->interface[u->interface].num_altsetting > 0) {
    const struct libusb_interface_descriptor *id =
        &cfg->interface[u->interface].altsetting[0];
    for (int i = 0; i < id->bNumEndpoints; i++) {
      const struct libusb_endpoint_descriptor *ep = &id->endpoint[i];
      if ((ep->bmAttributes & LIBUSB_TRANSFER_TYPE_MASK) !=
          LIBUSB_TRANSFER_TYPE_BULK)
        continue;
      if ((ep->bEndpointAddress & LIBUSB_ENDPOINT_DIR_MASK) ==
          LIBUSB_ENDPOINT_IN) {
        if (!(found & 1)) {
          u->ep_in = ep->bEndpointAddress;
          u->in_packet = ep->wMaxPacketSize ? ep->wMaxPacketSize : 64;
        }
        found |= 1;
      } else {
        if (!(found & 2))
          u->ep_out = ep->bEndpointAddress;
        found |= 2;
      }
    }
  }
  libusb_free_config_descriptor(cfg);
  if (found != 3) {
    snprintf(err, err_size, "USB interface %d has no bulk IN and OUT pair",
             u->interface);
    return SIMTY_ENODEV;
  }
  if (u->in_packet > sizeof(u->spill))
    u->in_packet = sizeof(u->spill);
  return 0;
}

int simty_transport_usb(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size)
{
  struct simty_usb_params p;
  int e = simty_usb_parse(rest, &p, err, err_size);
  if (e)
    return e;
  struct simty_transport *t = calloc(1, sizeof(*t));
  struct usb_priv *u = calloc(1, sizeof(*u));
  if (!t || !u) {
    free(t);
    free(u);
    snprintf(err, err_size, "out of memory");
    return SIMTY_ENOMEM;
  }
  u->interface = p.interface;
  int r = libusb_init(&u->ctx);
  if (r < 0) {
    snprintf(err, err_size, "libusb: %s", libusb_error_name(r));
    e = SIMTY_EIO;
    goto fail;
  }
  u->h =
      libusb_open_device_with_vid_pid(u->ctx, (uint16_t)p.vid, (uint16_t)p.pid);
  if (!u->h) {
    snprintf(err, err_size,
             "no USB device %04x:%04x (or no permission to open it)", p.vid,
             p.pid);
    e = SIMTY_ENODEV;
    goto fail_ctx;
  }
  libusb_set_auto_detach_kernel_driver(u->h, 1);
  r = libusb_claim_interface(u->h, p.interface);
  if (r < 0) {
    snprintf(err, err_size, "USB %04x:%04x: cannot claim interface %d: %s%s",
             p.vid, p.pid, p.interface, libusb_error_name(r),
             r == LIBUSB_ERROR_BUSY ? " (in use by another program)" : "");
    e = r == LIBUSB_ERROR_BUSY        ? SIMTY_EBUSY
        : r == LIBUSB_ERROR_NO_DEVICE ? SIMTY_ENODEV
        : r == LIBUSB_ERROR_NOT_FOUND ? SIMTY_ENODEV
                                      : SIMTY_EIO;
    goto fail_open;
  }
  e = find_endpoints(u, err, err_size);
  if (e) {
    libusb_release_interface(u->h, p.interface);
    goto fail_open;
  }
  t->ops = &usb_ops;
  t->priv = u;
  t->kind = "usb";
  t->bytes_per_sec = 0; /* USB is not the bottleneck */
  t->margin_ms = 100;
  t->wait_slice_ms = 100;
  *out = t;
  return 0;
fail_open:
  libusb_close(u->h);
fail_ctx:
  libusb_exit(u->ctx);
fail:
  free(u);
  free(t);
  return e;
}
