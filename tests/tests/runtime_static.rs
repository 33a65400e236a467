//! Thread-safety of the runtime's types (CUDA graph objects are not thread-safe): a graph or an executable may move to another
//! thread but never be shared by two. Checked at compile time (no GPU needed), and at run time by
//! building on one thread, launching on another and launching again after moving back.

use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    Error, HostNode, HostToDevice, KernelNode, MemcpyNode, MemsetNode, NodeId, UserObject,
};
use cudagraph_tests::{
    assert_read_close, cfg, fill_buffer, upload, zeros, Kernels, Rng, SaxpyArgs, POISON,
};

fn assert_send<T: Send>() {}
fn assert_send_sync<T: Send + Sync>() {}

/// `AmbiguousIfSync::<_>::some_item` resolves for every type through the first impl; for `Sync`
/// types the second impl applies too, and the call no longer compiles (ambiguous).
trait AmbiguousIfSync<Marker> {
    fn some_item() {}
}
impl<T: ?Sized> AmbiguousIfSync<()> for T {}
/// The marker of the impl that only `Sync` types get.
#[allow(dead_code)]
struct IsSync;
impl<T: ?Sized + Sync> AmbiguousIfSync<IsSync> for T {}

#[test]
fn graph_and_exec_are_send_but_not_sync() {
    // Each line fails to compile if the property is lost; nothing here needs a GPU.
    assert_send::<Graph<'static>>();
    assert_send::<GraphExec<'static>>();
    <Graph<'static> as AmbiguousIfSync<_>>::some_item();
    <GraphExec<'static> as AmbiguousIfSync<_>>::some_item();
    assert_send::<UserObject>();
    assert_send_sync::<Kernel<SaxpyArgs>>();
    assert_send_sync::<NodeId>();
    assert_send_sync::<KernelNode<SaxpyArgs>>();
    assert_send_sync::<MemcpyNode<HostToDevice>>();
    assert_send_sync::<MemsetNode<f32>>();
    assert_send_sync::<HostNode>();
    assert_send_sync::<DevicePtr<f32>>();
    assert_send_sync::<HostPtrMut<f32>>();
    // Owned memory is shared by reference counting across threads.
    assert_send_sync::<DeviceBuffer<f32>>();
    assert_send_sync::<HostBuffer<f32>>();

    // Errors cross threads too, boxed as standard errors.
    assert_send_sync::<Error>();
    let boxed: Box<dyn std::error::Error + Send + Sync + 'static> = Box::new(Error::NoDriver);
    assert!(boxed.to_string().contains("no CUDA driver"), "{boxed}");
}

#[test]
fn graph_and_exec_move_between_threads() {
    let Some(gpu) = cudagraph_tests::gpu("graph_and_exec_move_between_threads") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("graph_and_exec_move_between_threads");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
    let (x, y) = (upload(&gpu, &x_host), upload(&gpu, &y_host));
    let out = zeros::<f32>(&gpu, n);
    let want: Vec<f32> = x_host.iter().zip(&y_host).map(|(x, y)| a * x + y).collect();

    // Built here...
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.axpy_out, cfg(n), (n as u32, a, &x, &y, &out), &[])
        .unwrap();
    fill_buffer(&out, POISON);
    gpu.stream.synchronize().unwrap();

    // ...instantiated and launched on another thread...
    let stream = Arc::clone(&gpu.stream);
    let mut exec = std::thread::spawn(move || {
        let mut exec = graph.instantiate().unwrap();
        exec.launch(&stream).unwrap();
        stream.synchronize().unwrap();
        exec
    })
    .join()
    .unwrap();
    assert_read_close(&gpu.stream, "launched on another thread", &out, &want);

    // ...and launched again here.
    fill_buffer(&out, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "launched back on this thread", &out, &want);
}
