// mcp-smoke drives `edapply mcp` with the official TypeScript SDK's client
// over stdio, as an agent's harness would: list the tools, read a file,
// edit it with a stale and then a fresh hash, make an ambiguous edit,
// apply a two-file reply, undo. The client checks each structured result
// against the tool's output schema. Run by scripts/mcp-smoke.sh, which
// installs the SDK outside the repository.
//
//   node mcp-smoke.mjs /path/to/edapply
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.argv[2];
if (!bin) {
  console.error("usage: node mcp-smoke.mjs EDAPPLY");
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "edapply-mcp-smoke-"));
const root = join(dir, "tree");
const state = join(dir, "state");
mkdirSync(join(root, "sub"), { recursive: true });
mkdirSync(state);
writeFileSync(join(root, "a.txt"), "alpha\nbeta\nalpha\n");
writeFileSync(join(root, "sub/b.txt"), "gamma\n");

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

  const reply = "a.txt\n```\n<<<<<<< SEARCH\nBETA\n=======\nbeta\n>>>>>>> REPLACE\n```\n\n" +
    "sub/b.txt\n```\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n```\n";
  const applied = await client.callTool({ name: "apply_edits", arguments: { reply } });
  check("a two-file reply applies as one",
    !applied.isError && applied.structuredContent.files.length === 2 && file("sub/b.txt") === "GAMMA\n" && file("a.txt") === "alpha\nbeta\nalpha\n",
    text(applied));

  const undone = await client.callTool({ name: "undo", arguments: {} });
  check("undo restores the reply's files",
    !undone.isError && file("sub/b.txt") === "gamma\n" && file("a.txt") === "alpha\nBETA\nalpha\n", text(undone));

  const outside = await client.callTool({ name: "read_file", arguments: { path: "../state" } });
  check("a path outside the root is an error result, not a protocol error",
    outside.isError === true && outside.structuredContent.errors[0]?.code === "OUT_OF_ROOT", JSON.stringify(outside));
} catch (e) {
  check("no protocol error", false, e?.stack ?? String(e));
} finally {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
