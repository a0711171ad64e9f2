// SPDX-License-Identifier: Apache-2.0
// simty_uart_rx.v - UART receiver (8N1): the host link's incoming bits to
// bytes. Two-flop synchroniser, start bit confirmed at mid-bit, each data
// bit and the stop bit sampled at mid-bit, so a clock mismatch of up to
// about 4% between the two ends is tolerated.
//
// A start bit shorter than half a bit is a glitch and is ignored. A zero
// stop bit is a framing error: the byte is dropped, frame_err_o pulses,
// and the receiver waits for the line to go idle (high) again.
// Reset: synchronous, active high.
`default_nettype none

module simty_uart_rx #(
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 115200
) (
  input  wire       clk_i,
  input  wire       rst_i,
  input  wire       rx_i,
  output reg        valid_o,      // one-cycle pulse with data_o
  output reg  [7:0] data_o,
  output reg        frame_err_o   // one-cycle pulse
);
  localparam integer DIV = (CLK_HZ + BAUD / 2) / BAUD;   // cycles per bit
  localparam integer CW = $clog2(DIV + 1);
  localparam integer HALF_I = DIV / 2 - 1;
  localparam integer FULL_I = DIV - 1;
  localparam [CW-1:0] HALF = HALF_I[CW-1:0];
  localparam [CW-1:0] FULL = FULL_I[CW-1:0];

  localparam [1:0] S_IDLE = 2'd0, S_START = 2'd1, S_BITS = 2'd2, S_BREAK = 2'd3;

  // Line idles high; both sync flops start high so reset is not a start.
  reg sync1_q = 1'b1, sync2_q = 1'b1;
  always @(posedge clk_i) begin
    sync1_q <= rx_i;
    sync2_q <= sync1_q;
  end

  reg [1:0]    state_q, state_d;
  reg [CW-1:0] count_q, count_d;
  reg [3:0]    bit_q, bit_d;      // data bits 0-7, then the stop bit (8)
  reg [7:0]    shift_q, shift_d;
  reg          valid_d, frame_err_d;

  always @* begin
    state_d = state_q;
    count_d = count_q - 1'b1;
    bit_d = bit_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    frame_err_d = 1'b0;
    case (state_q)
      S_IDLE: begin
        count_d = HALF;
        bit_d = 4'd0;
        if (!sync2_q) state_d = S_START;
      end
      S_START: begin
        if (sync2_q) state_d = S_IDLE;      // too short: a glitch
        else if (count_q == 0) begin
          state_d = S_BITS;
          count_d = FULL;
        end
      end
      S_BITS: begin
        if (count_q == 0) begin
          count_d = FULL;
          if (bit_q == 4'd8) begin
            if (sync2_q) begin
              valid_d = 1'b1;
              state_d = S_IDLE;
            end else begin
              frame_err_d = 1'b1;
              state_d = S_BREAK;
            end
          end else begin
            shift_d = {sync2_q, shift_q[7:1]};
            bit_d = bit_q + 4'd1;
          end
        end
      end
      default: begin                          // S_BREAK: wait for idle
        if (sync2_q) state_d = S_IDLE;
      end
    endcase
  end

  always @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= S_IDLE;
      valid_o <= 1'b0;
      frame_err_o <= 1'b0;
    end else begin
      state_q <= state_d;
      valid_o <= valid_d;
      frame_err_o <= frame_err_d;
    end
    count_q <= count_d;
    bit_q <= bit_d;
    shift_q <= shift_d;
    if (valid_d) data_o <= shift_d;
  end
endmodule

`default_nettype wire
