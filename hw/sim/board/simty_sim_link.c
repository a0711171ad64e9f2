/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_link.c - socket side of the simulated board's link (see
 * simty_sim_link.h): accept or adopt one stream socket (or, serving,
 * one after another), then exchange bytes with it through two ring
 * buffers, never blocking the simulation.
 */
#include "simty_sim_link.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void link_init(struct simty_sim_link *l, int fd)
{
  memset(l, 0, sizeof *l);
  l->fd = fd;
  l->listen_fd = -1;
}

static int make_nonblocking(int fd)
{
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    return -1;
  /* Frames are small and latency-bound: no Nagle delay (ignored on
   * socket pairs, which are not TCP). */
  int one = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  /* A host that vanishes must not kill the simulator with SIGPIPE. */
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

/* A socket listening on 127.0.0.1:port (the port printed on stderr), or
 * -1 with a message. */
static int open_listener(int port)
{
  if (port < 0 || port > 65535) {
    fprintf(stderr, "simty-sim: bad port %d (0..65535)\n", port);
    return -1;
  }
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) {
    perror("simty-sim: socket");
    return -1;
  }
  int one = 1;
  (void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 1) < 0) {
    fprintf(stderr, "simty-sim: cannot listen on 127.0.0.1:%d: %s\n", port,
            strerror(errno));
    close(s);
    return -1;
  }
  socklen_t len = sizeof a;
  if (getsockname(s, (struct sockaddr *)&a, &len) < 0) {
    perror("simty-sim: getsockname");
    close(s);
    return -1;
  }
  fprintf(stderr, "simty-sim: listening on 127.0.0.1:%u\n",
          (unsigned)ntohs(a.sin_port));
  fflush(stderr);
  return s;
}

int simty_sim_link_listen(struct simty_sim_link *l, int port)
{
  link_init(l, -1);
  int s = open_listener(port);
  if (s < 0)
    return -1;
  int c;
  do {
    c = accept(s, NULL, NULL);
  } while (c < 0 && errno == EINTR);
  close(s);
  if (c < 0) {
    perror("simty-sim: accept");
    return -1;
  }
  return simty_sim_link_use_fd(l, c);
}

int simty_sim_link_serve(struct simty_sim_link *l, int port)
{
  link_init(l, -1);
  l->listen_fd = open_listener(port);
  if (l->listen_fd < 0)
    return -1;
  if (fcntl(l->listen_fd, F_SETFL, fcntl(l->listen_fd, F_GETFL) | O_NONBLOCK) < 0) {
    perror("simty-sim: fcntl");
    return -1;
  }
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

int simty_sim_link_accept(struct simty_sim_link *l, int wait_ms)
{
  if (l->listen_fd < 0 || l->fd >= 0)
    return 0;
  if (wait_ms > 0) {
    struct pollfd p = {.fd = l->listen_fd, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, wait_ms) <= 0)
      return 0;
  }
  int c = accept(l->listen_fd, NULL, NULL);
  if (c < 0)
    return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ||
            errno == ECONNABORTED)
               ? 0
               : -1;
  if (make_nonblocking(c) < 0) {
    close(c);
    return -1;
  }
  l->fd = c;
  l->peer_closed = 0;
  l->to_device.head = l->to_device.tail;
  l->to_host.head = l->to_host.tail;
  return 1;
}

void simty_sim_link_hangup(struct simty_sim_link *l)
{
  if (l->fd >= 0)
    close(l->fd);
  l->fd = -1;
  l->peer_closed = 0;
  /* Nobody listens on the wire: what the board sends is lost. */
  l->to_host.head = l->to_host.tail;
}

int simty_sim_link_use_fd(struct simty_sim_link *l, int fd)
{
  link_init(l, fd);
  int type = 0;
  socklen_t len = sizeof type;
  if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
      type != SOCK_STREAM) {
    fprintf(stderr, "simty-sim: --fd %d is not a connected stream socket\n",
            fd);
    l->fd = -1;
    return -1;
  }
  if (make_nonblocking(fd) < 0) {
    perror("simty-sim: fcntl");
    l->fd = -1;
    return -1;
  }
  return 0;
}

/* Reads what the socket holds, up to the free space of to_device. */
static int pump_in(struct simty_sim_link *l)
{
  struct simty_sim_queue *q = &l->to_device;
  while (!l->peer_closed && simty_sim_queue_count(q) < SIMTY_SIM_QUEUE) {
    uint32_t off = q->tail & (SIMTY_SIM_QUEUE - 1u);
    uint32_t room = SIMTY_SIM_QUEUE - simty_sim_queue_count(q);
    uint32_t contiguous = SIMTY_SIM_QUEUE - off;
    size_t want = room < contiguous ? room : contiguous;
    ssize_t n = recv(l->fd, q->buf + off, want, 0);
    if (n > 0) {
      q->tail += (uint32_t)n;
      l->bytes_in += (uint64_t)n;
      continue;
    }
    if (n == 0) {
      l->peer_closed = 1;
      return 0;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK)
      return 0;
    if (errno == EINTR)
      continue;
    l->peer_closed = 1;
    return errno == ECONNRESET ? 0 : -1;
  }
  return 0;
}

static int pump_out(struct simty_sim_link *l)
{
  struct simty_sim_queue *q = &l->to_host;
  while (simty_sim_queue_count(q) > 0 && l->fd >= 0) {
    uint32_t off = q->head & (SIMTY_SIM_QUEUE - 1u);
    uint32_t count = simty_sim_queue_count(q);
    uint32_t contiguous = SIMTY_SIM_QUEUE - off;
    size_t want = count < contiguous ? count : contiguous;
    ssize_t n = send(l->fd, q->buf + off, want, MSG_NOSIGNAL);
    if (n > 0) {
      q->head += (uint32_t)n;
      l->bytes_out += (uint64_t)n;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return 0;
    if (n < 0 && errno == EINTR)
      continue;
    /* The host is gone: drop what it will never read. */
    q->head = q->tail;
    l->peer_closed = 1;
    return (n < 0 && errno != EPIPE && errno != ECONNRESET) ? -1 : 0;
  }
  return 0;
}

int simty_sim_link_pump(struct simty_sim_link *l)
{
  if (l->fd < 0)
    return -1;
  int rc = pump_in(l);
  if (pump_out(l) < 0)
    rc = -1;
  return rc;
}

void simty_sim_link_flush(struct simty_sim_link *l, int timeout_ms)
{
  while (l->fd >= 0 && simty_sim_queue_count(&l->to_host) > 0 &&
         timeout_ms > 0) {
    struct pollfd p = {.fd = l->fd, .events = POLLOUT, .revents = 0};
    int n = poll(&p, 1, 10);
    timeout_ms -= 10;
    if (n < 0 && errno != EINTR)
      return;
    if (n > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL)))
      return;
    if (pump_out(l) < 0)
      return;
  }
}

void simty_sim_link_close(struct simty_sim_link *l)
{
  if (l->fd >= 0)
    close(l->fd);
  l->fd = -1;
  if (l->listen_fd >= 0)
    close(l->listen_fd);
  l->listen_fd = -1;
}
