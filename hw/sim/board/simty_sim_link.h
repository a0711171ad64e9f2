/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_sim_link.h - the simulated board's side of the host link: one
 * stream socket (a TCP connection accepted on 127.0.0.1:PORT, or a
 * connected socket passed by the host library) and two byte queues that
 * the Verilator loop exchanges with the SoC's byte bridge.
 *
 * Nothing here blocks once the socket is connected: simty_sim_link_pump()
 * moves whatever the socket can take or give right now.
 */
#ifndef SIMTY_SIM_LINK_H
#define SIMTY_SIM_LINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIMTY_SIM_QUEUE 65536u /* bytes per direction, power of two */

struct simty_sim_queue {
  uint8_t buf[SIMTY_SIM_QUEUE];
  uint32_t head; /* next byte out */
  uint32_t tail; /* next free slot */
};

struct simty_sim_link {
  int fd;            /* the host's connection, -1 when none (serving) */
  int listen_fd;     /* serving: the listening socket, else -1 */
  int peer_closed;   /* the host closed its end (or the socket failed) */
  uint64_t bytes_in;  /* from the host */
  uint64_t bytes_out; /* to the host */
  struct simty_sim_queue to_device;
  struct simty_sim_queue to_host;
};

/* Listens on 127.0.0.1:port (0 = any free port), reports the port with
 * "simty-sim: listening on 127.0.0.1:PORT" on stderr, and waits for one
 * connection. Returns 0, or -1 with a message on stderr. */
int simty_sim_link_listen(struct simty_sim_link *l, int port);

/* Uses an already connected stream socket. Returns 0 or -1 (message). */
int simty_sim_link_use_fd(struct simty_sim_link *l, int fd);

/* --serve: listens on 127.0.0.1:port (printed on stderr) without waiting;
 * hosts connect one after another through simty_sim_link_accept().
 * Returns 0, or -1 with a message on stderr. */
int simty_sim_link_serve(struct simty_sim_link *l, int port);

/* Serving with no host connected: takes a waiting connection, polling up
 * to wait_ms for one. Returns 1 when a host connected (both queues start
 * empty), 0 when none came, -1 on a socket error. */
int simty_sim_link_accept(struct simty_sim_link *l, int wait_ms);

/* Serving: closes the connection of a host that left and drops what the
 * board still had for it; the board keeps listening. */
void simty_sim_link_hangup(struct simty_sim_link *l);

/* Moves bytes both ways without blocking. Returns 0, or -1 on a socket
 * error (then peer_closed is set too). */
int simty_sim_link_pump(struct simty_sim_link *l);

/* Blocks until the queued bytes for the host are sent (or the peer is
 * gone), at most timeout_ms. */
void simty_sim_link_flush(struct simty_sim_link *l, int timeout_ms);

void simty_sim_link_close(struct simty_sim_link *l);

static inline uint32_t simty_sim_queue_count(const struct simty_sim_queue *q)
{
  return q->tail - q->head;
}

static inline int simty_sim_queue_peek(const struct simty_sim_queue *q,
                                       uint8_t *b)
{
  if (q->tail == q->head)
    return 0;
  *b = q->buf[q->head & (SIMTY_SIM_QUEUE - 1u)];
  return 1;
}

static inline void simty_sim_queue_pop(struct simty_sim_queue *q)
{
  q->head++;
}

/* Returns 0 when full. */
static inline int simty_sim_queue_push(struct simty_sim_queue *q, uint8_t b)
{
  if (q->tail - q->head == SIMTY_SIM_QUEUE)
    return 0;
  q->buf[q->tail & (SIMTY_SIM_QUEUE - 1u)] = b;
  q->tail++;
  return 1;
}

#ifdef __cplusplus
}
#endif

#endif /* SIMTY_SIM_LINK_H */
