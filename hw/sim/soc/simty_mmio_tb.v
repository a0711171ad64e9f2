// SPDX-License-Identifier: Apache-2.0
// simty_mmio_tb.v - self-checking bench of the controller register block
// against docs/soc.md: INFO values, read/write registers, the block
// sequencer's registers (START and STOP pulses, START and the end pulse
// opening and closing ACTIVE, status and counts read back), core reset
// pulse and busy, the launch-window counters
// (cycles, sched_idle_cycles) gated by ACTIVE, counter and timer high-word
// latching, the wait of a CTR_LO read until the core's counter port is
// valid, the console FIFO, and the UART status bits and their clears.
// The bench plays the core's and the UART's side of the ports.
// Built with verilator --binary --timing; $fatal on a failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_mmio_tb;
  reg clk = 1'b0;
  always #5 clk = ~clk;
  reg rst = 1'b1;
  integer failures = 0;

  reg         req = 0;
  reg  [15:2] addr = 0;
  reg  [3:0]  wstrb = 0;
  reg  [31:0] wdata = 0;
  wire [31:0] rdata;
  wire        bus_wait;

  wire        core_rst, halt, active, ctr_clear, console_ready;
  wire [31:0] nthreads, args, stack_top, seq_pc, seq_first;
  wire [4:0]  stack_log2;
  wire        seq_start, seq_stop;
  reg  [3:0]  seq_status = 0;
  reg         seq_end = 0;
  reg  [31:0] seq_next = 0, seq_done = 0;
  reg  [7:0]  seq_held = 0;
  wire [3:0]  ctr_sel;
  reg         core_idle = 1, fault_valid = 0, retire = 0;
  reg  [7:0]  warp_busy = 0;
  reg  [63:0] ctr_value = 0;
  reg         ctr_valid = 1;
  reg         con_valid = 0;
  reg  [7:0]  con_byte = 0;
  reg  [31:0] con_tid = 0;
  reg         rx_valid = 0, tx_full = 0, tx_idle = 1, overrun = 0, frame_err = 0;
  reg  [7:0]  rx_data = 0;
  wire        rx_pop, tx_push;
  wire [7:0]  tx_data;
  wire [1:0]  uart_clear;

  simty_mmio #(
    .WARPS(8), .LANES(4), .CODE_SIZE(32'h2000), .DATA_SIZE(32'h8000),
    .CLK_HZ(32'd25_000_000), .CONSOLE_DEPTH(4), .RESET_CYCLES(5),
    .HW_VERSION(32'h0001_0203), .HW_BUILD(32'hCAFE_F00D), .BAUD(32'd3_000_000),
    .EXTENSIONS(32'd5)
  ) dut (
    .clk_i(clk), .rst_i(rst),
    .req_i(req), .addr_i(addr), .wstrb_i(wstrb), .wdata_i(wdata), .rdata_o(rdata),
    .wait_o(bus_wait),
    .core_rst_o(core_rst), .core_idle_i(core_idle), .halt_o(halt), .active_o(active),
    .launch_nthreads_o(nthreads), .launch_args_o(args), .launch_stack_top_o(stack_top),
    .launch_stack_log2_o(stack_log2),
    .warp_busy_i(warp_busy),
    .seq_start_o(seq_start), .seq_stop_o(seq_stop), .seq_pc_o(seq_pc),
    .seq_first_o(seq_first), .seq_status_i(seq_status), .seq_end_i(seq_end),
    .seq_next_i(seq_next), .seq_threads_done_i(seq_done), .seq_held_i(seq_held),
    .fault_valid_i(fault_valid), .fault_cause_i(4'd7), .fault_pc_i(32'h10040),
    .fault_hart_i(32'd13), .fault_tid_i(32'd77), .fault_addr_i(32'h3000_0010),
    .retire_valid_i(retire),
    .ctr_clear_o(ctr_clear), .ctr_sel_o(ctr_sel), .ctr_value_i(ctr_value),
    .ctr_valid_i(ctr_valid),
    .console_valid_i(con_valid), .console_byte_i(con_byte), .console_tid_i(con_tid),
    .console_ready_o(console_ready),
    .uart_rx_valid_i(rx_valid), .uart_rx_data_i(rx_data), .uart_rx_pop_o(rx_pop),
    .uart_tx_push_o(tx_push), .uart_tx_data_o(tx_data), .uart_tx_full_i(tx_full),
    .uart_tx_idle_i(tx_idle), .uart_overrun_i(overrun), .uart_frame_err_i(frame_err),
    .uart_clear_o(uart_clear)
  );

  task automatic check(input cond, input [8*64-1:0] what);
    if (!cond) begin
      failures = failures + 1;
      $display("FAIL %0s at %0t", what, $time);
    end
  endtask

  // One bus access: request for one cycle, data the next (as the SoC does);
  // like the SoC, the request is held back while wait_o is high (bounded
  // here: a wait of more than 64 cycles is a failure).
  reg [31:0] got;
  integer waits;
  task automatic wr(input [15:0] off, input [31:0] v);
    begin
      @(negedge clk);
      req = 1; addr = off[15:2]; wstrb = 4'hF; wdata = v;
      @(negedge clk);
      req = 0; wstrb = 0;
    end
  endtask
  task automatic rd(input [15:0] off);
    begin
      @(negedge clk);
      addr = off[15:2]; wstrb = 0;
      #1;
      waits = 0;
      while (bus_wait && waits < 64) begin
        @(negedge clk);
        waits = waits + 1;
      end
      check(!bus_wait, "a held access is taken within 64 cycles");
      req = 1;
      @(negedge clk);
      req = 0;
      got = rdata;
    end
  endtask
  task automatic expect_rd(input [15:0] off, input [31:0] want, input [8*64-1:0] what);
    begin
      rd(off);
      check(got === want, what);
      if (got !== want) $display("     offset %03x: got %08x want %08x", off, got, want);
    end
  endtask

  // The core's counter port: valid_in cycles from now, value and valid.
  integer valid_in = -1;
  always @(negedge clk) begin
    if (valid_in > 0) valid_in <= valid_in - 1;
    if (valid_in == 1) begin
      ctr_value <= 64'h0000_0042_0000_0777;
      ctr_valid <= 1;
    end
  end

  // Pulses observed by the bench
  integer pops = 0, pushes = 0, clears = 0;
  reg [7:0] last_tx = 0;
  always @(posedge clk) begin
    if (rx_pop) pops = pops + 1;
    if (tx_push) begin
      pushes = pushes + 1;
      last_tx = tx_data;
    end
    if (ctr_clear) clears = clears + 1;
  end

  integer i, reset_cycles;
  reg [31:0] lo1, lo2;
  initial begin
    repeat (3) @(negedge clk);
    rst = 0;

    // ---- INFO ----
    expect_rd(16'h000, 32'h5349_4D54, "ID");
    expect_rd(16'h004, 32'd8, "WARPS");
    expect_rd(16'h008, 32'd4, "LANES");
    expect_rd(16'h00C, 32'h2000, "CODE_SIZE");
    expect_rd(16'h010, 32'h8000, "DATA_SIZE");
    expect_rd(16'h014, 32'd25_000_000, "CLOCK_HZ");
    expect_rd(16'h0C0, 32'h0001_0203, "HW_VERSION");
    expect_rd(16'h0C4, 32'hCAFE_F00D, "HW_BUILD");
    expect_rd(16'h0C8, 32'd3_000_000, "LINK_BAUD");
    expect_rd(16'h0CC, 32'd5, "EXTENSIONS");
    expect_rd(16'h0FC, 32'd0, "unlisted offset reads 0");
    expect_rd(16'h100, 32'd0, "past the block reads 0");
    wr(16'h000, 32'h1234);
    expect_rd(16'h000, 32'h5349_4D54, "ID ignores writes");

    // ---- launch inputs and dispatch fields read back ----
    wr(16'h030, 32'd1000); wr(16'h034, 32'h1000_0040); wr(16'h038, 32'h1010_0000);
    wr(16'h03C, 32'hFFFF_FFEA);
    expect_rd(16'h030, 32'd1000, "LAUNCH_NTHREADS");
    expect_rd(16'h034, 32'h1000_0040, "LAUNCH_ARGS");
    expect_rd(16'h038, 32'h1010_0000, "LAUNCH_STACK_TOP");
    expect_rd(16'h03C, 32'd10, "LAUNCH_STACK_LOG2 keeps 5 bits");
    check(nthreads == 1000 && args == 32'h1000_0040 && stack_top == 32'h1010_0000 &&
          stack_log2 == 5'd10, "launch inputs drive the core");

    // ---- block sequencer registers ----
    wr(16'h044, 32'h10040); wr(16'h048, 32'd96);
    expect_rd(16'h044, 32'h10040, "SEQ_PC");
    expect_rd(16'h048, 32'd96, "SEQ_FIRST");
    check(seq_pc == 32'h10040 && seq_first == 32'd96, "SEQ_PC and SEQ_FIRST drive the sequencer");
    check(!active, "ACTIVE is 0 before START");
    expect_rd(16'h040, 32'd0, "SEQ_CTRL reads 0");
    // START: a one-cycle pulse, and ACTIVE rises.
    @(negedge clk);
    req = 1; addr = 14'h040 >> 2; wstrb = 4'hF; wdata = 32'd1;
    #1 check(seq_start && !seq_stop, "START pulses seq_start in its bus cycle");
    @(negedge clk);
    req = 0; wstrb = 0;
    #1 check(!seq_start && active, "START is one cycle and opens ACTIVE");
    // STOP: a one-cycle pulse; ACTIVE is the firmware's then.
    @(negedge clk);
    req = 1; addr = 14'h040 >> 2; wstrb = 4'hF; wdata = 32'd2;
    #1 check(seq_stop && !seq_start, "STOP pulses seq_stop in its bus cycle");
    @(negedge clk);
    req = 0; wstrb = 0;
    #1 check(!seq_stop && active, "STOP is one cycle and leaves ACTIVE");
    // The sequencer's end pulse closes ACTIVE.
    @(negedge clk) seq_end = 1;
    @(negedge clk) seq_end = 0;
    check(!active, "the sequencer's end pulse closes ACTIVE");
    seq_status = 4'b0101; seq_next = 32'h8000_0000; seq_done = 32'h7FFF_FFE0; seq_held = 8'hA5;
    expect_rd(16'h04C, 32'h05, "SEQ_STATUS");
    expect_rd(16'h050, 32'h8000_0000, "SEQ_NEXT");
    expect_rd(16'h058, 32'h7FFF_FFE0, "SEQ_DONE");
    expect_rd(16'h05C, 32'hA5, "SEQ_HELD");
    wr(16'h04C, 32'hFFFF); wr(16'h050, 32'd1);
    expect_rd(16'h04C, 32'h05, "SEQ_STATUS ignores writes");
    expect_rd(16'h050, 32'h8000_0000, "SEQ_NEXT ignores writes");
    seq_status = 4'b1010;
    expect_rd(16'h04C, 32'h0A, "SEQ_STATUS follows the sequencer");
    warp_busy = 8'h20;
    expect_rd(16'h054, 32'h20, "WARP_BUSY");

    // ---- halt, active, fault record ----
    wr(16'h024, 32'd3);
    check(halt, "HALT bit 0 drives halt");
    expect_rd(16'h024, 32'd1, "HALT reads bit 0");
    fault_valid = 1;
    expect_rd(16'h060, 32'd1, "FAULT_VALID");
    expect_rd(16'h064, 32'd7, "FAULT_CAUSE");
    expect_rd(16'h068, 32'h10040, "FAULT_PC");
    expect_rd(16'h06C, 32'd13, "FAULT_HART");
    expect_rd(16'h070, 32'd77, "FAULT_TID");
    expect_rd(16'h074, 32'h3000_0010, "FAULT_ADDR");
    expect_rd(16'h04C, 32'h1A, "SEQ_STATUS bit 4 = FAULT_VALID");

    // ---- core reset: a pulse of RESET_CYCLES, busy while it or the core runs ----
    wr(16'h020, 32'd1);
    reset_cycles = 0;
    while (core_rst && reset_cycles < 100) begin
      @(negedge clk);
      reset_cycles = reset_cycles + 1;
    end
    check(reset_cycles >= 4 && reset_cycles <= 6, "core reset lasts RESET_CYCLES");
    check(halt, "core reset leaves HALT alone");
    core_idle = 0;
    expect_rd(16'h020, 32'd1, "CORE_RESET busy while the core is not idle");
    core_idle = 1;
    expect_rd(16'h020, 32'd0, "CORE_RESET done");
    wr(16'h024, 32'd0);

    // ---- counters: selected core counter, latched high word, clear ----
    wr(16'h080, 32'd7);
    check(ctr_sel == 4'd7, "CTR_SEL drives the core");
    ctr_value = 64'h0000_0123_89AB_CDEF;
    expect_rd(16'h084, 32'h89AB_CDEF, "CTR_LO");
    ctr_value = 64'h0000_0999_0000_0000;     // changes after the LO read
    expect_rd(16'h088, 32'h0000_0123, "CTR_HI latched by the CTR_LO read");
    wr(16'h08C, 32'd0);
    repeat (2) @(negedge clk);     // the pulse is registered: seen next edge
    check(clears == 1, "CTR_CLEAR (any value) pulses ctr_clear once");

    // ---- CTR_LO of a core counter waits for ctr_valid ----
    wr(16'h080, 32'd5);
    ctr_valid = 0;
    addr = 14'h084 >> 2; wstrb = 0;
    #1 check(bus_wait, "CTR_LO read waits while ctr_valid is low");
    wstrb = 4'hF;
    #1 check(!bus_wait, "a CTR_LO write does not wait");
    addr = 14'h088 >> 2; wstrb = 0;
    #1 check(!bus_wait, "CTR_HI read does not wait");
    addr = 14'h080 >> 2;
    #1 check(!bus_wait, "other registers do not wait");
    valid_in = 6;      // the core side: ctr_valid rises 6 cycles later
    expect_rd(16'h084, 32'h0000_0777, "CTR_LO after the wait");
    check(waits >= 5 && waits <= 7, "CTR_LO held until ctr_valid");
    expect_rd(16'h088, 32'h0000_0042, "CTR_HI after the wait");
    ctr_valid = 0;
    wr(16'h080, 32'd0);
    addr = 14'h084 >> 2; wstrb = 0;
    #1 check(!bus_wait, "CTR_LO of cycles (the block's own) never waits");
    wr(16'h080, 32'd9);
    addr = 14'h084 >> 2; wstrb = 0;
    #1 check(!bus_wait, "CTR_LO of sched_idle (the block's own) never waits");
    wr(16'h080, 32'd5);
    ctr_valid = 1;
    wr(16'h08C, 32'd0);     // ctr_clear is high in this cycle
    addr = 14'h084 >> 2; wstrb = 0;
    #1 check(bus_wait, "CTR_LO waits while the clear pulse is pending");
    @(negedge clk);
    #1 check(!bus_wait, "and no longer once the core has seen it");
    check(clears == 2, "second CTR_CLEAR pulses once");

    // ---- cycles and sched_idle_cycles count only while ACTIVE ----
    repeat (20) @(negedge clk);
    wr(16'h080, 32'd0);
    expect_rd(16'h084, 32'd0, "cycles stay 0 outside the launch window");
    wr(16'h028, 32'd1);
    retire = 0;
    repeat (30) @(negedge clk);
    retire = 1;
    repeat (10) @(negedge clk);
    retire = 0;
    wr(16'h028, 32'd0);
    repeat (10) @(negedge clk);
    rd(16'h084);
    lo1 = got;
    wr(16'h080, 32'd9);
    rd(16'h084);
    lo2 = got;
    check(lo1 >= 41 && lo1 <= 43, "cycles = the window's length");
    check(lo2 == lo1 - 10, "sched_idle_cycles = window cycles without a retire");
    if (lo1 < 41 || lo1 > 43 || lo2 != lo1 - 10) $display("     cycles %0d idle %0d", lo1, lo2);
    wr(16'h08C, 32'd1);
    expect_rd(16'h084, 32'd0, "CTR_CLEAR zeroes the window counters");

    // ---- timer: runs, high word latched by the low read ----
    rd(16'h0A0);
    lo1 = got;
    repeat (50) @(negedge clk);
    rd(16'h0A0);
    lo2 = got;
    check(lo2 - lo1 >= 50 && lo2 - lo1 <= 56, "TIMER counts cycles");
    expect_rd(16'h0A4, 32'd0, "TIMER_HI");

    // ---- console FIFO: records in order, level, back-pressure ----
    expect_rd(16'h090, 32'd0, "console empty");
    for (i = 0; i < 6; i = i + 1) begin
      @(negedge clk);
      con_valid = console_ready;
      con_byte = 8'(8'h41 + i);
      con_tid = 32'(100 + i);
      @(negedge clk);
      con_valid = 0;
    end
    expect_rd(16'h090, 32'd5, "console holds DEPTH + 1 records");
    check(!console_ready, "console full: back-pressure to the core");
    for (i = 0; i < 5; i = i + 1) begin
      expect_rd(16'h094, 32'(100 + i), "CONSOLE_TID of the oldest record");
      expect_rd(16'h098, 32'(8'h41 + i), "CONSOLE_DATA pops in order");
    end
    expect_rd(16'h090, 32'd0, "console drained");
    con_valid = 1; con_byte = 8'h5A; con_tid = 32'd9;
    @(negedge clk) con_valid = 0;
    wr(16'h020, 32'd1);
    repeat (8) @(negedge clk);
    expect_rd(16'h090, 32'd0, "core reset empties the console");

    // ---- UART ----
    rx_valid = 0; tx_full = 0; tx_idle = 1; overrun = 1; frame_err = 1;
    expect_rd(16'h0B4, 32'h1E, "UART_STATUS: TX_READY, overrun, frame error, TX idle");
    rx_valid = 1; rx_data = 8'hC5; tx_full = 1; tx_idle = 0;
    expect_rd(16'h0B4, 32'h0D, "UART_STATUS: RX_VALID, no TX_READY");
    expect_rd(16'h0B0, 32'h1C5, "UART_DATA reads the byte, bit 8 set");
    check(pops == 1, "UART_DATA read pops once");
    rx_valid = 0;
    rd(16'h0B0);
    check(pops == 1 && got == 32'd0, "no pop, and 0, when nothing is waiting");
    wr(16'h0B0, 32'h1A7);
    check(pushes == 1 && last_tx == 8'hA7, "UART_DATA write pushes the low byte");
    @(negedge clk);
    req = 1; addr = 16'h0B4 >> 2; wstrb = 4'hF; wdata = 32'h4;
    #1 check(uart_clear == 2'b01, "writing bit 2 clears the overrun only");
    wdata = 32'h8;
    #1 check(uart_clear == 2'b10, "writing bit 3 clears the framing error only");
    @(negedge clk) req = 0;

    $display("mmio: %0d failure(s)", failures);
    if (failures != 0) $fatal(1, "mmio bench failed");
    $finish;
  end
endmodule

`default_nettype wire
