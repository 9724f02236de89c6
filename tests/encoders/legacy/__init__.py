"""Frozen copy of the observation encoders as they were before issue 9 phase 2 (commit 138e59a), kept only so
tests/encoders/test_legacy_equivalence.py can check the declared encoders give the same values field by field.
Do not edit: it is the reference, not code in use."""
