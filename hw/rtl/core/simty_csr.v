// simty_csr: the read-only CSRs of docs/architecture.md section 2, per lane
// (execute stage): hart and logical thread ids, launch-wide values.
`default_nettype none

module simty_csr #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire [2:0]           sel_i,
  input  wire [WARP_BITS-1:0] warp_i,
  input  wire [31:0]          base_tid_i,
  input  wire [31:0]          nthreads_i,
  input  wire [31:0]          args_i,
  input  wire [31:0]          stack_top_i,
  input  wire [4:0]           stack_log2_i,
  output reg  [32*LANES-1:0]  value_o
);

  localparam [31:0] NLANES = LANES;
  localparam [31:0] NWARPS = WARPS;
  wire [31:0] hart0 = {{(32-WARP_BITS){1'b0}}, warp_i} * NLANES;

  // The launch-wide values are the same on every lane: select them once.
  reg [31:0] shared;
  always @* begin
    case (sel_i)
      3'd2: shared = nthreads_i;
      3'd3: shared = NLANES;
      3'd4: shared = NWARPS;
      3'd5: shared = args_i;
      3'd6: shared = stack_top_i;
      default: shared = {27'd0, stack_log2_i};
    endcase
  end

  integer l;
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      case (sel_i)
        3'd0: value_o[32*l +: 32] = hart0 | l;   // hart0 is a multiple of LANES
        3'd1: value_o[32*l +: 32] = base_tid_i + l;
        default: value_o[32*l +: 32] = shared;
      endcase
    end
  end

endmodule
