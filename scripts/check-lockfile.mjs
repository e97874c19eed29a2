#!/usr/bin/env node
// Fails when package-lock.json lacks another platform's optional package (rollup's and
// esbuild's native builds): `npm ci` then fails on a machine that never installed here.
import { readFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const packages = lock.packages ?? {};
const missing = new Set();
for (const [path, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (!(nested in packages) && !(`node_modules/${name}` in packages)) missing.add(name);
  }
}
if (missing.size > 0) {
  console.error(
    `package-lock.json lacks ${missing.size} optional package(s) of other platforms, e.g. ${[...missing].slice(0, 5).join(', ')}.\n` +
      'Regenerate it without node_modules: rm -rf node_modules && npm install --package-lock-only, then commit it.',
  );
  process.exit(1);
}
console.log(`package-lock.json: complete (${Object.keys(packages).length} entries)`);
