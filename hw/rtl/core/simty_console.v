// SPDX-License-Identifier: Apache-2.0
// simty_console: device console port. Takes the bytes of one console store
// (every served lane) and streams them in lane order, tagged with the
// lane's logical thread id. While it is busy a new console store replays.
`default_nettype none

module simty_console #(
  parameter integer LANES = 4
) (
  input  wire               clk_i,
  input  wire               rst_i,
  input  wire               load_i,
  input  wire [LANES-1:0]   mask_i,
  input  wire [8*LANES-1:0] bytes_i,
  input  wire [31:0]        base_tid_i,
  output wire               busy_o,
  output wire               valid_o,
  output reg  [7:0]         byte_o,
  output reg  [31:0]        tid_o,
  input  wire               ready_i
);

  reg [LANES-1:0]   mask_q;
  reg [8*LANES-1:0] bytes_q;
  reg [31:0]        base_q;

  // lowest pending lane
  reg [LANES-1:0] low;
  integer l;
  always @* begin
    low    = {LANES{1'b0}};
    byte_o = 8'd0;
    tid_o  = base_q;
    for (l = LANES - 1; l >= 0; l = l - 1) begin
      if (mask_q[l]) begin
        low    = {LANES{1'b0}};
        low[l] = 1'b1;
        byte_o = bytes_q[8*l +: 8];
        tid_o  = base_q | l;   // the base is a multiple of LANES
      end
    end
  end

  assign busy_o  = mask_q != {LANES{1'b0}};
  assign valid_o = busy_o;

  always @(posedge clk_i) begin
    if (rst_i) begin
      mask_q <= {LANES{1'b0}};
    end else if (load_i) begin
      mask_q <= mask_i;
    end else if (busy_o && ready_i) begin
      mask_q <= mask_q & ~low;
    end
    if (load_i) begin
      bytes_q <= bytes_i;
      base_q  <= base_tid_i;
    end
  end

endmodule
