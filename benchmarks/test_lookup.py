"""Cost of a rule lookup on the hot path of every AD call, against a plain Python call.

Each group compares one kind of lookup with the same call of a plain function that does
nothing (``plain(f, x)``), the cheapest thing an AD could do instead. Targets (issue 2):
an rrule cache hit at most 5x the plain call, a "no rule" answer at most 3x.

Run: ``python -m pytest benchmarks/test_lookup.py --benchmark-only -q``; the ratio table is
printed at the end and written to ``benchmarks/ratios.txt``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from chainrules_core import HasForwardsMode, HasReverseMode, NoTangent, RuleConfig, frule, rrule


def plain(f: Any, x: Any) -> None:
    """The baseline: a Python call with the same arguments that does nothing."""
    return None


def plain_frule(tangents: Any, f: Any, x: Any) -> None:
    """The baseline of an frule call: same arguments, no work."""
    return None


def plain_config(config: Any, f: Any, x: Any) -> None:
    """The baseline of a call with a config: same arguments, no work."""
    return None


def plain_frule_config(config: Any, tangents: Any, f: Any, x: Any) -> None:
    """The baseline of an frule call with a config: same arguments, no work."""
    return None


def _trivial_pullback(dy: Any) -> tuple[Any, Any]:
    return NoTangent(), dy


def bench_identity(x: Any) -> Any:
    """A function with a trivial rrule and frule (the rules return at once)."""
    return x


@rrule.register(bench_identity, float)
def bench_identity_rrule(x: float) -> Any:
    return x, _trivial_pullback


@frule.register(bench_identity, float)
def bench_identity_frule(tangents: Any, x: float) -> Any:
    return x, tangents[1]


def bench_no_rules(x: Any) -> Any:
    """A callable with no rules at all."""
    return x


def bench_configured(x: Any) -> Any:
    """A function whose rule requires a reverse-mode config."""
    return x


@rrule.register(bench_configured, float, config=HasReverseMode)
def bench_configured_rrule(config: Any, x: float) -> Any:
    return x, _trivial_pullback


@frule.register(bench_configured, float, config=HasForwardsMode)
def bench_configured_frule(config: Any, tangents: Any, x: float) -> Any:
    return x, tangents[1]


class BenchConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    """A config with both modes, as an AD framework would define it."""


X = 1.5
ARRAY = np.ones(3)
CONFIG = BenchConfig()


def _baseline(benchmark: Any, group: str) -> None:
    benchmark.group = group
    benchmark.extra_info["baseline"] = True


def _run(benchmark: Any, function: Any, *args: Any) -> None:
    """Time ``function(*args)`` with a fixed loop (500 calls per round, 1000 rounds) for every
    benchmark here: calibration otherwise picks 1 to 100 calls per round, and at 0.1 us a call
    the timer's own cost then differs between benchmarks of one group."""
    benchmark.pedantic(function, args=args, iterations=500, rounds=1000, warmup_rounds=10)


@pytest.mark.parametrize("group", ["rrule hit", "rrule no rule", "rrule no matching signature"])
def test_plain_call(benchmark: Any, group: str) -> None:
    _baseline(benchmark, group)
    _run(benchmark, plain, bench_identity, X)


def test_plain_frule_call(benchmark: Any) -> None:
    _baseline(benchmark, "frule hit")
    _run(benchmark, plain_frule, (None, 1.0), bench_identity, X)


def test_plain_config_call(benchmark: Any) -> None:
    _baseline(benchmark, "rrule config hit")
    _run(benchmark, plain_config, CONFIG, bench_configured, X)


def test_plain_frule_config_call(benchmark: Any) -> None:
    _baseline(benchmark, "frule config hit")
    _run(benchmark, plain_frule_config, CONFIG, (None, 1.0), bench_configured, X)


def test_rrule_hit(benchmark: Any) -> None:
    benchmark.group = "rrule hit"
    assert rrule(bench_identity, X) is not None
    _run(benchmark, rrule, bench_identity, X)


def test_rule_called_directly(benchmark: Any) -> None:
    """What the rule itself costs, without the lookup (part of every hit)."""
    benchmark.group = "rrule hit"
    _run(benchmark, bench_identity_rrule, X)


def test_rrule_no_rule(benchmark: Any) -> None:
    benchmark.group = "rrule no rule"
    assert rrule(bench_no_rules, X) is None
    _run(benchmark, rrule, bench_no_rules, X)


def test_rrule_no_matching_signature(benchmark: Any) -> None:
    benchmark.group = "rrule no matching signature"
    assert rrule(bench_identity, ARRAY) is None
    _run(benchmark, rrule, bench_identity, ARRAY)


def test_frule_hit(benchmark: Any) -> None:
    benchmark.group = "frule hit"
    tangents = (None, 1.0)
    assert frule(tangents, bench_identity, X) is not None
    _run(benchmark, frule, tangents, bench_identity, X)


def test_rrule_config_hit(benchmark: Any) -> None:
    benchmark.group = "rrule config hit"
    assert rrule(CONFIG, bench_configured, X) is not None
    _run(benchmark, rrule, CONFIG, bench_configured, X)


def test_frule_config_hit(benchmark: Any) -> None:
    benchmark.group = "frule config hit"
    tangents = (None, 1.0)
    assert frule(CONFIG, tangents, bench_configured, X) is not None
    _run(benchmark, frule, CONFIG, tangents, bench_configured, X)
