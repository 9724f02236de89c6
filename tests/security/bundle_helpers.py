"""Real hostile bundles for the bundle trust tests: the shipped OSE bundle with its network replaced by a small
ONNX graph built with ``onnx.helper`` (optionally with external data, NaN weights or another interface), and an
inotify watch that proves a file was never opened (by any code: Python, onnxruntime's C++, anything)."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
from onnx import TensorProto, helper, numpy_helper

SHIPPED = Path(__file__).resolve().parents[2] / "npc_tactics" / "policies" / "ose"
def _widths() -> tuple[int, int]:
    """The shipped OSE generalist's widths (observation values, actions), read from the installed rules."""
    from npc_tactics.registry import get_system

    system = get_system("ose")
    engine = system.make_engine()
    return int(system.encoder_class()(engine).size), len(engine.catalogue.names)


OBS, ACTIONS = _widths()


def _external(name: str, dims: list[int], location: str) -> TensorProto:
    t = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=dims, data_location=TensorProto.EXTERNAL)
    for key, value in (("location", location), ("offset", "0"), ("length", str(int(np.prod(dims)) * 4))):
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    return t


def network(obs: int = OBS, actions: int = ACTIONS, *, weight: np.ndarray | None = None, external: str | None = None,
            external_in_subgraph: bool = False, obs_dims: list[Any] | None = None, out_name: str = "probabilities",
            out_width: int | None = None) -> bytes:
    """observation @ W -> masked softmax, as ONNX bytes. ``external`` keeps W in that file (as an initializer,
    or inside an If node's subgraph); the other keywords give the graph another interface."""
    w = weight if weight is not None else np.full((obs, actions), 0.01, dtype=np.float32)
    width = out_width if out_width is not None else actions
    nodes = [helper.make_node("MatMul", ["observation", "W"], ["logits"]),
             helper.make_node("Where", ["action_mask", "logits", "masked"], ["kept"]),
             helper.make_node("Softmax", ["kept"], [out_name], axis=-1)]
    inits = [numpy_helper.from_array(np.array(-1e8, dtype=np.float32), "masked")]
    if external is not None and external_in_subgraph:
        branch = helper.make_graph([helper.make_node("Constant", [], ["W"], value=_external("Wc", [obs, actions],
                                                                                            external))],
                                   "branch", [], [helper.make_tensor_value_info("W", TensorProto.FLOAT, None)])
        inits.append(numpy_helper.from_array(np.array(True), "yes"))
        nodes.insert(0, helper.make_node("If", ["yes"], ["W"], then_branch=branch, else_branch=branch))
    elif external is not None:
        inits.append(_external("W", [obs, actions], external))
    else:
        inits.append(numpy_helper.from_array(w.astype(np.float32), "W"))
    graph = helper.make_graph(
        nodes, "policy",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, obs_dims or ["batch", obs]),
         helper.make_tensor_value_info("action_mask", TensorProto.BOOL, ["batch", actions])],
        [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, ["batch", width])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def make_bundle(folder: Path, onnx_bytes: bytes | None = None, edit: Any = None) -> Path:
    """A copy of the shipped OSE bundle (schema + network) with ``onnx_bytes`` as its network (sha256 updated)
    and ``edit(schema_dict)`` applied."""
    folder.mkdir(parents=True)
    shutil.copy(SHIPPED / "schema.json", folder / "schema.json")
    data = onnx_bytes if onnx_bytes is not None else (SHIPPED / "policy.onnx").read_bytes()
    (folder / "policy.onnx").write_bytes(data)
    schema = json.loads((folder / "schema.json").read_text())
    schema["onnx"]["sha256"] = hashlib.sha256(data).hexdigest()
    if edit is not None:
        edit(schema)
    (folder / "schema.json").write_text(json.dumps(schema))
    return folder


class OpenWatch:
    """inotify on one file: :meth:`opened` is True once anything opened or read it since the watch began."""

    IN_ACCESS, IN_OPEN, IN_NONBLOCK = 0x1, 0x20, 0o4000

    def __init__(self, path: Path) -> None:
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(self.IN_NONBLOCK)
        assert self.fd >= 0, os.strerror(ctypes.get_errno())
        wd = self.libc.inotify_add_watch(self.fd, os.fsencode(path), self.IN_OPEN | self.IN_ACCESS)
        assert wd >= 0, os.strerror(ctypes.get_errno())

    def opened(self) -> bool:
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return False
        return len(data) > 0  # any event: an open or a read

    def close(self) -> None:
        os.close(self.fd)
