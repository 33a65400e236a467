//! A node declared in a loop is named `name[var]` and named by edges with the index of one of
//! its instances; a node outside loops has no index; an index that picks a node must be known
//! when the macro expands.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Names {
        params {
            k: Kernel<(u32,)>,
            n: u32,
        }
        embed: empty;
        head[0]: empty;
        for l in 0..3 {
            plain: kernel k<<<1, 1>>>(n);
            shifted[l + 1]: empty;
            attn[l]: kernel k<<<1, 1>>>(n);
            embed[l] -> attn[l];
        }
        attn -> embed;
        attn[n] -> embed;
    }
}

fn main() {}
