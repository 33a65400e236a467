//! A memset writes a 1-, 2- or 4-byte pattern: `MemsetValue` is sealed to the types of those.
use cudagraph_runtime::MemsetValue;

#[derive(Clone, Copy)]
struct Three([u8; 3]);

impl MemsetValue for Three {
    const SIZE: u32 = 3;
    fn bits(self) -> u32 {
        0
    }
}

fn main() {}
