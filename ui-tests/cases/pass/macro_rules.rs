//! Declarations made by `macro_rules!` compile as written out: the macro's punctuation arrives
//! with the spacing `macro_rules!` gives it (`>>` and `>` apart), names given by the caller
//! (`n`, `y`) resolve against params the macro declares, and operands given as `$e:expr`
//! fragments name params as written out.
use cudagraph_runtime::{cuda_graph, prelude::*, Capture, Event};

macro_rules! pipeline {
    ($name:ident, $kernel:ident, ($($arg:tt)*), $len:expr, $dst:expr, $cfg:expr) => {
        cuda_graph! {
            /// Made by `pipeline!`.
            pub graph $name {
                params {
                    $kernel: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
                    x: DeviceBuffer<f32>,
                    y: DeviceBuffer<f32>,
                    out: HostBuffer<f32>,
                    n: u32,
                    work: Capture,
                    done: Event,
                    cfg: LaunchConfig,
                }
                zero: memset($dst, 0.0f32);
                sized: kernel $kernel<<<$cfg>>>(n, x, $dst);
                run: kernel $kernel<<<size_of::<Vec<Vec<u32>>>() as u32, 256>>>($($arg)*);
                back: memcpy(y -> out);
                tmp: alloc::<f32>($len);
                fill: memset(tmp, 1.0f32);
                drop_tmp: free(tmp);
                more: capture(work, [x, mut y]);
                note: record(done);
                branch: if go(default = 1) {
                    again: kernel $kernel<<<1, 1>>>(n, x, y);
                }
                zero -> sized -> run -> back -> more -> note -> branch;
                tmp -> fill -> drop_tmp;
            }
        }
    };
}

pipeline!(Pipeline, saxpy, (n, x, y), n as usize, y, cfg);

fn main() {
    let _ = Pipeline::TOPOLOGY;
}
