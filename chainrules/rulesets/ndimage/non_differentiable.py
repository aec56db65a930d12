"""``scipy.ndimage`` functions declared non-differentiable: labels, binary morphology, positions, counts.

Their outputs are integers, booleans or slices (which have no tangent space), whatever their
inputs: their rules return ``NoTangent()`` for every argument
(:func:`chainrules_core.non_differentiable`), so an AD system stops differentiating there.

* labelling and segmentation: ``label``, ``find_objects``, ``value_indices``, ``watershed_ift``;
* binary morphology (the input is read as booleans): ``binary_erosion``, ``binary_dilation``,
  ``binary_opening``, ``binary_closing``, ``binary_hit_or_miss``, ``binary_propagation``,
  ``binary_fill_holes``; structuring elements: ``generate_binary_structure``,
  ``iterate_structure``;
* positions and counts: ``maximum_position``, ``minimum_position``, ``histogram``;
* the chamfer distance transform ``distance_transform_cdt`` (integer distances).

Not here, because something is differentiable: the Euclidean distance transforms, in their
``sampling`` (:mod:`.distance`); ``extrema``, whose extreme values are (:mod:`.measurements`);
grey-scale morphology (:mod:`.morphology`).

Examples
--------
>>> import numpy as np
>>> import scipy.ndimage as ndi
>>> from chainrules import rrule
>>> (labels, n), pullback = rrule(ndi.label, np.array([1.0, 0.0, 2.5]))
>>> labels, n, pullback(None)
(array([1, 0, 2], dtype=int32), 2, (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np
import scipy.ndimage as ndi

from chainrules_core import Sample, non_differentiable, sample_inputs

__all__ = ["NON_DIFFERENTIABLE"]

NON_DIFFERENTIABLE = (
    ndi.label, ndi.find_objects, ndi.value_indices, ndi.watershed_ift,
    ndi.binary_erosion, ndi.binary_dilation, ndi.binary_opening, ndi.binary_closing, ndi.binary_hit_or_miss,
    ndi.binary_propagation, ndi.binary_fill_holes, ndi.generate_binary_structure, ndi.iterate_structure,
    ndi.maximum_position, ndi.minimum_position, ndi.histogram, ndi.distance_transform_cdt,
)
"""Every function of ``scipy.ndimage`` declared here."""

for _f in NON_DIFFERENTIABLE:
    non_differentiable(_f)


_IMAGE = np.array([[0.0, 1.5, 2.0, 0.0], [0.0, 0.7, 0.0, 0.0], [3.0, 0.0, 0.0, 1.0]])


@sample_inputs(ndi.label, ndi.binary_erosion, ndi.binary_dilation, ndi.binary_opening,
               ndi.binary_closing, ndi.binary_hit_or_miss, ndi.binary_propagation, ndi.binary_fill_holes,
               ndi.maximum_position, ndi.minimum_position, ndi.distance_transform_cdt)
def _image_samples() -> list[Sample]:
    return [Sample(_IMAGE, label="a floating image"), Sample(_IMAGE > 0, label="a boolean image")]


@sample_inputs(ndi.find_objects)
def _find_objects_labels() -> list[Sample]:
    return [Sample(np.array([[1, 1, 0], [0, 2, 2]]), label="labels")]


@sample_inputs(ndi.value_indices)
def _value_indices_samples() -> list[Sample]:
    return [Sample(np.array([[1, 1, 0], [0, 2, 2]]), label="an integer array")]


@sample_inputs(ndi.watershed_ift)
def _watershed_samples() -> list[Sample]:
    markers = np.zeros((3, 4), dtype=np.int8)
    markers[0, 0], markers[2, 3] = 1, 2
    return [Sample((_IMAGE * 50).astype(np.uint8), markers, label="uint8 image, two markers")]


@sample_inputs(ndi.generate_binary_structure)
def _structure_samples() -> list[Sample]:
    return [Sample(2, 1, label="rank 2, connectivity 1")]


@sample_inputs(ndi.iterate_structure)
def _iterate_samples() -> list[Sample]:
    return [Sample(ndi.generate_binary_structure(2, 1), 2, label="twice")]


@sample_inputs(ndi.histogram)
def _histogram_samples() -> list[Sample]:
    # (per label, SciPy returns an object array of histograms, which the testers cannot compare)
    return [Sample(_IMAGE, 0.25, 3.25, 4, label="four bins (float edges)")]
