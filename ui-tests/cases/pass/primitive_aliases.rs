//! The generated code names primitive types by their full paths (`::core::primitive::u32`): a
//! module that gives `u32`, `usize`, `bool`, `str`... to other types, by aliases or imports,
//! compiles its declarations like any other (the declarations here write primitives in full too).
#![allow(non_camel_case_types, dead_code, unused_imports)]
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Event, ExternalSemaphore, HostBuffer, HostCallback};

/// What the primitive names mean in this module.
struct Wrong;
type u8 = Wrong;
type u16 = Wrong;
type u32 = Wrong;
type u128 = Wrong;
type usize = Wrong;
type i8 = Wrong;
type i16 = Wrong;
type i32 = Wrong;
type i64 = Wrong;
type i128 = Wrong;
type isize = Wrong;
type f32 = Wrong;
type f64 = Wrong;
type bool = Wrong;
type str = Wrong;
type char = Wrong;
use std::string::String as u64;

type F32 = ::core::primitive::f32;
type U32 = ::core::primitive::u32;

cuda_graph! {
    /// Embedded below.
    pub graph Inner {
        params {
            k: Kernel<(U32, DevicePtrMut<F32>)>,
            y: DevicePtrMut<F32>,
            n: U32,
        }
        run: kernel k<<<n.div_ceil(256), 256>>>(n, y);
    }

    /// Every node kind outside loops.
    pub graph Step {
        params {
            saxpy: Kernel<(U32, F32, DevicePtr<F32>, DevicePtrMut<F32>)>,
            x: DeviceBuffer<F32>,
            x_new: DeviceBuffer<F32>,
            host_y: HostBuffer<F32>,
            n: U32,
            alpha: F32,
            #[indirect]
            step: U32,
            report: HostCallback,
            inner: Inner,
            frame: ::core::primitive::u64,
            sem: ExternalSemaphore,
            done: Event,
        }
        zero: memset(x_new, 0.0f32);
        scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, x_new);
        back: memcpy(x_new -> host_y);
        log: host(report);
        sub: child(inner);
        ready: wait(sem = 2 * frame + 1);
        release: signal(sem = 2 * frame + 2);
        mark: record(done);
        t: alloc::<F32>(n as ::core::primitive::usize);
        use_t: memset(t, 0.0f32);
        free_t: free(t);
        ready -> zero -> scale -> back -> log -> release;
        scale -> sub;
        sub -> mark;
        t -> use_t -> free_t;
    }

    /// Loops, array params, conditional nodes.
    pub graph Layers {
        pub const LAYERS: ::core::primitive::usize = 4;
        const LAST: ::core::primitive::usize = LAYERS - 1;
        params {
            layer: Kernel<(U32, F32, DevicePtr<F32>, DevicePtrMut<F32>)>,
            step: Kernel<(ConditionalHandle, DevicePtrMut<U32>, U32)>,
            w: [DeviceBuffer<F32>; LAYERS],
            h: [DeviceBuffer<F32>; LAYERS],
            scale: [F32; LAYERS],
            counter: DeviceBuffer<U32>,
            n: U32,
            flag: ::core::primitive::bool,
        }
        for l in 0..LAYERS {
            attn[l]: kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], w[l], h[l]);
        }
        for l in 0..LAST {
            attn[l] -> attn[l + 1];
        }
        count: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, n);
        }
        attn[LAST] -> count;
    }
}

fn main() {
    fn _use(
        step: &mut StepExec,
        layers: &mut LayersExec,
        p: &StepParams,
    ) -> cudagraph_runtime::Result<()> {
        step.set_params(p)?;
        step.set_step(3)?;
        step.scale().set_enabled(false)?;
        let mut guard = step.params_mut();
        guard.set_alpha(0.5);
        guard.swap(|p| (&mut p.x, &mut p.x_new))?;
        guard.apply()?;
        layers.set_scale(2, 0.5)?;
        layers.attn(1)?.set_enabled(true)?;
        let mut guard = layers.params_mut();
        guard.swap(|p| (&mut p.w, &mut p.h))?;
        guard.swap(|p| {
            let (low, high) = p.w.split_at_mut(2);
            (&mut low[0], &mut high[1])
        })?;
        let _: ::core::primitive::usize = guard.apply()?;
        Ok(())
    }
    let _ = Step::topology_svg();
    let _ = Layers::TOPOLOGY;
}
