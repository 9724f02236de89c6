"""Static checks of a bundle's ``policy.onnx``, made with the ``onnx`` package before onnxruntime sees the bytes.

Why before onnxruntime: a model whose tensors say ``data_location: EXTERNAL`` makes onnxruntime open the file
they name, relative to the server's working directory; onnxruntime refuses ``..`` and absolute paths, but a
plain ``secret.bin`` is read and becomes a weight (and its bytes may leak through the probabilities). So every
tensor of the model (initializers, node attributes, subgraphs, functions, training info: the walk is generic
over the protobuf) is inspected here and external data is refused outright; a bundle always holds its weights
inside ``policy.onnx``. The same walk refuses NaN or infinite weights (a diverged network ranks every move
alike, silently), and the graph's interface is checked: ``observation`` float32 ``[batch, N]`` and
``action_mask`` bool ``[batch, A]`` with fixed ``N`` and ``A``, one output ``probabilities`` float32
``[batch, A]``. Every refusal is one :class:`~npc_tactics.policy_io.bundle.BundleError` line naming the tensor,
input or output.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from npc_tactics.errors import UserError

__all__ = ["OnnxShape", "check_onnx"]

#: The interface every bundle network has (see npc_tactics.export.onnx_export).
INPUT_NAMES = ("observation", "action_mask")
OUTPUT_NAME = "probabilities"


class OnnxCheckError(UserError):
    """Raised by :func:`check_onnx`; read_bundle and OnnxPolicy turn it into a BundleError."""


@dataclass(frozen=True)
class OnnxShape:
    """The widths the network declares: observation values in, actions out."""

    obs_size: int
    n_actions: int


def _messages(msg: Any) -> Iterator[Any]:
    """``msg`` and every protobuf message nested in it, depth first (protobuf bounds the nesting at parse)."""
    yield msg
    for fd, value in msg.ListFields():
        if fd.message_type is None:
            continue
        if hasattr(value, "ListFields"):
            yield from _messages(value)
        else:
            for item in value:
                if hasattr(item, "ListFields"):
                    yield from _messages(item)


def _check_tensor(tensor: Any, where: str) -> None:
    """Refuse external data (before any value is read) and non-finite floating-point values."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    name = tensor.name or "(unnamed)"
    if tensor.data_location == onnx.TensorProto.EXTERNAL or len(tensor.external_data) > 0:
        location = next((e.value for e in tensor.external_data if e.key == "location"), "?")
        raise OnnxCheckError(f"{where}: tensor {name!r} keeps its values in an external file ({location!r}); "
                             "a bundle's policy.onnx must hold all its weights itself")
    floats = (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE, onnx.TensorProto.BFLOAT16)
    if tensor.data_type not in floats:
        return
    try:
        values = np.asarray(numpy_helper.to_array(tensor)).astype(np.float64)
    except Exception as exc:  # a tensor whose stored bytes do not match its declared shape
        raise OnnxCheckError(f"{where}: tensor {name!r} is malformed ({type(exc).__name__})") from None
    if not np.isfinite(values).all():
        bad = int((~np.isfinite(values)).sum())
        raise OnnxCheckError(f"{where}: tensor {name!r} has {bad} NaN or infinite values (a diverged training?); "
                             "the network's probabilities would be meaningless")


def _dims(value_info: Any) -> list[int | None]:
    """The declared dimensions of a graph input or output: an int, or None when symbolic or unknown."""
    shape = value_info.type.tensor_type.shape
    return [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else None for d in shape.dim]


def _width(value_info: Any, elem: int, kind: str, where: str) -> int:
    """The fixed second dimension of a ``[batch, width]`` tensor of element type ``elem``, or a refusal."""
    import onnx

    what = f"{where}: {'input' if kind != OUTPUT_NAME else 'output'} {kind!r}"
    tensor_type = value_info.type.tensor_type
    if not value_info.type.HasField("tensor_type") or tensor_type.elem_type != elem:
        raise OnnxCheckError(f"{what} is not a {onnx.TensorProto.DataType.Name(elem).lower()} tensor")
    dims = _dims(value_info)
    if len(dims) != 2:
        raise OnnxCheckError(f"{what} has rank {len(dims)}; expected [batch, width]")
    if dims[1] is None:
        raise OnnxCheckError(f"{what} has a symbolic or unknown width; expected a fixed [batch, width]")
    return dims[1]


def _interface(graph: Any, where: str) -> OnnxShape:
    import onnx

    initialized = {t.name for t in graph.initializer}
    inputs = {v.name: v for v in graph.input if v.name not in initialized}
    if set(inputs) != set(INPUT_NAMES):
        raise OnnxCheckError(f"{where}: the network's inputs are {sorted(inputs)}; expected observation and "
                             "action_mask")
    outputs = [v.name for v in graph.output]
    if outputs != [OUTPUT_NAME]:
        raise OnnxCheckError(f"{where}: the network's outputs are {outputs}; expected one, {OUTPUT_NAME!r}")
    obs = _width(inputs["observation"], onnx.TensorProto.FLOAT, "observation", where)
    n_actions = _width(inputs["action_mask"], onnx.TensorProto.BOOL, "action_mask", where)
    out = _width(graph.output[0], onnx.TensorProto.FLOAT, OUTPUT_NAME, where)
    if out != n_actions:
        raise OnnxCheckError(f"{where}: output {OUTPUT_NAME!r} has {out} values per row, the action mask "
                             f"{n_actions}; expected one probability per action")
    return OnnxShape(obs, n_actions)


def check_onnx(data: bytes, where: str = "policy.onnx") -> OnnxShape:
    """Parse ``data`` (never touching any other file) and check it (module docstring); its interface widths.
    Raises :class:`OnnxCheckError` (a UserError) naming ``where``."""
    import onnx

    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except Exception as exc:  # protobuf's DecodeError (its module has no type stubs here)
        raise OnnxCheckError(f"{where}: not a valid ONNX model ({type(exc).__name__})") from None
    if not model.HasField("graph"):
        raise OnnxCheckError(f"{where}: not a valid ONNX model (no graph)")
    for msg in _messages(model):
        if isinstance(msg, onnx.TensorProto):
            _check_tensor(msg, where)
    return _interface(model.graph, where)
