//! The kernel functions a graph's nodes launch, held so their modules stay loaded.

use cudarc::driver::{sys, CudaFunction};

/// A set of functions, by handle. Almost every graph launches one or two distinct functions, so
/// the first is kept inline: building a one-kernel graph then allocates nothing for it.
#[derive(Debug, Clone, Default)]
pub(crate) struct FunctionSet {
    first: Option<CudaFunction>,
    rest: Vec<CudaFunction>,
}

impl FunctionSet {
    pub(crate) fn contains(&self, func: sys::CUfunction) -> bool {
        self.iter().any(|f| f.cu_function() == func)
    }

    /// Adds `func` unless it is already held.
    #[inline]
    pub(crate) fn insert(&mut self, func: &CudaFunction) {
        match &self.first {
            None => self.first = Some(func.clone()),
            Some(first) if first.cu_function() == func.cu_function() => {}
            Some(_) => {
                if !self
                    .rest
                    .iter()
                    .any(|f| f.cu_function() == func.cu_function())
                {
                    self.rest.push(func.clone());
                }
            }
        }
    }

    /// Adds every function of `other` not already held.
    pub(crate) fn extend(&mut self, other: &FunctionSet) {
        for f in other.iter() {
            self.insert(f);
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &CudaFunction> {
        self.first.iter().chain(&self.rest)
    }
}
