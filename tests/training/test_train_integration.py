"""Real MaskablePPO training for tiny budgets: the run folder, interrupt-and-resume, the policy
agent.

Runs on the tiny ``fake`` system (tests/fakesys) so it stays fast and independent of any engine's
balance; one smoke run on the real OSE env.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents.base import Observation
from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.errors import UserError
from npc_tactics.training import callbacks
from npc_tactics.training.config import TrainConfig, load_train_config
from npc_tactics.training.run_dir import checkpoint_paths, read_eval_rows
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration


def tiny(system: str = "fake", scenario: str = "duel", **budget: int) -> TrainConfig:
    spec = {
        "timesteps": 512,
        "n_envs": 2,
        "eval_every": 256,
        "eval_episodes": 8,
        "checkpoint_every": 256,
    }
    spec.update(budget)
    return TrainConfig(
        system=system,
        scenario=scenario,
        ppo={"n_steps": 64, "batch_size": 64, "n_epochs": 2, "net_arch": [16]},
        budget=spec,
    )


def play(agent, system: str, scenario: str, fights: int = 5) -> int:  # type: ignore[no-untyped-def]
    """Play ``agent`` (side 0) against random-legal opponents through the engine; return decisions
    made."""
    from npc_tactics.agents.base import RandomLegalAgent
    from npc_tactics.dice import RngRoller
    from npc_tactics.registry import get_system

    info = get_system(system)
    engine = info.load("engine")(None)
    encoder = info.load("encoder")(engine)
    scen = info.load("content").load_scenario(scenario)
    other = RandomLegalAgent(engine, np.random.default_rng(1))
    made = 0
    for seed in range(fights):
        roller = RngRoller(np.random.default_rng(seed))
        state, _ = engine.new_combat(scen, roller)
        while engine.outcome(state) is None:
            decision = engine.pending(state)
            mask = engine.legal_mask(state, decision)
            obs = Observation(encoder.encode(state, decision), state, decision, engine)
            who = agent if decision.side == 0 else other
            action = who.act(obs, mask)
            assert mask[action]
            if who is agent:
                made += 1
                probs = agent.action_probabilities(obs.vector, mask)
                assert probs.sum() == pytest.approx(1.0) and np.all(probs[~mask] == 0)
            state, _ = engine.step(state, action, roller, inplace=True)
    return made


def test_train_writes_run_folder_and_policy_plays(fake_system: str, tmp_path: Path) -> None:
    run = train(tiny(), tmp_path / "run", progress=False, config_source="tiny.yaml")
    for name in ("config.yaml", "args.yaml", "meta.json", "eval_history.csv", "model.zip", "learning_curve.png"):
        assert (run / name).is_file(), name
    assert _eval_steps_in_tensorboard(run) == [0, 256, 512]  # each at its own timestep, as in the csv
    meta = json.loads((run / "meta.json").read_text())
    assert meta["finished"] and meta["timesteps"] == 512 and meta["seed"] == 0
    assert meta["spec"] == {"name": "fake", "version": "0.1"}
    assert meta["observation_size"] == 18  # 1 decision kind, 1 context field, 4 slots x 4 fields
    assert meta["action_names"][:2] == ["attack:enemy_0", "attack:enemy_1"] and meta["git_sha"]
    assert meta["config_source"] == "tiny.yaml"
    assert [s for s, _ in checkpoint_paths(run)] == [256, 512]
    assert [r["timesteps"] for r in read_eval_rows(run / "eval_history.csv")] == ["0", "256", "512"]
    assert load_train_config(run / "config.yaml") == tiny()  # the resolved config reloads as it was
    agent = load_policy_agent(run)
    assert agent.options == {}
    assert (agent.system, agent.scenario, agent.side, agent.name) == (
        "fake",
        "duel",
        0,
        "policy:run",
    )
    assert play(agent, "fake", "skirmish") > 0
    sampler = load_policy_agent(run, deterministic=False, checkpoint=256)
    assert play(sampler, "fake", "duel") > 0
    with pytest.raises(UserError, match="already exists"):
        train(tiny(), run, progress=False)


def test_interrupt_then_resume(fake_system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = callbacks.OutcomeStatsCallback._on_step
    calls = {"n": 0}

    def interrupting(self):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 200:  # 400 timesteps with 2 envs: past the 256 checkpoint, mid-rollout
            raise KeyboardInterrupt
        return original(self)

    monkeypatch.setattr(callbacks.OutcomeStatsCallback, "_on_step", interrupting)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        train(tiny(), out, progress=False)
    # the interrupt checkpoint counts only the steps the weights were trained on (last rollout
    # start: 384)
    assert [s for s, _ in checkpoint_paths(out)] == [256, 384]
    assert not (out / "model.zip").exists()
    monkeypatch.setattr(callbacks.OutcomeStatsCallback, "_on_step", original)

    run = train(tiny(timesteps=9999), out, resume=True, timesteps=768, progress=False)
    meta = json.loads((run / "meta.json").read_text())
    assert meta["timesteps"] == 768 and [s["start_timesteps"] for s in meta["segments"]] == [0, 384]
    rows = [int(r["timesteps"]) for r in read_eval_rows(run / "eval_history.csv")]
    assert rows == [0, 256, 512, 768]  # appended after the resume, on the same grid
    assert load_train_config(run / "config.yaml").budget.timesteps == 768
    assert len(list((run / "tb").iterdir())) == 1  # TensorBoard continues the same run
    # resuming a finished run to the same budget trains nothing more
    again = train(tiny(), out, resume=True, timesteps=768, progress=False)
    assert json.loads((again / "meta.json").read_text())["timesteps"] == 768


def test_resume_without_run_dir_is_a_user_error(fake_system: str, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="nothing to resume"):
        train(tiny(), tmp_path / "absent", resume=True, progress=False)


def test_ose_smoke(tmp_path: Path) -> None:
    run = train(
        tiny("ose", "goblin_duel", timesteps=256, eval_every=0, checkpoint_every=0),
        tmp_path / "ose",
        progress=False,
    )
    assert play(load_policy_agent(run), "ose", "goblin_duel", fights=3) > 0


def test_frozen_run_dir_as_opponent(fake_system: str, tmp_path: Path) -> None:
    quick = tiny(timesteps=256, eval_every=0, checkpoint_every=0)
    first = train(quick, tmp_path / "a", progress=False)
    config = quick.with_overrides(opponents=[str(first), "by-the-book"])
    run = train(config, tmp_path / "b", progress=False)
    opponents = [r["opponent"] for r in read_eval_rows(run / "eval_history.csv")]
    assert opponents == [str(first), "by-the-book"] * 2  # before and after training, each opponent


KILLED_SCRIPT = """
import importlib, tempfile, threading
from pathlib import Path
T = importlib.import_module("npc_tactics.training.train")  # the package's train() shadows the module name
from npc_tactics.training.config import TrainConfig
from tests.fakesys import registered

original, calls = T.write_checkpoint, []

def third_checkpoint_never_finishes(run_dir, model, state, keep):
    calls.append(int(model.num_timesteps))
    if len(calls) < 3:
        return original(run_dir, model, state, keep)
    # what a kill inside the third checkpoint's atomic write leaves behind: a half-written temp file
    folder = Path(run_dir) / "checkpoints"
    fd, _ = tempfile.mkstemp(prefix=".ckpt_{{:09d}}.zip.".format(calls[-1]), suffix=".tmp", dir=folder)
    with open(fd, "wb") as fh:
        fh.write(b"PK half a zip")
    print("killable", calls[-1], flush=True)
    threading.Event().wait()  # the parent kills this process now

T.write_checkpoint = third_checkpoint_never_finishes
with registered():
    T.train(TrainConfig.model_validate_json({config!r}), {out!r}, progress=False)
"""


def test_killed_run_resumes_from_last_complete_checkpoint(fake_system: str, tmp_path: Path) -> None:
    """SIGKILL in the middle of the third checkpoint (the child says when: no polling, no sleeps); the run
    resumes from the second, the last complete one, and the stale temp file goes."""
    import os
    import select
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "killed"
    config = tiny(timesteps=10**7, eval_every=512, checkpoint_every=256)
    script = KILLED_SCRIPT.format(config=config.model_dump_json(), out=str(out))
    with open(tmp_path / "child.err", "w+b") as err:
        # cwd = the repository root: ``python -c`` puts it on sys.path, so ``tests.fakesys`` imports
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=err, cwd=root)
        try:
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            line = proc.stdout.readline().decode() if ready and proc.stdout else ""
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        err.seek(0)
        assert line.split() == ["killable", "768"], err.read().decode()[-2000:]
    assert [s for s, _ in checkpoint_paths(out)] == [256, 512] and not (out / "model.zip").exists()
    assert list((out / "checkpoints").glob(".*.tmp"))
    run = train(config, out, resume=True, timesteps=768, progress=False)
    meta = json.loads((run / "meta.json").read_text())
    assert meta["finished"] and meta["timesteps"] == 768
    assert meta["segments"][-1]["start_timesteps"] == 512
    steps = [int(r["timesteps"]) for r in read_eval_rows(run / "eval_history.csv")]
    assert steps == [0, 512, 768]
    assert not [p for p in (run / "checkpoints").iterdir() if p.name.endswith(".tmp")]
    assert load_policy_agent(run).name == "policy:killed"


def _eval_steps_in_tensorboard(run: Path) -> list[int]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    (folder,) = (run / "tb").iterdir()
    events = EventAccumulator(str(folder))
    events.Reload()
    tags = [t for t in events.Tags()["scalars"] if t.startswith("eval/win_rate/")]
    assert tags
    return sorted({e.step for t in tags for e in events.Scalars(t)})
