// SPDX-License-Identifier: Apache-2.0
// simty_mem: memory arbiter and coalescer (membership stage). Checks every
// lane's address (alignment, then range, then the stack guard; the lowest
// bad lane faults), picks the leader (lowest lane) and serves the lanes
// whose physical address lies in the leader's line of LANES words in one
// transaction, merging store bytes with the higher lane winning. The other
// lanes replay (docs/architecture.md 3). A lane in the stack area (in its
// own stack since it does not fault) is at physical word w * N + h
// (simty_mem_pre): word `lane` of its physical line, which simty_mem_pre
// computed, with the bytes each lane's store covers in the line.
`default_nettype none

module simty_mem #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2
) (
  input  wire                  valid_i,     // executes this cycle
  input  wire [LANES-1:0]      mask_i,
  input  wire [LANE_BITS-1:0]  leader_i,
  input  wire                  load_i,
  input  wire                  store_i,
  input  wire [1:0]            size_i,
  input  wire [32*LANES-1:0]   addr_i,
  input  wire [32*LANES-1:0]   sdata_i,
  // From simty_mem_pre, a stage earlier: per lane misaligned, bad
  // (misaligned, out of range or in another thread's stack), the
  // console's word, in another thread's stack, in the stack area, its
  // physical line; per lane pair the same physical line (bit LANES*k + l)
  input  wire [LANES-1:0]      mis_i,
  input  wire [LANES-1:0]      bad_i,
  input  wire [LANES-1:0]      con_i,
  input  wire [LANES*LANES-1:0] same_i,
  input  wire [LANES-1:0]      ovf_i,       // in another thread's stack
  input  wire [32*LANES-1:0]   pline_i,     // physical line bits [LS, 32)
  // bit LANES*(4*j + b) + l: lane l's store covers byte b of line word j
  input  wire [4*LANES*LANES-1:0] cov_i,
  output reg                   fault_o,
  output reg  [3:0]            fault_cause_o,
  output reg  [LANE_BITS-1:0]  fault_lane_o,
  output reg  [31:0]           fault_addr_o,
  output reg  [LANES-1:0]      served_o,
  output wire                  console_o,   // the transaction is the console
  output wire                  dmem_en_o,
  output wire [31:0]           dmem_addr_o,
  output reg  [4*LANES-1:0]    dmem_be_o,
  output reg  [32*LANES-1:0]   dmem_wdata_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer LINE_SHIFT = 2 + ((LANES > 1) ? $clog2(LANES) : 0);
  // Each lane's physical line comes from simty_mem_pre (EX), registered:
  // the leader picks one, as it picked an address before.
  wire [31:0] lead_line = pline_i[32*leader_i +: 32] >> LINE_SHIFT;
  wire [LANES-1:0] lead_same = same_i[LANES*leader_i +: LANES];

  integer l;
  always @* begin
    fault_o       = 1'b0;
    fault_lane_o  = {LANE_BITS{1'b0}};
    fault_addr_o  = 32'd0;
    fault_cause_o = SIMTY_FAULT_NONE;
    served_o      = mask_i & lead_same;
    // Lowest faulting lane: scan down so the lowest one is left.
    for (l = LANES - 1; l >= 0; l = l - 1) begin
      if (mask_i[l] && bad_i[l] && (load_i || store_i)) begin
        fault_o      = 1'b1;
        fault_lane_o = l[LANE_BITS-1:0];
        fault_addr_o = addr_i[32*l +: 32];
        if (mis_i[l]) fault_cause_o = load_i ? SIMTY_FAULT_MISALIGNED_LOAD
                                             : SIMTY_FAULT_MISALIGNED_STORE;
        else if (ovf_i[l]) fault_cause_o = SIMTY_FAULT_STACK_OVERFLOW;
        else fault_cause_o = load_i ? SIMTY_FAULT_LOAD_OUT_OF_RANGE
                                    : SIMTY_FAULT_STORE_OUT_OF_RANGE;
      end
    end
  end

  // Any active lane faulting stops the access: no priority on this path.
  wire any_bad = (mask_i & bad_i) != {LANES{1'b0}};
  assign console_o   = store_i && con_i[leader_i];
  assign dmem_en_o   = valid_i && (load_i || store_i) && !any_bad && !console_o;
  assign dmem_addr_o = lead_line << LINE_SHIFT;

  // Store merge: for every byte of the line, the highest served lane
  // whose store covers it wins (lanes apply in ascending order). Which
  // bytes of which line word each lane covers comes registered from
  // simty_mem_pre (cov_i); here each byte's candidates are
  // `served & cover`, the winner is the highest of them (a one-hot pick:
  // a candidate with no candidate above it, an OR reduction of log depth)
  // and the byte is an AND-OR over the lanes' store data. A byte no lane
  // covers is not enabled; its data is 0.
  reg [32*LANES-1:0] sd;      // per lane: store data, replicated
  integer q;
  always @* begin
    for (q = 0; q < LANES; q = q + 1)
      case (size_i)
        2'd0:    sd[32*q +: 32] = {4{sdata_i[32*q +: 8]}};
        2'd1:    sd[32*q +: 32] = {2{sdata_i[32*q +: 16]}};
        default: sd[32*q +: 32] = sdata_i[32*q +: 32];
      endcase
  end
  wire wr = dmem_en_o && store_i;
  reg [LANES-1:0] cand, pick, col;
  integer j, b, q2, k;   // one set of loop variables per block
  always @* begin
    dmem_be_o    = {4*LANES{1'b0}};
    dmem_wdata_o = {32*LANES{1'b0}};
    for (j = 0; j < LANES; j = j + 1)
      for (b = 0; b < 4; b = b + 1) begin
        cand = served_o & cov_i[LANES*(4*j + b) +: LANES];
        for (q2 = 0; q2 < LANES; q2 = q2 + 1)
          pick[q2] = cand[q2] && (cand >> (q2 + 1)) == {LANES{1'b0}};
        dmem_be_o[4*j + b] = wr && cand != {LANES{1'b0}};
        for (k = 0; k < 8; k = k + 1) begin
          for (q2 = 0; q2 < LANES; q2 = q2 + 1)
            col[q2] = sd[32*q2 + 8*b + k];
          dmem_wdata_o[32*j + 8*b + k] = (pick & col) != {LANES{1'b0}};
        end
      end
  end

endmodule
