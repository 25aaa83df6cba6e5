#!/bin/sh
# fixer.sh: a --repair fixer for edapply.
#
#   edapply --repair 'sh examples/fixer.sh' reply.md
#
# edapply runs it once per failed edit with a JSON object on stdin:
#   {"edit": {"op", "path", "old", "new", ...},
#    "error": {"code", "message", "hint", "candidates": [{"line_start", "line_end", "similarity", "excerpt"}]},
#    "file_excerpt": "the file's text around the best candidate"}
# and reads a corrected edit (any format edapply parses) from its stdout. A
# non-zero exit, or output with no edit, leaves the original error in place.
#
# This one is a deterministic stand-in for a cheap model: when the best
# candidate is at least 80% similar, it resends the edit with the
# candidate's text as SEARCH and the model's replacement unchanged. A real
# fixer would send the JSON (with file_excerpt) to a model, asking for a
# corrected SEARCH/REPLACE block, and print the model's reply.
#
# Needs python3 to read the JSON.
exec python3 -c '
import json, sys

req = json.load(sys.stdin)
e, err = req["edit"], req["error"]
cands = err.get("candidates") or []
if e["op"] != "replace" or not cands or cands[0]["similarity"] < 0.8:
    sys.exit(1)  # nothing this fixer can do: the original error stands
old, new = cands[0]["excerpt"], e.get("new", "")

def fence(text):
    run = longest = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)

f = fence(old + new)
sys.stdout.write("%s\n%s\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n%s\n" % (e["path"], f, old, new, f))
'
