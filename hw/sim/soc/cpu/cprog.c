/* SPDX-License-Identifier: Apache-2.0 */
/* cprog.c - a C workload for the controller core whose signature words
 * are compared with the same file compiled for the host: CRC-32, sorting,
 * recursion, function pointers, jump tables, 64-bit and libgcc multiply
 * and divide, byte and halfword memory traffic. Built twice:
 * for the bench (SIG() writes the signature port) and for the host
 * (-DHOST: SIG() prints the same "SIG xxxxxxxx" lines). */
#include <stdint.h>

#ifdef HOST
#include <stdio.h>
#define SIG(v) printf("SIG %08x\n", (unsigned)(uint32_t)(v))
#else
#define SIG(v) (*(volatile uint32_t *)0xF0000004u = (uint32_t)(v))
#endif

static uint32_t crc32(const uint8_t *p, uint32_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  while (n--) {
    crc ^= *p++;
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1103515245u + 12345u;
  return lcg_state >> 8;
}

static void insertion_sort(int32_t *v, int n) {
  for (int i = 1; i < n; i++) {
    int32_t x = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
}

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* Wrapping arithmetic through uint32_t: no signed overflow anywhere. */
static int32_t op_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t op_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t op_mul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }
static int32_t op_div(int32_t a, int32_t b) { return (b == 0 || b == -1) ? a / 2 : a / b; }
static int32_t (*const ops[])(int32_t, int32_t) = {op_add, op_sub, op_mul, op_div};

static __attribute__((noinline)) uint32_t classify(uint32_t x) {
  switch (x % 9) {
  case 0: return x * 3;
  case 1: return x ^ 0x55u;
  case 2: return x >> 3;
  case 3: return (uint32_t)((int32_t)x >> 5);
  case 4: return x + 1000;
  case 5: return ~x;
  case 6: return x << 7;
  case 7: return x & 0xF0F0u;
  default: return x | 0x80000000u;
  }
}

struct rec {
  uint8_t tag;
  int16_t half;
  uint32_t word;
  int8_t bytes[5];
};

int main(void) {
  static uint8_t buf[256];
  for (int i = 0; i < 256; i++) buf[i] = (uint8_t)(i * 7 + 3);
  SIG(crc32(buf, sizeof buf));
  SIG(crc32((const uint8_t *)"123456789", 9));   /* 0xCBF43926 */

  int32_t v[40];
  for (int i = 0; i < 40; i++) v[i] = (int32_t)(lcg() ^ 0x00800000u) - 0x00400000;
  insertion_sort(v, 40);
  uint32_t h = 0;
  for (int i = 0; i < 40; i++) h = h * 31u + (uint32_t)v[i];
  SIG(h);
  SIG(v[0]);
  SIG(v[39]);

  SIG(fib(15));

  int32_t acc = 7;
  for (int i = 0; i < 24; i++) acc = ops[i & 3](acc, (int32_t)(lcg() % 97) - 40);
  SIG(acc);

  uint32_t c = 0;
  for (uint32_t x = 0; x < 50; x++) c = c * 17u + classify(x * 2654435761u);
  SIG(c);

  uint64_t big = 0x0123456789ABCDEFull;
  for (int i = 0; i < 10; i++) big = big * 6364136223846793005ull + 1442695040888963407ull;
  SIG((uint32_t)big);
  SIG((uint32_t)(big >> 32));
  SIG((uint32_t)(big % 1000003u));
  int64_t sbig = -(int64_t)(big >> 3);
  SIG((uint32_t)(sbig >> 17));

  uint32_t u = 0xFFFFFFF0u;
  int32_t s = -1234567;
  SIG(u / 7u);
  SIG(u % 7u);
  SIG(s / 13);
  SIG(s % 13);
  SIG((uint32_t)s >> 3);
  SIG(s >> 3);

  struct rec r[4];
  for (int i = 0; i < 4; i++) {
    r[i].tag = (uint8_t)(200 + i);
    r[i].half = (int16_t)(-300 * (i + 1));
    r[i].word = 0xA5A5A5A5u ^ (uint32_t)i;
    for (int k = 0; k < 5; k++) r[i].bytes[k] = (int8_t)(k * 50 - 120);
  }
  struct rec copy = r[2];
  int32_t sum = copy.tag + copy.half;
  for (int k = 0; k < 5; k++) sum += copy.bytes[k];
  SIG(sum);
  SIG(copy.word);
  return 0;
}
