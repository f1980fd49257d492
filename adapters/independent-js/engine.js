'use strict';
// An independent Five Hundred engine for the australian-4 profile.
// Built only from the seed (shared/seeds/000_*.txt), shared/RULINGS.md and the
// published scenario format; see README.md.

const C = require('./cards');
const M = require('./misreadings'); // deliberate deviations, all off unless asked for
const { SEATS, SUITS, JOKER } = C;

// Kitty size (ruling 15); the misreading kitty-size-2 makes it two.
const KITTY_SIZE = M.on('kitty-size-2') ? 2 : 3;

class Rejected extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}
function reject(code) {
  throw new Rejected(code);
}

const IN_PROGRESS = new Set(['auction', 'kitty', 'play']);

class Game {
  constructor({ dealer, scores }) {
    this.dealer = dealer;
    this.scores = { NS: (scores && scores.NS) || 0, EW: (scores && scores.EW) || 0 };
    this.gameOver = false;
    this.winner = null;
    this.resetDeal();
    this.phase = 'none';
  }

  // ---- deal state -----------------------------------------------------------------

  resetDeal() {
    this.phase = 'none';
    this.hands = { N: [], E: [], S: [], W: [] };
    this.kitty = [];
    this.discards = [];
    this.toCall = null;
    this.highBid = null;
    this.highBidder = null;
    this.passed = new Set();
    this.bids = []; // [seat, bid] in order (for partner-need-not-outbid)
    this.calls = 0; // for single-round-auction
    this.raiseOffered = false; // for declarer-may-raise
    this.kittyTaken = [];
    this.declarerOwnTricks = 0;
    this.contract = null; // parsed contract
    this.declarer = null;
    this.nominated = null;
    this.trick = null; // {leader, led, cards: [[seat, card], ...]}
    this.lastTrick = null;
    this.suitsLed = new Set();
    this.tricks = { NS: 0, EW: 0 };
    this.tricksPlayed = 0;
    this.toPlay = null;
    this.dealScore = null;
    this.made = null;
    this.recorded = false;
  }

  // Ruling 6: packets 3-1-4-1-3-1 starting left of the dealer.
  dealDeck(deck) {
    if (!Array.isArray(deck) || deck.length !== C.DECK.length) throw new Error(`a deck of ${C.DECK.length} cards is needed, got ${deck && deck.length}`);
    const seen = new Set();
    for (const card of deck) {
      if (!C.isCard(card)) throw new Error(`unknown card ${card}`);
      if (seen.has(card)) throw new Error(`card ${card} twice in the deck`);
      seen.add(card);
    }
    this.resetDeal();
    const order = [];
    let s = M.on('deal-starts-at-dealer') ? this.dealer : C.leftOf(this.dealer);
    for (let i = 0; i < 4; i++) {
      order.push(s);
      s = C.leftOf(s);
    }
    // [packet size, cards to the kitty after the round]
    let rounds = [[3, 1], [4, 1], [3, 1]];
    if (M.on('packets-3-2-3-2')) rounds = [[3, 1], [2, 1], [3, 1], [2, 0]];
    else if (M.on('kitty-last-three')) rounds = [[3, 0], [4, 0], [3, 3]];
    else if (M.on('kitty-after-first-round')) rounds = [[3, 3], [4, 0], [3, 0]];
    else if (M.on('kitty-size-2')) rounds = [[3, 1], [4, 1], [3, 0]];
    let pos = 0;
    for (const [size, toKitty] of rounds) {
      for (const seat of order) {
        for (let k = 0; k < size; k++) this.hands[seat].push(deck[pos++]);
      }
      for (let k = 0; k < toKitty; k++) this.kitty.push(deck[pos++]);
    }
    this.startAuction();
  }

  startAuction() {
    this.phase = 'auction';
    this.toCall = M.on('dealer-bids-first') ? this.dealer : C.leftOf(this.dealer); // ruling 8
  }

  // ---- contract helpers -------------------------------------------------------------

  get trump() {
    return this.contract ? this.contract.trump : null;
  }
  get isMisere() {
    return !!(this.contract && this.contract.misere);
  }
  get sittingOut() {
    if (M.on('misere-partner-plays')) return null;
    return this.isMisere ? C.partnerOf(this.declarer) : null;
  }
  get activeSeats() {
    const out = this.sittingOut;
    return SEATS.filter((s) => s !== out);
  }
  nextActive(seat) {
    let s = C.leftOf(seat);
    while (s === this.sittingOut) s = C.leftOf(s);
    return s;
  }

  // The suit a card belongs to in this deal, or null for a suitless joker.
  effSuit(card) {
    const trump = this.trump;
    if (trump) {
      if (card === JOKER) return trump; // ruling 2/20
      if (this.isLeftBower(card) && !M.on('left-bower-printed-suit')) return trump; // left bower
      return C.printedSuit(card);
    }
    if (card === JOKER) return this.nominated; // rulings 22/23 (null = suitless)
    return C.printedSuit(card);
  }
  isLeftBower(card) {
    const trump = this.trump;
    return !!trump && C.rankOf(card) === 'J' && C.printedSuit(card) === C.SAME_COLOUR[trump];
  }
  // The suit a card counts as for the must-follow check (the effective suit, except under
  // the misreading left-bower-follow-ignored).
  followSuit(card) {
    if (M.on('left-bower-follow-ignored') && this.isLeftBower(card)) return C.printedSuit(card);
    return this.effSuit(card);
  }
  isSuitlessJoker(card) {
    return card === JOKER && this.effSuit(card) === null;
  }
  holdsSuit(seat, suit) {
    return this.hands[seat].some((c) => this.followSuit(c) === suit);
  }
  // Strength of a card in a trick with `led`; -1 when it cannot win.
  power(card, led) {
    const trump = this.trump;
    if (trump) {
      if (this.effSuit(card) === trump) {
        if (card === JOKER) return 1000 + (M.on('joker-below-bowers') ? 97 : 100);
        if (C.rankOf(card) === 'J') {
          const right = C.printedSuit(card) === trump;
          if (M.on('right-bower-below-left')) return 1000 + (right ? 98 : 99);
          return 1000 + (right ? 99 : 98);
        }
        return 1000 + C.RANK_VALUE[C.rankOf(card)];
      }
      if (this.effSuit(card) === led) return C.RANK_VALUE[C.rankOf(card)];
      return -1;
    }
    if (this.isSuitlessJoker(card)) return 10000; // ruling 23
    if (card === JOKER && M.on('nominated-joker-wins-anyway')) return 10000;
    if (this.effSuit(card) === led) {
      if (card === JOKER) return M.on('nominated-joker-not-highest') ? 3 : M.on('nominated-joker-below-ace') ? 13.5 : 100;
      if (C.rankOf(card) === 'J' && M.on('jacks-bowers-in-no-trumps')) return 15;
      return C.RANK_VALUE[C.rankOf(card)];
    }
    return -1;
  }

  jokerLeadNames() {
    // Rulings 25/26.
    if (M.on('joker-lead-last-trick-only')) return this.tricksPlayed === 9 ? [...SUITS] : [];
    if (this.suitsLed.size === 4) return this.tricksPlayed === 9 || M.on('joker-lead-any-time') ? [...SUITS] : [];
    if (M.on('joker-last-trick-any-suit') && this.tricksPlayed === 9) return [...SUITS];
    if (M.on('joker-lead-repeat-suit')) return [...SUITS];
    return SUITS.filter((s) => !this.suitsLed.has(s));
  }

  canNominate(seat) {
    return (
      this.phase === 'play' &&
      this.contract !== null &&
      (this.trump === null || M.on('nominate-in-suit-contract')) &&
      this.nominated === null &&
      (M.on('nominate-any-time') || (this.tricksPlayed === 0 && this.trick === null)) &&
      (M.on('nominate-any-holder') || seat === this.declarer) &&
      (this.hands[seat].includes(JOKER) || (M.on('nominate-without-joker') && seat === this.declarer))
    );
  }

  // ---- actions --------------------------------------------------------------------

  call(seat, call) {
    if (this.phase === 'over') reject(M.on('finished-deal-wrong-phase') ? 'wrong-phase' : 'deal-over');
    if (this.phase !== 'auction') reject('wrong-phase');
    if (M.on('turn-checked-before-passed') && seat !== this.toCall) reject('not-your-turn');
    if (this.passed.has(seat) && !M.on('passed-may-bid-again')) reject('already-passed');
    if (seat !== this.toCall) reject('not-your-turn');
    if (call !== 'PASS') {
      if (!C.BID_RANK.has(call)) reject('bid-not-available');
      const ref = this.referenceBid(seat);
      if (ref !== null && C.BID_RANK.get(call) <= C.BID_RANK.get(ref)) reject('bid-not-higher');
      if (call === 'MIS' && !M.on('misere-without-seven') && !this.sevenStands(ref)) reject('misere-needs-seven');
      if (call === 'OMIS' && M.on('open-misere-needs-seven') && (ref === null || C.BID_RANK.get(ref) < C.BID_RANK.get('7S')))
        reject('misere-needs-seven');
    }
    if (this.raiseOffered) {
      // misreading declarer-may-raise: the high bidder's extra call after three passes.
      if (call !== 'PASS') this.highBid = call;
      this.endAuction();
      return;
    }
    if (call === 'PASS') this.passed.add(seat);
    else {
      this.highBid = call;
      this.highBidder = seat;
      this.bids.push([seat, call]);
      if (M.on('passed-may-bid-again')) this.passed.delete(seat);
    }
    if (M.on('single-round-auction')) {
      this.calls += 1;
      if (this.calls < 4) {
        this.toCall = C.leftOf(seat);
        return;
      }
      if (this.highBid === null) {
        this.toCall = null;
        this.finishDeal({ NS: 0, EW: 0 }, null, null);
      } else this.endAuction();
      return;
    }
    if (this.passed.size === 4) {
      // Ruling 14: thrown in.
      this.toCall = null;
      this.finishDeal({ NS: 0, EW: 0 }, null, null);
      return;
    }
    if (this.highBid !== null && this.passed.size === 3) {
      if (M.on('declarer-may-raise')) {
        this.raiseOffered = true;
        this.toCall = this.highBidder;
        return;
      }
      this.endAuction();
      return;
    }
    let s = C.leftOf(seat);
    if (!M.on('passed-may-bid-again')) while (this.passed.has(s)) s = C.leftOf(s);
    this.toCall = s;
  }

  // The bid a new bid must outrank: the highest so far (ruling 10), or under the
  // misreading partner-need-not-outbid the opponents' highest.
  referenceBid(seat) {
    if (!M.on('partner-need-not-outbid')) return this.highBid;
    let best = null;
    for (const [s, b] of this.bids) {
      if (C.sideOf(s) === C.sideOf(seat)) continue;
      if (best === null || C.BID_RANK.get(b) > C.BID_RANK.get(best)) best = b;
    }
    return best;
  }

  // Ruling 11: misère needs a seven standing (by value, 8S too, under misere-by-value).
  sevenStands(bid) {
    if (M.on('misere-by-value') && bid === '8S') return true;
    return C.isSevenLevel(bid);
  }

  endAuction() {
    this.toCall = null;
    this.raiseOffered = false;
    this.contract = C.parseContract(this.highBid);
    this.declarer = this.highBidder;
    this.kittyTaken = [...this.kitty];
    this.hands[this.declarer].push(...this.kitty); // ruling 15
    this.kitty = [];
    this.phase = 'kitty';
  }

  // Ruling 17: the declarer leads first.
  firstLeader() {
    if (!M.on('opening-lead-left-of-dealer')) return this.declarer;
    let s = C.leftOf(this.dealer);
    while (s === this.sittingOut) s = C.leftOf(s);
    return s;
  }

  discard(seat, cards) {
    if (this.phase === 'over') reject(M.on('finished-deal-wrong-phase') ? 'wrong-phase' : 'deal-over');
    if (this.phase !== 'kitty') reject('wrong-phase');
    if (seat !== this.declarer) reject('not-your-turn');
    if (!Array.isArray(cards) || cards.length !== KITTY_SIZE || new Set(cards).size !== KITTY_SIZE) reject('discard-needs-three');
    const hand = this.hands[seat];
    if (cards.some((c) => !hand.includes(c))) reject('card-not-held');
    if (M.on('kitty-cards-not-discardable') && cards.some((c) => this.kittyTaken.includes(c))) reject('card-not-held');
    this.hands[seat] = hand.filter((c) => !cards.includes(c));
    this.discards = [...cards];
    this.phase = 'play';
    this.toPlay = this.firstLeader(); // ruling 17
  }

  nominate(seat, suit) {
    if (this.phase === 'over') reject(M.on('finished-deal-wrong-phase') ? 'wrong-phase' : 'deal-over');
    if (this.phase === 'none') reject('wrong-phase');
    if (!this.canNominate(seat) || !SUITS.includes(suit)) reject('nomination-not-allowed');
    this.nominated = suit;
  }

  play(seat, card, names) {
    if (this.phase === 'over') reject(M.on('finished-deal-wrong-phase') ? 'wrong-phase' : 'deal-over');
    if (this.phase !== 'play') reject('wrong-phase');
    if (seat !== this.toPlay) reject('not-your-turn');
    const hand = this.hands[seat];
    if (!hand.includes(card)) reject('card-not-held');
    const hasNames = names !== undefined && names !== null;
    let led;
    if (this.trick === null) {
      if (this.isSuitlessJoker(card) && M.on('joker-lead-no-suit')) {
        led = null; // misreading: no suit named, nobody has to follow
      } else if (this.isSuitlessJoker(card)) {
        const lastOnly = M.on('joker-lead-last-trick-only');
        if (lastOnly && this.tricksPlayed !== 9) reject('joker-lead-all-suits-led');
        if (!lastOnly && this.suitsLed.size === 4 && this.tricksPlayed !== 9 && !M.on('joker-lead-any-time'))
          reject('joker-lead-all-suits-led');
        if (!hasNames) reject('joker-lead-needs-suit');
        const anyName =
          M.on('joker-lead-repeat-suit') || ((lastOnly || M.on('joker-last-trick-any-suit')) && this.tricksPlayed === 9);
        if (!anyName && this.suitsLed.size !== 4 && this.suitsLed.has(names)) reject('joker-suit-already-led');
        if (!SUITS.includes(names)) reject('joker-lead-needs-suit');
        led = names;
      } else {
        if (hasNames) reject('unexpected-suit-name');
        led = this.effSuit(card);
      }
    } else {
      if (hasNames) reject('unexpected-suit-name');
      led = this.trick.led;
      const able = this.holdsSuit(seat, led);
      if (able) {
        const free = this.isSuitlessJoker(card) && this.jokerAlwaysFree();
        if (!free) {
          if (this.isSuitlessJoker(card)) reject('joker-only-when-void');
          if (this.followSuit(card) !== led) reject('must-follow-suit');
        }
      } else if (this.jokerMustBePlayed(seat) && card !== JOKER && hand.some((c) => this.isSuitlessJoker(c))) {
        reject('joker-must-be-played'); // ruling 24
      }
    }
    // Accepted.
    this.hands[seat] = hand.filter((c) => c !== card);
    if (this.trick === null) {
      this.trick = { leader: seat, led, cards: [] };
      if (led !== null && !(this.isSuitlessJoker(card) && M.on('joker-lead-not-counted-as-led'))) this.suitsLed.add(led);
    }
    this.trick.cards.push([seat, card]);
    if (this.trick.cards.length < this.activeSeats.length) {
      this.toPlay = this.nextActive(seat);
      return;
    }
    this.completeTrick();
  }

  completeTrick() {
    const t = this.trick;
    let best = null;
    let bestPower = -Infinity;
    for (const [s, c] of t.cards) {
      const p = this.power(c, t.led);
      if (p > bestPower) {
        bestPower = p;
        best = s;
      }
    }
    this.lastTrick = { leader: t.leader, led: t.led, cards: t.cards, winner: best };
    this.trick = null;
    this.tricks[C.sideOf(best)] += 1;
    if (best === this.declarer) this.declarerOwnTricks += 1;
    this.tricksPlayed += 1;
    this.toPlay = M.on('lead-rotates') ? this.nextActive(t.leader) : best;
    if (this.isMisere && best === this.declarer && !M.on('misere-continues')) {
      this.scorePlayedDeal(); // ruling 30: the misère is broken
    } else if (this.tricksPlayed === 10) {
      this.scorePlayedDeal();
    } else if (M.on('end-check-mid-deal') && !this.isMisere) {
      const side = C.sideOf(this.declarer);
      if (this.tricks[side] >= this.contract.level && this.scores[side] + C.contractValue(this.contract.bid) >= 500)
        this.scorePlayedDeal();
    }
  }

  // Ruling 24.
  jokerAlwaysFree() {
    return M.on('joker-always-in-nt') && !this.isMisere && this.trump === null;
  }
  jokerMustBePlayed(seat) {
    if (M.on('joker-must-play-in-nt') && this.contract && this.contract.nt) return true;
    if (M.on('joker-must-play-declarer-only') && seat !== this.declarer) return false;
    return this.isMisere && !M.on('joker-optional-in-misere');
  }

  scorePlayedDeal() {
    const side = C.sideOf(this.declarer);
    this.toPlay = null;
    const declTricks = this.isMisere ? this.declarerOwnTricks : this.tricks[side];
    const { score, made } = scoreContract(this.contract.bid, side, declTricks, this.tricks[C.otherSide(side)]);
    this.finishDeal(score, made, side);
  }

  // Rulings 29-34, dealer rotation (5).
  finishDeal(score, made, declSide) {
    this.phase = 'over';
    this.toCall = null;
    this.toPlay = null;
    this.trick = null;
    if (M.on('defence-cap-490') && declSide !== null) {
      const def = C.otherSide(declSide);
      const cap = Math.max(this.scores[def], 490);
      if (score[def] > 0) score = { ...score, [def]: Math.max(0, Math.min(this.scores[def] + score[def], cap) - this.scores[def]) };
    }
    this.dealScore = score;
    this.made = made;
    this.scores.NS += score.NS;
    this.scores.EW += score.EW;
    const wins = (x) => (M.on('win-needs-more-than-500') ? x > 500 : x >= 500);
    const loses = (x) => (M.on('lose-below-minus-500') ? x < -500 : x <= -500);
    const ownContract = !(M.on('misere-not-own-contract') && this.contract && this.contract.misere);
    if (made === true && ownContract && wins(this.scores[declSide])) {
      this.gameOver = true;
      this.winner = declSide;
    } else if (M.on('win-by-defence') && (wins(this.scores.NS) || wins(this.scores.EW))) {
      this.gameOver = true;
      this.winner = wins(this.scores.NS) ? 'NS' : 'EW';
    } else if (!M.on('minus-500-not-ending')) {
      for (const s of ['NS', 'EW']) {
        if (loses(this.scores[s]) && !(M.on('minus-500-only-if-other-not-negative') && this.scores[C.otherSide(s)] < 0)) {
          this.gameOver = true;
          this.winner = C.otherSide(s);
        }
      }
    }
    const stay = (made === null && M.on('dealer-stays-on-throw-in')) || (this.gameOver && M.on('dealer-stays-at-game-end'));
    if (!stay) this.dealer = M.on('dealer-rotates-right') ? C.rightOf(this.dealer) : C.leftOf(this.dealer);
  }

  // game-over applies to deal and deal_result steps only (scenario-format.md); an
  // action after the last deal is refused with deal-over like any action in a
  // finished deal.
  newDeal(deck) {
    if (this.gameOver) reject('game-over');
    if (IN_PROGRESS.has(this.phase)) reject('wrong-phase');
    this.dealDeck(deck);
  }

  recordResult(result) {
    if (this.gameOver) reject('game-over');
    if (IN_PROGRESS.has(this.phase)) reject('wrong-phase');
    this.resetDeal();
    // A recorded result leaves no deal on the table (scenario format: "No deal on the table").
    this.recorded = true;
    if (result === 'thrown-in') {
      this.finishDeal({ NS: 0, EW: 0 }, null, null);
      return;
    }
    const { contract, declarer, tricks } = result;
    this.contract = C.parseContract(contract);
    this.declarer = declarer;
    const side = C.sideOf(declarer);
    const { score, made } = scoreContract(contract, side, tricks, 10 - tricks);
    this.finishDeal(score, made, side);
  }

  // ---- legal actions ----------------------------------------------------------------

  toAct() {
    if (this.phase === 'auction') return this.toCall;
    if (this.phase === 'kitty') return this.declarer;
    if (this.phase === 'play') return this.toPlay;
    return null;
  }

  legal() {
    if (this.phase === 'auction') {
      const out = ['PASS'];
      const from = this.highBid === null ? -1 : C.BID_RANK.get(this.highBid);
      for (const b of C.BID_ORDER) {
        if (C.BID_RANK.get(b) <= from) continue;
        if (b === 'MIS' && !C.isSevenLevel(this.highBid)) continue;
        out.push(b);
      }
      return out;
    }
    if (this.phase === 'kitty') {
      const hand = C.sortCards(this.hands[this.declarer]);
      const out = [];
      if (KITTY_SIZE === 2) {
        for (let i = 0; i < hand.length; i++)
          for (let j = i + 1; j < hand.length; j++) out.push(`DISCARD ${hand[i]} ${hand[j]}`);
        return out;
      }
      for (let i = 0; i < hand.length; i++)
        for (let j = i + 1; j < hand.length; j++)
          for (let k = j + 1; k < hand.length; k++) out.push(`DISCARD ${hand[i]} ${hand[j]} ${hand[k]}`);
      return out;
    }
    if (this.phase === 'play') {
      const seat = this.toPlay;
      const hand = C.sortCards(this.hands[seat]);
      const out = [];
      if (this.trick === null) {
        for (const c of hand) {
          if (this.isSuitlessJoker(c) && M.on('joker-lead-no-suit')) out.push(JOKER);
          else if (this.isSuitlessJoker(c)) for (const s of this.jokerLeadNames()) out.push(`JK:${s}`);
          else out.push(c);
        }
        if (this.canNominate(seat)) for (const s of SUITS) out.push(`NOMINATE ${s}`);
        return out;
      }
      const led = this.trick.led;
      if (this.holdsSuit(seat, led)) {
        const out = hand.filter((c) => this.followSuit(c) === led);
        if (this.jokerAlwaysFree() && hand.some((c) => this.isSuitlessJoker(c)) && !out.includes(JOKER)) out.push(JOKER);
        return out;
      }
      if (this.jokerMustBePlayed(seat) && hand.some((c) => this.isSuitlessJoker(c))) return [JOKER];
      return hand;
    }
    return [];
  }

  // ---- observations -----------------------------------------------------------------

  // A game start before its first deal, or a recorded result: nothing is on the table.
  onTable() {
    return this.phase !== 'none' && !this.recorded;
  }

  observe(key) {
    if (!this.onTable() && key in NOTHING_ON_TABLE) return NOTHING_ON_TABLE[key]();
    const trickObj = (t, withWinner) => {
      const cards = {};
      for (const [s, c] of t.cards) cards[s] = c;
      const o = { leader: t.leader, led: t.led, cards };
      if (withWinner) o.winner = t.winner;
      return o;
    };
    switch (key) {
      case 'phase':
        return this.phase;
      case 'to_act':
        return this.toAct();
      case 'legal':
        return this.legal();
      case 'legal_count':
        return this.legal().length;
      case 'high_bid':
        return this.highBid;
      case 'high_bidder':
        return this.highBidder;
      case 'passed':
        return SEATS.filter((s) => this.passed.has(s));
      case 'contract':
        return this.contract ? this.contract.bid : null;
      case 'declarer':
        return this.declarer;
      case 'hands': {
        const o = {};
        for (const s of SEATS) o[s] = C.sortCards(this.hands[s]);
        return o;
      }
      case 'hand_sizes': {
        const o = {};
        for (const s of SEATS) o[s] = this.hands[s].length;
        return o;
      }
      case 'kitty':
        return C.sortCards(this.kitty);
      case 'discards':
        return C.sortCards(this.discards);
      case 'nominated':
        return this.nominated;
      case 'sitting_out':
        return this.sittingOut;
      case 'trick':
        return this.trick ? trickObj(this.trick, false) : null;
      case 'last_trick':
        return this.lastTrick ? trickObj(this.lastTrick, true) : null;
      case 'suits_led':
        return SUITS.filter((s) => this.suitsLed.has(s));
      case 'tricks':
        return { NS: this.tricks.NS, EW: this.tricks.EW };
      case 'deal_score':
        return this.dealScore ? { NS: this.dealScore.NS, EW: this.dealScore.EW } : null;
      case 'made':
        return this.made;
      case 'scores':
        return { NS: this.scores.NS, EW: this.scores.EW };
      case 'dealer':
        return this.dealer;
      case 'exposed':
        // Ruling 18: exposed from the end of the first trick onward.
        if (M.on('open-misere-never-exposed')) return null;
        if (this.contract && this.contract.bid === 'OMIS' && !this.recorded && this.tricksPlayed >= 1)
          return C.sortCards(this.hands[this.declarer]);
        if (M.on('open-misere-exposed-at-start') && this.contract && this.contract.bid === 'OMIS' && !this.recorded && this.phase !== 'kitty')
          return C.sortCards(this.hands[this.declarer]);
        return null;
      case 'game_over':
        return this.gameOver;
      case 'winner':
        return this.winner;
      default:
        throw new Error(`unknown observation ${key}`);
    }
  }
}

// Score one deal: tricks of the declaring side (the declarer's own in a misère) and of
// the defenders.
function scoreContract(bid, declSide, declTricks, defTricks) {
  const c = C.parseContract(bid);
  const defSide = C.otherSide(declSide);
  const score = { NS: 0, EW: 0 };
  let made;
  if (c.misere) {
    made = declTricks === 0;
    const v = C.contractValue(bid);
    score[declSide] = made ? v : -v; // ruling 30; defenders 0
    if (M.on('misere-defenders-score') && !made) score[defSide] = 10 * declTricks;
    if (M.on('misere-defenders-score-always')) score[defSide] = 10 * defTricks;
  } else {
    const v = C.contractValue(bid);
    made = declTricks >= c.level;
    let won = v;
    if (declTricks === 10 && !M.on('no-slam-bonus')) {
      if (M.on('slam-always-250')) won = 250;
      else if (v < 250) won = 250;
    }
    if (M.on('overtricks-10-each')) won += 10 * (declTricks - c.level);
    score[declSide] = made ? won : -v; // ruling 29
    score[defSide] = 10 * defTricks;
    if (M.on('defenders-score-nothing') || (M.on('defenders-score-only-when-set') && made)) score[defSide] = 0;
  }
  return { score, made };
}

// ---- set-ups ------------------------------------------------------------------------

function checkCards(cards, what) {
  for (const c of cards) if (!C.isCard(c)) throw new Error(`unknown card ${c} in ${what}`);
}

const NOTHING_ON_TABLE = {
  to_act: () => null,
  legal: () => [],
  legal_count: () => 0,
  high_bid: () => null,
  high_bidder: () => null,
  passed: () => [],
  hands: () => ({ N: [], E: [], S: [], W: [] }),
  hand_sizes: () => ({ N: 0, E: 0, S: 0, W: 0 }),
  kitty: () => [],
  discards: () => [],
  nominated: () => null,
  sitting_out: () => null,
  trick: () => null,
  last_trick: () => null,
  suits_led: () => [],
  tricks: () => null,
  exposed: () => null,
};

function setUp(setup) {
  const g = new Game({ dealer: setup.dealer, scores: setup.scores });
  switch (setup.start) {
    case 'game':
      return g;
    case 'deck':
      g.dealDeck(setup.deck);
      return g;
    case 'auction':
      for (const s of SEATS) {
        checkCards(setup.hands[s], `${s}'s hand`);
        g.hands[s] = [...setup.hands[s]];
      }
      checkCards(setup.kitty, 'the kitty');
      g.kitty = setup.kitty.slice(0, KITTY_SIZE);
      g.startAuction();
      return g;
    case 'play': {
      for (const s of SEATS) {
        checkCards(setup.hands[s], `${s}'s hand`);
        g.hands[s] = [...setup.hands[s]];
      }
      g.contract = C.parseContract(setup.contract);
      g.declarer = setup.declarer;
      g.highBid = setup.contract;
      g.highBidder = setup.declarer;
      g.passed = new Set(SEATS.filter((s) => s !== setup.declarer));
      g.nominated = setup.nominated || null;
      g.suitsLed = new Set(setup.suits_led || []);
      g.tricks = { NS: (setup.tricks && setup.tricks.NS) || 0, EW: (setup.tricks && setup.tricks.EW) || 0 };
      g.tricksPlayed = 10 - g.hands[setup.declarer].length;
      g.phase = 'play';
      g.toPlay = setup.leader || setup.declarer;
      if (g.tricksPlayed === 0) g.toPlay = g.firstLeader();
      return g;
    }
    default:
      throw new Error(`unknown start ${setup.start}`);
  }
}

module.exports = { Game, Rejected, setUp, scoreContract };
