#!/usr/bin/env bash
# Builds the VS Code extension (editors/vscode) with npm: installs its
# dependencies (vscode-languageclient, TypeScript) and compiles it to
# editors/vscode/out. Not part of scripts/test; node_modules and out are
# not committed. Package it with `npx @vscode/vsce package` if wanted.
set -euo pipefail
cd "$(dirname "$0")/../editors/vscode"
command -v npm >/dev/null || { echo "build-vscode: npm is not installed" >&2; exit 1; }
npm install --no-audit --no-fund
npm run compile
echo "build-vscode: editors/vscode/out/extension.js"
