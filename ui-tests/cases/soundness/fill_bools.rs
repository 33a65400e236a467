//! Filling a buffer with a memset pattern writes those bits into every element: an element type
//! whose bit patterns are not all valid (`bool`) must not be filled, so implementing `FillWith`
//! is an `unsafe` promise.
use cudagraph_runtime::FillWith;

#[derive(Clone, Copy)]
struct Flag(bool);

impl FillWith<u8> for Flag {}

fn main() {}
