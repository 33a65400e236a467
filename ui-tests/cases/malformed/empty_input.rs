use cudagraph_runtime::cuda_graph;

cuda_graph! {}

fn main() {}
