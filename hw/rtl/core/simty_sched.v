// simty_sched: pipeline stage 4, the scheduler. Qualifies the warps whose
// buffered instruction can issue (dependencies on older in-flight
// instructions of the same warp, register-bank conflicts, a warp never in
// two adjacent stages) and selects one round robin.
`default_nettype none

module simty_sched #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire [WARPS-1:0]      ready_i,    // warp may run (not blocked)
  input  wire [WARPS-1:0]      ib_valid_i,
  input  wire [WARPS*5-1:0]    ib_rs1_i,
  input  wire [WARPS*5-1:0]    ib_rs2_i,
  input  wire [WARPS-1:0]      ib_use1_i,
  input  wire [WARPS-1:0]      ib_use2_i,
  // Instructions already issued: operand-collect 1 and 2, execute.
  input  wire                  rr1_valid_i,
  input  wire [WARP_BITS-1:0]  rr1_warp_i,
  input  wire                  rr1_use2_i,
  input  wire                  rr2_valid_i,
  input  wire [WARP_BITS-1:0]  rr2_warp_i,
  input  wire                  rr2_wr_i,
  input  wire [4:0]            rr2_rd_i,
  input  wire                  ex_valid_i,
  input  wire [WARP_BITS-1:0]  ex_warp_i,
  input  wire                  ex_wr_i,
  input  wire [4:0]            ex_rd_i,
  output reg                   issue_o,
  output reg  [WARP_BITS-1:0]  issue_warp_o
);

  localparam [31:0] WMASK32 = WARPS - 1;
  localparam [WARP_BITS-1:0] WMASK = WMASK32[WARP_BITS-1:0];
  reg [WARP_BITS-1:0] last_q;
  reg [WARPS-1:0]     can;

  // Results reach the operands from distance 4 on (the banks are written
  // at the end of GA; a first operand read in the same cycle is patched
  // from the write-back stage): a consumer waits while its producer is in
  // RR2 or EX.
  integer w;
  reg [WARP_BITS-1:0] wi;
  reg [4:0] rs1, rs2;
  reg       dep, bank;
  always @* begin
    for (w = 0; w < WARPS; w = w + 1) begin
      wi  = w[WARP_BITS-1:0];
      rs1 = ib_rs1_i[w*5 +: 5];
      rs2 = ib_rs2_i[w*5 +: 5];
      dep = (rr2_valid_i && rr2_warp_i == wi && rr2_wr_i &&
             ((ib_use1_i[w] && rr2_rd_i == rs1) ||
              (ib_use2_i[w] && rr2_rd_i == rs2))) ||
            (ex_valid_i && ex_warp_i == wi && ex_wr_i &&
             ((ib_use1_i[w] && ex_rd_i == rs1) ||
              (ib_use2_i[w] && ex_rd_i == rs2)));
      // The previous instruction reads its second operand from its bank
      // next cycle: our first operand must come from the other bank.
      bank = rr1_valid_i && rr1_use2_i && ib_use1_i[w] &&
             rr1_warp_i[0] == wi[0];
      can[w] = ready_i[w] && ib_valid_i[w] && !dep && !bank &&
               !(rr1_valid_i && rr1_warp_i == wi);
    end
  end

  integer k;
  reg [WARP_BITS-1:0] idx;
  always @* begin
    issue_o      = 1'b0;
    issue_warp_o = last_q;
    for (k = 1; k <= WARPS; k = k + 1) begin
      idx = (last_q + k[WARP_BITS-1:0]) & WMASK;
      if (!issue_o && can[idx]) begin
        issue_o      = 1'b1;
        issue_warp_o = idx;
      end
    end
  end

  always @(posedge clk_i) begin
    if (rst_i) last_q <= {WARP_BITS{1'b0}};
    else if (issue_o) last_q <= issue_warp_o;
  end

endmodule
