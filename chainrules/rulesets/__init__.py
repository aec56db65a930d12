"""The built-in rulesets, one subpackage per area; importing this package registers them all.

Each area's ``__init__`` imports its modules (one module per family of functions), and
each module registers its rules when imported.
"""

from chainrules.rulesets import (  # noqa: F401
    arrays,
    contractions,
    elementwise,
    linalg,
    reductions,
    structured,
)
