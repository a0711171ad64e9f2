/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - hotspot (Rodinia, fixed point): 8 time steps of the heat
 * equation on an n x n chip with random temperatures and power, one
 * launch per step (double-buffered on the device), checked against the
 * CPU. --n is the grid side.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "hotspot.h"

#define HOTSPOT_STEPS 8

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "hotspot", EXAMPLE_KERNEL, 32);
  example_check_n(&ex, 512, "the grid side");
  uint32_t n = (uint32_t)ex.n, nn = n * n;
  int32_t *power = malloc(nn * sizeof(*power));
  int32_t *t[2] = {malloc(nn * sizeof(int32_t)), malloc(nn * sizeof(int32_t))};
  int32_t *got = malloc(nn * sizeof(*got));
  if (!power || !t[0] || !t[1] || !got) {
    fprintf(stderr, "hotspot: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  for (uint32_t i = 0; i < nn; i++) {
    t[0][i] = (int32_t)((60 << 8) + example_rand(&ex) % (30 << 8));
    power[i] = (int32_t)(example_rand(&ex) % (4 << 8));
  }
  struct hotspot_args args = {
      .n = n, .rx = 3, .ry = 3, .rz = 1, .cap = 20, .amb = 80 << 8,
      .power = example_upload(&ex, power, nn * sizeof(*power)),
  };
  uint32_t buf[2] = {example_upload(&ex, t[0], nn * sizeof(int32_t)),
                     example_upload(&ex, NULL, nn * sizeof(int32_t))};
  /* CPU reference. */
  for (unsigned k = 0; k < HOTSPOT_STEPS; k++) {
    const int32_t *in = t[k & 1];
    int32_t *out = t[(k + 1) & 1];
    for (uint32_t r = 0; r < n; r++)
      for (uint32_t c = 0; c < n; c++) {
        uint32_t i = r * n + c;
        int32_t v = in[i];
        out[i] = hotspot_step(&args, v, r > 0 ? in[i - n] : v,
                              r + 1 < n ? in[i + n] : v,
                              c + 1 < n ? in[i + 1] : v, c > 0 ? in[i - 1] : v,
                              power[i]);
      }
  }
  for (unsigned k = 0; k < HOTSPOT_STEPS; k++) {
    args.in = buf[k & 1];
    args.out = buf[(k + 1) & 1];
    example_run(&ex, &args, sizeof(args), nn);
  }
  example_download(&ex, buf[HOTSPOT_STEPS & 1], got, nn * sizeof(*got));
  uint64_t bad = example_compare(&ex, "temperature", got, t[HOTSPOT_STEPS & 1], nn);
  free(power);
  free(t[0]);
  free(t[1]);
  free(got);
  char summary[96];
  snprintf(summary, sizeof(summary), "%u steps on %ux%u match the CPU", HOTSPOT_STEPS, n, n);
  return example_finish(&ex, bad, summary);
}
