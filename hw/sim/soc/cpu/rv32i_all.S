/* SPDX-License-Identifier: Apache-2.0 */
/* rv32i_all.S - every RV32I instruction of the controller core, checked
 * against values worked out from the RISC-V unprivileged spec (v2.1).
 *
 * Each CHECK counts one check in s11; a mismatch writes 0xBAD0_0000 | n
 * (n = the failing check's number) to the signature port and stops. At
 * the end the count goes to the signature port; the runner compares it
 * with the assembler's count `expected_checks` (so a skipped check or a
 * branch that never fires cannot pass), then ecall at `pass_ecall`. */

#define TEST_PORT 0xF0000000

  .set nchecks, 0
  .macro CHECK reg, val
  .set nchecks, nchecks + 1
  li t6, \val
  addi s11, s11, 1
  bne \reg, t6, fail
  .endm

  /* reg must equal the address of a label (+ offset) */
  .macro CHECKSYM reg, sym
  .set nchecks, nchecks + 1
  lui t6, %hi(\sym)
  addi t6, t6, %lo(\sym)
  addi s11, s11, 1
  bne \reg, t6, fail
  .endm

  /* count a branch that must be taken: `TAKEN beq a0, a1` */
  .macro TAKEN op, a, b
  .set nchecks, nchecks + 1
  addi s11, s11, 1
  \op \a, \b, 1f
  j fail
1:
  .endm

  /* a branch that must fall through */
  .macro NOTTAKEN op, a, b
  .set nchecks, nchecks + 1
  addi s11, s11, 1
  \op \a, \b, fail
  .endm

  .section .text.start, "ax"
  .globl _start
_start:
  /* Register file: every register holds its own bit; OR-ing them all
   * catches two registers sharing storage or a wrong address bit. */
  .irp n, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  li x\n, (1 << \n)
  .endr
  .irp n, 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  or x1, x1, x\n
  .endr
  mv s10, x1
  li s11, 0
  CHECK s10, 0xFFFFFFFE

  /* x0 ignores writes */
  addi x0, x0, 5
  lui x0, 0x12345
  CHECK x0, 0
  mv a0, x0
  CHECK a0, 0

  /* Branches, each both ways, signed and unsigned */
  li a0, 5
  li a1, 5
  li a2, 6
  li a3, -1
  TAKEN beq, a0, a1
  NOTTAKEN beq, a0, a2
  TAKEN bne, a0, a2
  NOTTAKEN bne, a0, a1
  TAKEN blt, a3, a0
  NOTTAKEN blt, a0, a3
  NOTTAKEN blt, a0, a1
  TAKEN bltu, a0, a3
  NOTTAKEN bltu, a3, a0
  NOTTAKEN bltu, a0, a1
  TAKEN bge, a0, a3
  TAKEN bge, a0, a1
  NOTTAKEN bge, a3, a0
  TAKEN bgeu, a3, a0
  TAKEN bgeu, a0, a1
  NOTTAKEN bgeu, a0, a3
  li a4, 0x80000000
  li a5, 0x7FFFFFFF
  TAKEN blt, a4, a5
  TAKEN bltu, a5, a4
  TAKEN bge, a5, a4
  NOTTAKEN bge, a4, a5

  /* Backward branch loop: 1 + ... + 100 */
  li a0, 0
  li a1, 100
1:
  add a0, a0, a1
  addi a1, a1, -1
  bnez a1, 1b
  CHECK a0, 5050

  /* LUI, AUIPC */
  lui a0, 0x12345
  CHECK a0, 0x12345000
  lui a0, 0xFFFFF
  CHECK a0, 0xFFFFF000
auipc_here:
  auipc a0, 0x1
  addi a0, a0, -0x7FF
  addi a0, a0, -0x7FF
  addi a0, a0, -2      /* auipc_here + 0x1000 - 0x1000 */
  CHECKSYM a0, auipc_here
auipc_neg:
  auipc a1, 0xFFFFF   /* auipc_neg - 0x1000 */
  li t0, 0x1000
  add a1, a1, t0
  CHECKSYM a1, auipc_neg

  /* JAL, JALR: link values, offsets, bit 0 cleared, rd == rs1 */
  jal ra, jal_target
jal_return:
  j 2f
jal_target:
  CHECKSYM ra, jal_return
  ret
2:
  la t0, jalr_target - 8
  jalr ra, 8(t0)
jalr_return:
  j 3f
jalr_target:
  CHECKSYM ra, jalr_return
  jr ra
3:
  la t0, jalr_odd + 1
  jalr t1, 0(t0)
  j fail
jalr_odd:
  CHECKSYM t1, jalr_odd - 4
  la t0, jalr_same
  jalr t0, 0(t0)
jalr_same_link:
  j fail
jalr_same:
  CHECKSYM t0, jalr_same_link
  la t0, jalr_neg + 16
  jalr x0, -16(t0)
  j fail
jalr_neg:
  jal x0, 4f
  j fail
4:

  /* Immediate ALU */
  li a0, 0x7FFFFFFF
  addi a1, a0, 1
  CHECK a1, 0x80000000
  addi a1, a0, -2048
  CHECK a1, 0x7FFFF7FF
  addi a1, zero, 2047
  CHECK a1, 2047
  li a0, -1
  slti a1, a0, 0
  CHECK a1, 1
  slti a1, a0, -1
  CHECK a1, 0
  slti a1, zero, -1
  CHECK a1, 0
  sltiu a1, a0, -1
  CHECK a1, 0
  sltiu a1, zero, -1     /* immediate sign-extends, compares unsigned */
  CHECK a1, 1
  seqz a1, zero
  CHECK a1, 1
  li a0, 0x0F0F0F0F
  xori a1, a0, -1
  CHECK a1, 0xF0F0F0F0
  xori a1, a0, 0x7FF
  CHECK a1, 0x0F0F08F0
  ori a1, a0, -2048
  CHECK a1, 0xFFFFFF0F
  ori a1, a0, 0x0F0
  CHECK a1, 0x0F0F0FFF
  andi a1, a0, -16
  CHECK a1, 0x0F0F0F00
  andi a1, a0, 0x0FF
  CHECK a1, 0x0000000F

  /* Immediate shifts: 0, 1, 7, 8, 9, 16, 31 (the 8-bit and 1-bit steps) */
  li a0, 0x81234567
  slli a1, a0, 0
  CHECK a1, 0x81234567
  slli a1, a0, 1
  CHECK a1, 0x02468ACE
  slli a1, a0, 7
  CHECK a1, 0x91A2B380
  slli a1, a0, 8
  CHECK a1, 0x23456700
  slli a1, a0, 9
  CHECK a1, 0x468ACE00
  slli a1, a0, 31
  CHECK a1, 0x80000000
  srli a1, a0, 0
  CHECK a1, 0x81234567
  srli a1, a0, 1
  CHECK a1, 0x4091A2B3
  srli a1, a0, 9
  CHECK a1, 0x004091A2
  srli a1, a0, 16
  CHECK a1, 0x00008123
  srli a1, a0, 31
  CHECK a1, 1
  srai a1, a0, 0
  CHECK a1, 0x81234567
  srai a1, a0, 1
  CHECK a1, 0xC091A2B3
  srai a1, a0, 8
  CHECK a1, 0xFF812345
  srai a1, a0, 15
  CHECK a1, 0xFFFF0246
  srai a1, a0, 31
  CHECK a1, 0xFFFFFFFF
  li a0, 0x71234567
  srai a1, a0, 12
  CHECK a1, 0x00071234

  /* Register-register ALU */
  li a0, 0x7FFFFFFF
  li a2, 1
  add a1, a0, a2
  CHECK a1, 0x80000000
  sub a1, zero, a2
  CHECK a1, 0xFFFFFFFF
  li a3, 0x80000000
  sub a1, a3, a2
  CHECK a1, 0x7FFFFFFF
  sub a1, a2, a2
  CHECK a1, 0
  slt a1, a3, a0
  CHECK a1, 1
  slt a1, a0, a3
  CHECK a1, 0
  slt a1, a0, a0
  CHECK a1, 0
  sltu a1, a3, a0
  CHECK a1, 0
  sltu a1, a0, a3
  CHECK a1, 1
  snez a1, a3
  CHECK a1, 1
  li a4, 0x0FF00FF0
  li a5, 0x00FFFF00
  xor a1, a4, a5
  CHECK a1, 0x0F0FF0F0
  or a1, a4, a5
  CHECK a1, 0x0FFFFFF0
  and a1, a4, a5
  CHECK a1, 0x00F00F00
  li a0, 0x81234567
  li a2, 33              /* only rs2[4:0] counts: shift by 1 */
  sll a1, a0, a2
  CHECK a1, 0x02468ACE
  li a2, 0xFFFFFFE4      /* 4 */
  srl a1, a0, a2
  CHECK a1, 0x08123456
  sra a1, a0, a2
  CHECK a1, 0xF8123456
  li a2, 24
  sll a1, a0, a2
  CHECK a1, 0x67000000
  srl a1, a0, a2
  CHECK a1, 0x00000081
  sra a1, a0, a2
  CHECK a1, 0xFFFFFF81
  sra a1, a0, zero
  CHECK a1, 0x81234567
  /* a result feeding the next instruction at once */
  li a0, 1
  add a0, a0, a0
  add a0, a0, a0
  slli a0, a0, 3
  sub a0, a0, a0
  CHECK a0, 0

  /* Loads: every width, offset and sign */
  la s0, data_words
  lw a0, 0(s0)
  CHECK a0, 0x80FF7F01
  lw a0, 4(s0)
  CHECK a0, 0x1234FEDC
  addi s1, s0, 8
  lw a0, -4(s1)
  CHECK a0, 0x1234FEDC
  lb a0, 0(s0)
  CHECK a0, 0x00000001
  lb a0, 1(s0)
  CHECK a0, 0x0000007F
  lb a0, 2(s0)
  CHECK a0, 0xFFFFFFFF
  lb a0, 3(s0)
  CHECK a0, 0xFFFFFF80
  lbu a0, 2(s0)
  CHECK a0, 0x000000FF
  lbu a0, 3(s0)
  CHECK a0, 0x00000080
  lh a0, 0(s0)
  CHECK a0, 0x00007F01
  lh a0, 2(s0)
  CHECK a0, 0xFFFF80FF
  lhu a0, 2(s0)
  CHECK a0, 0x000080FF
  lh a0, 4(s0)
  CHECK a0, 0xFFFFFEDC
  lhu a0, 6(s0)
  CHECK a0, 0x00001234
  lb a0, -1(s1)
  CHECK a0, 0x00000012
  lw x0, 0(s0)
  CHECK x0, 0

  /* Stores: bytes at every offset, halves, words; only their bytes change */
  la s0, data_scratch
  li a0, 0xAAAAAAAA
  sw a0, 0(s0)
  li a1, 0x12345611
  sb a1, 0(s0)
  lw a2, 0(s0)
  CHECK a2, 0xAAAAAA11
  li a1, 0x22
  sb a1, 1(s0)
  li a1, 0x33
  sb a1, 2(s0)
  li a1, 0x44
  sb a1, 3(s0)
  lw a2, 0(s0)
  CHECK a2, 0x44332211
  li a1, 0xFFFF5566
  sh a1, 2(s0)
  lw a2, 0(s0)
  CHECK a2, 0x55662211
  li a1, 0x7788
  sh a1, 0(s0)
  lw a2, 0(s0)
  CHECK a2, 0x55667788
  addi s1, s0, 8
  li a1, 0xCAFEF00D
  sw a1, -4(s1)
  lw a2, 4(s0)
  CHECK a2, 0xCAFEF00D
  lw a2, 0(s0)
  CHECK a2, 0x55667788

  /* FENCE and FENCE.I run as no-ops */
  li a0, 7
  fence
  .word 0x0000100F      /* fence.i (Zifencei encoding) */
  fence rw, rw
  CHECK a0, 7

  /* Done: report the count, then the runner checks this ecall */
  li t0, TEST_PORT
  sw s11, 4(t0)
  .globl pass_ecall
pass_ecall:
  ecall

fail:
  li t0, TEST_PORT
  li t1, 0xBAD00000
  or t1, t1, s11
  sw t1, 4(t0)
  ecall

  .globl expected_checks
  .set expected_checks, nchecks

  .data
  .balign 4
data_words:
  .word 0x80FF7F01
  .word 0x1234FEDC
data_scratch:
  .word 0, 0
