"""The ``scipy.sparse`` functions declared non-differentiable."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.sparse as sp

from chainrules import NoTangent, frule, rrule


@pytest.mark.parametrize(("f", "args", "kwargs"), [
    (sp.eye_array, (3,), {}), (sp.identity, (2,), {}), (sp.eye, (2, 3, 1), {}),
    (sp.random_array, ((3, 3),), {"density": 0.5, "rng": 0}), (sp.rand, (3, 3), {"rng": 0}),
    (sp.random, (3, 3), {"rng": 0}), (sp.issparse, (np.ones(2),), {}), (sp.isspmatrix_csr, (sp.eye(2),), {}),
    (sp.get_index_dtype, ((np.arange(2),),), {}), (sp.safely_cast_index_arrays, (sp.eye_array(2, format="csr"),), {}),
], ids=lambda v: getattr(v, "__name__", ""))
def test_no_tangents(f, args, kwargs):
    y, pullback = rrule(f, *args, **kwargs)
    assert pullback(None) == (NoTangent(),) * (len(args) + 1)
    _, dy = frule((NoTangent(),) * (len(args) + 1), f, *args, **kwargs)
    assert dy == NoTangent()
    if sp.issparse(y):
        assert sp.issparse(f(*args, **kwargs))


def test_files():
    buffer = io.BytesIO()
    _, pullback = rrule(sp.save_npz, buffer, sp.eye_array(2, format="csr"))
    assert pullback(None) == (NoTangent(),) * 3
    y, pullback = rrule(sp.load_npz, io.BytesIO(buffer.getvalue()))
    np.testing.assert_array_equal(y.toarray(), np.eye(2))
    assert pullback(None) == (NoTangent(), NoTangent())
