"""The portable side of a policy: what a runtime needs to let a trained NPC act, and nothing heavier.

Depends on numpy, the rules and the encoders only (import-linter keeps it so): no gymnasium, no torch.
:mod:`npc_tactics.policy_io.agent` holds the ``Agent`` protocol and the ``Observation`` an agent reads.
"""
