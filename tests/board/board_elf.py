# SPDX-License-Identifier: Apache-2.0
"""board_elf.py - just enough ELF32 for the board tests: PT_LOAD segments
(file bytes, then zeros up to p_memsz), the entry point, and symbols (from
riscv64-unknown-elf-nm, which the kernel toolchain provides)."""
import struct
import subprocess

PT_LOAD = 1


class Kernel:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
            raise ValueError("%s: not a little-endian ELF32 file" % path)
        (_, _, _, self.entry, phoff, _, _, _, phentsize, phnum, _, _, _) = \
            struct.unpack_from("<HHIIIIIHHHHHH", data, 16)
        self.segments = []   # (address, bytes including the zero fill)
        for i in range(phnum):
            (ptype, offset, vaddr, _, filesz, memsz, _, _) = \
                struct.unpack_from("<IIIIIIII", data, phoff + i * phentsize)
            if ptype == PT_LOAD and memsz:
                body = data[offset:offset + filesz] + bytes(memsz - filesz)
                self.segments.append((vaddr, body))
        out = subprocess.run(["riscv64-unknown-elf-nm", path], check=True,
                             capture_output=True, text=True).stdout
        self.symbols = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                self.symbols[parts[2]] = int(parts[0], 16)

    def load(self, link, chunk):
        """WRITE every segment in chunks; returns the requests' statuses."""
        statuses = []
        for addr, body in self.segments:
            for off in range(0, len(body), chunk):
                r = link.write(addr + off, body[off:off + chunk])
                statuses.append(r.status)
        return statuses
