//! NCCL's errors as this crate's.

use cudarc::nccl::result::NcclError;

use crate::error::Error;

/// An NCCL error as this crate's, for `call` about `node`.
pub(crate) fn nccl_err(
    call: &'static str,
    node: impl Into<String>,
) -> impl FnOnce(NcclError) -> Error {
    let node = node.into();
    move |e| Error::Nccl {
        call,
        node,
        code: format!("{:?}", e.0),
    }
}
