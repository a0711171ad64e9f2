// SPDX-License-Identifier: Apache-2.0
// simty_block_seq_tb.v - self-checking bench of the block sequencer
// (hw/rtl/soc/simty_block_seq.v) against docs/soc.md, "Block sequencer".
// The bench plays the core: a warp that takes a block stays busy for a
// random number of cycles (its threads run), and the dispatch port's
// ready drops at random (the core's membership updates and replays). A
// scoreboard checks every dispatch: the warp is free, the lowest free one
// (as the sequencer saw the busy bits a cycle before), the base is the
// next id in order, the mask covers exactly the ids below nthreads, the pc
// is the entry; and after the launch: every id once, the counters
// (SEQ_NEXT, threads done), DONE and the end pulse once.
// Cases: waves over all warps (more blocks than warps), a partial last
// block, one thread, a first id other than 0, no id at all, 2^31 threads
// counted not run (ids and counters checked, then a stop), the top of the
// 2^31 range run to the end, a stop in the middle (nothing handed out
// after it, the counts kept, START again after the core's reset), halt
// and fault holding offers back, START while busy ignored.
// Built with verilator --binary --timing, once per WARPS x LANES shape;
// $fatal on a failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_block_seq_tb #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4
);
  localparam integer WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1;
  localparam [31:0] ENTRY = 32'h0001_0040;

  reg clk = 1'b0;
  always #5 clk = ~clk;
  integer failures = 0;

  reg         rst = 1'b1;
  reg         start = 1'b0, stop = 1'b0, halt = 1'b0, fault = 1'b0;
  reg  [31:0] pc = ENTRY, first = 32'd0, nthreads = 32'd0;
  wire        valid;
  reg         ready = 1'b0;
  wire [WARP_BITS-1:0] warp;
  wire [31:0] dpc, base;
  wire [LANES-1:0] mask;
  reg  [WARPS-1:0] busy = {WARPS{1'b0}};
  wire        running, sbusy, done, stopped, end_pulse;
  wire [31:0] next_id, threads_done;
  wire [WARPS-1:0] held;

  simty_block_seq #(.WARPS(WARPS), .LANES(LANES)) dut (
    .clk_i(clk), .rst_i(rst),
    .start_i(start), .stop_i(stop), .pc_i(pc), .first_i(first), .nthreads_i(nthreads),
    .halt_i(halt), .fault_i(fault),
    .dispatch_valid_o(valid), .dispatch_ready_i(ready), .dispatch_warp_o(warp),
    .dispatch_pc_o(dpc), .dispatch_base_tid_o(base), .dispatch_mask_o(mask),
    .warp_busy_i(busy),
    .running_o(running), .busy_o(sbusy), .done_o(done), .stopped_o(stopped),
    .end_o(end_pulse), .next_o(next_id), .done_threads_o(threads_done), .held_o(held)
  );

  task automatic check(input cond, input [8*72-1:0] what);
    if (!cond) begin
      failures = failures + 1;
      $display("FAIL %0s at %0t (%0dx%0d)", what, $time, WARPS, LANES);
      if (failures > 20) $fatal(1, "too many failures");
    end
  endtask

  // ---- the stand-in core ----
  integer run_min = 1, run_span = 8;   // cycles a block stays busy
  integer ready_pct = 70;              // chance that ready is up
  integer left [0:WARPS-1];
  integer seed = 1;
  reg     freeze = 1'b0;               // a halted or faulted core: nothing ends

  // Scoreboard.
  reg  [63:0] expect_base;             // next id expected
  reg  [63:0] limit;                   // nthreads of the launch
  integer     blocks, ends, bad_order;
  reg  [63:0] threads_ended;
  integer     block_n [0:WARPS-1];
  reg  [WARPS-1:0] prev_busy;          // the busy bits a cycle before
  integer     disp_after_stop;
  reg         stopped_seen;

  function automatic integer lowest(input [WARPS-1:0] free);
    integer k;
    begin
      lowest = -1;
      for (k = WARPS - 1; k >= 0; k = k - 1)
        if (free[k]) lowest = k;
    end
  endfunction

  integer w, n, lw;
  reg [63:0] lanes64;
  always @(posedge clk) begin
    if (!rst) begin
      lanes64 = LANES;
      if (valid && ready) begin
        // The block taken at this edge.
        blocks = blocks + 1;
        if (stopped_seen) disp_after_stop = disp_after_stop + 1;
        check(!busy[warp], "dispatch to a busy warp");
        lw = lowest(~prev_busy);
        check(lw == warp, "not the lowest free warp");
        check(dpc == ENTRY, "dispatch pc");
        check({32'd0, base} == expect_base, "ids out of order");
        if ({32'd0, base} != expect_base) bad_order = bad_order + 1;
        n = (limit - expect_base >= lanes64) ? LANES : limit - expect_base;
        check(mask == ((n == 32) ? {LANES{1'b1}} : ((1 << n) - 1)), "block mask");
        expect_base = expect_base + n;
        block_n[warp] = n;
        busy[warp] <= 1'b1;
        left[warp] = run_min + ($urandom(seed) % run_span);
        seed = seed + 1;
      end
      for (w = 0; w < WARPS; w = w + 1) begin
        if (busy[w] && !freeze && !(valid && ready && warp == w)) begin
          if (left[w] == 0) begin
            busy[w] <= 1'b0;
            ends = ends + 1;
            threads_ended = threads_ended + block_n[w];
          end else begin
            left[w] = left[w] - 1;
          end
        end
      end
      ready <= ($urandom(seed) % 100) < ready_pct;
      seed = seed + 3;
      prev_busy <= busy;
    end
  end

  // ---- helpers ----
  task automatic clock(input integer k);
    repeat (k) @(posedge clk);
  endtask

  task automatic core_reset;
    begin
      @(negedge clk);
      rst = 1'b1;
      busy = {WARPS{1'b0}};
      prev_busy = {WARPS{1'b0}};
      freeze = 1'b0;
      @(negedge clk);
      rst = 1'b0;
    end
  endtask

  task automatic do_start(input [31:0] f, input [31:0] nt);
    begin
      @(negedge clk);
      first = f;
      nthreads = nt;
      limit = {32'd0, nt};
      expect_base = {32'd0, f & ~(LANES - 1)};
      blocks = 0;
      ends = 0;
      threads_ended = 0;
      disp_after_stop = 0;
      stopped_seen = 1'b0;
      bad_order = 0;
      start = 1'b1;
      @(negedge clk);
      start = 1'b0;
    end
  endtask

  task automatic do_stop;
    begin
      @(negedge clk);
      stop = 1'b1;
      @(negedge clk);
      stop = 1'b0;
      stopped_seen = 1'b1;
    end
  endtask

  integer ends_pulses;
  always @(posedge clk) if (!rst && end_pulse) ends_pulses = ends_pulses + 1;

  // Runs a launch to its end (bounded) and checks everything.
  task automatic run_launch(input [31:0] f, input [31:0] nt, input [8*40-1:0] name);
    integer cycles;
    reg [63:0] ids;
    begin
      ends_pulses = 0;
      do_start(f, nt);
      cycles = 0;
      while (!done && cycles < 200000) begin
        clock(1);
        cycles = cycles + 1;
        // Invariants while it runs: counts never pass the ids handed out.
        check(threads_done <= next_id - (f & ~(LANES - 1)), "done <= handed out");
      end
      ids = (nt > (f & ~(LANES - 1))) ? nt - (f & ~(LANES - 1)) : 0;
      check(done, name);
      check(!sbusy && !running && !stopped, "idle after the end");
      check(next_id == ((nt > (f & ~(LANES - 1))) ? nt : (f & ~(LANES - 1))), "SEQ_NEXT at the end");
      check(expect_base == ((nt > (f & ~(LANES - 1))) ? {32'd0, nt} : {32'd0, f & ~(LANES - 1)}),
            "every id handed out once");
      check({32'd0, threads_done} == ids, "threads done = ids");
      check(threads_ended == ids, "the core ran every id");
      check(blocks == (ids + LANES - 1) / LANES, "block count");
      check(held == {WARPS{1'b0}}, "no warp held after the end");
      clock(3);
      check(ends_pulses == 1, "one end pulse");
      $display("  %0s: %0d ids, %0d blocks, %0d cycles", name, ids, blocks, cycles);
    end
  endtask

  integer c;
  reg [31:0] n_before, d_before;
  initial begin
    for (c = 0; c < WARPS; c = c + 1) begin
      left[c] = 0;
      block_n[c] = 0;
    end
    prev_busy = {WARPS{1'b0}};
    ends_pulses = 0;
    clock(3);
    @(negedge clk);
    rst = 1'b0;
    clock(2);
    check(!valid && !sbusy && !done, "idle after reset");

    // Waves over all warps, random block lengths; the last block partial
    // (when LANES > 1).
    run_launch(0, 37 * WARPS * LANES + LANES - 1, "waves, partial last block");
    // Exactly full blocks, long and short blocks, a slow core.
    run_min = 0; run_span = 3; ready_pct = 30;
    run_launch(0, 9 * WARPS * LANES, "waves, full blocks, slow ready");
    run_min = 20; run_span = 40; ready_pct = 100;
    run_launch(0, 5 * WARPS * LANES + 1, "long blocks, last block of 1");
    run_min = 1; run_span = 8; ready_pct = 70;
    // One thread; fewer threads than one warp.
    run_launch(0, 1, "one thread");
    run_launch(0, (LANES > 1) ? LANES - 1 : 1, "fewer threads than lanes");
    // A first id other than 0 (ids first .. nthreads-1), low bits ignored.
    run_launch(3 * LANES + ((LANES > 1) ? 1 : 0), 3 * LANES + 2 * WARPS * LANES + 1,
               "first id 3 blocks in");
    // Nothing to hand out: DONE at once.
    run_launch(64 * LANES, 10, "first id past nthreads");
    // The top of the 2^31 range, run to its end: no wrap.
    run_launch(32'h8000_0000 - 6 * WARPS * LANES, 32'h8000_0000, "the last ids below 2^31");
    run_launch(32'hFFFF_FFFF - 3 * WARPS * LANES, 32'hFFFF_FFFF, "the last ids below 2^32");

    // 2^31 threads, counted not run: a few thousand blocks, then a stop.
    run_min = 0; run_span = 2; ready_pct = 100;
    ends_pulses = 0;
    do_start(0, 32'h8000_0000);
    clock(3000);
    check(running && sbusy && !done, "2^31: running");
    check(next_id == expect_base[31:0], "2^31: SEQ_NEXT = ids handed out");
    check(next_id > 300 * LANES, "2^31: blocks flow");
    check(bad_order == 0, "2^31: in order");
    do_stop();
    n_before = next_id;
    clock(200);
    check(stopped && !running && !done, "2^31: stopped");
    check(disp_after_stop <= 1, "2^31: at most the block offered with the stop");
    check(next_id == expect_base[31:0], "2^31: counts after the stop");
    check(!sbusy, "2^31: the held blocks ended");
    check(threads_done == next_id, "2^31: threads done after the stop");
    check(ends_pulses == 0, "2^31: no end pulse on a stop");
    $display("  2^31 threads: %0d ids handed out, then stopped", next_id);

    // A stop in the middle while warps are held by a halted core: nothing
    // more handed out, the counts kept; START is ignored until the core's
    // reset; the next launch runs.
    run_min = 10; run_span = 20; ready_pct = 80;
    do_start(0, 100 * WARPS * LANES);
    clock(150);
    @(negedge clk);
    freeze = 1'b1;
    halt = 1'b1;
    do_stop();
    n_before = next_id;
    d_before = threads_done;
    clock(100);
    check(stopped && !running, "stop: stopped");
    check(next_id == n_before && threads_done == d_before, "stop: counts kept");
    check(next_id == expect_base[31:0], "stop: SEQ_NEXT = ids handed out");
    check(disp_after_stop == 0, "stop: nothing handed out after the stop");
    check(sbusy == (held != 0), "stop: busy while warps hold blocks");
    check(threads_done + LANES * $countones(held) == next_id, "stop: done + held = handed out");
    check(!valid, "stop: no offer");
    begin : start_while_busy
      reg [31:0] n0;
      n0 = next_id;
      @(negedge clk);
      start = 1'b1;
      @(negedge clk);
      start = 1'b0;
      clock(5);
      if (held != 0)
        check(next_id == n0 && stopped && !valid, "START while busy is ignored");
    end
    halt = 1'b0;
    core_reset();
    check(!sbusy && !stopped && !done && next_id == 0, "core reset forgets the launch");
    run_min = 1; run_span = 8; ready_pct = 70;
    run_launch(0, 3 * WARPS * LANES + 1, "a launch after a stop");

    // Halt and fault hold offers back; nothing is handed out meanwhile.
    ends_pulses = 0;
    do_start(0, 20 * WARPS * LANES);
    clock(40);
    @(negedge clk);
    halt = 1'b1;
    freeze = 1'b1;
    clock(2);
    n_before = next_id;
    clock(60);
    check(next_id == n_before && !valid, "halt holds offers back");
    @(negedge clk);
    halt = 1'b0;
    fault = 1'b1;
    clock(60);
    check(next_id == n_before && !valid, "fault holds offers back");
    @(negedge clk);
    fault = 1'b0;
    freeze = 1'b0;
    begin : resume
      integer cy;
      cy = 0;
      while (!done && cy < 100000) begin
        clock(1);
        cy = cy + 1;
      end
    end
    check(done && threads_done == 20 * WARPS * LANES, "resumes after halt and fault");
    clock(2);
    check(ends_pulses == 1, "one end pulse after the resume");

    if (failures != 0) $fatal(1, "simty_block_seq_tb %0dx%0d: %0d failure(s)", WARPS, LANES, failures);
    $display("simty_block_seq_tb %0dx%0d: all checks passed", WARPS, LANES);
    $finish;
  end
endmodule

`default_nettype wire
