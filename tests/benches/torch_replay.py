#!/usr/bin/env python3
"""Host cost of `torch.cuda.CUDAGraph.replay()` on chains of N tiny kernels, timed the way
`tests/benches/runtime.rs` times `GraphExec::launch` (the `launch` group): a block of replays
into one stream, then one synchronize, divided by the block's length.

Each node is one in-place add on a 32-element tensor (one block of 32 threads, as the Rust
bench's `noop` kernel), each depending on the one before. Run it in the same session as the
Rust bench (`.gpu/run bench`) so the two tables come from one machine state:

    python3 tests/benches/torch_replay.py

Prints one line per chain length: the median and spread of µs per replay over several blocks.
Exits 0 with a note when PyTorch or a GPU is missing.
"""

import statistics
import sys
import time

CHAINS = (1, 10, 100, 1000)
BLOCK = 200  # replays per timed block, as the Rust bench's launch blocks
BLOCKS = 30


def main() -> int:
    try:
        import torch
    except ImportError:
        print("torch_replay: PyTorch is not installed; nothing to compare")
        return 0
    if not torch.cuda.is_available():
        print("torch_replay: no CUDA device; nothing to compare")
        return 0
    device = torch.device("cuda", 0)
    stream = torch.cuda.Stream(device)
    print(f"device: {torch.cuda.get_device_name(device)}, torch {torch.__version__}")
    print(f"{'nodes':>6}  {'replay µs (median)':>18}  {'min':>8}  {'max':>8}")
    for n in CHAINS:
        y = torch.zeros(32, device=device)
        graph = torch.cuda.CUDAGraph()
        # Warm up the kernel outside the capture, as torch requires.
        with torch.cuda.stream(stream):
            y.add_(1.0)
        torch.cuda.synchronize()
        with torch.cuda.graph(graph, stream=stream):
            for _ in range(n):
                y.add_(1.0)
        torch.cuda.synchronize()
        for _ in range(BLOCK):  # warm up the replays
            graph.replay()
        torch.cuda.synchronize()
        samples = []
        for _ in range(BLOCKS):
            torch.cuda.synchronize()
            start = time.perf_counter()
            for _ in range(BLOCK):
                graph.replay()
            torch.cuda.synchronize()
            samples.append((time.perf_counter() - start) / BLOCK * 1e6)
        print(
            f"{n:>6}  {statistics.median(samples):>18.2f}  {min(samples):>8.2f}  {max(samples):>8.2f}"
        )
        want = float(BLOCK * (BLOCKS + 1) * n + 1)
        got = float(y[0].item())
        if got != want:
            print(f"torch_replay: chain of {n}: y = {got}, expected {want}")
            return 1
        del graph
    return 0


if __name__ == "__main__":
    sys.exit(main())
