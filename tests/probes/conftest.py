"""The tiny OSE bundle of tests/rollouts, for the probe command's policy paths."""

from tests.rollouts.conftest import tiny_bundle

__all__ = ["tiny_bundle"]
