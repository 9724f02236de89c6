"""Write a leaderboard's files all or nothing (staged in temporary files, then renamed: a full disk leaves no
part of them, :mod:`npc_tactics.evaluation.output`): the PNG plots, ``report.md`` (links the PNGs), ``report.html``
(self-contained: the same PNGs embedded as base64, no script, no external resource), ``results.json`` (every
number, no timing) and ``timing.json``."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from npc_tactics.leaderboard.document import Block, build_document

__all__ = ["render_html", "render_markdown", "write_report"]

STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:.3em .5em;"
    "text-align:left;vertical-align:top}th{background:#f3f3f3}img{max-width:100%;display:block;margin:1em 0}"
    "code{background:#f3f3f3;padding:0 .2em}figcaption{font-size:.85em;color:#555}"
)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(blocks: Sequence[Block], files: Mapping[str, str]) -> str:
    """Markdown with images linked as ``files[name]``."""
    out: list[str] = []
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            out += ["#" * int(b.kind[1]) + " " + b.text, ""]
        elif b.kind == "p":
            out += [b.text, ""]
        elif b.kind == "table":
            out.append("| " + " | ".join(_md_cell(h) for h in b.headers) + " |")
            out.append("|" + "---|" * len(b.headers))
            out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            out.append("")
        elif b.kind == "img" and b.text in files:
            out += [f"![{b.headers[0] if b.headers else b.text}]({files[b.text]})", ""]
    return "\n".join(out).rstrip() + "\n"


def _inline(text: str) -> str:
    """Escape, then the two Markdown marks the blocks use: ``**bold**`` and ```code```."""
    text = html.escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def render_html(blocks: Sequence[Block], images: Mapping[str, bytes], title: str) -> str:
    """One HTML page, images embedded as ``data:image/png;base64`` URIs."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"]
    for b in blocks:
        if b.kind in ("h1", "h2", "h3"):
            out.append(f"<{b.kind}>{html.escape(b.text)}</{b.kind}>")
        elif b.kind == "p":
            out.append(f"<p>{_inline(b.text)}</p>")
        elif b.kind == "table":
            head = "".join(f"<th>{html.escape(h)}</th>" for h in b.headers)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in b.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif b.kind == "img" and b.text in images:
            caption = html.escape(b.headers[0] if b.headers else b.text)
            data = base64.b64encode(images[b.text]).decode("ascii")
            out.append(f'<figure><img alt="{caption}" src="data:image/png;base64,{data}">'
                       f"<figcaption>{caption}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_report(data: Mapping[str, Any], out_dir: Path, command: str, timing: Mapping[str, Any],
                 plots: bool = True) -> dict[str, Path]:
    """Write every file of the report into ``out_dir`` (created), all or nothing; ``{role: path}``."""
    from npc_tactics.evaluation.output import write_all
    from npc_tactics.leaderboard.plots import cross_plot, section_plots

    images: dict[str, bytes] = {}
    if plots:
        for sec in data["sections"]:
            for name, png in section_plots(sec).items():
                images[f"{sec['label']}-{name}"] = png
        if len(data["sections"]) > 1:
            images["cross"] = cross_plot(data["sections"])
    names = {name: re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".png" for name in images}
    blocks = build_document(data, images, command)
    contents: dict[str, bytes | str] = {names[name]: png for name, png in images.items()}
    roles = {"report": "report.md", "html": "report.html", "results": "results.json", "timing": "timing.json"}
    contents[roles["report"]] = render_markdown(blocks, names)
    contents[roles["html"]] = render_html(blocks, images, f"Leaderboard: {data['suite']['name']}")
    contents[roles["results"]] = json.dumps(data, indent=2) + "\n"
    contents[roles["timing"]] = json.dumps(dict(timing), indent=2) + "\n"
    written = write_all(out_dir, contents)  # all or nothing: a full disk leaves no part of the report
    return {**{name: written[safe] for name, safe in names.items()},
            **{role: written[file] for role, file in roles.items()}}
