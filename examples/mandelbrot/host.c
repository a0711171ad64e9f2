/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - mandelbrot: escape-time counts of a width x height view of the
 * Mandelbrot set in Q12 fixed point, one pixel per thread, checked against
 * the same fixed-point computation on the CPU, written as a PGM image.
 *
 * Extra options: --out FILE (default: mandelbrot.pgm beside this program,
 * build/examples/mandelbrot.pgm), --iter N (iteration limit, default 32).
 * --n is the width; the height is 2/3 of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "mandelbrot.h"

/* Takes --out and --iter out of argv (example_init() knows only the common
 * options). Returns 0, or -1 after printing a usage error. */
static int take_options(int *argc, char **argv, const char **out,
                        uint32_t *max_iter)
{
  int kept = 1;
  for (int i = 1; i < *argc; i++) {
    int is_out = strcmp(argv[i], "--out") == 0;
    int is_iter = strcmp(argv[i], "--iter") == 0;
    if (!is_out && !is_iter) {
      if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
        fprintf(stderr, "mandelbrot: also --out FILE (PGM image, default "
                        "mandelbrot.pgm beside the program) and --iter N "
                        "(iteration limit, default 32)\n");
      argv[kept++] = argv[i];
      continue;
    }
    if (i + 1 >= *argc) {
      fprintf(stderr, "mandelbrot: option %s needs a value\n", argv[i]);
      return -1;
    }
    const char *value = argv[++i];
    if (is_out) {
      *out = value;
    } else {
      char *end;
      errno = 0;
      unsigned long v = strtoul(value, &end, 0);
      if (!*value || *value == '-' || *end || errno || v == 0 || v > 100000) {
        fprintf(stderr, "mandelbrot: --iter must be 1 .. 100000\n");
        return -1;
      }
      *max_iter = (uint32_t)v;
    }
  }
  argv[kept] = NULL;
  *argc = kept;
  return 0;
}

/* Binary PGM: in-set pixels black, the others brighter the later they
 * escape. Returns 0 or -1 (message printed); closes f either way. */
static int write_pgm(FILE *f, const char *path, const int32_t *iters,
                     uint32_t width, uint32_t height, uint32_t max_iter)
{
  fprintf(f, "P5\n%u %u\n255\n", width, height);
  for (uint32_t i = 0; i < width * height; i++) {
    uint32_t it = (uint32_t)iters[i];
    int gray = it >= max_iter ? 0 : (int)(32 + it * 223 / max_iter);
    fputc(gray, f);
  }
  int failed = ferror(f);
  if (fclose(f) != 0 || failed) {
    fprintf(stderr, "mandelbrot: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  /* Default image: beside the program (build/examples/). */
  char default_out[4096];
  const char *slash = strrchr(argv[0], '/');
  snprintf(default_out, sizeof(default_out), "%.*smandelbrot.pgm",
           slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
  const char *out = default_out;
  uint32_t max_iter = 32;
  if (take_options(&argc, argv, &out, &max_iter) != 0)
    return EXAMPLE_USAGE;

  struct example ex;
  example_init(&ex, argc, argv, "mandelbrot", EXAMPLE_KERNEL, 48);
  if (ex.n < 3 || ex.n > 4096) {
    fprintf(stderr, "mandelbrot: --n (the width) must be 3 .. 4096\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  /* Opened before the run, so that a bad path costs no device time. */
  FILE *image = fopen(out, "wb");
  if (!image) {
    fprintf(stderr, "mandelbrot: cannot create %s: %s\n", out, strerror(errno));
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t width = (uint32_t)ex.n, height = width * 2 / 3;
  uint32_t pixels = width * height;
  /* The view: real part -2.2 .. 0.8, imaginary part -1 .. 1, its centre
   * jittered by --seed by up to 1/16 so that seeds give different images. */
  int32_t jx =
      (int32_t)(example_rand(&ex) % (MANDEL_ONE / 8)) - MANDEL_ONE / 16;
  int32_t jy =
      (int32_t)(example_rand(&ex) % (MANDEL_ONE / 8)) - MANDEL_ONE / 16;
  struct mandelbrot_args args = {
      .width = width,
      .height = height,
      .max_iter = max_iter,
      .x0 = -22 * MANDEL_ONE / 10 + jx,
      .y0 = -MANDEL_ONE + jy,
      .dx = 3 * MANDEL_ONE / (int32_t)width,
      .dy = 2 * MANDEL_ONE / (int32_t)height,
  };
  int32_t *iters = malloc(pixels * sizeof(*iters));
  int32_t *want = malloc(pixels * sizeof(*want));
  if (!iters || !want) {
    fprintf(stderr, "mandelbrot: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  for (uint32_t py = 0; py < height; py++)
    for (uint32_t px = 0; px < width; px++)
      want[py * width + px] = (int32_t)mandel_escape(
          args.x0 + (int32_t)(px * (uint32_t)args.dx),
          args.y0 + (int32_t)(py * (uint32_t)args.dy), max_iter);

  args.iters = example_upload(&ex, NULL, pixels * sizeof(*iters));
  example_run(&ex, &args, sizeof(args), pixels);
  example_download(&ex, args.iters, iters, pixels * sizeof(*iters));
  uint64_t bad = example_compare(&ex, "iters", iters, want, pixels);
  int wrote = write_pgm(image, out, iters, width, height, max_iter);
  free(iters);
  free(want);
  char summary[4200];
  snprintf(summary, sizeof(summary), "%ux%u escape counts match the CPU, %s%s",
           width, height, wrote == 0 ? "image in " : "no image",
           wrote == 0 ? out : "");
  int status = example_finish(&ex, bad, summary);
  if (status == EXAMPLE_PASS && wrote != 0)
    status = EXAMPLE_DEVICE_ERROR;
  return status;
}
