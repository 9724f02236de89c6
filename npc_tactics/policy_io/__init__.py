"""The portable policy: what a runtime needs to let a trained NPC act, and nothing heavier.

:mod:`~npc_tactics.policy_io.agent` holds the ``Agent`` protocol and the ``Observation`` an agent reads;
:mod:`~npc_tactics.policy_io.bundle` reads and writes bundles (ONNX + schema.json) and
:mod:`~npc_tactics.policy_io.onnx_agent` runs them. Needs numpy, onnxruntime, pydantic and the package's rules and
encoders; never torch, stable-baselines3 or gymnasium (import-linter keeps it so, and a test imports it with those
blocked).
"""
