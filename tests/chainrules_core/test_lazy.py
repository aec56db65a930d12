"""Rules declared for loading on first use: ``declare_lazy_rules``."""

from __future__ import annotations

import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest

from chainrules_core import NoTangent, declare_lazy_rules, frule, rrule
from chainrules_core.lazy import declare_deferred_rules, load_all, pending_modules


@pytest.fixture
def rule_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A fresh function module and a rule module for it (unique names), on sys.path."""
    tag = uuid.uuid4().hex[:8]
    fmod, rmod = f"lazyfun_{tag}", f"lazyrules_{tag}"
    (tmp_path / f"{fmod}.py").write_text("def triple(x):\n    return 3 * x\n")
    (tmp_path / f"{rmod}.py").write_text(textwrap.dedent(f"""
        from chainrules_core import rrule, frule, NoTangent
        from {fmod} import triple

        @rrule.register(triple, float)
        def triple_rrule(x):
            def triple_pullback(dy):
                return NoTangent(), 3 * dy
            return triple(x), triple_pullback

        @frule.register(triple, float)
        def triple_frule(tangents, x):
            return triple(x), 3 * tangents[1]
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = __import__(fmod)
    yield module.triple, rmod
    load_all()  # leave nothing pending for other tests
    for name in (fmod, rmod):
        sys.modules.pop(name, None)


def test_declared_module_is_imported_by_the_first_lookup(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    assert rmod not in sys.modules
    assert rmod in pending_modules()
    y, pullback = rrule(triple, 2.0)
    assert rmod in sys.modules
    assert (y, pullback(1.0)) == (6.0, (NoTangent(), 3.0))
    assert rmod not in pending_modules()


def test_frule_lookup_loads_too(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    assert frule((NoTangent(), 1.0), triple, 2.0) == (6.0, 3.0)
    assert rmod in sys.modules


def test_find_and_signatures_load_the_module(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    assert len(rrule.signatures(triple)) == 1
    assert rrule.find(triple, float) is not None


def test_functions_and_hooks_see_lazy_rules(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    seen = []
    handle = rrule.on_new_rule(lambda f, sig: seen.append(f))
    try:
        assert triple in seen
        assert triple in rrule.functions()
    finally:
        handle.remove()


def test_concurrent_first_lookups_all_find_the_rule(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    results: list[object] = []
    barrier = threading.Barrier(8)

    def look() -> None:
        barrier.wait()
        results.append(rrule(triple, 1.0)[0])

    threads = [threading.Thread(target=look) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [3.0] * 8


def test_an_undeclared_function_is_answered_without_imports(rule_module):
    triple, rmod = rule_module
    declare_lazy_rules(rmod, [triple])
    assert rrule(len, [1.0]) is None
    assert rmod not in sys.modules


# ---- declare_deferred_rules: functions of a module the declaration does not import ---------------------------
def test_deferred_functions_are_declared_once_their_module_is_imported(tmp_path: Path, monkeypatch):
    tag = uuid.uuid4().hex[:8]
    fmod, rmod = f"deferredfun_{tag}", f"deferredrules_{tag}"
    (tmp_path / f"{fmod}.py").write_text("def quarter(x):\n    return x / 4\n")
    (tmp_path / f"{rmod}.py").write_text(textwrap.dedent(f"""
        from chainrules_core import rrule, NoTangent
        from {fmod} import quarter

        @rrule.register(quarter, float)
        def quarter_rrule(x):
            def quarter_pullback(dy):
                return NoTangent(), dy / 4
            return quarter(x), quarter_pullback
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        declare_deferred_rules(rmod, fmod, ["quarter", "not_in_this_version"])
        assert fmod not in sys.modules and rmod not in sys.modules      # the declaration imports nothing
        assert rmod in pending_modules()
        assert rrule(len, [1.0]) is None and rmod not in sys.modules    # other lookups import nothing either
        quarter = __import__(fmod).quarter
        y, pullback = rrule(quarter, 2.0)                               # found once its module is imported
        assert (y, pullback(1.0)) == (0.5, (NoTangent(), 0.25))
        assert rmod not in pending_modules()
    finally:
        load_all()
        for name in (fmod, rmod):
            sys.modules.pop(name, None)


def test_deferred_functions_of_an_imported_module_are_declared_at_once(rule_module):
    triple, rmod = rule_module
    declare_deferred_rules(rmod, triple.__module__, ["triple"])
    assert rrule.find(triple, float) is not None
    assert rmod in sys.modules


def test_load_all_imports_deferred_rule_modules(tmp_path: Path, monkeypatch):
    tag = uuid.uuid4().hex[:8]
    fmod, rmod = f"deferredfun_{tag}", f"deferredrules_{tag}"
    (tmp_path / f"{fmod}.py").write_text("def fifth(x):\n    return x / 5\n")
    (tmp_path / f"{rmod}.py").write_text(textwrap.dedent(f"""
        from chainrules_core import rrule, NoTangent
        from {fmod} import fifth

        @rrule.register(fifth, float)
        def fifth_rrule(x):
            return fifth(x), lambda dy: (NoTangent(), dy / 5)
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        declare_deferred_rules(rmod, fmod, ["fifth"])
        load_all()
        assert rmod in sys.modules and rmod not in pending_modules()
        assert sys.modules[fmod].fifth in rrule.functions()
    finally:
        for name in (fmod, rmod):
            sys.modules.pop(name, None)
