#!/usr/bin/env node
// Self-checks of the profiles engine, with no other implementation: for every profile and
// toggle, random games played with legal actions only, checking invariants, plus the fixed
// tables of each profile (packs, bid order, contract values) taken from the seeds.
//
//   node adapters/independent-js/selftest.js [--games 40] [--seed 1]
//
// Exit 1 on any failed check.

'use strict';

const PR = require('./profiles');
const { setUp, Rejected } = require('./engine');

const args = process.argv.slice(2);
const opt = (name, d) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : d);
const GAMES = Number(opt('games', 40));
let seed = Number(opt('seed', 1));
function rnd() {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const shuffled = (a) => {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
};

let failures = 0;
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) {
    failures++;
    if (failures <= 30) console.error(`FAIL: ${what}`);
  }
}

// ---- fixed tables ---------------------------------------------------------------------
const AVONDALE = { 6: [40, 60, 80, 100, 120], 7: [140, 160, 180, 200, 220], 8: [240, 260, 280, 300, 320], 9: [340, 360, 380, 400, 420], 10: [440, 460, 480, 500, 520] };
const PACK_SIZE = { 'australian-4': 43, 'american-4': 43, 'american-3': 33, 'american-2': 33, 'three-handed': 33, 'american-5': 53, 'american-6': 63 };
for (const name of Object.keys(PR.PROFILES)) {
  const P = PR.makeProfile(name);
  check(P.deck.length === PACK_SIZE[name], `${name}: pack of ${PACK_SIZE[name]}, got ${P.deck.length}`);
  check(new Set(P.deck).size === P.deck.length, `${name}: no card twice`);
  check(P.deck.length === P.seats.length * 10 + P.kitty + (name === 'american-2' ? 10 : 0), `${name}: ten each and three in the kitty`);
  for (const lv of [6, 7, 8, 9, 10])
    ['S', 'C', 'D', 'H', 'NT'].forEach((s, i) => check(P.bidValue(`${lv}${s}`) === AVONDALE[lv][i], `${name}: value of ${lv}${s}`));
  // ladder by trick count then strain S < C < D < H < NT
  for (let i = 1; i < 25; i++) {
    const lad = P.bidOrder.filter((b) => /^\d/.test(b));
    check(P.bidRank.get(lad[i]) > P.bidRank.get(lad[i - 1]), `${name}: ${lad[i]} above ${lad[i - 1]}`);
  }
  if (name.startsWith('american')) {
    // Seed 002 Нулевая заявка: Nullo 250 beats 8S and below, beaten by 8C and above.
    check(P.bidValue('MIS') === 250, `${name}: Nullo 250`);
    check(P.bidRank.get('MIS') > P.bidRank.get('8S') && P.bidRank.get('MIS') < P.bidRank.get('8C'), `${name}: Nullo between 8S and 8C`);
    check(!P.bidRank.has('OMIS'), `${name}: no open misère`);
  }
  if (name === 'three-handed') check(!P.bidRank.has('MIS') && !P.bidRank.has('OMIS'), 'three-handed: no misère');
  if (name === 'australian-4') {
    check(P.bidRank.get('MIS') > P.bidRank.get('7NT') && P.bidRank.get('MIS') < P.bidRank.get('8S'), 'default: MIS between 7NT and 8S');
    check(P.bidRank.get('OMIS') > P.bidRank.get('10D') && P.bidRank.get('OMIS') < P.bidRank.get('10H'), 'default: OMIS between 10D and 10H');
  }
}
{
  const P = PR.makeProfile('american-6');
  const hearts = P.deck.filter((c) => c.endsWith('H'));
  const spades = P.deck.filter((c) => c.endsWith('S'));
  check(hearts.length === 16 && spades.length === 15, 'american-6: 16 hearts, 15 spades');
  check(hearts.join(' ') === 'AH KH QH JH 13H 12H 11H 10H 9H 8H 7H 6H 5H 4H 3H 2H', `american-6 hearts order ${hearts.join(' ')}`);
  const b = PR.makeProfile('australian-4', ['blind-misere']);
  check(b.bidRank.get('BMIS') === b.bidRank.get('OMIS'), 'blind misère shares open misère\'s place');
  check(!PR.makeProfile('australian-4', ['no-misere']).bidRank.has('MIS'), 'no-misere removes MIS');
}
// The toggles of suite 1.3 (site/profiles/variants.md).
{
  const one = PR.makeProfile('american-5', ['one-sits-out']);
  const a4 = PR.makeProfile('american-4');
  check(one.seats.join(' ') === 'N E S W' && one.sideNames.join(' ') === 'NS EW', 'one-sits-out: a table of four, NS and EW');
  check(one.deck.join(' ') === a4.deck.join(' ') && one.bidOrder.join(' ') === a4.bidOrder.join(' '), 'one-sits-out: american-4\'s pack and bids');
  const dso = PR.makeProfile('american-4', ['dealer-sits-out']);
  check(dso.deck.length === 33 && dso.sideNames.join(' ') === 'N E S W', 'dealer-sits-out: 33 cards, four sides of one');
  const six = PR.makeProfile('american-6', ['three-sides-of-two']);
  check(six.sideNames.join(' ') === 'NW EP5 SP6' && six.deck.length === 63, 'three-sides-of-two: N-W, E-P5, S-P6, 63 cards');
  const less = PR.makeProfile('australian-4', ['avondale-less-twenty']);
  for (const lv of [6, 7, 8, 9, 10])
    ['S', 'C', 'D', 'H', 'NT'].forEach((s, i) => check(less.bidValue(`${lv}${s}`) === AVONDALE[lv][i] - 20, `avondale-less-twenty: value of ${lv}${s}`));
  check(less.bidValue('6S') === 20 && less.bidValue('10NT') === 500 && less.bidValue('MIS') === 250 && less.bidValue('OMIS') === 500, 'avondale-less-twenty: 6S 20, 10NT 500, misères kept');
  check(less.bidOrder.join(' ') === PR.makeProfile('australian-4').bidOrder.join(' '), 'avondale-less-twenty: the ladder unchanged');
  const p45 = PR.makeProfile('australian-4', ['forty-five-card-pack']);
  check(p45.deck.length === 45 && p45.kitty === 5 && p45.deck.filter((c) => c.startsWith('4')).length === 4, 'forty-five-card-pack: 45 cards with four 4s, kitty of five');
  check(p45.dealRounds.reduce((n, [each, kit]) => n + 4 * each + kit, 0) === 45, 'forty-five-card-pack: the packets deal the whole pack');
  check(PR.variantsRefusal('australian-4', ['open-misere-shown-after-lead', 'open-misere-shown-before-lead']) !== null, 'the two open-misère timings conflict');
}

// ---- random games ---------------------------------------------------------------------
const COMBOS = [['australian-4', []]];
for (const [v, ps] of Object.entries(PR.VARIANTS)) for (const p of ps) COMBOS.push([p, [v]]);
for (const p of Object.keys(PR.PROFILES)) if (p !== 'australian-4') COMBOS.push([p, []]);
COMBOS.push(['american-2', ['deck-24', 'all-pass-no-trumps']]);
COMBOS.push(['australian-4', ['blind-misere', 'raise-after-all-pass', 'joker-leads-last-trick-only', 'defender-cap-490']]);
COMBOS.push(['american-4', ['dealer-sits-out', 'all-pass-no-trumps']]);
COMBOS.push(['american-5', ['one-sits-out', 'all-pass-no-trumps']]);
COMBOS.push(['american-6', ['three-sides-of-two', 'all-pass-no-trumps']]);
COMBOS.push(['australian-4', ['forty-five-card-pack', 'double-nullo', 'dealers-left-leads', 'open-misere-shown-after-lead', 'no-slam-bonus']]);
COMBOS.push(['australian-4', ['pass-may-re-enter', 'inkles', 'avondale-less-twenty', 'open-misere-shown-before-lead', 'sans-kitty']]);

function snapshot(g) {
  return JSON.stringify(['phase', 'to_act', 'hands', 'high_bid', 'passed', 'trick', 'tricks', 'scores', 'dealer', 'nominated', 'suits_led'].map((k) => g.observe(k)));
}
function stepOf(g, a) {
  const seat = g.toAct();
  if (g.phase === 'auction') return () => g.call(seat, a);
  if (a.startsWith('DISCARD ')) return () => g.discard(seat, a.slice(8).split(' '));
  if (a === 'SANS KITTY') return () => g.sansKitty(seat);
  if (a.startsWith('NOMINATE ')) return () => g.nominate(seat, a.slice(9));
  if (a.startsWith('JK:')) return () => g.play(seat, 'JK', a.slice(3));
  return () => g.play(seat, a);
}
function tryIllegal(g) {
  // A random action that is not in the legal list must be refused and change nothing.
  const legal = new Set(g.legal());
  const seat = g.toAct();
  const P = g.P;
  let fn = null;
  let desc = '';
  if (g.phase === 'auction') {
    const b = pick(P.bidOrder);
    if (legal.has(b)) return;
    fn = () => g.call(seat, b);
    desc = b;
  } else if (g.phase === 'play') {
    const c = pick(P.deck);
    const acts = c === 'JK' ? ['S', 'C', 'D', 'H'].map((s) => `JK:${s}`) : [c];
    const a = pick(acts);
    if (legal.has(a) || (c === 'JK' && legal.has('JK'))) return;
    fn = c === 'JK' && g.trick === null ? () => g.play(seat, 'JK', a.slice(3)) : () => g.play(seat, c);
    desc = a;
  } else return;
  const before = snapshot(g);
  let rejected = false;
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Rejected)) throw e;
    rejected = true;
  }
  check(rejected, `${P.name}: illegal ${desc} by ${seat} accepted (phase ${g.phase})`);
  check(snapshot(g) === before, `${P.name}: refused ${desc} changed the state`);
}

const stats = {};
for (const [profile, variants] of COMBOS) {
  const key = [profile, ...variants].join('+');
  stats[key] = { deals: 0, contracts: 0, misere: 0, allPass: 0, thrown: 0, wins: 0 };
  const P = PR.makeProfile(profile, variants);
  for (let gi = 0; gi < GAMES; gi++) {
    const g = setUp({ start: 'game', dealer: pick(P.seats), scores: Object.fromEntries(P.sideNames.map((s) => [s, pick([0, 0, 200, 450, 480, -400])])) }, profile, variants);
    for (let d = 0; d < 12 && !g.gameOver; d++) {
      const deck = shuffled(P.deck);
      g.newDeal(deck);
      stats[key].deals++;
      // the deal: everything dealt, nothing twice
      const dealt = [...P.seats.flatMap((s) => g.hands[s]), ...g.kitty, ...g.dead];
      check(dealt.length === P.deck.length && new Set(dealt).size === P.deck.length, `${key}: the whole deck dealt once`);
      check(g.dealtSeats.every((s) => g.hands[s].length === 10) && g.kitty.length === P.kitty, `${key}: ten each, ${P.kitty} in the kitty`);
      if (P.dealerSitsOut) check(g.dealtSeats.length === 3 && g.hands[g.dealer].length === 0, `${key}: the dealer holds nothing`);
      if (profile === 'american-2') check(g.dead.length === P.deck.length - 20 - P.kitty, `${key}: the rest is a dead hand`);
      const dealer = g.dealer;
      const before = { ...g.scores };
      let guard = 0;
      while (g.phase !== 'over') {
        if (++guard > 500) throw new Error('runaway deal');
        if (rnd() < 0.3) tryIllegal(g);
        const legal = g.legal();
        check(legal.length > 0, `${key}: someone to act has a legal action`);
        if (P.dealerSitsOut) check(g.toAct() !== g.dealer, `${key}: the resting dealer never acts`);
        let a;
        if (g.phase === 'auction') {
          const bids = legal.filter((x) => x !== 'PASS');
          a = rnd() < (g.highBid ? 0.6 : 0.35) || !bids.length ? 'PASS' : pick(bids.slice(0, 8));
        } else a = pick(legal);
        try {
          stepOf(g, a)();
        } catch (e) {
          check(false, `${key}: legal ${a} refused (${e.code || e.message})`);
          break;
        }
      }
      // after the deal
      check(g.dealer === g.leftOf(dealer), `${key}: the deal passes left`);
      const ds = g.dealScore;
      if (ds === null) {
        check(false, `${key}: a finished deal has a score`);
        break;
      }
      const resting = P.dealerSitsOut ? g.sideOf(dealer) : null;
      if (P.inkles && g.contract && !g.allPass) check(!/^6/.test(g.contract.bid), `${key}: a six never becomes the contract`);
      const total = P.sideNames.reduce((n, s) => n + g.tricks[s], 0);
      if (g.contract === null) {
        stats[key].thrown++;
        check(P.sideNames.every((s) => ds[s] === 0), `${key}: throw-in scores nothing`);
      } else if (g.allPass) {
        stats[key].allPass++;
        check(total === 10, `${key}: all-pass deal played out`);
        check(P.sideNames.every((s) => ds[s] === 10 * g.tricks[s]), `${key}: all-pass 10 a trick`);
      } else {
        stats[key].contracts++;
        const side = g.sideOf(g.declarer);
        const v = P.bidValue(g.contract.bid);
        if (g.contract.misere) {
          stats[key].misere++;
          const own = g.declarerOwnTricks;
          check(ds[side] === (own === 0 ? v : -v), `${key}: misère score`);
          if (P.misereEndsEarly) check(own <= 1, `${key}: misère ends at the first trick`);
          else check(total === 10, `${key}: Nullo played out`);
          for (const s of P.sideNames)
            if (s !== side) check(ds[s] === (P.misereDefenders === 'nothing' || own === 0 || s === resting ? 0 : 10 * own), `${key}: misère defenders ${ds[s]}`);
          check(g.sittingOutSeats.length === (P.doubleNullo ? 0 : g.partnersOf(g.declarer).length), `${key}: partners sit out`);
          if (P.doubleNullo) check(own === g.tricks[side], `${key}: double nullo counts the partner's tricks`);
        } else {
          check(total === 10, `${key}: ten tricks`);
          const made = g.tricks[side] >= g.contract.level;
          const won = g.tricks[side] === 10 && v < 250 && !P.noSlamBonus ? 250 : v;
          check(ds[side] === (made ? won : -v), `${key}: contract score`);
          for (const s of P.sideNames) {
            if (s === side) continue;
            const full = 10 * g.tricks[s];
            if (s === resting) check(ds[s] === 0 && g.tricks[s] === 0, `${key}: the resting dealer scores nothing`);
            else if (P.defenderCap === null) check(ds[s] === full, `${key}: defenders 10 a trick`);
            else check(ds[s] === (before[s] >= P.defenderCap ? 0 : full), `${key}: defenders capped`);
          }
        }
      }
      for (const s of P.sideNames) check(g.scores[s] === before[s] + ds[s], `${key}: running score`);
      if (g.gameOver) {
        stats[key].wins++;
        // seed 003's bar: once every player has fallen to -500, the game ends with no winner
        const nobodyCanWin = P.barAt !== null && g.fallen.size === P.sideNames.length;
        check((g.winner === null) === nobodyCanWin, `${key}: game over has a winner unless nobody can win`);
        if (nobodyCanWin) continue;
        if (P.end === 'own-contract') check(g.made === true ? g.scores[g.winner] >= 500 : g.scores[P.sideNames.find((s) => s !== g.winner)] <= -500, `${key}: default end rule`);
        else check(g.scores[g.winner] >= 500, `${key}: winner at 500`);
      }
    }
  }
}
console.log(JSON.stringify(stats));
console.log(`${checks} checks, ${failures} failed`);
process.exitCode = failures ? 1 : 0;
