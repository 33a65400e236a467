//! `#[indirect]` params in a declaration: kernels read them through `const T*`, and setting one
//! is a host write (no node update, no driver call): 10,000 launches back to back, each with
//! its own values, every one checked; `set_params` and the params guard set them the same way.

use cudagraph_runtime::prelude::*;
use cudagraph_tests::{compile, function, gpu, read_back, zeros};

type Record = Kernel<(DevicePtr<u32>, DevicePtr<u32>, DevicePtrMut<u32>, u32)>;

/// Launches of the test, and elements of `out`: one per launch.
const LAUNCHES: u32 = 10_000;

cuda_graph! {
    /// `out[step] = value`, both read from device memory at each launch.
    graph Stepper {
        params {
            record: Record,
            out: DeviceBuffer<u32>,
            #[indirect]
            step: u32,
            #[indirect]
            value: u32,
        }
        write: kernel record<<<1, 32>>>(step, value, out, LAUNCHES);
    }
}

// The index comes from device memory, where no launch check sees it: the kernel compares it with
// `n` itself.
const SRC: &str = r#"
extern "C" __global__ void record(const unsigned* step, const unsigned* value, unsigned* out,
                                  unsigned n) {
    unsigned i = *step;
    if (threadIdx.x == 0 && blockIdx.x == 0 && i < n) out[i] = *value;
}
"#;

#[test]
fn indirect_params_give_every_launch_its_own_values() {
    let Some(gpu) = gpu("indirect_params_give_every_launch_its_own_values") else {
        return;
    };
    let module = compile(&gpu.ctx, SRC);
    // SAFETY: `record` takes (const unsigned*, const unsigned*, unsigned*, unsigned), reads
    // step[0] and value[0] and writes out[i] for i = step[0] < n only, and launches nothing; the
    // check keeps step and value non-empty and n within out.
    let record = unsafe { Record::new(function(&module, "record")) }
        .requires(|_, (step, value, out, n)| step >= 1 && value >= 1 && n as usize <= out);
    let mut params = StepperParams {
        record,
        out: zeros(&gpu, LAUNCHES as usize),
        step: 0,
        value: 7,
    };
    let mut exec = Stepper::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    for i in 0..LAUNCHES {
        exec.set_step(i).unwrap();
        exec.set_value(3 * i + 1).unwrap();
        exec.launch(&gpu.stream).unwrap();
    }
    let out = read_back(&gpu.stream, &params.out);
    let wrong = (0..LAUNCHES)
        .filter(|&i| out[i as usize] != 3 * i + 1)
        .count();
    assert_eq!(wrong, 0, "launches that read another launch's values");

    // `set_params`: the values change, no node is updated.
    params.step = 5;
    params.value = 1234;
    assert_eq!(exec.set_params(&params).unwrap(), 0);
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[5], 1234);

    // Through the params guard: a host write too, nothing left for the launch to update.
    let mut guard = exec.params_mut();
    assert_eq!(guard.set_value(4321), 1234, "the old value");
    assert_eq!(guard.apply().unwrap(), 0);
    assert_eq!(exec.params().value, 4321);
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[5], 4321);

    // Swapped through the guard: both values written for the next launch.
    exec.set_value(7).unwrap();
    exec.params_mut()
        .swap(|p| (&mut p.step, &mut p.value))
        .unwrap();
    assert_eq!((exec.params().step, exec.params().value), (7, 5));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[7], 5);

    // Swapped at once (`exec.swap`, the short way): both values written, no node updated.
    assert_eq!(exec.swap(|p| (&mut p.step, &mut p.value)).unwrap(), 0);
    assert_eq!((exec.params().step, exec.params().value), (5, 7));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[5], 7);

    // A refused change leaves the values as they were, one set through the guard too: `out` of
    // one element fails the kernel's check, and the undo gives `value` back what the guard set.
    assert_eq!(exec.params_mut().set_value(55), 7);
    let refused = StepperParams {
        record: params.record.clone(),
        out: zeros(&gpu, 1),
        step: 9,
        value: 66,
    };
    assert!(exec.set_params(&refused).is_err());
    assert_eq!((exec.params().step, exec.params().value), (5, 55));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[5], 55);

    // Swapped through the guard, then one of the two set before a launch applies the swap: the
    // value stays where it was set, in the applied copy too (the commit of a swap alone swaps
    // the applied params, which must not carry it over to `step`), so a refused change gives
    // back what the launches read.
    exec.params_mut()
        .swap(|p| (&mut p.step, &mut p.value))
        .unwrap();
    assert_eq!(exec.set_value(8).unwrap(), 5);
    assert_eq!((exec.params().step, exec.params().value), (55, 8));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[55], 8);
    assert!(exec.set_params(&refused).is_err());
    assert_eq!((exec.params().step, exec.params().value), (55, 8));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.out)[55], 8);
}
