// SPDX-License-Identifier: Apache-2.0
// simty_div: the core's divide unit for the M extension (div, divu, rem,
// remu): LANES radix-2 restoring dividers that serve one warp instruction
// at a time, 34 cycles each (sign fix-up, 32 steps, result fix-up).
//
// The core issues at most one divide at a time and blocks the issuing warp
// until the result is written back (simty_core, "Divide"); other warps keep
// issuing. Protocol:
//   - EX: load_i with the operands of the divide in EX (the unit is idle:
//     no other divide is in flight);
//   - MB: start_i when that divide commits, with its warp, destination and
//     retired lanes; the iteration begins. A divide that does not commit
//     never starts, and the next load_i overwrites its operands;
//   - done_o holds the result until take_i (the core's write-back slot).
// The RISC-V results of the edge cases fall out of the restoring steps on
// the magnitudes: a zero divisor makes every step subtract 0, so the
// quotient is all ones and the remainder the dividend's magnitude (the
// quotient is then not negated: -1 for div as well); -2^31 / -1 divides
// 2^31 by 1 and gives -2^31, remainder 0.
`default_nettype none

module simty_div #(
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  load_i,
  input  wire [32*LANES-1:0]   a_i,
  input  wire [32*LANES-1:0]   b_i,
  input  wire [1:0]            f3_i,     // 0 div, 1 divu, 2 rem, 3 remu
  input  wire                  start_i,
  input  wire [WARP_BITS-1:0]  warp_i,
  input  wire [4:0]            rd_i,
  input  wire                  wr_i,
  input  wire [LANES-1:0]      mask_i,
  output wire                  busy_o,   // started, not yet taken
  output wire                  done_o,
  output reg  [WARP_BITS-1:0]  warp_o,
  output reg  [4:0]            rd_o,
  output reg                   wr_o,
  output reg  [LANES-1:0]      mask_o,
  output wire [32*LANES-1:0]   res_o,
  input  wire                  take_i
);

  localparam [1:0] IDLE = 2'd0, PREP = 2'd1, STEP = 2'd2, DONE = 2'd3;
  reg [1:0] state_q;
  reg [4:0] cnt_q;
  reg       sig_q, rem_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= IDLE;
    end else begin
      case (state_q)
        IDLE: if (start_i) state_q <= PREP;
        PREP: state_q <= STEP;
        STEP: if (cnt_q == 5'd0) state_q <= DONE;
        default: if (take_i) state_q <= IDLE;
      endcase
    end
    if (state_q == PREP) cnt_q <= 5'd31;
    else cnt_q <= cnt_q - 5'd1;
    if (load_i) begin
      sig_q <= !f3_i[0];
      rem_q <= f3_i[1];
    end
    if (start_i) begin
      warp_o <= warp_i;
      rd_o   <= rd_i;
      wr_o   <= wr_i;
      mask_o <= mask_i;
    end
  end
  assign busy_o = state_q != IDLE;
  assign done_o = state_q == DONE;
  // the final step writes the result (STEP with cnt_q 0 -> DONE)
  wire last = state_q == STEP && cnt_q == 5'd0;

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      reg  [31:0] q_q, r_q, d_q;        // quotient / dividend, remainder, divisor
      reg         nq_q, nr_q, bz_q;     // negate quotient, remainder; divisor 0
      wire [31:0] a = a_i[32*l +: 32];
      wire [31:0] b = b_i[32*l +: 32];
      // one restoring step: shift the next dividend bit into the remainder
      wire [32:0] sh    = {r_q, q_q[31]};
      wire [33:0] trial = {1'b0, sh} - {2'b00, d_q};
      wire        ge    = !trial[33];
      wire [31:0] r_nxt = ge ? trial[31:0] : sh[31:0];
      wire [31:0] q_nxt = {q_q[30:0], ge};
      wire [31:0] q_fin = bz_q ? 32'hFFFF_FFFF : (nq_q ? -q_nxt : q_nxt);
      wire [31:0] r_fin = nr_q ? -r_nxt : r_nxt;
      always @(posedge clk_i) begin
        if (load_i) begin
          q_q <= a;
          d_q <= b;
        end else if (state_q == PREP) begin
          // magnitudes of signed operands
          nr_q <= sig_q && q_q[31];
          nq_q <= sig_q && (q_q[31] != d_q[31]);
          bz_q <= d_q == 32'd0;
          if (sig_q && q_q[31]) q_q <= -q_q;
          if (sig_q && d_q[31]) d_q <= -d_q;
          r_q  <= 32'd0;
        end else if (last) begin
          q_q <= rem_q ? r_fin : q_fin;   // the result
        end else if (state_q == STEP) begin
          q_q <= q_nxt;
          r_q <= r_nxt;
        end
      end
      assign res_o[32*l +: 32] = q_q;
      // sh[32] is r_q[31], which is 0 after every step (r < d <= 2^32 - 1
      // fits 32 bits, and r_nxt drops no set bit: see trial)
      wire unused_trial = &{1'b0, trial[32]};
    end
  endgenerate

endmodule
