'use strict';
// Translation between the suite's notation (AS, 10H, JK, 7NT, MIS, seats N E S W) and
// the engine's ("S-A", "H-10", "JOKER-R", {type: 'no_trump', tricks: 7}, seats 0-3).
// Spelling only: no rule of the game is decided here.

const SEATS = ['N', 'E', 'S', 'W']; // the engine's seats 0-3; its team is seat % 2
const SIDES = ['NS', 'EW']; // the engine's team 0 and team 1
const SUIT_NAMES = { S: 'spades', C: 'clubs', D: 'diamonds', H: 'hearts' };
const LEVELS = [6, 7, 8, 9, 10];
const STRAINS = ['S', 'C', 'D', 'H', 'NT'];

// Every bid of the default profile, lowest level first; which of them are allowed is
// asked of the engine.
const BIDS = [...LEVELS.flatMap((level) => STRAINS.map((strain) => `${level}${strain}`)), 'MIS', 'OMIS'];

class Untranslatable extends Error {}

function seatIndex(seat) {
  const index = SEATS.indexOf(seat);
  if (index < 0) throw new Untranslatable(`seat ${JSON.stringify(seat)} is not one of N E S W`);
  return index;
}

function toEngineCard(card) {
  if (card === 'JK') return 'JOKER-R';
  const match = /^(10|[2-9AKQJ])([SCDH])$/.exec(card);
  if (!match) throw new Untranslatable(`card ${JSON.stringify(card)} has no spelling in the engine`);
  return `${match[2]}-${match[1]}`;
}

function fromEngineCard(card) {
  if (card === 'JOKER-R') return 'JK';
  const [suit, rank] = card.split('-');
  return `${rank}${suit}`;
}

function bidParts(bid) {
  const match = /^(6|7|8|9|10)(S|C|D|H|NT)$/.exec(bid);
  if (!match) return null;
  return { tricks: Number(match[1]), strain: match[2] };
}

// A call in the engine's Bid shape (gameLogic.ts `Bid`).
function toEngineBid(call) {
  if (call === 'PASS') return { type: 'pass' };
  if (call === 'MIS') return { type: 'nullo' };
  if (call === 'OMIS') return { type: 'open_nullo' };
  const parts = bidParts(call);
  if (!parts) throw new Untranslatable(`call ${JSON.stringify(call)} has no spelling in the engine`);
  if (parts.strain === 'NT') return { type: 'no_trump', tricks: parts.tricks };
  return { type: 'suit', tricks: parts.tricks, suit: SUIT_NAMES[parts.strain] };
}

// The engine's Trump for a contract, spelt as its place-bid function spells a won bid.
function contractTrump(contract) {
  if (contract === 'MIS') return 'nullo';
  if (contract === 'OMIS') return 'open_nullo';
  const parts = bidParts(contract);
  if (!parts) throw new Untranslatable(`contract ${JSON.stringify(contract)} has no spelling in the engine`);
  return parts.strain === 'NT' ? 'no_trump' : SUIT_NAMES[parts.strain];
}

// The number of tricks a contract names (the engine's contract_bid_tricks; none in a misère).
function contractTricks(contract) {
  const parts = bidParts(contract);
  return parts ? parts.tricks : 0;
}

// The engine's led suit ('H', 'D', 'C', 'S', or 'JOKER' for a joker led with no trumps)
// in the suite's notation: a suit letter, or null when no suit was led.
function fromEngineLed(led) {
  return led in SUIT_NAMES ? led : null;
}

function bySide(pair) {
  return { NS: pair[0], EW: pair[1] };
}

module.exports = {
  SEATS,
  SIDES,
  BIDS,
  Untranslatable,
  seatIndex,
  toEngineCard,
  fromEngineCard,
  toEngineBid,
  contractTrump,
  contractTricks,
  fromEngineLed,
  bySide,
};
