//! T12 in every shape Rust allows where nodes are declared: a labeled loop, control flow after
//! doc comments or attributes, `if let` and `while let`; and the other Rust statements that do
//! not declare nodes (a block, `let`, a macro call), each with what to write instead.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Shapes {
        params {
            steps: u32,
        }
        first: empty;
        'outer: loop {
            spin: empty;
        }
        /// Picks a branch.
        match steps {
            0 => { none: empty; }
            _ => { some: empty; }
        }
        #[cfg(test)]
        if steps > 1 {
            maybe: empty;
        }
        if let Some(s) = Some(steps) {
            other: empty;
        }
        'count: while let 1.. = steps {
            repeat: empty;
        }
        {
            grouped: empty;
        }
        let twice = steps * 2;
        nodes!(a, b);
        last: empty;
        first -> last;
    }
}

fn main() {}
