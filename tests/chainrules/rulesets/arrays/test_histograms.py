"""Rules of chainrules/rulesets/arrays/histograms.py, checked against finite differences.

Histograms are smooth only away from bin edges: the samples below sit at least 0.1 from every
edge (fixed or data-dependent), and the finite differences take steps of at most 1e-2.
"""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # registers the rules
import chainrules.rulesets.arrays.histograms  # noqa: F401  (until registration discovery lands)
from chainrules import NoTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule

# With 3 bins over (min, max) = (0, 3) the edges are 0, 1, 2, 3; with 4 bins over the range
# (-0.3, 3.3) they are -0.3, 0.6, 1.5, 2.4, 3.3; the array edges below avoid the samples too.
A = np.array([0.0, 0.4, 1.3, 1.6, 2.5, 3.0])
W = np.array([0.5, 1.0, 2.0, 1.5, 0.7, 1.2])
B = np.array([2.75, 2.3, 1.49, 1.22, 0.41, 0.05])    # its edges: 0.05, 0.95, 1.85, 2.75
EDGES = np.array([-0.5, 0.9, 2.0, 3.5])
RANGE = (-0.3, 3.3)


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize(("bins", "range_"), [(3, None), (4, RANGE), (EDGES, None), ("auto", None)],
                         ids=["int", "range", "edges", "auto"])
def test_histogram(bins, range_, density):
    for dtype in (np.float64, np.float32):
        a = A.astype(dtype)
        test_rrule(np.histogram, a, bins, range_, density)
        test_frule(np.histogram, a, bins, range_, density)


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize(("bins", "range_"), [(3, None), (4, RANGE), (EDGES, None)], ids=["int", "range", "edges"])
def test_histogram_weights_by_position(bins, range_, density, dtype):
    w = W.astype(dtype) + (0.5j * W[::-1] if dtype == np.complex128 else 0)
    a = A.astype(np.float32) if dtype == np.float32 else A
    test_rrule(np.histogram, a, bins, range_, density, w)
    test_frule(np.histogram, a, bins, range_, density, w)


def test_histogram_keywords_are_used_not_differentiated():
    test_rrule(np.histogram, A, fkwargs={"bins": 3, "density": True, "weights": W})
    test_frule(np.histogram, A, 3, fkwargs={"range": RANGE, "density": True, "weights": W})
    _, pullback = rrule(np.histogram, A, 3, weights=W, density=True)
    assert len(pullback((np.ones(3), np.ones(4)))) == 3        # f, a, bins: no slot for the weights
    test_rrule(np.histogram, A, 3, None, True, fkwargs={"weights": W})


def test_histogram_array_edges_as_a_list_and_range_with_ints():
    test_rrule(np.histogram, A, list(EDGES), None, True)
    test_frule(np.histogram, A, list(EDGES), None, True)
    test_rrule(np.histogram, A, 3, (-1, 4.0), True)            # an integer end of the range is not differentiated
    (_, _), pullback = rrule(np.histogram, A, 3, (-1, 4.0), True)
    assert pullback((np.ones(3), np.ones(4)))[3][0] == NoTangent()


def test_histogram_multidimensional_data_and_integers():
    test_rrule(np.histogram, A.reshape(2, 3), 3, None, True, W.reshape(2, 3))
    test_rrule(np.histogram, np.array([0, 1, 1, 4, 6]), 3, None, True)     # integer data: no tangent
    (_, _), pullback = rrule(np.histogram, np.array([0, 1, 1, 4, 6]), 3)
    assert pullback((NoTangent(), np.ones(4)))[1] == NoTangent()


def test_histogram_counts_have_no_tangent_and_data_only_moves_the_edges():
    (hist, _), pullback = rrule(np.histogram, A, 3)
    assert hist.dtype.kind == "i"
    da = unthunk(pullback(Tangent(tuple, NoTangent(), np.ones(4)))[1])
    assert np.count_nonzero(da) == 2                            # the smallest and the largest sample
    _, dy = frule((NoTangent(), np.ones(6), NoTangent()), np.histogram, A, 3)
    assert dy[0] == NoTangent()


def test_histogram_ties_at_the_extremes_share_equally():
    a = np.array([0.0, 0.0, 1.3, 1.6, 2.5, 3.0])
    (_, _), pullback = rrule(np.histogram, a, 3)
    da = unthunk(pullback((NoTangent(), np.array([1.0, 0.0, 0.0, 0.0])))[1])
    assert da[0] == da[1] != 0 and np.count_nonzero(da) == 2


def test_histogram_wrong_cotangent_and_complex_data():
    _, pullback = rrule(np.histogram, A, 3, None, True)
    with pytest.raises(ProjectionError, match=r"np\.histogram pullback: cotangent of output 1 has shape"):
        pullback((np.ones(3), np.ones(3)))
    assert rrule(np.histogram, A + 1j, 3) is None


# ---- histogram_bin_edges ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("bins", "range_"), [(3, None), (4, RANGE), (EDGES, None), ("sturges", None)],
                         ids=["int", "range", "edges", "sturges"])
def test_histogram_bin_edges(bins, range_):
    for dtype in (np.float64, np.float32):
        test_rrule(np.histogram_bin_edges, A.astype(dtype), bins, range_)
        test_frule(np.histogram_bin_edges, A.astype(dtype), bins, range_)
    test_rrule(np.histogram_bin_edges, A, bins, range_, W if not isinstance(bins, str) else None)
    test_rrule(np.histogram_bin_edges, A, fkwargs={"bins": bins, "range": range_})


# ---- histogramdd and histogram2d ---------------------------------------------------------------------------
@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize(("bins", "range_"), [
    (3, None), ([3, 2], [RANGE, (0.0, 3.0)]), ([EDGES, 3], None), ([4, np.array([-0.5, 1.1, 3.5])], [RANGE, None]),
], ids=["int", "ranges", "edges", "mixed"])
def test_histogramdd(bins, range_, density):
    sample = np.stack([A, B], axis=-1)
    test_rrule(np.histogramdd, sample, bins, range_, density)
    test_frule(np.histogramdd, sample, bins, range_, density)
    test_rrule(np.histogramdd, sample, bins, range_, density, W)
    test_frule(np.histogramdd, sample, bins, range_, density, W)
    test_rrule(np.histogramdd, [A, B], bins, range_, density, W)          # a sequence of coordinate arrays
    test_frule(np.histogramdd, [A, B], bins, range_, density, W)


def test_histogramdd_one_and_three_dimensions():
    test_rrule(np.histogramdd, A, 3, None, True)
    test_frule(np.histogramdd, A, 3, None, True)
    sample = np.stack([A, B, A[::-1] + 0.45], axis=-1)                   # edges 0.45, 1.45, 2.45, 3.45
    test_rrule(np.histogramdd, sample, 3, None, True, W)
    test_frule(np.histogramdd, sample, 3, None, True, W)
    test_rrule(np.histogramdd, sample.astype(np.float32), 3, None, True, W.astype(np.float32))


def test_histogramdd_keywords_and_edges_array():
    sample = np.stack([A, B], axis=-1)
    test_rrule(np.histogramdd, sample, fkwargs={"bins": 3, "density": True, "weights": W})
    test_rrule(np.histogramdd, sample, np.stack([EDGES, np.array([-0.5, 1.1, 2.0, 3.5])]), None, True)


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize(("bins", "range_"), [
    (3, None), ([3, 2], [RANGE, (0.0, 3.0)]), (EDGES, None), ([EDGES, 2], [None, (0.0, 3.0)]),
], ids=["int", "ranges", "one-edges-array", "mixed"])
def test_histogram2d(bins, range_, density):
    test_rrule(np.histogram2d, A, B, bins, range_, density)
    test_frule(np.histogram2d, A, B, bins, range_, density)
    test_rrule(np.histogram2d, A, B, bins, range_, density, W)
    test_frule(np.histogram2d, A, B, bins, range_, density, W)


def test_histogram2d_keywords_float32_and_wrong_cotangent():
    test_rrule(np.histogram2d, A, B, fkwargs={"bins": 3, "density": True, "weights": W})
    test_rrule(np.histogram2d, A.astype(np.float32), B.astype(np.float32), 3, None, True)
    _, pullback = rrule(np.histogram2d, A, B, 3)
    with pytest.raises(ProjectionError, match=r"np\.histogram2d pullback: cotangent of output 2 has shape"):
        pullback((ZeroTangent(), np.ones(4), np.ones(3)))
