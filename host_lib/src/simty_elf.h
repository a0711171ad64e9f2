/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_elf.h - kernel ELF parsing and checks (internal to Simty tools).
 *
 * Shared by the host library, the reference model CLI and the RTL
 * testbench. Parses an in-memory ELF32 RISC-V executable, checks that its
 * loadable segments fit a device's populated CODE and DATA, and looks up
 * symbols. Every failure leaves a one-line reason in the error buffer.
 */
#ifndef SIMTY_ELF_H
#define SIMTY_ELF_H

#include <stddef.h>
#include <stdint.h>

#define SIMTY_ELF_MAX_SEGMENTS 16

struct simty_elf_segment {
  uint32_t addr;       /* device address (p_vaddr) */
  uint32_t file_size;  /* bytes present in the file */
  uint32_t mem_size;   /* bytes in memory; the rest is zeroed */
  uint32_t flags;      /* PF_X / PF_W / PF_R */
  const uint8_t *data; /* file_size bytes inside the image */
};

struct simty_elf {
  uint8_t *image; /* private copy of the file */
  size_t size;
  uint32_t entry;
  unsigned segment_count;
  struct simty_elf_segment segments[SIMTY_ELF_MAX_SEGMENTS];
  const uint8_t *symtab; /* NULL when stripped */
  uint32_t symbol_count;
  const char *strtab;
  uint32_t strtab_size;
  uint32_t data_end; /* highest DATA byte used + 1 (or _end), 0 if none */
  const char *arch;  /* Tag_RISCV_arch of .riscv.attributes (inside image,
                        NUL-terminated), NULL when the file has none */
};

/* Parse `size` bytes. Copies them, so the caller's buffer may go away.
 * Returns 0, or -1 with a reason in err. */
int simty__elf_parse(const void *bytes, size_t size, struct simty_elf *elf,
                     char *err, size_t err_size);

/* Largest kernel file simty__elf_load_file() reads: the CODE and DATA
 * windows plus 4 MiB of headers, symbols and debug sections. */
#define SIMTY_ELF_MAX_FILE (0x00010000u + 0x01000000u + 0x00400000u)

/* Failures of simty__elf_load_file() (all negative). */
enum {
  SIMTY_ELF_EBAD = -1,    /* not a valid kernel ELF */
  SIMTY_ELF_EFILE = -2,   /* cannot open or read it, or not a regular file */
  SIMTY_ELF_ETOOBIG = -3, /* larger than SIMTY_ELF_MAX_FILE */
};

/* Read and parse a file. Checks that it is a regular file of at most
 * SIMTY_ELF_MAX_FILE bytes starting with the ELF magic before reading it
 * whole, so that a FIFO, a device or a huge file fails at once. Returns 0,
 * or a SIMTY_ELF_E* code with a reason (and the errno text) in err. */
int simty__elf_load_file(const char *path, struct simty_elf *elf, char *err,
                         size_t err_size);

/* Check the layout against a device: executable segments inside the
 * populated CODE, others inside the populated DATA, entry inside an
 * executable segment. Returns 0, or -1 with a reason in err. */
int simty__elf_check_layout(const struct simty_elf *elf, uint32_t code_size,
                            uint32_t data_size, char *err, size_t err_size);

/* Look up a symbol's address and size. Returns 0, or -1 if absent. */
int simty__elf_symbol(const struct simty_elf *elf, const char *name,
                      uint32_t *addr, uint32_t *size);

void simty__elf_free(struct simty_elf *elf);

/* The defined function or object symbol whose [value, value + size)
 * holds addr: its name (in the image) and addr's offset in it. Returns
 * 0, or -1 when no sized symbol holds addr. */
int simty__elf_symbol_at(const struct simty_elf *elf, uint32_t addr,
                         const char **name, uint32_t *offset);

/* ---- ISA strings (docs/architecture.md section 2) ---- */

/* Parse a RISC-V ISA string as GCC writes it ("rv32i2p1_m2p0_zicsr2p0")
 * or as a user does ("rv32ima_zicntr") into SIMTY_EXT_* bits. Parts that
 * every Simty device has (i, zicsr, zifencei) add nothing; zmmul counts
 * as M, zaamo and zalrsc as A. Returns 0, or -1 with the first part that
 * is neither (e.g. "c", "f", "rv64i") in `unknown`. */
int simty__isa_parse(const char *isa, unsigned *exts, char *unknown,
                     size_t unknown_size);

/* "rv32i", "rv32im", "rv32ima_zicntr"... for SIMTY_EXT_* bits. */
void simty__isa_string(unsigned exts, char *buf, size_t size);

/* Check that a device with extensions `exts` can run the kernel: the
 * ELF's Tag_RISCV_arch (RV32I when absent) needs nothing else. Returns
 * 0, or -1 with a reason naming the missing extension in err. */
int simty__elf_check_isa(const struct simty_elf *elf, unsigned exts,
                         char *err, size_t err_size);

#endif /* SIMTY_ELF_H */
