//! Graphs named like the types another graph of the call generates (`StepExec` beside `Step`,
//! `SolverParamsMut` beside `Solver`), and nodes whose handle types would be one.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Step {
        a: empty;
    }
    graph StepExec {
        b: empty;
    }
    graph SolverParamsMut {
        c: empty;
    }
    graph Solver {
        d: empty;
    }
    graph Split {
        foo_bar: empty;
        fooBar: empty;
        foo_bar -> fooBar;
    }
    graph SplitFooBarNode {
        e: empty;
    }
}

fn main() {}
