#!/usr/bin/env bash
# Bundles Discord's Embedded App SDK (@discord/embedded-app-sdk, pinned in
# package-lock.json) into one file the Activity page loads:
# activity/static/discord-sdk.js, exposing window.DiscordEmbedded.{DiscordSDK,
# DiscordSDKMock}. Run it after changing package.json, package-lock.json or
# entry.js, and commit both outputs: the bundle and discord-sdk.hash, the
# SHA-256 of the lock file and the entry, which TestSDKBundleFresh in
# activity/ compares so that a stale bundle fails the tests without npm.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
out=../../activity/static
npx esbuild entry.js --bundle --format=iife --global-name=DiscordEmbedded \
  --minify --legal-comments=eof --target=es2020 --platform=browser \
  --log-level=warning --outfile="$out/discord-sdk.js"
cat package-lock.json entry.js | sha256sum | cut -d' ' -f1 > "$out/discord-sdk.hash"
echo "wrote $out/discord-sdk.js ($(wc -c < "$out/discord-sdk.js") bytes)"
