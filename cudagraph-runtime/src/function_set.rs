//! The kernel functions a graph's nodes launch, held so their modules stay loaded.

use cudarc::driver::{sys, CudaFunction};

/// A set of functions, by handle.
///
/// Almost every graph launches one or two distinct functions, so the first is kept inline and the
/// others behind one pointer: building a one-kernel graph allocates nothing here, and the set
/// stays three words, which keeps [`Graph`](crate::Graph) small enough to move without a call to
/// `memcpy` (graphs are built, moved and dropped in rebuild-and-update loops).
#[derive(Debug, Clone, Default)]
pub(crate) struct FunctionSet {
    first: Option<CudaFunction>,
    // A boxed Vec on purpose (one word, not three): see above.
    #[allow(clippy::box_collection)]
    rest: Option<Box<Vec<CudaFunction>>>,
}

impl FunctionSet {
    #[inline]
    pub(crate) fn contains(&self, func: sys::CUfunction) -> bool {
        match &self.first {
            Some(first) if first.cu_function() == func => true,
            _ => self
                .rest
                .as_ref()
                .is_some_and(|rest| rest.iter().any(|f| f.cu_function() == func)),
        }
    }

    /// Adds `func` unless it is already held.
    #[inline]
    pub(crate) fn insert(&mut self, func: &CudaFunction) {
        match &self.first {
            None => self.first = Some(func.clone()),
            Some(first) if first.cu_function() == func.cu_function() => {}
            Some(_) => self.insert_more(func),
        }
    }

    #[cold]
    fn insert_more(&mut self, func: &CudaFunction) {
        let rest = self.rest.get_or_insert_with(Default::default);
        if !rest.iter().any(|f| f.cu_function() == func.cu_function()) {
            rest.push(func.clone());
        }
    }

    /// Adds every function of `other` not already held.
    pub(crate) fn extend(&mut self, other: &FunctionSet) {
        for f in other.iter() {
            self.insert(f);
        }
    }

    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &CudaFunction> {
        self.first
            .iter()
            .chain(self.rest.iter().flat_map(|rest| rest.iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_three_words() {
        assert_eq!(
            std::mem::size_of::<FunctionSet>(),
            3 * std::mem::size_of::<usize>()
        );
    }
}
