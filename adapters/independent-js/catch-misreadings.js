#!/usr/bin/env node
'use strict';
// Measures the corpus's strength: for each named misreading (misreadings.js) and each
// capability level, runs `fivehundred verify` against this engine with that misreading on
// and reports whether the suite catches it (at least one scenario failed or errored).
//
//   node adapters/independent-js/catch-misreadings.js                 # every misreading, every level
//   node adapters/independent-js/catch-misreadings.js --only NAME ... # some misreadings
//   node adapters/independent-js/catch-misreadings.js --levels all,no-legal
//   node adapters/independent-js/catch-misreadings.js --markdown      # the table as Markdown,
//        # one table per group of rule sets
//   node adapters/independent-js/catch-misreadings.js --rule-sets other # only the misreadings
//        # of the other rule sets (default: only the default profile's; all: both)
//   node adapters/independent-js/catch-misreadings.js --write-catchers adapters/independent-js/catchers.json
//        # for each misreading, the scenarios that catch it at the weakest level that can
//        # (both; no-legal for a misreading that changes only a rejection code), which
//        # tests/protocol/test_misreadings_caught.py re-runs
//   FIVEHUNDRED=/path/to/fivehundred node ...                          # which runner to use
//
// Run from the repository root. Exit 1 when any misreading is not caught at level "all".

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LIST, INFO, DEFAULT } = require('./misreadings');

const LEVELS = {
  all: [],
  'no-legal': ['--no-legal'],
  'no-codes': ['--no-codes'],
  both: ['--no-legal', '--no-codes'],
};

const args = process.argv.slice(2);
let only = [];
let levels = Object.keys(LEVELS);
let markdown = false;
let catchersFile = null;
let ruleSets = 'all';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--only') only.push(args[++i]);
  else if (args[i] === '--levels') levels = args[++i].split(',');
  else if (args[i] === '--markdown') markdown = true;
  else if (args[i] === '--write-catchers') catchersFile = args[++i];
  else if (args[i] === '--rule-sets' && ['default', 'other', 'all'].includes(args[i + 1])) ruleSets = args[++i];
  else {
    console.error(`usage: catch-misreadings.js [--only NAME]... [--levels all,no-legal,no-codes,both] [--rule-sets default|other|all] [--markdown] [--write-catchers FILE]`);
    process.exit(2);
  }
}
for (const l of levels) if (!(l in LEVELS)) throw new Error(`unknown level ${l}`);
const isDefault = (n) => INFO.get(n).profiles === DEFAULT;
const wanted = (n) => ruleSets === 'all' || (ruleSets === 'default') === isDefault(n);
const names = only.length ? only : LIST.map(([n]) => n).filter(wanted);
const runner = process.env.FIVEHUNDRED || 'fivehundred';
const adapter = path.relative(process.cwd(), path.join(__dirname, 'adapter.js')) || 'adapter.js';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catch-misreadings-'));

// A misreading acts only on its rule sets, so only their scenarios can catch it: one run
// per rule set it names ('american-4': that profile's scenarios, with or without toggles;
// 'australian-4+inkles': those with the toggle).
function measure(name, level) {
  const impl = ['node', adapter, '--misreading', name, ...LEVELS[level]].join(' ');
  const result = { caught: false, ids: [], skipped: 0, total: 0 };
  for (const [i, label] of INFO.get(name).profiles.entries()) {
    const [profile, ...toggles] = label.split('+');
    const out = path.join(tmp, `${name}.${level}.${i}.json`);
    const select = ['--profile', profile, ...toggles.flatMap((t) => ['--variant', t])];
    const verify = ['verify', ...select, '--impl', impl, '--format', 'json', '-o', out];
    const r = spawnSync(runner, verify, { encoding: 'utf8' });
    if (!fs.existsSync(out)) return { error: `verify exit ${r.status}: ${(r.stderr || '').slice(-300)}` };
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const bad = report.scenarios.filter((s) => s.status === 'failed' || s.status === 'errored');
    for (const s of bad) if (!result.ids.some((x) => x.startsWith(s.id))) result.ids.push(s.status === 'errored' ? `${s.id}(err)` : s.id);
    result.skipped += report.totals.skipped;
    result.total += report.totals.total;
  }
  result.caught = result.ids.length > 0;
  return result;
}

const results = {};
for (const name of names) {
  results[name] = {};
  for (const level of levels) {
    results[name][level] = measure(name, level);
    process.stderr.write('.');
  }
}
process.stderr.write('\n');

function cell(r, withIds) {
  if (r.error) return `ERROR ${r.error}`;
  if (!r.caught) return 'NOT CAUGHT';
  const ids = r.ids.length > 6 ? `${r.ids.slice(0, 6).join(' ')} +${r.ids.length - 6}` : r.ids.join(' ');
  return withIds ? `caught ${r.ids.length}: ${ids}` : `caught ${r.ids.length}`;
}

const lines = [];
if (markdown) {
  // One table per group of rule sets, in the order the list first names each group.
  const groups = [...new Set(names.map((n) => INFO.get(n).profiles.join(', ')))];
  for (const group of groups) {
    if (groups.length > 1) lines.push(`**${group}**`, '');
    lines.push(`| misreading | ${levels.join(' | ')} |`);
    lines.push(`|---|${levels.map(() => '---').join('|')}|`);
    for (const name of names.filter((n) => INFO.get(n).profiles.join(', ') === group))
      lines.push(`| \`${name}\` | ${levels.map((l) => cell(results[name][l], true)).join(' | ')} |`);
    lines.push('');
  }
} else {
  const w = Math.max(...names.map((n) => n.length));
  lines.push(`${'misreading'.padEnd(w)}  ${levels.map((l) => l.padEnd(14)).join('')}  scenarios that caught it (level all)`);
  for (const name of names) {
    const r = results[name];
    const first = r[levels[0]];
    lines.push(
      `${name.padEnd(w)}  ${levels.map((l) => cell(r[l], false).padEnd(14)).join('')}  ${first && first.ids ? first.ids.join(' ') : ''}`,
    );
  }
}
lines.push('');
for (const level of levels) {
  const caught = names.filter((n) => results[n][level].caught).length;
  const missed = names.filter((n) => !results[n][level].caught);
  lines.push(`${level}: ${caught} of ${names.length} caught${missed.length ? `; not caught: ${missed.join(', ')}` : ''}`);
}
console.log(lines.join('\n'));
fs.writeFileSync(path.join(tmp, 'results.json'), JSON.stringify(results, null, 1));
if (catchersFile) {
  // The weakest level that catches each misreading: what is caught there is caught at every
  // stronger level too (a stronger level checks a superset of the same answers).
  const order = ['both', 'no-legal', 'no-codes', 'all'];
  const catchers = {};
  for (const name of names) {
    const level = order.find((l) => results[name][l] && results[name][l].caught);
    catchers[name] = level ? { level, ids: results[name][level].ids.map((i) => i.replace('(err)', '')) } : null;
  }
  fs.writeFileSync(catchersFile, JSON.stringify(catchers, null, 1) + '\n');
}
console.error(`reports in ${tmp}`);
process.exit(levels.includes('all') && names.some((n) => !results[n].all.caught) ? 1 : 0);
