#!/usr/bin/env node
'use strict';
// Measures the fuzzer's strength: for each named misreading (misreadings.js), runs
// `fivehundred fuzz` against this engine with that misreading on, on each rule set the
// misreading names in turn (stopping at the first where a deal under 20 disagrees), and
// reports the first deal that disagrees, its generator and what differed.
//
//   node adapters/independent-js/fuzz-misreadings.js                     # the other rule sets' misreadings
//   node adapters/independent-js/fuzz-misreadings.js --rule-sets all --seed 1 --deals 300
//   node adapters/independent-js/fuzz-misreadings.js --only NAME ...     # some misreadings
//   node adapters/independent-js/fuzz-misreadings.js --markdown          # the table as Markdown
//   FIVEHUNDRED=/path/to/fivehundred node ...                             # which runner to use
//
// Run from the repository root. Exit 1 when some misreading is found on no rule set.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LIST, INFO, DEFAULT } = require('./misreadings');

const args = process.argv.slice(2);
const only = [];
let seed = 1;
let deals = 300;
let ruleSets = 'other';
let markdown = false;
const number = (text, flag) => {
  if (!/^\d+$/.test(text || '')) {
    console.error(`fuzz-misreadings: ${flag} needs a whole number, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return Number(text);
};
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only.push(args[++i]);
  else if (args[i] === '--seed') seed = number(args[++i], '--seed');
  else if (args[i] === '--deals') deals = number(args[++i], '--deals');
  else if (args[i] === '--rule-sets' && ['default', 'other', 'all'].includes(args[i + 1])) ruleSets = args[++i];
  else if (args[i] === '--markdown') markdown = true;
  else {
    console.error('usage: fuzz-misreadings.js [--only NAME]... [--seed N] [--deals N] [--rule-sets default|other|all] [--markdown]');
    process.exit(2);
  }
}
for (const name of only) {
  if (!INFO.has(name)) {
    console.error(`fuzz-misreadings: unknown misreading ${JSON.stringify(name)}`);
    process.exit(2);
  }
}
const isDefault = (n) => INFO.get(n).profiles === DEFAULT;
const wanted = (n) => ruleSets === 'all' || (ruleSets === 'default') === isDefault(n);
const names = only.length ? only : LIST.map(([n]) => n).filter(wanted);
const runner = process.env.FIVEHUNDRED || 'fivehundred';
const adapter = path.relative(process.cwd(), path.join(__dirname, 'adapter.js')) || 'adapter.js';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-misreadings-'));

// The earliest disagreeing deal of the misreading's rule sets, or null.
function first(name) {
  let best = null;
  for (const [i, label] of INFO.get(name).profiles.entries()) {
    const [profile, ...toggles] = label.split('+');
    const out = path.join(tmp, `${name}.${i}.json`);
    const impl = ['node', adapter, '--misreading', name].join(' ');
    const select = ['--profile', profile, ...toggles.flatMap((t) => ['--variant', t])];
    const fuzz = ['fuzz', '--impl', impl, ...select, '--seed', String(seed), '--deals', String(deals)];
    spawnSync(runner, [...fuzz, '--format', 'json', '-o', out, '--no-progress'], { encoding: 'utf8' });
    if (!fs.existsSync(out)) continue;
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    for (const family of report.families || []) {
      if (best === null || family.first < best.deal)
        best = { label, deal: family.first, generator: family.generator, what: family.describe, disagreeing: report.disagreeing };
    }
    if (best !== null && best.deal < 20) break;
  }
  return best;
}

const rows = names.map((name) => {
  const found = first(name);
  process.stderr.write('.');
  return [name, found];
});
process.stderr.write('\n');
const lines = [];
if (markdown) {
  lines.push(`| misreading | rule set fuzzed | first deal that disagrees | its generator | what differed | deals disagreeing (of ${deals}) |`);
  lines.push('|---|---|---|---|---|---|');
  for (const [name, f] of rows)
    lines.push(f ? `| \`${name}\` | \`${f.label}\` | ${f.deal} | \`${f.generator}\` | ${f.what} | ${f.disagreeing} |` : `| \`${name}\` | — | not found | — | — | 0 |`);
} else {
  const w = Math.max(...names.map((n) => n.length));
  for (const [name, f] of rows) lines.push(`${name.padEnd(w)}  ${f ? `deal ${f.deal} of ${f.label} (${f.generator}): ${f.what}` : 'NOT FOUND'}`);
}
const missed = rows.filter(([, f]) => f === null).map(([n]) => n);
lines.push('', `seed ${seed}, ${deals} deals: ${rows.length - missed.length} of ${rows.length} found${missed.length ? `; not found: ${missed.join(', ')}` : ''}`);
console.log(lines.join('\n'));
process.exit(missed.length ? 1 : 0);
