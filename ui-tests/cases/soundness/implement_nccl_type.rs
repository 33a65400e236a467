//! A collective over `n` elements has NCCL read and write `n` of the element's `ncclDataType_t`:
//! a type of one byte whose `NcclType` (a safe trait of cudarc's) says `ncclFloat64` would have
//! NCCL write 8 bytes per element of a buffer of 1. `NcclElem` is sealed to the types listed by
//! name, whatever `NcclType` another type implements.
use cudagraph_runtime::cudarc::driver::DeviceRepr;
use cudagraph_runtime::cudarc::nccl::{sys::ncclDataType_t, NcclType};
use cudagraph_runtime::NcclElem;

#[repr(C)]
#[derive(Clone, Copy)]
struct One(u8);

// SAFETY: one plain byte, passed and copied as itself.
unsafe impl DeviceRepr for One {}

impl NcclType for One {
    fn as_nccl_type() -> ncclDataType_t {
        ncclDataType_t::ncclFloat64
    }
}

fn element<T: NcclElem>() {}

fn main() {
    element::<One>();
}
