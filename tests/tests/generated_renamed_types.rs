//! The race rule does not read memory spaces from names: a host buffer param written under the
//! device buffer's name (an import, `HostBuffer as DeviceBuffer`) is checked against the other
//! host buffers all the same, so two unordered copies into one host buffer are refused when the
//! graph is built (before, the names said "device" and "host" and the check was left out).

use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_runtime::{HostBuffer, HostBuffer as DeviceBuffer};
use cudagraph_tests::gpu;

cuda_graph! {
    /// Two unordered copies into host memory: `h` (a host buffer under another name) and `x`.
    graph Renamed {
        params {
            d: cudagraph_runtime::DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            x: HostBuffer<f32>,
        }
        into_h: memcpy(d -> h);
        into_x: memcpy(d -> x);
    }
}

#[test]
fn a_host_buffer_under_the_device_buffers_name_is_checked_for_shared_memory() {
    let Some(gpu) = gpu("a_host_buffer_under_the_device_buffers_name_is_checked_for_shared_memory")
    else {
        return;
    };
    let d = cudagraph_runtime::DeviceBuffer::<f32>::zeros(&gpu.stream, 64).unwrap();
    let x = HostBuffer::<f32>::zeroed(&gpu.ctx, 64).unwrap();
    let other = HostBuffer::<f32>::zeroed(&gpu.ctx, 64).unwrap();
    // Separate host buffers: built.
    let params = RenamedParams {
        d: d.clone(),
        h: other,
        x: x.clone(),
    };
    assert!(Renamed::build(&gpu.ctx, &params).is_ok());
    // One host buffer for both copies: a data race between `into_h` and `into_x`, refused.
    let shared = RenamedParams { d, h: x.clone(), x };
    match Renamed::build(&gpu.ctx, &shared) {
        Err(Error::Hazard { first, second, .. }) => {
            assert_eq!((first.as_str(), second.as_str()), ("into_h", "into_x"));
        }
        other => panic!("two unordered copies into one host buffer were not refused: {other:?}"),
    }
}
