//! Class 1, leak amplification: an executable that borrows memory is leaked (`mem::forget`, an
//! `Rc` cycle), its `Drop` never runs, the borrow ends, and the memory is freed and handed out
//! again while a launch still writes it.
//!
//! The control launches a raw graph on a cudarc slice and frees the slice: the launch writes the
//! sentinel allocated after the free. Through the library, a graph that borrows memory is made
//! by a `scope`, which returns only once every launch of its executables has completed, however
//! the executables ended (so the same program leaves the sentinel intact); outside a scope a
//! graph borrows nothing (`ui-tests/cases/memory/borrow_outside_a_scope.rs`,
//! `forget_then_drop_borrowed_buffer.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use cudagraph_runtime::prelude::*;
use cudagraph_tests::soundness::{addr, overwritten, sentinel, Arg, Kernels, RawGraph, N, SPIN};
use cudagraph_tests::{cfg, gpu};

#[test]
fn a_leaked_executable_cannot_outlive_the_memory_it_borrows() {
    let Some(gpu) = gpu("a_leaked_executable_cannot_outlive_the_memory_it_borrows") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let (launch, home) = (gpu.stream.clone(), gpu.ctx.new_stream().unwrap());

    // Control: a raw launch on a slice, which is freed while the launch spins.
    {
        let y = home.alloc_zeros::<u32>(N).unwrap();
        let mut raw = RawGraph::new(&gpu);
        let args = [
            Arg::U32(N as u32),
            Arg::U64(SPIN),
            Arg::U32(7),
            Arg::U64(addr(&launch, &y)),
        ];
        raw.add_kernel(&k.late, &cfg(N), &args, &[]);
        raw.launch(&launch);
        drop(y);
        let s = sentinel(&home, N);
        let hit = overwritten(&home, &s);
        eprintln!("control: the raw launch wrote {hit} of {N} sentinel elements");
        assert!(
            hit > 0,
            "the control must corrupt the sentinel, or this test shows nothing"
        );
    }

    // The library: the same launch, the executable forgotten inside a scope.
    {
        let mut y = home.alloc_zeros::<u32>(N).unwrap();
        cudagraph_runtime::scope(|s| -> cudagraph_runtime::Result<()> {
            let mut graph = s.graph(&gpu.ctx)?;
            graph.add_kernel(&k.late, cfg(N), (N as u32, SPIN, 7u32, &mut y), &[])?;
            let mut exec = graph.instantiate()?;
            exec.launch(&launch)?;
            std::mem::forget(exec);
            Ok(())
        })
        .unwrap();
        drop(y);
        let s = sentinel(&home, N);
        assert_eq!(
            overwritten(&home, &s),
            0,
            "a forgotten executable wrote freed memory"
        );
    }

    // The same with the executable in an `Rc` cycle, which is never dropped either.
    {
        struct Cycle<'a> {
            exec: GraphExec<'a>,
            me: RefCell<Option<Rc<Cycle<'a>>>>,
        }
        let mut y = home.alloc_zeros::<u32>(N).unwrap();
        cudagraph_runtime::scope(|s| -> cudagraph_runtime::Result<()> {
            let mut graph = s.graph(&gpu.ctx)?;
            graph.add_kernel(&k.late, cfg(N), (N as u32, SPIN, 7u32, &mut y), &[])?;
            let mut exec = graph.instantiate()?;
            exec.launch(&launch)?;
            let cycle = Rc::new(Cycle {
                exec,
                me: RefCell::new(None),
            });
            *cycle.me.borrow_mut() = Some(cycle.clone());
            let _ = &cycle.exec;
            Ok(())
        })
        .unwrap();
        drop(y);
        let s = sentinel(&home, N);
        assert_eq!(
            overwritten(&home, &s),
            0,
            "an executable in an Rc cycle wrote freed memory"
        );
    }
}
