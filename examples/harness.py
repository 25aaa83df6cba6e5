#!/usr/bin/env python3
"""harness.py: a minimal agent loop around edapply, with no network.

It keeps the conversation as a list of messages. After the model's reply
is applied, the reply in the history is replaced by the receipt's
"normalized" text: the same reply with each SEARCH text as it stands in the
file and each replacement as written. The next turn's model then sees edits
that match the disk (not the drifted quotes it wrote), and a follow-up edit
that quotes its own earlier text still applies with --strict.

    python3 examples/harness.py [--root DIR] [--edapply PATH]

Without --root it runs the demo in a temporary directory with a canned
reply; a real harness would call its model where canned_model() is.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

DEMO_FILE = "greet.py"
DEMO_CONTENT = 'def greet(name):\n\treturn "Hello, " + name\n'

# What a model typically sends: it quoted the tab-indented line with four
# spaces and a trailing blank. edapply's ladder still applies it.
CANNED_REPLY = """I'll make the greeting friendlier.

greet.py
```python
<<<<<<< SEARCH
    return "Hello, " + name 
=======
    return "Hello, " + name + "!"
>>>>>>> REPLACE
```
"""


def canned_model(history):
    """Stands in for a model call: returns the assistant's reply text."""
    return CANNED_REPLY


def describe(error):
    """One line for the model: code, path, message and hint."""
    where = " " + error["path"] if error.get("path") else ""
    hint = " " + error["hint"] if error.get("hint") else ""
    return "%s%s: %s%s" % (error.get("code", "ERROR"), where, error.get("message", ""), hint)


def apply_reply(history, reply, root, edapply="edapply"):
    """Applies reply in root, records it in history, returns the receipt.

    The assistant message holds the normalized reply when edapply gives
    one, and a user message with the outcome follows it.
    """
    proc = subprocess.run([edapply, "--json", "-C", root], input=reply,
                          capture_output=True, text=True)
    try:
        receipt = json.loads(proc.stdout)
    except ValueError:
        # edapply always prints one receipt; this is a binary that did not run.
        receipt = {"ok": False, "files": [], "errors": [
            {"code": "USAGE", "message": proc.stderr.strip() or "edapply printed no receipt"}]}
    history.append({"role": "assistant", "content": receipt.get("normalized") or reply})
    if receipt.get("ok"):
        verb = "Would apply: " if receipt.get("dry_run") else "Applied: "
        feedback = verb + ", ".join(f["path"] for f in receipt.get("files", []))
    else:
        feedback = "Not applied:\n" + "\n".join(describe(e) for e in receipt.get("errors", []))
    history.append({"role": "user", "content": feedback})
    return receipt, proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="working tree (default: a demo in a temporary directory)")
    ap.add_argument("--edapply", default="edapply", help="the edapply binary")
    args = ap.parse_args()

    root = args.root
    if root is None:
        demo = tempfile.TemporaryDirectory(prefix="harness-")
        root = demo.name
        with open(os.path.join(root, DEMO_FILE), "w") as f:
            f.write(DEMO_CONTENT)

    history = [{"role": "user", "content": "Make the greeting in greet.py friendlier."}]
    reply = canned_model(history)
    receipt, status = apply_reply(history, reply, root, args.edapply)
    json.dump(history, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
