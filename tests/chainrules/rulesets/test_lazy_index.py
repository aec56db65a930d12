"""The built-in rulesets load on first use, from an index that must match the modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = r"""
import json, sys
import numpy as np
import chainrules
from chainrules import rrule, frule
# rule modules only: the areas' package __init__s are imported by design (pkgutil finds the modules through them)
before = sorted(m for m in sys.modules if m.startswith("chainrules.rulesets.") and not m.split(".")[-1].startswith("_")
                and not hasattr(sys.modules[m], "__path__"))
y, pullback = rrule(np.linalg.cholesky, np.eye(2) * 4.0)
after_cholesky = "chainrules.rulesets.linalg.cholesky" in sys.modules
rules = sorted(
    f"{kind}|{getattr(f, '__module__', '')}.{getattr(f, '__qualname__', None) or getattr(f, '__name__', repr(f))}|{sig}"
    for kind, registry in (("rrule", rrule), ("frule", frule))
    for f in registry.functions()
    for sig in registry.signatures(f)
)
print(json.dumps({"before": before, "after_cholesky": after_cholesky, "rules": rules}))
"""


def _probe(mode: str) -> dict:
    env = dict(os.environ, CHAINRULES_RULESETS=mode, CHAINRULES_NO_PLUGINS="1")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_index_is_up_to_date():
    out = subprocess.run([sys.executable, "-m", "chainrules", "index", "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_lazy_and_eager_register_the_same_rules():
    lazy, eager = _probe("lazy"), _probe("eager")
    assert lazy["after_cholesky"]
    missing = sorted(set(eager["rules"]) - set(lazy["rules"]))
    extra = sorted(set(lazy["rules"]) - set(eager["rules"]))
    assert not missing and not extra, (missing[:10], extra[:10])
    assert len(lazy["rules"]) > 500


def test_import_declares_instead_of_importing():
    lazy = _probe("lazy")
    assert "chainrules.rulesets.linalg.cholesky" not in lazy["before"]
    assert len(lazy["before"]) < 10, lazy["before"]
