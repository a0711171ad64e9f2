// simty_warp_onehot.vh: at(v, x), the WARPS-wide one-hot of warp x when v
// is set, else zero. Included inside a module that declares WARPS and
// WARP_BITS, where per-warp flags are kept as WARPS-wide vectors: the same
// gates as a compare per warp, and word operations in simulation.
localparam [WARPS:0]   WONE_W = {{WARPS{1'b0}}, 1'b1};
localparam [WARPS-1:0] WONE   = WONE_W[WARPS-1:0];
function [WARPS-1:0] at(input v, input [WARP_BITS-1:0] x);
  at = v ? WONE << x : {WARPS{1'b0}};
endfunction
