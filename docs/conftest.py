"""pytest runs the examples of the Markdown pages here; the Sphinx configuration and its
extension are not tests (they are exercised by ``tests/test_docs_build.py``)."""

collect_ignore = ["conf.py", "_ext", "_build", "_generated", "api", "catalogue"]
