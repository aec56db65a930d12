"""pytest runs the examples of the Markdown pages here; the Sphinx configuration and its
extension are not tests (they are exercised by ``tests/test_docs_build.py``)."""

collect_ignore = ["conf.py", "_ext", "_build", "_generated", "api", "catalogue"]


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _restore_jax_x64(request):
    """``docs/jax.md`` turns on ``jax_enable_x64``: put it back as it was for what runs next."""
    page = str(getattr(request.node, "path", ""))
    if page.endswith("jax.md"):
        import jax

        previous = jax.config.read("jax_enable_x64")
        yield
        jax.config.update("jax_enable_x64", previous)
    else:
        yield
