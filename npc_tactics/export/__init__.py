"""Export a trained run as a portable policy bundle (ONNX with the mask in the graph + schema.json).

This side needs torch and stable-baselines3 (it reads the training run); the bundle it writes is run by
:mod:`npc_tactics.policy_io` with onnxruntime alone.
"""
