/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_cli.h - what the files of the simty command share: the parsed
 * command line, the output layer (text or JSON, errors included) and the
 * table of commands. A command is one function `int cmd_NAME(struct cli *)`
 * in its own file, listed in cli_commands[] (simty.c).
 *
 * Output rules: a command prints its result on stdout; errors go through
 * cli_error()/cli_device_error(), which print "simty: MESSAGE" on stderr
 * and, with --json, one JSON object {"error": {...}} on stdout instead of
 * the result, so that a JSON consumer always reads one object.
 */
#ifndef SIMTY_CLI_H
#define SIMTY_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "simty.h"

#define PROG "simty"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_USAGE = 2, EXIT_FAULT = 3 };

/* --load SYMBOL=FILE, --fill SYMBOL:COUNT:VALUE, --dump SYMBOL:COUNT[:FMT][=FILE]. */
enum data_op { DATA_LOAD, DATA_FILL, DATA_DUMP };
enum dump_format { DUMP_INT, DUMP_UINT, DUMP_HEX, DUMP_FLOAT, DUMP_RAW };

struct data_req {
  enum data_op op;
  char *symbol;
  uint32_t offset;  /* SYMBOL+OFFSET, bytes */
  uint32_t count;   /* words (fill, dump) */
  uint32_t value;   /* fill: the first word */
  uint32_t step;    /* fill: added for each next word */
  int format;       /* enum dump_format (dump) */
  char *file;       /* load: input; dump: output (NULL: stdout) */
  uint32_t addr;    /* resolved at run time */
};

struct run_opts {
  const char *kernel;
  uint64_t threads;
  const char **arg_values;
  size_t nargs;
  const char *args_symbol;
  struct data_req *data; /* in command-line order */
  size_t ndata;
  int counters;
  int quiet;
  uint64_t timeout_ms;
  uint64_t max_cycles;
  uint64_t stack_log2;
  const char *trace; /* --trace FILE (the model) */
};

struct cli {
  const char *uri;
  const char *command;
  int json;
  int full; /* selftest --full */
  struct run_opts run;
  simty_device *dev; /* open while a command runs */
  int error_printed; /* an error object went to stdout (JSON) */
};

/* ---- Output layer (cli_output.c) ---- */

/* An error: "simty: MESSAGE" on stderr; with --json, also
 * {"error": {"exit": N, "code": CODE|null, "message": "..."}} on stdout.
 * code is a library error (negative) or 0. Returns exit_code. */
int cli_error(struct cli *c, int exit_code, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A library error on the open device: "WHAT: STRERROR: DETAIL". */
int cli_device_error(struct cli *c, int e, const char *what);
/* A usage error: the message and a pointer to --help; exit 2. */
int cli_usage_error(struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void json_string(FILE *f, const char *s, size_t len);
void json_cstring(FILE *f, const char *s);
void json_counters(FILE *f, const struct simty_counters *c);
/* {"name", "cause", "pc": "0x%08x", "pc_value" (the same, a number),
 * "hart" and "tid" (null when none), "addr": "0x%08x", "addr_value",
 * "source" (function and file:line, null when unknown)}. */
void json_fault(FILE *f, const struct simty_fault *flt, const char *source);
/* "major.minor.patch" of major << 16 | minor << 8 | patch. */
void version_text(char *out, size_t size, uint32_t v);
/* Strict numbers: digits (or 0x hex) only, no sign or space. */
int parse_u64(const char *s, uint64_t max, uint64_t *out);
/* Progress of long transfers, on a terminal. */
void cli_progress(void *user, uint64_t done, uint64_t total);

/* ---- Commands ---- */

int cmd_info(struct cli *c);
int cmd_counters(struct cli *c);
int cmd_abort(struct cli *c);
int cmd_run(struct cli *c);
int cmd_selftest(struct cli *c);
/* --version (no command): host versions, and the device's when named. */
int cli_version(struct cli *c);

/* ---- Data options of run (cmd_data.c) ---- */

/* Parses the value of --load/--fill/--dump into r (owning its strings).
 * Returns 0, or -1 (usage error: bad value). */
int data_parse(enum data_op op, const char *value, struct data_req *r);
void data_free(struct data_req *r);
/* Resolves every request's symbol and checks it against the device's
 * memories. Returns EXIT_OK or an error exit code (reported). */
int data_resolve(struct cli *c, simty_kernel *k,
                 const struct simty_device_info *in);
/* Writes the --load and --fill requests to the device, in order. */
int data_write_inputs(struct cli *c);
/* Reads every --dump (one bulk read each) into bufs[i] (malloc'd). */
int data_read_dumps(struct cli *c, uint8_t **bufs);
/* Writes the dumps that name a FILE (one value a line, raw: the bytes).
 * Returns EXIT_OK or an error exit code (reported). */
int data_write_dump_files(struct cli *c, uint8_t **bufs);
/* Prints the other dumps: "SYMBOL[i] = VALUE" lines, or with JSON the
 * members of the "dumps" object. */
void data_print_dumps(struct cli *c, uint8_t **bufs, int json);

#endif /* SIMTY_CLI_H */
