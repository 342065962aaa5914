"""sarek.torch on the GPU machine (`gpu` marker; PyTorch with CUDA must be installed there: a missing torch fails,
it does not skip): eager on cuda and ptx, CPU tensors on the interpreter, torch.compile(fullgraph=True) with no
graph break (forward and backward), CUDA graph capture and replay, torch.library.opcheck, gradcheck in f64.

Gradients use a hand-written adjoint (`adjoint=`) with the contract of `k.adjoint` (the kernel's arguments, then
one adjoint array per f32/f64 array parameter, accumulated with +=; tests/unit/op_kernels.py), so they test the
glue whatever the adjoint pass does; test_gradcheck_through_k_adjoint uses `k.adjoint` itself."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.unit.op_kernels import mul64, mul64_adjoint, saxpy, saxpy_adjoint, scale_inplace

pytestmark = pytest.mark.gpu

KINDS = ["cuda", "ptx"]
_names = itertools.count()


def _torch():
    import torch  # a gpu run without torch fails here (never a skip)

    assert torch.cuda.is_available(), "the gpu marker needs torch with CUDA"
    return torch


def _pair(n: int, dtype=None, grad: bool = False):
    """Two random CUDA tensors of n elements."""
    torch = _torch()
    dtype = dtype or torch.float32
    return tuple(torch.randn(n, device="cuda", dtype=dtype, requires_grad=grad) for _ in range(2))


def _saxpy(kind: str):
    import sarek.torch as st

    return st.op(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device=kind,
                 name=f"sarek_test::saxpy_{kind}_{next(_names)}", adjoint=saxpy_adjoint)


def _mul64(kind: str):
    import sarek.torch as st

    return st.op(mul64, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device=kind,
                 name=f"sarek_test::mul64_{kind}_{next(_names)}", adjoint=mul64_adjoint)


@pytest.mark.parametrize("kind", KINDS)
def test_eager_on_cuda_tensors_in_place_on_the_current_stream(kind):
    torch = _torch()
    op = _saxpy(kind)
    x, y = _pair(1000)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):  # the launch follows torch's current stream
        out = op(2.0, x, y)
    s.synchronize()
    assert out.shape == x.shape and out.dtype == torch.float32 and out.device == x.device
    torch.testing.assert_close(out, 2.0 * x + y)
    # a non-contiguous read-only input is made contiguous, not refused
    xs = torch.randn(2000, device="cuda")[::2]
    torch.testing.assert_close(op(3.0, xs, y), 3.0 * xs + y)
    # the same specification again is the same operator (not a second registration)
    import sarek.torch as st

    same = dict(outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device=kind)
    assert st.op(saxpy, **same) is st.op(saxpy, **same)
    # zero elements: no launch, an empty output
    e = torch.empty(0, device="cuda")
    assert op(1.0, e, e).shape == (0,)


@pytest.mark.parametrize("cpu_device", ["interp", "opencl", "vulkan"])
def test_cpu_tensors_train_on_any_device(cpu_device):
    """CPU tensors run on `cpu_device` (the interpreter in place, OpenCL/Vulkan copying in and back), forward and
    backward through `k.adjoint`."""
    torch = _torch()
    import sarek.torch as st

    op = st.op(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", cpu_device=cpu_device,
               name=f"sarek_test::saxpy_cpu_{cpu_device}_{next(_names)}")
    x, y = torch.randn(100, requires_grad=True), torch.randn(100, requires_grad=True)
    w = torch.linspace(-1, 1, 100)
    out = op(0.5, x, y)
    torch.testing.assert_close(out.detach(), 0.5 * x.detach() + y.detach())
    (out * w).sum().backward()
    torch.testing.assert_close(x.grad, 0.5 * w)
    torch.testing.assert_close(y.grad, w)


def test_gradcheck_f64_on_the_interpreter():
    torch = _torch()
    import sarek.torch as st

    op = st.op(mul64, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", name=f"sarek_test::mul64_cpu_{next(_names)}")
    x = torch.randn(20, dtype=torch.float64, requires_grad=True)
    y = torch.randn(20, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(op, (x, y))


@pytest.mark.parametrize("kind", KINDS)
def test_mutating_operator(kind):
    torch = _torch()
    import sarek.torch as st

    op = st.op(scale_inplace, sizes={"n": "x"}, threads="n", device=kind,
               name=f"sarek_test::scale_{kind}_{next(_names)}")
    x = torch.arange(10, dtype=torch.float32, device="cuda")
    assert op(x, 3.0) is None
    torch.cuda.synchronize()
    torch.testing.assert_close(x, torch.arange(10, dtype=torch.float32, device="cuda") * 3.0)
    torch.library.opcheck(op, (torch.randn(64, device="cuda"), 2.0))

    def f(t):
        op(t, 2.0)
        return t + 1

    t = torch.ones(8, device="cuda")
    torch._dynamo.reset()
    assert torch._dynamo.explain(f)(t.clone()).graph_break_count == 0
    torch.testing.assert_close(torch.compile(f, fullgraph=True)(t.clone()), torch.full((8,), 3.0, device="cuda"))


@pytest.mark.parametrize("kind", KINDS)
def test_compile_fullgraph_has_no_graph_break(kind):
    torch = _torch()
    op = _saxpy(kind)

    def f(x, y):
        return op(2.0, torch.sin(x), y).relu() * 2

    x, y = _pair(4096)
    torch._dynamo.reset()
    ex = torch._dynamo.explain(f)(x, y)
    assert ex.graph_break_count == 0 and ex.graph_count == 1
    cf = torch.compile(f, fullgraph=True)  # fullgraph raises on any graph break
    torch.testing.assert_close(cf(x, y), f(x, y))
    x2 = torch.randn(333, device="cuda")  # another size: the fake derives shapes symbolically
    torch.testing.assert_close(cf(x2, x2), f(x2, x2))


@pytest.mark.parametrize("kind", KINDS)
def test_compiled_backward_has_no_graph_break(kind):
    torch = _torch()
    op = _mul64(kind)

    def loss(x, y):
        return (op(x, y) ** 2).sum()

    x, y = _pair(257, torch.float64, grad=True)
    torch._dynamo.reset()
    assert torch._dynamo.explain(loss)(x, y).graph_break_count == 0
    gx, gy = torch.autograd.grad(torch.compile(loss, fullgraph=True)(x, y), (x, y))
    ex, ey = torch.autograd.grad(((x * y + x) ** 2).sum(), (x, y))
    torch.testing.assert_close(gx, ex)
    torch.testing.assert_close(gy, ey)


@pytest.mark.parametrize("kind", KINDS)
def test_cuda_graph_capture_and_replay(kind):
    torch = _torch()
    op = _saxpy(kind)
    x, y = _pair(2048)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up: compile and load the kernel outside the capture
        for _ in range(2):
            op(2.0, x, y)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = op(2.0, x, y)
    for _ in range(3):
        x.copy_(torch.randn(2048, device="cuda"))
        g.replay()
        torch.cuda.synchronize()
        torch.testing.assert_close(out, 2.0 * x + y)


@pytest.mark.parametrize("kind", KINDS)
def test_opcheck(kind):
    torch = _torch()
    op = _mul64(kind)
    for n in (1, 100, 1000):
        x, y = _pair(n, torch.float64, grad=True)
        torch.library.opcheck(op, (x, y))
    op32 = _saxpy(kind)
    torch.library.opcheck(op32, (1.5, *_pair(64)))


@pytest.mark.parametrize("kind", KINDS)
def test_gradcheck_f64(kind):
    torch = _torch()
    op = _mul64(kind)
    x, y = _pair(50, torch.float64, grad=True)
    assert torch.autograd.gradcheck(op, (x, y))
    # f32 with a scalar argument: analytic gradients against torch's own autograd
    op32 = _saxpy(kind)
    a, b = _pair(64, grad=True)
    (op32(1.5, a, b) * torch.arange(64, device="cuda")).sum().backward()
    torch.testing.assert_close(a.grad, 1.5 * torch.arange(64, device="cuda", dtype=torch.float32))
    torch.testing.assert_close(b.grad, torch.arange(64, device="cuda", dtype=torch.float32))


@pytest.mark.parametrize("kind", KINDS)
def test_gradcheck_through_k_adjoint(kind):
    """No adjoint= given: the backward launches `k.adjoint`, built by the adjoint pass; compiled too."""
    torch = _torch()
    import sarek.torch as st

    op = st.op(mul64, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device=kind,
               name=f"sarek_test::mul64_k_adjoint_{kind}_{next(_names)}")
    x, y = _pair(40, torch.float64, grad=True)
    assert torch.autograd.gradcheck(op, (x, y))
    torch._dynamo.reset()
    gx, gy = torch.autograd.grad(torch.compile(lambda x, y: (op(x, y) ** 2).sum(), fullgraph=True)(x, y), (x, y))
    ex, ey = torch.autograd.grad(((x * y + x) ** 2).sum(), (x, y))
    torch.testing.assert_close(gx, ex)
    torch.testing.assert_close(gy, ey)


def test_training_step_through_a_kernel():
    """A user trains through a sarek kernel: a few SGD steps lower the loss."""
    torch = _torch()
    op = _mul64("cuda")
    target = torch.linspace(-1, 1, 128, device="cuda", dtype=torch.float64)
    x = torch.zeros(128, device="cuda", dtype=torch.float64, requires_grad=True)
    y = torch.full((128,), 0.5, device="cuda", dtype=torch.float64)
    losses = []
    for _ in range(40):  # d loss / d x = 2 * 1.5 * (1.5 x - t): each step scales the error by 1 - 0.1 * 4.5
        loss = ((op(x, y) - target) ** 2).sum()
        losses.append(float(loss))
        (g,) = torch.autograd.grad(loss, (x,))
        with torch.no_grad():
            x -= 0.1 * g
    assert losses[-1] < 1e-6 * losses[0], losses
    torch.testing.assert_close(x * 1.5, target)


def test_numpy_reference_agrees():
    torch = _torch()
    op = _mul64("ptx")
    xn, yn = np.random.rand(77), np.random.rand(77)
    out = op(torch.from_numpy(xn).cuda(), torch.from_numpy(yn).cuda()).cpu().numpy()
    np.testing.assert_allclose(out, xn * yn + xn)
