#!/usr/bin/env node
// Five Hundred conformance suite: a protocol v1 adapter skeleton for Node.js.
//
// It speaks the whole protocol (site/protocol.md) and implements no rules: every
// scenario is answered "skipped" until the five functions under "YOUR ENGINE" are
// filled in.  No dependencies; Node 18 or later.
//
//   fivehundred verify --impl 'node adapters/node-skeleton/adapter.js'
//   fivehundred verify --impl 'node adapters/node-skeleton/adapter.js --one-shot' --one-shot
//
// stdout carries protocol messages only, one JSON object per line.  Write logs and
// debugging output to stderr (console.error): the runner keeps its tail for reports.

'use strict';

const readline = require('node:readline');

const PROTOCOL = 1;

// Who you are; shown in every report.
const IMPLEMENTATION = {
  name: 'node-skeleton',
  version: '0.0.0',
  language: 'javascript',
  // homepage: 'https://example.org/my-five-hundred',
};

// What you can do.  The runner checks as much as you declare:
// - profiles: the forms of the game you implement (other scenarios are skipped);
// - legal_actions: true once observe("legal") works (until then legal and
//   legal_count are never asked for and are reported as unchecked);
// - error_codes: true once rejections carry the suite's codes (until then only
//   accepted versus rejected is compared);
// - observations (optional): the observation keys observe() answers so far, e.g.
//   ['phase', 'to_act']; the others are never asked for and reported as unchecked;
// - starts (optional): the kinds of start setUp() can make, of 'deck', 'auction',
//   'play' and 'game'; scenarios with another start are skipped without being sent,
//   and fuzz generates only those (['auction'] for an engine of the bidding alone).
const CAPABILITIES = {
  profiles: ['australian-4'],
  legal_actions: false,
  error_codes: false,
};

// Throw this from any function below for a feature you do not have yet: the
// scenario is reported as skipped, with the message as the reason.
class NotImplemented extends Error {}

// ---- YOUR ENGINE ------------------------------------------------------------------
// Notation is the scenario notation, unchanged: seats N E S W, cards like "AS",
// "10H", "JK", bids "6S" … "10NT", "MIS", "OMIS", calls add "PASS", suits S C D H.

// Build a game from scenario.setup (setup.start is deck, auction, play or game; a
// deck is already spelled out card by card, top card first).  Return your state.
function setUp(profile, setup) {
  throw new NotImplemented(`starting a ${profile} scenario at ${setup.start}`);
}

// One action: step has seat and exactly one of call, discard (three cards),
// nominate (a suit) or play (a card, with names for a suitless joker lead).
// Return {outcome: 'accepted'} or {outcome: 'rejected', code: 'must-follow-suit'}.
// A rejected action must change nothing.
function act(state, step) {
  throw new NotImplemented('actions');
}

// A new deal by the current dealer from this deck (only between deals of a game).
// Return accepted, or rejected with wrong-phase or game-over.
function newDeal(state, deck) {
  throw new NotImplemented('deal steps');
}

// Record a whole deal's result at game level: 'thrown-in' or
// {contract, declarer, tricks}.  Return accepted, or rejected.
function recordDealResult(state, result) {
  throw new NotImplemented('deal_result steps');
}

// The current value of one observation (site/scenario-format.md, Observations):
// phase, to_act, legal, high_bid, hands, trick, scores, game_over, …
function observe(state, key) {
  throw new NotImplemented(`observation ${key}`);
}

// ---- THE PROTOCOL (no need to change anything below) ------------------------------

function runScenario(scenario) {
  const state = setUp(scenario.profile, scenario.setup);
  const steps = scenario.steps.map((step) => {
    if ('observe' in step) {
      const observed = {};
      for (const key of step.observe) observed[key] = observe(state, key);
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
        return { seq, result: runScenario(message.scenario) };
      } catch (error) {
        if (error instanceof NotImplemented) {
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
      console.error(`node-skeleton: cannot answer ${line.slice(0, 200)}: ${error.message}`);
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
