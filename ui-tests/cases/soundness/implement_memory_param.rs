//! The overlap check between params reads a memory param's byte range, and the nodes use its
//! operand: a type that reported one buffer's range and gave another buffer would hide a race.
//! Implementing `MemoryParam` or `MemoryLike` is `unsafe`.
use cudagraph_runtime::__private::{MemoryLike, MemoryParam, Space};
use cudagraph_runtime::DeviceBuffer;

struct Liar(DeviceBuffer<f32>);

impl MemoryParam for Liar {
    type Elem = f32;
    type Operand<'p> = &'p DeviceBuffer<f32>;
    fn operand(&self) -> Self::Operand<'_> {
        &self.0
    }
    fn bytes(&self) -> (Space, u64, u64) {
        unimplemented!()
    }
}

impl MemoryLike for Liar {
    fn bytes(&self) -> (Space, u64, u64) {
        unimplemented!()
    }
}

fn main() {}
