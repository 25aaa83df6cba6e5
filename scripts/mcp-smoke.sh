#!/bin/sh
# mcp-smoke.sh EDAPPLY: check `EDAPPLY mcp` with a client from outside the
# project, the official TypeScript SDK's (npm @modelcontextprotocol/sdk).
# The SDK is installed under MCP_SMOKE_DIR (default: a directory in
# $TMPDIR), never in the repository; it needs node and npm, and the npm
# registry the first time. Not part of `make check`.
set -eu
bin=${1:?usage: mcp-smoke.sh EDAPPLY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=${MCP_SMOKE_DIR:-${TMPDIR:-/tmp}/edapply-mcp-smoke}
sdk=${MCP_SMOKE_SDK:-@modelcontextprotocol/sdk@1}
command -v node >/dev/null && command -v npm >/dev/null || {
	echo "mcp-smoke: node and npm are needed" >&2
	exit 2
}
mkdir -p "$dir"
if [ ! -d "$dir/node_modules/@modelcontextprotocol/sdk" ]; then
	[ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
	npm install --prefix "$dir" --no-audit --no-fund "$sdk" >&2
fi
# The script imports the SDK by package name, so it runs beside node_modules.
cp "$(dirname "$0")/mcp-smoke.mjs" "$dir/mcp-smoke.mjs"
exec node "$dir/mcp-smoke.mjs" "$bin"
