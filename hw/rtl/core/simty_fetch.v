// SPDX-License-Identifier: Apache-2.0
// simty_fetch: pipeline stage 2, fetch and predecode. Receives the word read
// from instruction memory, finds which registers it reads and writes (fixed
// fields in RV32I) and fills the warp's instruction buffer entry, unless a
// redirect made the fetch stale. Predicts where the warp's fetch stream
// goes next: a backward conditional branch or a jal is taken (pc +
// immediate), a return goes to the top of the warp's return address stack
// (RAS_DEPTH entries, pushed by calls), anything else falls through.
`default_nettype none

module simty_fetch #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EPOCH_BITS = 3,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter integer PCW = 15,           // code word offset bits
  parameter integer RAS_DEPTH = 4,      // return stack entries per warp (0: none)
  parameter integer RSB = 2,            // its pointer's bits (>= 1)
  parameter integer STYLE = 1           // its RAM's storage (simty_ram_1r1w BLOCK)
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  fs_valid_i,
  input  wire [WARP_BITS-1:0]  fs_warp_i,
  input  wire [PCW-1:0]           fs_pc_i,
  input  wire [EPOCH_BITS-1:0] fs_epoch_i,     // the fetch's epoch
  input  wire [WARPS*EPOCH_BITS-1:0] epoch_i,  // current epochs
  input  wire                  redir_valid_i,  // kills a fetch of its warp
  input  wire [WARP_BITS-1:0]  redir_warp_i,
  input  wire [RSB-1:0]        redir_rsp_i,    // and restores its RAS pointer
  output wire                  imem_en_o,      // address: fs_pc_i
  input  wire [31:0]           imem_rdata_i,
  output wire                  fe_busy_o,      // a fetch is in this stage
  output wire [WARP_BITS-1:0]  fe_warp_o,
  // Instruction buffer fill
  output wire                  ib_we_o,
  output wire [WARP_BITS-1:0]  ib_warp_o,
  output wire [PCW-1:0]           ib_pc_o,
  output wire [31:0]           ib_word_o,
  output wire                  ib_oor_o,       // pc outside populated CODE
  output wire [EPOCH_BITS-1:0] ib_epoch_o,
  output wire [4:0]            ib_rs1_o,
  output wire [4:0]            ib_rs2_o,
  output wire [4:0]            ib_rd_o,
  output reg                   ib_use1_o,
  output reg                   ib_use2_o,
  output reg                   ib_wr_o,
  // Prediction: pred_pc_o is where the warp's fetch continues (the
  // instruction's predicted next pc, carried with it to MB).
  output wire [PCW-1:0]           pred_pc_o,
  output wire [RSB-1:0]        ib_rsp_o        // RAS pointer before it
);

  // pcs are word offsets into CODE (PCW bits: up to and including the
  // word just past its end, where falling off the last word leads; the
  // core turns them into the byte address on imem_addr_o). A fetch
  // outside CODE never reaches memory; it becomes a fault only if the path
  // really executes there (membership validates it).
  localparam [31:0] CODE_WORDS = CODE_SIZE >> 2;
  wire        fs_oor  = {{(32-PCW){1'b0}}, fs_pc_i} >= CODE_WORDS;

  assign imem_en_o   = fs_valid_i && !fs_oor;

  reg                  valid_q;
  reg [WARP_BITS-1:0]  warp_q;
  reg [PCW-1:0]           pc_q;
  reg                  oor_q;
  reg [EPOCH_BITS-1:0] epoch_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= fs_valid_i;
    end
    warp_q  <= fs_warp_i;
    pc_q    <= fs_pc_i;
    oor_q   <= fs_oor;
    epoch_q <= fs_epoch_i;
  end

  wire [31:0] word = oor_q ? 32'h0000_0013 : imem_rdata_i;  // nop if oor
  wire [6:0]  opc  = word[6:0];
  wire        cur_epoch_ok = epoch_i[warp_q*EPOCH_BITS +: EPOCH_BITS] == epoch_q;
  wire        killed = redir_valid_i && redir_warp_i == warp_q;

  assign fe_busy_o  = valid_q;
  assign fe_warp_o  = warp_q;
  assign ib_we_o    = valid_q && cur_epoch_ok && !killed;
  assign ib_warp_o  = warp_q;
  assign ib_pc_o    = pc_q;
  assign ib_word_o  = word;
  assign ib_oor_o   = oor_q;
  assign ib_epoch_o = epoch_q;
  assign ib_rs1_o   = word[19:15];
  assign ib_rs2_o   = word[24:20];
  assign ib_rd_o    = word[11:7];

  // Prediction (a loop's back edge, a call or a jump). A target that is
  // not 4-aligned is not predicted: the jump faults if it executes.
  // Both kinds of target are added from the memory's word, before the
  // opcode is known (the word arrives late, from CODE's block RAMs), and
  // the opcode selects the sum: the nop that stands for an out-of-range
  // word is never predicted (`taken` tests oor_q).
  // immediates without their bit 0 (always zero); high bits: beyond CODE
  // verilator lint_off UNUSEDSIGNAL
  wire [31:0] mw = imem_rdata_i;
  wire [30:0] imm_b = {{20{mw[31]}}, mw[7], mw[30:25], mw[11:8]};
  wire [30:0] imm_j = {{12{mw[31]}}, mw[19:12], mw[20], mw[30:21]};
  // verilator lint_on UNUSEDSIGNAL
  wire        is_jal = opc == 7'b1101111;
  wire        is_bwd = opc == 7'b1100011 && word[31];
  // modulo 2^PCW: exact for a target inside CODE; any other target
  // faults at the jump (simty_branch), whatever was predicted
  wire [PCW-1:0] tgt_j  = pc_q + imm_j[PCW:1];
  wire [PCW-1:0] tgt_b  = pc_q + imm_b[PCW:1];
  wire [PCW-1:0] ptgt   = is_jal ? tgt_j : tgt_b;
  wire [PCW-1:0] pc4    = pc_q + 1'b1;
  // a target that is not 4-aligned (immediate bit 1) is not predicted
  wire        odd    = is_jal ? imm_j[0] : imm_b[0];
  wire        taken  = (is_jal || is_bwd) && !oor_q && !odd;

  // Return address stack, per warp, as the decoder's call and return
  // (simty_decode): a call (jal / jalr with rd = ra) pushes pc + 4, a
  // return (jalr x0, imm(ra)) pops, and with imm 0 is predicted to go to
  // the popped address. A circular buffer: a push beyond RAS_DEPTH drops
  // the oldest entry, a pop of an empty stack predicts a stale one (MB
  // redirects if it is wrong, as for any prediction). Only fills update
  // it; wrong-path calls and returns that reach the buffer before a
  // redirect are not undone, but a redirect restores the pointer: each
  // instruction carries the pointer it found (ib_rsp_o) to MB, which
  // sends back the one its path continues with (redir_rsp_i). The stack
  // is a RAM of WARPS x RAS_DEPTH words, read at steering ({warp, its
  // pointer}: the restored one when a redirect is fetched at once), so
  // the top arrives with the instruction word; the pointers are flops.
  // The entry read cannot be written in between: a push comes from a
  // fill of the same warp, and a warp is not steered while it is in this
  // stage (except the fetch of a redirect, whose fetch here is killed).
  wire        is_jalr = opc == 7'b1100111 && word[14:12] == 3'b000;
  wire        is_call = (is_jal || is_jalr) && word[11:7] == 5'd1 && !oor_q;
  wire        is_ret  = is_jalr && word[11:7] == 5'd0 && word[19:15] == 5'd1 && !oor_q;
  wire [PCW-1:0] ras_top;
  generate
    if (RAS_DEPTH > 0) begin : gen_ras
      localparam integer RB = RSB;         // $clog2(RAS_DEPTH), at least 1
      localparam integer AB = (WARPS * RAS_DEPTH > 1) ? $clog2(WARPS * RAS_DEPTH) : 1;
      reg [RB-1:0]  sp_q  [0:WARPS-1];          // the top entry
      wire [RB-1:0] sp    = sp_q[warp_q];
      wire [RB-1:0] sp_up = (RAS_DEPTH > 1) ? sp + 1'b1 : sp;
      wire [RB-1:0] sp_dn = (RAS_DEPTH > 1) ? sp - 1'b1 : sp;
      wire [RB-1:0] sp_rd = redir_valid_i ? redir_rsp_i : sp_q[fs_warp_i];
      wire [31:0]   ra32  = fs_warp_i * RAS_DEPTH + {{(32-RB){1'b0}}, sp_rd};
      wire [31:0]   wa32  = warp_q * RAS_DEPTH + {{(32-RB){1'b0}}, sp_up};
      simty_ram_1r1w #(.WIDTH(PCW), .DEPTH(WARPS * RAS_DEPTH), .ABITS(AB),
                       .BLOCK(STYLE), .SAME_CYCLE(0)) u_ras (
        .clk_i   (clk_i),
        .re_i    (1'b1),
        .raddr_i (ra32[AB-1:0]),
        .rdata_o (ras_top),
        .we_i    (ib_we_o && is_call),
        .waddr_i (wa32[AB-1:0]),
        .wdata_i (pc4)
      );
      wire unused_ra = &{1'b0, ra32[31:AB], wa32[31:AB]};
      assign ib_rsp_o = sp;
      integer k;
      always @(posedge clk_i) begin
        if (rst_i) begin
          for (k = 0; k < WARPS; k = k + 1) sp_q[k] <= {RB{1'b0}};
        end else begin
          // a fill is never of the redirected warp (killed above)
          if (ib_we_o && is_call) sp_q[warp_q] <= sp_up;
          else if (ib_we_o && is_ret) sp_q[warp_q] <= sp_dn;
          if (redir_valid_i) sp_q[redir_warp_i] <= redir_rsp_i;
        end
      end
    end else begin : gen_no_ras
      assign ras_top = {PCW{1'b0}};
      assign ib_rsp_o = {RSB{1'b0}};
      wire unused_ras = &{1'b0, is_call, is_ret, redir_rsp_i};
    end
  endgenerate
  wire        rpred = RAS_DEPTH > 0 && is_ret && word[31:20] == 12'd0;
  assign pred_pc_o = taken ? ptgt : rpred ? ras_top : pc4;

  // Predecode: which operands come from registers. x0 is never read from
  // the banks (it is forced to zero) nor written.
  reg r1, r2, wr;
  always @* begin
    r1 = 1'b0;
    r2 = 1'b0;
    wr = 1'b0;
    case (opc)
      7'b0110011: begin r1 = 1'b1; r2 = 1'b1; wr = 1'b1; end  // OP
      7'b0010011: begin r1 = 1'b1; wr = 1'b1; end             // OP-IMM
      7'b0000011: begin r1 = 1'b1; wr = 1'b1; end             // LOAD
      7'b0100011: begin r1 = 1'b1; r2 = 1'b1; end             // STORE
      7'b1100011: begin r1 = 1'b1; r2 = 1'b1; end             // BRANCH
      7'b0101111: begin r1 = 1'b1; r2 = 1'b1; wr = 1'b1; end  // AMO (A)
      7'b1100111: begin r1 = 1'b1; wr = 1'b1; end             // JALR
      7'b1101111: wr = 1'b1;                                   // JAL
      7'b0110111: wr = 1'b1;                                   // LUI
      7'b0010111: wr = 1'b1;                                   // AUIPC
      7'b1110011: wr = word[14:12] != 3'b000;                  // CSR read
      default: ;
    endcase
    ib_use1_o = r1 && word[19:15] != 5'd0;
    ib_use2_o = r2 && word[24:20] != 5'd0;
    ib_wr_o   = wr && word[11:7] != 5'd0;
  end

endmodule
