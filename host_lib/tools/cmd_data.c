/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_data.c - the data options of `simty run`: feeding a kernel its
 * input arrays and reading its results (docs/host_lib.md, "The simty
 * command").
 *
 *   --load SYMBOL[+OFF][:FORMAT]=FILE   FILE's contents at SYMBOL
 *       FORMAT raw: the bytes as they are (little-endian words);
 *       FORMAT text: numbers separated by spaces, commas or newlines
 *       (decimal, negative, 0x hex, or with a '.'/exponent a float stored
 *       as IEEE single), '#' to the end of a line is a comment.
 *       Without FORMAT: text for a FILE named *.txt or *.csv, raw otherwise.
 *   --fill SYMBOL[+OFF]:COUNT:VALUE[,STEP]  COUNT words: VALUE, VALUE+STEP, ...
 *       (VALUE a number as above; a float VALUE takes no STEP)
 *   --dump SYMBOL[+OFF]:COUNT[:FORMAT][=FILE]  COUNT words after the run
 *       FORMAT int (signed decimal, the default), uint, hex, float, raw.
 *       On stdout: "SYMBOL[i] = VALUE" lines (raw needs a FILE); into
 *       FILE: one value a line (raw: the bytes), which --load reads back.
 *
 * Loads and fills are written in command-line order after the kernel is
 * loaded (so after its .data is set up) and before the launch; every
 * range is checked against the device's memories before anything is sent.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "simty_cli.h"

static const char *const format_names[] = {"int", "uint", "hex", "float",
                                           "raw"};

static int parse_format(const char *s, size_t len)
{
  for (int i = 0; i < (int)(sizeof format_names / sizeof format_names[0]); i++)
    if (strlen(format_names[i]) == len && strncmp(s, format_names[i], len) == 0)
      return i;
  if (len == 4 && strncmp(s, "text", 4) == 0)
    return DUMP_INT; /* --load FORMAT text */
  return -1;
}

/* "SYMBOL" or "SYMBOL+OFFSET" (len bytes of s). */
static int parse_symbol(const char *s, size_t len, struct data_req *r)
{
  const char *plus = memchr(s, '+', len);
  size_t nlen = plus ? (size_t)(plus - s) : len;
  if (nlen == 0)
    return -1;
  if (plus) {
    char num[32];
    uint64_t off;
    size_t olen = len - nlen - 1;
    if (olen == 0 || olen >= sizeof num)
      return -1;
    memcpy(num, plus + 1, olen);
    num[olen] = '\0';
    if (parse_u64(num, UINT32_MAX, &off))
      return -1;
    r->offset = (uint32_t)off;
  }
  r->symbol = strndup(s, len);
  return r->symbol ? 0 : -1;
}

/* A 32-bit word: integer (decimal, negative, 0x hex) or float. */
static int parse_word(const char *s, uint32_t *out, int *is_float)
{
  char *end;
  int hex = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
            (s[0] == '-' && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'));
  if (!hex && (strpbrk(s, ".eE") || strstr(s, "inf") || strstr(s, "nan"))) {
    errno = 0;
    float f = strtof(s, &end);
    if (end == s || *end || errno == ERANGE)
      return -1;
    memcpy(out, &f, 4);
    if (is_float)
      *is_float = 1;
    return 0;
  }
  if (!isdigit((unsigned char)s[s[0] == '-']))
    return -1;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || *end || v < INT32_MIN || v > (long long)UINT32_MAX)
    return -1;
  *out = (uint32_t)v;
  if (is_float)
    *is_float = 0;
  return 0;
}

int data_parse(enum data_op op, const char *value, struct data_req *r)
{
  memset(r, 0, sizeof *r);
  r->op = op;
  const char *eq = strchr(value, '=');
  if (op == DATA_LOAD) { /* SYMBOL[+OFF][:FORMAT]=FILE */
    if (!eq || !eq[1])
      return -1;
    const char *colon = memchr(value, ':', (size_t)(eq - value));
    const char *name_end = colon ? colon : eq;
    r->format = -1;
    if (colon) {
      r->format = parse_format(colon + 1, (size_t)(eq - colon - 1));
      if (r->format != DUMP_INT && r->format != DUMP_RAW)
        return -1;
    }
    if (parse_symbol(value, (size_t)(name_end - value), r))
      return -1;
    r->file = strdup(eq + 1);
    if (!r->file)
      return -1;
    if (r->format < 0) {
      size_t n = strlen(r->file);
      int text = n > 4 && (strcmp(r->file + n - 4, ".txt") == 0 ||
                           strcmp(r->file + n - 4, ".csv") == 0);
      r->format = text ? DUMP_INT : DUMP_RAW;
    }
    return 0;
  }
  if (op == DATA_DUMP && eq) {
    if (!eq[1])
      return -1;
    r->file = strdup(eq + 1);
    if (!r->file)
      return -1;
  }
  size_t len = eq ? (size_t)(eq - value) : strlen(value);
  char *spec = strndup(value, len);
  if (!spec)
    return -1;
  /* SYMBOL[+OFF]:COUNT[:FORMAT] or SYMBOL[+OFF]:COUNT:VALUE[,STEP] */
  char *c1 = strchr(spec, ':');
  char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  int bad = !c1 || (op == DATA_FILL && !c2);
  if (!bad) {
    *c1 = '\0';
    if (c2)
      *c2 = '\0';
    uint64_t count;
    bad = parse_symbol(spec, strlen(spec), r) ||
          parse_u64(c1 + 1, 1u << 24, &count);
    if (!bad)
      r->count = (uint32_t)count;
  }
  if (!bad && op == DATA_DUMP) {
    r->format = c2 ? parse_format(c2 + 1, strlen(c2 + 1)) : DUMP_INT;
    bad = r->format < 0 || (r->format == DUMP_RAW && !r->file);
  }
  if (!bad && op == DATA_FILL) {
    char *comma = strchr(c2 + 1, ',');
    int is_float = 0;
    if (comma)
      *comma = '\0';
    bad = parse_word(c2 + 1, &r->value, &is_float) ||
          (comma && (is_float || parse_word(comma + 1, &r->step, &is_float) ||
                     is_float));
  }
  free(spec);
  return bad ? -1 : 0;
}

void data_free(struct data_req *r)
{
  free(r->symbol);
  free(r->file);
  r->symbol = r->file = NULL;
}

/* Reads FILE as text numbers (or raw bytes) into a malloc'd buffer. */
static int read_input(struct cli *c, const struct data_req *r, uint8_t **out,
                      size_t *len)
{
  FILE *f = fopen(r->file, "rb");
  if (!f)
    return cli_error(c, EXIT_ERROR, 0, "--load %s: %s", r->file,
                     strerror(errno));
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  int rc = buf ? EXIT_OK : cli_error(c, EXIT_ERROR, 0, "out of memory");
  if (rc == EXIT_OK && r->format == DUMP_RAW) {
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
      n += got;
      if (n == cap) {
        uint8_t *more = cap > (64u << 20) ? NULL : realloc(buf, cap * 2);
        if (!more) {
          rc = cli_error(c, EXIT_ERROR, 0, "--load %s: larger than 64 MiB",
                         r->file);
          break;
        }
        buf = more;
        cap *= 2;
      }
    }
    if (rc == EXIT_OK && ferror(f))
      rc = cli_error(c, EXIT_ERROR, 0, "--load %s: %s", r->file,
                     strerror(errno));
  } else if (rc == EXIT_OK) {
    char line[4096];
    unsigned lineno = 0;
    while (rc == EXIT_OK && fgets(line, sizeof line, f)) {
      lineno++;
      char *hash = strchr(line, '#');
      if (hash)
        *hash = '\0';
      for (char *tok = strtok(line, " \t\r\n,;"); tok && rc == EXIT_OK;
           tok = strtok(NULL, " \t\r\n,;")) {
        uint32_t w;
        if (parse_word(tok, &w, NULL)) {
          rc = cli_error(c, EXIT_ERROR, 0,
                         "--load %s:%u: '%s' is not a number (text "
                         "format; name the file *.bin or use %s:raw=FILE "
                         "for raw bytes)",
                         r->file, lineno, tok, r->symbol);
          break;
        }
        if (n + 4 > cap) {
          uint8_t *more = realloc(buf, cap * 2);
          if (!more) {
            rc = cli_error(c, EXIT_ERROR, 0, "out of memory");
            break;
          }
          buf = more;
          cap *= 2;
        }
        for (int b = 0; b < 4; b++)
          buf[n++] = (uint8_t)(w >> (8 * b));
      }
    }
  }
  fclose(f);
  if (rc != EXIT_OK) {
    free(buf);
    return rc;
  }
  *out = buf;
  *len = n;
  return EXIT_OK;
}

static const char *op_name(enum data_op op)
{
  return op == DATA_LOAD ? "--load" : op == DATA_FILL ? "--fill" : "--dump";
}

int data_resolve(struct cli *c, simty_kernel *k,
                 const struct simty_device_info *in)
{
  struct run_opts *o = &c->run;
  for (size_t i = 0; i < o->ndata; i++) {
    struct data_req *r = &o->data[i];
    char name[256];
    size_t nlen = strcspn(r->symbol, "+");
    snprintf(name, sizeof name, "%.*s", (int)nlen, r->symbol);
    uint32_t addr;
    if (simty_kernel_symbol(k, name, &addr, NULL))
      return cli_error(c, EXIT_ERROR, 0, "%s: no symbol '%s' for %s",
                       o->kernel, name, op_name(r->op));
    r->addr = addr + r->offset;
    uint64_t bytes = 4ull * r->count;
    if (r->op == DATA_LOAD) {
      /* The file's size is known when it is read; check what exists. */
      continue;
    }
    uint64_t end = (uint64_t)r->addr + bytes;
    int inside =
        (r->addr >= in->code_base &&
         end <= (uint64_t)in->code_base + in->code_size) ||
        (r->addr >= in->data_base &&
         end <= (uint64_t)in->data_base + in->data_size);
    if (r->count && !inside)
      return cli_error(c, EXIT_ERROR, SIMTY_ERANGE,
                       "%s: %s %s:%" PRIu32 " is outside device memory",
                       o->kernel, op_name(r->op), r->symbol, r->count);
  }
  return EXIT_OK;
}

int data_write_inputs(struct cli *c)
{
  struct run_opts *o = &c->run;
  for (size_t i = 0; i < o->ndata; i++) {
    struct data_req *r = &o->data[i];
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc;
    if (r->op == DATA_DUMP)
      continue;
    if (r->op == DATA_LOAD) {
      rc = read_input(c, r, &buf, &len);
      if (rc != EXIT_OK)
        return rc;
    } else {
      len = 4u * (size_t)r->count;
      buf = malloc(len ? len : 1);
      if (!buf)
        return cli_error(c, EXIT_ERROR, 0, "out of memory");
      for (uint32_t j = 0; j < r->count; j++) {
        uint32_t w = r->value + j * r->step;
        for (int b = 0; b < 4; b++)
          buf[4u * j + (unsigned)b] = (uint8_t)(w >> (8 * b));
      }
    }
    int e = len ? simty_write(c->dev, r->addr, buf, len) : 0;
    free(buf);
    if (e) {
      char what[320];
      snprintf(what, sizeof what, "cannot write %s %s (%zu bytes)",
               op_name(r->op), r->symbol, len);
      return cli_device_error(c, e, what);
    }
  }
  return EXIT_OK;
}

int data_read_dumps(struct cli *c, uint8_t **bufs)
{
  struct run_opts *o = &c->run;
  for (size_t i = 0; i < o->ndata; i++) {
    const struct data_req *r = &o->data[i];
    if (r->op != DATA_DUMP || !r->count)
      continue;
    /* The whole array in one read: a bulk transfer on a link device. */
    bufs[i] = malloc(4u * (size_t)r->count);
    if (!bufs[i])
      return cli_error(c, EXIT_ERROR, 0, "out of memory");
    int e = simty_read(c->dev, r->addr, bufs[i], 4u * (size_t)r->count);
    if (e)
      return cli_device_error(c, e, "cannot read --dump memory");
  }
  return EXIT_OK;
}

static void print_word(FILE *f, uint32_t w, int format, int json)
{
  switch (format) {
  case DUMP_UINT:
    fprintf(f, "%" PRIu32, w);
    break;
  case DUMP_HEX:
    fprintf(f, json ? "\"0x%08" PRIx32 "\"" : "0x%08" PRIx32, w);
    break;
  case DUMP_FLOAT: {
    float x;
    memcpy(&x, &w, 4);
    if (json && (x != x || x - x != 0.0f))
      fputs("null", f); /* NaN and infinities have no JSON number */
    else
      fprintf(f, "%.9g", (double)x);
    break;
  }
  default:
    fprintf(f, "%" PRId32, (int32_t)w);
  }
}

static uint32_t word_at(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

int data_write_dump_files(struct cli *c, uint8_t **bufs)
{
  struct run_opts *o = &c->run;
  for (size_t i = 0; i < o->ndata; i++) {
    const struct data_req *r = &o->data[i];
    if (r->op != DATA_DUMP || !r->file)
      continue;
    FILE *f = fopen(r->file, r->format == DUMP_RAW ? "wb" : "w");
    if (!f)
      return cli_error(c, EXIT_ERROR, 0, "--dump %s: %s", r->file,
                       strerror(errno));
    if (r->format == DUMP_RAW && r->count)
      fwrite(bufs[i], 4, r->count, f);
    else
      for (uint32_t j = 0; j < r->count; j++) {
        print_word(f, word_at(bufs[i] + 4u * j), r->format, 0);
        fputc('\n', f);
      }
    if (ferror(f) | (fclose(f) != 0))
      return cli_error(c, EXIT_ERROR, 0, "--dump %s: %s", r->file,
                       strerror(errno));
  }
  return EXIT_OK;
}

void data_print_dumps(struct cli *c, uint8_t **bufs, int json)
{
  struct run_opts *o = &c->run;
  int first = 1;
  for (size_t i = 0; i < o->ndata; i++) {
    const struct data_req *r = &o->data[i];
    if (r->op != DATA_DUMP || r->file)
      continue;
    if (json) { /* key: SYMBOL[+OFF], with ":FORMAT" unless int */
      char key[300];
      snprintf(key, sizeof key, "%s%s%s", r->symbol,
               r->format == DUMP_INT ? "" : ":",
               r->format == DUMP_INT ? "" : format_names[r->format]);
      printf("%s", first ? "" : ", ");
      json_cstring(stdout, key);
      printf(": [");
    }
    first = 0;
    for (uint32_t j = 0; j < r->count; j++) {
      uint32_t w = word_at(bufs[i] + 4u * j);
      if (json) {
        printf("%s", j ? ", " : "");
        print_word(stdout, w, r->format, 1);
      } else {
        printf("%s[%" PRIu32 "] = ", r->symbol, j);
        print_word(stdout, w, r->format, 0);
        putchar('\n');
      }
    }
    if (json)
      printf("]");
  }
}
