//! What one collective node does, as every rank must agree on it: the operation, the element
//! type, the element count, and the root or peer ([`Collective`]), encoded as words for the
//! exchange that checks the ranks agree (see `order`).

use cudarc::driver::DeviceRepr;
use cudarc::nccl::sys::{ncclDataType_t, ncclRedOp_t};
use cudarc::nccl::NcclType;

/// The reduction of [`Graph::add_all_reduce`](crate::Graph::add_all_reduce) and
/// [`Graph::add_reduce_scatter`](crate::Graph::add_reduce_scatter) (NCCL's `ncclRedOp_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum of the ranks' elements.
    Sum,
    /// Product.
    Prod,
    /// Maximum.
    Max,
    /// Minimum.
    Min,
    /// Average (the sum divided by the number of ranks).
    Avg,
}

impl ReduceOp {
    pub(crate) fn raw(self) -> ncclRedOp_t {
        match self {
            Self::Sum => ncclRedOp_t::ncclSum,
            Self::Prod => ncclRedOp_t::ncclProd,
            Self::Max => ncclRedOp_t::ncclMax,
            Self::Min => ncclRedOp_t::ncclMin,
            Self::Avg => ncclRedOp_t::ncclAvg,
        }
    }
}

mod sealed {
    /// Sealed: the types listed at `NcclElem`, each one whose `ncclDataType_t` has its size.
    pub trait Sealed {}
}

/// An element type NCCL reduces and moves: `f32`, `f64`, `i8`, `u8`, `i32`, `u32`, `i64`,
/// `u64`. Sealed.
///
/// A collective over `n` elements has NCCL read and write `n` of its `ncclDataType_t`, so that
/// type's size must be the element's: these are listed by name, not admitted by their
/// [`NcclType`] (a safe trait that any type can implement, with any `ncclDataType_t`: a one-byte
/// type saying `ncclFloat64` would have NCCL write 8 bytes per element of a buffer of 1).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an element type NCCL reduces or moves",
    label = "not an NCCL element type",
    note = "NCCL's element types here are f32, f64, i8, u8, i32, u32, i64 and u64"
)]
pub trait NcclElem: NcclType + DeviceRepr + sealed::Sealed + 'static {}

macro_rules! nccl_elems {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl NcclElem for $t {}
    )*};
}
// Each is cudarc's `NcclType` of its own size (`ncclFloat32`, ..., `ncclUint64`; the test below
// checks), which no other crate can replace: an implementation for a type of `std` is cudarc's
// alone.
nccl_elems!(f32, f64, i8, u8, i32, u32, i64, u64);

/// A collective operation, as a node records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    AllReduce(ReduceOp),
    AllGather,
    ReduceScatter(ReduceOp),
    Broadcast {
        root: u32,
    },
    Send {
        peer: u32,
    },
    Recv {
        peer: u32,
    },
    /// A send and a receive grouped into one step (`ncclGroupStart` ... `ncclGroupEnd`).
    SendRecv {
        to: u32,
        from: u32,
    },
}

/// One collective node: what every rank must issue at the same place of its sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Collective {
    pub(crate) op: Op,
    /// `ncclDataType_t`, as its number.
    pub(crate) dtype: u32,
    /// Elements each rank contributes (the send count; for a receive, the receive count).
    pub(crate) count: u64,
    /// Where its buffers (source, destination) lie in the communicator's symmetric windows
    /// (`windows::placement`; 0 for memory in none): NCCL's symmetric kernels require every
    /// rank's buffer at the same offset of the same window.
    pub(crate) placement: [u64; 2],
}

/// How many words [`Collective::encode`] writes.
pub(crate) const WORDS: usize = 7;

impl Collective {
    pub(crate) fn new<T: NcclElem>(op: Op, count: usize) -> Self {
        Self {
            op,
            dtype: T::as_nccl_type() as u32,
            count: count as u64,
            placement: [0; 2],
        }
    }

    /// The same collective with its buffers at `placement` (see the field).
    pub(crate) fn placed(self, placement: [u64; 2]) -> Self {
        Self { placement, ..self }
    }

    /// Whether it is point to point (its peers differ from rank to rank by design).
    pub(crate) fn is_p2p(&self) -> bool {
        matches!(
            self.op,
            Op::Send { .. } | Op::Recv { .. } | Op::SendRecv { .. }
        )
    }

    /// The words of the exchange: operation code (never 0, which pads), reduction, element type,
    /// count, root or peers, and the placement of the two buffers.
    pub(crate) fn encode(&self) -> [u64; WORDS] {
        let (code, red, arg) = match self.op {
            Op::AllReduce(r) => (1, r.raw() as u64, 0),
            Op::AllGather => (2, 0, 0),
            Op::ReduceScatter(r) => (3, r.raw() as u64, 0),
            Op::Broadcast { root } => (4, 0, root as u64),
            Op::Send { peer } => (5, 0, peer as u64),
            Op::Recv { peer } => (6, 0, peer as u64),
            Op::SendRecv { to, from } => (7, 0, (to as u64) << 32 | from as u64),
        };
        let [src, dst] = self.placement;
        [code, red, self.dtype as u64, self.count, arg, src, dst]
    }

    /// The collective `words` encode; `None` for padding or words no rank could have written.
    pub(crate) fn decode(words: &[u64]) -> Option<Self> {
        let red = |w: u64| {
            Some(match w {
                0 => ReduceOp::Sum,
                1 => ReduceOp::Prod,
                2 => ReduceOp::Max,
                3 => ReduceOp::Min,
                4 => ReduceOp::Avg,
                _ => return None,
            })
        };
        let arg = words[4];
        let op = match words[0] {
            1 => Op::AllReduce(red(words[1])?),
            2 => Op::AllGather,
            3 => Op::ReduceScatter(red(words[1])?),
            4 => Op::Broadcast { root: arg as u32 },
            5 => Op::Send { peer: arg as u32 },
            6 => Op::Recv { peer: arg as u32 },
            7 => Op::SendRecv {
                to: (arg >> 32) as u32,
                from: arg as u32,
            },
            _ => return None,
        };
        Some(Self {
            op,
            dtype: u32::try_from(words[2]).ok()?,
            count: words[3],
            placement: [words[5], words[6]],
        })
    }

    /// The words every rank issues alike: a point-to-point step without its peers.
    pub(crate) fn rank_invariant(&self) -> [u64; WORDS] {
        let mut words = self.encode();
        if self.is_p2p() {
            words[0] = 8;
            words[4] = 0;
        }
        words
    }
}

impl std::fmt::Display for Collective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.op {
            Op::AllReduce(r) => write!(f, "all_reduce({r:?})")?,
            Op::AllGather => f.write_str("all_gather")?,
            Op::ReduceScatter(r) => write!(f, "reduce_scatter({r:?})")?,
            Op::Broadcast { root } => write!(f, "broadcast(root {root})")?,
            Op::Send { peer } => write!(f, "send(to rank {peer})")?,
            Op::Recv { peer } => write!(f, "recv(from rank {peer})")?,
            Op::SendRecv { to, from } => write!(f, "send_recv(to rank {to}, from rank {from})")?,
        }
        write!(f, " of {} {}", self.count, dtype_name(self.dtype))?;
        super::windows::describe(f, self.placement)
    }
}

/// The Rust name of NCCL element type `code`.
fn dtype_name(code: u32) -> &'static str {
    const NAMES: [(ncclDataType_t, &str); 8] = [
        (ncclDataType_t::ncclInt8, "i8"),
        (ncclDataType_t::ncclUint8, "u8"),
        (ncclDataType_t::ncclInt32, "i32"),
        (ncclDataType_t::ncclUint32, "u32"),
        (ncclDataType_t::ncclInt64, "i64"),
        (ncclDataType_t::ncclUint64, "u64"),
        (ncclDataType_t::ncclFloat32, "f32"),
        (ncclDataType_t::ncclFloat64, "f64"),
    ];
    NAMES
        .iter()
        .find(|(t, _)| *t as u32 == code)
        .map_or("elements of an unknown type", |(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collective_decodes_to_itself() {
        let ops = [
            Op::AllReduce(ReduceOp::Avg),
            Op::AllGather,
            Op::ReduceScatter(ReduceOp::Max),
            Op::Broadcast { root: 3 },
            Op::Send { peer: 1 },
            Op::Recv { peer: 0 },
            Op::SendRecv { to: 1, from: 7 },
        ];
        for op in ops {
            let c = Collective::new::<f32>(op, 1000);
            assert_eq!(Collective::decode(&c.encode()), Some(c));
        }
        assert_eq!(Collective::decode(&[0; WORDS]), None);
    }

    #[test]
    fn names_say_what_and_how_much() {
        let c = Collective::new::<f32>(Op::AllReduce(ReduceOp::Sum), 4);
        assert_eq!(c.to_string(), "all_reduce(Sum) of 4 f32");
        let c = Collective::new::<u64>(Op::Send { peer: 2 }, 1);
        assert_eq!(c.to_string(), "send(to rank 2) of 1 u64");
    }

    /// A type of one byte that tells NCCL it is a `double` (cudarc's `NcclType` is a safe trait,
    /// and its `DeviceRepr` is honest: one plain byte): a collective over `n` of them would have
    /// NCCL read and write `8 n` bytes of a buffer of `n`. It must not be an element type.
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Lying(#[allow(dead_code)] u8);
    // SAFETY: one plain byte, passed and copied as itself.
    unsafe impl DeviceRepr for Lying {}
    impl NcclType for Lying {
        fn as_nccl_type() -> ncclDataType_t {
            ncclDataType_t::ncclFloat64
        }
    }

    /// Asks whether `T` is an [`NcclElem`] (`ELEM`): the inherent constant exists only when it
    /// is, the trait's default answers otherwise.
    struct ElemProbe<T>(std::marker::PhantomData<T>);
    trait NotElem {
        const ELEM: bool = false;
    }
    impl<T> NotElem for ElemProbe<T> {}
    impl<T: NcclElem> ElemProbe<T> {
        const ELEM: bool = true;
    }

    #[test]
    fn only_the_listed_types_are_element_types() {
        // The lying type, then the eight listed.
        const ANSWERS: [bool; 9] = [
            ElemProbe::<Lying>::ELEM,
            ElemProbe::<f32>::ELEM,
            ElemProbe::<f64>::ELEM,
            ElemProbe::<i8>::ELEM,
            ElemProbe::<u8>::ELEM,
            ElemProbe::<i32>::ELEM,
            ElemProbe::<u32>::ELEM,
            ElemProbe::<i64>::ELEM,
            ElemProbe::<u64>::ELEM,
        ];
        assert_eq!(
            ANSWERS,
            [false, true, true, true, true, true, true, true, true]
        );
        // Each one's NCCL type has its size: what NCCL reads and writes of `n` elements.
        fn size_of_nccl<T: NcclElem>() -> usize {
            match T::as_nccl_type() {
                ncclDataType_t::ncclInt8 | ncclDataType_t::ncclUint8 => 1,
                ncclDataType_t::ncclInt32
                | ncclDataType_t::ncclUint32
                | ncclDataType_t::ncclFloat32 => 4,
                ncclDataType_t::ncclInt64
                | ncclDataType_t::ncclUint64
                | ncclDataType_t::ncclFloat64 => 8,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(size_of_nccl::<f32>(), 4);
        assert_eq!(size_of_nccl::<f64>(), 8);
        assert_eq!(size_of_nccl::<i8>(), 1);
        assert_eq!(size_of_nccl::<u8>(), 1);
        assert_eq!(size_of_nccl::<i32>(), 4);
        assert_eq!(size_of_nccl::<u32>(), 4);
        assert_eq!(size_of_nccl::<i64>(), 8);
        assert_eq!(size_of_nccl::<u64>(), 8);
    }
}
