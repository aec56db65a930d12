"""``chainrules_core.floating_point`` enters the state ``np.errstate(divide/invalid/over="ignore")`` enters."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from chainrules_core.floating_point import ignore_fp_errors, quiet, restore


def _errcall(*args: object) -> None:
    return None


@pytest.mark.parametrize("outer", [
    {}, {"all": "raise"}, {"all": "warn", "under": "raise"}, {"divide": "call", "invalid": "print"},
])
def test_quiet_enters_the_state_errstate_enters(outer: dict[str, str]) -> None:
    old_call = np.seterrcall(_errcall)
    try:
        with np.errstate(**outer):
            before = np.geterr(), np.geterrcall()
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                expected = np.geterr(), np.geterrcall()
            for _ in range(2):  # entered twice: the second time from the remembered state
                token = quiet()
                try:
                    assert (np.geterr(), np.geterrcall()) == expected
                finally:
                    restore(token)
                assert (np.geterr(), np.geterrcall()) == before
                with ignore_fp_errors():
                    assert (np.geterr(), np.geterrcall()) == expected
                assert (np.geterr(), np.geterrcall()) == before
    finally:
        np.seterrcall(old_call)


def test_ignore_fp_errors_silences_divide_invalid_overflow_only() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"), ignore_fp_errors():
            assert np.divide(1.0, np.zeros(1))[0] == np.inf
            assert np.isnan(np.log(-np.ones(1)))[0]
            assert np.exp(np.full(1, 1e4))[0] == np.inf
            with pytest.raises(FloatingPointError, match="underflow"):
                np.multiply(np.full(1, 1e-300), 1e-300)


def test_ignore_fp_errors_cannot_be_entered_twice() -> None:
    context = ignore_fp_errors()
    with context, pytest.raises(TypeError, match="twice"):
        context.__enter__()
