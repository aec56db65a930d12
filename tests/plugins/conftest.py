"""The packages here are installed by tests/chainrules/test_plugins.py, never imported by pytest.

One of them fails on import on purpose, so their modules are not collected (not even for doctests).
"""

collect_ignore_glob = ["chainrules_*"]
