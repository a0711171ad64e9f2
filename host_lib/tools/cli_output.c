/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli_output.c - the simty command's output layer: errors in text and
 * JSON, JSON helpers, strict numbers, progress (see simty_cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "simty_cli.h"

static int verror(struct cli *c, int exit_code, int code, const char *fmt,
                  va_list ap)
{
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  fprintf(stderr, PROG ": %s\n", msg);
  if (exit_code == EXIT_USAGE)
    fprintf(stderr, "(run " PROG " --help for usage)\n");
  if (c && c->json && !c->error_printed) {
    fflush(stdout);
    printf("{\"error\": {\"exit\": %d, \"code\": ", exit_code);
    if (code < 0)
      json_cstring(stdout, simty_error_name(code));
    else
      printf(exit_code == EXIT_USAGE ? "\"usage\"" : "null");
    printf(", \"message\": ");
    json_cstring(stdout, msg);
    printf("}}\n");
    fflush(stdout);
    c->error_printed = 1;
  }
  return exit_code;
}

int cli_error(struct cli *c, int exit_code, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = verror(c, exit_code, code, fmt, ap);
  va_end(ap);
  return rc;
}

int cli_usage_error(struct cli *c, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int rc = verror(c, EXIT_USAGE, 0, fmt, ap);
  va_end(ap);
  return rc;
}

int cli_device_error(struct cli *c, int e, const char *what)
{
  const char *detail = simty_last_error(c->dev);
  return cli_error(c, EXIT_ERROR, e, "%s: %s%s%s", what, simty_strerror(e),
                   *detail ? ": " : "", detail);
}

void json_string(FILE *f, const char *s, size_t len)
{
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch == '\n')
      fputs("\\n", f);
    else if (ch < 0x20 || ch >= 0x7f)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

void json_cstring(FILE *f, const char *s)
{
  if (!s)
    fputs("null", f);
  else
    json_string(f, s, strlen(s));
}

void json_counters(FILE *f, const struct simty_counters *c)
{
  fputc('{', f);
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
    fprintf(f, "%s\"%s\": %" PRIu64, i ? ", " : "", simty_counter_name(i),
            simty_counter_value(c, i));
  fprintf(f, ", \"ipc\": %.3f, \"simd_efficiency\": %.3f}",
          simty_counters_ipc(c), simty_counters_simd_efficiency(c));
}

void json_fault(FILE *f, const struct simty_fault *flt, const char *source)
{
  fprintf(f,
          "{\"name\": \"%s\", \"cause\": %" PRIu32 ", \"pc\": \"0x%08" PRIx32
          "\", \"pc_value\": %" PRIu32 ", \"hart\": ",
          simty_fault_name(flt->cause), flt->cause, flt->pc, flt->pc);
  if (flt->hart == UINT32_MAX)
    fputs("null", f);
  else
    fprintf(f, "%" PRIu32, flt->hart);
  fputs(", \"tid\": ", f);
  if (flt->tid == UINT32_MAX)
    fputs("null", f);
  else
    fprintf(f, "%" PRIu32, flt->tid);
  fprintf(f, ", \"addr\": \"0x%08" PRIx32 "\", \"addr_value\": %" PRIu32
          ", \"source\": ",
          flt->addr, flt->addr);
  json_cstring(f, source && *source ? source : NULL);
  fputc('}', f);
}

void version_text(char *out, size_t size, uint32_t v)
{
  snprintf(out, size, "%" PRIu32 ".%" PRIu32 ".%" PRIu32, v >> 16,
           (v >> 8) & 0xffu, v & 0xffu);
}

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
  if (!s || !isdigit((unsigned char)*s))
    return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > max)
    return -1;
  *out = v;
  return 0;
}

void cli_progress(void *user, uint64_t done, uint64_t total)
{
  (void)user;
  fprintf(stderr, "\r  transfer %3u%% (%" PRIu64 " of %" PRIu64 " KiB)",
          (unsigned)(done * 100 / (total ? total : 1)), done / 1024,
          total / 1024);
  if (done >= total)
    fputs("\r\033[K", stderr);
  fflush(stderr);
}
