//! Enabling and disabling kernel, memcpy and memset nodes of an executable (`cuGraphNodeSetEnabled`): a disabled
//! node acts as an empty node (its output keeps its poison) while the others run; a parameter
//! update made while it is disabled leaves it disabled and takes effect once it is re-enabled.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{HostToDevice, KernelNode, MemcpyNode, MemsetNode};
use cudagraph_tests::{
    assert_close, assert_untouched, cfg, fill_buffer, read_back, upload, zeros, AxpyOutArgs, Gpu,
    Kernels, Rng, POISON,
};

/// Arguments of the fixture's `axpy_out` node: `(n, a, x, y, computed)`.
type AxpyOutValues = (
    u32,
    f32,
    DeviceBuffer<f32>,
    DeviceBuffer<f32>,
    DeviceBuffer<f32>,
);

/// Three independent nodes, each with its own output: a copy, a memset and a kernel.
struct Fixture {
    exec: GraphExec<'static>,
    copy: MemcpyNode<HostToDevice>,
    set: MemsetNode<f32>,
    axpy: KernelNode<AxpyOutArgs>,
    n: usize,
    /// What the copy's source holds, and a second source with other data.
    data: [Vec<f32>; 2],
    sources: [HostBuffer<f32>; 2],
    x_host: Vec<f32>,
    y_host: Vec<f32>,
    x: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
    copied: DeviceBuffer<f32>,
    filled: DeviceBuffer<f32>,
    computed: DeviceBuffer<f32>,
}

/// One launch's three outputs.
struct Outputs {
    copied: Vec<f32>,
    filled: Vec<f32>,
    computed: Vec<f32>,
}

impl Fixture {
    fn new(gpu: &Gpu, k: &Kernels, rng: &mut Rng, base: f32, a: f32) -> Self {
        let n = rng.len_in(1000, 50_000);
        let data = [rng.f32s(n), rng.f32s(n)];
        let sources = data
            .each_ref()
            .map(|d| HostBuffer::from_slice(&gpu.ctx, d).unwrap());
        let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
        let (x, y) = (upload(gpu, &x_host), upload(gpu, &y_host));
        let (copied, filled, computed) = (zeros(gpu, n), zeros(gpu, n), zeros(gpu, n));

        let mut graph = Graph::new(&gpu.ctx).unwrap();
        let copy = graph
            .add_memcpy(Memcpy::htod(&sources[0], &copied), &[])
            .unwrap();
        let set = graph.add_memset(Memset::new(&filled, base), &[]).unwrap();
        let args = (n as u32, a, &x, &y, &computed);
        let axpy = graph.add_kernel(&k.axpy_out, cfg(n), args, &[]).unwrap();
        let exec = graph.instantiate().unwrap();
        Self {
            exec,
            copy,
            set,
            axpy,
            n,
            data,
            sources,
            x_host,
            y_host,
            x,
            y,
            copied,
            filled,
            computed,
        }
    }

    /// Poisons the outputs, launches, and reads them back.
    fn run(&mut self, gpu: &Gpu) -> Outputs {
        for buf in [&self.copied, &self.filled, &self.computed] {
            fill_buffer(buf, POISON);
        }
        self.exec.launch(&gpu.stream).unwrap();
        Outputs {
            copied: read_back(&gpu.stream, &self.copied),
            filled: read_back(&gpu.stream, &self.filled),
            computed: read_back(&gpu.stream, &self.computed),
        }
    }

    fn axpy_args(&self, a: f32) -> AxpyOutValues {
        (
            self.n as u32,
            a,
            self.x.clone(),
            self.y.clone(),
            self.computed.clone(),
        )
    }

    fn copy_from(&self, source: usize) -> Memcpy<'static, HostToDevice> {
        Memcpy::htod(&self.sources[source], &self.copied)
    }

    fn want_computed(&self, a: f32) -> Vec<f32> {
        self.x_host
            .iter()
            .zip(&self.y_host)
            .map(|(x, y)| a * x + y)
            .collect()
    }
}

#[test]
fn disabled_kernel_node_acts_as_empty_until_reenabled() {
    let Some(gpu) = cudagraph_tests::gpu("disabled_kernel_node_acts_as_empty_until_reenabled")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("disabled_kernel_node_acts_as_empty_until_reenabled");
    let (base, a1, a2) = (rng.f32(), rng.f32(), rng.f32());
    let mut f = Fixture::new(&gpu, &k, &mut rng, base, a1);
    let axpy = f.axpy;

    assert!(f.exec.is_enabled(axpy).unwrap());
    let out = f.run(&gpu);
    assert_close("enabled", &out.computed, &f.want_computed(a1), 1e-6);

    f.exec.set_enabled(axpy, false).unwrap();
    assert!(!f.exec.is_enabled(axpy).unwrap());
    let out = f.run(&gpu);
    assert_untouched("disabled", &out.computed, POISON);
    assert_eq!(out.copied, f.data[0], "the other nodes still run");
    assert_eq!(out.filled, vec![base; f.n], "the other nodes still run");

    let args = f.axpy_args(a2);
    f.exec.set_kernel_params(axpy, cfg(f.n), args).unwrap();
    assert!(
        !f.exec.is_enabled(axpy).unwrap(),
        "a parameter update does not enable the node"
    );
    assert_untouched("disabled, after an update", &f.run(&gpu).computed, POISON);

    f.exec.set_enabled(axpy, true).unwrap();
    assert!(f.exec.is_enabled(axpy).unwrap());
    let out = f.run(&gpu);
    assert_close(
        "re-enabled: the update made while disabled applies",
        &out.computed,
        &f.want_computed(a2),
        1e-6,
    );
}

#[test]
fn disabled_memcpy_node_acts_as_empty_until_reenabled() {
    let Some(gpu) = cudagraph_tests::gpu("disabled_memcpy_node_acts_as_empty_until_reenabled")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("disabled_memcpy_node_acts_as_empty_until_reenabled");
    let (base, a) = (rng.f32(), rng.f32());
    let mut f = Fixture::new(&gpu, &k, &mut rng, base, a);
    let copy = f.copy;

    assert!(f.exec.is_enabled(copy).unwrap());
    assert_eq!(f.run(&gpu).copied, f.data[0], "enabled");

    f.exec.set_enabled(copy, false).unwrap();
    assert!(!f.exec.is_enabled(copy).unwrap());
    let out = f.run(&gpu);
    assert_untouched("disabled", &out.copied, POISON);
    assert_eq!(out.filled, vec![base; f.n], "the other nodes still run");
    assert_close(
        "the other nodes still run",
        &out.computed,
        &f.want_computed(a),
        1e-6,
    );

    let from_second = f.copy_from(1);
    f.exec.set_memcpy_params(copy, from_second).unwrap();
    assert!(
        !f.exec.is_enabled(copy).unwrap(),
        "a parameter update does not enable the node"
    );
    assert_untouched("disabled, after an update", &f.run(&gpu).copied, POISON);

    f.exec.set_enabled(copy, true).unwrap();
    assert!(f.exec.is_enabled(copy).unwrap());
    assert_eq!(
        f.run(&gpu).copied,
        f.data[1],
        "re-enabled: the update made while disabled applies"
    );
}

#[test]
fn disabled_memset_node_acts_as_empty_until_reenabled() {
    let Some(gpu) = cudagraph_tests::gpu("disabled_memset_node_acts_as_empty_until_reenabled")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("disabled_memset_node_acts_as_empty_until_reenabled");
    let (base1, base2, a) = (rng.f32(), rng.f32(), rng.f32());
    let mut f = Fixture::new(&gpu, &k, &mut rng, base1, a);
    let set = f.set;

    assert!(f.exec.is_enabled(set).unwrap());
    assert_eq!(f.run(&gpu).filled, vec![base1; f.n], "enabled");

    f.exec.set_enabled(set, false).unwrap();
    assert!(!f.exec.is_enabled(set).unwrap());
    let out = f.run(&gpu);
    assert_untouched("disabled", &out.filled, POISON);
    assert_eq!(out.copied, f.data[0], "the other nodes still run");
    assert_close(
        "the other nodes still run",
        &out.computed,
        &f.want_computed(a),
        1e-6,
    );

    f.exec
        .set_memset_params(set, Memset::new(&f.filled, base2))
        .unwrap();
    assert!(
        !f.exec.is_enabled(set).unwrap(),
        "a parameter update does not enable the node"
    );
    assert_untouched("disabled, after an update", &f.run(&gpu).filled, POISON);

    f.exec.set_enabled(set, true).unwrap();
    assert!(f.exec.is_enabled(set).unwrap());
    assert_eq!(
        f.run(&gpu).filled,
        vec![base2; f.n],
        "re-enabled: the update made while disabled applies"
    );
}

#[test]
fn every_node_can_be_switched_independently() {
    let Some(gpu) = cudagraph_tests::gpu("every_node_can_be_switched_independently") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("every_node_can_be_switched_independently");
    let (base, a) = (rng.f32(), rng.f32());
    let mut f = Fixture::new(&gpu, &k, &mut rng, base, a);

    // All eight on/off combinations, in a random order.
    let mut masks: Vec<u32> = (0..8).collect();
    for i in (1..masks.len()).rev() {
        masks.swap(i, rng.below(i as u32 + 1) as usize);
    }
    for mask in masks {
        let (copy_on, set_on, axpy_on) = (mask & 1 != 0, mask & 2 != 0, mask & 4 != 0);
        f.exec.set_enabled(f.copy, copy_on).unwrap();
        f.exec.set_enabled(f.set, set_on).unwrap();
        f.exec.set_enabled(f.axpy, axpy_on).unwrap();
        assert_eq!(
            [
                f.exec.is_enabled(f.copy).unwrap(),
                f.exec.is_enabled(f.set).unwrap(),
                f.exec.is_enabled(f.axpy).unwrap()
            ],
            [copy_on, set_on, axpy_on]
        );
        let out = f.run(&gpu);
        let what = format!("copy {copy_on}, memset {set_on}, kernel {axpy_on}");
        if copy_on {
            assert_eq!(out.copied, f.data[0], "{what}");
        } else {
            assert_untouched(&what, &out.copied, POISON);
        }
        if set_on {
            assert_eq!(out.filled, vec![base; f.n], "{what}");
        } else {
            assert_untouched(&what, &out.filled, POISON);
        }
        if axpy_on {
            assert_close(&what, &out.computed, &f.want_computed(a), 1e-6);
        } else {
            assert_untouched(&what, &out.computed, POISON);
        }
    }
}
