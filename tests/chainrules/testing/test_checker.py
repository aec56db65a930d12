"""chainrules/testing/checker.py: what ``check_function`` reports for each (sample, mode)."""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.testing import check_function
from chainrules_core import NoTangent, Sample, frule, rrule, sample_inputs


def _cube(x: Any) -> Any:
    return x ** 3


@rrule.register(_cube, float)
def _cube_rrule(x: float) -> Any:
    def cube_pullback(dy: Any) -> tuple[Any, Any]:
        return NoTangent(), 3 * x ** 2 * dy

    return _cube(x), cube_pullback


@sample_inputs(_cube)
def _cube_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.5, label="a float"), Sample(np.array([1.5, 2.0]), label="an array: no rule handles it")]


def _square(x: Any) -> Any:
    return x * x


@frule.register(_square, float)
def _square_frule(tangents: Any, x: float) -> Any:
    return _square(x), 2 * x * tangents[1]


@sample_inputs(_square)
def _square_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.5)]


def _outcomes(f: Any) -> dict[tuple[str, str], str]:
    return {(r.sample, r.mode): r.status for r in check_function(f)}


def test_a_sample_no_rrule_handles_fails_when_the_function_has_rrules():
    outcomes = _outcomes(_cube)
    assert outcomes[("a float", "rrule")] == "passed"
    assert outcomes[("an array: no rule handles it", "rrule")] == "failed"
    assert outcomes[("a float", "frule")] == "skipped"  # no frule at all: nothing to check


def test_a_function_with_no_rrule_is_skipped_in_reverse_mode():
    statuses = {mode: status for (_, mode), status in _outcomes(_square).items()}
    assert statuses == {"frule": "passed", "rrule": "skipped"}
