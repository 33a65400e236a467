//! A graph allocation is uninitialized memory: what reads it sees arbitrary bits, so its element
//! type must be valid for every bit pattern (`bytemuck::AnyBitPattern`), which `bool` is not.
use cudagraph_runtime::prelude::*;

fn allocate(graph: &mut Graph) -> cudagraph_runtime::Result<()> {
    let flags = graph.add_mem_alloc::<bool>(1024, &[])?;
    let _ = flags;
    Ok(())
}

fn main() {
    let _ = allocate;
}
