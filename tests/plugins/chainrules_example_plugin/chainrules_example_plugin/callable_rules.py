"""An entry point may name a function: ``import chainrules`` calls it with no arguments."""

from chainrules_core import scalar_rule
from chainrules_example_plugin import halve


def register():
    scalar_rule(halve, lambda x: 0.5)
