# merge_dup.S - eight single-lane paths reconverge at `join` one by one
# (divergent branches on the lane bits). Copied from tests/rtl/repro/ (the
# testbench's finding 2): HCT2 had the key of a CCT entry that a rebalance
# pass never merged, so lanes ran `join` twice. Needs 8+ lanes to matter.
  .option arch, +zicsr
  .text
  .globl main
main:
  csrr t0, 0xfc0
  # lanes split 4 ways by low bits, then by bit 2: 8 single-lane paths
  andi t1, t0, 1
  bnez t1, a
  andi t1, t0, 2
  bnez t1, b
  andi t1, t0, 4
  bnez t1, c
  j join
a:
  andi t1, t0, 4
  bnez t1, a2
  j join
a2:
  andi t1, t0, 2
  bnez t1, join
  nop
  j join
b:
  andi t1, t0, 4
  bnez t1, join
  nop
  j join
c:
  nop
  j join
join:
  addi a2, a1, 5
  li a0, 0
  ret
