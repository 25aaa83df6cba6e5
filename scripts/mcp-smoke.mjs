// mcp-smoke drives `edapply mcp` with the official TypeScript SDK's client
// over stdio, as an agent's harness would: list the tools, read a file,
// edit it with a stale and then a fresh hash, make an ambiguous edit,
// edit with other tools' argument names, send a bad argument and the same
// failing call twice, apply a two-file reply, list and undo. The client
// checks each structured result against the tool's output schema. Given
// the MCP inspector's command as well, it then makes calls through the
// inspector's CLI mode. Run by scripts/mcp-smoke.sh, which installs both
// outside the repository.
//
//   node mcp-smoke.mjs /path/to/edapply [/path/to/mcp-inspector]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.argv[2];
const inspector = process.argv[3];
if (!bin) {
  console.error("usage: node mcp-smoke.mjs EDAPPLY [MCP_INSPECTOR]");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "edapply-mcp-smoke-"));
const root = join(dir, "tree");
const state = join(dir, "state");
mkdirSync(join(root, "sub"), { recursive: true });
mkdirSync(state);
writeFileSync(join(root, "a.txt"), "alpha\nbeta\nalpha\n");
writeFileSync(join(root, "sub/b.txt"), "gamma\n");
writeFileSync(join(root, "c.py"), "import math\n\ndef area(r):\n    return math.pi * r * r\n");

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${detail ?? ""}`);
  }
}
const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const file = (p) => readFileSync(join(root, p), "utf8");

const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "-C", root],
  env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
  stderr: "inherit",
});
const client = new Client({ name: "edapply-mcp-smoke", version: "1" });
try {
  await client.connect(transport);
  const info = client.getServerVersion();
  check("handshake names the server", info?.name === "edapply", JSON.stringify(info));

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort().join(",");
  check("four tools", names === "apply_edits,edit_file,read_file,undo", names);
  check("every tool has a title", tools.every((t) => t.title && t.annotations?.title === t.title), JSON.stringify(tools.map((t) => t.title)));
  const readTool = tools.find((t) => t.name === "read_file");
  check("read_file is read-only and idempotent", readTool?.annotations?.readOnlyHint === true && readTool?.annotations?.idempotentHint === true,
    JSON.stringify(readTool?.annotations));

  const read = await client.callTool({ name: "read_file", arguments: { path: "a.txt" } });
  const hash = read.structuredContent?.sha256 ?? "";
  check("read_file numbers the lines and gives the hash",
    !read.isError && read.structuredContent.content.startsWith("     1\talpha\n") && text(read).includes(hash) && hash.length === 64,
    JSON.stringify(read));

  const stale = await client.callTool({ name: "edit_file", arguments: {
    path: "a.txt", base_hash: "0123456789abcdef", edits: [{ old_string: "beta\n", new_string: "BETA\n" }] } });
  check("a stale base_hash is refused with OUT_OF_DATE",
    stale.isError === true && stale.structuredContent.errors[0]?.code === "OUT_OF_DATE" && file("a.txt") === "alpha\nbeta\nalpha\n",
    JSON.stringify(stale.structuredContent));

  const ambiguous = await client.callTool({ name: "edit_file", arguments: {
    path: "a.txt", base_hash: hash, edits: [{ old_string: "alpha\n", new_string: "ALPHA\n" }] } });
  const err = ambiguous.structuredContent.errors[0] ?? {};
  check("an ambiguous edit is refused with both candidates",
    ambiguous.isError === true && err.code === "MULTIPLE_MATCHES" && err.candidates?.length === 2 && file("a.txt") === "alpha\nbeta\nalpha\n",
    JSON.stringify(ambiguous.structuredContent));

  const edited = await client.callTool({ name: "edit_file", arguments: {
    path: "a.txt", base_hash: hash.slice(0, 8), edits: [{ old_string: "beta\n", new_string: "BETA\n" }] } });
  check("an edit with the read hash applies",
    !edited.isError && edited.structuredContent.ok === true && file("a.txt") === "alpha\nBETA\nalpha\n", text(edited));

  const reference = await client.callTool({ name: "edit_file", arguments: {
    path: "c.py", dryRun: true, edits: [{ oldText: "    return math.pi * r * r\n", newText: "    return math.pi * r ** 2\n" }] } });
  check("the reference filesystem server's arguments work, dryRun included",
    !reference.isError && reference.structuredContent.dry_run === true && text(reference).includes("+    return math.pi * r ** 2") &&
      file("c.py").includes("r * r\n"), text(reference));

  const strReplace = await client.callTool({ name: "edit_file", arguments: {
    path: "c.py", edits: [{ old_str: "    return math.pi * r * r\n", new_str: "    return math.pi * r ** 2\n" }] } });
  const diff = strReplace.structuredContent?.files?.[0]?.diff ?? "";
  check("a write returns its diff, in the text and the receipt",
    !strReplace.isError && diff.includes("-    return math.pi * r * r\n+    return math.pi * r ** 2\n") && text(strReplace).startsWith(diff) &&
      file("c.py").includes("r ** 2"), text(strReplace));

  const unknown = await client.callTool({ name: "edit_file", arguments: { path: "c.py", file: "c.py", edits: [] } });
  const usage = unknown.structuredContent?.errors?.[0] ?? {};
  check("an argument it does not take is a USAGE receipt naming its arguments",
    unknown.isError === true && usage.code === "USAGE" && usage.message.includes('"file"') && usage.hint.includes('"old_string"') &&
      !text(unknown).includes("validating"), JSON.stringify(unknown));

  const exists = await client.callTool({ name: "edit_file", arguments: { path: "c.py", edits: [{ old_string: "", new_string: "x\n" }] } });
  const existsHint = exists.structuredContent?.errors?.[0]?.hint ?? "";
  check("FILE_EXISTS names only edit_file's arguments",
    exists.structuredContent?.errors?.[0]?.code === "FILE_EXISTS" && existsHint.includes("old_string") &&
      !/content|str_replace|old_str\b/.test(existsHint), existsHint);

  const typo = { path: "c.py", edits: [{ old_string: "def area(r):\n    return math.pi * r ** 3\n", new_string: "x\n" }] };
  const once = await client.callTool({ name: "edit_file", arguments: typo });
  const twice = await client.callTool({ name: "edit_file", arguments: typo });
  const twiceErr = twice.structuredContent?.errors?.[0] ?? {};
  check("the same failing call again fails the same way and is told to read_file first",
    once.isError && twice.isError && twiceErr.code === once.structuredContent.errors[0].code &&
      twiceErr.hint.startsWith("This is the same call") && twiceErr.hint.includes('read_file {"path": "c.py", "offset": 3, "limit": 2}') &&
      !once.structuredContent.errors[0].hint.startsWith("This is the same call"), twiceErr.hint);

  const reply = "a.txt\n```\n<<<<<<< SEARCH\nBETA\n=======\nbeta\n>>>>>>> REPLACE\n```\n\n" +
    "sub/b.txt\n```\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n```\n";
  const applied = await client.callTool({ name: "apply_edits", arguments: { reply } });
  check("a two-file reply applies as one",
    !applied.isError && applied.structuredContent.files.length === 2 && file("sub/b.txt") === "GAMMA\n" && file("a.txt") === "alpha\nbeta\nalpha\n",
    text(applied));

  const history = await client.callTool({ name: "undo", arguments: { list: true } });
  const h = history.structuredContent?.history ?? [];
  check("undo lists the writes it can take back, newest first",
    !history.isError && h.length === 3 && h[0].files.length === 2 && h[1].files[0].path === "c.py", text(history));

  const preview = await client.callTool({ name: "undo", arguments: { dry_run: true } });
  check("undo's dry run shows the diff and restores nothing",
    !preview.isError && preview.structuredContent.dry_run === true && text(preview).includes("+gamma") && file("sub/b.txt") === "GAMMA\n",
    text(preview));

  const undone = await client.callTool({ name: "undo", arguments: {} });
  check("undo restores the reply's files",
    !undone.isError && file("sub/b.txt") === "gamma\n" && file("a.txt") === "alpha\nBETA\nalpha\n", text(undone));

  const outside = await client.callTool({ name: "read_file", arguments: { path: "../state" } });
  check("a path outside the root is an error result, not a protocol error",
    outside.isError === true && outside.structuredContent.errors[0]?.code === "OUT_OF_ROOT", JSON.stringify(outside));
  for (let i = 0; i < 2; i++) {
    await client.callTool({ name: "undo", arguments: {} });
  }
  const nothing = await client.callTool({ name: "undo", arguments: {} });
  check("nothing to undo is USAGE, not FILE_NOT_FOUND",
    nothing.isError === true && nothing.structuredContent.errors[0]?.code === "USAGE", JSON.stringify(nothing.structuredContent));
} catch (e) {
  check("no protocol error", false, e?.stack ?? String(e));
} finally {
  await client.close();
}

// The inspector's CLI mode converts each --tool-arg by the tool's schema;
// an argument under another name stays text ("true"), which the server
// reads as well.
if (inspector) {
  const inspect = (...args) => JSON.parse(execFileSync(inspector, ["--cli", bin, "mcp", "-C", root, ...args],
    { env: { PATH: process.env.PATH, XDG_STATE_HOME: state }, encoding: "utf8", timeout: 60000 }));
  try {
    const listed = inspect("--method", "tools/list");
    check("inspector: tools/list names four tools", listed.tools?.length === 4, JSON.stringify(listed));
    const read = inspect("--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=c.py", "--tool-arg", "limit=1");
    check("inspector: read_file", read.isError !== true && read.structuredContent?.content === "     1\timport math\n", JSON.stringify(read));
    const dry = inspect("--method", "tools/call", "--tool-name", "edit_file", "--tool-arg", "path=c.py",
      "--tool-arg", 'edits=[{"oldText": "import math\\n", "newText": "import math as m\\n"}]', "--tool-arg", "dryRun=true");
    check("inspector: edit_file with the reference server's names",
      dry.isError !== true && dry.structuredContent?.dry_run === true && dry.structuredContent.files[0].diff.includes("+import math as m") &&
        file("c.py").startsWith("import math\n"), JSON.stringify(dry));
    const bad = inspect("--method", "tools/call", "--tool-name", "edit_file", "--tool-arg", "path=c.py", "--tool-arg", "content=x");
    check("inspector: an argument edit_file does not take is USAGE",
      bad.isError === true && bad.structuredContent?.errors?.[0]?.code === "USAGE", JSON.stringify(bad));
  } catch (e) {
    check("inspector: no failure", false, e?.stack ?? String(e));
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
