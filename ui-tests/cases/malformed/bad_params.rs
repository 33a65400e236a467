//! A params block that does not parse, and params written like other things.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        params {
            n u32,
        }
        a: empty;
    }

    graph Other {
        params {
            pub n: u32,
        }
        a: empty;
    }

    graph Third {
        params {
            n: u32
            m: u32,
        }
        a: empty;
    }
}

fn main() {}
