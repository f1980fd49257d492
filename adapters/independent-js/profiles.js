'use strict';
// Profiles and variant toggles as data. One engine (engine.js) reads a profile
// description built here; nothing in the engine is written per profile.
//
// Sources: seeds 000 (australian-4), 002 (american-*), 003 (three-handed), 004 (the
// default's toggles), the site's profile pages (site/profiles/*.md), site/disputes.md and
// shared/RULINGS.md. Every point the text leaves open is listed in README.md ("Profiles").

const M = require('./misreadings'); // misreadings apply to the default profile only

const SUITS = ['S', 'C', 'D', 'H'];
const JOKER = 'JK';

// Ranks high to low, per the notation: the six-handed numerals sit between the jack and
// the ten (13 above 12 above 11).
const ALL_RANKS = ['A', 'K', 'Q', 'J', '13', '12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
// Plain rank strength. The old values (A 14 … 2 2) are kept; 13/12/11 fit between J and 10.
const RANK_VALUE = { A: 14, K: 13, Q: 12, J: 11, 13: 10.75, 12: 10.5, 11: 10.25, 10: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };

// Build a pack: for each suit the ranks it has, in canonical order (spades, clubs, diamonds,
// hearts, each from the ace down), then the joker.
function pack(ranksBySuit, joker = true) {
  const deck = [];
  for (const s of SUITS) for (const r of ALL_RANKS) if (ranksBySuit[s].includes(r)) deck.push(`${r}${s}`);
  if (joker) deck.push(JOKER);
  return deck;
}
const downTo = (low) => ALL_RANKS.slice(0, ALL_RANKS.indexOf(low) + 1).filter((r) => !['13', '12', '11'].includes(r));
const same4 = (ranks) => ({ S: ranks, C: ranks, D: ranks, H: ranks });

const PACKS = {
  // Ruling 1 / seed 002 Колода (four players): red A..4, black A..5, joker.
  43: () => pack({ S: downTo('5'), C: downTo('5'), D: downTo('4'), H: downTo('4') }),
  // Seed 002 (two or three players, "39" but the ranks make 33) and seed 003: A..7 and the joker.
  33: () => pack(same4(downTo('7'))),
  // deck-24 toggle: seed 002 gives the size only; the format page's toggle table says
  // "the 24-card deck (A to 9)": A..9 in each suit and no joker (README, open points).
  24: () => pack(same4(downTo('9')), false),
  // forty-five-card-pack toggle (toggles spec): ace down to 4 in every suit and the joker.
  45: () => pack(same4(downTo('4'))),
  // american-5: the 52 cards and the joker (published sources; seed 002 names no pack).
  53: () => pack(same4(downTo('2'))),
  // Seed 002 Колода (six players): 52 cards, 11 and 12 of every suit, 13 of hearts and
  // diamonds, and the joker.
  63: () => {
    const black = ALL_RANKS.filter((r) => r !== '13');
    return pack({ S: black, C: black, D: ALL_RANKS, H: ALL_RANKS });
  },
};

// Contract values (Avondale table, ruling 28; seed 002 by name, seed 003 and 004 printed).
const DENOM_BASE = { S: 40, C: 60, D: 80, H: 100, NT: 120 };
function ladderValue(bid) {
  const m = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(bid);
  return (Number(m[1]) - 6) * 100 + DENOM_BASE[m[2]];
}
const LADDER = [];
for (const level of [6, 7, 8, 9, 10]) for (const s of ['S', 'C', 'D', 'H', 'NT']) LADDER.push(`${level}${s}`);

// Sides: named by their seats in seat order.
function sidesFrom(groups) {
  return groups.map((g) => ({ name: g.join(''), seats: g }));
}

const BASE = {
  kitty: 3,
  trickCount: 10,
  minBidLevel: 6,
};

// The profiles. Fields:
//   seats            clockwise
//   sides            scoring units (partnerships, or one seat each)
//   deck             the pack
//   deal             'one-card-per-round' (ruling 6) | 'widow-after-first-round' (seed 002/003)
//   auction          'continuous' (rulings 13-14) | 'one-round' (seed 002 Торговля)
//   bids             the bid tokens other than the ladder, with their places
//   misereNeedsSeven ruling 11
//   nominate         the declarer may nominate the joker's suit (ruling 21)
//   jokerMustInMisere a void player must play a suitless joker in a misère (ruling 24)
//   jokerLead        'unled-then-last' (rulings 25-26) | 'any' (seed 002, 003)
//   misereEndsEarly  the deal ends at the misère declarer's first trick (ruling 30)
//   misereDefenders  'nothing' (ruling 30) | 'ten-per-bidder-trick' (seed 002 Nullo)
//   end              'own-contract' (rulings 31-33) | 'any-means' (seed 003; American, see README)
//   loseAtMinus500   ruling 33
const PROFILES = {
  'australian-4': () => ({
    seats: ['N', 'E', 'S', 'W'],
    sides: sidesFrom([['N', 'S'], ['E', 'W']]),
    deck: PACKS[43](),
    deal: 'one-card-per-round',
    auction: 'continuous',
    misere: { MIS: { after: '7NT', value: 250 }, OMIS: { after: '10D', value: 500, open: true } },
    misereNeedsSeven: true,
    nominate: true,
    jokerMustInMisere: true,
    jokerLead: 'unled-then-last',
    misereEndsEarly: true,
    misereDefenders: 'nothing',
    end: 'own-contract',
    loseAtMinus500: true,
  }),
  'american-4': () => ({
    seats: ['N', 'E', 'S', 'W'],
    sides: sidesFrom([['N', 'S'], ['E', 'W']]),
    deck: PACKS[43](),
    ...AMERICAN,
  }),
  'american-3': () => ({
    seats: ['N', 'E', 'S'],
    sides: sidesFrom([['N'], ['E'], ['S']]),
    deck: PACKS[33](),
    ...AMERICAN,
  }),
  'american-2': () => ({
    seats: ['N', 'E'],
    sides: sidesFrom([['N'], ['E']]),
    deck: PACKS[33](),
    ...AMERICAN,
    deadHand: true, // pagat (american-2 page): the ten cards left are a third hand nobody plays
  }),
  'american-5': () => ({
    seats: ['N', 'E', 'S', 'W', 'P5'],
    sides: sidesFrom([['N', 'S', 'P5'], ['E', 'W']]),
    deck: PACKS[53](),
    ...AMERICAN,
  }),
  'american-6': () => ({
    seats: ['N', 'E', 'S', 'W', 'P5', 'P6'],
    sides: sidesFrom([['N', 'S', 'P5'], ['E', 'W', 'P6']]),
    deck: PACKS[63](),
    ...AMERICAN,
  }),
  'three-handed': () => ({
    seats: ['N', 'E', 'S'],
    sides: sidesFrom([['N'], ['E'], ['S']]),
    deck: PACKS[33](),
    deal: 'widow-after-first-round',
    auction: 'continuous',
    misere: {},
    misereNeedsSeven: false,
    nominate: false,
    jokerMustInMisere: false,
    jokerLead: 'any',
    misereEndsEarly: false,
    misereDefenders: 'nothing',
    end: 'any-means',
    loseAtMinus500: false,
    // seed 003 Победа в игре: a player once at -500 plays on but can never win
    barAt: -500,
  }),
};

// What seed 002 says for every number of players.
const AMERICAN = {
  deal: 'widow-after-first-round',
  auction: 'one-round',
  // Nullo ranked by its value, 250: above 8S (240), below 8C (260); no seven needed.
  misere: { MIS: { after: '8S', value: 250 } },
  misereNeedsSeven: false,
  nominate: false,
  jokerMustInMisere: false,
  jokerLead: 'any',
  misereEndsEarly: false,
  misereDefenders: 'ten-per-bidder-trick',
  end: 'any-means',
  loseAtMinus500: false,
};

const VARIANTS = {
  'no-misere': ['australian-4'],
  // The toggles of suite 1.3 (site/profiles/variants.md): seating forms of the American game, and
  // more default-profile variations.
  'one-sits-out': ['american-5'],
  'dealer-sits-out': ['american-4'],
  'three-sides-of-two': ['american-6'],
  'open-misere-shown-after-lead': ['australian-4'],
  'open-misere-shown-before-lead': ['australian-4'],
  'dealers-left-leads': ['australian-4'],
  'no-slam-bonus': ['australian-4'],
  'avondale-less-twenty': ['australian-4'],
  'forty-five-card-pack': ['australian-4'],
  'pass-may-re-enter': ['australian-4'],
  'inkles': ['australian-4'],
  'sans-kitty': ['australian-4'],
  'double-nullo': ['australian-4'],
  'misere-without-seven': ['australian-4'],
  'joker-leads-last-trick-only': ['australian-4'],
  'raise-after-all-pass': ['australian-4'],
  'defender-cap-490': ['australian-4'],
  'defender-cap-480': ['australian-4'],
  'blind-misere': ['australian-4'],
  'all-pass-no-trumps': ['american-2', 'american-3', 'american-4', 'american-5', 'american-6'],
  'deck-24': ['american-2'],
  'fallen-player-may-win': ['three-handed'],
};

// Pairs of toggles that cannot be on together: they state opposite rules, or one leaves the
// other nothing to change (site/profiles/variants.md, "Combining toggles").
const CONFLICTS = [
  ['no-misere', 'misere-without-seven'],
  ['no-misere', 'blind-misere'],
  ['defender-cap-490', 'defender-cap-480'],
  ['open-misere-shown-after-lead', 'open-misere-shown-before-lead'],
];

class UnknownProfile extends Error {}

// Why this list of toggles cannot be played on this profile, or null.
function variantsRefusal(name, variants) {
  if (!PROFILES[name]) return `profile ${name}`;
  for (const v of variants) {
    if (!VARIANTS[v] || !VARIANTS[v].includes(name)) return `variant ${v} on ${name}`;
  }
  for (const [a, b] of CONFLICTS) if (variants.includes(a) && variants.includes(b)) return `variants ${a} and ${b} together`;
  return null;
}

function makeProfile(name, variants = []) {
  const why = variantsRefusal(name, variants);
  if (why) throw new UnknownProfile(why);
  const V = new Set(variants);
  // one-sits-out: four of the five play american-4's game exactly, at a table of four.
  const table = V.has('one-sits-out') ? PROFILES['american-4']() : PROFILES[name]();
  const P = { name, variants: V, ...BASE, ...table };
  P.misere = { ...P.misere };
  if (V.has('dealer-sits-out')) {
    // Four seats, each its own side; the dealer rests and the other three play american-3's
    // game with its 33-card pack.
    P.sides = sidesFrom([['N'], ['E'], ['S'], ['W']]);
    P.deck = PACKS[33]();
    P.dealerSitsOut = true;
  }
  // three-sides-of-two: partners sit opposite at six (N-W, E-P5, S-P6).
  if (V.has('three-sides-of-two')) P.sides = sidesFrom([['N', 'W'], ['E', 'P5'], ['S', 'P6']]);
  if (V.has('forty-five-card-pack')) {
    P.deck = PACKS[45]();
    P.kitty = 5;
  }
  if (V.has('deck-24')) {
    // No joker in this pack, so by seed 002 (Сдача) the widow has two cards (README).
    P.deck = PACKS[24]();
    P.kitty = 2;
  }
  if (V.has('blind-misere')) P.misere.BMIS = { after: '10D', value: 500, blind: true, sameAs: 'OMIS' };
  if (V.has('no-misere')) P.misere = {}; // every misère bid, blind misère included
  if (V.has('misere-without-seven')) P.misereNeedsSeven = false;
  P.jokerLeadLastTrickOnly = V.has('joker-leads-last-trick-only');
  P.raiseAfterAllPass = V.has('raise-after-all-pass');
  P.allPassNoTrumps = V.has('all-pass-no-trumps');
  P.defenderCap = V.has('defender-cap-480') ? 480 : V.has('defender-cap-490') ? 490 : null;
  P.isDefault = name === 'australian-4';
  // Packets of each round: [cards to each player, cards to the kitty after the round].
  if (P.deal === 'one-card-per-round') P.dealRounds = V.has('forty-five-card-pack') ? [[3, 2], [4, 2], [3, 1]] : [[3, 1], [4, 1], [3, 1]];
  else P.dealRounds = [[3, P.kitty], [4, 0], [3, 0]];
  // When the open-misère hand is laid face up: 'first-trick' (ruling 18), 'lead', 'start'.
  P.openShown = V.has('open-misere-shown-before-lead') ? 'start' : V.has('open-misere-shown-after-lead') ? 'lead' : 'first-trick';
  P.dealersLeftLeads = V.has('dealers-left-leads');
  P.noSlamBonus = V.has('no-slam-bonus');
  P.lessTwenty = V.has('avondale-less-twenty');
  P.passMayReEnter = V.has('pass-may-re-enter');
  if (P.barAt === undefined || V.has('fallen-player-may-win')) P.barAt = null;
  P.inkles = V.has('inkles');
  P.sansKitty = V.has('sans-kitty');
  P.doubleNullo = V.has('double-nullo');

  // Bid order: the ladder with the misère bids placed after their anchors. Bids sharing a
  // place (blind and open misère) share a rank number, so neither outranks the other.
  const order = [];
  const rank = new Map();
  let r = 0;
  const placeAfter = {};
  for (const [bid, d] of Object.entries(P.misere)) {
    let after = d.after;
    if (P.isDefault && M.on('misere-by-value')) after = bid === 'MIS' ? '8S' : '10H'; // misreading
    (placeAfter[after] = placeAfter[after] || []).push(bid);
  }
  for (const bid of LADDER) {
    order.push(bid);
    rank.set(bid, r++);
    for (const mb of placeAfter[bid] || []) {
      order.push(mb);
      const d = P.misere[mb];
      if (d.sameAs && rank.has(d.sameAs)) rank.set(mb, rank.get(d.sameAs));
      else rank.set(mb, r++);
    }
  }
  // Ruling 9 puts the misère bids before the ladder bid that follows their anchor; the
  // list order above already does (rank numbers are what matter).
  P.bidOrder = order;
  P.bidRank = rank;
  P.bidValue = (bid) => {
    if (P.misere[bid]) return P.misere[bid].value;
    if (bid === '10NT' && P.isDefault && M.on('value-10nt-500')) return 500; // misreading
    return ladderValue(bid) - (P.lessTwenty ? 20 : 0);
  };

  P.deckSet = new Set(P.deck);
  P.deckIndex = new Map(P.deck.map((c, i) => [c, i]));
  P.sideOfSeat = {};
  for (const sd of P.sides) for (const s of sd.seats) P.sideOfSeat[s] = sd.name;
  P.sideNames = P.sides.map((sd) => sd.name);
  P.partnered = P.sides.some((sd) => sd.seats.length > 1);
  return P;
}

function parseContract(P, bid) {
  if (P.misere[bid]) {
    const d = P.misere[bid];
    return { bid, misere: true, open: !!d.open, blind: !!d.blind, trump: null, level: null, nt: false };
  }
  const m = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(bid);
  if (!m) throw new Error(`unknown contract ${bid}`);
  return { bid, misere: false, open: false, level: Number(m[1]), trump: m[2] === 'NT' ? null : m[2], nt: m[2] === 'NT', denom: m[2] };
}

module.exports = { makeProfile, variantsRefusal, parseContract, UnknownProfile, PROFILES, VARIANTS, CONFLICTS, SUITS, JOKER, RANK_VALUE, PACKS };
