/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_stdio.c - stdout for kernels: picolibc's printf writes each byte
 * to the device console, which tags it with the writing thread. Nothing is
 * buffered here, so threads never share a buffer.
 */
#include <stdio.h>

#include "simty_kernel.h"

static int simty_console_put(char c, FILE *file)
{
  (void)file;
  simty_putchar(c);
  return (unsigned char)c;
}

static FILE simty_console = FDEV_SETUP_STREAM(simty_console_put, NULL, NULL,
                                              _FDEV_SETUP_WRITE);

FILE *const stdout = &simty_console;
FILE *const stderr = &simty_console;
