#!/usr/bin/env node
// Gives every member of a persona ensemble the persona sections it lacks, drawn from their
// priors. Only for sections whose parameters all have basis `prior`: they leave the fitted
// baseline unchanged (test/persona-priors.test.ts holds that), so drawing them after the fit
// is what the fit would have done with them. Each member's draws come from its own seeded
// stream, so the file is the same on every machine.
//
//   npm run build && node scripts/add-prior-parameters.mjs scenarios/ensembles/default.yaml injection data
import { readFileSync, writeFileSync } from 'node:fs';
import { PERSONA_PRIORS } from '../dist/model/simulated/persona-priors.js';
import { stream } from '../dist/random/streams.js';

const [file, ...sections] = process.argv.slice(2);
if (file === undefined || sections.length === 0) {
  console.error('usage: add-prior-parameters.mjs <ensemble.yaml> <section>...');
  process.exit(2);
}
const SEED = 1;
const parametersOf = (section) => Object.keys(PERSONA_PRIORS).filter((name) => name.startsWith(`${section}.`));
for (const section of sections) {
  const names = parametersOf(section);
  if (names.length === 0) throw new Error(`no persona section '${section}'`);
  const fitted = names.filter((name) => PERSONA_PRIORS[name].basis !== 'prior');
  if (fitted.length > 0) throw new Error(`${fitted.join(', ')}: fitted, so only a fit can set them`);
}

const round = (value) => Number(value.toPrecision(4));
const lines = readFileSync(file, 'utf8').split('\n');
const out = [];
let member = -1;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  out.push(line);
  if (/^ {2}- id: /.test(line)) member += 1;
  const endsMember = member >= 0 && /^ {4}final: /.test(line);
  if (!endsMember) continue;
  const has = new Set();
  for (let j = i + 1; j < lines.length && /^ {4}\S/.test(lines[j]); j++) has.add(lines[j].trim().split(':')[0]);
  for (const section of sections) {
    if (has.has(section)) continue;
    const values = parametersOf(section).map((name) => {
      const { range, scale } = PERSONA_PRIORS[name];
      const u = stream({ sweepSeed: SEED, scenario: 'ensemble-prior-draw', runSeed: member }, name, 0).next();
      const value = range[0] + u * (range[1] - range[0]);
      return `${name.split('.')[1]}: ${scale === 'integer' ? Math.floor(range[0] + u * (range[1] - range[0] + 1)) : round(value)}`;
    });
    out.push(`    ${section}: { ${values.join(', ')} }`);
  }
}
const note = `  priors_added_after_fit: { sections: [${sections.join(', ')}], by: scripts/add-prior-parameters.mjs, seed: ${SEED}, why: "basis prior: they leave the fitted baseline unchanged, so each member draws them from its prior" }`;
const at = out.findIndex((line) => line.startsWith('members:'));
const provenanceEnd = at;
out.splice(provenanceEnd, 0, note);
writeFileSync(file, out.join('\n'));
console.log(`${member + 1} members: added ${sections.join(', ')} where missing`);
