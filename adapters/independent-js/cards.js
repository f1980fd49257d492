'use strict';
// Cards, seats, bids and contract values of the australian-4 profile.
// Written from the seed (000) and RULINGS.md only.

const M = require('./misreadings');

const SEATS = ['N', 'E', 'S', 'W'];
const SUITS = ['S', 'C', 'D', 'H'];
const JOKER = 'JK';

// Ruling 1: red suits A..4, black suits A..5, one joker.
const RANKS_RED = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4'];
const RANKS_BLACK = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5'];

// Canonical order: spades A→5, clubs A→5, diamonds A→4, hearts A→4, joker.
const DECK = [
  ...RANKS_BLACK.map((r) => `${r}S`),
  ...RANKS_BLACK.map((r) => `${r}C`),
  ...RANKS_RED.map((r) => `${r}D`),
  ...RANKS_RED.map((r) => `${r}H`),
  JOKER,
];
const DECK_SET = new Set(DECK);
const DECK_INDEX = new Map(DECK.map((c, i) => [c, i]));

const RANK_VALUE = { A: 14, K: 13, Q: 12, J: 11, 10: 10, 9: 9, 8: 8, 7: 7, 6: 6, 5: 5, 4: 4, 3: 3, 2: 2 };

function isCard(c) {
  return DECK_SET.has(c);
}
function rankOf(c) {
  return c === JOKER ? null : c.slice(0, -1);
}
function printedSuit(c) {
  return c === JOKER ? null : c.slice(-1);
}
function sortCards(cards) {
  return [...cards].sort((a, b) => DECK_INDEX.get(a) - DECK_INDEX.get(b));
}

// Seats, clockwise.
function leftOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 1) % 4];
}
function rightOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 3) % 4];
}
function partnerOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 2) % 4];
}
function sideOf(seat) {
  return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
}
function otherSide(side) {
  return side === 'NS' ? 'EW' : 'NS';
}

// Same-colour suit (for the left bower).
const SAME_COLOUR = { S: 'C', C: 'S', D: 'H', H: 'D' };

// Ruling 9: the bid order, low to high.
const BID_ORDER = [];
for (const level of [6, 7, 8, 9, 10]) {
  for (const s of ['S', 'C', 'D', 'H', 'NT']) {
    const bid = `${level}${s}`;
    if (M.on('misere-by-value')) {
      // misreading: placed by value, misère after 8S (240 < 250 < 260), open misère after 10H.
      BID_ORDER.push(bid);
      if (bid === '8S') BID_ORDER.push('MIS');
      if (bid === '10H') BID_ORDER.push('OMIS');
      continue;
    }
    if (bid === '8S') BID_ORDER.push('MIS');
    if (bid === '10H') BID_ORDER.push('OMIS');
    BID_ORDER.push(bid);
  }
}
const BID_RANK = new Map(BID_ORDER.map((b, i) => [b, i]));

function parseContract(bid) {
  if (bid === 'MIS') return { bid, misere: true, open: false, trump: null, level: null };
  if (bid === 'OMIS') return { bid, misere: true, open: true, trump: null, level: null };
  const m = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(bid);
  if (!m) throw new Error(`unknown contract ${bid}`);
  const level = Number(m[1]);
  return { bid, misere: false, open: false, level, trump: m[2] === 'NT' ? null : m[2], nt: m[2] === 'NT', denom: m[2] };
}

// Ruling 28: Avondale values.
const DENOM_BASE = { S: 40, C: 60, D: 80, H: 100, NT: 120 };
function contractValue(bid) {
  if (bid === 'MIS') return 250;
  if (bid === 'OMIS') return 500;
  if (bid === '10NT' && M.on('value-10nt-500')) return 500; // misreading
  const c = parseContract(bid);
  return (c.level - 6) * 100 + DENOM_BASE[c.denom];
}

function isSevenLevel(bid) {
  return bid !== null && /^7(S|C|D|H|NT)$/.test(bid);
}

module.exports = {
  SEATS, SUITS, JOKER, DECK, RANK_VALUE, SAME_COLOUR, BID_ORDER, BID_RANK,
  isCard, rankOf, printedSuit, sortCards, leftOf, rightOf, partnerOf, sideOf, otherSide,
  parseContract, contractValue, isSevenLevel,
};
