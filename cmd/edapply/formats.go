package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/edapply/edapply/edit"
)

// newFormatsHelpCmd returns the "formats" help topic: a command with no Run,
// which cobra lists under "Additional help topics" and prints for
// `edapply help formats`. docs/formats.md holds the same text
// (TestFormatsDoc keeps them equal).
// The text is made when the topic is shown: building it for every run of
// the program, to print it in a few, costs a tenth of a millisecond.
func newFormatsHelpCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "formats",
		Short: "The edit formats edapply reads, with an example of each",
	}
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c.Long == "" {
			c.Long = formatsHelp()
		}
		if p := c.Parent(); p != nil {
			p.HelpFunc()(c, args)
		}
	})
	return cmd
}

// formatsHelp returns the topic's text. It is Markdown that reads as plain
// text in a terminal: setext headings, examples as indented code blocks.
// A Go raw string cannot hold a backtick, so the examples' fences are
// written as three apostrophes and turned into backticks here. What parse's
// table says of each format fills the list of names ("§names") and the
// heading of each format's section ("§udiff").
func formatsHelp() string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(strings.ReplaceAll(formatsText, "'''", "```"), "\n") {
		name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "§")
		if !ok {
			b.WriteString(line)
			continue
		}
		for _, f := range edit.Formats() {
			switch {
			case name == "names":
				fmt.Fprintf(&b, " - %s: %s\n", f, f.About())
			case name == f.String():
				h := f.String() + ": " + f.About()
				fmt.Fprintf(&b, "%s\n%s\n", h, strings.Repeat("-", utf8.RuneCountInString(h)))
			}
		}
	}
	return b.String()
}

const formatsText = `edapply reads the edits in a model's reply in any of the formats below and
ignores the prose around them. With --format auto (the default) every region
of the reply is recognized by its own markers, so one reply may mix formats;
--format NAME reads only that one. Paths are relative to the root (-C); none
may leave it. The names:

§names

§search-replace

The file's path on the line before the fence, then one or more blocks: a
SEARCH marker, the text to find, a divider, the text to put in its place, a
REPLACE marker. Marker runs have 5 to 9 characters; a divider of exactly
seven '=' wins over other lengths, and a <<<<<<< / >>>>>>> pair inside the
text (a git conflict, a document showing the format) nests. A marker that
carries its word (SEARCH, REPLACE) may have any run from 3, as Cline reads
it; a block opened so is divided by a run of '=' of any length from 3, and
no length earns a preference there: of several, the file or the block's
shape must tell which divides it. The SEARCH text must occur exactly once.

    src/app.go
    '''go
    <<<<<<< SEARCH
    	return nil
    =======
    	return err
    >>>>>>> REPLACE
    '''

The path may also be the first line inside the fence ("diff-fenced") or the
fence's info string ("'''go src/app.go"), and a block with no path edits the
previous block's file. An empty SEARCH creates the file (or fills an empty
one); on a file with content it appends the REPLACE at the end (strategy
"append", Aider's reading), and is already applied when the file already
ends with that text. An append that restates the file (it begins with the
file's whole text, a one-line stub's too, or ends as the file does, or most
of its lines already stand in the file) is a new version of the file, not
an addition: FILE_EXISTS. A file the reply itself created is never
appended to: a later empty SEARCH (or any create) of it is its new version,
written alone. Blocks are found by their marker
lines, not by fences, so the text being edited may hold fences of its own.

    '''
    src/app.go
    <<<<<<< SEARCH
    =======
    package app
    >>>>>>> REPLACE
    '''

Other tools' spellings of the same block are read alike. Cline opens with
"------- SEARCH" and closes with "+++++++ REPLACE". Roo Code puts
":start_line:N" (and ":end_line:M") and a "-------" line between the opener
and the SEARCH text; they are not the file's text, and the start line is a
hint like a diff's line number: it may pick one of several equal matches,
never move an edit to a place its text does not match. "<<<<<<< SEARCH>"
with a stray '>' opens a block too. Their XML tool calls are read as
written: a "<path>PATH</path>" line, then up to three lines of only
opening tags ("<diff>", Roo's "<content><![CDATA["), then the blocks,
which take that path; the closing tags are prose. A backslash before a
line the block would read as its own ("\=======", "\<<<<<<< HEAD",
"\-------") makes it the file's text, as Roo Code asks models to write a
file's marker lines; "edapply normalize" writes a file's marker lines so.

    src/app.go
    ------- SEARCH
    	return nil
    =======
    	return err
    +++++++ REPLACE

    src/app.go
    <<<<<<< SEARCH
    :start_line:42
    -------
    	return nil
    =======
    	return err
    >>>>>>> REPLACE

The path may stand before Aider's "<source>" fence (which it uses when the
files hold triple backticks; "</source>" after the block is prose), alone
in a small fence of its own right before the block's fence, or before a
fence of four backticks whose block holds fences of three. A fence holding
marker lines is never a whole file. A marker that does not read
("<<-- SEARCH", "<< SEARCH", "<<<<<<<SEARCH") is a PARSE_ERROR naming its
line, and so is a block whose dividers cannot be told apart: a divider
written twice is never taken for a line of REPLACE text.

    '''
    src/app.go
    '''
    '''go
    <<<<<<< SEARCH
    	return nil
    =======
    	return err
    >>>>>>> REPLACE
    '''

§udiff

Git diffs, with create (--- /dev/null), delete (+++ /dev/null), rename and
mode changes, and loose model diffs: ---/+++ lines without "diff --git",
hunk headers without numbers ("@@ ... @@", "@@ @@"), wrong line counts,
prose between files. Binary patches and copies are not accepted. A hunk is a
replacement of its context and '-' lines by its context and '+' lines; the
header's line number is only a hint, so stale numbers cost nothing. A
deletion must match the file's whole content. Models drop a context line's
leading space: inside the diff's own fence ('''diff), and outside it when
the file holds the line, such a line is context, never the hunk's end. A
header without a/ and b/ may name a path with spaces when both sides name it
alike ("--- my docs/notes.txt"). A hunk that only adds lines goes where its
line number says ("@@ -5,0 +6,2 @@": after line 5); without one, a file's
only hunk is appended at the end (strategy "append"), one right after a
hunk that ends in removed lines continues that hunk (one change split by
an "@@"), and any other is a PARSE_ERROR. "\ No newline at end of file"
after a line takes its newline off on that line's side: after a '+' line
alone, the hunk removes the file's final newline. It may only follow the
last line of a side.

A diff the reply ends inside is never applied: a hunk shorter than its
header's counts with nothing after it, a last line cut off without its
newline (unless the hunk holds exactly the lines its header counts: a diff
file that lost its last newline), or a '''diff fence never closed is a
PARSE_ERROR, "the diff looks truncated". Wrong counts followed by more (a
closing fence, prose, the next file) land as written: models miscount.

    --- a/src/app.go
    +++ b/src/app.go
    @@ -10,3 +10,3 @@ func run() error {
     	if err != nil {
    -		return nil
    +		return err
     	}

Models writing a diff from memory edit or drop a context line. When no
level of the ladder finds a hunk that removes lines, it is located without
its context from one edge up to the line that disagrees: its '-' lines and
the rest of its context must stand at exactly one place, and the lines
left out must agree with the file's lines there but one, which is a near
miss of the file's line (60% alike or more), stands one line farther out
(the file's line between is one the model dropped) or is a blank line the
file does not have there. The file keeps its own context lines; the
strategy is the level that matched, and "note" says which line differed.
Two lines that disagree (at one edge or at both), a disagreement between
two changes, or two places that fit are refused; a hunk of only '+' lines
(or of blank '-' lines) keeps all of its context. Here the file's
docstring reads """Load the config.""", and the hunk lands with that line
kept:

    @@ ... @@
     def load(path):
         """Load the configuration file."""
         with open(path) as f:
    -        data = f.read()
    +        data = f.read().strip()

§whole

A path line, then a fence holding the file's complete new content (or a
fence whose info string names the path); the file is created or rewritten.
A rewrite that leaves code out with a placeholder such as
"// ... existing code ..." is refused with ELISION.

    docs/hello.txt
    '''
    Hello, world.
    '''

Cline's and Roo Code's "<write_to_file>" tool call is a whole file too:
its "<path>", then the file between "<content>" and "</content>" (in CDATA
or not, the tags on lines of their own or beside the first and last line),
then Roo's "<line_count>", then "</write_to_file>". A fence around the
whole content of a file that is no document is not the file's. A
"</content>" line that no other parameter or closing tag follows is the
file's text; a closing tag written twice before the next call, a line that
is no parameter, a call cut off before its closing tags, a
"<line_count>" above the content's lines (a write cut short), or content
whose every line starts with a read's line number ("1 | ", counting up
from 1) is a PARSE_ERROR, and nothing of the call is written.

    <write_to_file>
    <path>docs/hello.txt</path>
    <content>
    Hello, world.
    </content>
    <line_count>1</line_count>
    </write_to_file>

Roo Code's other two calls are read alike. "<insert_content>" puts its
"<content>" lines before "<line>" N (from 1), or at the end of the file for
0. "<search_and_replace>" replaces "<search>" by "<replace>", both trimmed
as Roo trims them (or each {"search", "replace"} of a JSON "<operations>"
array); the text must occur exactly once, what Roo's older tool (every
occurrence) and its newer one (one) agree on. "<use_regex>",
"<ignore_case>" and a "<start_line>"/"<end_line>" range are refused: the
text alone cannot say which occurrences the tool would change. The call
of any other tool that names a file and carries an edit ("<edit_file>"
with a "<content>") is a PARSE_ERROR naming the tool, unless what it
holds is blocks or a diff another format reads.

§codex

"*** Begin Patch" to "*** End Patch", bare, fenced or in an apply_patch
heredoc. "*** Add File: PATH" is followed by the new content, every line
prefixed with '+'. "*** Delete File: PATH" removes a file. "*** Update File:
PATH", optionally followed by "*** Move to: NEWPATH", holds chunks: "@@"
lines, each of which may name an anchor line that must come before the
change (a class, then a method), then lines prefixed with ' ' (context), '-'
(remove) and '+' (add); "*** End of File" ties the chunk to the end of the
file (an empty line between it and "*** End Patch" is layout). Several
Update sections for one file apply in order; a '+'-only chunk goes right
after its anchor, and one with no anchor is appended at the end of the file
(strategy "append", Codex's own reading); a missing anchor is NO_MATCH.
An envelope sent as a JSON tool call is read the same way once its string
is decoded: a command ["apply_patch", PATCH], a shell running an
apply_patch heredoc, or a call's "input" or "patchText" (OpenCode's;
string-encoded "arguments" too), which may wrap the envelope in a heredoc
of its own ("cat <<'EOF'", "<<EOF") as OpenCode's tool allows. Only a
command or input that opens with the envelope is a patch (a shell running
"cat" only prints it); apply_patch handed anything else (a unified diff)
is a PARSE_ERROR, as the tool itself refuses it; normalize leaves such a
call as written.

    *** Begin Patch
    *** Update File: src/app.go
    @@ func run() error {
     	if err != nil {
    -		return nil
    +		return err
     	}
    *** Add File: docs/notes.txt
    +First note.
    *** Delete File: old.txt
    *** End Patch

A shell's script (bash, sh or zsh -c or -lc, pwsh -Command, cmd /c) is a
patch when it is "apply_patch <<'EOF'" (or applypatch, the delimiter
quoted either way or bare) or "cd DIR && apply_patch <<'EOF'", then the
envelope and the delimiter, and nothing else, as Codex reads it. After a
cd, the patch's paths are under DIR (a word, 'quoted' or "quoted"), and
under the directory the call says it runs in ("workdir", or a local shell
call's "working_directory"), DIR within it, as Codex joins them. They are
resolved as any path: the receipt names them from the root, an absolute
directory is inside the root or under --path-prefix, and one that leaves
the root (cd ../.., cd /etc) is OUT_OF_ROOT. edapply runs no shell:
a script that runs apply_patch on an envelope and does anything more (a
pipe, ";", a second command or cd, "&&" after the heredoc, a variable, a
redirection, an argument) is a PARSE_ERROR that names what it does; send
the patch alone.

    {"command": ["bash", "-lc", "cd web && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/app.js\n@@\n-let n = 1\n+let n = 2\n*** End Patch\nEOF\n"]}

§json

str_replace-style calls: one JSON object per line, pretty-printed, in an
array or in a json fence, bare or wrapped as harnesses wrap them
({"name": ..., "input": {...}}, {"function": {"arguments": "..."}},
"tool_calls" arrays). The fields:

 - path: "path", "file_path", "filePath", "filename" or "file";
 - text to find: "old_string", "old_str", "oldString", "old_text" or
   "search"; absent or empty, the call creates the file (FILE_EXISTS on a
   file with content: a tool call's empty text never appends);
 - replacement: "new_string", "new_str", "newString", "new_text" or
   "replace"; "content" or "file_text" with no text to find and no command
   (write_to_file, write_file) writes the whole file, over one that exists;
 - "replace_all": true (Gemini CLI's "allow_multiple" alike) replaces every
   occurrence (at least one) where the default wants exactly one,
   non-overlapping, left to right ("aa" for "b" in "aaaa" gives "bb");
   "expected_replacements": N wants exactly N;
 - "command": "insert" with "insert_line": N and "new_str" inserts after
   line N (0: at the top); a line the file does not have is NO_MATCH;
 - "command": "undo_edit" is a PARSE_ERROR (edapply cannot undo the tool's
   edit; "edapply undo" reverts a run), and "view" is one when the reply
   holds nothing else: neither is ever an edit;
 - "edits": [{"old_string": ..., "new_string": ...}, ...] makes several
   replacements in one file, in order.

    {"path": "src/app.go", "old_string": "return nil", "new_string": "return err"}
    [{"file_path": "a.txt", "old_str": "x", "new_str": "y", "replace_all": true}]

Each text-editor command (Anthropic's str_replace_based_edit_tool, Goose's
developer__text_editor or text_editor) means what its tool does:

 - "create" with "file_text" creates a new file: FILE_EXISTS on a file with
   other content, already_applied on one that holds exactly that text;
 - "write" (Goose's) with "file_text" writes the whole file, created or
   overwritten, as write_to_file and a bare "content" write do;
 - "str_replace" replaces "old_str" by "new_str" (without one, deletes
   it); with a "diff" instead (Goose's), that unified diff is applied as a
   diff is, its hunks matched line by line; a diff with no "---"/"+++"
   lines edits the call's file, and one that names another file is
   refused;
 - a str_replace with no "old_str" and no "diff", or a command no
   text-editor tool has ("append", "delete"), is a PARSE_ERROR naming it.

A call is read whole or refused, never as a create or a no-op that drops
part of it: a field with edit text that the call's command does not read
("diff" beside "old_str", "insert_line" without "insert", "content" beside
"new_string", a second path naming another file), a tool whose edit is in
a field edapply does not read (Cursor's "code_edit", the filesystem
server's "oldText", Goose's older "before"/"after"), and an XML call of a
tool other than those under whole ("<edit_file>") that names a file and
carries an edit is a PARSE_ERROR naming the field or the tool.

    {"name": "developer__text_editor", "arguments": {"command": "str_replace", "path": "src/app.py", "diff": "@@ -1 +1 @@\n-x = 1\n+x = 2\n"}}
    {"command": "create", "path": "src/new.py", "file_text": "x = 1\n"}

Agents copy the text to find in three ways that one rule explains. When the
text as sent is found nowhere, not even by the tolerance ladder below, a
tool call gets three more tries, each unique or refused like every level,
none with --strict. The receipt's edit names the try in "strategy" and
says in "note" how the text was read, so that the next call sends the
file's text as it stands:

 - indent: the text starts after its first line's indentation (as
   str_replace allows) and its other lines are shifted by one amount from
   the file's. The first line must be the file line's whole text after its
   indentation, the others the following lines, each moved by the same
   number of columns. The replacement's first line joins the file line's
   indentation; its other lines move by the same amount.
 - line-hint: every line carries a read's line-number prefix, one kind for
   all ("     7<TAB>" as edapply read and cat -n print, "     7→", "7: ",
   "7:" or OpenCode's "00007| "; the colon and the bar on two lines at
   least, unless the number is padded with zeros) and the numbers count up
   by one.
   The text without them is located as any text is; the first number may
   pick one of several equal matches (as a diff's line number does), never
   move an edit elsewhere. The replacement loses its prefixes when every
   line of it has them; with them on some lines only, the edit is refused
   (they would be written into the file). A file with a line that starts
   like such a prefix (a TSV "2<TAB>banana") gets no such try: the prefix
   may be its text.
 - unicode: the text was escaped twice: "\n", "\t", "\"", "\'", "\$", a
   backquote after a backslash or "\\" sent as two characters. Unescaped
   once, it is located as any text is, and the replacement is unescaped the
   same way. A replacement holding a character the text only wrote escaped
   (a real line break where the text wrote "\n" and never a real one) is
   not escaped the same way and gets no such try, unless it holds no
   backslash at all: then it is written as sent. A file that really holds printf("a\n")
   matches exactly, before any of this.

    {"path": "box.py", "old_string": "return len(\n        self.items)", ...}
    {"path": "box.py", "old_string": "    12\t    def size(self):\n    13\t        return 0", ...}
    {"path": "box.py", "old_string": "def size(self):\\n        return 0", ...}

Auto-detection
--------------

Each region is read by the first format whose markers start it: a codex
envelope, SEARCH/REPLACE markers, a diff's headers or hunk, a JSON edit
object, a "<write_to_file>" (or Roo's other) call, and last a path line
followed by a fence. Anything else is prose. A block, envelope, call,
fence or diff hunk left open (a truncated reply) is a PARSE_ERROR and
nothing is written. "edapply parse" prints the edits it read, touching
nothing. A fence under a path the tree does not have, beside edits in
another format, is a PARSE_ERROR too: it is a quote as often as a new
file.

Paths
-----

The same rules hold in every format. "\" is a separator unless the tree has
the name as written: Controllers\Home.cs is Controllers/Home.cs, and a new
file gets "/" directories. An absolute path inside the root, or under a
--path-prefix (where a harness shows the tree to the model), is the relative
path, and the receipt, diff and journal name it so. Any other absolute path
(/home/u/x/app.py, D:\x\app.py, \\server\x) is OUT_OF_ROOT.

A placeholder is never a directory. A missing directory named "...", "…",
"~", <name>, {name}, %name%, $NAME, "path" followed by "to" (and that "to"),
or, ignoring case and "_-. ", a name starting with "your" or "pathto", or
"projectroot", "projectdir", "projectname", "reporoot", "rootdir", is not
created: path/to/app.py, your_project/app.py and <project>/app.py are
FILE_NOT_FOUND unless the tree has that directory. internal/cache/lru.go is
created.

FILE_NOT_FOUND and an outside absolute path name, as path candidates
({"path": "web_app/app.py"}), the files the path probably means: those whose
path ends with the most of its names (by base name alone, only a unique
one; without case when nothing else fits), or else the files holding the
text to find. They are never applied; the model resends with that path.

Matching: the tolerance ladder
------------------------------

The text to find is located by the first of these levels that finds it
(--strict: the first only); a level that finds it more often than the edit
expects is MULTIPLE_MATCHES and never falls through to a looser one.

 1. exact bytes, the edit's line endings converted to the file's;
 2. trailing whitespace ignored;
 3. indentation shifted by one consistent amount (the replacement is re-based
    onto the file's indentation);
 4. runs of inner whitespace collapsed;
 5. typographic punctuation (curly quotes, dashes, no-break space, ellipsis)
    folded to ASCII;
 6. elision: a line that is only "..." or "// ... existing code ..." matches
    any run of lines, which the replacement keeps;
 7. a diff's line number picks among equal matches when it points at one;
 8. last, when nothing above (nor a tool call's rescue, blank edge lines or
    a hunk's edges) finds it: blanks beside punctuation ignored, so
    "function  f( a, b )" finds "function f(a, b)"; blanks between words
    still count ("int x" is not "intx"), as do those beside quotes, "$",
    "#" and "@". Whole lines, unique or refused; the receipt's strategy
    is "whitespace", and its "note" says so. Lines the edit keeps keep
    the file's bytes.

Found nowhere: NO_MATCH, with the closest candidates and their lines (below
60% similar, one candidate at most, marked weak: the text may not be in the
file). When the text's first and last lines (three lines at least, the
last indented from the first as in the file) bound one block of the file
and other lines stand between them, as when a model summarizes a block's
middle, that block is a candidate too and the hint says to quote it; it
is never applied, since the lines between would be a guess. If the old text is gone and the new text already stands there, the
edit is already_applied and nothing is written: a resent reply is harmless.
`
