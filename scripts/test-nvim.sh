#!/usr/bin/env bash
# The Neovim plugin (editors/nvim) tested in a real client: Debian's neovim
# headless starts `pragma2cuda lsp`, opens fixtures, waits for the
# diagnostics, requests hover, the code lens and the lowered region, and
# checks the answers (editors/nvim/test/run.lua). Needs `nvim`
# (scripts/toolchain.sh installs Debian's neovim) and the release binary.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvim >/dev/null || { echo "test-nvim: nvim is not installed (apt-get install neovim)" >&2; exit 1; }
[ -x target/release/pragma2cuda ] || cargo build --release
export P2C_BIN="$PWD/target/release/pragma2cuda" P2C_ROOT="$PWD"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# No user configuration, no shada; the plugin on the runtime path.
XDG_CONFIG_HOME="$home" XDG_DATA_HOME="$home" XDG_STATE_HOME="$home" \
  timeout 120 nvim --headless -u NONE -i NONE --noplugin \
  --cmd "set rtp^=$PWD/editors/nvim" --cmd 'filetype on' \
  -c "luafile editors/nvim/test/run.lua" 2>&1 </dev/null
