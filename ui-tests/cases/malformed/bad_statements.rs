//! Statements that do not parse are each reported, and parsing resumes after their `;`.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            k: Kernel<(u32,)>,
            y: DevicePtrMut<u32>,
        }
        a: launch k<<<1, 1>>>(1);
        b: frobnicate(y);
        c: empty();
        d: memset(y);
        e: memset(y, 0u32, 4);
        f: memcpy(y, y);
        g: host();
        h: host(a, 3);
        i: child;
        let x = 5;
        42;
        ;
        j: empty;
        a -> j;
    }
}

fn main() {}
