// SPDX-License-Identifier: Apache-2.0
// simty_div: the core's divide unit for the M extension (div, divu, rem,
// remu): LANES radix-2 restoring dividers that serve one warp instruction
// at a time, 36 cycles each (two sign steps, 32 restoring steps, two
// result steps).
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

  // IDLE -> PRE0 (dividend magnitude) -> PRE1 (divisor magnitude) ->
  // STEP x 32 -> FIX0 (quotient sign, zero divisor) -> FIX1 (remainder
  // sign; the result into q) -> DONE. One negator per lane serves the
  // four sign steps.
  localparam [2:0] IDLE = 3'd0, PRE0 = 3'd1, PRE1 = 3'd2, STEP = 3'd3,
                   FIX0 = 3'd4, FIX1 = 3'd5, DONE = 3'd6;
  reg [2:0] state_q;
  reg [4:0] cnt_q;
  reg       sig_q, rem_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= IDLE;
    end else begin
      case (state_q)
        IDLE: if (start_i) state_q <= PRE0;
        PRE0: state_q <= PRE1;
        PRE1: state_q <= STEP;
        STEP: if (cnt_q == 5'd0) state_q <= FIX0;
        FIX0: state_q <= FIX1;
        FIX1: state_q <= DONE;
        default: if (take_i) state_q <= IDLE;
      endcase
    end
    if (state_q == PRE1) cnt_q <= 5'd31;
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

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      reg  [31:0] q_q, r_q, d_q;        // quotient / dividend, remainder, divisor
      reg         nq_q, nr_q, bz_q;     // negate quotient, remainder; divisor 0
      // one restoring step: shift the next dividend bit into the remainder
      wire [32:0] sh    = {r_q, q_q[31]};
      wire [33:0] trial = {1'b0, sh} - {2'b00, d_q};
      wire        ge    = !trial[33];
      // r < d <= 2^32 - 1 after every step: the new remainder fits 32 bits
      // (trial[32] is 0 whenever the step subtracts)
      wire [31:0] r_nxt = ge ? trial[31:0] : sh[31:0];
      wire [31:0] neg_in = state_q == PRE1 ? d_q :
                           state_q == FIX1 ? r_q : q_q;
      wire [31:0] neg = 32'd0 - neg_in;
      always @(posedge clk_i) begin
        case (state_q)
          PRE0: begin
            nr_q <= sig_q && q_q[31];
            nq_q <= sig_q && (q_q[31] != d_q[31]);
            bz_q <= d_q == 32'd0;
            if (sig_q && q_q[31]) q_q <= neg;
            r_q <= 32'd0;
          end
          PRE1: if (sig_q && d_q[31]) d_q <= neg;
          STEP: begin
            q_q <= {q_q[30:0], ge};
            r_q <= r_nxt;
          end
          FIX0: if (bz_q) q_q <= 32'hFFFF_FFFF;
                else if (nq_q) q_q <= neg;
          FIX1: if (rem_q) q_q <= nr_q ? neg : r_q;   // the result
          default: if (load_i) begin
            q_q <= a_i[32*l +: 32];
            d_q <= b_i[32*l +: 32];
          end
        endcase
      end
      assign res_o[32*l +: 32] = q_q;
      wire unused_trial = &{1'b0, trial[32]};
    end
  endgenerate

endmodule
