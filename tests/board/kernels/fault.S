/* SPDX-License-Identifier: Apache-2.0 */
/* fault.S - board test kernel: logical thread FAULT_TID stores to an
 * address outside DATA at `bad_store`; every other thread ends. The host
 * expects STORE_OUT_OF_RANGE with pc = bad_store, tid = FAULT_TID and
 * addr = BAD_ADDR (symbols read from this ELF). */
#define FAULT_TID 13
#define BAD_ADDR 0x30000010
  .globl fault_tid
  .set fault_tid, FAULT_TID
  .globl bad_addr
  .set bad_addr, BAD_ADDR
  .text
  .globl main
main:
  .option push
  .option arch, +zicsr
  csrr t0, 0xFC0            /* simty_tid */
  .option pop
  li t1, FAULT_TID
  bne t0, t1, 1f
  li t2, BAD_ADDR
  .globl bad_store
bad_store:
  sw t0, 0(t2)
1:
  li a0, 0
  ret
