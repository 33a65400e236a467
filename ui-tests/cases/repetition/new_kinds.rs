//! Node kinds and edges a loop does not repeat: semaphore and collective nodes, `#[waits]`,
//! edges with data, a child graph taken from an array param; and T10b across iterations: a
//! WHILE node and an IF node that a loop's chain orders only when it reaches both.
use cudagraph_runtime::{cuda_graph, prelude::*, ExternalSemaphore, Graph};

cuda_graph! {
    graph Kinds {
        const N: usize = 2;
        params {
            k: Kernel<(u32,)>,
            sem: ExternalSemaphore,
            g: [Graph<'static>; N],
        }
        for i in 0..N {
            ready[i]: wait(sem = 1);
            #[waits]
            a[i]: kernel k<<<1, 1>>>(1);
            b[i]: kernel k<<<1, 1>>>(1);
            a[i] ->(programmatic) b[i];
            sub[i]: child(g[i]);
        }
    }

    graph Loops {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        spin: while go {
            tick: kernel k<<<1, 1>>>(n);
        }
        once: if maybe {
            tock: kernel k<<<1, 1>>>(n);
        }
        for i in 0..3 {
            step[i]: kernel k<<<1, 1>>>(n);
        }
        for i in 0..2 {
            step[i] -> step[i + 1];
        }
        spin -> step[0];
        // `step[2] -> once` is missing: the chain does not reach `once`.
        step[1] -> tock_free;
        tock_free: empty;
    }
}

fn main() {}
