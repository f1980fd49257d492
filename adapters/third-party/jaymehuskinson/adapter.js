#!/usr/bin/env node
// Five Hundred conformance suite: a protocol v1 adapter (site/protocol.md) for the rules
// functions of jaymehuskinson-code/500-Card-Game (supabase/functions/shared/gameLogic.ts).
//
//   FIVEHUNDRED_JAYMEHUSKINSON_PATH=/path/to/500-Card-Game \
//     fivehundred verify --impl 'node adapters/third-party/jaymehuskinson/adapter.js'
//
// The engine is not part of this project: the adapter loads it from the user's checkout
// (engine.js), keeps the plain state of a scenario and asks the engine for every
// judgement (table.js).  stdout carries protocol messages only; notes go to stderr.

'use strict';

const readline = require('node:readline');
const { loadEngine, checkoutVersion, SetupProblem, REPOSITORY } = require('./engine');
const { Table, NotSupported, OBSERVATIONS } = require('./table');
const { Untranslatable } = require('./notation');

const PROTOCOL = 1;
const NAME = 'jaymehuskinson';

function implementation() {
  return {
    name: 'jaymehuskinson-code/500-Card-Game',
    version: checkoutVersion(),
    language: 'typescript',
    homepage: REPOSITORY,
  };
}

// Only the default profile, with no toggle: the engine has one fixed set of rules.
// Rejections carry the engine's own messages, not the suite's codes.
const CAPABILITIES = {
  profiles: ['australian-4'],
  legal_actions: true,
  error_codes: false,
  observations: OBSERVATIONS,
};

function runScenario(engine, scenario) {
  const table = new Table(engine, scenario.setup);
  const steps = scenario.steps.map((step) => {
    if ('observe' in step) {
      const observed = {};
      for (const key of step.observe) observed[key] = table.observe(key);
      return { observed };
    }
    if ('deal' in step) return table.deal(step.deal);
    if ('deal_result' in step) return table.recordDealResult(step.deal_result);
    return table.act(step);
  });
  return { steps };
}

function answer(engine, identity, message) {
  switch (message.cmd) {
    case 'hello':
      return { protocol: PROTOCOL, implementation: identity, capabilities: CAPABILITIES };
    case 'run': {
      const seq = message.seq;
      try {
        return { seq, result: runScenario(engine, message.scenario) };
      } catch (error) {
        if (error instanceof NotSupported) return { seq, skipped: { reason: `the engine cannot run ${error.message}` } };
        const text = error instanceof Untranslatable ? error.message : `${error && error.name}: ${error && error.message}`;
        return { seq, errored: { message: text, context: { stack: error && error.stack } } };
      }
    }
    case 'bye':
      return null;
    default:
      throw new Error(`unknown cmd ${JSON.stringify(message.cmd)}`);
  }
}

function main() {
  let engine;
  let identity;
  try {
    engine = loadEngine();
    identity = implementation();
  } catch (error) {
    const text = error instanceof SetupProblem ? error.message : `cannot load the engine: ${error.message}`;
    process.stderr.write(`${NAME} adapter: ${text.replace(/\s+/g, ' ')}\n`);
    process.exit(2);
  }
  const oneShot = process.argv.includes('--one-shot');
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let reply;
    try {
      reply = answer(engine, identity, JSON.parse(line));
    } catch (error) {
      process.stderr.write(`${NAME} adapter: cannot answer ${JSON.stringify(line.slice(0, 200))}: ${error.message}\n`);
      process.exit(2);
    }
    if (reply === null) {
      lines.close();
      return;
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`, () => {
      if (oneShot) process.exit(0);
    });
    if (oneShot) lines.close();
  });
  lines.on('close', () => process.stdin.pause());
}

main();
