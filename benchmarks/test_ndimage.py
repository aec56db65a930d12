"""scipy.ndimage: the pullback of chainrules against the primal, JAX and PyTorch.

Groups (each a ratio to the SciPy primal, the baseline):

* ``gaussian_filter 512x512`` (sigma 2, mode 'reflect', float64): chainrules' pullback with
  respect to the input (the adjoint filter, one SciPy call) and with respect to the input and
  sigma; PyTorch's backward of the same separable Gaussian as two ``conv1d`` passes with
  reflected padding (its 'reflect' repeats no edge sample, SciPy's 'mirror': the same cost).
  JAX has no Gaussian filter.
* ``map_coordinates 512x512 order 3`` (a 512 x 512 image sampled at 512 x 512 points, mode
  'nearest'): chainrules' pullback with respect to the input (prefilter adjoint included) and
  with respect to the input and the coordinates. JAX's ``map_coordinates`` stops at order 1.
* ``map_coordinates 512x512 order 1``: the same at order 1, with JAX's jitted ``vjp`` of
  ``jax.scipy.ndimage.map_coordinates`` and PyTorch's ``grid_sample`` (bilinear, border
  padding) backward, both with respect to the image and the coordinates.

The pullbacks are timed alone (the forward pass and the rule call done beforehand),
cotangents unthunked. Run: ``python -m pytest benchmarks/test_ndimage.py --benchmark-only -q``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None

RNG = np.random.default_rng(0)
IMAGE = RNG.standard_normal((512, 512))
SIGMA = 2.0
DY = RNG.standard_normal((512, 512))
_rows, _cols = np.meshgrid(np.linspace(0.3, 510.7, 512), np.linspace(0.2, 510.6, 512), indexing="ij")
COORDS = np.stack([_rows + 0.4 * RNG.standard_normal(_rows.shape), _cols + 0.4 * RNG.standard_normal(_cols.shape)])
ROUNDS = 9


def _run(benchmark: Any, group: str, fn: Any, baseline: bool = False) -> None:
    benchmark.group = group
    if baseline:
        benchmark.extra_info["baseline"] = True
    benchmark.pedantic(fn, rounds=ROUNDS, iterations=1, warmup_rounds=1)


# ---- gaussian_filter ----------------------------------------------------------------------------------
GAUSS = "gaussian_filter 512x512"


def test_gaussian_primal(benchmark: Any) -> None:
    _run(benchmark, GAUSS, lambda: ndi.gaussian_filter(IMAGE, SIGMA), baseline=True)


def test_gaussian_chainrules_input(benchmark: Any) -> None:
    _, pullback = rrule(ndi.gaussian_filter, IMAGE, SIGMA)
    np.testing.assert_allclose(unthunk(pullback(DY)[1]), ndi.gaussian_filter(DY, SIGMA), atol=1e-12)
    _run(benchmark, GAUSS, lambda: unthunk(pullback(DY)[1]))


def test_gaussian_chainrules_input_and_sigma(benchmark: Any) -> None:
    _, pullback = rrule(ndi.gaussian_filter, IMAGE, SIGMA)
    _run(benchmark, GAUSS, lambda: [unthunk(c) for c in pullback(DY)[1:3]])


def _gauss_kernel() -> np.ndarray:
    radius = int(4.0 * SIGMA + 0.5)
    k = np.exp(-0.5 * (np.arange(-radius, radius + 1) / SIGMA) ** 2)
    return k / k.sum()


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
def test_gaussian_torch_conv(benchmark: Any) -> None:
    import torch
    import torch.nn.functional as functional

    kernel = torch.tensor(_gauss_kernel())
    r = (kernel.numel() - 1) // 2
    x = torch.tensor(IMAGE, requires_grad=True)

    def blur(t: Any) -> Any:
        t = functional.pad(t[None, None], (r, r, 0, 0), mode="reflect")
        t = functional.conv2d(t, kernel.view(1, 1, 1, -1))
        t = functional.pad(t, (0, 0, r, r), mode="reflect")
        return functional.conv2d(t, kernel.view(1, 1, -1, 1))[0, 0]

    y = blur(x)
    dy = torch.tensor(DY)
    _run(benchmark, GAUSS, lambda: torch.autograd.grad(y, x, dy, retain_graph=True)[0])


# ---- map_coordinates ------------------------------------------------------------------------------------
def _map_group(order: int) -> str:
    return f"map_coordinates 512x512 order {order}"


@pytest.mark.parametrize("order", [3, 1])
def test_map_primal(benchmark: Any, order: int) -> None:
    _run(benchmark, _map_group(order), lambda: ndi.map_coordinates(IMAGE, COORDS, order=order, mode="nearest"),
         baseline=True)


@pytest.mark.parametrize("order", [3, 1])
def test_map_chainrules_input(benchmark: Any, order: int) -> None:
    _, pullback = rrule(ndi.map_coordinates, IMAGE, COORDS, order=order, mode="nearest")
    _run(benchmark, _map_group(order), lambda: unthunk(pullback(DY)[1]))


@pytest.mark.parametrize("order", [3, 1])
def test_map_chainrules_input_and_coordinates(benchmark: Any, order: int) -> None:
    _, pullback = rrule(ndi.map_coordinates, IMAGE, COORDS, order=order, mode="nearest")
    _run(benchmark, _map_group(order), lambda: [unthunk(c) for c in pullback(DY)[1:3]])


@pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")
def test_map_jax_order1(benchmark: Any) -> None:
    import jax
    import jax.numpy as jnp
    from jax.scipy.ndimage import map_coordinates

    jax.config.update("jax_enable_x64", True)
    image, coords, dy = jnp.asarray(IMAGE), jnp.asarray(COORDS), jnp.asarray(DY)
    y, vjp_fn = jax.vjp(lambda a, c: map_coordinates(a, list(c), order=1, mode="nearest"), image, coords)
    np.testing.assert_allclose(np.asarray(y), ndi.map_coordinates(IMAGE, COORDS, order=1, mode="nearest"), atol=1e-9)
    pullback = jax.jit(vjp_fn)

    def run() -> Any:
        da, dc = pullback(dy)
        return da.block_until_ready(), dc.block_until_ready()

    _run(benchmark, _map_group(1), run)


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
def test_map_torch_grid_sample_order1(benchmark: Any) -> None:
    import torch
    import torch.nn.functional as functional

    image = torch.tensor(IMAGE, requires_grad=True)
    # grid_sample's normalised (x, y) in [-1, 1] with align_corners=True: pixel centres at the ends
    grid = torch.tensor(np.stack([COORDS[1], COORDS[0]], axis=-1) / 511.0 * 2 - 1, requires_grad=True)
    y = functional.grid_sample(image[None, None], grid[None], mode="bilinear", padding_mode="border",
                               align_corners=True)
    np.testing.assert_allclose(y[0, 0].detach().numpy(), ndi.map_coordinates(IMAGE, COORDS, order=1, mode="nearest"),
                               atol=1e-9)
    dy = torch.tensor(DY)[None, None]
    _run(benchmark, _map_group(1), lambda: torch.autograd.grad(y, (image, grid), dy, retain_graph=True))
