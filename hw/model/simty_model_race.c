/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_race.c - the model's race checker (docs/architecture.md
 * section 7).
 *
 * Every byte of DATA a launch touches gets a shadow cell, in pages of
 * SIMTY_RACE_PAGE bytes allocated on first touch. Until a race is found
 * on a byte, its accesses so far obey one of two shapes, which is all a
 * cell has to remember:
 *
 *   - no write yet: any number of reading threads; the cell keeps two
 *     readers with different identities (a later writer differs from at
 *     least one of them if from any);
 *   - written: every access so far by one thread, the writer.
 *
 * A thread's identity is its logical id, except in the stack area where
 * it is its hardware thread: successive logical threads of a hardware
 * thread reuse its stack, in order. A race is reported once per word:
 * the four cells of the word are then marked and ignored for the rest of
 * the launch. Atomics never reach the checker.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_elf.h"
#include "simty_model_internal.h"

struct simty_race_who {
  uint32_t tid1; /* logical id + 1; 0 = nobody */
  uint32_t hart;
  uint32_t pc;
};

struct simty_race_cell {
  struct simty_race_who writer, reader[2];
  uint32_t reported;
};

void simty__model_race_reset(struct simty_model *m)
{
  size_t pages = m->data_size / SIMTY_RACE_PAGE + 1;
  for (size_t i = 0; i < pages; i++) {
    free(m->shadow[i]);
    m->shadow[i] = NULL;
  }
  m->races = 0;
}

static struct simty_race_cell *cell_of(struct simty_model *m, uint32_t off)
{
  struct simty_race_cell **page = &m->shadow[off / SIMTY_RACE_PAGE];
  if (!*page) {
    *page = calloc(SIMTY_RACE_PAGE, sizeof(**page));
    if (!*page)
      return NULL; /* out of memory: this page goes unchecked */
  }
  return &(*page)[off % SIMTY_RACE_PAGE];
}

static void report(struct simty_model *m, uint32_t off,
                   const struct simty_race_who *first, int first_write,
                   const struct simty_race_who *second, int second_write)
{
  /* The word's four cells share a page (pages are word-aligned). */
  struct simty_race_cell *word = cell_of(m, off & ~3u);
  for (unsigned i = 0; i < 4; i++)
    word[i].reported = 1;
  m->races++;
  struct simty_model_race r = {
      .addr = SIMTY_DATA_BASE + off,
      .first = {first->tid1 - 1, first->hart, first->pc, first_write},
      .second = {second->tid1 - 1, second->hart, second->pc, second_write},
  };
  m->race_fn(m->race_user, &r);
}

void simty__model_race_access(struct simty_model *m, unsigned wi,
                              uint64_t lanes, const uint32_t *addr,
                              unsigned size, uint32_t pc, int write)
{
  const struct simty_warp *w = &m->warp[wi];
  const uint32_t stack_off = m->data_size -
                             (uint32_t)((uint64_t)m->warps * m->lanes
                                        << m->stack_log2);
  for (; lanes; lanes &= lanes - 1) {
    unsigned l = (unsigned)__builtin_ctzll(lanes);
    uint32_t off0 = addr[l] - SIMTY_DATA_BASE;
    if (off0 >= m->data_size)
      continue; /* the console */
    struct simty_race_who me = {w->base_tid + l + 1, wi * m->lanes + l, pc};
    const int by_hart = off0 >= stack_off;
    for (unsigned k = 0; k < size; k++) {
      uint32_t off = off0 + k;
      struct simty_race_cell *c = cell_of(m, off);
      if (!c || c->reported)
        continue;
#define SAME(who) (by_hart ? (who).hart == me.hart : (who).tid1 == me.tid1)
      if (c->writer.tid1 && !SAME(c->writer)) {
        report(m, off, &c->writer, 1, &me, write);
        break;
      }
      if (!write) {
        if (!c->writer.tid1) {
          if (!c->reader[0].tid1)
            c->reader[0] = me;
          else if (!SAME(c->reader[0]) && !c->reader[1].tid1)
            c->reader[1] = me;
        }
        continue;
      }
      if (c->reader[0].tid1 && !SAME(c->reader[0])) {
        report(m, off, &c->reader[0], 0, &me, 1);
        break;
      }
      if (c->reader[1].tid1 && !SAME(c->reader[1])) {
        report(m, off, &c->reader[1], 0, &me, 1);
        break;
      }
      c->writer = me;
#undef SAME
    }
  }
}

/* "name+0x10", "stack of hart 3 +0x3f0" or "" for an address. */
static void where(char *buf, size_t size, const struct simty_elf *elf,
                  uint32_t addr, uint32_t stack_top, unsigned harts,
                  unsigned stack_log2)
{
  const char *name;
  uint32_t offset;
  uint64_t stack_bottom = (uint64_t)stack_top -
                          ((uint64_t)harts << stack_log2);
  if (elf && simty__elf_symbol_at(elf, addr, &name, &offset) == 0)
    snprintf(buf, size, " (%s+0x%" PRIx32 ")", name, offset);
  else if (addr >= stack_bottom && addr < stack_top)
    snprintf(buf, size, " (stack of hart %u)",
             (unsigned)((stack_top - 1 - addr) >> stack_log2));
  else
    buf[0] = '\0';
}

void simty_model_race_format(const struct simty_model_race *r,
                             const struct simty_elf *elf, uint32_t stack_top,
                             unsigned harts, unsigned stack_log2, char *buf,
                             size_t size)
{
  char at[160], pc1[160], pc2[160];
  where(at, sizeof(at), elf, r->addr, stack_top, harts, stack_log2);
  where(pc1, sizeof(pc1), elf, r->first.pc, 0, 0, 0);
  where(pc2, sizeof(pc2), elf, r->second.pc, 0, 0, 0);
  snprintf(buf, size,
           "race on 0x%08" PRIx32 "%s: %s by thread %" PRIu32
           " (hart %" PRIu32 ") at pc 0x%08" PRIx32 "%s, %s by thread %" PRIu32
           " (hart %" PRIu32 ") at pc 0x%08" PRIx32 "%s",
           r->addr, at, r->first.write ? "write" : "read", r->first.tid,
           r->first.hart, r->first.pc, pc1, r->second.write ? "write" : "read",
           r->second.tid, r->second.hart, r->second.pc, pc2);
}
