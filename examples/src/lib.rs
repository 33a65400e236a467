//! Examples live in `examples/`; run one with `cargo run -p cudagraph-examples --example NAME`.
