#!/usr/bin/env bash
# Copies axe-core's minified file (the npm package axe-core, pinned in
# package-lock.json) to e2e/activity/testdata/axe.min.js, which the
# Activity's browser tests inject into the page to audit it
# (TestActivityAccessibility). Only the tests load it: the page never
# serves it. Run it after changing package.json or package-lock.json, and
# commit both outputs: the file and axe.hash, the SHA-256 of the lock file,
# which TestAxeBundleFresh compares so that a stale copy fails the tests
# without npm.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
out=../../e2e/activity/testdata
mkdir -p "$out"
cp node_modules/axe-core/axe.min.js "$out/axe.min.js"
sha256sum package-lock.json | cut -d' ' -f1 > "$out/axe.hash"
echo "wrote $out/axe.min.js ($(wc -c < "$out/axe.min.js") bytes, axe-core $(node -p 'require("axe-core/package.json").version'))"
