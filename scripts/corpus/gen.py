#!/usr/bin/env python3
"""Red-team corpus generator for edapply (Python 3.11 stdlib only).

    python3 gen.py [--out /tmp/redteam/corpus] [--seed 7] [--n 480]

Writes cases in the layout of /work/shared/eval/corpus (case.json, input.txt, before/, after/,
outside/).  Ground truth is computed on the disk bytes: an edit is a line range [i, j) of the
file replaced by new lines written in the file's conventions (EOL, BOM, final newline).  The model
view (what appears in input.txt) is derived from the same edit through per-family transforms.
"""
import argparse, glob, hashlib, json, os, random, re, shutil, sys

PY = "/root/.pyenv/versions/3.11.7/lib/python3.11"
ESC = "/tmp/edapply-escape"

# ---------------------------------------------------------------------------
# source pools
# ---------------------------------------------------------------------------

def ok_text(p, lo=400, hi=30000):
    try:
        st = os.stat(p)
        if not (lo <= st.st_size <= hi) or os.path.islink(p):
            return False
        b = open(p, "rb").read()
        b.decode("utf-8")
        return b"\0" not in b and b"\r" not in b and not b.startswith(b"\xef\xbb\xbf")
    except Exception:
        return False


WIDE = False


def pools():
    P = {}
    if WIDE:
        P["py"] = [(p, "Lib/" + os.path.relpath(p, PY)) for p in sorted(glob.glob(PY + "/**/*.py", recursive=True)) if "/test" not in p and "site-packages" not in p and "idlelib" not in p and ok_text(p, 400, 150000)]
        md = [(p, "mod/" + os.path.relpath(p, "/root/go/pkg/mod")) for p in sorted(glob.glob("/root/go/pkg/mod/**/*.md", recursive=True)) if ok_text(p, 400, 60000)]
        md += [(p, "doc/" + os.path.relpath(p, "/usr/share/doc")) for p in sorted(glob.glob("/usr/share/doc/**/*.md", recursive=True)) if ok_text(p, 400, 60000)]
        P["md"] = md
        P["go"] = [(p, os.path.relpath(p, "/usr/local/go/src")) for p in sorted(glob.glob("/usr/local/go/src/**/*.go", recursive=True))[::7] if ok_text(p, 500, 60000) and "/testdata/" not in p]
        yml = []
        for root in ["/root/go/pkg/mod", "/usr/lib/python3", "/usr/local/go"]:
            for dp, dn, fn in os.walk(root):
                for f in fn:
                    if f.endswith((".yml", ".yaml")) and ok_text(os.path.join(dp, f), 200, 40000):
                        yml.append((os.path.join(dp, f), "cfg/" + os.path.relpath(os.path.join(dp, f), "/")))
        P["yaml"] = yml
        P["json"] = [(p, os.path.relpath(p, "/usr/lib")) for p in sorted(glob.glob("/usr/lib/node_modules/**/*.json", recursive=True)) if ok_text(p, 200, 40000) and "\n" in open(p).read()[:200]]
        P["sh"] = [(p, "scripts/" + os.path.relpath(p, "/")) for p in sorted(glob.glob("/usr/share/**/*.sh", recursive=True) + glob.glob("/etc/**/*.sh", recursive=True) + glob.glob("/usr/bin/*")[:400]) if ok_text(p, 300, 40000) and open(p, "rb").read(2) == b"#!" or p.endswith(".sh") and ok_text(p, 300, 40000)]
        return P
    P["py"] = [(p, "Lib/" + os.path.relpath(p, PY)) for p in sorted(glob.glob(PY + "/*.py") + glob.glob(PY + "/json/*.py") + glob.glob(PY + "/email/*.py") + glob.glob(PY + "/logging/*.py") + glob.glob(PY + "/http/*.py")) if ok_text(p)]
    md = []
    for p in sorted(glob.glob("/usr/share/doc/**/*.md", recursive=True)):
        if ok_text(p):
            md.append((p, "doc/" + os.path.relpath(p, "/usr/share/doc")))
    for p in sorted(glob.glob("/usr/local/go/**/*.md", recursive=True)):
        if ok_text(p) and "/testdata/" not in p:
            md.append((p, "go/" + os.path.relpath(p, "/usr/local/go")))
    P["md"] = md
    yml = []
    for root in ["/root/go/pkg/mod", "/usr/local/go", "/usr/share", "/usr/lib/python3", "/usr/lib/google-cloud-sdk/lib/surface"]:
        for dp, dn, fn in os.walk(root):
            for f in fn:
                if f.endswith((".yml", ".yaml")):
                    p = os.path.join(dp, f)
                    if ok_text(p, 300, 20000):
                        yml.append((p, "cfg/" + os.path.relpath(p, "/").replace("root/go/pkg/mod/", "mod/")))
    random.Random(1).shuffle(yml)
    P["yaml"] = sorted(yml[:300])
    js = []
    for p in sorted(glob.glob("/usr/lib/node_modules/**/*.json", recursive=True)):
        if ok_text(p, 300, 12000) and "\n" in open(p).read()[:200]:
            js.append((p, os.path.relpath(p, "/usr/lib")))
    P["json"] = js
    sh = []
    for p in sorted(glob.glob("/usr/share/**/*.sh", recursive=True) + glob.glob("/etc/**/*.sh", recursive=True)):
        if ok_text(p, 300, 25000):
            sh.append((p, "scripts/" + os.path.relpath(p, "/").replace("usr/share/", "")))
    P["sh"] = sh
    go = []
    for p in sorted(glob.glob("/usr/local/go/src/*/*.go")):
        if ok_text(p, 500, 15000) and "_test" not in p:
            go.append((p, os.path.relpath(p, "/usr/local/go/src")))
    P["go"] = go
    return P


LANGTAG = {"py": "python", "md": "markdown", "yaml": "yaml", "json": "json", "sh": "bash", "go": "go"}
COMMENT = {"py": "#", "yaml": "#", "sh": "#", "go": "//", "md": None, "json": None}

# ---------------------------------------------------------------------------
# file model
# ---------------------------------------------------------------------------


class F:
    """A file on disk: raw bytes split into lines; text view for the model."""

    def __init__(self, raw):
        self.raw = raw
        self.bom = raw.startswith(b"\xef\xbb\xbf")
        body = raw[3:] if self.bom else raw
        self.crlf = b"\r\n" in body
        self.eol = b"\r\n" if self.crlf else b"\n"
        parts = body.split(self.eol)
        if parts and parts[-1] == b"":
            parts.pop()
            self.final_nl = True
        else:
            self.final_nl = False
        self.blines = parts                      # bytes, no EOL
        self.lines = [b.decode("utf-8", "surrogateescape") for b in parts]

    def render(self, lines=None, final_nl=None):
        lines = self.lines if lines is None else lines
        final_nl = self.final_nl if final_nl is None else final_nl
        out = self.eol.join(l.encode("utf-8", "surrogateescape") for l in lines)
        if lines and final_nl:
            out += self.eol
        return (b"\xef\xbb\xbf" if self.bom else b"") + out

    def apply(self, i, j, new):
        return self.lines[:i] + list(new) + self.lines[j:]


def text_of(lines, final=True):
    return "\n".join(lines) + ("\n" if final and lines else "")


def norm(l):
    return " ".join(l.split())


def count_block(lines, block):
    """occurrences of block (list of lines) in lines, whitespace-normalised."""
    if not block:
        return 0
    nb = [norm(x) for x in block]
    nl = [norm(x) for x in lines]
    n = 0
    for k in range(len(lines) - len(block) + 1):
        if nl[k:k + len(block)] == nb:
            n += 1
    return n


def indent_of(l):
    return l[:len(l) - len(l.lstrip())]

# ---------------------------------------------------------------------------
# edit kinds: return (i, j, new_lines, summary, kind) on the text lines
# ---------------------------------------------------------------------------

IDENT = re.compile(r"\b([a-z_][a-z0-9_]{2,})\b")
KW = set("def class return import from for while if elif else try except finally with as pass lambda not and or in is None True False self yield raise assert global nonlocal del print async await then fi do done esac case function local echo export true false null".split())


def cands(lines, pred, lo=0):
    return [k for k in range(lo, len(lines)) if pred(lines[k])]


def ek_change(r, lines, lang):
    ks = cands(lines, lambda l: re.search(r"\d", l) and len(l) < 160 and l.strip() and not l.strip().startswith(("---", "```")))
    if ks:
        k = r.choice(ks)
        m = list(re.finditer(r"\d+", lines[k]))
        mm = r.choice(m)
        old = mm.group(0)
        new = str(int(old) + 1)
        nl = lines[k][:mm.start()] + new + lines[k][mm.end():]
        return (k, k + 1, [nl], f"change `{old}` to `{new}` on that line", "literal")
    return None


def ek_string(r, lines, lang):
    if lang == "md":
        ks = cands(lines, lambda l: len(l.split()) >= 5 and not l.lstrip().startswith(("#", "```", "|", "<", "---", "===")) and len(l) < 200)
        if not ks:
            return None
        k = r.choice(ks)
        l = lines[k]
        return (k, k + 1, [l.rstrip() + " (see below)"], "clarify that sentence", "reword")
    if lang == "json":
        ks = cands(lines, lambda l: re.match(r'\s*"[^"]+":\s*"[^"]*",?\s*$', l))
        if not ks:
            return None
        k = r.choice(ks)
        l = lines[k]
        nl = re.sub(r':\s*"([^"]*)"', lambda m: ': "' + m.group(1) + '-next"', l, count=1)
        return (k, k + 1, [nl], "update that value", "literal")
    if lang == "yaml":
        ks = cands(lines, lambda l: re.match(r"\s*(- )?[A-Za-z_][\w-]*:\s+\S", l) and not l.strip().startswith("#") and len(l) < 150)
        if not ks:
            return None
        k = r.choice(ks)
        l = lines[k]
        nl = re.sub(r":(\s+)(\S.*)$", lambda m: ":" + m.group(1) + "changed-" + m.group(2).lstrip('"\''), l, count=1)
        if nl == l:
            return None
        return (k, k + 1, [nl], "change that value", "literal")
    ks = cands(lines, lambda l: re.search(r"\"[A-Za-z][^\"\\]{2,40}\"|'[A-Za-z][^'\\]{2,40}'", l) and len(l) < 150)
    if not ks:
        return None
    k = r.choice(ks)
    l = lines[k]
    m = re.search(r"(\"|')([A-Za-z][^\"'\\]{2,40})(\1)", l)
    if not m:
        return None
    nl = l[:m.start(2)] + m.group(2) + " (deprecated)" + l[m.end(2):]
    return (k, k + 1, [nl], f"change the string `{m.group(2)}` to `{m.group(2)} (deprecated)`", "string")


def ek_comment(r, lines, lang):
    c = COMMENT[lang]
    if lang == "md":
        ks = cands(lines, lambda l: l.strip() == "", 3)
        ks = [k for k in ks if k + 1 < len(lines) and lines[k + 1].strip() and not lines[k + 1].startswith(("```", "    ", "\t"))]
        if not ks:
            return None
        k = r.choice(ks)
        return (k + 1, k + 1, ["Note: this section was reviewed for the current release.", ""], "add a note before that paragraph", "insert-line")
    if lang == "json":
        ks = cands(lines, lambda l: re.match(r'\s*"[^"]+":\s*("[^"]*"|\d+|true|false),\s*$', l))
        if not ks:
            return None
        k = r.choice(ks)
        ind = indent_of(lines[k])
        return (k + 1, k + 1, [ind + '"x-reviewed": true,'], "add an `x-reviewed` key", "insert-line")
    ks = cands(lines, lambda l: l.strip() and not l.strip().startswith(c) and len(l) < 150, 1)
    if not ks:
        return None
    k = r.choice(ks)
    ind = indent_of(lines[k])
    text = r.choice(["NOTE: keep this in sync with the docs.", "TODO: handle the error case here.", "This is checked again below."])
    return (k, k, [ind + c + " " + text], f"add a comment above `{lines[k].strip()[:40]}`", "insert-comment")


def ek_delete(r, lines, lang):
    if lang == "json":
        ks = cands(lines, lambda l: re.match(r'\s*"[^"]+":\s*("[^"]*"|\d+|true|false),\s*$', l))
        if not ks:
            return None
        k = r.choice(ks)
        return (k, k + 1, [], "remove that key", "delete-lines")
    n = r.choice([1, 1, 2, 3])
    ks = [k for k in range(1, len(lines) - n) if all(lines[x].strip() for x in range(k, k + n))]
    if lang != "md":
        c = COMMENT[lang]
        kk = [k for k in ks if all(lines[x].strip().startswith(c) for x in range(k, k + n))]
        if kk:
            ks = kk
    if not ks:
        return None
    k = r.choice(ks)
    return (k, k + n, [], f"remove these {n} lines" if n > 1 else "remove the outdated line", "delete-lines")


def ek_rename(r, lines, lang):
    if lang in ("md", "json"):
        return None
    for _ in range(30):
        k = r.randrange(0, max(1, len(lines) - 6))
        blk = lines[k:k + r.randint(3, 7)]
        words = {}
        for l in blk:
            if l.strip().startswith(("#", "//")):
                continue
            for w in IDENT.findall(l):
                if w not in KW:
                    words[w] = words.get(w, 0) + 1
        ws = [w for w, n in words.items() if n >= 2]
        if ws:
            w = r.choice(sorted(ws))
            nw = w + r.choice(["_val", "Tmp", "_cur"]) if lang != "go" else w + "Val"
            new = [re.sub(r"\b%s\b" % re.escape(w), nw, l) if not l.strip().startswith(("#", "//")) else l for l in blk]
            return (k, k + len(blk), new, f"rename `{w}` to `{nw}` in this block", "rename")
    return None


def ek_import(r, lines, lang):
    if lang == "py":
        ks = cands(lines, lambda l: re.match(r"import \w+$", l))
        if not ks:
            return None
        k = r.choice(ks)
        mod = r.choice(["functools", "itertools", "warnings", "textwrap"])
        if any(l == "import " + mod for l in lines):
            return None
        return (k + 1, k + 1, ["import " + mod], f"import `{mod}`", "add-import")
    if lang == "sh":
        ks = cands(lines[:30], lambda l: l.startswith("#!"))
        if not ks:
            return None
        return (1, 1, ["set -u"], "add `set -u` at the top", "insert-line")
    return None


def ek_block(r, lines, lang):
    """add a function / section / key block after a blank line"""
    ks = [k for k in range(2, len(lines) - 1) if lines[k].strip() == "" and lines[k + 1].strip() and not indent_of(lines[k + 1]) and not lines[k + 1].startswith(("```", "-", "*", "|", ")", "}", "]"))]
    if lang == "json":
        return None
    if not ks:
        return None
    k = r.choice(ks)
    if lang == "py":
        blk = ["def _clamp(value, lo, hi):", '    """Return value limited to the range [lo, hi]."""', "    if value < lo:", "        return lo", "    if value > hi:", "        return hi", "    return value", "", ""]
        s = "add a small helper `_clamp`"
    elif lang == "md":
        blk = ["## Troubleshooting", "", "If something goes wrong, run the command again with `--verbose`", "and include the output when you report the problem.", ""]
        s = "add a Troubleshooting section"
    elif lang == "yaml":
        if lines[k + 1].startswith("---"):
            return None
        blk = ["# reviewed settings", "x-reviewed:", "  enabled: true", "  owner: \"docs-team\"", ""]
        s = "add an `x-reviewed` mapping"
    elif lang == "sh":
        blk = ["die() {", "\techo \"error: $*\" >&2", "\texit 1", "}", ""]
        s = "add a small helper `die`"
    else:
        blk = ["// clampIndex returns i limited to the range [0, n).", "func clampIndex(i, n int) int {", "\tif i < 0 {", "\t\treturn 0", "\t}", "\tif i >= n {", "\t\treturn n - 1", "\t}", "\treturn i", "}", ""]
        s = "add a small helper `clampIndex`"
    return (k + 1, k + 1, blk, s, "add-block")


def ek_listitem(r, lines, lang):
    if lang not in ("md", "yaml"):
        return None
    ks = cands(lines, lambda l: re.match(r"\s*[-*] \S", l) and len(l) < 150 and not l.strip().startswith("---"))
    if not ks:
        return None
    k = r.choice(ks)
    l = lines[k]
    m = re.match(r"(\s*[-*] )", l)
    if r.random() < 0.5:
        if lang == "yaml":
            if ":" in l:
                return None
            return (k + 1, k + 1, [m.group(1) + "extra-item"], "add a list item", "add-item")
        return (k + 1, k + 1, [m.group(1) + "Another item added for completeness."], "add a list item", "add-item")
    return (k, k + 1, [], "drop that list item", "delete-item")


KINDS = [ek_change, ek_string, ek_comment, ek_delete, ek_rename, ek_import, ek_block, ek_listitem]


def pick_edit(r, lines, lang, kinds=None):
    for _ in range(40):
        fn = r.choice(kinds or KINDS)
        e = fn(r, lines, lang)
        if e and e[2] != lines[e[0]:e[1]]:
            i, j, new = e[0], e[1], list(e[2])
            while i < j and new and lines[i] == new[0]:
                i += 1; new.pop(0)
            while i < j and new and lines[j - 1] == new[-1]:
                j -= 1; new.pop()
            return (i, j, new) + tuple(e[3:])
    return None

# ---------------------------------------------------------------------------
# hunks: an edit with context
# ---------------------------------------------------------------------------


class Hunk:
    def __init__(self, lines, i, j, new, cb, ca):
        self.a = i - cb        # first line of the context (0-based)
        self.i, self.j, self.new = i, j, list(new)
        self.b = j + ca        # end of context
        self.pre = lines[self.a:i]
        self.old = lines[i:j]
        self.post = lines[j:self.b]

    def search(self):
        return self.pre + self.old + self.post

    def replace(self):
        return self.pre + self.new + self.post


def make_hunk(lines, e, r, minctx=None, maxctx=8):
    i, j, new = e[0], e[1], e[2]
    cb = ca = minctx if minctx is not None else r.choice([1, 2, 2, 3])
    cb = min(cb, i)
    ca = min(ca, len(lines) - j)
    while True:
        h = Hunk(lines, i, j, new, cb, ca)
        s = h.search()
        if s and any(x.strip() for x in s) and count_block(lines, s) == 1 and s[0].strip() and s[-1].strip():
            return h
        if s and count_block(lines, s) == 1 and any(x.strip() for x in s) and (cb >= maxctx or ca >= maxctx):
            return h
        if cb >= min(maxctx, i) and ca >= min(maxctx, len(lines) - j):
            return None
        if cb < min(maxctx, i):
            cb += 1
        if ca < min(maxctx, len(lines) - j):
            ca += 1

# ---------------------------------------------------------------------------
# model-view transforms (applied to lines shown in the response)
# ---------------------------------------------------------------------------

def curly(l):
    out = re.sub(r'"([^"\n]{1,60})"', "\u201c\\1\u201d", l)
    out = re.sub(r"(\w)'(\w)", "\\1\u2019\\2", out)
    out = out.replace(" - ", " \u2013 ")
    return out


def shift_line(l, d, unit):
    if not l.strip():
        return l
    if d > 0:
        return unit * d + l
    ind = indent_of(l)
    k = -d * len(unit)
    return l[k:] if ind.startswith(unit * -d) else l


# ---------------------------------------------------------------------------
# renderers
# ---------------------------------------------------------------------------

INTROS = ["Sure! To do that we {s}.", "Here's the change: {s}.", "Okay, I'll {s} in `{b}`.", "Good catch. We should {s}.", "The fix is small: {s}.", "Let me {s}. The edit is below.", "I'll {s}:"]
OUTROS = ["", "This shouldn't change behavior for existing callers.", "Done. Nothing else needs to change.", "That's it \u2014 the rest of the file stays as it is.", "Let me know if you also want tests for this."]
CHECK = {"py": "python3 -m pytest -q", "go": "go test ./...", "md": "markdownlint .", "yaml": "yamllint .", "json": "npm test", "sh": "shellcheck *.sh"}


def fence_for(text):
    run = max([len(m) for m in re.findall(r"`{3,}", text)] + [0])
    return "`" * max(3, run + 1)


def sr_block(path, s, rp, lang, fenced_path=False, naive=False, r=None):
    body = "<<<<<<< SEARCH\n" + text_of(s) + "=======\n" + text_of(rp) + ">>>>>>> REPLACE\n"
    fence = "```" if naive else fence_for(body)
    if fenced_path:
        return f"{fence}{LANGTAG[lang]}\n{path}\n{body}{fence}\n"
    return f"{path}\n{fence}{LANGTAG[lang]}\n{body}{fence}\n"


def hunk_lines(h):
    """A hunk's lines after its header: context, removed, added, context."""
    return ([" " + l for l in h["pre"]] + ["-" + l for l in h["old"]]
            + ["+" + l for l in h["new"]] + [" " + l for l in h["post"]])


def udiff_file(path, hunks, git=True, loose=False, offs=None, badcounts=False, no_nl_end=None):
    out = []
    if git and not loose:
        out.append(f"diff --git a/{path} b/{path}")
        out.append("index 3b18e51..a2c4f1d 100644")
    out.append(f"--- a/{path}")
    out.append(f"+++ b/{path}")
    delta = 0
    for n, h in enumerate(hunks):
        s, rp = h["pre"] + h["old"] + h["post"], h["pre"] + h["new"] + h["post"]
        if loose:
            out.append("@@ ... @@")
        else:
            a = h["a"] + 1
            b = a + delta
            off = offs[n] if offs else 0
            ls, lr = len(s), len(rp)
            if badcounts:
                ls += 2; lr += 1
            out.append(f"@@ -{a + off},{ls} +{b + off},{lr} @@")
        delta += len(h["new"]) - len(h["old"])
        out.extend(hunk_lines(h))
    return "\n".join(out) + "\n"


def codex_update(path, hunks, anchor=None):
    out = [f"*** Update File: {path}"]
    for h in hunks:
        out.append("@@" + (" " + h["anchor"] if h.get("anchor") else ""))
        out.extend(hunk_lines(h))
    return "\n".join(out) + "\n"


def codex_wrap(body, style):
    env = "*** Begin Patch\n" + body + "*** End Patch\n"
    if style == "raw":
        return env
    if style == "fenced":
        return "```\n" + env + "```\n"
    return "```bash\napply_patch <<'EOF'\n" + env + "EOF\n```\n"


def json_line(path, s, rp, trim=True):
    a, b = text_of(s), text_of(rp)
    if trim:
        a, b = a[:-1], b[:-1]
    return json.dumps({"path": path, "old_string": a, "new_string": b, "replace_all": False}, ensure_ascii=False)


def prose(r, summary, base, body, lang, closing=True):
    intro = r.choice(INTROS).format(s=summary, b=base)
    out = intro + "\n\n" + body
    o = r.choice(OUTROS)
    if o:
        out += "\n" + o + "\n"
    if closing and r.random() < 0.3:
        out += "\nYou can check it with:\n\n```bash\n" + CHECK[lang] + "\n```\n"
    return out

# ---------------------------------------------------------------------------
# case assembly
# ---------------------------------------------------------------------------


class Case:
    def __init__(self, cid, fmt, fam, outcome="apply", code=None):
        self.meta = {"id": cid, "format": fmt, "family": fam, "outcome": outcome, "args": [], "notes": {}}
        if code:
            self.meta["error_code"] = code
        self.before, self.after, self.outside = {}, {}, {}
        self.links = {}
        self.input = ""

    def write(self, root):
        d = os.path.join(root, self.meta["id"])
        shutil.rmtree(d, ignore_errors=True)
        for sub, files in (("before", self.before), ("after", self.after), ("outside", self.outside)):
            if sub == "after" and self.meta["outcome"] != "apply":
                continue
            if sub == "outside" and not files:
                continue
            for rel, data in files.items():
                p = os.path.join(d, sub, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "wb") as f:
                    f.write(data)
            if sub in ("before", "after"):
                for rel, tgt in self.links.items():
                    p = os.path.join(d, sub, rel)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    os.symlink(tgt, p)
        os.makedirs(os.path.join(d, "before"), exist_ok=True)
        with open(os.path.join(d, "input.txt"), "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(self.input)
        with open(os.path.join(d, "case.json"), "w") as f:
            json.dump(self.meta, f, indent=1, ensure_ascii=False)


def sha(b):
    return hashlib.sha256(b).hexdigest()


def lang_of(path):
    ext = path.rsplit(".", 1)[-1]
    return {"py": "py", "md": "md", "yml": "yaml", "yaml": "yaml", "json": "json", "sh": "sh", "go": "go"}.get(ext, "py")


class Gen:
    def __init__(self, seed, out):
        self.r = random.Random(seed)
        self.P = pools()
        self.out = out
        self.n = 0
        for k, v in self.P.items():
            print(k, len(v), file=sys.stderr)

    def nid(self, fam, fmt):
        self.n += 1
        return f"{self.n:04d}-{fam}-{fmt}"

    def src(self, lang):
        p, rel = self.r.choice(self.P[lang])
        return p, rel, open(p, "rb").read()

    def decoy(self, lang, rel):
        p, rel2 = self.r.choice(self.P[lang])
        d = os.path.dirname(rel)
        rel2 = (d + "/" if d else "") + "other_" + os.path.basename(p)
        return rel2, open(p, "rb").read()

    # ---- rendering one or more file edits in a format --------------------------------

    def render(self, fmt, edits, lang, summary, base, extra_body="", style=None):
        """edits: list of (path, [hunkdicts]) with model-view lines.  Returns the response text."""
        r = self.r
        blocks = []
        if fmt in ("search-replace", "diff-fenced"):
            for path, hs in edits:
                for h in hs:
                    blocks.append(sr_block(path, h["pre"] + h["old"] + h["post"], h["pre"] + h["new"] + h["post"], lang_of(path), fenced_path=(fmt == "diff-fenced")))
            body = "\n".join(blocks)
        elif fmt in ("udiff", "udiff-loose"):
            parts = [udiff_file(path, hs, git=r.random() < 0.7, loose=(fmt == "udiff-loose")) for path, hs in edits]
            body = "```diff\n" + "".join(parts) + "```\n"
        elif fmt == "codex":
            bodies = "".join(codex_update(path, hs) for path, hs in edits)
            body = codex_wrap(bodies, style or r.choice(["raw", "fenced", "heredoc"]))
        elif fmt == "json":
            ls = [json_line(path, h["pre"] + h["old"] + h["post"], h["pre"] + h["new"] + h["post"], trim=r.random() < 0.7) for path, hs in edits for h in hs]
            body = "\n".join(ls) + "\n"
            if r.random() < 0.6:
                body = "```json\n" + body + "```\n"
        else:
            raise ValueError(fmt)
        return prose(r, summary, base, extra_body + body, lang)

    def whole_body(self, path, lines, lang, naive=False):
        t = text_of(lines)
        fence = "```" if naive else fence_for(t)
        return f"{path}\n{fence}{LANGTAG[lang]}\n{t}{fence}\n"

    # ---- generic apply case --------------------------------------------------------------

    def hdict(self, h, T=None, Tnew=None, lines=None, lang=None):
        T = T or (lambda x: x)
        Tnew = Tnew or T
        anchor = None
        if lines is not None and self.r.random() < 0.7:
            pat = {"py": r"\s*(async def|def|class) ", "go": r"func |type ", "md": r"#{1,6} ", "yaml": r"[A-Za-z_][\w-]*:", "sh": r"[\w-]+\s*\(\)\s*\{", "json": r'\s{0,2}"[^"]+":\s*[\[{]'}.get(lang)
            for k in range(h.a - 1, -1, -1):
                if pat and re.match(pat, lines[k]):
                    if count_block(lines, [lines[k]]) == 1:
                        anchor = T(lines[k]).strip() if self.r.random() < 0.7 else T(lines[k])
                    break
        return {"anchor": anchor, "pre": [T(x) for x in h.pre], "old": [T(x) for x in h.old], "new": [T(x) if x in h.old else Tnew(x) for x in h.new], "post": [T(x) for x in h.post], "a": h.a}

    def apply_case(self, fam, fmt, lang, prep=None, T=None, Tnew=None, kinds=None, variant=None, edit_filter=None, minctx=None, truth_new=None):
        """prep(F, rawbytes) -> new raw bytes for disk (and may mark lines); T: model-view transform"""
        r = self.r
        for _ in range(30):
            p, rel, raw = self.src(lang)
            if prep:
                raw = prep(raw)
                if raw is None:
                    continue
            f = F(raw)
            if len(f.lines) < 8:
                continue
            e = pick_edit(r, f.lines, lang, kinds)
            if not e or (edit_filter and not edit_filter(f, e)):
                continue
            if truth_new:
                old = f.lines[e[0]:e[1]]
                e = (e[0], e[1], [x if x in old else truth_new(x) for x in e[2]]) + tuple(e[3:])
            # keep away from the last line when the file has no final newline (covered elsewhere)
            if not f.final_nl and e[1] >= len(f.lines) - 1:
                continue
            h = make_hunk(f.lines, e, r, minctx=minctx)
            if not h:
                continue
            hd = self.hdict(h, T, Tnew, f.lines, lang)
            if variant in ("under",) and not all((not x.strip()) or x.startswith("    ") for x in h.search() + h.new):
                continue
            if variant and variant.startswith("rescale") and [T(x) for x in h.pre + h.post] == h.pre + h.post:
                continue
            if T and (hd["pre"] + hd["old"] + hd["post"]) == (h.pre + h.old + h.post) and fam not in ("clean",):
                continue   # transform had no effect: not this family
            c = Case(self.nid(fam, fmt), fmt, fam)
            c.meta["source_file"] = p
            c.meta["summary"] = e[3]
            c.meta["notes"] = {"edit_kinds": [e[4]], "lang": lang}
            if variant:
                c.meta["notes"]["variant"] = variant
            c.before[rel] = raw
            newlines = f.apply(e[0], e[1], e[2])
            c.after[rel] = f.render(newlines)
            dr, draw = self.decoy(lang, rel)
            if dr != rel:
                c.before[dr] = draw
                c.after[dr] = draw
            if fmt == "whole":
                view = [T(x) if T else x for x in newlines]
                c.input = prose(r, e[3], os.path.basename(rel), self.whole_body(rel, view, lang), lang)
            else:
                c.input = self.render(fmt, [(rel, [hd])], lang, e[3], os.path.basename(rel))
            c.meta["oracle"] = [{"path": rel, "op": "modify", "search": text_of(h.old), "replace": text_of(h.new)}]
            return c, f, h, e
        return None

    def emit(self, c):
        if c:
            c[0].write(self.out) if isinstance(c, tuple) else c.write(self.out)


FMTS = ["search-replace", "diff-fenced", "udiff", "udiff-loose", "whole", "codex", "json"]
LANGS = ["py", "py", "py", "md", "md", "yaml", "yaml", "json", "sh", "go"]

# ---------------------------------------------------------------------------
# families
# ---------------------------------------------------------------------------

def add_trailing_ws(raw):
    out = []
    for k, l in enumerate(raw.split(b"\n")):
        if l.strip() and (k * 7919) % 3 == 0:
            l = l + (b" " if k % 2 else b"\t ")
        out.append(l)
    return b"\n".join(out)


def to_crlf(raw):
    return raw.replace(b"\n", b"\r\n")


def hexid(r):
    return "%012x" % r.getrandbits(48)


PLACE = {"py": "# ... existing code ...", "yaml": "# ... existing code ...", "sh": "# ... existing code ...", "go": "// ... existing code ...", "md": "<!-- ... -->", "json": "..."}
PLACES = {"py": ["# ... existing code ...", "# ...", "...", "# ... (unchanged) ..."], "yaml": ["# ... existing code ...", "# ..."], "sh": ["# ... existing code ...", "# ..."], "go": ["// ... existing code ...", "// ..."], "md": ["<!-- ... -->", "...", "<!-- ... existing content ... -->", "[...]"], "json": ["...", "// ..."]}
REST = {"py": "# ... rest of the file unchanged ...", "yaml": "# ... rest unchanged ...", "sh": "# ... rest of script unchanged ...", "go": "// ... rest of the code unchanged ...", "md": "<!-- rest unchanged -->", "json": "..."}


def fam_simple(g, fam, fmts, langs, per, **kw):
    for fmt in fmts:
        for k in range(per):
            lang = langs[(k + g.n) % len(langs)]
            c = g.apply_case(fam, fmt, lang, **kw)
            if c:
                c[0].write(g.out)


def run_families(g):
    r = g.r
    ALL = FMTS
    NOWHOLE = [f for f in FMTS if f != "whole"]
    L6 = ["py", "md", "yaml", "json", "sh", "go", "py", "md"]
    # clean
    fam_simple(g, "clean", ALL, L6, 5)
    # trailing-ws: file has ws the model omits
    fam_simple(g, "trailing-ws", NOWHOLE, ["py", "md", "yaml", "sh"], 2, prep=add_trailing_ws, T=lambda l: l.rstrip(), variant="file-has-ws", truth_new=lambda l: l.rstrip())
    # trailing-ws: model adds ws on context lines
    fam_simple(g, "trailing-ws", NOWHOLE, ["py", "md", "yaml"], 1, T=lambda l: (l + "  ") if l.strip() and len(l) % 2 else l, Tnew=lambda l: l, variant="model-adds-ws")
    # crlf
    fam_simple(g, "crlf", ALL, ["py", "md", "yaml", "sh", "json"], 3, prep=to_crlf)
    # bom
    fam_simple(g, "bom", ALL, ["py", "md", "yaml", "json"], 3, prep=lambda raw: b"\xef\xbb\xbf" + raw, edit_filter=lambda f, e: e[0] < 12, variant="edit-near-bom")
    # indent-shift
    def deep(f, e, n):
        blk = f.lines[max(0, e[0] - 3):e[1] + 3]
        return all((not x.strip()) or x.startswith(" " * n) for x in blk) and all((not x.strip()) or x.startswith(" " * n) for x in e[2])
    for fmt in NOWHOLE:
        for k in range(2):
            c = g.apply_case("indent-shift", fmt, "py", T=lambda l: shift_line(l, -1, "    "), edit_filter=lambda f, e: deep(f, e, 4), variant="under", minctx=2)
            g.emit(c)
        c = g.apply_case("indent-shift", fmt, "py", T=lambda l: shift_line(l, 1, "    "), variant="over", minctx=2)
        g.emit(c)
        c = g.apply_case("indent-shift", fmt, "yaml", T=lambda l: shift_line(l, 1, "  "), variant="over-yaml", minctx=2)
        g.emit(c)
        c = g.apply_case("indent-shift", fmt, "go", T=lambda l: re.sub(r"^\t+", lambda m: "    " * len(m.group(0)), l), edit_filter=lambda f, e: any(x.startswith("\t") for x in f.lines[e[0]:e[1] + 1]), variant="tabs-to-spaces", minctx=2)
        g.emit(c)
        c = g.apply_case("indent-shift", fmt, "md", T=lambda l: shift_line(l, 1, "  "), kinds=[ek_listitem], variant="md-list-over", minctx=2)
        g.emit(c)
    # rescale (4 -> 2 spaces): not a uniform shift; tagged separately
    for fmt in ["search-replace", "json", "udiff"]:
        for k in range(2):
            c = g.apply_case("indent-shift", fmt, "py", T=lambda l: re.sub(r"^( {4})+", lambda m: "  " * (len(m.group(0)) // 4), l), variant="rescale-4to2", minctx=2)
            g.emit(c)
    # unicode-punct
    def has_punct(f, e):
        blk = f.lines[max(0, e[0] - 3):e[1] + 3]
        return any(curly(x) != x for x in blk)
    fam_simple(g, "unicode-punct", NOWHOLE, ["py", "md", "yaml", "sh", "json"], 3, T=curly, Tnew=lambda l: l, edit_filter=has_punct, minctx=3)
    # stale-line-numbers
    stale_lines(g, 24)
    # elided-search
    elided(g, 24)
    # multi-edit-sequential
    multi_seq(g, 21)
    # multi-file
    multi_file(g, 3)
    # create/delete
    create_file(g, 3)
    delete_file(g, 5)
    # base-match / stale-base
    fam_base(g, "base-match", ALL, 2)
    fam_base(g, "stale-base", ALL, 2)
    # ambiguous
    ambiguous(g, 4)
    hallucinated(g, 3)
    path_escape(g, 3)
    whole_elision(g, 3)
    atomic_fail(g, 2)
    if not getattr(g, "no_hard", False):
        hard_cases(g)


def stale_lines(g, n):
    r = g.r
    for k in range(n):
        lang = ["py", "md", "yaml", "sh", "json", "go"][k % 6]
        got = g.apply_case("stale-line-numbers", "udiff", lang, minctx=3)
        if not got:
            continue
        c, f, h, e = got
        hd = g.hdict(h)
        off = r.choice([-1, 1]) * r.randint(3, 200)
        if h.a + 1 + off < 1:
            off = abs(off)
        bad = r.random() < 0.5
        rel = c.meta["oracle"][0]["path"]
        body = "```diff\n" + udiff_file(rel, [hd], git=True, offs=[off], badcounts=bad) + "```\n"
        c.input = prose(r, c.meta["summary"], os.path.basename(rel), body, lang)
        c.meta["notes"]["variant"] = "offset+counts" if bad else "offset"
        c.write(g.out)


def elided(g, n):
    r = g.r
    fmts = ["search-replace", "diff-fenced", "json"]
    made = 0
    tries = 0
    while made < n and tries < 500:
        tries += 1
        lang = ["py", "md", "yaml", "sh", "go", "py"][made % 6]
        fmt = fmts[made % 3]
        p, rel, raw = g.src(lang)
        f = F(raw)
        L = f.lines
        e = pick_edit(r, L, lang, [ek_change, ek_string, ek_comment, ek_rename])
        if not e:
            continue
        run = r.randint(3, 18)
        above = r.random() < 0.6
        if above:
            a = e[0] - run - 2
            if a < 0:
                continue
            head = L[a:a + 2]
            skipped = L[a + 2:a + 2 + run]
            tail = L[a + 2 + run:e[0]]
            post = L[e[1]:e[1] + 1]
            if not all(x.strip() for x in head) or not skipped:
                continue
            ind = indent_of(next((x for x in skipped if x.strip()), ""))
            ph = ind + r.choice(PLACES[lang])
            s = head + [ph] + tail + L[e[0]:e[1]] + post
            rp = head + [ph] + tail + e[2] + post
            if count_block(L, head) != 1 or count_block(L, tail + L[e[0]:e[1]] + post) != 1:
                continue
        else:
            b = e[1] + run + 2
            if b > len(L):
                continue
            pre = L[e[0] - 1:e[0]] if e[0] > 0 else []
            skipped = L[e[1] + 1:e[1] + 1 + run]
            mid = L[e[1]:e[1] + 1]
            tailc = L[e[1] + 1 + run:e[1] + 3 + run]
            if not all(x.strip() for x in tailc) or not skipped or not pre:
                continue
            ind = indent_of(next((x for x in skipped if x.strip()), ""))
            ph = ind + r.choice(PLACES[lang])
            s = pre + L[e[0]:e[1]] + mid + [ph] + tailc
            rp = pre + e[2] + mid + [ph] + tailc
            if count_block(L, pre + L[e[0]:e[1]] + mid) != 1 or count_block(L, tailc) != 1:
                continue
        if any(x.strip() in [p.strip() for p in PLACES[lang]] or x.strip() in ("...", "# ...") for x in L):
            continue
        if not f.final_nl and e[1] >= len(L) - 1:
            continue
        c = Case(g.nid("elided-search", fmt), fmt, "elided-search")
        c.meta.update(source_file=p, summary=e[3], notes={"lang": lang, "variant": f"elide-{'above' if above else 'below'}-change, {run} lines"})
        c.before[rel] = raw
        c.after[rel] = f.render(f.apply(e[0], e[1], e[2]))
        hd = {"pre": [], "old": s, "new": rp, "post": [], "a": 0}
        c.input = g.render(fmt, [(rel, [hd])], lang, e[3], os.path.basename(rel))
        c.write(g.out)
        made += 1


def multi_seq(g, n):
    r = g.r
    fmts = ["search-replace", "diff-fenced", "json"]
    made = tries = 0
    while made < n and tries < 400:
        tries += 1
        lang = ["py", "md", "yaml", "sh", "go", "json", "py"][made % 7]
        fmt = fmts[made % 3]
        p, rel, raw = g.src(lang)
        f = F(raw)
        L = f.lines
        e1 = pick_edit(r, L, lang, [ek_comment, ek_block, ek_import, ek_string, ek_change])
        if not e1 or not e1[2] or not f.final_nl and e1[1] >= len(L) - 2:
            continue
        h1 = make_hunk(L, e1, r)
        if not h1:
            continue
        L1 = f.apply(e1[0], e1[1], e1[2])
        # second edit: insert right after the new text, quoting its last line
        pos = e1[0] + len(e1[2])
        if pos >= len(L1) - 1:
            continue
        c2 = COMMENT[lang]
        if c2:
            ind = indent_of(L1[pos]) if L1[pos].strip() else indent_of(e1[2][-1])
            ins = [ind + c2 + " (second edit) see the line above."]
        elif lang == "md":
            ins = ["Second edit: a follow-up sentence.", ""] if not L1[pos].strip() else ["Second edit: a follow-up sentence."]
        else:
            ind = indent_of(e1[2][-1])
            ins = [ind + '"x-second": 1,']
        e2 = (pos, pos, ins)
        # context must include at least the last written line
        h2 = None
        for cb in range(1, 6):
            hh = Hunk(L1, pos, pos, ins, cb, min(2, len(L1) - pos))
            if count_block(L1, hh.search()) == 1 and any(x.strip() for x in hh.pre):
                h2 = hh
                break
        if not h2:
            continue
        L2 = L1[:pos] + ins + L1[pos:]
        hs = [g.hdict(h1), g.hdict(h2)]
        if r.random() < 0.4:
            # a third, independent edit elsewhere applied on L2
            e3 = pick_edit(r, L2, lang, [ek_change, ek_string])
            if e3 and (e3[0] > pos + 5 or e3[1] < e1[0] - 5):
                h3 = make_hunk(L2, e3, r)
                if h3:
                    L2 = L2[:e3[0]] + e3[2] + L2[e3[1]:]
                    hs.append(g.hdict(h3))
        c = Case(g.nid("multi-edit-sequential", fmt), fmt, "multi-edit-sequential")
        c.meta.update(source_file=p, summary=e1[3] + " and note it", notes={"lang": lang, "edits": len(hs)})
        c.before[rel] = raw
        c.after[rel] = f.render(L2)
        c.input = g.render(fmt, [(rel, hs)], lang, e1[3], os.path.basename(rel))
        c.write(g.out)
        made += 1


def one_edit(g, lang, kinds=None):
    r = g.r
    for _ in range(30):
        p, rel, raw = g.src(lang)
        f = F(raw)
        if len(f.lines) < 8:
            continue
        e = pick_edit(r, f.lines, lang, kinds)
        if not e or (not f.final_nl and e[1] >= len(f.lines) - 1):
            continue
        h = make_hunk(f.lines, e, r)
        if h:
            return p, rel, raw, f, e, h
    return None


def multi_file(g, per):
    r = g.r
    for fmt in FMTS:
        for k in range(per):
            n = r.choice([2, 2, 3])
            langs = [r.choice(["py", "md", "yaml", "json", "sh", "go"]) for _ in range(n)]
            eds = [one_edit(g, l) for l in langs]
            if not all(eds) or len({x[1] for x in eds}) < n:
                continue
            c = Case(g.nid("multi-file", fmt), fmt, "multi-file")
            c.meta.update(summary="; ".join(x[4][3] for x in eds), notes={"langs": langs})
            bodies = []
            for (p, rel, raw, f, e, h), lang in zip(eds, langs):
                c.before[rel] = raw
                nl = f.apply(e[0], e[1], e[2])
                c.after[rel] = f.render(nl)
                if fmt == "whole":
                    bodies.append(g.whole_body(rel, nl, lang))
            if fmt == "whole":
                c.input = prose(r, c.meta["summary"], "these files", "\n".join(bodies), langs[0])
            elif fmt in ("search-replace", "diff-fenced", "json", "udiff", "udiff-loose", "codex"):
                # mixed languages: render per file
                edits = [(x[1], [g.hdict(x[5])]) for x in eds]
                c.input = g.render(fmt, edits, langs[0], c.meta["summary"], "these files")
            c.write(g.out)


NEWFILES = {
    "py": ("tools/retry_util.py", '"""Small retry helper."""\n\nimport time\n\n\ndef retry(fn, attempts=3, delay=0.1):\n    """Call fn until it succeeds or attempts run out."""\n    for i in range(attempts):\n        try:\n            return fn()\n        except OSError:\n            if i == attempts - 1:\n                raise\n            time.sleep(delay)\n'),
    "md": ("docs/new/CHANGES.md", "# Changes\n\n## Unreleased\n\n- Added a retry helper.\n- Fixed the \u201cquoted\u201d path handling.\n\n```sh\nmake test\n```\n"),
    "yaml": (".github/workflows/lint.yml", "name: lint\non:\n  push:\n    branches: [main]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make lint\n"),
    "json": ("config/settings.json", '{\n  "name": "demo",\n  "version": "0.1.0",\n  "private": true\n}\n'),
    "sh": ("scripts/new/check.sh", '#!/bin/sh\nset -eu\n\ncat <<EOF\nchecking $1\nEOF\nexit 0\n'),
    "go": ("internal/newpkg/clamp.go", "package newpkg\n\n// Clamp limits v to [lo, hi].\nfunc Clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n\t\treturn hi\n\t}\n\treturn v\n}\n"),
}


def create_body(fmt, path, content, lang, r):
    lines = content.split("\n")[:-1]
    if fmt == "search-replace":
        return sr_block(path, [], lines, lang)
    if fmt == "diff-fenced":
        return sr_block(path, [], lines, lang, fenced_path=True)
    if fmt == "udiff":
        return f"```diff\ndiff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n" + "".join("+" + l + "\n" for l in lines) + "```\n"
    if fmt == "udiff-loose":
        return f"```diff\n--- /dev/null\n+++ b/{path}\n@@ ... @@\n" + "".join("+" + l + "\n" for l in lines) + "```\n"
    if fmt == "whole":
        fence = fence_for(content)
        return f"{path}\n{fence}{LANGTAG[lang]}\n{content}{fence}\n"
    if fmt == "codex":
        return codex_wrap(f"*** Add File: {path}\n" + "".join("+" + l + "\n" for l in lines), r.choice(["raw", "fenced", "heredoc"]))
    if fmt == "json":
        return json.dumps({"path": path, "old_string": "", "new_string": content, "replace_all": False}) + "\n"


def create_file(g, per):
    r = g.r
    for fmt in FMTS:
        for k in range(per):
            lang = ["py", "md", "yaml", "json", "sh", "go"][(g.n + k) % 6]
            path, content = NEWFILES[lang]
            p, rel, raw = g.src(lang)
            c = Case(g.nid("create-file", fmt), fmt, "create-file")
            c.meta.update(summary=f"add `{path}`", notes={"lang": lang})
            c.before[rel] = raw
            c.after[rel] = raw
            c.after[path] = content.encode()
            c.input = prose(r, f"add `{path}`", os.path.basename(path), create_body(fmt, path, content, lang, r), lang)
            c.write(g.out)


def delete_file(g, per):
    r = g.r
    for fmt in ["udiff", "udiff-loose", "codex"]:
        for k in range(per):
            lang = ["py", "md", "yaml", "json", "sh"][(g.n + k) % 5]
            p, rel, raw = g.src(lang)
            f = F(raw)
            dr, draw = g.decoy(lang, rel)
            c = Case(g.nid("delete-file", fmt), fmt, "delete-file")
            c.meta.update(summary=f"delete `{rel}`", notes={"lang": lang})
            c.before[rel] = raw
            c.before[dr] = draw
            c.after[dr] = draw
            L = f.lines
            nonl = "" if f.final_nl else "\\ No newline at end of file\n"
            if fmt == "udiff":
                body = f"```diff\ndiff --git a/{rel} b/{rel}\ndeleted file mode 100644\nindex e69de29..0000000\n--- a/{rel}\n+++ /dev/null\n@@ -1,{len(L)} +0,0 @@\n" + "".join("-" + l + "\n" for l in L) + nonl + "```\n"
            elif fmt == "udiff-loose":
                body = f"```diff\n--- a/{rel}\n+++ /dev/null\n@@ ... @@\n" + "".join("-" + l + "\n" for l in L) + "```\n"
            else:
                body = codex_wrap(f"*** Delete File: {rel}\n", r.choice(["raw", "fenced", "heredoc"]))
            c.input = prose(r, f"delete `{os.path.basename(rel)}`", os.path.basename(rel), body, lang)
            c.write(g.out)


def fam_base(g, fam, fmts, per):
    r = g.r
    for fmt in fmts:
        for k in range(per):
            lang = ["py", "md", "yaml", "json", "sh"][(g.n + k) % 5]
            got = g.apply_case(fam, fmt, lang)
            if not got:
                continue
            c, f, h, e = got
            rel = c.meta["oracle"][0]["path"]
            raw = c.before[rel]
            if fam == "base-match":
                hx = sha(raw)
                hx = hx if r.random() < 0.5 else hx[:r.randint(8, 16)]
            else:
                older = raw.replace(b"\n", b"\n\n", 1) if r.random() < 0.5 else raw + b"\n# old trailer\n"
                hx = sha(older)
                if r.random() < 0.3:
                    hx = hx[:12]
                c.meta["outcome"] = "refuse"
                c.meta["error_code"] = "OUT_OF_DATE"
                c.after = {}
            c.meta["args"] = ["--base", f"{rel}={hx}"]
            c.write(g.out)


def find_dup(L, r):
    opts = []
    for n in (2, 3):
        seen = {}
        for k in range(len(L) - n + 1):
            blk = tuple(L[k:k + n])
            if not all(x.strip() for x in blk) or sum(len(x.strip()) for x in blk) < 16:
                continue
            seen.setdefault(blk, []).append(k)
        for blk, ks in seen.items():
            if len(ks) >= 2 and count_block(L, list(blk)) == len(ks):
                opts.append((list(blk), ks))
    return r.choice(opts) if opts else None


def ambiguous(g, per):
    r = g.r
    for fmt in ["search-replace", "diff-fenced", "codex", "json", "udiff-loose"]:
        made = tries = 0
        while made < per and tries < 80:
            tries += 1
            lang = ["py", "md", "yaml", "json", "sh", "go"][(made + tries) % 6]
            p, rel, raw = g.src(lang)
            f = F(raw)
            d = find_dup(f.lines, r)
            if not d:
                continue
            blk, ks = d
            suffix = {"py": "  # checked", "yaml": "  # checked", "sh": "  # checked", "go": " // checked", "md": " (see below)", "json": ""}[lang]
            if lang == "json":
                new = blk[:1] + [indent_of(blk[0]) + '"x-dup": true,'] + blk[1:]
            else:
                new = blk[:-1] + [blk[-1] + suffix]
            c = Case(g.nid("ambiguous", fmt), fmt, "ambiguous", "refuse", "MULTIPLE_MATCHES")
            c.meta.update(source_file=p, summary="mark that block", notes={"lang": lang, "matches": len(ks)})
            c.before[rel] = raw
            hd = {"pre": [], "old": blk, "new": new, "post": [], "a": ks[0]}
            c.input = g.render(fmt, [(rel, [hd])], lang, "mark that block", os.path.basename(rel))
            c.write(g.out)
            made += 1


def hallucinated(g, per):
    r = g.r
    for fmt in NOWHOLE_F:
        for k in range(per):
            lang = ["py", "md", "yaml", "json", "sh", "go"][(g.n + k) % 6]
            got = one_edit(g, lang)
            if not got:
                continue
            p, rel, raw, f, e, h = got
            dr, draw = g.decoy(lang, rel)
            hd = g.hdict(h)
            variant = "invented-middle"
            fd = F(draw)
            if r.random() < 0.4 and len(fd.lines) > 20:
                # a real block of the decoy file
                for _ in range(20):
                    s = r.randrange(0, len(fd.lines) - 6)
                    blk = fd.lines[s:s + 5]
                    if all(x.strip() for x in blk[:1]) and count_block(f.lines, blk) == 0 and count_block(fd.lines, blk) == 1:
                        hd = {"pre": blk[:2], "old": blk[2:3], "new": [blk[2] + (" # changed" if lang != "md" else " changed")], "post": blk[3:], "a": 0}
                        variant = "wrong-file"
                        break
            if variant == "invented-middle":
                c2 = COMMENT[lang] or ""
                inv = {"py": ["    if _cache is not None and _cache.valid():", "        return _cache.lookup(key, default=None)"],
                       "go": ["\tif cache != nil && cache.valid() {", "\t\treturn cache.lookup(key)"],
                       "md": ["The legacy configuration loader reads `settings.ini` from the home", "directory before falling back to the system-wide defaults."],
                       "yaml": ["  legacy_loader: enabled", "  fallback_path: /etc/defaults.ini"],
                       "json": ['  "legacyLoader": "enabled",', '  "fallbackPath": "/etc/defaults.ini",'],
                       "sh": ['if [ -n "$LEGACY_LOADER" ]; then', '    . /etc/defaults/legacy.conf']}[lang]
                hd = dict(hd)
                hd["pre"] = hd["pre"] + inv
                if not hd["old"] and not hd["post"]:
                    hd["post"] = inv[:1]
            c = Case(g.nid("hallucinated", fmt), fmt, "hallucinated", "refuse", "NO_MATCH")
            c.meta.update(source_file=p, summary=e[3], notes={"lang": lang, "variant": variant})
            c.before[rel] = raw
            if dr != rel:
                c.before[dr] = draw
            c.input = g.render(fmt, [(rel, [hd])], lang, e[3], os.path.basename(rel))
            c.write(g.out)


NOWHOLE_F = [f for f in FMTS if f != "whole"]


def path_escape(g, per):
    r = g.r
    variants = ["dotdot", "absolute", "symlink-dir", "symlink-file"]
    for fmt in FMTS:
        for k in range(per):
            v = variants[(g.n + k) % 4]
            lang = ["py", "md", "yaml", "sh", "json"][(g.n + k) % 5]
            got = one_edit(g, lang)
            if not got:
                continue
            p, rel, raw, f, e, h = got
            name = os.path.basename(rel)
            c = Case(g.nid("path-escape", fmt), fmt, "path-escape", "refuse", "OUT_OF_ROOT")
            c.meta.update(source_file=p, summary=e[3], notes={"lang": lang, "variant": v})
            dr, draw = g.decoy(lang, rel)
            c.before[dr] = draw
            edits = []
            pre_edit = r.random() < 0.4
            if pre_edit:
                fd = F(draw)
                e0 = pick_edit(r, fd.lines, lang)
                h0 = make_hunk(fd.lines, e0, r) if e0 else None
                if h0 and (fd.final_nl or e0[1] < len(fd.lines) - 1):
                    edits.append((dr, [g.hdict(h0)], fd.apply(e0[0], e0[1], e0[2])))
                    c.meta["notes"]["edit-elsewhere"] = True
            create = False
            if v == "dotdot":
                epath = "../../shared/" + name
                c.outside["o1/shared/" + name] = raw
            elif v == "absolute":
                epath = f"{ESC}/{hexid(r)}/{name}"
                c.meta["escape_paths"] = [epath]
                create = True
            elif v == "symlink-dir":
                if r.random() < 0.5:
                    c.before["vendored"] = b"../../shared"   # a symlink checked out as a plain file
                    c.meta["notes"]["variant"] = "symlink-dir-as-plain-file"
                else:
                    c.links["vendored"] = "../../shared"
                c.outside["o1/shared/" + name] = raw
                epath = "vendored/" + name
            else:
                if r.random() < 0.5:
                    c.before["linked_" + name] = ("../../shared/" + name).encode()
                    c.meta["notes"]["variant"] = "symlink-file-as-plain-file"
                else:
                    c.links["linked_" + name] = "../../shared/" + name
                c.outside["o1/shared/" + name] = raw
                epath = "linked_" + name
            if fmt == "whole":
                bodies = [g.whole_body(x[0], x[2], lang) for x in edits]
                bodies.append(g.whole_body(epath, f.apply(e[0], e[1], e[2]), lang))
                c.input = prose(r, e[3], name, "\n".join(bodies), lang)
            elif create:
                pre = g.render(fmt, [(x[0], x[1]) for x in edits], lang, e[3], name) if edits and fmt not in ("codex",) else ""
                body = create_body(fmt, epath, text_of(f.lines), lang, r)
                c.input = (pre + "\n" if pre else prose(r, e[3], name, "", lang)) + body
            else:
                c.input = g.render(fmt, [(x[0], x[1]) for x in edits] + [(epath, [g.hdict(h)])], lang, e[3], name)
            c.write(g.out)


def whole_elision(g, per):
    r = g.r
    for fmt in ["whole", "whole", "search-replace", "diff-fenced", "json"]:
        for k in range(per):
            lang = ["py", "md", "yaml", "sh", "go"][(g.n + k) % 5]
            got = one_edit(g, lang)
            if not got:
                continue
            p, rel, raw, f, e, h = got
            if any("..." in x and ("rest" in x or "existing" in x or "unchanged" in x) for x in f.lines):
                continue
            c = Case(g.nid("whole-elision", fmt), fmt, "whole-elision", "refuse", "ELISION")
            c.meta.update(source_file=p, summary=e[3], notes={"lang": lang})
            c.before[rel] = raw
            nl = f.apply(e[0], e[1], e[2])
            if fmt == "whole":
                cut = min(len(nl) - 3, e[0] + len(e[2]) + r.randint(3, 10))
                if r.random() < 0.5:
                    view = nl[:cut] + [REST[lang]]
                    c.meta["notes"]["variant"] = "rest-of-file"
                else:
                    a = max(1, e[0] - r.randint(5, 12))
                    view = nl[:a] + [PLACE[lang]] + nl[e[0]:]
                    if a >= e[0]:
                        view = nl[:cut] + [REST[lang]]
                    c.meta["notes"]["variant"] = "middle"
                c.input = prose(r, e[3], os.path.basename(rel), g.whole_body(rel, view, lang), lang)
            else:
                # replacement elides a block: SEARCH has real lines, REPLACE has a placeholder instead
                j2 = min(len(f.lines) - 1, h.b + r.randint(8, 20))
                s = f.lines[h.a:j2]
                ind = indent_of(f.lines[h.b]) if h.b < len(f.lines) else ""
                rp = h.pre + h.new + [ind + REST[lang].replace("rest of the file", "rest of the function")] + f.lines[j2 - 1:j2]
                if count_block(f.lines, s) != 1:
                    continue
                hd = {"pre": [], "old": s, "new": rp, "post": [], "a": h.a}
                c.meta["notes"]["variant"] = "replace-elides-block"
                c.input = g.render(fmt, [(rel, [hd])], lang, e[3], os.path.basename(rel))
            c.write(g.out)


def atomic_fail(g, per):
    r = g.r
    for fmt in NOWHOLE_F:
        for k in range(per):
            langs = [r.choice(["py", "md", "yaml", "sh", "json"]) for _ in range(3)]
            eds = [one_edit(g, l) for l in langs]
            if not all(eds) or len({x[1] for x in eds}) < 3:
                continue
            c = Case(g.nid("atomic-fail", fmt), fmt, "atomic-fail", "refuse", "NO_MATCH")
            c.meta.update(summary="three edits", notes={"langs": langs})
            edits = []
            for n, (p, rel, raw, f, e, h) in enumerate(eds):
                c.before[rel] = raw
                hd = g.hdict(h)
                if n == 2:
                    hd = dict(hd)
                    hd["pre"] = hd["pre"] + ["    value = compute_fallback(options, strict=True)", "    log.debug('fallback value %r', value)"]
                edits.append((rel, [hd]))
            c.input = g.render(fmt, edits, langs[0], "make these three changes", "the files")
            c.write(g.out)


def hard_cases(g):
    r = g.r

    def mk(fam, fmt, before, after, inp, outcome="apply", code=None, notes=None, args=None, links=None, outside=None):
        c = Case(g.nid(fam, fmt), fmt, fam, outcome, code)
        c.before = dict(before)
        c.after = dict(after) if outcome == "apply" else {}
        c.input = inp
        c.meta["notes"] = dict(notes or {})
        c.meta["notes"]["hard"] = True
        if args:
            c.meta["args"] = args
        if links:
            c.links = links
        if outside:
            c.outside = outside
        c.write(g.out)
        return c

    def rd(p):
        return open(p, "rb").read()

    def edit_at(raw, i, j, new):
        f = F(raw)
        return f.render(f.apply(i, j, new))

    def find(L, pred, start=0):
        for k in range(start, len(L)):
            if pred(L[k]):
                return k
        return None

    def all_formats(tag, rel, raw, i, j, new, cb, ca, lang, fam="clean", fmts=None, summary="make the change", extra=None):
        """render one edit (lines i..j -> new, with cb/ca context) in every format"""
        f = F(raw)
        h = Hunk(f.lines, i, j, new, cb, ca)
        hd = g.hdict(h)
        after = f.render(f.apply(i, j, new))
        for fmt in (fmts or FMTS):
            if fmt == "whole":
                inp = prose(r, summary, os.path.basename(rel), g.whole_body(rel, f.apply(i, j, new), lang), lang)
            else:
                inp = g.render(fmt, [(rel, [hd])], lang, summary, os.path.basename(rel))
            b = {rel: raw}
            b.update(extra or {})
            a = {rel: after}
            a.update(extra or {})
            mk(fam, fmt, b, a, inp, notes={"variant": tag, "lang": lang})

    # --- H1 python Ellipsis `...` lines are code -------------------------------------------
    rel, raw = "Lib/abc.py", rd(PY + "/abc.py")
    L = F(raw).lines
    k = find(L, lambda l: l.strip() == "...")
    # change the docstring line two lines above the `...` (context includes `...`)
    all_formats("py-ellipsis-context", rel, raw, k + 1, k + 1, [L[k + 1 - 1][:len(L[k]) - 3] + "# the body is intentionally empty"], 3, 2, "py")
    rel, raw = "Lib/_threading_local.py", rd(PY + "/_threading_local.py")
    L = F(raw).lines
    k = find(L, lambda l: l.strip() == "...")
    all_formats("py-ellipsis-docstring", rel, raw, k - 1, k, [L[k - 1] + "  # noqa"], 2, 3, "py", fmts=["search-replace", "json", "udiff", "codex"])

    # --- H2 markdown setext headings / front matter ----------------------------------------
    rel, raw = "doc/procps/bugs.md", rd("/usr/share/doc/procps/bugs.md")
    L = F(raw).lines
    # rename a setext heading (underline '-----' as context)
    k = find(L, lambda l: re.fullmatch(r"-{5,}", l) is not None)
    all_formats("md-setext-rename", rel, raw, k - 1, k, [L[k - 1] + " (updated)"], 2, 2, "md")
    # delete a whole setext section heading (removed '-----' line)
    k2 = find(L, lambda l: re.fullmatch(r"-{5,}", l) is not None, k + 1)
    all_formats("md-setext-delete-heading", rel, raw, k2 - 1, k2 + 1, [], 2, 2, "md", fmts=["udiff", "udiff-loose", "codex", "search-replace"])
    # add a new setext section (added '-------' line)
    all_formats("md-setext-add", rel, raw, k2 - 1, k2 - 1, ["New section", "-----------", "", "Text of the new section.", ""], 2, 2, "md")
    # title underline ===== (5-9 '=' inside SEARCH: looks like a divider)
    for ulen in (6, 7, 8):
        body = f"Project\n{'=' * ulen}\n\nSome intro text here.\n\nUsage\n-----\n\nRun the tool.\n"
        rawm = body.encode()
        fm = F(rawm)
        all_formats(f"md-setext-eq{ulen}", "docs/guide.md", rawm, 0, 1, ["Project Guide"], 0, 3, "md", fmts=["search-replace", "diff-fenced", "json", "codex", "udiff"])
    # yaml python3-yaml README with ====== (6) underline at top
    rel, raw = "doc/python3-yaml/README.md", rd("/usr/share/doc/python3-yaml/README.md")
    L = F(raw).lines
    all_formats("md-setext-top", rel, raw, 0, 1, [L[0] + " for Python"], 0, 3, "md")
    # front matter
    fmraw = b"---\ntitle: Getting started\nlayout: page\n---\n\n" + rd("/usr/share/doc/python3-pip/html/getting-started.md")
    all_formats("md-front-matter", "docs/getting-started.md", fmraw, 1, 2, ["title: Getting started with pip"], 1, 3, "md")
    # delete a horizontal rule / front matter close? remove 'layout' line next to ---
    all_formats("md-front-matter-del", "docs/getting-started.md", fmraw, 2, 3, [], 2, 2, "md", fmts=["udiff", "udiff-loose", "codex", "search-replace", "json"])

    # --- H3 markdown with code fences ------------------------------------------------------
    for src in ["/usr/share/doc/python3-pip/html/getting-started.md", "/usr/share/doc/libglib2.0-0/README.md"]:
        raw = rd(src)
        rel = "doc/" + os.path.relpath(src, "/usr/share/doc")
        L = F(raw).lines
        k = find(L, lambda l: l.startswith("```"))
        if k is None:
            continue
        k2 = find(L, lambda l: l.startswith("```"), k + 1)
        # edit the line inside the code block; SEARCH spans the fence lines
        all_formats("md-fence-inside", rel, raw, k + 1, k + 2, [L[k + 1] + "  # updated"], 2, 2, "md")
        # add a paragraph after the code block
        all_formats("md-fence-after", rel, raw, k2 + 1, k2 + 1, ["", "The command above prints the version."], 3, 1, "md")
        # whole rewrite with naive 3-backtick fence
        f = F(raw)
        nl = f.apply(k2 + 1, k2 + 1, ["", "The command above prints the version."])
        body = g.whole_body(rel, nl, "md", naive=True)
        mk("clean", "whole", {rel: raw}, {rel: f.render(nl)}, prose(r, "add a sentence", "it", body, "md"), notes={"variant": "md-whole-naive-fence"})
        # SR with naive 3-backtick fence around a block containing ``` lines
        h = Hunk(L, k + 1, k + 2, [L[k + 1] + "  # updated"], 2, 2)
        inp = prose(r, "update the example", "it", sr_block(rel, h.search(), h.replace(), "md", naive=True), "md")
        mk("clean", "search-replace", {rel: raw}, {rel: f.render(f.apply(k + 1, k + 2, [L[k + 1] + "  # updated"]))}, inp, notes={"variant": "md-sr-naive-fence"})
        inp = prose(r, "update the example", "it", sr_block(rel, h.search(), h.replace(), "md", naive=True, fenced_path=True), "md")
        mk("clean", "diff-fenced", {rel: raw}, {rel: f.render(f.apply(k + 1, k + 2, [L[k + 1] + "  # updated"]))}, inp, notes={"variant": "md-sr-naive-fence"})

    # --- H4 YAML documents and lists -------------------------------------------------------
    yl = "---\n# settings\nname: demo\nitems:\n  - alpha\n  - beta\n  - gamma\n---\nname: second\nsteps:\n  - run: make\n  - run: make test\n"
    raw = yl.encode()
    all_formats("yaml-del-item", "cfg/app.yaml", raw, 5, 6, [], 2, 2, "yaml")
    all_formats("yaml-add-item", "cfg/app.yaml", raw, 6, 6, ["  - delta"], 2, 2, "yaml")
    all_formats("yaml-del-doc-sep", "cfg/app.yaml", raw, 7, 8, [], 2, 2, "yaml", fmts=["udiff", "udiff-loose", "codex", "search-replace", "json"])
    all_formats("yaml-top-sep", "cfg/app.yaml", raw, 2, 3, ["name: demo-app"], 2, 1, "yaml")
    yl2 = "- name: first\n  value: 1\n- name: second\n  value: 2\n-- odd\n"
    all_formats("yaml-toplevel-list-del", "cfg/list.yaml", yl2.encode(), 0, 2, [], 0, 2, "yaml", fmts=["udiff", "udiff-loose", "codex"])
    # a removed line that starts with '-- ' => diff line '--- '
    sql = "# Queries\n\n```sql\n-- create the table\nCREATE TABLE t (id int);\n-- drop it\nDROP TABLE t;\n```\n\nDone.\n"
    all_formats("md-sql-dashdash-del", "docs/queries.md", sql.encode(), 3, 4, [], 2, 2, "md", fmts=["udiff", "udiff-loose", "codex"])
    all_formats("md-sql-dashdash-add", "docs/queries.md", sql.encode(), 5, 5, ["-- keep the data", "++ counter"], 2, 2, "md", fmts=["udiff", "udiff-loose", "codex"])

    # --- H5 shell heredoc, tabs ------------------------------------------------------------
    shs = "#!/bin/sh\nset -e\n\nusage() {\n\tcat <<EOF\nusage: $0 [-v] file\n\n  -v  verbose\nEOF\n}\n\nmain() {\n\tcat <<'EOF'\n*** Begin Patch\nEOF\n\tusage\n}\n\nmain \"$@\"\n"
    raw = shs.encode()
    all_formats("sh-heredoc-edit", "scripts/tool.sh", raw, 7, 7, ["  -q  quiet"], 2, 2, "sh")
    all_formats("sh-heredoc-eof-context", "scripts/tool.sh", raw, 15, 16, ["\tusage >&2"], 2, 2, "sh", fmts=["codex", "search-replace", "udiff"])

    # --- H6 no final newline -----------------------------------------------------------------
    for src, rel, lang in [(PY + "/colorsys.py", "Lib/colorsys.py", "py"), ("/usr/share/doc/python3-yaml/README.md", "doc/README.md", "md")]:
        raw = rd(src).rstrip(b"\n")
        L = F(raw).lines
        n = len(L)
        all_formats("nofinalnl-edit-last", rel, raw, n - 1, n, [L[-1] + (" # end" if lang == "py" else " (end)")], 2, 0, lang)
        all_formats("nofinalnl-append", rel, raw, n, n, ["# appended" if lang == "py" else "Appended line."], 2, 0, lang)
        all_formats("nofinalnl-edit-near", rel, raw, n - 3, n - 2, [L[n - 3] + (" # x" if lang == "py" else " x")], 1, 2, lang)
    # git diff with explicit "\ No newline" markers on both sides
    raw = b"alpha\nbeta\ngamma"
    inp = prose(r, "change gamma", "x", "```diff\ndiff --git a/cfg/x.txt b/cfg/x.txt\n--- a/cfg/x.txt\n+++ b/cfg/x.txt\n@@ -2,2 +2,2 @@\n beta\n-gamma\n\\ No newline at end of file\n+delta\n\\ No newline at end of file\n```\n", "md")
    mk("clean", "udiff", {"cfg/x.txt": raw}, {"cfg/x.txt": b"alpha\nbeta\ndelta"}, inp, notes={"variant": "nofinalnl-git-markers"})
    inp = prose(r, "add a final newline", "x", "```diff\n--- a/cfg/x.txt\n+++ b/cfg/x.txt\n@@ -2,2 +2,2 @@\n beta\n-gamma\n\\ No newline at end of file\n+gamma\n```\n", "md")
    mk("clean", "udiff", {"cfg/x.txt": raw}, {"cfg/x.txt": b"alpha\nbeta\ngamma\n"}, inp, notes={"variant": "nofinalnl-git-add-newline"})

    # --- H7 CRLF python + combos -------------------------------------------------------------
    raw = rd(PY + "/colorsys.py").replace(b"\n", b"\r\n")
    L = F(raw).lines
    k = find(L, lambda l: l.startswith("def hls_to_rgb"))
    all_formats("crlf-py-add-def", "Lib/colorsys.py", raw, k, k, ["def _unused():", "    return None", "", ""], 2, 2, "py", fam="crlf")
    rawb = b"\xef\xbb\xbf" + raw
    all_formats("crlf-bom-py", "Lib/colorsys.py", rawb, 0, 0, ["# -*- coding: utf-8 -*-"], 0, 2, "py", fam="bom")
    # crlf + trailing ws in file
    rawt = add_trailing_ws(rd(PY + "/colorsys.py")).replace(b"\n", b"\r\n")
    Lt = F(rawt).lines
    k = find(Lt, lambda l: l.startswith("def rgb_to_yiq"))
    f = F(rawt)
    h = Hunk(Lt, k + 1, k + 1, ["    # converts RGB to YIQ"], 2, 2)
    hd = g.hdict(h, lambda l: l.rstrip())
    for fmt in ["search-replace", "udiff", "json", "codex"]:
        mk("trailing-ws", fmt, {"Lib/colorsys.py": rawt}, {"Lib/colorsys.py": f.render(f.apply(k + 1, k + 1, ["    # converts RGB to YIQ"]))}, g.render(fmt, [("Lib/colorsys.py", [hd])], "py", "add a comment", "colorsys.py"), notes={"variant": "crlf+ws"})

    # --- H8 long lines, non-ASCII, cp1252 ----------------------------------------------------
    longl = '{\n  "name": "big",\n  "list": [' + ", ".join('"item%04d"' % i for i in range(700)) + '],\n  "version": "1.0.0",\n  "private": true\n}\n'
    raw = longl.encode()
    all_formats("json-long-line-near", "data/big.json", raw, 3, 4, ['  "version": "1.0.1",'], 2, 1, "json")
    all_formats("json-long-line-edit", "data/big.json", raw, 2, 3, [F(raw).lines[2].replace('"item0001"', '"itemXXXX"')], 1, 1, "json", fmts=["search-replace", "json", "udiff", "codex"])
    acc = "# Référence\n\nCe document décrit l’outil « edapply ».\n\n- Étape 1 : installer\n- Étape 2 : configurer\n- 步骤 3：运行 🚀\n\nFin.\n"
    raw = acc.encode()
    all_formats("utf8-accents", "docs/fr/référence.md", raw, 5, 6, ["- Étape 2 : configurer (voir ci-dessous)"], 2, 2, "md")
    all_formats("utf8-accents-add", "docs/fr/guide.md", raw, 7, 7, ["- Étape 4 : vérifier ✅"], 2, 1, "md")
    cp = rd(PY + "/colorsys.py").replace(b"# References:", b"# R\xe9f\xe9rences (caf\xe9):", 1)
    assert b"\xe9" in cp
    L = F(cp).lines
    k = find(L, lambda l: l.startswith("def yiq_to_rgb"))
    all_formats("cp1252-elsewhere", "Lib/colorsys.py", cp, k, k, ["# YIQ -> RGB", ""], 2, 2, "py")
    k = find(L, lambda l: "caf" in l)
    all_formats("cp1252-context", "Lib/colorsys.py", cp, k + 1, k + 1, ["# (see above)"], 0, 1, "py", fmts=["udiff", "udiff-loose", "codex"])
    # markdown with real curly quotes, edit next to them (clean) and model folding them to ASCII
    src = "/usr/share/doc/nodejs/SECURITY.md"
    raw = rd(src)
    L = F(raw).lines
    k = find(L, lambda l: "\u2019" in l)
    all_formats("md-curly-in-file", "doc/nodejs/SECURITY.md", raw, k, k + 1, [L[k] + " (clarified)"], 1, 1, "md", fmts=["search-replace", "udiff", "json", "codex", "whole"])
    f = F(raw)
    h = Hunk(L, k + 1, k + 1, ["Added line after the curly one."], 2, 1)
    fold = lambda l: l.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    hd = g.hdict(h, fold)
    for fmt in ["search-replace", "json", "udiff", "codex"]:
        mk("unicode-punct", fmt, {"doc/nodejs/SECURITY.md": raw}, {"doc/nodejs/SECURITY.md": f.render(f.apply(k + 1, k + 1, ["Added line after the curly one."]))}, g.render(fmt, [("doc/nodejs/SECURITY.md", [hd])], "md", "add a line", "SECURITY.md"), notes={"variant": "reverse-fold"})
    # a changed line in which the model also typesets the file's ASCII quotes (as sent)
    # rescale 4 -> 8
    for fmt in ["search-replace", "udiff", "json"]:
        c = g.apply_case("indent-shift", fmt, "py", T=lambda l: re.sub(r"^( {4})+", lambda m: "        " * (len(m.group(0)) // 4), l), variant="rescale-4to8", minctx=2)
        g.emit(c)

    # --- H9 resent / already applied ---------------------------------------------------------
    for fmt in ["search-replace", "json", "udiff", "codex"]:
        got = g.apply_case("clean", fmt, "py", kinds=[ek_comment, ek_import, ek_block])
        if got:
            c, f, h, e = got
            rel = c.meta["oracle"][0]["path"]
            # same response, but the tree already holds the result
            c2 = Case(g.nid("clean", fmt), fmt, "clean")
            c2.before = dict(c.after); c2.after = dict(c.after); c2.input = c.input
            c2.meta["notes"] = {"variant": "resent-already-applied", "hard": True}
            c2.write(g.out)
            c.write(g.out)
            # the same edit twice in one response
            if fmt in ("search-replace", "json"):
                c3 = Case(g.nid("clean", fmt), fmt, "clean")
                c3.before = dict(c.before); c3.after = dict(c.after)
                body = c.input
                hd = g.hdict(h)
                blk = g.render(fmt, [(rel, [hd])], "py", "again", "x")
                c3.input = body + "\nSorry, here it is again:\n\n" + blk
                c3.meta["notes"] = {"variant": "resent-twice-in-one", "hard": True}
                c3.write(g.out)

    # --- H10 path spellings -----------------------------------------------------------------
    got = one_edit(g, "py")
    p, rel, raw, f, e, h = got
    s, rp = text_of(h.search()), text_of(h.replace())
    after = {rel: f.render(f.apply(e[0], e[1], e[2]))}
    blk = f"<<<<<<< SEARCH\n{s}=======\n{rp}>>>>>>> REPLACE\n"
    spell = {
        "bold-backtick": f"**`{rel}`**\n```python\n{blk}```\n",
        "bold": f"**{rel}**\n```python\n{blk}```\n",
        "file-colon": f"File: {rel}\n```python\n{blk}```\n",
        "file-colon-backtick": f"File: `{rel}`\n```python\n{blk}```\n",
        "in-path-colon": f"In `{rel}`:\n\n```python\n{blk}```\n",
        "heading": f"### {rel}\n\n```python\n{blk}```\n",
        "heading-backtick": f"## `{rel}`\n```python\n{blk}```\n",
        "info-path": f"```python path={rel}\n{blk}```\n",
        "info-filename": f"```python:{rel}\n{blk}```\n",
        "backtick-line": f"`{rel}`\n```python\n{blk}```\n",
        "blank-after-path": f"{rel}\n\n```python\n{blk}```\n",
        "path-trailing-colon": f"{rel}:\n```python\n{blk}```\n",
        "unfenced": f"{rel}\n{blk}",
        "dot-slash": f"./{rel}\n```python\n{blk}```\n",
    }
    for name, body in spell.items():
        mk("clean", "search-replace", {rel: raw}, after, prose(r, e[3], "it", body, "py"), notes={"variant": "path-" + name})
    # inherited path for the second block
    got2 = None
    for _ in range(20):
        e2 = pick_edit(r, f.lines, "py", [ek_change, ek_comment])
        if e2 and (e2[0] > e[1] + 8 or e2[1] < e[0] - 8):
            h2 = make_hunk(f.lines, e2, r)
            if h2:
                got2 = (e2, h2)
                break
    if got2:
        e2, h2 = got2
        lo, hi = sorted([(e, h), (e2, h2)], key=lambda x: x[0][0])
        nl = f.lines[:]
        for ee, hh in sorted([(e, h), (e2, h2)], key=lambda x: -x[0][0]):
            nl = nl[:ee[0]] + ee[2] + nl[ee[1]:]
        blk2 = f"<<<<<<< SEARCH\n{text_of(h2.search())}=======\n{text_of(h2.replace())}>>>>>>> REPLACE\n"
        body = f"{rel}\n```python\n{blk}```\n\nAnd further down:\n\n```python\n{blk2}```\n"
        mk("multi-edit-sequential", "search-replace", {rel: raw}, {rel: f.render(nl)}, prose(r, "two changes", "it", body, "py"), notes={"variant": "inherited-path"})
        body = f"{rel}\n```python\n{blk}\n{blk2}```\n"
        mk("multi-edit-sequential", "search-replace", {rel: raw}, {rel: f.render(nl)}, prose(r, "two changes", "it", body, "py"), notes={"variant": "two-blocks-one-fence"})
    # path with spaces / unicode
    for sp in ["my docs/read me.py", "docs/café/ünïcode.py"]:
        mk("clean", "search-replace", {sp: raw}, {sp: after[rel]}, prose(r, e[3], "it", f"{sp}\n```python\n{blk}```\n", "py"), notes={"variant": "path-odd-chars"})
        mk("clean", "udiff", {sp: raw}, {sp: after[rel]}, prose(r, e[3], "it", "```diff\n" + udiff_file(sp, [g.hdict(h)], git=False) + "```\n", "py"), notes={"variant": "path-odd-chars"})
        mk("clean", "json", {sp: raw}, {sp: after[rel]}, prose(r, e[3], "it", json_line(sp, h.search(), h.replace()) + "\n", "py"), notes={"variant": "path-odd-chars"})

    # --- H11 diff shapes ----------------------------------------------------------------------
    hd = g.hdict(h)
    hunk_only = udiff_file(rel, [hd], git=False).split("\n", 2)[2]       # drop ---/+++
    mk("clean", "udiff", {rel: raw}, after, prose(r, e[3], "it", f"{rel}\n```diff\n{hunk_only}```\n", "py"), notes={"variant": "diff-no-header-path-line"})
    mk("clean", "udiff", {rel: raw}, after, prose(r, e[3], "it", f"`{rel}`:\n```diff\n{hunk_only}```\n", "py"), notes={"variant": "diff-no-header-path-backtick"})
    loose_only = udiff_file(rel, [hd], loose=True).split("\n", 2)[2]
    mk("clean", "udiff-loose", {rel: raw}, after, prose(r, e[3], "it", f"{rel}\n```diff\n{loose_only}```\n", "py"), notes={"variant": "diff-no-header-path-line"})
    # timestamps / no a/ b/
    d = udiff_file(rel, [hd], git=False).replace(f"--- a/{rel}", f"--- {rel}\t2024-05-01 10:00:00.000000000 +0200").replace(f"+++ b/{rel}", f"+++ {rel}\t2024-05-01 10:05:00.000000000 +0200")
    mk("clean", "udiff", {rel: raw}, after, prose(r, e[3], "it", "```diff\n" + d + "```\n", "py"), notes={"variant": "diff-timestamps"})
    # blank context lines without leading space
    d = udiff_file(rel, [hd], git=True)
    d2 = "\n".join("" if l == " " else l for l in d.split("\n"))
    mk("clean", "udiff", {rel: raw}, after, prose(r, e[3], "it", "```diff\n" + d2 + "```\n", "py"), notes={"variant": "diff-blank-context-no-space"})
    # whole response with CRLF line endings (pasted from Windows)
    c_inp = prose(r, e[3], "it", "```diff\n" + udiff_file(rel, [hd], git=True) + "```\n", "py").replace("\n", "\r\n")
    mk("clean", "udiff", {rel: raw}, after, c_inp, notes={"variant": "response-crlf"})
    c_inp = prose(r, e[3], "it", f"{rel}\n```python\n{blk}```\n", "py").replace("\n", "\r\n")
    mk("clean", "search-replace", {rel: raw}, after, c_inp, notes={"variant": "response-crlf"})
    # two files in one diff fence
    got3 = one_edit(g, "md")
    if got3:
        p3, rel3, raw3, f3, e3, h3 = got3
        d = udiff_file(rel, [hd], git=False) + udiff_file(rel3, [g.hdict(h3)], git=False)
        mk("multi-file", "udiff", {rel: raw, rel3: raw3}, {rel: after[rel], rel3: f3.render(f3.apply(e3[0], e3[1], e3[2]))}, prose(r, "two changes", "them", "```diff\n" + d + "```\n", "py"), notes={"variant": "two-files-one-fence"})
        d = udiff_file(rel, [hd], loose=True) + udiff_file(rel3, [g.hdict(h3)], loose=True)
        mk("multi-file", "udiff-loose", {rel: raw, rel3: raw3}, {rel: after[rel], rel3: f3.render(f3.apply(e3[0], e3[1], e3[2]))}, prose(r, "two changes", "them", "```diff\n" + d + "```\n", "py"), notes={"variant": "two-files-one-fence"})
        # unfenced diff
        d = udiff_file(rel, [hd], git=True)
        mk("clean", "udiff", {rel: raw}, after, prose(r, e[3], "it", d, "py"), notes={"variant": "diff-unfenced"})

    # --- H12 codex anchors in Python -----------------------------------------------------------
    for src in ["colorsys.py", "bisect.py", "_py_abc.py", "fnmatch.py", "shlex.py"]:
        raw = rd(PY + "/" + src)
        f = F(raw)
        L = f.lines
        defs = [k for k, l in enumerate(L) if re.match(r"\s*def \w+", l)]
        if not defs:
            continue
        k = r.choice(defs)
        # insert a comment as the first body line after the docstring-less def; anchor = the def line
        body_k = k + 1
        ind = indent_of(L[body_k]) if L[body_k].strip() else indent_of(L[k]) + "    "
        new = [ind + "# entry point"]
        ctx = L[body_k:body_k + 3]
        after_b = f.render(f.apply(body_k, body_k, new))
        env = f"*** Update File: Lib/{src}\n@@ {L[k].strip()}\n" + "".join("+" + x + "\n" for x in new) + "".join(" " + x + "\n" for x in ctx)
        mk("clean", "codex", {"Lib/" + src: raw}, {"Lib/" + src: after_b}, prose(r, "add a comment", src, codex_wrap(env, "fenced"), "py"), notes={"variant": "codex-def-anchor"})
        # +only chunk right after the anchor
        env = f"*** Update File: Lib/{src}\n@@ {L[k]}\n" + "".join("+" + x + "\n" for x in new)
        mk("clean", "codex", {"Lib/" + src: raw}, {"Lib/" + src: after_b}, prose(r, "add a comment", src, codex_wrap(env, "raw"), "py"), notes={"variant": "codex-def-anchor-plus-only"})
        # class anchor + def anchor
        cls = [c for c in range(0, k) if L[c].startswith("class ")]
        if cls and L[k].startswith(" "):
            env = f"*** Update File: Lib/{src}\n@@ {L[cls[-1]]}\n@@ {L[k]}\n" + "".join("+" + x + "\n" for x in new) + "".join(" " + x + "\n" for x in ctx)
            mk("clean", "codex", {"Lib/" + src: raw}, {"Lib/" + src: after_b}, prose(r, "add a comment", src, codex_wrap(env, "heredoc"), "py"), notes={"variant": "codex-class-def-anchor"})
    # codex edit at end with *** End of File
    raw = rd(PY + "/colorsys.py")
    f = F(raw)
    L = f.lines
    n = len(L)
    env = "*** Update File: Lib/colorsys.py\n@@\n" + "".join(" " + x + "\n" for x in L[n - 2:]) + "+\n+# end of module\n*** End of File\n"
    mk("clean", "codex", {"Lib/colorsys.py": raw}, {"Lib/colorsys.py": f.render(L + ["", "# end of module"])}, prose(r, "add a trailer", "colorsys.py", codex_wrap(env, "raw"), "py"), notes={"variant": "codex-eof"})

    # --- H13 JSON tool-call variants ---------------------------------------------------------
    got = one_edit(g, "py")
    p, rel, raw, f, e, h = got
    after = {rel: f.render(f.apply(e[0], e[1], e[2]))}
    s, rp = text_of(h.search())[:-1], text_of(h.replace())[:-1]
    win = rel.replace("/", "\\")
    variants = {
        "windows-path": json.dumps({"path": win, "old_string": s, "new_string": rp}),
        "windows-abs-like": json.dumps({"file_path": ".\\" + win, "old_str": s, "new_str": rp}),
        "file_path-old_str": json.dumps({"file_path": rel, "old_str": s, "new_str": rp}),
        "array": json.dumps([{"path": rel, "old_string": s, "new_string": rp, "replace_all": False}], indent=2),
        "pretty": json.dumps({"path": rel, "old_string": s, "new_string": rp}, indent=2),
        "tool-call-wrapper": json.dumps({"name": "str_replace_based_edit_tool", "input": {"command": "str_replace", "path": rel, "old_str": s, "new_str": rp}}),
        "old-has-nl-new-not": json.dumps({"path": rel, "old_string": s + "\n", "new_string": rp + "\n"}),
    }
    for name, body in variants.items():
        mk("clean", "json", {rel: raw}, after, prose(r, e[3], "it", "```json\n" + body + "\n```\n", "py"), notes={"variant": "json-" + name})
    # replace_all
    rawr = b"x = 1\nprint(x)\ny = x + 1\nprint(x)\n"
    mk("clean", "json", {"a.py": rawr}, {"a.py": b"x = 1\nlog(x)\ny = x + 1\nlog(x)\n"}, prose(r, "use log", "a.py", json.dumps({"path": "a.py", "old_string": "print(x)", "new_string": "log(x)", "replace_all": True}) + "\n", "py"), notes={"variant": "json-replace-all"})

    # --- H14 SR marker edge cases -----------------------------------------------------------------
    raw = rd(PY + "/colorsys.py")
    f = F(raw)
    L = f.lines
    k = find(L, lambda l: l.startswith("ONE_THIRD"))
    new = ["ONE_THIRD = 1.0 / 3.0"]
    a2 = f.render(f.apply(k, k + 1, new))
    for name, (o, m, c) in {"nine": ("<<<<<<<<< SEARCH", "=========", ">>>>>>>>> REPLACE"), "five": ("<<<<< SEARCH", "=====", ">>>>> REPLACE"), "bare": ("<<<<<<<", "=======", ">>>>>>>")}.items():
        body = f"Lib/colorsys.py\n```python\n{o}\n{L[k]}\n{m}\n{new[0]}\n{c}\n```\n"
        mk("clean", "search-replace", {"Lib/colorsys.py": raw}, {"Lib/colorsys.py": a2}, prose(r, "tweak", "it", body, "py"), notes={"variant": "sr-markers-" + name})
    # SEARCH without newline before divider? (REPLACE empty = deletion)
    body = f"Lib/colorsys.py\n```python\n<<<<<<< SEARCH\n{L[k]}\n=======\n>>>>>>> REPLACE\n```\n"
    mk("clean", "search-replace", {"Lib/colorsys.py": raw}, {"Lib/colorsys.py": f.render(f.apply(k, k + 1, []))}, prose(r, "drop it", "it", body, "py"), notes={"variant": "sr-empty-replace"})
    # a document that shows the SR format (nested markers) inside a markdown file
    doc = "# Format\n\nA block looks like this:\n\n```\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n\nThat is all.\n"
    rawd = doc.encode()
    fd = F(rawd)
    Ld = fd.lines
    hh = Hunk(Ld, 13, 14, ["That is all there is to it."], 3, 0)
    mk("clean", "search-replace", {"docs/format.md": rawd}, {"docs/format.md": fd.render(fd.apply(13, 14, ["That is all there is to it."]))}, prose(r, "reword", "it", sr_block("docs/format.md", hh.search(), hh.replace(), "md"), "md"), notes={"variant": "sr-doc-shows-markers"})
    hh = Hunk(Ld, 6, 7, ["older"], 2, 3)
    mk("clean", "search-replace", {"docs/format.md": rawd}, {"docs/format.md": fd.render(fd.apply(6, 7, ["older"]))}, prose(r, "reword", "it", sr_block("docs/format.md", hh.search(), hh.replace(), "md"), "md"), notes={"variant": "sr-doc-shows-markers-inside"})

    # --- H15 more path escapes -----------------------------------------------------------------
    got = one_edit(g, "py")
    p, rel, raw, f, e, h = got
    name = os.path.basename(rel)
    hd = g.hdict(h)
    for v, epath, extra in [
        ("dotdot-inner", f"Lib/../../../shared/{name}", {}),
        ("dotdot-windows", f"..\\..\\shared\\{name}", {}),
        ("abs-root-tree", None, {}),
    ]:
        if epath is None:
            continue
        for fmt in ["search-replace", "json", "udiff", "codex"]:
            mk("path-escape", fmt, {rel: raw}, {}, g.render(fmt, [(epath, [hd])], "py", e[3], name), "refuse", "OUT_OF_ROOT", notes={"variant": v}, outside={"o1/shared/" + name: raw})
    # symlink pointing at an absolute path outside; dangling symlink
    for v, tgt in [("symlink-abs", "/tmp/edapply-escape/linked/" + name), ("symlink-dangling", "../../nowhere/" + name)]:
        for fmt in ["search-replace", "whole", "codex"]:
            if fmt == "whole":
                body = g.whole_body("evil_" + name, f.apply(e[0], e[1], e[2]), "py")
            elif fmt == "codex":
                body = codex_wrap(f"*** Add File: evil_{name}\n+print('hi')\n", "raw")
            else:
                body = sr_block("evil_" + name, h.search(), h.replace(), "py")
            c = mk("path-escape", fmt, {rel: raw}, {}, prose(r, e[3], name, body, "py"), "refuse", "OUT_OF_ROOT", notes={"variant": v}, links={"evil_" + name: tgt})
            if v == "symlink-abs":
                c.meta["escape_paths"] = [tgt]
                c.write(g.out)
    # codex move-to outside
    env = f"*** Update File: {rel}\n*** Move to: ../../shared/{name}\n" + "".join(" " + x + "\n" for x in hd["pre"]) + "".join("-" + x + "\n" for x in hd["old"]) + "".join("+" + x + "\n" for x in hd["new"]) + "".join(" " + x + "\n" for x in hd["post"])
    mk("path-escape", "codex", {rel: raw}, {}, prose(r, "move it", name, codex_wrap(env, "raw"), "py"), "refuse", "OUT_OF_ROOT", notes={"variant": "codex-move-out"})
    # git rename out of tree
    d = f"```diff\ndiff --git a/{rel} b/../../shared/{name}\nsimilarity index 100%\nrename from {rel}\nrename to ../../shared/{name}\n```\n"
    mk("path-escape", "udiff", {rel: raw}, {}, prose(r, "move it", name, d, "py"), "refuse", "OUT_OF_ROOT", notes={"variant": "git-rename-out"})
    # --- H16 whole-elision in markdown / yaml / python variants ---------------------------------
    for lang, ph in [("md", "(rest of file unchanged)"), ("md", "[rest of the document unchanged]"), ("md", "<!-- existing content -->"), ("md", "..."), ("md", "\u2026"), ("json", '  "...": "..."'), ("py", "# etc."), ("sh", ": # rest unchanged"), ("py", "    # ... rest of the function unchanged ..."), ("md", "<!-- rest unchanged -->"), ("md", "[...]"), ("yaml", "# ... (rest of the file unchanged)"), ("py", "# (unchanged)"), ("sh", "# ... rest unchanged")]:
        got = one_edit(g, lang)
        if not got:
            continue
        p, rel, raw, f, e, h = got
        nl = f.apply(e[0], e[1], e[2])
        cut = min(len(nl) - 3, e[0] + len(e[2]) + 5)
        view = nl[:cut] + [ph]
        mk("whole-elision", "whole", {rel: raw}, {}, prose(r, e[3], "it", g.whole_body(rel, view, lang), lang), "refuse", "ELISION", notes={"variant": "placeholder " + ph})

    # --- H17 regressions found by the red team (minimal) ------------------------------------
    md = "# Proj\n\nIntro.\n\nLicense\n=======\n\nMIT licensed.\n"
    inp = "README.md\n```markdown\n<<<<<<< SEARCH\nIntro.\n\nLicense\n=======\n\nMIT licensed.\n=======\nIntro.\n\nLicense\n=======\n\nMIT licensed, see LICENSE.\n>>>>>>> REPLACE\n```\n"
    mk("clean", "search-replace", {"README.md": md.encode()}, {"README.md": md.replace("MIT licensed.", "MIT licensed, see LICENSE.").encode()}, prose(r, "mention the license file", "README.md", inp, "md"), notes={"variant": "md-setext-eq7-middle"})
    inp = "a.txt\n```\n<<<<<<< SEARCH\nx\n=======\nz\n=======\nx\n=======\nZ\n>>>>>>> REPLACE\n```\n"
    mk("clean", "search-replace", {"a.txt": b"x\ny\nx\n=======\nz\n"}, {"a.txt": b"x\ny\nx\n=======\nZ\n"}, prose(r, "capitalise z", "a.txt", inp, "md"), notes={"variant": "sr-divider-only-unique-split"})
    pyq = "import os\n\n\ndef area(w, h):\n    \"\"\"Return the area.\"\"\"\n    total = w * h\n    return total\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
    blk = "<<<<<<< SEARCH\n    total = w * h\n    return total\n=======\n    total = w * h\n    return int(total)\n>>>>>>> REPLACE\n"
    inp = "Currently:\n\ngeo/shapes.py\n```python\n    total = w * h\n    return total\n```\n\nHere's the fix:\n\ngeo/shapes.py\n```python\n" + blk + "```\n"
    mk("clean", "search-replace", {"geo/shapes.py": pyq.encode()}, {"geo/shapes.py": pyq.replace("return total", "return int(total)").encode()}, inp, notes={"variant": "quoted-snippet-before-sr"})
    inp = "geo/shapes.py\n```python\n" + blk + "```\n\nThen run it:\n\nscripts/check.sh\n```bash\nsh scripts/check.sh\n```\n"
    mk("clean", "search-replace", {"geo/shapes.py": pyq.encode(), "scripts/check.sh": b"#!/bin/sh\necho ok\n"}, {"geo/shapes.py": pyq.replace("return total", "return int(total)").encode(), "scripts/check.sh": b"#!/bin/sh\necho ok\n"}, inp, notes={"variant": "path-line-before-command-fence"})
    sh = "f() {\n    echo \"don't\"\n    return 0\n}\n"
    inp = "a.sh\n```bash\n<<<<<<< SEARCH\n    echo \"don\u2019t\"\n=======\n    echo \"don\u2019t\"\n\techo two\n>>>>>>> REPLACE\n```\n"
    mk("unicode-punct", "search-replace", {"a.sh": sh.encode()}, {"a.sh": sh.replace("    return 0", "\techo two\n    return 0").encode()}, inp, notes={"variant": "unicode-level-keeps-tab-as-sent"})
    for pre in ["Update `geo/shapes.py`:\n\n", "**File: `geo/shapes.py`**\n\n", "Edit `geo/shapes.py` as follows:\n\n"]:
        mk("clean", "search-replace", {"geo/shapes.py": pyq.encode()}, {"geo/shapes.py": pyq.replace("return total", "return int(total)").encode()}, "Sure.\n\n" + pre + "```python\n" + blk + "```\n", notes={"variant": "path-in-prose"})
    # 4-space file, 2-space model, two levels
    src = "def f(x):\n    if x:\n        return 1\n    y = 2\n    return y\n\n\nz = 1\n"
    inp = "a.py\n```python\n<<<<<<< SEARCH\n  if x:\n    return 1\n  y = 2\n=======\n  if x:\n    return 10\n  y = 2\n>>>>>>> REPLACE\n```\n"
    mk("indent-shift", "search-replace", {"a.py": src.encode()}, {"a.py": src.replace("return 1\n", "return 10\n").encode()}, inp, notes={"variant": "rescale-minimal"})

    # indent style judged from a space-indented first line (block comment) in a tab file
    go = "package a\n\n/*\n * doc\n */\nfunc f() {\n\tx := 1\n\t_ = x\n}\n"
    inp = "a.go\n```go\n<<<<<<< SEARCH\n */\nfunc f() {\n    x := 1\n    _ = x\n=======\n */\nfunc f() {\n    x := 2\n    _ = x\n>>>>>>> REPLACE\n```\n"
    mk("indent-shift", "search-replace", {"a.go": go.encode()}, {"a.go": go.replace("x := 1", "x := 2").encode()}, inp, notes={"variant": "tabs-to-spaces-first-line-space-indented"})
    # rescale hidden by an exact mid-line (suffix) match of the first SEARCH line
    src = "try:\n    import x\nexcept ImportError:\n    pass\n\ny = 1\n"
    inp = "m.py\n```python\n<<<<<<< SEARCH\n  pass\n\ny = 1\n=======\n  pass\n\ndef f():\n  return 1\n\ny = 1\n>>>>>>> REPLACE\n```\n"
    mk("indent-shift", "search-replace", {"m.py": src.encode()}, {"m.py": src.replace("    pass\n\n", "    pass\n\ndef f():\n    return 1\n\n").encode()}, inp, notes={"variant": "rescale-masked-by-suffix-match"})
    # whole-file block for an extensionless file at the root, next to another edit
    tool = "#!/bin/sh\necho hi\n"
    inp = "bin/run.sh\n```bash\n<<<<<<< SEARCH\necho run\n=======\necho running\n>>>>>>> REPLACE\n```\n\ngradlew\n```bash\n#!/bin/sh\necho hello\n```\n"
    mk("multi-file", "whole", {"bin/run.sh": b"#!/bin/sh\necho run\n", "gradlew": tool.encode()}, {"bin/run.sh": b"#!/bin/sh\necho running\n", "gradlew": b"#!/bin/sh\necho hello\n"}, inp, notes={"variant": "extensionless-root-file"})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/redteam/corpus")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-hard", action="store_true")
    ap.add_argument("--wide", action="store_true", help="wider source pools (all stdlib packages, module-cache md/yaml)")
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    with open(os.path.join(a.out, ".gitattributes"), "w") as f:
        f.write("* -text\n")
    global WIDE
    WIDE = a.wide
    g = Gen(a.seed, a.out)
    g.no_hard = a.no_hard
    run_families(g)
    print("cases:", g.n, file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
