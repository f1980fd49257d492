'use strict';
// Loads the engine's rules file from a checkout the user fetched and hands back its
// exported functions.  The file is TypeScript; it is transpiled in memory with the
// `typescript` package (declared in this folder's package.json) and never written out,
// so nothing built from the engine lands on disk.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const REPOSITORY = 'https://github.com/jaymehuskinson-code/500-Card-Game';
const COMMIT = '9bebc9b19ed4dfad46f51c9c7308f1b7030694a6';
const VARIABLE = 'FIVEHUNDRED_JAYMEHUSKINSON_PATH';
const RULES_FILE = path.join('supabase', 'functions', 'shared', 'gameLogic.ts');

// Every function of gameLogic.ts the adapter calls; nothing else of the file is used.
const CALLED = [
  'parseCard',
  'effectiveSuit',
  'getBidValue',
  'isValidBid',
  'getLegalPlays',
  'resolveTrick',
  'calculateRoundScore',
  'checkGameOver',
];

// A problem the user fixes before anything can run: one line, then exit non-zero.
class SetupProblem extends Error {}

function fetchHint() {
  return `a checkout of ${REPOSITORY} at ${COMMIT.slice(0, 7)} (git clone ${REPOSITORY} && git -C 500-Card-Game checkout ${COMMIT})`;
}

function rulesPath(env) {
  const root = env[VARIABLE];
  if (!root) throw new SetupProblem(`set ${VARIABLE} to ${fetchHint()}`);
  const file = path.join(root, RULES_FILE);
  if (!fs.existsSync(file)) {
    throw new SetupProblem(`${VARIABLE}=${JSON.stringify(root)} has no ${RULES_FILE}: point it at ${fetchHint()}`);
  }
  return file;
}

function typescript() {
  try {
    return require('typescript');
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND') {
      throw new SetupProblem(`the adapter needs the npm package typescript: run "npm ci" in ${__dirname}`);
    }
    throw error;
  }
}

function git(root, ...args) {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

// The short commit of the checkout, as the report's version: what was really run, which
// is the pinned commit only if the user checked it out.  A folder that is not a git
// checkout of its own (a copy, an unpacked archive) cannot say.
function checkoutVersion(env = process.env) {
  const root = env[VARIABLE];
  const top = root && git(root, 'rev-parse', '--show-toplevel');
  if (!top || fs.realpathSync(top) !== fs.realpathSync(root)) return 'unknown (not a git checkout)';
  const head = git(root, 'rev-parse', 'HEAD');
  if (!head) return 'unknown (no commit)';
  if (head !== COMMIT) {
    process.stderr.write(`jaymehuskinson adapter: the checkout is at ${head.slice(0, 7)}, not the tested ${COMMIT.slice(0, 7)}\n`);
  }
  return head.slice(0, 7);
}

// Transpile and evaluate the rules file as a CommonJS module; return its exports.
function loadEngine(env = process.env) {
  const file = rulesPath(env);
  const ts = typescript();
  const source = fs.readFileSync(file, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  });
  const module = { exports: {} };
  const wrapped = vm.runInThisContext(`(function (exports, module, require) {${outputText}\n})`, {
    filename: file,
  });
  wrapped(module.exports, module, () => {
    throw new Error(`${RULES_FILE} imports nothing; this checkout does`);
  });
  const missing = CALLED.filter((name) => typeof module.exports[name] !== 'function');
  if (missing.length > 0) {
    throw new SetupProblem(`${file} does not export ${missing.join(', ')}: point ${VARIABLE} at ${fetchHint()}`);
  }
  return module.exports;
}

module.exports = { loadEngine, checkoutVersion, SetupProblem, REPOSITORY, COMMIT, VARIABLE, RULES_FILE };
