/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty.c - the simty command-line tool: device information, running a
 * kernel, counters and board bring-up self-test, on any device URI.
 * This file holds the one option parser and the table of commands; each
 * command lives in its own cmd_*.c file, the output layer (text, JSON,
 * errors) in cli_output.c (see simty_cli.h).
 *
 *   simty [--device URI] [--json] info
 *   simty [--device URI] [--json] run KERNEL.elf [--threads N] [--arg V]...
 *         [--args SYMBOL] [--load SYMBOL=FILE]... [--fill SYMBOL:COUNT:VALUE]...
 *         [--dump SYMBOL:COUNT[:FORMAT][=FILE]]... [--counters]
 *         [--timeout MS] [--max-cycles C] [--stack-log2 S] [--quiet]
 *         [--trace FILE]
 *   simty [--device URI] [--json] counters
 *   simty [--device URI] [--json] abort
 *   simty [--device URI] [--json] selftest [--full]
 *
 * Exit codes: 0 success, 1 error (bad input, device error, self-test
 * failure), 2 usage, 3 kernel fault or host time-out.
 *
 * Only `run` ends a launch it started (at a time-out, or when it exits);
 * `info` and `counters` leave a launch another process left running
 * alone, and `abort` ends it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simty_cli.h"

static const char usage_text[] =
    "usage: " PROG " [--device URI] [--json] COMMAND [options]\n"
    "       " PROG " [--device URI] --version   versions of the host side (and\n"
    "                                         of the device, when named)\n"
    "\n"
    "commands:\n"
    "  info                      describe the device\n"
    "  run KERNEL.elf [options]  run a kernel\n"
    "      --threads N           logical threads (default: warps x lanes)\n"
    "      --arg VALUE           append a 32-bit word to the argument block:\n"
    "                            a number (decimal, 0x hex, negative) or\n"
    "                            @SYMBOL[+OFFSET], a kernel address\n"
    "      --args SYMBOL         argument pointer = address of SYMBOL\n"
    "      --load SYMBOL[:FMT]=FILE  write FILE at SYMBOL before the launch;\n"
    "                            FMT text (numbers: decimal, 0x hex, floats)\n"
    "                            or raw (bytes); default text for *.txt and\n"
    "                            *.csv, raw otherwise\n"
    "      --fill SYMBOL:COUNT:VALUE[,STEP]  write COUNT words VALUE,\n"
    "                            VALUE+STEP, ... at SYMBOL before the launch\n"
    "      --dump SYMBOL:COUNT[:FMT][=FILE]  print COUNT words at SYMBOL\n"
    "                            afterwards (FMT int, uint, hex, float, raw;\n"
    "                            =FILE: one value a line into FILE, or\n"
    "                            the bytes for raw)\n"
    "                            (SYMBOL may be SYMBOL+OFFSET, in bytes)\n"
    "      --counters            print the performance counters\n"
    "      --timeout MS          host time-out, then abort (default 60000)\n"
    "      --max-cycles C        device time-out in cycles (default none)\n"
    "      --stack-log2 S        per-thread stack size (default 10)\n"
    "      --quiet               drop the device console output\n"
    "      --trace FILE          write each warp instruction (the model):\n"
    "                            \"BASE_TID PC MASK FUNCTION at FILE:LINE\"\n"
    "  counters                  counters of the device's last launch (a\n"
    "                            device that persists: a board, or a served\n"
    "                            simulated board on tcp://)\n"
    "  abort                     end a launch left running (by another\n"
    "                            process) with an ABORTED fault\n"
    "  selftest [--full]         board bring-up: link, memory, lanes and\n"
    "                            warps, divergence, console, faults, abort\n"
    "\n"
    "The device is --device URI, else $SIMTY_DEVICE, else sim. URIs:\n"
    "sim[?warps=W&lanes=L] (a simulated board for this command alone),\n"
    "model[?warps=W&lanes=L], tcp://HOST:PORT (e.g. a board served by\n"
    "`simty-sim --serve --port 7000 &`: tcp://localhost:7000),\n"
    "ftdi://[VID:PID[:SERIAL]][/INTERFACE], usb://VID:PID.\n"
    "--json: one JSON object on stdout, errors included ({\"error\": ...}).\n"
    "Exit: 0 ok, 1 error, 2 usage, 3 kernel fault or time-out.\n";

/* Options: the commands that take them (NULL: any), whether they take a
 * value. */
enum opt_id {
  OPT_DEVICE, OPT_JSON, OPT_VERSION, OPT_HELP, OPT_THREADS, OPT_ARG,
  OPT_ARGS, OPT_LOAD, OPT_FILL, OPT_DUMP, OPT_COUNTERS, OPT_TIMEOUT,
  OPT_MAX_CYCLES, OPT_STACK_LOG2, OPT_QUIET, OPT_FULL, OPT_TRACE
};
static const struct option_def {
  const char *name;
  enum opt_id id;
  int valued;
  const char *command;
} options[] = {
    {"--device", OPT_DEVICE, 1, NULL},     {"--json", OPT_JSON, 0, NULL},
    {"--version", OPT_VERSION, 0, NULL},   {"--help", OPT_HELP, 0, NULL},
    {"-h", OPT_HELP, 0, NULL},             {"--threads", OPT_THREADS, 1, "run"},
    {"--arg", OPT_ARG, 1, "run"},          {"--args", OPT_ARGS, 1, "run"},
    {"--load", OPT_LOAD, 1, "run"},        {"--fill", OPT_FILL, 1, "run"},
    {"--dump", OPT_DUMP, 1, "run"},        {"--counters", OPT_COUNTERS, 0, "run"},
    {"--timeout", OPT_TIMEOUT, 1, "run"},  {"--max-cycles", OPT_MAX_CYCLES, 1, "run"},
    {"--stack-log2", OPT_STACK_LOG2, 1, "run"},
    {"--quiet", OPT_QUIET, 0, "run"},      {"--full", OPT_FULL, 0, "selftest"},
    {"--trace", OPT_TRACE, 1, "run"},
};

static const struct command_def {
  const char *name;
  int (*fn)(struct cli *c);
} commands[] = {
    {"info", cmd_info},   {"run", cmd_run},           {"counters", cmd_counters},
    {"abort", cmd_abort}, {"selftest", cmd_selftest},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One option (already split into name and value); 0 or an exit code. */
static int apply_option(struct cli *c, const struct option_def *d,
                        const char *value)
{
  struct run_opts *ro = &c->run;
  int bad = 0;
  switch (d->id) {
  case OPT_DEVICE:
    c->uri = value;
    break;
  case OPT_THREADS:
    bad = parse_u64(value, SIMTY_MAX_THREADS, &ro->threads) || !ro->threads;
    break;
  case OPT_ARG:
    ro->arg_values[ro->nargs++] = value;
    break;
  case OPT_ARGS:
    ro->args_symbol = value;
    break;
  case OPT_LOAD:
  case OPT_FILL:
  case OPT_DUMP: {
    struct data_req *r = &ro->data[ro->ndata];
    enum data_op op = d->id == OPT_LOAD   ? DATA_LOAD
                      : d->id == OPT_FILL ? DATA_FILL
                                          : DATA_DUMP;
    bad = data_parse(op, value, r);
    if (bad)
      data_free(r);
    else
      ro->ndata++;
    break;
  }
  case OPT_TIMEOUT:
    bad = parse_u64(value, UINT64_MAX, &ro->timeout_ms);
    break;
  case OPT_MAX_CYCLES:
    bad = parse_u64(value, UINT64_MAX, &ro->max_cycles);
    break;
  case OPT_STACK_LOG2:
    bad = parse_u64(value, SIMTY_STACK_LOG2_MAX, &ro->stack_log2) ||
          ro->stack_log2 < SIMTY_STACK_LOG2_MIN;
    break;
  case OPT_COUNTERS:
    ro->counters = 1;
    break;
  case OPT_TRACE:
    ro->trace = value;
    bad = !*value;
    break;
  case OPT_QUIET:
    ro->quiet = 1;
    break;
  case OPT_FULL:
    c->full = 1;
    break;
  case OPT_JSON:
  case OPT_VERSION:
  case OPT_HELP:
    break;
  }
  return bad ? cli_usage_error(c, "bad value '%s' for %s", value, d->name) : 0;
}

static int run_cli(struct cli *c, int argc, char **argv)
{
  int version = 0;
  const char *given[COUNT(options)] = {0}; /* command-specific, for checks */
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (opt[0] != '-' || !opt[1]) {
      if (!c->command)
        c->command = opt;
      else if (strcmp(c->command, "run") == 0 && !c->run.kernel)
        c->run.kernel = opt;
      else
        return cli_usage_error(c, "unexpected argument '%s'", opt);
      continue;
    }
    /* --name VALUE or --name=VALUE */
    const char *eq = opt[1] == '-' ? strchr(opt, '=') : NULL;
    size_t nlen = eq ? (size_t)(eq - opt) : strlen(opt);
    const struct option_def *d = NULL;
    for (size_t k = 0; k < COUNT(options); k++)
      if (strlen(options[k].name) == nlen &&
          strncmp(opt, options[k].name, nlen) == 0)
        d = &options[k];
    if (!d)
      return cli_usage_error(c, "unknown option '%.*s'", (int)nlen, opt);
    if (d->id == OPT_HELP) {
      fputs(usage_text, stdout);
      return EXIT_OK;
    }
    if (d->id == OPT_VERSION)
      version = 1;
    if (d->id == OPT_JSON)
      c->json = 1;
    const char *value = NULL;
    if (d->valued) {
      value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
      if (!value)
        return cli_usage_error(c, "option %s needs a value", d->name);
    } else if (eq) {
      return cli_usage_error(c, "option %s takes no value", d->name);
    }
    if (d->command)
      given[d - options] = d->name;
    int rc = apply_option(c, d, value);
    if (rc)
      return rc;
  }
  if (version)
    return cli_version(c);
  if (!c->command)
    return cli_usage_error(c, "no command given");
  const struct command_def *cmd = NULL;
  for (size_t k = 0; k < COUNT(commands); k++)
    if (strcmp(c->command, commands[k].name) == 0)
      cmd = &commands[k];
  if (!cmd)
    return cli_usage_error(c, "unknown command '%s'", c->command);
  for (size_t k = 0; k < COUNT(options); k++)
    if (given[k] && strcmp(options[k].command, c->command) != 0)
      return cli_usage_error(c, "%s is an option of '%s', not of '%s'",
                             given[k], options[k].command, c->command);
  if (cmd->fn == cmd_run && !c->run.kernel)
    return cli_usage_error(c, "run needs a kernel ELF");
  if (c->run.nargs && c->run.args_symbol)
    return cli_usage_error(c, "--arg and --args exclude each other");

  int e = simty_open(c->uri, &c->dev);
  if (e)
    return cli_error(c, EXIT_ERROR, e, "cannot open the device: %s: %s",
                     simty_strerror(e), simty_last_error(NULL));
  if (!c->json && isatty(STDERR_FILENO))
    simty_set_progress(c->dev, cli_progress, NULL);
  int rc = cmd->fn(c);
  simty_close(c->dev);
  c->dev = NULL;
  return rc;
}

int main(int argc, char **argv)
{
  struct cli c = {0};
  c.run.timeout_ms = 60000;
  /* --json anywhere makes every error JSON, usage errors included. */
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--json") == 0)
      c.json = 1;
  c.run.arg_values = calloc((size_t)argc, sizeof(*c.run.arg_values));
  c.run.data = calloc((size_t)argc, sizeof(*c.run.data));
  int rc;
  if (!c.run.arg_values || !c.run.data)
    rc = cli_error(&c, EXIT_ERROR, 0, "out of memory");
  else
    rc = run_cli(&c, argc, argv);
  for (size_t k = 0; k < c.run.ndata; k++)
    data_free(&c.run.data[k]);
  free(c.run.data);
  free(c.run.arg_values);
  return rc;
}
