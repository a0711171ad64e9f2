/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_counters.c - `simty counters` (the counters of the device's last
 * launch) and `simty abort` (end a launch another process left running).
 */
#include <string.h>

#include "simty_cli.h"

/* Devices that a command creates afresh and ends with it: they have no
 * launch before this command. */
static int fresh_device(const struct simty_device_info *in)
{
  return strcmp(in->backend, "model") == 0 || strcmp(in->backend, "sim") == 0;
}

int cmd_counters(struct cli *c)
{
  struct simty_device_info in;
  simty_device_info(c->dev, &in);
  if (fresh_device(&in))
    return cli_error(c, EXIT_ERROR, SIMTY_ENOLAUNCH,
                     "no previous launch: '%s' is a new %s device for this "
                     "command alone (counters come with `simty run "
                     "--counters`, or from a device that persists: a board, "
                     "or `simty-sim --serve --port N` used as "
                     "--device tcp://localhost:N)",
                     simty_device_uri(c->dev),
                     strcmp(in.backend, "model") == 0 ? "in-process model"
                                                      : "simulated board");
  struct simty_counters ctr;
  int e = simty_get_counters(c->dev, &ctr);
  if (e)
    return cli_device_error(c, e, "cannot read the counters");
  if (c->json) {
    json_counters(stdout, &ctr);
    putchar('\n');
  } else {
    char text[1024];
    simty_counters_format(&ctr, text, sizeof(text));
    fputs(text, stdout);
  }
  return EXIT_OK;
}

/* Ends a launch found running at open (the library leaves such a launch
 * alone unless asked). Nothing running is not an error. */
int cmd_abort(struct cli *c)
{
  simty_device *dev = c->dev;
  simty_set_console(dev, NULL, NULL); /* the other program's output */
  int e = simty_wait(dev, 0);
  const char *what;
  struct simty_fault f = {0};
  if (e == SIMTY_ENOLAUNCH || e == 0 || e == SIMTY_EFAULT) {
    what = e == SIMTY_ENOLAUNCH ? "no launch is running"
                                : "the launch had already ended";
  } else if (e != SIMTY_ETIMEDOUT) {
    return cli_device_error(c, e, "cannot read the launch status");
  } else {
    if ((e = simty_abort(dev)) != 0)
      return cli_device_error(c, e, "cannot abort");
    e = simty_wait(dev, 10000);
    if (e != SIMTY_EFAULT && e != 0)
      return cli_device_error(c, e, "abort sent, but the launch did not end");
    simty_get_fault(dev, &f);
    what = "aborted the running launch";
  }
  int aborted = f.cause == SIMTY_FAULT_ABORTED;
  if (c->json) {
    printf("{\"aborted\": %s, \"status\": ", aborted ? "true" : "false");
    json_cstring(stdout, what);
    printf("}\n");
  } else {
    printf("%s\n", what);
  }
  return EXIT_OK;
}
