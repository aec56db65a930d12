"""Rules of chainrules/rulesets/ndimage/rank_filters.py and morphology.py (both built on _selection.py).

The samples (every mode, footprints, structuring elements, per-axis sizes, float32, both
spellings) are checked against finite differences by tests/chainrules/test_every_rule.py.
Here: the entry each rule selects rebuilds SciPy's output exactly, in every mode and with
windows wider than the image (so the derivative is that of the entry SciPy returned), and
the documented tie convention.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.rulesets.ndimage._samples import MODES
from chainrules.rulesets.ndimage._selection import Selection
from chainrules.rulesets.ndimage.rank_filters import min_max_geometry, rank_geometry


def _rebuilt(selection, x, cval, structure=None):
    """The output the selection stands for: the selected entries (plus or minus the structure)."""
    flat = x.reshape(-1)
    value = np.where(selection.source >= 0, flat[np.maximum(selection.source, 0)], cval)
    if structure is not None:
        s = np.array([structure[p] for p in selection.positions])
        value = value + selection.sign * s[selection.offset]
    return value


@pytest.mark.parametrize("mode", MODES)
def test_min_and_max_select_scipys_entries(mode, rand):
    x = rand((3, 4))
    for f, kind in [(ndi.maximum_filter, "max"), (ndi.minimum_filter, "min")]:
        for size, footprint in [((5, 7), None), (None, np.array([[1, 0, 1], [0, 1, 1]], bool))]:
            y = f(x, size, footprint, None, mode, 0.3, 0)
            fp, origins, modes, _ = min_max_geometry(x, size, footprint, None, mode, 0, None)
            np.testing.assert_array_equal(_rebuilt(Selection(x, fp, origins, modes, 0.3, kind), x, 0.3), y)


@pytest.mark.parametrize("mode", MODES)
def test_rank_filters_select_scipys_entries(mode, rand):
    x = rand((3, 4))
    for rank in [1, 4, -3]:
        y = ndi.rank_filter(x, rank, (3, 5), None, None, mode, -0.2)
        fp, origins, modes = rank_geometry(x, (3, 5), None, mode, 0, None)
        selection = Selection(x, fp, origins, modes, -0.2, "match", y=y)
        assert np.all(selection.source != -2)
        np.testing.assert_array_equal(_rebuilt(selection, x, -0.2), y)


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
def test_grey_dilation_rebuilds_scipys_output(mode, rand):
    x, s = rand((3, 4)), 0.1 * rand((2, 3))
    _, pullback = rrule(ndi.grey_dilation, x, None, None, s, None, mode, 0.4, (0, 1))
    dx = unthunk(pullback(np.ones((3, 4)))[1])
    assert abs(dx.sum() + unthunk(pullback(np.ones((3, 4)))[7]) - 12.0) < 1e-12  # each output selects one entry


def test_a_tie_goes_to_the_first_footprint_element():
    # y[1] = max(x[0], x[1], x[2]) with x[0] == x[1]: the whole cotangent goes to x[0]
    x = np.array([2.0, 2.0, 0.0])
    _, pullback = rrule(ndi.maximum_filter1d, x, 3, -1, None, "constant", -5.0)
    np.testing.assert_array_equal(unthunk(pullback(np.array([0.0, 1.0, 0.0]))[1]), [1.0, 0.0, 0.0])


def test_percentile_and_a_floating_footprint_have_zero_derivatives(rand):
    from chainrules import ZeroTangent

    _, pullback = rrule(ndi.percentile_filter, rand((3, 4)), 40.0, None, np.ones((2, 2)))
    cotangents = pullback(rand((3, 4)))
    assert unthunk(cotangents[2]) == ZeroTangent() and unthunk(cotangents[4]) == ZeroTangent()
