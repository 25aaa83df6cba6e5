#!/bin/sh
# aider-wrapper.sh: apply a model's reply with edapply and print the message
# to send back to the model.
#
#   model-reply | examples/aider-wrapper.sh [EDAPPLY FLAGS...]
#
# The reply is read on stdin and applied in the current directory (pass -C
# DIR, --strict, --verify CMD and the like through). On success the message
# summarizes what was applied; on failure (nothing written) it lists each
# error with its hint and the closest candidates, which is what the model
# needs to resend a working edit. The exit status is edapply's: 0 applied,
# 1 an edit failed, 2 no edit found, 3 --verify failed and was rolled back.
#
# Needs python3 to read the JSON receipt; $EDAPPLY names the binary (default: edapply on $PATH).
set -u

receipt=$("${EDAPPLY:-edapply}" --json "$@")
status=$?

printf '%s\n' "$receipt" | python3 -c '
import json, sys

try:
    r = json.loads(sys.stdin.read())
except ValueError:
    # edapply prints one receipt even for a bad command line; no JSON
    # means the binary itself did not run.
    print("edapply printed no receipt; see its message above.")
    sys.exit(0)
edits = sum(len(f.get("edits", [])) for f in r.get("files", []))
if r.get("ok"):
    print("%s %d edit%s to %d file%s:" % ("Would apply" if r.get("dry_run") else "Applied",
          edits, "" if edits == 1 else "s", len(r["files"]), "" if len(r["files"]) == 1 else "s"))
    for f in r["files"]:
        done = [e for e in f["edits"] if e["status"] == "already_applied"]
        note = " (%d already applied)" % len(done) if done else ""
        print("- %s: %s%s" % (f.get("new_path") or f["path"], f["op"], note))
    sys.exit(0)

if any(e.get("code") == "USAGE" for e in r.get("errors", [])):
    print("edapply could not run; nothing was written:")
else:
    print("Your edits were NOT applied; nothing was written. Fix these and resend the edits:")
for e in r.get("errors", []):
    where = e.get("path") or "response"
    if e.get("edit") is not None:
        where += ", edit %d" % e["edit"]
    if e.get("line"):
        where += ", line %d" % e["line"]
    print("- %s (%s): %s" % (e.get("code"), where, e.get("message")))
    if e.get("hint"):
        print("  Hint: " + e["hint"])
    for c in e.get("candidates", [])[:2]:
        if "excerpt" not in c:  # a path candidate: the file it probably means
            print("  Did you mean %s?" % c.get("path"))
            continue
        print("  The file has at lines %d-%d (%d%% similar):" % (c["line_start"], c["line_end"], int(100 * c["similarity"])))
        for line in c["excerpt"].splitlines():
            print("    " + line)
'
exit $status
