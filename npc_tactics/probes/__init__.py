"""Probes: is the agent's move the best one? Situations in the GM-query format, every legal move rolled out to
the end of the fight (common random numbers), the agent's choice against the best move's interval."""

from npc_tactics.probes.run import ContinuationResult, MoveRates, ProbeResult, run_probe, run_probe_file
from npc_tactics.probes.spec import Continuation, Probe, ProbeFile, load_probe_file, probe_files

__all__ = ["Continuation", "ContinuationResult", "MoveRates", "Probe", "ProbeFile", "ProbeResult",
           "load_probe_file", "probe_files", "run_probe", "run_probe_file"]
