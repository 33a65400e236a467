// Pasted by `include!` into a node expression of `generated_hidden_reads.rs`: an element of the
// array param `scale` that no token of the declaration writes.
scale[1]
