"""Importing chainrules, or the interop package, imports no AD framework; the JAX bridge imports JAX only.

(One subprocess: a fresh interpreter is the only place where "not imported" can be seen.)
"""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
frameworks = lambda: sorted(m for m in ('jax', 'torch', 'autograd') if m in sys.modules)
import chainrules, chainrules.interop, chainrules.interop.errors, chainrules.interop._arguments
print(frameworks())
import chainrules.interop.jax
print(frameworks())
"""


def test_importing_chainrules_imports_no_framework_and_a_bridge_its_own_only() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split("\n")[:2] == ["[]", "['jax']"]
