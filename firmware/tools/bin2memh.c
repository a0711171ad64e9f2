/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bin2memh.c - turn a raw little-endian image into $readmemh text for a
 * 32-bit wide RAM: one word per line, lowest address first, the last
 * word padded with zero bytes.
 *
 *   bin2memh firmware.bin firmware.hex
 */
#include <stdio.h>

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s IMAGE.bin OUT.hex\n", argv[0]);
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    perror(argv[1]);
    return 1;
  }
  FILE *out = fopen(argv[2], "w");
  if (!out) {
    perror(argv[2]);
    fclose(in);
    return 1;
  }
  unsigned char b[4];
  size_t n;
  int status = 0;
  while ((n = fread(b, 1, 4, in)) > 0) {
    for (size_t i = n; i < 4; i++)
      b[i] = 0;
    unsigned long w = (unsigned long)b[0] | ((unsigned long)b[1] << 8) |
                      ((unsigned long)b[2] << 16) | ((unsigned long)b[3] << 24);
    fprintf(out, "%08lx\n", w);
  }
  if (ferror(in)) {
    perror(argv[1]);
    status = 1;
  }
  fclose(in);
  if (fclose(out) != 0) {
    perror(argv[2]);
    status = 1;
  }
  return status;
}
