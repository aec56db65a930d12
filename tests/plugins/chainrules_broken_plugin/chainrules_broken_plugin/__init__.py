"""A rule package whose rules module fails on import."""
