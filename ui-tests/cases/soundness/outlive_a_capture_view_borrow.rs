//! A writable capture view's parts and view to read live only as long as they borrow it: given
//! the view's own lifetime instead, they would stay usable while the view is written again
//! (through cudarc's calls, a copy between overlapping memory, which CUDA leaves undefined).
use cudagraph_runtime::{CaptureView, CaptureViewMut};

fn head<'v>(x: &mut CaptureViewMut<'v, f32>) -> CaptureViewMut<'v, f32> {
    x.try_slice(..1).unwrap()
}

fn halves<'v>(x: &mut CaptureViewMut<'v, f32>) -> (CaptureViewMut<'v, f32>, CaptureViewMut<'v, f32>) {
    x.try_split_at_mut(1).unwrap()
}

fn read<'v>(x: &CaptureViewMut<'v, f32>) -> CaptureView<'v, f32> {
    x.as_view()
}

fn main() {
    let _ = (head, halves, read);
}
