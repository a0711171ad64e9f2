// SPDX-License-Identifier: Apache-2.0
// simty_mem: memory arbiter and coalescer (membership stage). Checks every
// lane's address (alignment, then range, then the stack guard; the lowest
// bad lane faults), picks the leader (lowest lane) and serves the lanes
// whose physical address lies in the leader's line of LANES words in one
// transaction, merging store bytes with the higher lane winning. The other
// lanes replay (docs/architecture.md 3). A lane in the stack area (stk_i,
// in its own stack since it does not fault) is at physical word w * N + h
// (simty_mem_pre): word `lane` of its physical line, which simty_mem_pre
// computed.
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
  input  wire [LANES-1:0]      stk_i,       // in the stack area
  input  wire [32*LANES-1:0]   pline_i,     // physical line bits [LS, 32)
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
  localparam [31:0]  WORD_MASK  = LANES - 1;
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
  // whose store covers it wins (lanes apply in ascending order). Per line
  // word, the lanes hitting it overwrite, in ascending order, the winner
  // index of the bytes they cover; then one mux by index per byte (a byte
  // no lane covers is not enabled; its data is don't-care). Indices are
  // updated a word at a time, which keeps the simulation cheap.
  localparam integer LB = LANE_BITS;
  reg [32*LANES-1:0] sd;      // per lane: store data, replicated
  reg [4*LANES-1:0]  lbe;     // per lane: its byte enables in its word
  reg [1:0]          sa;     // byte offset in the word
  integer q;
  always @* begin
    for (q = 0; q < LANES; q = q + 1) begin
      sa = addr_i[32*q +: 2];
      case (size_i)
        2'd0: begin sd[32*q +: 32] = {4{sdata_i[32*q +: 8]}};  lbe[4*q +: 4] = 4'b0001 << sa[1:0]; end
        2'd1: begin sd[32*q +: 32] = {2{sdata_i[32*q +: 16]}}; lbe[4*q +: 4] = sa[1] ? 4'b1100 : 4'b0011; end
        default: begin sd[32*q +: 32] = sdata_i[32*q +: 32]; lbe[4*q +: 4] = 4'b1111; end
      endcase
    end
  end
  wire wr = dmem_en_o && store_i;
  reg [4*LB-1:0]  win;        // winner index of each byte of word j
  reg [3:0]       any;
  reg [LB-1:0]    qi;
  reg [4*LB-1:0]  f;          // lane q2's byte enables, widened to fields
  integer j, q2, b;   // one set of loop variables per block
  always @* begin
    f            = {4*LB{1'b0}};
    dmem_be_o    = {4*LANES{1'b0}};
    dmem_wdata_o = {32*LANES{1'b0}};
    for (j = 0; j < LANES; j = j + 1) begin
      win = {4*LB{1'b0}};
      any = 4'b0000;
      for (q2 = 0; q2 < LANES; q2 = q2 + 1) begin
        qi = q2[LB-1:0];
        if (served_o[q2] && (stk_i[q2] ? q2 == j
                             : ((addr_i[32*q2 +: 32] >> 2) & WORD_MASK) == j)) begin
          f   = {{LB{lbe[4*q2+3]}}, {LB{lbe[4*q2+2]}}, {LB{lbe[4*q2+1]}},
                 {LB{lbe[4*q2]}}};
          win = (win & ~f) | ({4{qi}} & f);
          any = any | lbe[4*q2 +: 4];
        end
      end
      dmem_be_o[4*j +: 4] = wr ? any : 4'b0000;
      for (b = 0; b < 4; b = b + 1)
        dmem_wdata_o[32*j + 8*b +: 8] = sd[32*win[LB*b +: LB] + 8*b +: 8];
    end
  end

endmodule
