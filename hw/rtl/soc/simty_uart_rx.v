// SPDX-License-Identifier: Apache-2.0
// simty_uart_rx.v - UART receiver (8N1): the host link's incoming bits to
// bytes. Two-flop synchroniser, start bit confirmed at mid-bit, each data
// bit and the stop bit sampled at mid-bit.
//
// Bit timing: a phase accumulator (as in simty_uart_tx) adds BAUD / g a
// cycle and marks a sample each time it passes CLK_HZ / g, so samples are
// one bit apart at exactly BAUD on average, each within a cycle of its
// ideal time, when CLK_HZ / BAUD is not an integer (25 MHz / 3 Mbaud:
// 8.33 cycles a bit). At the start edge the accumulator starts half a bit
// in, less the synchroniser's delay, so the samples fall at mid-bit; a
// sender within about 2% (8.33 cycles a bit) to 4% (12 and more) of the
// rate is received.
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
`include "simty_uart_rate.vh"
  // The start edge reaches the state machine about 1.5 cycles late (the
  // synchroniser) and is seen a cycle later still: starting the phase at
  // half a bit plus half a cycle puts the first sample at mid start bit.
  localparam integer START_I = MOD_I / 2 + INC_I / 2;
  localparam [AW-1:0] START = START_I[AW-1:0];

  localparam [1:0] S_IDLE = 2'd0, S_START = 2'd1, S_BITS = 2'd2, S_BREAK = 2'd3;

  // Line idles high; both sync flops start high so reset is not a start.
  reg sync1_q = 1'b1, sync2_q = 1'b1;
  always @(posedge clk_i) begin
    sync1_q <= rx_i;
    sync2_q <= sync1_q;
  end

  reg [1:0]    state_q, state_d;
  reg [AW-1:0] acc_q, acc_d;
  reg [3:0]    bit_q, bit_d;      // data bits 0-7, then the stop bit (8)
  reg [7:0]    shift_q, shift_d;
  reg          valid_d, frame_err_d;

  wire [AW-1:0] acc_sum = acc_q + INC;
  wire          tick = acc_sum >= MOD;   // sample this cycle

  always @* begin
    state_d = state_q;
    acc_d = tick ? acc_sum - MOD : acc_sum;
    bit_d = bit_q;
    shift_d = shift_q;
    valid_d = 1'b0;
    frame_err_d = 1'b0;
    case (state_q)
      S_IDLE: begin
        acc_d = START;
        bit_d = 4'd0;
        if (!sync2_q) state_d = S_START;
      end
      S_START: begin
        if (sync2_q) state_d = S_IDLE;      // too short: a glitch
        else if (tick) state_d = S_BITS;
      end
      S_BITS: begin
        if (tick) begin
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
    acc_q <= acc_d;
    bit_q <= bit_d;
    shift_q <= shift_d;
    if (valid_d) data_o <= shift_d;
  end
endmodule

`default_nettype wire
