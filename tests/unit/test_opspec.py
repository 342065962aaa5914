"""sarek.opspec (a kernel as a framework operator: roles, shapes, threads, schema, FFI plans) and the ctypes
XLA FFI handler (sarek.xla_ffi), without torch or JAX: the logic sarek.torch and sarek.jax share."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import numpy as np
import pytest

import sarek
from sarek import Array, Vec, f16, f32, f64, i32, kernel
from sarek.gpu import global_thread_id
from sarek import xla_ffi
from sarek.opspec import OpSpec, OpSpecError, ffi_plan, op_name
from tests.unit.op_kernels import saxpy, scale_inplace


@kernel
def two_outputs(x: Vec[f64], idx: Vec[i32], lo: Vec[f64], hi: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        lo[i] = x[idx[i]] - 1.0
        hi[i] = x[idx[i]] + 1.0


@kernel
def rows(a: Array[f32, 2], r: Vec[f32]):
    i = global_thread_id
    if i < a.shape[0]:
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
        r[i] = acc


@kernel
def reads_only(x: Vec[f32], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = x[i]


def test_roles_schema_and_shapes():
    s = OpSpec.make(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    assert [p.role for p in s.params] == ["scalar", "array", "array", "output", "size"]
    assert [p.name for p in s.arguments] == ["a", "x", "y"]
    assert s.schema() == "(float a, Tensor x, Tensor y) -> Tensor"
    assert s.adjoint_schema() == "(float a, Tensor x, Tensor y, Tensor out, Tensor grad_out) -> (Tensor, Tensor)"
    x, y = np.zeros(7, np.float32), np.zeros(7, np.float32)
    env = s.bind((2.0, x, y))
    assert env["n"] == 7 and s.output_shapes(env) == [(7,)] and s.launch_threads(env) == (7,)
    o = np.zeros(7, np.float32)
    assert s.kernel_args(env, [o])[3] is o and s.kernel_args(env, [o])[4] == 7
    adj = s.adjoint_args(env, [o], {"x": "dx", "y": "dy", "out": "dout"})
    assert adj[5:] == ["dx", "dy", "dout"]  # one per float array parameter, in parameter order
    assert [p.name for p in s.differentiable] == ["x", "y"]
    same = OpSpec.make(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    assert same == s and hash(same) == hash(s)  # sarek.torch.op returns the operator it made for an equal spec


@kernel
def widen(h: Vec[f16], x: Vec[f32], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = f32(h[i]) * x[i]


def test_f16_arrays_have_no_adjoint_array():
    s = OpSpec.make(widen, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    assert [p.name for p in s.params if p.is_float_array] == ["x", "out"]  # k.adjoint's contract: f32/f64 only
    assert [p.name for p in s.differentiable] == ["x"]


def test_mutated_argument_and_no_output():
    s = OpSpec.make(scale_inplace, sizes={"n": "x.shape[0]"}, threads="x")
    assert [p.role for p in s.params] == ["mutated", "scalar", "size"]
    assert s.schema() == "(Tensor(a0!) x, float s) -> ()"
    assert s.differentiable == []  # a mutated array has no gradient


def test_several_outputs_integer_inputs_and_extents():
    s = OpSpec.make(two_outputs, outputs={"lo": "idx", "hi": ("idx.shape[0]",)}, sizes={"n": "idx"},
                    threads=("n",))
    assert s.schema() == "(Tensor x, Tensor idx) -> (Tensor, Tensor)"
    env = s.bind((np.zeros(10), np.zeros(4, np.int32)))
    assert s.output_shapes(env) == [(4,), (4,)] and s.launch_threads(env) == (4,)
    assert [p.name for p in s.differentiable] == ["x"]  # idx is an integer array
    assert [p.name for p in s.params if p.is_float_array] == ["x", "lo", "hi"]


def test_constant_and_scalar_sizes_and_2d_threads():
    s = OpSpec.make(rows, outputs={"r": ("a.shape[0]",)}, threads=("a.shape[0]", 1))
    env = s.bind((np.zeros((3, 5), np.float32),))
    assert s.output_shapes(env) == [(3,)] and s.launch_threads(env) == (3, 1)
    s2 = OpSpec.make(reads_only, outputs={"y": "n"}, threads="n")
    env2 = s2.bind((np.zeros(9, np.float32), 6))
    assert s2.schema() == "(Tensor x, int n) -> Tensor"
    assert s2.output_shapes(env2) == [(6,)] and s2.launch_threads(env2) == (6,)
    s3 = OpSpec.make(reads_only, outputs={"y": 5}, sizes={"n": 5}, threads=5)
    assert s3.output_shapes(s3.bind((np.zeros(5, np.float32),))) == [(5,)]


@pytest.mark.parametrize("kw, message", [
    ({"outputs": {"z": "x"}, "threads": "n"}, "outputs= names 'z', which is no parameter of saxpy(a, x, y, out, n)"),
    ({"outputs": {"a": "x"}, "threads": "n"}, "outputs= names 'a', a scalar parameter"),
    ({"outputs": {"out": "x"}, "sizes": {"a": "x"}, "threads": "n"}, "sizes= names 'a', which is not an integer"),
    ({"outputs": {"out": "x"}, "sizes": {"out": "x"}, "threads": "n"}, "sizes= names 'out', which is not an integer"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "x"}}, "threads= is required"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "x"}, "threads": (1, 1, 1, 1)}, "1 to 3 dimensions, got 4"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "x[0]"}, "threads": "n"}, "'x[0]' is no size"),
    ({"outputs": {"out": "x"}, "sizes": {"n": -1}, "threads": "n"}, "cannot be negative"),
    ({"outputs": {"out": "x"}, "sizes": {"n": 2.5}, "threads": "n"}, "a size is an int"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "a"}, "threads": "n"}, "'a' is a float32 scalar"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "out"}, "threads": "n"}, "(it is an output parameter)"),
    ({"outputs": {"out": "x"}, "sizes": {"n": "q"}, "threads": "n"}, "has no such parameter"),
    ({"outputs": {"out": ()}, "sizes": {"n": "x"}, "threads": "n"}, "0 extent(s) given"),
    ({"outputs": ["out"], "threads": "n"}, "outputs= maps output parameter names to shapes"),
])
def test_spec_errors_are_located_at_the_users_line(kw, message):
    with pytest.raises(OpSpecError) as e:
        OpSpec.make(saxpy, **kw)
    assert message in str(e.value)
    assert e.value.file == __file__ and isinstance(e.value, sarek.SarekError)


def test_more_spec_errors():
    with pytest.raises(OpSpecError, match=r"output 'x' of reads_only\(x, y, n\) is never written by the kernel"):
        OpSpec.make(reads_only, outputs={"x": "y"}, threads="n")
    with pytest.raises(OpSpecError, match="takes no array argument"):
        OpSpec.make(scale_inplace, outputs={"x": "n"}, threads="n")
    with pytest.raises(OpSpecError, match="expected a @sarek.kernel, got function"):
        OpSpec.make(lambda: None, threads=1)
    s = OpSpec.make(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    with pytest.raises(OpSpecError, match=r"takes 3 argument\(s\) \(a, x, y\), 2 given"):
        s.bind((1.0, np.zeros(3, np.float32)))


T = sarek.TypeVar("T", f32, f64)


@kernel
def g(x: Vec[T], y: Vec[T]):
    y[global_thread_id] = x[global_thread_id]


def test_generic_kernel_asks_for_an_instance():
    with pytest.raises(OpSpecError, match=r"generic in T: make the operator of an instance, e.g. g\[f32\]"):
        OpSpec.make(g, outputs={"y": "x"}, threads="x")
    assert OpSpec.make(g[f64], outputs={"y": "x"}, threads="x").outputs[0].dtype == np.float64


def test_op_names():
    assert op_name(None, "k", set()) == "sarek::k"
    assert op_name(None, "k", {"sarek::k", "sarek::k_2"}) == "sarek::k_3"
    assert op_name("mylib::fast", "k", {"mylib::fast"}) == "mylib::fast"
    with pytest.raises(OpSpecError, match="'namespace::name'"):
        op_name("fast", "k", set())


def test_ffi_plans():
    # saxpy forward: out is allocated by XLA; nothing aliased
    p = ffi_plan(["scalar", "vec", "vec", "vec", "scalar"], {3}, {3})
    assert p.operands == (1, 2) and p.results == (3,) and p.aliases == ()
    assert p.sources == (("scalar", 0), ("arg", 0), ("arg", 1), ("ret", 0), ("scalar", 4))
    # an in-place kernel: the written operand is aliased to its result and read from it
    q = ffi_plan(["vec", "scalar", "vec"], set(), {0})
    assert q.operands == (0, 2) and q.results == (0,) and q.aliases == ((0, 0),)
    assert q.sources == (("ret", 0), ("scalar", 1), ("arg", 1))


def test_frameworks_are_not_imported_by_import_sarek():
    code = ("import sys, sarek, sarek.xla_ffi; sarek.opspec, sarek.torch, sarek.jax; "  # the modules, not torch/jax
            "print('torch' in sys.modules, 'jax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_missing_framework_is_a_located_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "jax", None)
    import sarek.jax as sj
    import sarek.torch as st

    with pytest.raises(OpSpecError, match="sarek.torch needs PyTorch"):
        st.op(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    with pytest.raises(OpSpecError, match="sarek.jax needs JAX"):
        sj.primitive(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")(1.0, np.zeros(2, np.float32),
                                                                                np.zeros(2, np.float32))
    with pytest.raises(OpSpecError, match="device='opencl'"):
        sj.primitive(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device="opencl")


# ------------------------------------------------------------------------------------------ the ctypes handler


class _Frame:
    """A call frame built by hand, as XLA builds it: an API table whose stream and error functions are ours."""

    def __init__(self, args: list[np.ndarray], rets: list[np.ndarray], attrs: dict[str, int], ext: bool = False):
        self.errors: list[str] = []
        self.keep: list[object] = []

        def error_create(p):
            self.errors.append(p.contents.message.decode())
            return 1234

        def stream_get(p):
            p.contents.stream = 0xABC
            return None

        self.api = xla_ffi.Api()
        self.api.error_create = xla_ffi._ErrorCreate(error_create)
        self.api.stream_get = xla_ffi._StreamGet(stream_get)
        f = self.frame = xla_ffi.CallFrame()
        f.api = ctypes.pointer(self.api)
        f.args = self._list(args)
        f.rets = self._list(rets)
        names = (ctypes.POINTER(xla_ffi.ByteSpan) * len(attrs))()
        values = (ctypes.c_void_p * len(attrs))()
        types = (ctypes.c_int * len(attrs))(*([xla_ffi.ATTR_SCALAR] * len(attrs)))
        for i, (k, v) in enumerate(attrs.items()):
            raw = ctypes.create_string_buffer(k.encode())
            span = xla_ffi.ByteSpan(ctypes.cast(raw, ctypes.POINTER(ctypes.c_char)), len(k))
            val = ctypes.c_int64(v)
            sc = xla_ffi.Scalar(5, ctypes.cast(ctypes.pointer(val), ctypes.c_void_p))
            names[i] = ctypes.pointer(span)
            values[i] = ctypes.cast(ctypes.pointer(sc), ctypes.c_void_p)
            self.keep += [raw, span, val, sc]
        f.attrs = xla_ffi.Attrs(0, None, len(attrs), types, names, values)
        self.keep += [names, values, types]
        if ext:
            self.md = xla_ffi.Metadata()
            self.md.traits = 7
            self.mext = xla_ffi.MetadataExtension(xla_ffi.ExtensionBase(0, xla_ffi.EXTENSION_METADATA, None),
                                                  ctypes.pointer(self.md))
            f.extension_start = ctypes.cast(ctypes.pointer(self.mext), ctypes.POINTER(xla_ffi.ExtensionBase))

    def _list(self, arrays: list[np.ndarray]) -> xla_ffi._List:
        codes = {v: k for k, v in xla_ffi.DTYPES.items()}
        ptrs = (ctypes.c_void_p * len(arrays))()
        for i, a in enumerate(arrays):
            dims = (ctypes.c_int64 * a.ndim)(*a.shape)
            b = xla_ffi.Buffer(0, None, codes[a.dtype], a.ctypes.data, a.ndim, dims)
            ptrs[i] = ctypes.cast(ctypes.pointer(b), ctypes.c_void_p)
            self.keep += [dims, b]
        self.keep.append(ptrs)
        return xla_ffi._List(0, None, len(arrays), None, ptrs)

    def call(self, h) -> int:
        return h(ctypes.pointer(self.frame)) or 0


def test_handler_decodes_buffers_attributes_and_stream():
    x, y = np.zeros((2, 3), np.float32), np.zeros(4, np.int64)
    seen = []
    h = xla_ffi.handler(seen.append)
    fr = _Frame([x], [y], {"sarek_call": 41, "other": -3})
    assert fr.call(h) == 0 and not fr.errors
    (c,) = seen
    assert c.stream == 0xABC and c.attrs == {"sarek_call": 41, "other": -3}
    assert (c.args[0].ptr, c.args[0].shape, c.args[0].dtype) == (x.ctypes.data, (2, 3), np.float32)
    assert c.rets[0].__cuda_array_interface__ == {"shape": (4,), "typestr": "<i8", "data": (y.ctypes.data, False),
                                                  "version": 2}


def test_handler_answers_the_metadata_query_without_calling():
    seen = []
    fr = _Frame([], [], {}, ext=True)
    assert fr.call(xla_ffi.handler(seen.append)) == 0
    assert seen == [] and fr.md.traits == 0  # no command-buffer trait: a first launch may compile
    assert (fr.md.api_version.major_version, fr.md.api_version.minor_version) == (0, 1)


def test_handler_reports_exceptions_as_ffi_errors():
    def boom(call):
        raise ValueError("no such kernel")

    fr = _Frame([np.zeros(1, np.float32)], [], {})
    assert fr.call(xla_ffi.handler(boom)) == 1234
    assert fr.errors == ["sarek: ValueError: no such kernel"]
    fr2 = _Frame([np.zeros(1, np.float32)], [], {})
    ctypes.cast(fr2.frame.args.items[0], ctypes.POINTER(xla_ffi.Buffer)).contents.dtype = 15  # XLA's C64
    seen = []
    assert fr2.call(xla_ffi.handler(seen.append)) == 1234 and seen == []
    assert fr2.errors == ["sarek: TypeError: XLA element type 15 has no sarek type"]


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_hand_written_adjoints_follow_k_adjoint(device):
    """The GPU tests' hand-written adjoints (op_kernels) give what `k.adjoint` gives: the same contract."""
    from tests.unit.op_kernels import mul64, mul64_adjoint, prod_sum, prod_sum_adjoint, saxpy_adjoint

    rng = np.random.default_rng(3)
    n = 37
    cases = [(saxpy, saxpy_adjoint, [np.float32(1.5)], 2, 1, np.float32),
             (mul64, mul64_adjoint, [], 2, 1, np.float64),
             (prod_sum, prod_sum_adjoint, [], 2, 2, np.float32)]
    for k, hand, scalars, nin, nout, dt in cases:
        ins = [rng.standard_normal(n).astype(dt) for _ in range(nin)]
        outs = [np.zeros(n, dt) for _ in range(nout)]
        k.launch(*scalars, *ins, *outs, n, threads=n, device=device)
        seeds = [rng.standard_normal(n).astype(dt) for _ in range(nout)]
        got = []
        for a in (k.adjoint, hand):
            adj_in = [np.zeros(n, dt) for _ in range(nin)]
            a.launch(*scalars, *ins, *outs, n, *adj_in, *[s.copy() for s in seeds], threads=n, device=device)
            got.append(adj_in)
        for g, h in zip(*got):
            np.testing.assert_allclose(g, h, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------------ sarek.jax's bookkeeping, no JAX


class _FakeJax:
    """What sarek.jax asks of JAX besides ffi_call: ShapeDtypeStruct and numpy.zeros."""

    numpy = np

    class ShapeDtypeStruct:
        def __init__(self, shape, dtype):
            self.shape, self.dtype = tuple(shape), np.dtype(dtype)


def _interp_launch(kernel, kind, block, values, kinds, fresh, written, threads):
    """sarek.jax._launch with XLA's semantics on the interpreter: fresh outputs allocated, written operands
    copied first (aliased results), the results in parameter order."""
    vals = list(values)
    for i in sorted(fresh):
        vals[i] = np.zeros(fresh[i].shape, fresh[i].dtype)
    for i in sorted(written):
        if i not in fresh:
            vals[i] = np.array(vals[i], copy=True)
    kernel.launch(*vals, threads=threads[0] if len(threads) == 1 else threads, device="interp")
    return [vals[i] for i in sorted(set(fresh) | set(written)) if kinds[i] == "vec"]


def test_jax_forward_and_backward_bookkeeping(monkeypatch):
    """The JAX glue's argument order, output order, aliasing and gradient mapping, run on the interpreter with
    k.adjoint (only the XLA call itself is replaced)."""
    import sarek.jax as sj
    from tests.unit.op_kernels import prod_sum

    monkeypatch.setattr(sj, "_jax", lambda: _FakeJax)
    monkeypatch.setattr(sj, "_launch", _interp_launch)
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(33).astype(np.float32), rng.standard_normal(33).astype(np.float32)
    f = sj.primitive(prod_sum, outputs={"p": "x", "s": "x"}, sizes={"n": "x"}, threads="n")
    p, s = f._forward({}, [x, y])
    np.testing.assert_allclose(p, x * y, rtol=1e-6)
    np.testing.assert_allclose(s, x + y, rtol=1e-6)
    cp, cs = rng.standard_normal(33).astype(np.float32), rng.standard_normal(33).astype(np.float32)
    gx, gy = f._backward({}, [x, y], [p, s], [cp, cs])
    np.testing.assert_allclose(gx, cp * y + cs, rtol=1e-5)
    np.testing.assert_allclose(gy, cp * x + cs, rtol=1e-5)
    # a scalar, a size and one output (saxpy); the scalar's gradient is not asked for
    g = sj.primitive(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n")
    (out,) = g._forward({"a": 2.0}, [x, y])
    np.testing.assert_allclose(out, 2.0 * x + y, rtol=1e-6)
    gx2, gy2 = g._backward({"a": 2.0}, [x, y], [out], [cp])
    np.testing.assert_allclose(gx2, 2.0 * cp, rtol=1e-6)
    np.testing.assert_allclose(gy2, cp, rtol=1e-6)
    # an in-place kernel: the new array comes back, the argument is left alone (JAX arrays are immutable)
    h = sj.primitive(scale_inplace, sizes={"n": "x"}, threads="n")
    (x3,) = h._forward({"s": 3.0}, [x])
    np.testing.assert_allclose(x3, 3.0 * x, rtol=1e-6)
    assert not np.shares_memory(x3, x)


# ---------------------------------------------------------------------------- sarek.torch's glue, no PyTorch


class _T(np.ndarray):
    """A CPU 'tensor' for the glue: numpy memory (the interpreter uses it in place) with the methods it calls."""

    def contiguous(self, memory_format=None):
        return self

    def clone(self):
        return self.copy()

    @property
    def device(self):
        return type("Dev", (), {"type": "cpu", "index": None})()


class _Op:
    def __init__(self, name, fn, mutates_args, schema):
        self.name, self.fn, self.mutates, self.schema = name, fn, set(mutates_args), schema
        self.fake = self.backward = self.setup = None

    def __call__(self, *args):
        return self.fn(*args)

    def register_fake(self, f):
        self.fake = f

    def register_autograd(self, backward, setup_context):
        self.backward, self.setup = backward, setup_context


class _FakeTorch:
    """What sarek.torch asks of PyTorch: custom_op registration, allocation and dtypes."""

    float16, float32, float64, bfloat16 = np.float16, np.float32, np.float64, np.float16
    int8, int16, int32, int64, uint8, bool = np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_
    contiguous_format = None
    ops: dict = {}

    class library:
        @staticmethod
        def custom_op(name, fn, mutates_args, schema):
            op = _FakeTorch.ops[name] = _Op(name, fn, mutates_args, schema)
            return op

    @staticmethod
    def empty(shape, dtype, device):
        return np.empty(shape, dtype).view(_T)

    @staticmethod
    def zeros_like(t, memory_format=None):
        return np.zeros_like(np.asarray(t)).view(_T)

    @staticmethod
    def empty_like(t, memory_format=None):
        return np.empty_like(np.asarray(t)).view(_T)


class _Ctx:
    def save_for_backward(self, *ts):
        self.saved_tensors = ts


def test_torch_glue_forward_fake_and_backward(monkeypatch):
    """sarek.torch's operator bodies (forward, fake, setup_context, backward, the adjoint operator) run on the
    interpreter with k.adjoint; only the registration calls are PyTorch's in a real run."""
    import sarek.torch as st
    from tests.unit.op_kernels import prod_sum

    monkeypatch.setattr(st, "_torch", lambda: _FakeTorch)
    monkeypatch.setattr(st, "_DTYPES", {})
    rng = np.random.default_rng(9)
    x = rng.standard_normal(21).astype(np.float32).view(_T)
    y = rng.standard_normal(21).astype(np.float32).view(_T)
    op = st.op(prod_sum, outputs={"p": "x", "s": "x"}, sizes={"n": "x"}, threads="n", name="t::prod_sum")
    assert op.schema == "(Tensor x, Tensor y) -> (Tensor, Tensor)" and op.mutates == set()
    p, s = op(x, y)
    np.testing.assert_allclose(p, x * y, rtol=1e-6)
    np.testing.assert_allclose(s, x + y, rtol=1e-6)
    fp, fs = op.fake(x, y)
    assert fp.shape == fs.shape == (21,) and fp.dtype == np.float32
    ctx = _Ctx()
    op.setup(ctx, (x, y), (p, s))
    cp = rng.standard_normal(21).astype(np.float32).view(_T)
    gx, gy = op.backward(ctx, cp, None)  # an unused output's gradient is None: zeros
    np.testing.assert_allclose(gx, cp * y, rtol=1e-5)
    np.testing.assert_allclose(gy, cp * x, rtol=1e-5)
    aop = _FakeTorch.ops["t::prod_sum_adjoint"]
    assert aop.schema == "(Tensor x, Tensor y, Tensor p, Tensor s, Tensor grad_p, Tensor grad_s) -> (Tensor, Tensor)"
    assert [a.shape for a in aop.fake(x, y, p, s, cp, cp)] == [(21,), (21,)]
    # a scalar argument gets no gradient; the same call again is the same operator
    sx = st.op(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", name="t::saxpy")
    assert sx is st.op(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", name="t::saxpy")
    out = sx(1.5, x, y)
    ctx2 = _Ctx()
    sx.setup(ctx2, (1.5, x, y), out)
    ga, gx2, gy2 = sx.backward(ctx2, cp)
    assert ga is None
    np.testing.assert_allclose(gx2, 1.5 * cp, rtol=1e-6)
    np.testing.assert_allclose(gy2, cp, rtol=1e-6)
    # an in-place kernel: a mutated argument, no output, no autograd
    sc = st.op(scale_inplace, sizes={"n": "x"}, threads="n", name="t::scale")
    assert sc.mutates == {"x"} and sc.backward is None and sc.schema == "(Tensor(a0!) x, float s) -> ()"
    z = np.arange(5, dtype=np.float32).view(_T)
    assert sc(z, 2.0) is None
    np.testing.assert_allclose(z, 2.0 * np.arange(5))
    # zero elements: no launch
    e = np.zeros(0, np.float32).view(_T)
    assert op(e, e)[0].shape == (0,)
