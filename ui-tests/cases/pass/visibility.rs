//! Generated items take the declaration's visibility, so they can be used from other modules.
mod graphs {
    use cudagraph_runtime::{cuda_graph, prelude::*};

    cuda_graph! {
        pub graph Public {
            params { y: DevicePtrMut<i32> }
            clear: memset(y, -1);
        }
    }

    cuda_graph! {
        pub(crate) graph Crate {
            params { y: DevicePtrMut<i16> }
            clear: memset(y, 0);
        }
    }
}

fn main() {
    let _: Option<graphs::Public> = None;
    let _: Option<graphs::PublicExec> = None;
    let _: Option<graphs::PublicParams> = None;
    let _: Option<graphs::CrateExec> = None;
}
