"""Issue 25's measure: the files outside ``systems/<name>/`` whose code (identifiers and strings, not
docstrings or comments) names a system. ``python benchmarks/system_names.py [npc_tactics] [-v]``."""
import collections
import io
import pathlib
import re
import sys
import tokenize

PAT = {
 "ose": re.compile(r"(?<![A-Za-z])(ose|OSE)(?![a-z])"),
 "runequest": re.compile(r"runequest|RuneQuest|RQG|(?<![A-Za-z])rq(?![a-z])", re.I),
 "mrq": re.compile(r"(?<![A-Za-z])(mrq|MRQ)(?![a-z])"),
 "dicepool": re.compile(r"dicepool|DicePool|dice_pool", re.I),
}
root = pathlib.Path(sys.argv[1] if len(sys.argv)>1 else "npc_tactics")
hits = collections.defaultdict(set)
for p in root.rglob("*.py"):
    rel = p.relative_to(root).as_posix()
    if rel == "registry.py":
        continue
    src = p.read_text()
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    prev_sig = None
    for i,t in enumerate(toks):
        if t.type == tokenize.STRING:
            # docstring: string token that starts a logical line
            if prev_sig in (None, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                nxt = next((x for x in toks[i+1:] if x.type not in (tokenize.NL, tokenize.COMMENT)), None)
                if nxt is not None and nxt.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                    prev_sig = t.type
                    continue
        if t.type in (tokenize.NAME, tokenize.STRING):
            for s, pat in PAT.items():
                if rel.startswith(f"systems/{s}/"):
                    continue
                if pat.search(t.string):
                    hits[s].add(rel)
        if t.type not in (tokenize.NL, tokenize.COMMENT):
            prev_sig = t.type
for s in PAT:
    fs = sorted(hits[s])
    print(s, len(fs))
    if "-v" in sys.argv:
        for f in fs:
            print("   ", f)
