/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_source.c - kernel addresses to source lines
 * (simty_kernel_source_line() in simty.h), for fault reports and traces,
 * and the model's instruction trace (simty_set_trace()).
 *
 * The kernel handle keeps its whole ELF file in memory; libelf reads it
 * from there (elf_memory) and libdw answers from its DWARF: the compile
 * unit holding pc, the line table's row for pc, and the innermost
 * function scope (an inlined function counts: its name is what the code
 * at pc belongs to). Without debug information for pc, the ELF symbol
 * table gives the function symbol covering pc.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simty_internal.h"
#include "simty_model.h"

/* Innermost function (subprogram or inlined subroutine) covering pc. */
static const char *dwarf_function(Dwarf_Die *cu, Dwarf_Addr pc)
{
  Dwarf_Die *scopes = NULL;
  int n = dwarf_getscopes(cu, pc, &scopes);
  const char *name = NULL;
  for (int i = 0; i < n && !name; i++) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
      continue;
    Dwarf_Attribute attr;
    if (dwarf_attr_integrate(&scopes[i], DW_AT_name, &attr))
      name = dwarf_formstring(&attr);
  }
  free(scopes);
  return name;
}

/* FILE relative to the working directory when it lies under it. */
static const char *short_path(const char *file, const char *cwd)
{
  size_t n = strlen(cwd);
  if (n > 1 && strncmp(file, cwd, n) == 0 && file[n] == '/')
    return file + n + 1;
  return file;
}

/* The compile unit whose ranges hold pc. .debug_aranges first; GCC's
 * RV32 output is not always found there by libdw, so every unit's own
 * ranges next. */
static int find_cu(Dwarf *dw, Dwarf_Addr pc, Dwarf_Die *cu)
{
  if (dwarf_addrdie(dw, pc, cu))
    return 1;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
    if (dwarf_offdie(dw, off + header, cu) && dwarf_haspc(cu, pc) > 0)
      return 1;
    off = next;
  }
  return 0;
}

static int from_dwarf(Elf *elf, uint32_t pc, char *buf, size_t size)
{
  Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
  if (!dw)
    return 0;
  int len = 0;
  Dwarf_Die cu;
  if (find_cu(dw, pc, &cu)) {
    Dwarf_Line *line = dwarf_getsrc_die(&cu, pc);
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    int lineno = 0;
    if (line)
      dwarf_lineno(line, &lineno);
    const char *fn = dwarf_function(&cu, pc);
    char cwd[1024];
    if (!getcwd(cwd, sizeof cwd))
      cwd[0] = '\0';
    if (file && fn)
      len = snprintf(buf, size, "%s at %s:%d", fn, short_path(file, cwd),
                     lineno);
    else if (file)
      len = snprintf(buf, size, "%s:%d", short_path(file, cwd), lineno);
    else if (fn)
      len = snprintf(buf, size, "%s", fn);
  }
  dwarf_end(dw);
  return len;
}

static int from_symtab(Elf *elf, uint32_t pc, char *buf, size_t size)
{
  Elf_Scn *scn = NULL;
  while ((scn = elf_nextscn(elf, scn)) != NULL) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
      continue;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data)
      continue;
    size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < count; i++) {
      GElf_Sym sym;
      if (!gelf_getsym(data, (int)i, &sym) ||
          GELF_ST_TYPE(sym.st_info) != STT_FUNC || pc < sym.st_value ||
          pc >= sym.st_value + (sym.st_size ? sym.st_size : 1))
        continue;
      const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
      if (!name || !*name)
        continue;
      return snprintf(buf, size, "%s+0x%x", name,
                      (unsigned)(pc - sym.st_value));
    }
  }
  return 0;
}

int simty_kernel_source_line(const simty_kernel *kernel, uint32_t pc,
                             char *buf, size_t size)
{
  if (!kernel || (!buf && size))
    return SIMTY_EINVAL;
  if (size)
    buf[0] = '\0';
  /* Only code the kernel loads: debug information of functions the linker
   * dropped (--gc-sections) is left at address 0. */
  int loaded = 0;
  for (unsigned i = 0; i < kernel->elf.segment_count; i++) {
    const struct simty_elf_segment *sg = &kernel->elf.segments[i];
    loaded |= (sg->flags & PF_X) && pc >= sg->addr &&
              (uint64_t)pc < (uint64_t)sg->addr + sg->file_size;
  }
  if (!loaded || elf_version(EV_CURRENT) == EV_NONE)
    return 0;
  /* libelf only reads the image (a native-order ELF32 is used in place). */
  Elf *elf = elf_memory((char *)kernel->elf.image, kernel->elf.size);
  if (!elf)
    return 0;
  int len = from_dwarf(elf, pc, buf, size);
  if (len <= 0) {
    if (size)
      buf[0] = '\0';
    len = from_symtab(elf, pc, buf, size);
  }
  elf_end(elf);
  return len > 0 ? len : 0;
}

/* Only the model traces; its trace receiver has the public receiver's
 * signature. */
int simty_set_trace(simty_device *dev, simty_trace_fn fn, void *user)
{
  if (!dev)
    return SIMTY_EINVAL;
  if (dev->backend != &simty__backend_model)
    return simty__fail(dev, SIMTY_ENOTSUP,
                       "instruction traces come from the in-process model "
                       "only (--device model), not from %s",
                       dev->info.backend);
  pthread_mutex_lock(&dev->lock);
  simty_model_set_trace(simty__model_of(dev), fn, user);
  pthread_mutex_unlock(&dev->lock);
  return 0;
}
