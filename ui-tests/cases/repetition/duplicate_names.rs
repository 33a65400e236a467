//! A node declared in a loop is one name for all its instances: declaring it twice, in the loop
//! or beside it, is T1's duplicate name. An edge written in a loop with a constant index is
//! declared in every iteration.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Twice {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        attn: empty;
        for l in 0..3 {
            attn[l]: kernel k<<<1, 32>>>(n);
            mlp[l]: empty;
            mlp[l]: empty;
            gate[l]: empty;
            out[l]: empty;
            gate[0] -> out[0];
        }
    }
}

fn main() {}
