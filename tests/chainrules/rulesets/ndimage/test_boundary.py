"""The boundary extensions of chainrules/rulesets/ndimage/_boundary.py against scipy.ndimage itself."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

from chainrules.rulesets.ndimage._boundary import FILTER_MODES, extend, fold, source_indices
from chainrules.rulesets.ndimage._samples import MODES


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_source_indices_are_what_ndimage_reads(mode, n):
    # a one-hot kernel makes correlate1d read one extended position; x = arange(n) names its source
    L = 4 * n + 3  # pads wider than the line: the extension repeats
    c = L // 2
    expected = source_indices(n, c, L - 1 - c, mode)
    x = np.arange(n, dtype=float)
    for k in range(L):
        w = np.zeros(L)
        w[k] = 1.0
        read = ndi.correlate1d(x, w, mode=mode, cval=-1.0)
        np.testing.assert_array_equal(read, expected[np.arange(n) + k], err_msg=f"{mode}, n={n}, offset {k}")


@pytest.mark.parametrize("mode", sorted(set(FILTER_MODES.values())))
def test_fold_is_the_adjoint_of_extend(mode):
    rng = np.random.default_rng(0)
    x, cval = rng.standard_normal((3, 4)), 0.7
    before, after = 6, 9  # wider than the axis
    u = rng.standard_normal((3, 4 + before + after))
    extended = extend(x, 1, before, after, mode, cval)
    xbar, cbar = fold(u, 1, before, 4, mode)
    # <u, E x + cval p> = <E^T u, x> + cval <p, u>
    lhs = np.sum(u * extended)
    rhs = np.sum(xbar * x) + (0.0 if cbar is None else cval * cbar)
    assert abs(lhs - rhs) < 1e-12 * np.sum(np.abs(u * extended))
    assert (cbar is not None) == (mode == "constant")


def test_unknown_mode_is_an_error():
    with pytest.raises(RuntimeError, match="boundary mode 'periodic' not supported"):
        source_indices(3, 1, 1, "periodic")
