//! `cfg_attr` on a graph declaration holds the attributes a declaration takes, judged as if
//! written plainly: an attribute that has no single generated item to go to is refused inside
//! it too, at the attribute, and `#[programmatic]` / `#[device_launch]`, which the macro reads
//! before `cfg_attr` is evaluated, cannot be conditional. (Before, anything went through, and
//! rustc reported `derive` on a function, conflicting `Debug` impls or an unknown attribute.)
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    #[cfg_attr(all(), derive(Debug), allow(dead_code))]
    #[cfg_attr(all(), cfg_attr(all(), repr(C)))]
    #[cfg_attr(all(), programmatic)]
    #[cfg_attr(all(), device_launch)]
    #[cfg_attr(all(), doc = "Docs, when the feature is on.", warn(missing_docs))]
    #[cfg_attr(all)]
    graph Attrs {
        params {
            y: DevicePtrMut<u8>,
        }
        fill: memset(y, 0u8);
    }
}

fn main() {}
