//! The operands that fix a node's type must be params: the kernel, a memset's destination, a
//! memcpy's ends, a child graph.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Operands {
        params {
            saxpy: Kernel<(u32,)>,
            y: DevicePtrMut<u32>,
            host_y: HostPtrMut<u32>,
        }
        a: kernel sxapy<<<1, 1>>>(1);
        b: memset(y.try_slice(..4).unwrap(), 0u32);
        c: memcpy(y -> host);
        d: child(make_graph());
        e: kernel unknown<<<1, 1>>>();
    }
}

fn main() {}
