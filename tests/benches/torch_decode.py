#!/usr/bin/env python3
"""PyTorch's `torch.cuda.graph` replay of the decode step of `examples/decode_layers.rs` (and,
with `--layers 1`, of `examples/decode_loop.rs`), timed the way the examples time theirs: 1,000
steps, each step's output the next step's input, then one synchronize; the median of 3 timed
runs after a warm-up run.

The step is the examples' step, with the same weights (the same xorshift64 numbers, bit for bit)
and the same ops: a position term added to `x` (batch 4 x 128), then per layer
`x <- tanh(relu(x W1 + b1) W2 + b2)` through a hidden width of 256. The position term enters
the graph as PyTorch's static inputs do: `pos.copy_(table[step])` before each replay. Two forms:

- "same ops": matmul, bias add, relu / matmul, bias add, tanh (the examples' GEMMs and kernels,
  with PyTorch's bias add a kernel of its own);
- "addmm": the bias folded into the GEMM (`torch.addmm`), relu and tanh in place: what
  `torch.nn.functional.linear` does;
- "fused relu": the first GEMM's bias and ReLU in cuBLASLt's epilogue
  (`torch._addmm_activation`), then `addmm` and tanh: the examples' three operations per layer,
  the fewest kernels PyTorch's ops launch for this step.

Each result is checked against the step on the CPU (float32, largest difference below 1e-3), and
the checksum (sum of x after the steps) is printed: it matches the example's when both computed
the same steps. Run it in the same session as the example:

    cargo run --release -p cudagraph-examples --example decode_layers
    python3 tests/benches/torch_decode.py             # 32 layers
    python3 tests/benches/torch_decode.py --layers 1  # beside decode_loop

TF32 stays off (PyTorch's default for matmul, cuBLAS's for the examples' SGEMMs).
Exits 0 with a note when PyTorch or a GPU is missing.
"""

import argparse
import statistics
import sys
import time

BATCH, DIM, HIDDEN, STEPS = 4, 128, 256, 1000
RUNS = 3
TOLERANCE = 1e-3
SEED = 0x2545F4914F6CDD1D
MASK = (1 << 64) - 1


def numbers(count, state):
    """`count` numbers in [-0.5, 0.5) from xorshift64 `state[0]`, as `Numbers` in
    examples/src/decode.rs (each exact in float32)."""
    s = state[0]
    out = []
    for _ in range(count):
        s ^= (s << 13) & MASK
        s ^= s >> 7
        s ^= (s << 17) & MASK
        out.append((s >> 40) / (1 << 24) - 0.5)
    state[0] = s
    return out


def weights(torch, layers):
    """The examples' weights, as float32 tensors laid out for `x @ W`: the examples' W1 is
    HIDDEN x DIM column-major, whose bytes read row-major are W1 transposed (DIM x HIDDEN)."""
    state = [SEED]
    f32 = torch.float32
    # Scales computed in float32, and products rounded to float32, as the examples do.
    s1 = torch.tensor(1.0, dtype=f32) / torch.sqrt(torch.tensor(float(DIM), dtype=f32))
    s2 = torch.tensor(1.0, dtype=f32) / torch.sqrt(torch.tensor(float(HIDDEN), dtype=f32))
    b_scale = torch.tensor(0.1, dtype=f32)

    def take(count, scale):
        return torch.tensor(numbers(count, state), dtype=f32) * scale

    model = []
    for _ in range(layers):
        w1 = take(HIDDEN * DIM, s1).reshape(DIM, HIDDEN)
        w2 = take(DIM * HIDDEN, s2).reshape(HIDDEN, DIM)
        b1 = take(HIDDEN, b_scale)
        b2 = take(DIM, b_scale)
        model.append((w1, w2, b1, b2))
    x0 = torch.tensor(numbers(BATCH * DIM, state), dtype=f32).reshape(BATCH, DIM)
    return model, x0


def position_table(torch):
    """The position term of every step (STEPS x DIM), as `position_term` in the examples."""
    step = torch.arange(STEPS, dtype=torch.int64).unsqueeze(1)
    i = torch.arange(DIM, dtype=torch.int64).unsqueeze(0)
    return ((step * 7 + i) % 13).to(torch.float32) * 0.01 - 0.06


def on_cpu(torch, model, x0, table):
    x = x0.clone()
    for step in range(STEPS):
        x += table[step]
        for w1, w2, b1, b2 in model:
            x = torch.tanh(torch.relu(x @ w1 + b1) @ w2 + b2)
    return x


def same_ops(torch, x, pos, h, y, model):
    x.add_(pos)
    for w1, w2, b1, b2 in model:
        torch.matmul(x, w1, out=h)
        h.add_(b1).relu_()
        torch.matmul(h, w2, out=y)
        torch.tanh(y.add_(b2), out=x)


def addmm(torch, x, pos, h, y, model):
    x.add_(pos)
    for w1, w2, b1, b2 in model:
        torch.addmm(b1, x, w1, out=h)
        h.relu_()
        torch.addmm(b2, h, w2, out=y)
        torch.tanh(y, out=x)


def fused(torch, x, pos, h, y, model):
    x.add_(pos)
    for w1, w2, b1, b2 in model:
        # The bias and ReLU in the GEMM's epilogue (cuBLASLt), as the examples' first GEMM.
        torch._addmm_activation(b1, x, w1, out=h)
        torch.addmm(b2, h, w2, out=y)
        torch.tanh(y, out=x)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=32, help="layers per step (default 32)")
    layers = parser.parse_args().layers
    try:
        import torch
    except ImportError:
        print("torch_decode: PyTorch is not installed; nothing to compare")
        return 0
    model, x0 = weights(torch, layers)
    table = position_table(torch)
    want = on_cpu(torch, model, x0, table)
    checksum = float(want.double().sum())
    if not torch.cuda.is_available():
        print(f"torch_decode: no CUDA device; CPU checksum {checksum:.4f}, nothing to time")
        return 0
    torch.set_float32_matmul_precision("highest")  # no TF32, as cuBLAS SGEMM
    device = torch.device("cuda", 0)
    print(f"device: {torch.cuda.get_device_name(device)}, torch {torch.__version__}")
    print(
        f"{STEPS} decode steps of {layers} layers, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM} each, "
        f"results checked against the CPU (tolerance {TOLERANCE:.0e}):"
    )
    gpu_model = [tuple(t.to(device) for t in layer) for layer in model]
    gpu_table = table.to(device)
    x0 = x0.to(device)
    x = torch.empty_like(x0)
    pos = torch.zeros(DIM, device=device)
    h = torch.empty(BATCH, HIDDEN, device=device)
    y = torch.empty(BATCH, DIM, device=device)

    def measure(name, step):
        rates, worst = [], 0.0
        for run in range(RUNS + 1):
            x.copy_(x0)
            torch.cuda.synchronize()
            start = time.perf_counter()
            for s in range(STEPS):
                step(s)
            got = x.cpu()  # waits for the steps
            elapsed = time.perf_counter() - start
            diff = float((got - want).abs().max())
            if not diff < TOLERANCE:  # NaN fails too
                raise SystemExit(f"torch_decode: {name} differs from the CPU by {diff}")
            worst = max(worst, diff)
            if run > 0:
                rates.append(STEPS / elapsed)
        return statistics.median(rates), worst

    print(f"{'':<40} {'steps/s':>12} {'largest diff':>14}")
    results = {}
    stream = torch.cuda.Stream(device)
    forms = [("same ops", same_ops), ("addmm", addmm)]
    if hasattr(torch, "_addmm_activation"):
        forms.append(("fused relu", fused))
    else:
        print("torch._addmm_activation is missing in this PyTorch: no 'fused relu' form")
    for name, form in forms:

        def eager(s, form=form):
            pos.copy_(gpu_table[s])
            form(torch, x, pos, h, y, gpu_model)

        rate, worst = measure(f"eager, {name}", eager)
        print(f"{'eager, ' + name:<40} {rate:>12.0f} {worst:>14.1e}")
        # Warm up on a side stream before capturing, as torch.cuda.graph asks.
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                form(torch, x, pos, h, y, gpu_model)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            form(torch, x, pos, h, y, gpu_model)

        def replay(s, graph=graph):
            pos.copy_(gpu_table[s])
            graph.replay()

        rate, worst = measure(f"graph, {name}", replay)
        results[name] = rate
        print(f"{'torch.cuda.graph replay, ' + name:<40} {rate:>12.0f} {worst:>14.1e}")
        del graph
    print(f"checksum (sum of x after {STEPS} steps): {checksum:.4f}")
    print(
        f"torch_decode: {layers} layers, batch {BATCH}, {DIM} -> {HIDDEN} -> {DIM}: "
        f"replay {results['same ops']:.0f} steps/s (same ops), {results['addmm']:.0f} steps/s (addmm)"
        + (f", {results['fused relu']:.0f} steps/s (fused relu)" if "fused relu" in results else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
