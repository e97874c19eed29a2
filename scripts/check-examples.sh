#!/usr/bin/env bash
# Runs each project under examples/ (a folder with a package.json) as a user would:
# against the packed package (not this checkout), copied out of the repository, its dependencies installed by npm, then its own
# `npm test`. Needs a built dist/ (npm run build) and the npm registry or its cache.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/spiralbench-examples-XXXXXX")"
trap 'rm -rf "$work"' EXIT

# --ignore-scripts: dist/ is already built; `prepare` would build it again.
(cd "$root" && npm pack --ignore-scripts --pack-destination "$work" --loglevel=error >/dev/null)
tarball="$(ls "$work"/spiralbench-*.tgz)"

for example in "$root"/examples/*/; do
  name="$(basename "$example")"
  # Only projects (a package.json of their own); loose example files, such as examples/serve's
  # agents, are run by the repository's own tests (test/serve.e2e.test.ts, serve-python).
  [ -f "$example/package.json" ] || continue
  echo "== examples/$name"
  start=$SECONDS
  # Everything but what an earlier local run left behind.
  (cd "$example" && tar --exclude=node_modules --exclude=results --exclude=reports -cf - .) \
    | (mkdir "$work/$name" && cd "$work/$name" && tar -xf -)
  cd "$work/$name"
  # One install: the tarball for spiralbench, the registry (or its cache) for the rest.
  npm install --no-audit --no-fund --prefer-offline --loglevel=error "$tarball"
  npm test
  echo "== examples/$name passed in $((SECONDS - start)) s"
done
