// SPDX-License-Identifier: Apache-2.0
// simty_warp_onehot.vh: `SIMTY_AT(v, x), the WARPS-wide one-hot of warp x
// when v is set, else zero. Included inside a module that declares WARPS
// and WARP_BITS, where per-warp flags are kept as WARPS-wide vectors: the
// same gates as a compare per warp, and word operations in simulation. A
// macro rather than a function: Verilator 5.0 evaluates a function call
// through stored temporaries, several times the cost of the expression.
localparam [WARPS:0]   WONE_W = {{WARPS{1'b0}}, 1'b1};
localparam [WARPS-1:0] WONE   = WONE_W[WARPS-1:0];
`ifndef SIMTY_AT
`define SIMTY_AT(v, x) ((v) ? (WONE << (x)) : {WARPS{1'b0}})
`endif
