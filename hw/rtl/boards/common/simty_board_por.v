// SPDX-License-Identifier: Apache-2.0
// simty_board_por.v - power-on reset for the board tops: holds rst_o high
// for 2^BITS clock cycles after configuration and after the (optional)
// reset button is released, then releases it synchronously.
//
// Why a counter and no external reset chip: none of the supported boards
// wires a reset line to the FPGA fabric; the flops start at their
// bitstream value (0), so the counter itself needs no reset. The delay
// also covers the iCE40's block RAMs, which are not usable for a few
// microseconds after configuration, and would cover a PLL's lock time if
// a board ever adds one (gate it with lock_i).
// Reset out: synchronous, active high (the SoC's convention).
`default_nettype none

module simty_board_por #(
  parameter integer BITS = 16       // 2^16 cycles: 5.5 ms at 12 MHz
) (
  input  wire clk_i,
  input  wire button_n_i,           // 0 = reset requested (tie 1 if none)
  input  wire lock_i,               // clock stable (tie 1 without a PLL)
  output wire rst_o
);
  // Two flops bring the button into the clock domain before it is used.
  reg [1:0] sync_q = 2'b00;
  always @(posedge clk_i) sync_q <= {sync_q[0], button_n_i & lock_i};

  reg [BITS:0] count_q = {(BITS + 1){1'b0}};
  always @(posedge clk_i) begin
    if (!sync_q[1]) count_q <= {(BITS + 1){1'b0}};
    else if (!count_q[BITS]) count_q <= count_q + 1'b1;
  end

  assign rst_o = ~count_q[BITS];
endmodule

`default_nettype wire
