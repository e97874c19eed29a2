import { readFileSync } from 'node:fs';

/** spiralbench's version, from package.json, written into every summary. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
