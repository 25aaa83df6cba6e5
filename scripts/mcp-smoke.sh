#!/bin/sh
# mcp-smoke.sh EDAPPLY: check `EDAPPLY mcp` with clients from outside the
# project: the official TypeScript SDK's (npm @modelcontextprotocol/sdk)
# and the MCP inspector's CLI mode (npm @modelcontextprotocol/inspector).
# Both are installed under MCP_SMOKE_DIR (default: a directory in
# $TMPDIR), never in the repository; they need node and npm, and the npm
# registry the first time. MCP_SMOKE_INSPECTOR= (empty) leaves the
# inspector out. Not part of `make check`.
set -eu
bin=${1:?usage: mcp-smoke.sh EDAPPLY}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=${MCP_SMOKE_DIR:-${TMPDIR:-/tmp}/edapply-mcp-smoke}
sdk=${MCP_SMOKE_SDK:-@modelcontextprotocol/sdk@1}
inspector=${MCP_SMOKE_INSPECTOR-@modelcontextprotocol/inspector}
command -v node >/dev/null && command -v npm >/dev/null || {
	echo "mcp-smoke: node and npm are needed" >&2
	exit 2
}
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
if [ ! -d "$dir/node_modules/@modelcontextprotocol/sdk" ]; then
	npm install --prefix "$dir" --no-audit --no-fund "$sdk" >&2
fi
inspect=
if [ -n "$inspector" ]; then
	if [ ! -x "$dir/node_modules/.bin/mcp-inspector" ]; then
		npm install --prefix "$dir" --no-audit --no-fund "$inspector" >&2
	fi
	inspect=$dir/node_modules/.bin/mcp-inspector
fi
# The script imports the SDK by package name, so it runs beside node_modules.
cp "$(dirname "$0")/mcp-smoke.mjs" "$dir/mcp-smoke.mjs"
exec node "$dir/mcp-smoke.mjs" "$bin" $inspect
