// SPDX-License-Identifier: Apache-2.0
// simty_fifo.v - first-word-fall-through FIFO for the link bytes: storage
// in a synchronous-read RAM (block RAM when DEPTH is large enough), with
// the RAM's read register as the visible head so no extra cycle is lost.
// With HEAD_REG the head is a register of its own, loaded from the RAM's
// read register: a consumer's logic then starts at a flip-flop rather
// than at a block RAM's output (several ns of clock-to-out on ECP5), at
// one more entry of latency and still one entry a cycle.
//
// Holds up to DEPTH + 1 entries (DEPTH in the RAM, one in the head), one
// more with HEAD_REG (the RAM's read register).
// push_i when full_o is set and pop_i when valid_o is clear are ignored.
// Reset: synchronous, active high; empties the FIFO.
`default_nettype none

module simty_fifo #(
  parameter integer WIDTH = 8,
  parameter integer DEPTH = 16,  // power of two, >= 2
  parameter integer HEAD_REG = 0,
  parameter integer LW = $clog2(DEPTH) + 2
) (
  input  wire             clk_i,
  input  wire             rst_i,
  input  wire             push_i,
  input  wire [WIDTH-1:0] data_i,
  output wire             full_o,
  output wire             valid_o,  // data_o holds the oldest entry
  output wire [WIDTH-1:0] data_o,
  input  wire             pop_i,
  output wire             empty_o,  // nothing stored at all
  output wire [LW-1:0]    level_o   // entries stored, 0 .. DEPTH + 1 (+ 2)
);
  localparam integer AW = $clog2(DEPTH);

  // A refill never reads the slot being written: it reads the oldest
  // entry, the push writes past the newest, and a full FIFO takes no push.
  (* no_rw_check *)
  reg [WIDTH-1:0] mem_q [0:DEPTH-1];
  reg [WIDTH-1:0] rd_q;             // the RAM's read register
  reg             rd_valid_q;
  reg [AW-1:0]    wptr_q, rptr_q;
  reg [AW:0]      count_q;          // entries in the RAM, not read out
  wire            head_valid, pop, take;
  wire            head_held;        // an entry in the head register

  wire push = push_i & (count_q != DEPTH[AW:0]);
  // Read the RAM whenever its read register is empty or being taken.
  wire refill = (count_q != {(AW + 1){1'b0}}) & (~rd_valid_q | take);

  always @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
    if (refill) rd_q <= mem_q[rptr_q];
  end

  always @(posedge clk_i) begin
    if (rst_i) begin
      wptr_q <= {AW{1'b0}};
      rptr_q <= {AW{1'b0}};
      count_q <= {(AW + 1){1'b0}};
      rd_valid_q <= 1'b0;
    end else begin
      if (push) wptr_q <= wptr_q + 1'b1;
      if (refill) rptr_q <= rptr_q + 1'b1;
      count_q <= count_q + {{AW{1'b0}}, push} - {{AW{1'b0}}, refill};
      if (refill) rd_valid_q <= 1'b1;
      else if (take) rd_valid_q <= 1'b0;
    end
  end

  generate
    if (HEAD_REG != 0) begin : gen_head_reg
      // The head register takes the read register's entry whenever it is
      // empty or being popped.
      reg [WIDTH-1:0] head_q;
      reg             head_valid_q;
      assign take = rd_valid_q & (~head_valid_q | pop);
      always @(posedge clk_i) begin
        if (take) head_q <= rd_q;
        if (rst_i) head_valid_q <= 1'b0;
        else if (take) head_valid_q <= 1'b1;
        else if (pop) head_valid_q <= 1'b0;
      end
      assign head_valid = head_valid_q;
      assign head_held = head_valid_q;
      assign data_o = head_q;
    end else begin : gen_head_ram
      assign take = pop;
      assign head_valid = rd_valid_q;
      assign head_held = 1'b0;
      assign data_o = rd_q;
    end
  endgenerate
  assign pop = pop_i & head_valid;
  assign level_o = {1'b0, count_q} + {{(LW - 1){1'b0}}, rd_valid_q} +
                   {{(LW - 1){1'b0}}, head_held};

  assign full_o = count_q == DEPTH[AW:0];
  assign valid_o = head_valid;
  assign empty_o = ~head_valid & ~rd_valid_q & (count_q == {(AW + 1){1'b0}});
endmodule

`default_nettype wire
