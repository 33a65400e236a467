//! Doc comments, `cfg` and lint attributes on a graph, attributes on the params block and on
//! params, node docs; the generated items are documented and `Debug` (checked by the lints).
#![deny(missing_docs, missing_debug_implementations)]

use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    /// A documented graph.
    #[cfg(not(any()))]
    #[allow(dead_code)]
    pub graph Documented {
        #[derive(Clone, Debug)]
        params {
            /// The buffer.
            y: DevicePtrMut<u8>,
            #[allow(dead_code)]
            value: u8,
        }
        /// Fills the buffer.
        fill: memset(y, value);
    }

    /// Compiled out.
    #[cfg(any())]
    pub graph Absent {
        nothing: empty;
    }
}

fn main() {
    fn debug<T: std::fmt::Debug>() {}
    debug::<DocumentedParams>();
    debug::<Documented>();
    debug::<DocumentedExec>();
    debug::<DocumentedFillNode<'static>>();
    let _ = Documented::TOPOLOGY.to_mermaid();
}
