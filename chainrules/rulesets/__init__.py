"""The built-in rulesets, one subpackage per area and one module per family of functions.

Each module registers its rules when it is imported. ``import chainrules`` does not import
them all: it declares each module for the functions it covers, from the generated index
:mod:`chainrules.rulesets._index`, and the first lookup of one of those functions imports
the module (:mod:`chainrules.rulesets._lazy`). Questions about every rule
(``rrule.functions()``, ``on_new_rule`` hooks, the coverage report) import them all.
Set ``CHAINRULES_RULESETS=eager`` to import every module at once.
"""

from chainrules.rulesets._lazy import declare_rulesets

declare_rulesets()
