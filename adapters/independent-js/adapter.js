#!/usr/bin/env node
// Five Hundred: an independent, clean-room engine behind protocol v1 (Node.js 20, no
// dependencies), used to cross-check the reference engine and the scenarios.
// The protocol half is copied from adapters/node-skeleton/.
//
//   fivehundred verify --impl 'node adapters/independent-js/adapter.js'
//   fivehundred verify --impl 'node adapters/independent-js/adapter.js --one-shot' --one-shot
//
// stdout carries protocol messages only, one JSON object per line.  Write logs and
// debugging output to stderr (console.error): the runner keeps its tail for reports.

'use strict';

const readline = require('node:readline');

const PROTOCOL = 1;

// Who you are; shown in every report.
const IMPLEMENTATION = {
  name: 'independent-js',
  version: '1.2.0', // 1.2: the thirteen toggles of suite 1.3
  language: 'javascript',
  // homepage: 'https://example.org/my-five-hundred',
};

// What you can do.  The runner does not send scenarios you cannot run:
// - profiles: the forms of the game you implement;
// - legal_actions: true once observe("legal") works (until then scenarios that
//   observe legal or legal_count are skipped);
// - error_codes: true once rejections carry the suite's codes (until then only
//   accepted versus rejected is compared).
// --no-legal and --no-codes make the adapter impersonate a weaker engine (see README.md):
// --no-legal declares legal_actions false and never reports legal or legal_count;
// --no-codes declares error_codes false and sends rejections without a code.
const NO_LEGAL = process.argv.includes('--no-legal');
const NO_CODES = process.argv.includes('--no-codes');
const PROFILES = require('./profiles');
const CAPABILITIES = {
  profiles: Object.keys(PROFILES.PROFILES),
  variants: Object.keys(PROFILES.VARIANTS),
  legal_actions: !NO_LEGAL,
  error_codes: !NO_CODES,
};

// Throw this from any function below for a feature you do not have yet: the
// scenario is reported as skipped, with the message as the reason.
class NotImplemented extends Error {}

// ---- THE ENGINE -------------------------------------------------------------------
// The rules live in engine.js and cards.js; this part only translates steps.

// Named misreadings (--misreading NAME, FIVEHUNDRED_MISREADINGS, or per scenario with
// --misreadings-for TABLE): see MISREADINGS.md.
const MISREADINGS = require('./misreadings');
if (MISREADINGS.ACTIVE.size > 0) IMPLEMENTATION.version += `+misreading.${[...MISREADINGS.ACTIVE].join('.')}`;
if (MISREADINGS.PER_SCENARIO !== null) IMPLEMENTATION.version += '+misreadings-per-scenario';
const { setUp: engineSetUp, Rejected, Unsupported } = require('./engine');

function setUp(profile, variants, setup) {
  const why = PROFILES.variantsRefusal(profile, variants);
  if (why) throw new NotImplemented(why);
  return engineSetUp(setup, profile, variants);
}

function outcome(fn) {
  try {
    fn();
    return { outcome: 'accepted' };
  } catch (error) {
    if (error instanceof Rejected) return NO_CODES ? { outcome: 'rejected' } : { outcome: 'rejected', code: error.code };
    throw error;
  }
}

function act(state, step) {
  const { seat } = step;
  if ('call' in step) return outcome(() => state.call(seat, step.call));
  if ('discard' in step) return outcome(() => state.discard(seat, step.discard));
  if ('sans_kitty' in step) return outcome(() => state.sansKitty(seat));
  if ('nominate' in step) return outcome(() => state.nominate(seat, step.nominate));
  if ('play' in step) return outcome(() => state.play(seat, step.play, step.names));
  throw new Error(`unknown step ${JSON.stringify(step)}`);
}

function newDeal(state, deck) {
  return outcome(() => state.newDeal(deck));
}

function recordDealResult(state, result) {
  return outcome(() => state.recordResult(result));
}

function observe(state, key) {
  return state.observe(key);
}

// ---- THE PROTOCOL (no need to change anything below) ------------------------------

function runScenario(scenario) {
  const state = setUp(scenario.profile || 'australian-4', scenario.variants || [], scenario.setup);
  const steps = scenario.steps.map((step) => {
    if ('observe' in step) {
      const observed = {};
      for (const key of step.observe) {
        if (NO_LEGAL && (key === 'legal' || key === 'legal_count')) continue; // never reported
        observed[key] = observe(state, key);
      }
      return { observed };
    }
    if ('deal' in step) return newDeal(state, step.deal);
    if ('deal_result' in step) return recordDealResult(state, step.deal_result);
    return act(state, step);
  });
  return { steps };
}

function answer(message) {
  switch (message.cmd) {
    case 'hello':
      return { protocol: PROTOCOL, implementation: IMPLEMENTATION, capabilities: CAPABILITIES };
    case 'run': {
      const seq = message.seq;
      try {
        MISREADINGS.select(message.scenario.id);
        return { seq, result: runScenario(message.scenario) };
      } catch (error) {
        if (error instanceof NotImplemented || error instanceof Unsupported) {
          return { seq, skipped: { reason: `not implemented: ${error.message}` } };
        }
        const text = error && error.message ? error.message : String(error);
        return {
          seq,
          errored: { message: text, context: { id: message.scenario.id, stack: error && error.stack } },
        };
      }
    }
    case 'bye':
      return null;
    default:
      throw new Error(`unknown cmd ${JSON.stringify(message.cmd)}`);
  }
}

function main() {
  const oneShot = process.argv.includes('--one-shot');
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch (error) {
      console.error(`independent-js: cannot answer ${line.slice(0, 200)}: ${error.message}`);
      process.exit(2);
    }
    if (reply === null) {
      lines.close(); // bye: end of session
      return;
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`, () => {
      if (oneShot) process.exit(0);
    });
    if (oneShot) lines.close();
  });
  lines.on('close', () => {
    // Let pending writes finish; the process exits when the event loop is empty.
    process.stdin.pause();
  });
}

main();
