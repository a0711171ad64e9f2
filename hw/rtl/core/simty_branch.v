// SPDX-License-Identifier: Apache-2.0
// simty_branch: branch unit (membership stage). Builds the one or two paths
// an instruction leaves behind: split on a divergent conditional branch,
// serialization of an indirect jump (lanes with the leader's target go on,
// the others replay), memory replay, thread exit; applies the call-depth
// rule and raises the control-flow faults. pcs are word offsets into CODE
// (PCW bits); a jump to a target outside CODE faults here, at the jump,
// so no path ever holds such a pc (docs/architecture.md section 5).
// Everything it needs of the targets comes decided from EX: the lanes
// that go on with the leader (go_i: a memory access's served lanes, or a
// jalr's lanes with the leader's target, from simty_mem_pre's lane-pair
// bits), the leader's jalr target as a word offset with its range and
// alignment (jt_i, one lane's of EX's per-lane checks) and the branch
// target's range (rel_oor_i), so no 32-bit compare waits for the leader.
`default_nettype none

module simty_branch #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2,
  parameter integer PCW = 15
) (
  input  wire [LANES-1:0]     mask_i,
  input  wire [LANE_BITS-1:0] leader_i,
  input  wire [PCW-1:0]       pc_i,        // word offset into CODE
  input  wire [31:0]          pc_full_i,   // its byte address
  input  wire [PCW-1:0]       pc4_i,       // pc_i + 1 (the next word)
  input  wire [7:0]           depth_i,
  input  wire                 oor_i,       // fetched outside CODE
  input  wire                 branch_i,
  input  wire [2:0]           br_f3_i,
  input  wire                 jal_i,
  input  wire                 jalr_i,
  input  wire                 mem_i,
  input  wire                 ecall_i,
  input  wire                 ebreak_i,
  input  wire                 illegal_i,
  input  wire                 call_i,
  input  wire                 ret_i,
  input  wire [31:0]          rel_i,       // pc offset + imm (from EX)
  input  wire                 rel_oor_i,   // rel_i >= CODE_SIZE
  // the leader's jalr target: {outside CODE, misaligned, word offset}
  input  wire [PCW+1:0]       jt_i,
  input  wire [LANES-1:0]     eq_i,
  input  wire [LANES-1:0]     lt_i,
  input  wire [LANES-1:0]     ltu_i,
  input  wire [32*LANES-1:0]  res_i,       // per-lane a + imm (jalr)
  input  wire [LANES-1:0]     go_i,        // lanes that go on (above)
  output reg                  x_valid_o,
  output reg  [PCW-1:0]          x_pc_o,
  output reg  [7:0]           x_depth_o,
  output reg  [LANES-1:0]     x_mask_o,
  // X's two candidates, for the merge's key compares (simty_membership
  // compares both and selects with x_jump_o): the jump target with its
  // depth, and the fall-through at the unchanged depth
  output wire                 x_jump_o,
  output wire [PCW-1:0]       xt_pc_o,
  output wire [7:0]           xt_depth_o,
  output reg                  y_valid_o,
  output reg  [PCW-1:0]          y_pc_o,
  output reg  [7:0]           y_depth_o,
  output reg  [LANES-1:0]     y_mask_o,
  output reg  [LANES-1:0]     retire_o,
  output reg                  fault_o,
  output reg  [3:0]           fault_cause_o,
  output reg  [LANE_BITS-1:0] fault_lane_o,
  output reg  [31:0]          fault_addr_o,
  output reg  [31:0]          fault_pc_o,  // the record's pc, any cause
  output wire                 divergent_o,
  output wire                 replay_ind_o,
  output wire                 replay_mem_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam [31:0] CODE_BASE = SIMTY_CODE_BASE;

  // depth after a call or return, saturating
  reg [7:0] dnext;
  always @* begin
    dnext = depth_i;
    if (call_i && depth_i != 8'hff) dnext = depth_i + 8'd1;
    else if (ret_i && depth_i != 8'h00) dnext = depth_i - 8'd1;
  end

  reg [LANES-1:0] cond;
  integer l, m;   // one loop variable per block
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      case (br_f3_i)
        3'd0: cond[l] = eq_i[l];
        3'd1: cond[l] = !eq_i[l];
        3'd4: cond[l] = lt_i[l];
        3'd5: cond[l] = !lt_i[l];
        3'd6: cond[l] = ltu_i[l];
        default: cond[l] = !ltu_i[l];
      endcase
    end
  end

  wire [LANES-1:0] taken = cond & mask_i;
  reg  [LANE_BITS-1:0] taken_low;
  always @* begin
    taken_low = {LANE_BITS{1'b0}};
    for (m = LANES - 1; m >= 0; m = m - 1)
      if (taken[m]) taken_low = m[LANE_BITS-1:0];
  end

  assign divergent_o  = branch_i && taken != {LANES{1'b0}} && taken != mask_i;
  assign replay_ind_o = jalr_i && go_i != mask_i;
  assign replay_mem_o = mem_i && go_i != mask_i;

  // One jump target for branch, jal and jalr (the leader's target): its
  // word offset, misalignment (targets are even) and range. The byte
  // address is for the fault record only.
  wire [PCW-1:0] tpc  = jalr_i ? jt_i[PCW-1:0] : rel_i[PCW+1:2];
  wire        tmis   = jalr_i ? jt_i[PCW] : rel_i[1];
  wire        toor   = jalr_i ? jt_i[PCW+1] : rel_oor_i;
  wire [31:0] tgt    = jalr_i ? res_i[32*leader_i +: 32] & 32'hffff_fffe :
                                rel_i + CODE_BASE;
  wire        jump   = jal_i || jalr_i || (branch_i && taken != {LANES{1'b0}});
  wire        ctl_ok = !oor_i && !illegal_i && !ebreak_i && !ecall_i;
  wire        split  = jalr_i || mem_i;      // replay at the same pc

  assign x_jump_o   = ctl_ok && jump;
  assign xt_pc_o    = tpc;
  assign xt_depth_o = (jal_i || jalr_i) ? dnext : depth_i;

  always @* begin
    x_valid_o = !(ecall_i && !oor_i && !illegal_i && !ebreak_i);  // threads end
    x_pc_o    = x_jump_o ? xt_pc_o : pc4_i;
    x_depth_o = x_jump_o ? xt_depth_o : depth_i;
    x_mask_o  = mask_i;
    y_valid_o = 1'b0;
    y_pc_o    = split ? pc_i : pc4_i;
    y_depth_o = depth_i;
    y_mask_o  = mask_i & ~taken;
    retire_o  = mask_i;
    if (ctl_ok && branch_i && taken != {LANES{1'b0}}) begin
      x_mask_o  = taken;
      y_valid_o = taken != mask_i;
    end
    if (ctl_ok && split) begin
      x_mask_o  = go_i;
      retire_o  = go_i;
      y_valid_o = go_i != mask_i;
      y_mask_o  = mask_i & ~go_i;
    end
    fault_o       = 1'b0;
    fault_cause_o = SIMTY_FAULT_NONE;
    fault_lane_o  = leader_i;
    fault_addr_o  = 32'd0;
    fault_pc_o    = pc_full_i;
    if (oor_i) begin
      fault_o       = 1'b1;
      fault_cause_o = SIMTY_FAULT_FETCH_OUT_OF_RANGE;
      fault_addr_o  = pc_full_i;
    end else if (illegal_i) begin
      fault_o       = 1'b1;
      fault_cause_o = SIMTY_FAULT_ILLEGAL_INSTRUCTION;
      fault_addr_o  = 32'd0;     // the word: read back by the core
    end else if (ebreak_i) begin
      fault_o       = 1'b1;
      fault_cause_o = SIMTY_FAULT_EBREAK;
    end else if (!ecall_i && jump && tmis) begin
      fault_o       = 1'b1;
      fault_cause_o = SIMTY_FAULT_MISALIGNED_FETCH;
      fault_addr_o  = tgt;
      if (branch_i) fault_lane_o = taken_low;
    end else if (!ecall_i && jump && toor) begin
      // as the fetch of the target would: pc = addr = target
      fault_o       = 1'b1;
      fault_cause_o = SIMTY_FAULT_FETCH_OUT_OF_RANGE;
      fault_addr_o  = tgt;
      fault_pc_o    = tgt;
      if (branch_i) fault_lane_o = taken_low;
    end
  end

endmodule
