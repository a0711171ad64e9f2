// SPDX-License-Identifier: Apache-2.0
// simty_board_status_tb.v - self-checking test of the board status LEDs
// (hw/rtl/boards/common/simty_board_status.v), run by make
// test-boards-lint. CLK_HZ = 1024 makes the stretch 2^(HB - 5) = 16
// cycles and half a heartbeat 2^HB = 512 cycles, so every case is short.
// Prints one PASS-CHECKPOINT per case and "board status: N failure(s)".
`timescale 1ns / 1ps
`default_nettype none

module simty_board_status_tb;
  localparam integer STRETCH = 16;
  localparam integer HALF_BEAT = 512;

  reg clk = 1'b0;
  reg rst = 1'b1;
  reg rx = 1'b1, tx = 1'b1, trap = 1'b0, busy = 1'b0, fault = 1'b0;
  /* verilator lint_off BLKSEQ */
  always #5 clk = ~clk;
  /* verilator lint_on BLKSEQ */

  wire heartbeat_led, rx_led, tx_led, trap_led, reset_led, busy_led, fault_led;
  simty_board_status #(.CLK_HZ(1024)) dut (
    .clk_i(clk), .rst_i(rst), .uart_rx_i(rx), .uart_tx_i(tx), .trap_i(trap),
    .busy_i(busy), .fault_i(fault), .heartbeat_o(heartbeat_led), .rx_o(rx_led),
    .tx_o(tx_led), .trap_o(trap_led), .reset_o(reset_led), .busy_o(busy_led),
    .fault_o(fault_led)
  );

  integer failures = 0;

  task check(input ok, input [8*48-1:0] what);
    begin
      if (!ok) begin
        failures = failures + 1;
        $display("FAIL %0s", what);
      end
    end
  endtask

  // Cycles (sampled between rising edges, the current one included) for
  // which busy_led is lit, counted until it has been dark for 2 * STRETCH
  // cycles. Called in the first cycle with busy low: the LED has been lit
  // since the edge that sampled busy high, so a one-cycle pulse gives
  // STRETCH.
  task count_busy_lit(output integer lit);
    integer dark;
    begin
      lit = busy_led ? 1 : 0;
      dark = 0;
      while (dark < 2 * STRETCH) begin
        @(negedge clk);
        if (busy_led) begin
          lit = lit + 1;
          dark = 0;
        end else begin
          dark = dark + 1;
        end
      end
    end
  endtask

  integer lit, i, toggles;
  reg last_beat;
  initial begin
    repeat (3) @(negedge clk);
    check(reset_led, "reset LED lit in reset");
    rst = 1'b0;
    @(negedge clk);
    check(!reset_led, "reset LED dark out of reset");
    repeat (2 * STRETCH) @(negedge clk);
    check(!busy_led && !fault_led && !rx_led && !tx_led, "LEDs dark when idle");
    $display("PASS-CHECKPOINT idle");

    // A one-cycle kernel still lights the LED for the whole stretch.
    busy = 1'b1;
    @(negedge clk);
    busy = 1'b0;
    count_busy_lit(lit);
    check(lit == STRETCH, "one-cycle busy lights STRETCH cycles");
    $display("PASS-CHECKPOINT one-cycle busy: lit %0d cycles", lit);

    // Busy for a long time, with gaps shorter than the stretch (a warp
    // refill): the LED never goes dark, then lasts STRETCH cycles.
    for (i = 0; i < 5; i = i + 1) begin
      busy = 1'b1;
      repeat (40) begin
        @(negedge clk);
        check(busy_led, "busy LED lit while busy");
      end
      busy = 1'b0;
      repeat (STRETCH - 4) begin
        @(negedge clk);
        check(busy_led, "busy LED lit across a short gap");
      end
    end
    busy = 1'b1;
    @(negedge clk);
    busy = 1'b0;
    count_busy_lit(lit);
    check(lit == STRETCH, "busy LED lasts STRETCH after the end");
    $display("PASS-CHECKPOINT long busy with gaps: lit %0d cycles after", lit);

    // Fault and trap: lit exactly while held.
    fault = 1'b1;
    trap = 1'b1;
    #1;
    check(fault_led && trap_led, "fault and trap LEDs follow their inputs");
    fault = 1'b0;
    trap = 1'b0;
    #1;
    check(!fault_led && !trap_led, "fault and trap LEDs dark when released");
    $display("PASS-CHECKPOINT fault and trap");

    // Link activity: a low bit on either line lights its LED only.
    tx = 1'b0;
    @(negedge clk);
    tx = 1'b1;
    @(negedge clk);
    check(tx_led && !rx_led, "TX activity lights the TX LED only");
    rx = 1'b0;
    repeat (3) @(negedge clk);   // two synchroniser flops
    rx = 1'b1;
    check(rx_led, "RX activity lights the RX LED");
    repeat (2 * STRETCH + 4) @(negedge clk);
    check(!rx_led && !tx_led, "activity LEDs dark after the stretch");
    $display("PASS-CHECKPOINT link activity");

    // Heartbeat: toggles every HALF_BEAT cycles.
    toggles = 0;
    last_beat = heartbeat_led;
    for (i = 0; i < 4 * HALF_BEAT; i = i + 1) begin
      @(negedge clk);
      if (heartbeat_led != last_beat) toggles = toggles + 1;
      last_beat = heartbeat_led;
    end
    check(toggles == 4, "heartbeat toggles every HALF_BEAT cycles");
    $display("PASS-CHECKPOINT heartbeat: %0d toggles in %0d cycles", toggles, 4 * HALF_BEAT);

    $display("board status: %0d failure(s)", failures);
    if (failures != 0) $fatal(1, "board status test failed");
    $finish;
  end
endmodule

`default_nettype wire
