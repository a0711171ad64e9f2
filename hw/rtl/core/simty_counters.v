// simty_counters: the performance counters of docs/architecture.md section
// 6, 64-bit each, indexed as SIMTY_COUNTER_MAP; the read port is
// combinational (value of the selected counter in the same cycle).
//
// Area: each counter is split into a short low part that takes the
// increments (LO bits) and a high part. A carry out of the low part only
// sets a pending flag; the high parts circulate through one shared
// incrementer (a ring of registers rotated every cycle, so no selection
// mux is needed to update them) which adds a pending carry when the
// counter passes by, once every SIMTY_CTR_COUNT cycles. The low part is
// wide enough that it cannot carry twice in that time (the largest
// increment is LANES per cycle), and the read port adds a pending carry,
// so every read is exact.
`default_nettype none

module simty_counters #(
  parameter integer LANE_BITS = 2
) (
  input  wire               clk_i,
  input  wire               rst_i,
  input  wire               clear_i,
  input  wire [3:0]         sel_i,
  output wire [63:0]        value_o,
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

  localparam integer N  = SIMTY_CTR_COUNT;
  localparam integer LO = LANE_BITS + 6;   // >= 64 cycles between carries
  localparam integer HI = 64 - LO;
  localparam integer RB = 4;               // ring position bits (N <= 16)
  localparam [31:0]   N32   = N;
  localparam [31:0]   NL32  = N - 1;
  localparam [RB-1:0] NLAST = NL32[RB-1:0];
  localparam [RB:0]   NPOS  = N32[RB:0];
  localparam [31:0]   PK32  = SIMTY_CTR_cct_peak;
  localparam [3:0]    PEAK  = PK32[3:0];

  wire clr = rst_i || clear_i;

  reg [LO-1:0] inc [0:N-1];
  integer i;
  always @* begin
    for (i = 0; i < N; i = i + 1) inc[i] = {LO{1'b0}};
    inc[SIMTY_CTR_cycles]             = {{(LO-1){1'b0}}, busy_i};
    inc[SIMTY_CTR_warp_insts]         = {{(LO-1){1'b0}}, exec_i};
    inc[SIMTY_CTR_thread_insts]       = {{(LO-LANE_BITS-1){1'b0}}, threads_i};
    inc[SIMTY_CTR_divergent_branches] = {{(LO-1){1'b0}}, divergent_i};
    inc[SIMTY_CTR_path_merges]        = {{(LO-2){1'b0}}, merges_i} +
                                        {{(LO-1){1'b0}}, smerge_i};
    inc[SIMTY_CTR_replays_mem]        = {{(LO-1){1'b0}}, replay_mem_i};
    inc[SIMTY_CTR_replays_indirect]   = {{(LO-1){1'b0}}, replay_ind_i};
    inc[SIMTY_CTR_mem_requests]       = {{(LO-LANE_BITS-1){1'b0}}, requests_i};
    inc[SIMTY_CTR_mem_transactions]   = {{(LO-1){1'b0}}, mem_i};
    inc[SIMTY_CTR_sched_idle_cycles]  = {{(LO-1){1'b0}}, busy_i && !issue_i};
    inc[SIMTY_CTR_uniform_vectors]    = {{(LO-1){1'b0}}, uniform_i};
    inc[SIMTY_CTR_affine_vectors]     = {{(LO-1){1'b0}}, affine_i};
  end

  // Low parts and pending carries, per counter. The ring head is counter
  // rot_q: its high part is at ring position 0.
  reg [LO-1:0] lo_q [0:N-1];
  reg [N-1:0]  cp_q;
  reg [RB-1:0] rot_q;
  reg [HI-1:0] ring_q [0:N-1];
  wire [RB-1:0] rot_next = (rot_q == NLAST) ? {RB{1'b0}} : rot_q + 1'b1;

  genvar c;
  generate
    for (c = 0; c < N; c = c + 1) begin : gen_ctr
      wire [LO:0] sum = {1'b0, lo_q[c]} + {1'b0, inc[c]};
      always @(posedge clk_i) begin
        if (clr) begin
          lo_q[c] <= {LO{1'b0}};
          cp_q[c] <= 1'b0;
        end else begin
          lo_q[c] <= sum[LO-1:0];
          // a new carry wins over the one the ring takes this cycle
          if (sum[LO]) cp_q[c] <= 1'b1;
          else if (rot_q == c) cp_q[c] <= 1'b0;
        end
      end
      // ring: position c takes position c + 1; the head goes round to the
      // back through the incrementer
      if (c < N - 1) begin : gen_shift
        always @(posedge clk_i) begin
          if (clr) ring_q[c] <= {HI{1'b0}};
          else ring_q[c] <= ring_q[c + 1];
        end
      end else begin : gen_back
        always @(posedge clk_i) begin
          if (clr) ring_q[c] <= {HI{1'b0}};
          else ring_q[c] <= ring_q[0] + {{(HI-1){1'b0}}, cp_q[rot_q]};
        end
      end
    end
  endgenerate

  always @(posedge clk_i) begin
    if (rst_i) rot_q <= {RB{1'b0}};
    else rot_q <= rot_next;
  end

  reg [LANE_BITS:0] peak_q;
  always @(posedge clk_i) begin
    if (clr) peak_q <= {(LANE_BITS+1){1'b0}};
    else if (peak_valid_i && peak_i > peak_q) peak_q <= peak_i;
  end

  // Read: the selected counter's ring position is (sel - rot) mod N.
  wire [RB:0]   dpos = {1'b0, sel_i} - {1'b0, rot_q};
  // verilator lint_off UNUSEDSIGNAL
  wire [RB:0]   npos = dpos + NPOS;          // bit RB: borrow only
  // verilator lint_on UNUSEDSIGNAL
  wire [RB-1:0] pos  = dpos[RB] ? npos[RB-1:0] : dpos[RB-1:0];
  wire          in_range = {{(32-4){1'b0}}, sel_i} < N;
  wire [HI-1:0] hi_r = ring_q[pos];
  wire [LO-1:0] lo_r = lo_q[sel_i];
  wire          cp_r = cp_q[sel_i];
  wire [63:0]   full = {hi_r + {{(HI-1){1'b0}}, cp_r}, lo_r};
  assign value_o = !in_range ? 64'd0 :
                   (sel_i == PEAK) ?
                     {{(63-LANE_BITS){1'b0}}, peak_q} : full;

endmodule
