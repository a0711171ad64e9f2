// simty_regfile: one lane's register file, split into an even-warp and an
// odd-warp bank, each a 1-read/1-write RAM. Operand collection reads one
// bank per cycle per instruction; the write-back stage writes one bank.
`default_nettype none

module simty_regfile #(
  parameter integer WARPS = 4,
  parameter integer BA = 6            // bank address: {warp >> 1, reg}
) (
  input  wire          clk_i,
  input  wire [BA-1:0] raddr_e_i,
  output wire [31:0]   rdata_e_o,
  input  wire [BA-1:0] raddr_o_i,
  output wire [31:0]   rdata_o_o,
  input  wire          we_i,
  input  wire          wpar_i,        // bank: warp parity
  input  wire [BA-1:0] waddr_i,
  input  wire [31:0]   wdata_i
);

  localparam integer DEPTH = 1 << BA;

  simty_ram_1r1w #(.WIDTH(32), .DEPTH(DEPTH), .ABITS(BA)) u_even (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (raddr_e_i), .rdata_o (rdata_e_o),
    .we_i (we_i && !wpar_i), .waddr_i (waddr_i), .wdata_i (wdata_i)
  );

  generate
    if (WARPS > 1) begin : gen_odd
      simty_ram_1r1w #(.WIDTH(32), .DEPTH(DEPTH), .ABITS(BA)) u_odd (
        .clk_i (clk_i), .re_i (1'b1), .raddr_i (raddr_o_i), .rdata_o (rdata_o_o),
        .we_i (we_i && wpar_i), .waddr_i (waddr_i), .wdata_i (wdata_i)
      );
    end else begin : gen_no_odd
      // One warp: every warp is even. The odd port reads as zero.
      wire unused = &{1'b0, raddr_o_i};
      assign rdata_o_o = 32'd0;
    end
  endgenerate

endmodule
