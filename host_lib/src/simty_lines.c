/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_lines.c - device console bytes regrouped into lines per thread:
 * see simty_lines.h.
 */
#include "simty_lines.h"

#include <stdlib.h>
#include <string.h>

static size_t hash_tid(uint32_t tid, size_t nslots)
{
  return (size_t)(tid * 2654435761u) & (nslots - 1);
}

static struct simty__line *slot(struct simty__lines *l, uint32_t tid)
{
  if (l->nused * 2 >= l->nslots) {
    size_t nslots = l->nslots ? l->nslots * 2 : 64;
    struct simty__line *slots = calloc(nslots, sizeof(*slots));
    if (!slots)
      return NULL;
    for (size_t i = 0; i < l->nslots; i++) {
      if (!l->slots[i].used)
        continue;
      size_t j = hash_tid(l->slots[i].tid, nslots);
      while (slots[j].used)
        j = (j + 1) & (nslots - 1);
      slots[j] = l->slots[i];
    }
    free(l->slots);
    l->slots = slots;
    l->nslots = nslots;
  }
  size_t j = hash_tid(tid, l->nslots);
  while (l->slots[j].used && l->slots[j].tid != tid)
    j = (j + 1) & (l->nslots - 1);
  if (!l->slots[j].used) {
    l->slots[j].used = 1;
    l->slots[j].tid = tid;
    l->nused++;
  }
  return &l->slots[j];
}

static void deliver(struct simty__lines *l, struct simty__line *lb)
{
  if (lb->text)
    lb->text[lb->len] = '\0';
  if (l->fn)
    l->fn(l->user, lb->tid, lb->text ? lb->text : "", lb->len);
  lb->len = 0;
}

void simty__lines_byte(struct simty__lines *l, uint32_t tid, uint8_t byte)
{
  struct simty__line *lb = slot(l, tid);
  if (!lb) {
    l->lost = 1;
    return;
  }
  if (byte == '\n') {
    deliver(l, lb);
    return;
  }
  if (lb->len + 1 >= lb->cap) {
    size_t cap = lb->cap ? lb->cap * 2 : 128;
    char *text = realloc(lb->text, cap);
    if (!text) {
      l->lost = 1;
      return;
    }
    lb->text = text;
    lb->cap = cap;
  }
  lb->text[lb->len++] = (char)byte;
  if (lb->len >= SIMTY_LINE_MAX_BYTES)
    deliver(l, lb);
}

static int cmp_line(const void *a, const void *b)
{
  const struct simty__line *x = *(const struct simty__line *const *)a;
  const struct simty__line *y = *(const struct simty__line *const *)b;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

void simty__lines_flush(struct simty__lines *l)
{
  size_t n = 0;
  for (size_t i = 0; i < l->nslots; i++)
    n += l->slots[i].used && l->slots[i].len;
  if (n) {
    struct simty__line **open = calloc(n, sizeof(*open));
    size_t k = 0;
    for (size_t i = 0; i < l->nslots && open; i++)
      if (l->slots[i].used && l->slots[i].len)
        open[k++] = &l->slots[i];
    if (open)
      qsort(open, k, sizeof(*open), cmp_line);
    else
      l->lost = 1;
    for (size_t i = 0; i < k; i++)
      deliver(l, open[i]);
    free(open);
  }
  for (size_t i = 0; i < l->nslots; i++) {
    free(l->slots[i].text);
    memset(&l->slots[i], 0, sizeof(l->slots[i]));
  }
  l->nused = 0;
}

void simty__lines_free(struct simty__lines *l)
{
  for (size_t i = 0; i < l->nslots; i++)
    free(l->slots[i].text);
  free(l->slots);
  l->slots = NULL;
  l->nslots = l->nused = 0;
}
