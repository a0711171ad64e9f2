/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transport_fd.c - byte transports over a connected stream socket:
 * tcp://HOST:PORT (a simulated board started with --port, or a network
 * bridge) and sim (the simulated board spawned on one end of a socket
 * pair, --fd).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "simty.h"
#include "simty_transport.h"

struct fd_priv {
  int fd;
  pid_t child;
};

static int ms_until(uint64_t deadline)
{
  uint64_t now = simty__transport_now_ns();
  if (now >= deadline)
    return 0;
  uint64_t ms = (deadline - now + 999999u) / 1000000u;
  return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int fd_send(struct simty_transport *t, const uint8_t *buf, size_t n,
                   uint64_t deadline)
{
  struct fd_priv *p = t->priv;
  while (n) {
    ssize_t w = send(p->fd, buf, n, MSG_NOSIGNAL);
    if (w > 0) {
      buf += w;
      n -= (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd pfd = {p->fd, POLLOUT, 0};
      int ms = ms_until(deadline);
      if (ms == 0)
        return simty__transport_fail(t, SIMTY_ETIMEDOUT,
                                     "%s link: send timed out", t->kind);
      if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
        return simty__transport_fail(t, SIMTY_EIO, "%s link: poll: %s", t->kind,
                                     strerror(errno));
      continue;
    }
    if (errno == EPIPE || errno == ECONNRESET)
      return simty__transport_fail(
          t, SIMTY_ECLOSED, "%s link: the device closed the link", t->kind);
    return simty__transport_fail(t, SIMTY_EIO, "%s link: send: %s", t->kind,
                                 strerror(errno));
  }
  return 0;
}

static int fd_recv(struct simty_transport *t, uint8_t *buf, size_t cap,
                   size_t *got, uint64_t deadline)
{
  struct fd_priv *p = t->priv;
  *got = 0;
  for (;;) {
    ssize_t r = recv(p->fd, buf, cap, 0);
    if (r > 0) {
      *got = (size_t)r;
      return 0;
    }
    if (r == 0)
      return simty__transport_fail(
          t, SIMTY_ECLOSED, "%s link: the device closed the link", t->kind);
    if (errno == EINTR)
      continue;
    if (errno == ECONNRESET)
      return simty__transport_fail(t, SIMTY_ECLOSED,
                                   "%s link: connection reset", t->kind);
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      return simty__transport_fail(t, SIMTY_EIO, "%s link: recv: %s", t->kind,
                                   strerror(errno));
    int ms = ms_until(deadline);
    if (ms == 0)
      return 0;
    struct pollfd pfd = {p->fd, POLLIN, 0};
    if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
      return simty__transport_fail(t, SIMTY_EIO, "%s link: poll: %s", t->kind,
                                   strerror(errno));
  }
}

static void fd_close(struct simty_transport *t)
{
  struct fd_priv *p = t->priv;
  /* Closing our end tells a simulated board to exit (status 0). */
  close(p->fd);
  if (p->child > 0) {
    int status;
    uint64_t give_up = simty__transport_now_ns() + 2000000000u;
    while (waitpid(p->child, &status, WNOHANG) == 0) {
      if (simty__transport_now_ns() >= give_up) {
        kill(p->child, SIGKILL);
        waitpid(p->child, &status, 0);
        break;
      }
      struct timespec ts = {0, 2000000};
      nanosleep(&ts, NULL);
    }
  }
  free(p);
  free(t);
}

static const struct simty_transport_ops fd_ops = {fd_send, fd_recv, fd_close};

int simty_transport_fd(int fd, pid_t child, const char *kind,
                       struct simty_transport **out, char *err, size_t err_size)
{
  struct simty_transport *t = calloc(1, sizeof(*t));
  struct fd_priv *p = calloc(1, sizeof(*p));
  if (!t || !p) {
    free(t);
    free(p);
    snprintf(err, err_size, "out of memory");
    return SIMTY_ENOMEM;
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    snprintf(err, err_size, "fcntl: %s", strerror(errno));
    free(t);
    free(p);
    return SIMTY_EIO;
  }
  p->fd = fd;
  p->child = child;
  t->ops = &fd_ops;
  t->priv = p;
  t->kind = kind;
  *out = t;
  return 0;
}

/* ---- tcp://HOST:PORT ---- */

/* A host that drops our SYNs would hold a blocking connect() for minutes:
 * connecting has a deadline like every other wait. */
#define CONNECT_TIMEOUT_MS 5000

static int connect_within(int fd, const struct sockaddr *addr, socklen_t len,
                          int timeout_ms)
{
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    return -1;
  if (connect(fd, addr, len) == 0)
    return 0;
  if (errno != EINPROGRESS)
    return -1;
  struct pollfd pfd = {fd, POLLOUT, 0};
  int r;
  do
    r = poll(&pfd, 1, timeout_ms);
  while (r < 0 && errno == EINTR);
  if (r == 0) {
    errno = ETIMEDOUT;
    return -1;
  }
  int err = 0;
  socklen_t elen = sizeof(err);
  if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
    return -1;
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

int simty_transport_tcp(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size)
{
  char host[256], hostport[300];
  /* Option: ?margin_ms=N, the patience before a retransmission (default
   * 5000: the peer may be a slow simulation; a bridge to a board can use
   * less). */
  long margin_ms = 5000;
  const char *q = strchr(rest, '?');
  if (q) {
    char *end;
    errno = 0;
    if (strncmp(q + 1, "margin_ms=", 10) != 0 ||
        !isdigit((unsigned char)q[11]) ||
        (margin_ms = strtol(q + 11, &end, 10), errno || *end) ||
        margin_ms < 1 || margin_ms > 600000) {
      snprintf(err, err_size, "bad tcp option '%s' (margin_ms=1..600000)",
               q + 1);
      return SIMTY_EURI;
    }
    if ((size_t)(q - rest) >= sizeof(hostport)) {
      snprintf(err, err_size, "host name too long");
      return SIMTY_EURI;
    }
    memcpy(hostport, rest, (size_t)(q - rest));
    hostport[q - rest] = '\0';
    rest = hostport;
  }
  const char *colon = strrchr(rest, ':');
  if (!colon || colon == rest) {
    snprintf(err, err_size, "expected tcp://HOST:PORT, got 'tcp://%s'", rest);
    return SIMTY_EURI;
  }
  size_t hlen = (size_t)(colon - rest);
  if (hlen >= sizeof(host)) {
    snprintf(err, err_size, "host name too long");
    return SIMTY_EURI;
  }
  memcpy(host, rest, hlen);
  host[hlen] = '\0';
  /* [v6::addr]:port */
  if (host[0] == '[' && host[hlen - 1] == ']') {
    memmove(host, host + 1, hlen - 2);
    host[hlen - 2] = '\0';
  }
  const char *port = colon + 1;
  char *end;
  errno = 0;
  long pn = strtol(port, &end, 10);
  if (!isdigit((unsigned char)*port) || errno || *end || pn < 1 || pn > 65535) {
    snprintf(err, err_size, "bad port '%s' in tcp://%s (1 .. 65535)", port,
             rest);
    return SIMTY_EURI;
  }
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int g = getaddrinfo(host, port, &hints, &res);
  if (g != 0) {
    snprintf(err, err_size, "cannot resolve %s: %s", host, gai_strerror(g));
    return SIMTY_ENODEV;
  }
  int fd = -1, last_errno = 0;
  for (struct addrinfo *a = res; a; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_errno = errno;
      continue;
    }
    if (connect_within(fd, a->ai_addr, a->ai_addrlen, CONNECT_TIMEOUT_MS) == 0)
      break;
    last_errno = errno;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) {
    snprintf(err, err_size, "cannot connect to %s:%s: %s", host, port,
             strerror(last_errno));
    return last_errno == ECONNREFUSED ? SIMTY_ENODEV
           : last_errno == ETIMEDOUT  ? SIMTY_ETIMEDOUT
                                      : SIMTY_EIO;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  int e = simty_transport_fd(fd, 0, "tcp", out, err, err_size);
  if (e) {
    close(fd);
    return e;
  }
  /* Whatever is behind the socket may be a simulated board, which is much
   * slower than the wire: be patient before retransmitting. */
  (*out)->margin_ms = (uint32_t)margin_ms;
  (*out)->wait_slice_ms = 20;
  return 0;
}

/* ---- sim: spawn the simulated board ---- */

static int executable(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* $SIMTY_SIM, else simty-sim beside the running program, in its bin/ or
 * in a bin/ of up to three directories above it (build/examples/x finds
 * build/bin/simty-sim; PREFIX/bin/x finds PREFIX/bin/simty-sim), else
 * NULL to search PATH. */
static const char *find_sim(char *buf, size_t size)
{
  const char *env = getenv("SIMTY_SIM");
  if (env && *env)
    return env;
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return NULL;
  self[n] = '\0';
  for (int up = 0; up < 4; up++) {
    char *slash = strrchr(self, '/');
    if (!slash)
      break;
    *slash = '\0';
    if (up == 0 && (size_t)snprintf(buf, size, "%s/simty-sim", self) < size &&
        executable(buf))
      return buf;
    if ((size_t)snprintf(buf, size, "%s/bin/simty-sim", self) < size &&
        executable(buf))
      return buf;
  }
  return NULL;
}

int simty_transport_sim(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size)
{
  /* Options: warps, lanes, xbar (passed on: the launcher picks the
   * binary built for them), verbose (1: the board prints its cycle report
   * on stderr at close; it is quiet otherwise, unless $SIMTY_SIM_VERBOSE
   * says so). */
  char warps[16] = "", lanes[16] = "", verbose[16] = "", xbar[8] = "";
  if (*rest && *rest != '?') {
    snprintf(err, err_size,
             "expected sim[?warps=W&lanes=L&xbar=full|rotate&verbose=0|1], "
             "got 'sim:%s'",
             rest);
    return SIMTY_EURI;
  }
  for (const char *p = *rest ? rest + 1 : rest; *p;) {
    const char *amp = strchr(p, '&');
    size_t len = amp ? (size_t)(amp - p) : strlen(p);
    char *dst = NULL;
    size_t klen = 0;
    if (len >= 5 && strncmp(p, "xbar=", 5) == 0) {
      /* the crossbar kind (docs/architecture.md 3, "Crossbar kind") */
      if (!((len == 9 && strncmp(p + 5, "full", 4) == 0) ||
            (len == 11 && strncmp(p + 5, "rotate", 6) == 0))) {
        snprintf(err, err_size,
                 "bad value '%.*s' for sim option 'xbar': full or rotate",
                 (int)(len - 5), p + 5);
        return SIMTY_EURI;
      }
      memcpy(xbar, p + 5, len - 5);
      xbar[len - 5] = '\0';
      p = amp ? amp + 1 : p + len;
      continue;
    }
    if (len > 6 && strncmp(p, "warps=", 6) == 0)
      dst = warps, klen = 6;
    else if (len > 6 && strncmp(p, "lanes=", 6) == 0)
      dst = lanes, klen = 6;
    else if (len > 8 && strncmp(p, "verbose=", 8) == 0)
      dst = verbose, klen = 8;
    if (!dst || len - klen >= 16) {
      snprintf(err, err_size, "unknown or bad sim option '%.*s'", (int)len, p);
      return SIMTY_EURI;
    }
    memcpy(dst, p + klen, len - klen);
    dst[len - klen] = '\0';
    for (char *c = dst; *c; c++)
      if (!isdigit((unsigned char)*c)) {
        snprintf(err, err_size, "bad number in sim option '%.*s'", (int)len, p);
        return SIMTY_EURI;
      }
    p = amp ? amp + 1 : p + len;
  }
  char pathbuf[PATH_MAX];
  const char *sim = find_sim(pathbuf, sizeof(pathbuf));
  if (!sim) {
    snprintf(err, err_size,
             "simulated board not found: set SIMTY_SIM, build it (make "
             "simty-sim) or put simty-sim on PATH");
    /* PATH is still tried below. */
    sim = "simty-sim";
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    snprintf(err, err_size, "socketpair: %s", strerror(errno));
    return SIMTY_EIO;
  }
  /* Reports exec failure to the parent: closed on a successful exec. */
  int report[2];
  if (pipe(report) != 0 || fcntl(report[0], F_SETFD, FD_CLOEXEC) < 0 ||
      fcntl(report[1], F_SETFD, FD_CLOEXEC) < 0) {
    snprintf(err, err_size, "pipe: %s", strerror(errno));
    close(sv[0]);
    close(sv[1]);
    return SIMTY_EIO;
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, err_size, "fork: %s", strerror(errno));
    close(sv[0]);
    close(sv[1]);
    close(report[0]);
    close(report[1]);
    return SIMTY_EIO;
  }
  if (pid == 0) {
    /* The board's end stays open across exec; ours does not. */
    int flags = fcntl(sv[1], F_GETFD);
    fcntl(sv[1], F_SETFD, flags & ~FD_CLOEXEC);
    char fdarg[16];
    snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
    const char *argv[12];
    int a = 0;
    argv[a++] = sim;
    argv[a++] = "--fd";
    argv[a++] = fdarg;
    if (*warps) {
      argv[a++] = "--warps";
      argv[a++] = warps;
    }
    if (*lanes) {
      argv[a++] = "--lanes";
      argv[a++] = lanes;
    }
    if (*xbar) {
      argv[a++] = "--xbar";
      argv[a++] = xbar;
    }
    if (*verbose)
      argv[a++] = strtoul(verbose, NULL, 10) ? "--verbose" : "--quiet";
    argv[a] = NULL;
    if (strchr(sim, '/'))
      execv(sim, (char *const *)argv);
    else
      execvp(sim, (char *const *)argv);
    int code = errno;
    if (write(report[1], &code, sizeof(code)) < 0)
      _exit(127);
    _exit(127);
  }
  close(sv[1]);
  close(report[1]);
  int code = 0;
  ssize_t r;
  do
    r = read(report[0], &code, sizeof(code));
  while (r < 0 && errno == EINTR);
  close(report[0]);
  if (r == (ssize_t)sizeof(code)) {
    waitpid(pid, NULL, 0);
    close(sv[0]);
    if (strcmp(sim, "simty-sim") == 0)
      return SIMTY_ENODEV; /* err says how to get one */
    snprintf(err, err_size, "cannot run %s: %s", sim, strerror(code));
    return SIMTY_ENODEV;
  }
  int e = simty_transport_fd(sv[0], pid, "sim", out, err, err_size);
  if (e) {
    close(sv[0]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return e;
  }
  /* Verilated RTL runs the firmware far slower than a board: a large
   * margin, and short WAIT slices (device milliseconds take longer). */
  (*out)->margin_ms = 20000;
  (*out)->wait_slice_ms = 5;
  /* The board must have the crossbar asked for (open checks its INFO); a
   * rotate board is built only on request (the launcher exits at start-up
   * when it is missing, and says so too). */
  snprintf((*out)->want_xbar, sizeof((*out)->want_xbar), "%s", xbar);
  if (strcmp(xbar, "rotate") == 0)
    snprintf((*out)->start_hint, sizeof((*out)->start_hint),
             "a simulated board with the rotate crossbar is built only on "
             "request: 'make simty-sim-%sx%s_rotate' in the source tree",
             *warps ? warps : "4", *lanes ? lanes : "4");
  return 0;
}
