#!/usr/bin/env node
// Differential test: generate random scenario inputs (random deals, legal and illegal
// actions, deal and deal_result steps, observations of everything), run them through
// this engine and through another protocol-v1 implementation (by default the
// reference, `fivehundred serve`), and report every step where the two disagree.
//
//   node adapters/independent-js/difftest.js [--n 2000] [--seed 1] [--other 'fivehundred serve']
//        [--profile NAME|all] [--variants a,b] [--send-undeclared] [--plain-setups]
//        [--omit-keys key1,key2]
//
// --profile all cycles through every profile, then every toggle on its own, then the pairs
// of toggles in EXTRA_COMBOS (toggles that change the same rules together). Scenarios of
// a profile or toggle the other implementation does not declare in its hello reply are
// not sent unless --send-undeclared is given.
//
// The other implementation is treated as a black box over the protocol: --other is the
// command that starts it (split on spaces), by default `fivehundred serve`, the reference
// from the active environment's PATH. Exit 1 on any disagreement or scenario without a result.

'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');
const path = require('node:path');
const PR = require('./profiles');
const { setUp: engineSetUp } = require('./engine');

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  // The usage is the comment at the top of this file.
  const head = require('node:fs').readFileSync(__filename, 'utf8').split('\n');
  const usage = head.slice(1, head.indexOf("'use strict';")).map((l) => l.replace(/^\/\/ ?/, ''));
  console.log(usage.join('\n').trim());
  process.exit(0);
}
function opt(name, dflt) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
}
const N = Number(opt('n', 1000));
let seed = Number(opt('seed', 1));
const OTHER = opt('other', 'fivehundred serve');
const MINE = opt('mine', `node ${path.join(__dirname, 'adapter.js')}`);
const SHOW = Number(opt('show', 3)); // examples kept per category
// --profile NAME (default australian-4) or 'all' (every profile, and every toggle alone, in
// turn); --variants a,b (toggles for the one profile given).
const PROFILE_OPT = opt('profile', 'australian-4');
// --plain-setups: no `scores` in setups and play starts only before the first trick (for an
// implementation that cannot take side-keyed setups yet).
const PLAIN = args.includes('--plain-setups');
const VARIANTS_OPT = (opt('variants', '') || '').split(',').filter(Boolean);
// Toggles played together: a seating form with the all-pass deal, and default-profile
// toggles that touch the same phase (auction, kitty, opening lead, scoring).
const EXTRA_COMBOS = [
  ['american-4', ['dealer-sits-out', 'all-pass-no-trumps']],
  ['american-5', ['one-sits-out', 'all-pass-no-trumps']],
  ['american-6', ['three-sides-of-two', 'all-pass-no-trumps']],
  ['australian-4', ['pass-may-re-enter', 'inkles']],
  ['australian-4', ['pass-may-re-enter', 'raise-after-all-pass']],
  ['australian-4', ['dealers-left-leads', 'double-nullo']],
  ['australian-4', ['forty-five-card-pack', 'double-nullo']],
  ['australian-4', ['dealers-left-leads', 'open-misere-shown-after-lead']],
  ['australian-4', ['no-slam-bonus', 'avondale-less-twenty']],
  ['australian-4', ['sans-kitty', 'forty-five-card-pack']],
].filter(([p, v]) => PR.variantsRefusal(p, v) === null);
const COMBOS =
  PROFILE_OPT === 'all'
    ? [
        ...Object.keys(PR.PROFILES).map((p) => [p, []]),
        ...Object.entries(PR.VARIANTS).flatMap(([v, ps]) => ps.map((p) => [p, [v]])),
        ...EXTRA_COMBOS,
      ]
    : [[PROFILE_OPT, VARIANTS_OPT]];

// The profile in use for the scenario being built (set per scenario).
let P = PR.makeProfile('australian-4');
let VARS = [];
const C = {
  get SEATS() { return P.seats; },
  SUITS: PR.SUITS,
  get DECK() { return P.deck; },
  get BID_ORDER() { return P.bidOrder; },
  partnersOf: (seat) => P.seats.filter((s) => s !== seat && P.sideOfSeat[s] === P.sideOfSeat[seat]),
};
const setUp = (setup) => engineSetUp(setup, P.name, VARS);
// Where reaching 500 by any means ends the game, no deal starts with a side at 500 or more.
const scoreChoices = () => (P.end === 'any-means' ? SCORE_CHOICES.filter((x) => x < 500) : SCORE_CHOICES);
const randomScores = () => Object.fromEntries(P.sideNames.map((s) => [s, pick(scoreChoices())]));

// ---- rng --------------------------------------------------------------------------
function rnd() {
  // mulberry32
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const chance = (p) => rnd() < p;
function shuffled(a) {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
}

// --omit-keys a,b: leave these observations out (to look past a known disagreement or a
// crash of the other implementation).
const OMIT = new Set((opt('omit-keys', '') || '').split(',').filter(Boolean));
const OBS = [
  'phase', 'to_act', 'legal', 'legal_count', 'high_bid', 'high_bidder', 'passed', 'contract',
  'declarer', 'hands', 'hand_sizes', 'kitty', 'discards', 'nominated', 'sitting_out', 'trick',
  'last_trick', 'suits_led', 'tricks', 'deal_score', 'made', 'scores', 'dealer', 'exposed',
  'game_over', 'winner',
].filter((k) => !OMIT.has(k));
const SCORE_CHOICES = [0, 0, 0, 100, 260, 300, 450, 480, 490, 500, 520, -100, -250, -260, -490, -480, 240];
let SANS_KITTY_SENT = false; // set from the other implementation's hello reply
const callsOf = () => ['PASS', ...C.BID_ORDER, ...(chance(0.05) ? ['OMIS', 'BMIS', 'MIS'] : [])];

// ---- a step from a legal action string --------------------------------------------
function stepFromAction(seat, a, phase) {
  if (phase === 'auction') return { seat, call: a };
  if (a.startsWith('DISCARD ')) return { seat, discard: a.slice(8).split(' ') };
  if (a === 'SANS KITTY') return { seat, sans_kitty: true };
  if (a.startsWith('NOMINATE ')) return { seat, nominate: a.slice(9) };
  if (a.startsWith('JK:')) return { seat, play: 'JK', names: a.slice(3) };
  return { seat, play: a };
}

function randomAction(g) {
  const seat = pick(C.SEATS);
  // a sans_kitty step goes only to an implementation declaring sans-kitty (protocol §5)
  const kind = pick(['call', 'discard', 'nominate', 'play', 'play', 'play', ...(SANS_KITTY_SENT ? ['sans_kitty'] : [])]);
  const held = g.hands[seat];
  const someCard = () => (held.length && chance(0.8) ? pick(held) : pick(C.DECK));
  switch (kind) {
    case 'call':
      return { seat, call: pick(callsOf()) };
    case 'sans_kitty':
      return { seat: chance(0.7) && g.toAct() ? g.toAct() : seat, sans_kitty: true };
    case 'discard': {
      const k = g.kittySize;
      const n = pick([k, k, k, k - 1, k + 1]);
      const cards = [];
      for (let i = 0; i < n; i++) cards.push(someCard());
      return { seat, discard: cards };
    }
    case 'nominate':
      return { seat, nominate: pick(C.SUITS) };
    default: {
      const s = { seat: chance(0.7) && g.toAct() ? g.toAct() : seat, play: null };
      const h = g.hands[s.seat];
      s.play = h.length && chance(0.85) ? pick(h) : pick(C.DECK);
      if (h.includes('JK') && chance(0.3)) s.play = 'JK';
      if (chance(s.play === 'JK' ? 0.7 : 0.1)) s.names = pick(C.SUITS);
      return s;
    }
  }
}

function randomResult(g) {
  if (chance(0.2)) return 'thrown-in';
  const misere = C.BID_ORDER.filter((b) => P.misere[b]);
  // With several defenders scoring apart a suit result would need each one's tricks, which
  // the format does not carry yet: only misère (Nullo) results there.
  const contract = P.sideNames.length > 2 ? (misere.length ? pick(misere) : null) : pick(C.BID_ORDER);
  if (contract === null) return 'thrown-in';
  let tricks;
  if (P.misere[contract]) tricks = chance(0.5) ? 0 : P.misereEndsEarly ? 1 : pick([1, 1, 2, 5, 10]);
  else tricks = Math.floor(rnd() * 11);
  // dealer-sits-out: the dealer of the deal recorded rests, so never declares.
  const declarers = P.dealerSitsOut ? C.SEATS.filter((s) => s !== g.dealer) : C.SEATS;
  return { contract, declarer: pick(declarers), tricks };
}

// Drive an engine copy with a step, mirroring what the adapter does.
function apply(g, step) {
  try {
    if ('deal' in step) g.newDeal(step.deal);
    else if ('deal_result' in step) g.recordResult(step.deal_result);
    else if ('call' in step) g.call(step.seat, step.call);
    else if ('discard' in step) g.discard(step.seat, step.discard);
    else if ('sans_kitty' in step) g.sansKitty(step.seat);
    else if ('nominate' in step) g.nominate(step.seat, step.nominate);
    else if ('play' in step) g.play(step.seat, step.play, step.names);
    return true;
  } catch (e) {
    if (e.code) return false;
    throw e;
  }
}

// Choose a legal action, biased so that auctions end in interesting contracts.
function legalStep(g) {
  const legal = g.legal();
  const seat = g.toAct();
  if (g.phase === 'auction') {
    const bids = legal.filter((a) => a !== 'PASS');
    let a;
    if (g.highBid === null && chance(0.08)) a = 'PASS';
    else if (g.highBid !== null && chance(0.55)) a = 'PASS';
    else if (bids.length) {
      const pref = bids.filter((b) => /NT|MIS/.test(b) || b.startsWith('6') || b.startsWith('7'));
      a = pref.length && chance(0.6) ? pick(pref) : pick(bids.slice(0, 6));
    } else a = 'PASS';
    return stepFromAction(seat, a, g.phase);
  }
  if (g.phase === 'play' && chance(0.5)) {
    const nom = legal.filter((a) => a.startsWith('NOMINATE'));
    if (nom.length) return stepFromAction(seat, pick(nom), g.phase);
  }
  return stepFromAction(seat, pick(legal), g.phase);
}

function cloneSetup(s) {
  return JSON.parse(JSON.stringify(s));
}

// A `play` start taken from a game driven to some trick boundary.
function randomPlaySetup() {
  for (;;) {
    const dealer = pick(C.SEATS);
    const g = setUp({ start: 'deck', dealer, deck: shuffled(C.DECK) });
    // auction: force a random contract
    const extra = ['6NT', '7NT', '8NT', '9NT', 'MIS', 'MIS', 'OMIS', 'OMIS', 'BMIS'].filter((b) => P.bidRank.has(b));
    // inkles: a six never becomes the contract
    const contract = pick([...C.BID_ORDER, ...extra].filter((b) => !(P.inkles && b.startsWith('6'))));
    const declarer = pick(g.dealtSeats); // a resting dealer (dealer-sits-out) never declares
    g.highBid = contract;
    g.highBidder = declarer;
    g.passed = new Set(C.SEATS.filter((s) => s !== declarer));
    g.contract = PR.parseContract(P, contract);
    g.declarer = declarer;
    g.hands[declarer].push(...g.kitty);
    g.kitty = [];
    g.phase = 'kitty';
    g.kittyActor = declarer;
    // the declarer's discard, then (double-nullo misère) the partner's
    while (g.phase === 'kitty') {
      const who = g.toAct();
      g.discard(who, shuffled(g.hands[who]).slice(0, g.kittySize));
    }
    if (chance(0.4)) {
      const nom = g.legal().filter((a) => a.startsWith('NOMINATE'));
      if (nom.length) apply(g, stepFromAction(declarer, pick(nom), 'play'));
    }
    const target = PLAIN ? 0 : Math.floor(rnd() * 10);
    let ok = true;
    while (g.tricksPlayed < target || g.trick !== null) {
      if (g.phase !== 'play') {
        ok = false;
        break;
      }
      apply(g, legalStep(g));
    }
    if (!ok || g.phase !== 'play') continue;
    if (g.isMisere && g.declarerOwnTricks > 0) continue; // format: a misère declarer has no trick yet
    const setup = {
      start: 'play',
      dealer,
      contract,
      declarer,
      hands: Object.fromEntries(C.SEATS.map((s) => [s, [...g.hands[s]]])),
    };
    if (g.isMisere && !P.doubleNullo && chance(0.5)) for (const p of C.partnersOf(declarer)) setup.hands[p] = [];
    if (g.tricksPlayed > 0 || chance(0.3)) setup.leader = g.toPlay;
    if (g.nominated && g.hands[declarer].includes('JK')) setup.nominated = g.nominated;
    if (g.suitsLed.size || chance(0.2)) setup.suits_led = C.SUITS.filter((s) => g.suitsLed.has(s));
    if ((g.tricksPlayed > 0 || chance(0.2)) && !PLAIN) setup.tricks = { ...g.tricks };
    if (chance(0.5) && !PLAIN) setup.scores = randomScores();
    return setup;
  }
}

function randomScenario(i) {
  const kind = pick(['game', 'game', 'deck', 'deck', 'auction', 'play', 'play', 'play']);
  let setup;
  const dealer = pick(C.SEATS);
  const scores = randomScores();
  if (kind === 'game') setup = PLAIN ? { start: 'game', dealer } : { start: 'game', dealer, scores };
  else if (kind === 'deck') setup = { start: 'deck', dealer, deck: shuffled(C.DECK) };
  else if (kind === 'auction') {
    const g = setUp({ start: 'deck', dealer, deck: shuffled(C.DECK) });
    setup = { start: 'auction', dealer, hands: g.observe('hands'), kitty: g.observe('kitty') };
  } else setup = randomPlaySetup();
  if (kind !== 'game' && kind !== 'play' && chance(0.4) && !PLAIN) setup.scores = scores;
  const g = setUp(cloneSetup(setup));
  const steps = [{ observe: OBS }];
  const len = 20 + Math.floor(rnd() * 120);
  for (let k = 0; k < len; k++) {
    let step;
    if (g.phase === 'none' || g.phase === 'over') {
      const r = rnd();
      if (r < 0.55) step = { deal: shuffled(C.DECK) };
      else if (r < 0.85) step = { deal_result: randomResult(g) };
      else step = randomAction(g);
    } else if (chance(0.12)) {
      step = chance(0.15) ? (chance(0.5) ? { deal: shuffled(C.DECK) } : { deal_result: randomResult(g) }) : randomAction(g);
    } else step = legalStep(g);
    apply(g, step);
    steps.push(step);
    if (chance(0.35)) steps.push({ observe: OBS });
    if (g.gameOver && chance(0.3)) break;
  }
  steps.push({ observe: OBS });
  const sc = { id: 'ZZZZ', profile: P.name, setup, steps };
  if (VARS.length) sc.variants = [...VARS];
  return sc;
}

// ---- talking to an adapter ---------------------------------------------------------
class Peer {
  constructor(cmd) {
    const words = cmd.split(/\s+/).filter(Boolean);
    this.proc = spawn(words[0], words.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    this.waiting = [];
    readline.createInterface({ input: this.proc.stdout }).on('line', (l) => {
      const w = this.waiting.shift();
      if (w) w(JSON.parse(l));
    });
  }
  send(msg) {
    return new Promise((res) => {
      this.waiting.push(res);
      this.proc.stdin.write(`${JSON.stringify(msg)}\n`);
    });
  }
  close() {
    this.proc.stdin.write('{"cmd":"bye"}\n');
    this.proc.stdin.end();
  }
}

// ---- comparing ---------------------------------------------------------------------
const SET_KEYS = new Set(['legal', 'passed', 'kitty', 'discards', 'suits_led', 'exposed']);
function norm(key, v) {
  if (v === null || v === undefined) return v;
  if (SET_KEYS.has(key) && Array.isArray(v)) {
    let a = [...v];
    if (key === 'legal') a = a.map((x) => (x.startsWith('DISCARD ') ? `DISCARD ${x.slice(8).split(' ').sort().join(' ')}` : x));
    return a.sort();
  }
  if (key === 'hands') {
    const o = {};
    for (const s of Object.keys(v).sort()) o[s] = [...v[s]].sort();
    return o;
  }
  return v;
}
function canon(x) {
  if (Array.isArray(x)) return x.map(canon);
  if (x && typeof x === 'object') {
    const o = {};
    for (const k of Object.keys(x).sort()) o[k] = canon(x[k]);
    return o;
  }
  return x;
}
const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));

async function main() {
  const mine = new Peer(MINE);
  const other = new Peer(OTHER);
  const hello = { cmd: 'hello', protocol: 1, suite: '1.0.0' };
  await mine.send(hello);
  const otherHello = await other.send(hello);
  const theirs = (otherHello.capabilities && otherHello.capabilities.profiles) || [];
  const theirVariants = (otherHello.capabilities && otherHello.capabilities.variants) || [];
  const missing = COMBOS.filter(([p, v]) => !theirs.includes(p) || v.some((x) => !theirVariants.includes(x)));
  const SEND_UNDECLARED = args.includes('--send-undeclared');
  SANS_KITTY_SENT = SEND_UNDECLARED || theirVariants.includes('sans-kitty');
  const missingKeys = new Set(missing.map(([p, v]) => [p, ...v].join('+')));
  if (missing.length)
    console.error(
      `the other implementation does not declare: ${[...missingKeys].join(', ')} ` +
        (SEND_UNDECLARED ? '(sent anyway: --send-undeclared)' : '(not sent; --send-undeclared sends them)'),
    );
  let notSent = 0;
  const categories = new Map();
  let disagreeing = 0;
  let otherErrors = 0;
  let discardOrder = 0;
  for (let i = 1; i <= N; i++) {
    [P, VARS] = (() => {
      const [p, v] = COMBOS[(i - 1) % COMBOS.length];
      return [PR.makeProfile(p, v), v];
    })();
    const scenario = randomScenario(i);
    if (!SEND_UNDECLARED && missingKeys.has([P.name, ...VARS].join('+'))) {
      notSent++;
      continue;
    }
    const msg = { cmd: 'run', seq: i, scenario };
    const [a, b] = [await mine.send(msg), await other.send(msg)];
    if (!b.result || !a.result) {
      otherErrors++;
      const cat = `${scenario.profile}${(scenario.variants || []).map((v) => `+${v}`).join('')} no result: mine ${Object.keys(a).join(',')} other ${Object.keys(b).join(',')}`;
      if (!categories.has(cat)) categories.set(cat, []);
      const ex = categories.get(cat);
      if (ex.length < SHOW) ex.push({ setup: scenario.setup, mine: a.errored || a.skipped, other: b.errored || b.skipped });
      continue;
    }
    const sa = a.result.steps;
    const sb = b.result.steps;
    for (let k = 0; k < scenario.steps.length; k++) {
      const step = scenario.steps[k];
      let diffs = [];
      if ('observe' in step) {
        for (const key of step.observe) {
          const va = sa[k].observed[key];
          const vb = sb[k].observed[key];
          if (key === 'legal' && Array.isArray(va) && Array.isArray(vb) && va.some((x) => x.startsWith('DISCARD'))) {
            if (!same([...va].sort(), [...vb].sort()) && same(norm(key, va), norm(key, vb))) discardOrder++;
          }
          if (!same(norm(key, va), norm(key, vb))) diffs.push({ key, mine: va, other: vb });
        }
      } else if (!same(sa[k], sb[k])) diffs.push({ key: 'outcome', mine: sa[k], other: sb[k] });
      if (diffs.length) {
        disagreeing++;
        const cat = `${scenario.profile}${(scenario.variants || []).map((v) => `+${v}`).join("")}: ` + diffs.map((d) => d.key).join('+') + ('observe' in step ? '' : ` @ ${Object.keys(step).filter((x) => x !== 'seat' && x !== 'names').join()} ${JSON.stringify(sa[k])} vs ${JSON.stringify(sb[k])}`);
        if (!categories.has(cat)) categories.set(cat, []);
        const ex = categories.get(cat);
        if (ex.length < SHOW) {
          const prevObs = scenario.steps.slice(0, k).map((s, j) => [s, j]).filter(([s]) => 'observe' in s).pop();
          ex.push({
            scenario_index: i,
            step_index: k,
            step,
            diffs,
            previous_steps: scenario.steps.slice(Math.max(0, k - 8), k).filter((s) => !('observe' in s)),
            state_before: prevObs ? sa[prevObs[1]].observed : null,
            setup: scenario.setup,
          });
        }
        break; // only the first disagreement of a scenario
      }
    }
  }
  mine.close();
  other.close();
  const report = { combos: COMBOS.map(([p, v]) => [p, ...v].join('+')), scenarios: N, not_sent_undeclared: notSent, disagreeing, no_result: otherErrors, discard_string_order_differs: discardOrder, categories: Object.fromEntries(categories) };
  console.log(JSON.stringify(report, null, 1));
  if (disagreeing || otherErrors) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
