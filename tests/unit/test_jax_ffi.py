"""sarek.jax on the GPU machine (`gpu` marker; JAX with CUDA must be installed there: a missing jax fails, it does
not skip): a kernel through XLA's FFI (the ctypes handler) eagerly and under jax.jit on cuda and ptx, in-place
kernels as aliased results, static scalars, and jax.grad through the custom_vjp (a hand-written adjoint with
`k.adjoint`'s contract, so they test the glue whatever the adjoint pass does; test_grad_through_k_adjoint uses
`k.adjoint` itself)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.unit.op_kernels import prod_sum, prod_sum_adjoint, saxpy, saxpy_adjoint, scale_inplace

pytestmark = pytest.mark.gpu
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # share the GPU with torch in one pytest run

KINDS = ["cuda", "ptx"]


def _jax():
    import jax  # a gpu run without jax fails here (never a skip)

    assert any(d.platform == "gpu" for d in jax.devices()), "the gpu marker needs jax with CUDA"
    return jax


def _saxpy(kind):
    import sarek.jax as sj

    return sj.primitive(saxpy, outputs={"out": "x"}, sizes={"n": "x"}, threads="n", device=kind,
                        adjoint=saxpy_adjoint)


@pytest.mark.parametrize("kind", KINDS)
def test_eager_and_jit(kind):
    jax = _jax()
    jnp = jax.numpy
    f = _saxpy(kind)
    x = jnp.arange(1000, dtype=jnp.float32)
    y = jnp.ones(1000, dtype=jnp.float32)
    np.testing.assert_allclose(np.asarray(f(2.0, x, y)), 2.0 * np.arange(1000) + 1, rtol=1e-6)
    g = jax.jit(lambda x, y: f(3.0, jnp.sin(x), y) * 2.0)
    np.testing.assert_allclose(np.asarray(g(x, y)), (3.0 * np.sin(np.arange(1000, dtype=np.float32)) + 1) * 2,
                               rtol=1e-5, atol=1e-5)
    x2 = jnp.linspace(0, 1, 77, dtype=jnp.float32)  # another shape: retraced, another descriptor
    np.testing.assert_allclose(np.asarray(g(x2, x2)), (3.0 * np.sin(np.asarray(x2)) + np.asarray(x2)) * 2,
                               rtol=1e-5, atol=1e-5)
    # a scalar is static: under jit it goes through static_argnums
    h = jax.jit(lambda a, x, y: f(a, x, y), static_argnums=0)
    np.testing.assert_allclose(np.asarray(h(0.5, x, y)), 0.5 * np.arange(1000) + 1, rtol=1e-6)


def test_traced_scalar_is_a_located_error():
    jax = _jax()
    from sarek.opspec import OpSpecError

    f = _saxpy("cuda")
    x = jax.numpy.ones(8, dtype=jax.numpy.float32)
    with pytest.raises(OpSpecError, match="scalar argument 'a' of saxpy must be a Python number"):
        jax.jit(lambda a, x: f(a, x, x))(2.0, x)


@pytest.mark.parametrize("kind", KINDS)
def test_in_place_kernel_returns_the_new_array(kind):
    jax = _jax()
    jnp = jax.numpy
    import sarek.jax as sj

    f = sj.primitive(scale_inplace, sizes={"n": "x"}, threads="n", device=kind)
    x = jnp.arange(16, dtype=jnp.float32)
    y = jax.jit(lambda x: f(x, 3.0))(x)
    np.testing.assert_allclose(np.asarray(y), 3.0 * np.arange(16))
    np.testing.assert_allclose(np.asarray(x), np.arange(16))  # JAX arrays stay immutable


@pytest.mark.parametrize("kind", KINDS)
def test_grad_through_a_kernel(kind):
    jax = _jax()
    jnp = jax.numpy
    f = _saxpy(kind)
    x = jnp.linspace(-1, 1, 300, dtype=jnp.float32)
    y = jnp.cos(x)

    def loss(x, y):
        return jnp.sum(f(1.5, x, y) ** 2)

    gx, gy = jax.jit(jax.grad(loss, argnums=(0, 1)))(x, y)
    ref = 2 * (1.5 * np.asarray(x) + np.asarray(y))
    np.testing.assert_allclose(np.asarray(gx), 1.5 * ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(gy), ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_two_outputs_and_vjp(kind):
    jax = _jax()
    jnp = jax.numpy
    import sarek.jax as sj

    f = sj.primitive(prod_sum, outputs={"p": "x", "s": "x"}, sizes={"n": "x"}, threads="n", device=kind,
                     adjoint=prod_sum_adjoint)
    x = jnp.arange(1, 65, dtype=jnp.float32)
    y = jnp.full(64, 2.0, dtype=jnp.float32)
    p, s = jax.jit(f)(x, y)
    np.testing.assert_allclose(np.asarray(p), np.asarray(x) * 2)
    np.testing.assert_allclose(np.asarray(s), np.asarray(x) + 2)

    def loss(x, y):
        p, s = f(x, y)
        return jnp.sum(p) + 3 * jnp.sum(s)

    gx, gy = jax.grad(loss, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(y) + 3)
    np.testing.assert_allclose(np.asarray(gy), np.asarray(x) + 3)


@pytest.mark.parametrize("kind", KINDS)
def test_grad_through_k_adjoint(kind):
    """No adjoint= given: the custom_vjp launches `k.adjoint`, built by the adjoint pass."""
    jax = _jax()
    jnp = jax.numpy
    import sarek.jax as sj

    f = sj.primitive(prod_sum, outputs={"p": "x", "s": "x"}, sizes={"n": "x"}, threads="n", device=kind)
    x = jnp.linspace(-2, 2, 100, dtype=jnp.float32)
    y = jnp.sin(x)

    def loss(x, y):
        p, s = f(x, y)
        return jnp.sum(p * p) + jnp.sum(s)

    gx, gy = jax.jit(jax.grad(loss, argnums=(0, 1)))(x, y)
    xn, yn = np.asarray(x), np.asarray(y)
    np.testing.assert_allclose(np.asarray(gx), 2 * xn * yn * yn + 1, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(gy), 2 * xn * xn * yn + 1, rtol=1e-5, atol=1e-5)
