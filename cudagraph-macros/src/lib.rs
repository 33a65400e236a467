//! The `cuda_graph!` macro. Placeholder until the macro issue lands.
