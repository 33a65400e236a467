//! T12: loops and `match` repeating or choosing nodes at run time; each is reported.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Loopy {
        params {
            k: Kernel<(u32,)>,
            steps: u32,
        }
        first: empty;
        for i in 0..steps {
            step: kernel k<<<1, 1>>>(i);
        }
        while steps > 0 {
            wait: empty;
        }
        loop {
            spin: empty;
        }
        match steps {
            0 => { none: empty; }
            _ => { some: empty; }
        }
        last: empty;
        first -> last;
    }
}

fn main() {}
