"""The portable policy: bundles (ONNX + schema.json) and the agent that runs them.

Needs numpy, onnxruntime, pydantic and the package's rules and encoders; never torch, stable-baselines3 or
gymnasium (a test imports it with those blocked).
"""
