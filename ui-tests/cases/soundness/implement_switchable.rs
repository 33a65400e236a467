//! Only kernel, memcpy and memset nodes can be enabled and disabled: `Switchable` is sealed to
//! their handles.
use cudagraph_runtime::{HostNode, NodeId, Switchable};

#[derive(Clone, Copy)]
struct Host(HostNode);

impl From<Host> for NodeId {
    fn from(h: Host) -> NodeId {
        h.0.id()
    }
}

impl Switchable for Host {}

fn main() {}
