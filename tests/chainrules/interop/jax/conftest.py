"""The JAX bridge's tests run in float64 (``jax_enable_x64``), restored afterwards; float32 tests switch it off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

jax = pytest.importorskip("jax")


@pytest.fixture(autouse=True)
def x64() -> Iterator[None]:
    previous = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", previous)
