//! `KernelArg` hands the driver a kernel argument's bits and the memory it points to: it is
//! sealed, so safe code cannot make a kernel receive an address of its choosing.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::KernelArg;

struct Evil(u64);

impl<'a> KernelArg<'a, DevicePtrMut<u32>> for Evil {
    fn repr(&self) -> u64 {
        self.0
    }
}

fn main() {}
