// simty_counters: the performance counters of docs/architecture.md section
// 6, 64-bit each, indexed as SIMTY_COUNTER_MAP; the read port is
// combinational (value of the selected counter in the same cycle).
`default_nettype none

module simty_counters #(
  parameter integer LANE_BITS = 2
) (
  input  wire               clk_i,
  input  wire               rst_i,
  input  wire               clear_i,
  input  wire [3:0]         sel_i,
  output reg  [63:0]        value_o,
  input  wire               busy_i,        // a warp is busy: count cycles
  input  wire               issue_i,
  input  wire               exec_i,        // a warp instruction executed
  input  wire [LANE_BITS:0] threads_i,     // lanes that retired it
  input  wire               divergent_i,
  input  wire [1:0]         merges_i,
  input  wire               smerge_i,
  input  wire               replay_mem_i,
  input  wire               replay_ind_i,
  input  wire               mem_i,         // a memory transaction
  input  wire [LANE_BITS:0] requests_i,
  input  wire               peak_valid_i,
  input  wire [LANE_BITS:0] peak_i,
  input  wire               uniform_i,
  input  wire               affine_i
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  reg [63:0] c_q [0:SIMTY_CTR_COUNT-1];
  reg [63:0] inc [0:SIMTY_CTR_COUNT-1];

  integer i;
  always @* begin
    for (i = 0; i < SIMTY_CTR_COUNT; i = i + 1) inc[i] = 64'd0;
    inc[SIMTY_CTR_cycles]             = {63'd0, busy_i};
    inc[SIMTY_CTR_warp_insts]         = {63'd0, exec_i};
    inc[SIMTY_CTR_thread_insts]       = {{(63-LANE_BITS){1'b0}}, threads_i};
    inc[SIMTY_CTR_divergent_branches] = {63'd0, divergent_i};
    inc[SIMTY_CTR_path_merges]        = {62'd0, merges_i} + {63'd0, smerge_i};
    inc[SIMTY_CTR_replays_mem]        = {63'd0, replay_mem_i};
    inc[SIMTY_CTR_replays_indirect]   = {63'd0, replay_ind_i};
    inc[SIMTY_CTR_mem_requests]       = {{(63-LANE_BITS){1'b0}}, requests_i};
    inc[SIMTY_CTR_mem_transactions]   = {63'd0, mem_i};
    inc[SIMTY_CTR_sched_idle_cycles]  = {63'd0, busy_i && !issue_i};
    inc[SIMTY_CTR_uniform_vectors]    = {63'd0, uniform_i};
    inc[SIMTY_CTR_affine_vectors]     = {63'd0, affine_i};
  end

  always @(posedge clk_i) begin
    for (i = 0; i < SIMTY_CTR_COUNT; i = i + 1) begin
      if (rst_i || clear_i) c_q[i] <= 64'd0;
      else if (i == SIMTY_CTR_cct_peak) begin
        if (peak_valid_i && {{(63-LANE_BITS){1'b0}}, peak_i} > c_q[i])
          c_q[i] <= {{(63-LANE_BITS){1'b0}}, peak_i};
      end else c_q[i] <= c_q[i] + inc[i];
    end
  end

  always @* begin
    value_o = 64'd0;
    for (i = 0; i < SIMTY_CTR_COUNT; i = i + 1)
      if (sel_i == i[3:0]) value_o = c_q[i];
  end

endmodule
