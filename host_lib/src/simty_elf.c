/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_elf.c - kernel ELF parsing and checks: see simty_elf.h.
 *
 * Reads fields byte by byte (little-endian) so that it is independent of
 * the host's endianness and alignment, and bounds-checks every offset
 * before use: a truncated or hostile file gets an error, never a crash.
 */
#include "simty_elf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "simty_arch.h"

enum {
  ELF_HEADER_SIZE = 52,
  PHDR_SIZE = 32,
  SHDR_SIZE = 40,
  SYM_SIZE = 16,
  ET_EXEC = 2,
  EM_RISCV = 243,
  PT_LOAD = 1,
  PF_X = 1,
  SHT_SYMTAB = 2,
  SHT_RISCV_ATTRIBUTES = 0x70000003,
  TAG_FILE = 1,
  TAG_RISCV_ARCH = 5,
  EF_RISCV_RVC = 1,
};

_Static_assert(SIMTY_ELF_MAX_FILE ==
                   SIMTY_CODE_WINDOW + SIMTY_DATA_WINDOW + 0x00400000u,
               "SIMTY_ELF_MAX_FILE: the windows plus 4 MiB of headers");

static void set_error(char *err, size_t err_size, const char *fmt, ...)
{
  va_list ap;
  if (!err || err_size == 0)
    return;
  va_start(ap, fmt);
  vsnprintf(err, err_size, fmt, ap);
  va_end(ap);
}

static uint32_t rd16(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* Does [off, off + len) lie inside a file of `size` bytes? */
static int in_file(size_t size, uint64_t off, uint64_t len)
{
  return off <= size && len <= size - off;
}

static int parse_symtab(struct simty_elf *elf, uint32_t shoff, uint32_t shnum,
                        char *err, size_t err_size)
{
  const uint8_t *img = elf->image;
  for (uint32_t i = 0; i < shnum; i++) {
    const uint8_t *sh = img + shoff + (size_t)i * SHDR_SIZE;
    if (rd32(sh + 4) != SHT_SYMTAB)
      continue;
    uint32_t off = rd32(sh + 16), size = rd32(sh + 20), link = rd32(sh + 24);
    if (link >= shnum || !in_file(elf->size, off, size)) {
      set_error(err, err_size, "symbol table outside the file");
      return -1;
    }
    const uint8_t *str_sh = img + shoff + (size_t)link * SHDR_SIZE;
    uint32_t str_off = rd32(str_sh + 16), str_size = rd32(str_sh + 20);
    if (!in_file(elf->size, str_off, str_size)) {
      set_error(err, err_size, "string table outside the file");
      return -1;
    }
    elf->symtab = img + off;
    elf->symbol_count = size / SYM_SIZE;
    elf->strtab = (const char *)img + str_off;
    elf->strtab_size = str_size;
    return 0;
  }
  return 0; /* stripped: no symbols, not an error */
}

/* Read an unsigned LEB128 at *p (before end); 0 if it runs off. */
static uint32_t uleb(const uint8_t **p, const uint8_t *end)
{
  uint32_t v = 0;
  for (unsigned shift = 0; *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    if (shift < 32)
      v |= (uint32_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  return 0;
}

/* Find Tag_RISCV_arch in the attributes section: format-version 'A',
 * then vendor subsections (length, "riscv"), holding Tag_File
 * sub-subsections of (tag, value) pairs: odd tags are NUL-terminated
 * strings, even tags ULEB128 numbers. Anything malformed is ignored
 * (the file is then taken as RV32I). */
static void parse_attributes(struct simty_elf *elf, uint32_t shoff,
                             uint32_t shnum)
{
  const uint8_t *img = elf->image;
  for (uint32_t i = 0; i < shnum; i++) {
    const uint8_t *sh = img + shoff + (size_t)i * SHDR_SIZE;
    if (rd32(sh + 4) != SHT_RISCV_ATTRIBUTES)
      continue;
    uint32_t off = rd32(sh + 16), size = rd32(sh + 20);
    if (!in_file(elf->size, off, size) || size < 1 || img[off] != 'A')
      return;
    const uint8_t *p = img + off + 1, *end = img + off + size;
    while (end - p >= 4) {
      uint32_t len = rd32(p);
      if (len < 4 || len > (uint32_t)(end - p))
        return;
      const uint8_t *sub_end = p + len, *q = p + 4;
      const uint8_t *nul = memchr(q, 0, (size_t)(sub_end - q));
      if (!nul)
        return;
      int riscv = strcmp((const char *)q, "riscv") == 0;
      q = nul + 1;
      while (riscv && sub_end - q >= 5) {
        uint8_t tag = *q;
        uint32_t tlen = rd32(q + 1);
        if (tlen < 5 || tlen > (uint32_t)(sub_end - q))
          return;
        const uint8_t *a = q + 5, *a_end = q + tlen;
        while (tag == TAG_FILE && a < a_end) {
          uint32_t attr = uleb(&a, a_end);
          if (attr & 1) {
            const uint8_t *z = memchr(a, 0, (size_t)(a_end - a));
            if (!z)
              return;
            if (attr == TAG_RISCV_ARCH) {
              elf->arch = (const char *)a;
              return;
            }
            a = z + 1;
          } else {
            uleb(&a, a_end);
          }
        }
        q = a_end;
      }
      p = sub_end;
    }
    return;
  }
}

int simty__elf_parse(const void *bytes, size_t size, struct simty_elf *elf,
                     char *err, size_t err_size)
{
  memset(elf, 0, sizeof(*elf));
  if (!bytes || size < ELF_HEADER_SIZE ||
      memcmp(bytes, "\177ELF", 4) != 0) {
    set_error(err, err_size, "not an ELF file");
    return -1;
  }
  const uint8_t *h = bytes;
  if (h[4] != 1 || h[5] != 1) {
    set_error(err, err_size,
              "not a 32-bit little-endian ELF (RV32I kernels only)");
    return -1;
  }
  if (rd16(h + 18) != EM_RISCV) {
    set_error(err, err_size, "wrong machine %u: not a RISC-V ELF",
              (unsigned)rd16(h + 18));
    return -1;
  }
  if (rd16(h + 16) != ET_EXEC) {
    set_error(err, err_size, "not an executable (link it with simty-cc)");
    return -1;
  }
  if (rd32(h + 36) & EF_RISCV_RVC) {
    set_error(err, err_size,
              "uses compressed instructions: build for -march=rv32i");
    return -1;
  }
  uint32_t phoff = rd32(h + 28), shoff = rd32(h + 32);
  uint32_t phentsize = rd16(h + 42), phnum = rd16(h + 44);
  uint32_t shentsize = rd16(h + 46), shnum = rd16(h + 48);
  if (phnum == 0 || phentsize != PHDR_SIZE ||
      !in_file(size, phoff, (uint64_t)phnum * PHDR_SIZE)) {
    set_error(err, err_size, "bad program header table");
    return -1;
  }
  if (shnum != 0 && (shentsize != SHDR_SIZE ||
                     !in_file(size, shoff, (uint64_t)shnum * SHDR_SIZE))) {
    set_error(err, err_size, "bad section header table");
    return -1;
  }

  elf->image = malloc(size);
  if (!elf->image) {
    set_error(err, err_size, "out of memory reading ELF (%zu bytes)", size);
    return -1;
  }
  memcpy(elf->image, bytes, size);
  elf->size = size;
  elf->entry = rd32(h + 24);

  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *ph = elf->image + phoff + (size_t)i * PHDR_SIZE;
    if (rd32(ph) != PT_LOAD || rd32(ph + 20) == 0)
      continue;
    uint32_t off = rd32(ph + 4), vaddr = rd32(ph + 8);
    uint32_t filesz = rd32(ph + 16), memsz = rd32(ph + 20);
    if (filesz > memsz || !in_file(size, off, filesz) ||
        (uint64_t)vaddr + memsz > 0x100000000ull) {
      set_error(err, err_size, "segment %u is malformed", (unsigned)i);
      goto fail;
    }
    if (elf->segment_count == SIMTY_ELF_MAX_SEGMENTS) {
      set_error(err, err_size, "more than %d loadable segments",
                SIMTY_ELF_MAX_SEGMENTS);
      goto fail;
    }
    struct simty_elf_segment *seg = &elf->segments[elf->segment_count++];
    seg->addr = vaddr;
    seg->file_size = filesz;
    seg->mem_size = memsz;
    seg->flags = rd32(ph + 24);
    seg->data = elf->image + off;
    /* In 64 bits: a segment ending at 2^32 must not wrap to 0 (it is
     * refused by the layout check; data_end only has to say "huge"). */
    uint64_t seg_end = (uint64_t)vaddr + memsz;
    if (!(seg->flags & PF_X) && vaddr >= SIMTY_DATA_BASE &&
        seg_end > elf->data_end)
      elf->data_end = seg_end > UINT32_MAX ? UINT32_MAX : (uint32_t)seg_end;
  }
  if (elf->segment_count == 0) {
    set_error(err, err_size, "no loadable segment");
    goto fail;
  }
  if (shnum != 0 && parse_symtab(elf, shoff, shnum, err, err_size) != 0)
    goto fail;
  if (shnum != 0)
    parse_attributes(elf, shoff, shnum);
  uint32_t end;
  if (simty__elf_symbol(elf, "_end", &end, NULL) == 0 && end > elf->data_end)
    elf->data_end = end;
  return 0;

fail:
  simty__elf_free(elf);
  return -1;
}

int simty__elf_load_file(const char *path, struct simty_elf *elf, char *err,
                         size_t err_size)
{
  memset(elf, 0, sizeof(*elf));
  /* O_NONBLOCK: opening a FIFO with no writer must not block; the type
   * check below then refuses it. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    set_error(err, err_size, "%s: %s", path, strerror(errno));
    return SIMTY_ELF_EFILE;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    set_error(err, err_size, "%s: %s", path, strerror(errno));
    close(fd);
    return SIMTY_ELF_EFILE;
  }
  if (!S_ISREG(st.st_mode)) {
    set_error(err, err_size, "%s: not a regular file (%s)", path,
              S_ISDIR(st.st_mode)    ? "a directory"
              : S_ISFIFO(st.st_mode) ? "a FIFO"
              : S_ISCHR(st.st_mode)  ? "a character device"
              : S_ISBLK(st.st_mode)  ? "a block device"
              : S_ISSOCK(st.st_mode) ? "a socket"
                                     : "not a plain file");
    close(fd);
    return SIMTY_ELF_EFILE;
  }
  if (st.st_size > (off_t)SIMTY_ELF_MAX_FILE) {
    set_error(err, err_size,
              "%s: %lld bytes, larger than any Simty kernel (at most %u: "
              "the code and data windows plus headers)",
              path, (long long)st.st_size, (unsigned)SIMTY_ELF_MAX_FILE);
    close(fd);
    return SIMTY_ELF_ETOOBIG;
  }
  size_t size = (size_t)st.st_size;
  uint8_t magic[4];
  if (size < sizeof(magic) || pread(fd, magic, sizeof(magic), 0) !=
                                  (ssize_t)sizeof(magic) ||
      memcmp(magic, "\177ELF", 4) != 0) {
    set_error(err, err_size, "%s: not an ELF file", path);
    close(fd);
    return SIMTY_ELF_EBAD;
  }
  uint8_t *buf = malloc(size);
  if (!buf) {
    close(fd);
    set_error(err, err_size, "%s: out of memory (%zu bytes)", path, size);
    return SIMTY_ELF_EFILE;
  }
  /* The size fstat gave, no more: a file that grows meanwhile is read
   * up to it; one that shrinks is parsed as it is (and likely refused). */
  size_t len = 0;
  while (len < size) {
    ssize_t n = read(fd, buf + len, size - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      set_error(err, err_size, "%s: %s", path, strerror(errno));
      free(buf);
      close(fd);
      return SIMTY_ELF_EFILE;
    }
    if (n == 0)
      break;
    len += (size_t)n;
  }
  close(fd);
  char inner[200] = "";
  int rc = simty__elf_parse(buf, len, elf, inner, sizeof(inner));
  free(buf);
  if (rc != 0) {
    set_error(err, err_size, "%s: %s", path, inner);
    return SIMTY_ELF_EBAD;
  }
  return 0;
}

static int inside(uint32_t addr, uint32_t size, uint32_t base,
                  uint32_t region_size)
{
  return addr >= base && (uint64_t)addr + size <= (uint64_t)base + region_size;
}

int simty__elf_check_layout(const struct simty_elf *elf, uint32_t code_size,
                            uint32_t data_size, char *err, size_t err_size)
{
  int entry_ok = 0;
  for (unsigned i = 0; i < elf->segment_count; i++) {
    const struct simty_elf_segment *s = &elf->segments[i];
    if (s->flags & PF_X) {
      if (!inside(s->addr, s->mem_size, SIMTY_CODE_BASE, code_size)) {
        set_error(err, err_size,
                  "code segment 0x%08x..0x%08x does not fit the device's "
                  "%u-byte code memory at 0x%08x",
                  s->addr, s->addr + s->mem_size, code_size, SIMTY_CODE_BASE);
        return -1;
      }
      if (elf->entry >= s->addr && elf->entry < s->addr + s->mem_size)
        entry_ok = 1;
    } else if (!inside(s->addr, s->mem_size, SIMTY_DATA_BASE, data_size)) {
      set_error(err, err_size,
                "data segment 0x%08x..0x%08x does not fit the device's "
                "%u-byte data memory at 0x%08x",
                s->addr, s->addr + s->mem_size, data_size, SIMTY_DATA_BASE);
      return -1;
    }
  }
  if (!entry_ok) {
    set_error(err, err_size, "entry point 0x%08x is outside the kernel code",
              elf->entry);
    return -1;
  }
  if (elf->entry % 4 != 0) {
    set_error(err, err_size, "entry point 0x%08x is not 4-byte aligned",
              elf->entry);
    return -1;
  }
  return 0;
}

int simty__elf_symbol(const struct simty_elf *elf, const char *name,
                      uint32_t *addr, uint32_t *size)
{
  for (uint32_t i = 0; elf->symtab && i < elf->symbol_count; i++) {
    const uint8_t *sym = elf->symtab + (size_t)i * SYM_SIZE;
    uint32_t name_off = rd32(sym);
    if (name_off >= elf->strtab_size)
      continue;
    const char *sym_name = elf->strtab + name_off;
    size_t max = elf->strtab_size - name_off;
    if (strnlen(sym_name, max) == max || strcmp(sym_name, name) != 0)
      continue;
    if (rd16(sym + 14) == 0) /* SHN_UNDEF */
      continue;
    if (addr)
      *addr = rd32(sym + 4);
    if (size)
      *size = rd32(sym + 8);
    return 0;
  }
  return -1;
}

void simty__elf_free(struct simty_elf *elf)
{
  free(elf->image);
  memset(elf, 0, sizeof(*elf));
}

int simty__elf_symbol_at(const struct simty_elf *elf, uint32_t addr,
                         const char **name, uint32_t *offset)
{
  const char *best = NULL;
  uint32_t best_value = 0;
  for (uint32_t i = 0; elf->symtab && i < elf->symbol_count; i++) {
    const uint8_t *sym = elf->symtab + (size_t)i * SYM_SIZE;
    uint32_t name_off = rd32(sym), value = rd32(sym + 4), size = rd32(sym + 8);
    unsigned type = sym[12] & 0xf; /* STT_OBJECT 1, STT_FUNC 2 */
    if ((type != 1 && type != 2) || rd16(sym + 14) == 0 ||
        name_off >= elf->strtab_size || addr < value ||
        addr - value >= size)
      continue;
    const char *sym_name = elf->strtab + name_off;
    size_t max = elf->strtab_size - name_off;
    if (strnlen(sym_name, max) == max || !*sym_name)
      continue;
    if (!best || value > best_value) {
      best = sym_name;
      best_value = value;
    }
  }
  if (!best)
    return -1;
  *name = best;
  *offset = addr - best_value;
  return 0;
}

/* ---- ISA strings ---- */

/* Length of a version suffix ("2p1", "2", "1p0") at s. */
static size_t version_len(const char *s)
{
  size_t n = 0;
  while (s[n] >= '0' && s[n] <= '9')
    n++;
  if (n && s[n] == 'p' && s[n + 1] >= '0' && s[n + 1] <= '9') {
    n++;
    while (s[n] >= '0' && s[n] <= '9')
      n++;
  }
  return n;
}

static void unknown_part(char *unknown, size_t size, const char *s,
                         size_t len)
{
  if (unknown && size)
    snprintf(unknown, size, "%.*s", (int)len, s);
}

int simty__isa_parse(const char *isa, unsigned *exts, char *unknown,
                     size_t unknown_size)
{
  unsigned bits = 0;
  char lower[256];
  size_t n = isa ? strlen(isa) : 0;
  if (!isa || n == 0 || n >= sizeof(lower)) {
    unknown_part(unknown, unknown_size, isa ? isa : "", n > 40 ? 40 : n);
    return -1;
  }
  for (size_t i = 0; i <= n; i++)
    lower[i] = (char)(isa[i] >= 'A' && isa[i] <= 'Z' ? isa[i] + 32 : isa[i]);
  const char *s = lower;
  if (strncmp(s, "rv32i", 5) != 0) {
    size_t len = strcspn(s, "_");
    unknown_part(unknown, unknown_size, s, len);
    return -1;
  }
  s += 5;
  s += version_len(s);
  /* single-letter extensions, each with an optional version */
  while (*s && *s != '_') {
    char c = *s++;
    if (c == 'm')
      bits |= SIMTY_EXT_M;
    else if (c == 'a')
      bits |= SIMTY_EXT_A;
    else {
      unknown_part(unknown, unknown_size, s - 1, 1);
      return -1;
    }
    s += version_len(s);
  }
  /* multi-letter extensions, '_'-separated */
  while (*s == '_') {
    s++;
    size_t len = 0;
    while (s[len] && s[len] != '_')
      len++;
    size_t name = len;
    while (name > 0 && ((s[name - 1] >= '0' && s[name - 1] <= '9') ||
                        (s[name - 1] == 'p' && name >= 2 &&
                         s[name - 2] >= '0' && s[name - 2] <= '9')))
      name--;
#define IS(word) (name == sizeof(word) - 1 && strncmp(s, word, name) == 0)
    if (IS("zicsr") || IS("zifencei"))
      ;
    else if (IS("zmmul") || IS("m"))
      bits |= SIMTY_EXT_M;
    else if (IS("zaamo") || IS("zalrsc") || IS("a"))
      bits |= SIMTY_EXT_A;
    else if (IS("zicntr"))
      bits |= SIMTY_EXT_ZICNTR;
    else {
      unknown_part(unknown, unknown_size, s, name ? name : len);
      return -1;
    }
#undef IS
    s += len;
  }
  if (*s) {
    unknown_part(unknown, unknown_size, s, strlen(s));
    return -1;
  }
  *exts = bits;
  return 0;
}

void simty__isa_string(unsigned exts, char *buf, size_t size)
{
  snprintf(buf, size, "rv32i%s%s%s", exts & SIMTY_EXT_M ? "m" : "",
           exts & SIMTY_EXT_A ? "a" : "",
           exts & SIMTY_EXT_ZICNTR ? "_zicntr" : "");
}

int simty__elf_check_isa(const struct simty_elf *elf, unsigned exts,
                         char *err, size_t err_size)
{
  if (!elf->arch)
    return 0;
  unsigned need = 0;
  char unknown[48], have[32];
  simty__isa_string(exts, have, sizeof(have));
  if (simty__isa_parse(elf->arch, &need, unknown, sizeof(unknown)) != 0) {
    set_error(err, err_size,
              "kernel needs the '%s' extension (%s), which no Simty "
              "device has (the device has %s)",
              unknown, elf->arch, have);
    return -1;
  }
  unsigned missing = need & ~exts;
  if (missing) {
    char names[32] = "";
    static const char *const name[] = {"M", "A", "Zicntr"};
    for (unsigned i = 0; i < 3; i++)
      if (missing & (1u << i))
        snprintf(names + strlen(names), sizeof(names) - strlen(names),
                 "%s%s", names[0] ? " and " : "", name[i]);
    set_error(err, err_size,
              "kernel needs the %s extension%s (%s), the device has %s: "
              "build it for the device (simty-cc --isa %s)",
              names, missing & (missing - 1) ? "s" : "", elf->arch, have,
              have);
    return -1;
  }
  return 0;
}
