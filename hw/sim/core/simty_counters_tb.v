// SPDX-License-Identifier: Apache-2.0
// simty_counters_tb.v - self-checking bench of simty_counters against a
// plain 64-bit reference (one adder per counter, cct_peak a max), over
// phases of random, largest (every counter at its largest increment every
// cycle: the low parts' carry bound) and no activity, with random
// selections and clears:
//   - when the inputs are quiet, valid_o rises within SIMTY_CTR_COUNT + 1
//     cycles of a selection and value_o is exactly the reference;
//   - while counting, valid_o means value_o is the selected counter as it
//     was in one of the last SIMTY_CTR_COUNT + 1 cycles (a coherent
//     snapshot), and the latched value never runs ahead of the reference;
//   - valid_o falls in the cycle ctr_sel changes, and after a clear;
//   - indexes >= SIMTY_CTR_COUNT read 0.
// Built with verilator --binary --timing -GLANE_BITS=n; $fatal on failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_counters_tb #(
  parameter integer LANE_BITS = 2,
  parameter integer CYCLES = 150000
);
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM
  localparam integer N = SIMTY_CTR_COUNT;
  localparam integer LANES = 1 << LANE_BITS;
  localparam integer H = N + 2;   // history depth (cycles)

  reg clk = 1'b0;
  always #5 clk = ~clk;
  reg rst = 1'b1, clear = 1'b0;
  reg [3:0] sel = 4'd0;
  wire [63:0] value;
  wire valid;
  reg busy = 0, issue = 0, exec = 0, divergent = 0, smerge = 0;
  reg replay_mem = 0, replay_ind = 0, mem = 0, peak_valid = 0;
  reg uniform = 0, affine = 0;
  reg [1:0] merges = 0;
  reg [LANE_BITS:0] threads = 0, requests = 0, peak = 0;

  simty_counters #(.LANE_BITS(LANE_BITS)) dut (
    .clk_i(clk), .rst_i(rst), .clear_i(clear), .sel_i(sel),
    .value_o(value), .valid_o(valid),
    .busy_i(busy), .issue_i(issue), .exec_i(exec), .threads_i(threads),
    .divergent_i(divergent), .merges_i(merges), .smerge_i(smerge),
    .replay_mem_i(replay_mem), .replay_ind_i(replay_ind), .mem_i(mem),
    .requests_i(requests), .peak_valid_i(peak_valid), .peak_i(peak),
    .uniform_i(uniform), .affine_i(affine)
  );

  // Reference: ref_q[c] is the counter's value before the coming edge;
  // hist[c][k] its value k + 1 cycles ago.
  reg [63:0] ref_q [0:N-1];
  reg [63:0] hist [0:N-1][0:H-1];
  integer c, k;
  always @(posedge clk) begin
    for (c = 0; c < N; c = c + 1) begin
      for (k = H - 1; k > 0; k = k - 1) hist[c][k] <= hist[c][k-1];
      hist[c][0] <= ref_q[c];
    end
    if (rst || clear) begin
      for (c = 0; c < N; c = c + 1) begin
        ref_q[c] <= 64'd0;
        for (k = 0; k < H; k = k + 1) hist[c][k] <= 64'd0;
      end
    end else begin
      ref_q[SIMTY_CTR_cycles] <= ref_q[SIMTY_CTR_cycles] + busy;
      ref_q[SIMTY_CTR_warp_insts] <= ref_q[SIMTY_CTR_warp_insts] + exec;
      ref_q[SIMTY_CTR_thread_insts] <= ref_q[SIMTY_CTR_thread_insts] + threads;
      ref_q[SIMTY_CTR_divergent_branches] <= ref_q[SIMTY_CTR_divergent_branches] + divergent;
      ref_q[SIMTY_CTR_path_merges] <= ref_q[SIMTY_CTR_path_merges] + merges + smerge;
      ref_q[SIMTY_CTR_replays_mem] <= ref_q[SIMTY_CTR_replays_mem] + replay_mem;
      ref_q[SIMTY_CTR_replays_indirect] <= ref_q[SIMTY_CTR_replays_indirect] + replay_ind;
      ref_q[SIMTY_CTR_mem_requests] <= ref_q[SIMTY_CTR_mem_requests] + requests;
      ref_q[SIMTY_CTR_mem_transactions] <= ref_q[SIMTY_CTR_mem_transactions] + mem;
      ref_q[SIMTY_CTR_sched_idle_cycles] <= ref_q[SIMTY_CTR_sched_idle_cycles] + (busy && !issue);
      if (peak_valid && peak > ref_q[SIMTY_CTR_cct_peak]) ref_q[SIMTY_CTR_cct_peak] <= peak;
      ref_q[SIMTY_CTR_uniform_vectors] <= ref_q[SIMTY_CTR_uniform_vectors] + uniform;
      ref_q[SIMTY_CTR_affine_vectors] <= ref_q[SIMTY_CTR_affine_vectors] + affine;
    end
  end

  integer failures = 0;
  task automatic fail(input [8*48-1:0] what);
    begin
      failures = failures + 1;
      if (failures < 20)
        $display("FAIL %0s: sel %0d old %0d vsel %0d vok %0d value %0d ref %0d at %0t", what, sel, old_sel, dut.vsel_q, dut.vok_q, value,
                 (sel < N) ? ref_q[sel] : 64'd0, $time);
    end
  endtask

  // Inputs for one cycle: mode 0 quiet, 1 random, 2 largest increments.
  task automatic drive(input integer mode);
    begin
      busy = mode == 2 || (mode == 1 && $urandom % 8 != 0);
      issue = mode == 1 && $urandom % 2 == 0;
      exec = mode == 2 || (mode == 1 && $urandom % 2 == 0);
      threads = (mode == 2) ? LANES[LANE_BITS:0] :
                (mode == 1) ? ($urandom % (LANES + 1)) : 0;
      divergent = mode == 2 || (mode == 1 && $urandom % 5 == 0);
      merges = (mode == 2) ? 2'd3 : (mode == 1) ? $urandom % 4 : 2'd0;
      smerge = mode == 2 || (mode == 1 && $urandom % 3 == 0);
      replay_mem = mode == 2 || (mode == 1 && $urandom % 7 == 0);
      replay_ind = mode == 2 || (mode == 1 && $urandom % 9 == 0);
      mem = mode == 2 || (mode == 1 && $urandom % 3 == 0);
      requests = (mode == 2) ? LANES[LANE_BITS:0] :
                 (mode == 1) ? ($urandom % (LANES + 1)) : 0;
      peak_valid = mode != 0 && $urandom % 50 == 0;
      peak = $urandom % (LANES + 1);
      uniform = mode == 2 || (mode == 1 && $urandom % 2 == 0);
      affine = mode == 2 || (mode == 1 && $urandom % 4 == 0);
    end
  endtask

  // Is value one of the last H values of counter s?
  function automatic recent(input [3:0] s);
    integer j;
    begin
      recent = ref_q[s] == value;
      for (j = 0; j < H; j = j + 1) if (hist[s][j] == value) recent = 1'b1;
    end
  endfunction

  integer t, mode, left, waited, quiet_checks, snap_checks;
  reg [3:0] old_sel;
  initial begin
    quiet_checks = 0;
    snap_checks = 0;
    repeat (3) @(negedge clk);
    rst = 0;
    mode = 1;
    left = 0;
    for (t = 0; t < CYCLES; t = t + 1) begin
      @(negedge clk);
      // checks on the state after the last edge
      if (valid) begin
        if (sel >= N) begin
          if (value != 64'd0) fail("index >= N reads 0");
        end else if (!recent(sel)) begin
          fail("valid value is a recent snapshot");
        end
        snap_checks = snap_checks + 1;
      end
      if (clear) begin
        clear = 0;
      end
      if (left == 0) begin
        mode = $urandom % 3;
        left = 1 + $urandom % ((mode == 0) ? 40 : 1500);
      end
      left = left - 1;
      drive(mode);
      if (mode == 0 && $urandom % 4 == 0) begin
        // quiet: a new selection is read exactly within N + 1 cycles
        old_sel = sel;
        sel = $urandom % 16;
        #1;
        if (sel != old_sel && valid) fail("valid falls when sel changes");
        if (sel == old_sel) begin
          // still valid: a snapshot of up to N cycles ago, so only after
          // N + 1 quiet cycles is it the exact, final value
          repeat (N + 1) @(negedge clk);
          t = t + N + 1;
        end
        waited = 0;
        while (!valid && waited < N + 2) begin
          @(negedge clk);
          drive(0);
          waited = waited + 1;
          t = t + 1;
        end
        if (!valid) fail("valid within N + 1 cycles");
        else if (waited > N + 1) fail("latency <= N + 1");
        else if (value != ((sel < N) ? ref_q[sel] : 64'd0)) fail("quiet read is exact");
        quiet_checks = quiet_checks + 1;
      end else if ($urandom % 64 == 0) begin
        old_sel = sel;
        sel = $urandom % 16;
        #1;
        if (sel != old_sel && valid) fail("valid falls when sel changes");
      end
      if ($urandom % 20000 == 0) begin
        clear = 1;
        @(negedge clk);
        clear = 0;
        t = t + 1;
        if (valid) fail("valid falls after a clear");
      end
    end
    // final: every counter exact once quiet
    drive(0);
    for (k = 0; k < 16; k = k + 1) begin
      @(negedge clk);
      sel = k[3:0];
      waited = 0;
      #1;
      while (!valid && waited < N + 2) begin
        @(negedge clk);
        waited = waited + 1;
      end
      if (!valid || value != ((sel < N) ? ref_q[sel] : 64'd0)) fail("final read");
      else if (sel < N)
        $display("  ctr %0d = %0d", sel, value);
    end
    $display("simty_counters_tb LANE_BITS=%0d: %0d cycles, %0d exact quiet reads, %0d snapshot checks, %0d failures",
             LANE_BITS, CYCLES, quiet_checks, snap_checks, failures);
    if (failures != 0) $fatal(1, "simty_counters_tb failed");
    $finish;
  end
endmodule
