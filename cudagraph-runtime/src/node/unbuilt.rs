//! Values that stand for nodes not built yet: what a declaration's build starts from.

use std::mem::ManuallyDrop;

use crate::kernel::LaunchConfig;

/// Types whose all-zero bytes are a valid value that stands for nothing built: node handles
/// (their graph family, 0, is never handed out, so every graph refuses them as foreign),
/// conditional handles and `#[indirect]` keys (scope and block 0 are never handed out either),
/// launch configurations, and the generated structs made of these.
///
/// `build` starts from such a struct of every node's handle, allocated zeroed by
/// [`unbuilt_box`], and adds the nodes a few dozen per function, each writing its handles into
/// it: no function holds a local per node, and no struct of thousands of fields is built on the
/// stack. (The optimizer takes time quadratic in the fields of such a value; built with either, a
/// 10,000-node declaration did not compile.)
///
/// # Safety
/// The all-zero bit pattern is a valid value of the type.
pub unsafe trait Unbuilt {}

// SAFETY: three `u32` triples and a `u32`.
unsafe impl Unbuilt for LaunchConfig {}
// SAFETY: `repr(transparent)` over `T`.
unsafe impl<T: Unbuilt> Unbuilt for ManuallyDrop<T> {}

/// A `T` of all zeros on the heap, allocated zeroed: never on the stack, whatever its size.
pub fn unbuilt_box<T: Unbuilt>() -> Box<T> {
    let layout = std::alloc::Layout::new::<T>();
    if layout.size() == 0 {
        // SAFETY: for a zero-sized type, a dangling aligned pointer is a valid box; its value
        // (of no bytes) is a valid `T` (`Unbuilt`).
        return unsafe { Box::from_raw(std::ptr::NonNull::<T>::dangling().as_ptr()) };
    }
    // SAFETY: the layout's size is not zero.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    // SAFETY: allocated by the global allocator with `T`'s layout, as `Box` frees it; its bytes
    // are all zero, a valid `T` (`Unbuilt`).
    unsafe { Box::from_raw(ptr) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbuilt_boxes_are_zeroed_whatever_their_size() {
        struct Big {
            configs: [LaunchConfig; 10_000],
        }
        // SAFETY: launch configurations.
        unsafe impl Unbuilt for Big {}
        let big = unbuilt_box::<ManuallyDrop<Big>>();
        assert!(big.configs.iter().all(|c| c.grid_dim == (0, 0, 0)
            && c.block_dim == (0, 0, 0)
            && c.shared_mem_bytes == 0));

        struct Nothing;
        // SAFETY: no bytes.
        unsafe impl Unbuilt for Nothing {}
        let _nothing: Box<Nothing> = unbuilt_box();
    }
}
