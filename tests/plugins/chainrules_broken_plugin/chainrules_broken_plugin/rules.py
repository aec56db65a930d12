"""Fails on import, as a plugin with a bug (or a missing dependency) would."""

raise RuntimeError("this plugin is deliberately broken")
