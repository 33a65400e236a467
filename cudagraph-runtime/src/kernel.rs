//! Kernels with typed argument lists.

use std::ffi::c_void;
use std::marker::PhantomData;

use cudarc::driver::{sys, CudaFunction, DeviceRepr};

use crate::ptr::{DevicePtr, DevicePtrMut};

/// A loaded kernel whose parameter list is the tuple `A`.
///
/// Creating one is `unsafe`: you vouch that the function really takes these parameters, in this
/// order. From then on Rust checks every argument list given for it.
///
/// ```no_run
/// # use cudagraph_runtime::prelude::*;
/// # fn f(func: cudarc::driver::CudaFunction) {
/// // extern "C" __global__ void saxpy(unsigned n, float a, const float* x, float* y)
/// // SAFETY: `saxpy` has exactly this parameter list.
/// let saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)> = unsafe { Kernel::new(func) };
/// # }
/// ```
pub struct Kernel<A> {
    func: CudaFunction,
    _args: PhantomData<fn(A)>,
}

impl<A> Clone for Kernel<A> {
    fn clone(&self) -> Self {
        Self {
            func: self.func.clone(),
            _args: PhantomData,
        }
    }
}

impl<A> std::fmt::Debug for Kernel<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Kernel<{}>({:p})",
            std::any::type_name::<A>(),
            self.func.cu_function()
        )
    }
}

impl<A: KernelArgs> Kernel<A> {
    /// Wraps `func`, declaring its parameter list to be `A`.
    ///
    /// # Safety
    /// The kernel's C parameter list must match `A` element for element: each element's
    /// [`KernelParam::Repr`] has the size, alignment and meaning of the C parameter.
    pub unsafe fn new(func: CudaFunction) -> Self {
        Self {
            func,
            _args: PhantomData,
        }
    }
}

impl<A> Kernel<A> {
    /// The cudarc function.
    pub fn function(&self) -> &CudaFunction {
        &self.func
    }

    /// The raw driver handle.
    pub fn cu_function(&self) -> sys::CUfunction {
        self.func.cu_function()
    }
}

/// A value that can be passed to a kernel: it has a device representation.
///
/// # Safety
/// `Repr` must be the exact bit pattern the kernel's C parameter expects for this value.
pub unsafe trait KernelParam: Copy {
    /// The bits the kernel receives.
    type Repr: DeviceRepr + Copy;
    /// Converts to those bits.
    fn to_repr(&self) -> Self::Repr;
}

macro_rules! plain_params {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive is passed as itself.
        unsafe impl KernelParam for $t {
            type Repr = $t;
            #[inline(always)]
            fn to_repr(&self) -> $t { *self }
        }
    )*};
}
plain_params!(bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);

// SAFETY: a device pointer is passed as its 64-bit address (`T*` / `const T*` in C).
unsafe impl<T> KernelParam for DevicePtr<T> {
    type Repr = sys::CUdeviceptr;
    #[inline(always)]
    fn to_repr(&self) -> sys::CUdeviceptr {
        self.addr()
    }
}
// SAFETY: as above.
unsafe impl<T> KernelParam for DevicePtrMut<T> {
    type Repr = sys::CUdeviceptr;
    #[inline(always)]
    fn to_repr(&self) -> sys::CUdeviceptr {
        self.addr()
    }
}

/// A whole argument list: a tuple of [`KernelParam`]s (up to 12).
pub trait KernelArgs: Copy {
    /// Number of parameters.
    const COUNT: usize;
    /// Calls `f` with a `void**` array of pointers to each argument's device representation, as
    /// `kernelParams` wants it. The pointers are valid only during the call.
    fn with_params<R>(&self, f: impl FnOnce(*mut *mut c_void) -> R) -> R;
}

macro_rules! tuple_args {
    ($count:expr; $($t:ident $i:tt),*) => {
        impl<$($t: KernelParam),*> KernelArgs for ($($t,)*) {
            const COUNT: usize = $count;
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::unused_unit)]
            fn with_params<R>(&self, f: impl FnOnce(*mut *mut c_void) -> R) -> R {
                let mut reprs = ($(self.$i.to_repr(),)*);
                let mut ptrs: [*mut c_void; $count] = [$(&mut reprs.$i as *mut $t::Repr as *mut c_void),*];
                f(ptrs.as_mut_ptr())
            }
        }
    };
}
tuple_args!(0;);
tuple_args!(1; A 0);
tuple_args!(2; A 0, B 1);
tuple_args!(3; A 0, B 1, C 2);
tuple_args!(4; A 0, B 1, C 2, D 3);
tuple_args!(5; A 0, B 1, C 2, D 3, E 4);
tuple_args!(6; A 0, B 1, C 2, D 3, E 4, F 5);
tuple_args!(7; A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_args!(8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_args!(9; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_args!(10; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_args!(11; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_args!(12; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// Grid, block and dynamic shared memory of a launch (cudarc's type).
pub use cudarc::driver::LaunchConfig;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_point_at_each_argument() {
        // SAFETY: never dereferenced on a device.
        let p = unsafe { DevicePtr::<f32>::from_raw(0xdead_0000, 4) };
        let args = (7u32, 2.5f32, p);
        args.with_params(|ptrs| {
            // SAFETY: `with_params` gives three valid pointers to the device representations.
            unsafe {
                assert_eq!(*(*ptrs.add(0) as *const u32), 7);
                assert_eq!(*(*ptrs.add(1) as *const f32), 2.5);
                assert_eq!(*(*ptrs.add(2) as *const u64), 0xdead_0000);
            }
        });
        assert_eq!(<(u32, f32, DevicePtr<f32>)>::COUNT, 3);
    }
}
