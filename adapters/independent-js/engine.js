'use strict';
// An independent Five Hundred engine: one engine for every profile, parameterised by a
// profile description (profiles.js). Built only from the seeds, shared/RULINGS.md and the
// site's rules, profile and format pages; see README.md.

const PR = require('./profiles');
const M = require('./misreadings'); // deliberate deviations, all off unless asked for
const { SUITS, JOKER } = PR;

class Rejected extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}
// A setup or step this engine cannot run for want of a feature or of data (-> skipped).
class Unsupported extends Error {}
function reject(code) {
  throw new Rejected(code);
}

const IN_PROGRESS = new Set(['auction', 'kitty', 'play']);
// inkles: a six-level bid other than as the bidder's first call.
const INKLE_CODE = 'six-bid-first-call';
// sans-kitty: the declarer's other choice at the kitty, as `legal` lists it.
const SANS_KITTY = 'SANS KITTY';
const SAME_COLOUR = { S: 'C', C: 'S', D: 'H', H: 'D' };

class Game {
  constructor(P, { dealer, scores }) {
    this.P = P;
    // Misreadings change the default profile only.
    this.mis = (name) => P.isDefault && M.on(name);
    // Kitty size (ruling 15); the misreading kitty-size-2 makes it two.
    this.kittySize = this.mis('kitty-size-2') ? 2 : P.kitty;
    this.dealer = dealer;
    this.scores = {};
    for (const sd of P.sideNames) this.scores[sd] = (scores && scores[sd]) || 0;
    // Seed 003: who has ever been at -500 or lower; such a player never wins afterwards.
    this.fallen = new Set(P.sideNames.filter((sd) => P.barAt !== null && this.scores[sd] <= P.barAt));
    this.gameOver = false;
    this.winner = null;
    this.resetDeal();
    this.phase = 'none';
  }

  // ---- seats and sides --------------------------------------------------------------

  get seats() {
    return this.P.seats;
  }
  leftOf(seat) {
    const s = this.P.seats;
    return s[(s.indexOf(seat) + 1) % s.length];
  }
  rightOf(seat) {
    const s = this.P.seats;
    return s[(s.indexOf(seat) + s.length - 1) % s.length];
  }
  sideOf(seat) {
    return this.P.sideOfSeat[seat];
  }
  partnersOf(seat) {
    const side = this.sideOf(seat);
    return this.P.seats.filter((s) => s !== seat && this.sideOf(s) === side);
  }
  zero() {
    const o = {};
    for (const sd of this.P.sideNames) o[sd] = 0;
    return o;
  }

  // ---- deal state -----------------------------------------------------------------

  resetDeal() {
    this.phase = 'none';
    this.hands = {};
    for (const s of this.seats) this.hands[s] = [];
    this.dead = [];
    this.kitty = [];
    this.discards = [];
    this.toCall = null;
    this.highBid = null;
    this.highBidder = null;
    this.passed = new Set();
    this.called = new Set(); // seats that have made a call (blind misère: first call only)
    this.bids = []; // [seat, bid] in order (for partner-need-not-outbid)
    this.calls = 0; // one-round auction
    this.passRun = 0; // passes in succession (pass-may-re-enter)
    this.raiseOffered = false; // raise-after-all-pass (and the misreading declarer-may-raise)
    this.kittyTaken = [];
    this.kittyActor = null; // who discards now: the declarer, then (double-nullo) the partner
    this.declarerOwnTricks = 0;
    this.contract = null; // parsed contract; {allPass: true} for an all-pass no-trump deal
    this.declarer = null;
    this.nominated = null;
    this.trick = null; // {leader, led, cards: [[seat, card], ...]}
    this.lastTrick = null;
    this.suitsLed = new Set();
    this.tricks = this.zero();
    this.trickSides = []; // side that won each trick played in this scenario, in order
    this.tricksPlayed = 0;
    this.toPlay = null;
    this.dealScore = null;
    this.made = null;
    this.recorded = false;
  }

  // Ruling 6 (one card to the kitty per round) or seed 002/003 (the widow after the first
  // round of threes); the first packet to the dealer's left. Cards left over (two-handed
  // game) are a dead hand nobody plays.
  dealDeck(deck) {
    const P = this.P;
    if (!Array.isArray(deck) || deck.length !== P.deck.length) throw new Error(`a deck of ${P.deck.length} cards is needed, got ${deck && deck.length}`);
    const seen = new Set();
    for (const card of deck) {
      if (!P.deckSet.has(card)) throw new Error(`unknown card ${card}`);
      if (seen.has(card)) throw new Error(`card ${card} twice in the deck`);
      seen.add(card);
    }
    this.resetDeal();
    const order = [];
    let s = this.mis('deal-starts-at-dealer') ? this.dealer : this.leftOf(this.dealer);
    for (let i = 0; i < this.seats.length; i++) {
      if (!(P.dealerSitsOut && s === this.dealer)) order.push(s); // dealer-sits-out: no cards
      s = this.leftOf(s);
    }
    // Two-handed game: the cards left over are dealt as a third hand, after the dealer, when
    // the pack makes a full third hand (33 cards); otherwise (deck-24) what is left after the
    // deal is out of play.
    const hands = { ...this.hands };
    if (P.deadHand && deck.length === 10 * (order.length + 1) + P.kitty) {
      order.push('dead');
      hands.dead = this.dead;
    }
    // [packet size, cards to the kitty after the round]
    let rounds = P.dealRounds;
    if (this.mis('packets-3-2-3-2')) rounds = [[3, 1], [2, 1], [3, 1], [2, 0]];
    else if (this.mis('kitty-last-three')) rounds = [[3, 0], [4, 0], [3, 3]];
    else if (this.mis('kitty-after-first-round')) rounds = [[3, 3], [4, 0], [3, 0]];
    else if (this.mis('kitty-size-2')) rounds = [[3, 1], [4, 1], [3, 0]];
    let pos = 0;
    for (const [size, toKitty] of rounds) {
      for (const seat of order) {
        for (let k = 0; k < size; k++) hands[seat].push(deck[pos++]);
      }
      for (let k = 0; k < toKitty; k++) this.kitty.push(deck[pos++]);
    }
    this.dead.push(...deck.slice(pos));
    this.startAuction();
  }

  startAuction() {
    this.phase = 'auction';
    this.toCall = this.mis('dealer-bids-first') ? this.dealer : this.leftOf(this.dealer); // ruling 8
  }

  // ---- contract helpers -------------------------------------------------------------

  get trump() {
    return this.contract ? this.contract.trump : null;
  }
  get isMisere() {
    return !!(this.contract && this.contract.misere);
  }
  get allPass() {
    return !!(this.contract && this.contract.allPass);
  }
  // Seats sitting out: the misère (Nullo) declarer's partner or partners (ruling 16; seed
  // 002 Нулевая заявка).
  get sittingOutSeats() {
    if (this.mis('misere-partner-plays') || this.P.doubleNullo) return []; // double-nullo: both play
    return this.isMisere ? this.partnersOf(this.declarer) : [];
  }
  // The seats that hold cards in this deal: all but a resting dealer (dealer-sits-out).
  get dealtSeats() {
    return this.P.dealerSitsOut ? this.seats.filter((s) => s !== this.dealer) : this.seats;
  }
  // The seats playing to the tricks: the dealt seats but the misère partner(s).
  get activeSeats() {
    const out = this.sittingOutSeats;
    return this.dealtSeats.filter((s) => !out.includes(s));
  }
  nextActive(seat) {
    const active = this.activeSeats;
    let s = this.leftOf(seat);
    while (!active.includes(s)) s = this.leftOf(s);
    return s;
  }
  // The next seat to the left that takes part in the auction (a resting dealer never calls).
  nextDealt(seat) {
    const dealt = this.dealtSeats;
    let s = this.leftOf(seat);
    while (!dealt.includes(s)) s = this.leftOf(s);
    return s;
  }

  // The suit a card belongs to in this deal, or null for a suitless joker.
  effSuit(card) {
    const trump = this.trump;
    if (trump) {
      if (card === JOKER) return trump; // ruling 2/20
      if (this.isLeftBower(card) && !this.mis('left-bower-printed-suit')) return trump; // left bower
      return printedSuit(card);
    }
    if (card === JOKER) return this.nominated; // rulings 22/23 (null = suitless)
    return printedSuit(card);
  }
  isLeftBower(card) {
    const trump = this.trump;
    return !!trump && rankOf(card) === 'J' && printedSuit(card) === SAME_COLOUR[trump];
  }
  // The suit a card counts as for the must-follow check (the effective suit, except under
  // the misreading left-bower-follow-ignored).
  followSuit(card) {
    if (this.mis('left-bower-follow-ignored') && this.isLeftBower(card)) return printedSuit(card);
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
    const RV = PR.RANK_VALUE;
    if (trump) {
      if (this.effSuit(card) === trump) {
        if (card === JOKER) return 1000 + (this.mis('joker-below-bowers') ? 97 : 100);
        if (rankOf(card) === 'J') {
          const right = printedSuit(card) === trump;
          if (this.mis('right-bower-below-left')) return 1000 + (right ? 98 : 99);
          return 1000 + (right ? 99 : 98);
        }
        return 1000 + RV[rankOf(card)];
      }
      if (this.effSuit(card) === led) return RV[rankOf(card)];
      return -1;
    }
    if (this.isSuitlessJoker(card)) return 10000; // ruling 23
    if (card === JOKER && this.mis('nominated-joker-wins-anyway')) return 10000;
    if (this.effSuit(card) === led) {
      if (card === JOKER) return this.mis('nominated-joker-not-highest') ? 3 : this.mis('nominated-joker-below-ace') ? 13.5 : 100;
      if (rankOf(card) === 'J' && this.mis('jacks-bowers-in-no-trumps')) return 15;
      return RV[rankOf(card)];
    }
    return -1;
  }

  // The suits a suitless joker lead may name now (rulings 25/26; seed 002/003: any suit;
  // toggle joker-leads-last-trick-only).
  jokerLeadNames() {
    const P = this.P;
    const last = this.tricksPlayed === P.trickCount - 1;
    if (this.mis('joker-lead-last-trick-only')) return last ? [...SUITS] : [];
    if (P.jokerLeadLastTrickOnly && !last) return [];
    if (P.jokerLead === 'any') return [...SUITS];
    if (this.suitsLed.size === 4) return last || this.mis('joker-lead-any-time') ? [...SUITS] : [];
    if (this.mis('joker-last-trick-any-suit') && last) return [...SUITS];
    if (this.mis('joker-lead-repeat-suit')) return [...SUITS];
    return SUITS.filter((s) => !this.suitsLed.has(s));
  }

  canNominate(seat) {
    return (
      this.P.nominate &&
      this.phase === 'play' &&
      this.contract !== null &&
      !this.allPass &&
      (this.trump === null || this.mis('nominate-in-suit-contract')) &&
      this.nominated === null &&
      (this.mis('nominate-any-time') || (this.tricksPlayed === 0 && this.trick === null)) &&
      (this.mis('nominate-any-holder') || seat === this.declarer) &&
      (this.hands[seat].includes(JOKER) || (this.mis('nominate-without-joker') && seat === this.declarer))
    );
  }

  // ---- actions --------------------------------------------------------------------

  overCode() {
    return this.mis('finished-deal-wrong-phase') ? 'wrong-phase' : 'deal-over';
  }

  // Why `call` (a bid, not PASS) by `seat` is refused now, or null.
  bidRefusal(seat, call) {
    const P = this.P;
    if (!P.bidRank.has(call)) return 'bid-not-available';
    if (P.misere[call] && P.misere[call].blind && this.called.has(seat)) return 'blind-misere-first-call';
    if (P.inkles && isSixLevel(call) && this.called.has(seat)) return INKLE_CODE;
    const ref = this.referenceBid(seat);
    if (ref !== null && P.bidRank.get(call) <= P.bidRank.get(ref)) return 'bid-not-higher';
    if (call === 'MIS' && P.misereNeedsSeven && !this.mis('misere-without-seven') && !this.sevenStands(ref)) return 'misere-needs-seven';
    if (call === 'OMIS' && this.mis('open-misere-needs-seven') && (ref === null || P.bidRank.get(ref) < P.bidRank.get('7S')))
      return 'misere-needs-seven';
    return null;
  }

  call(seat, call) {
    const P = this.P;
    if (this.phase === 'over') reject(this.overCode());
    if (this.phase !== 'auction') reject('wrong-phase');
    if (this.mis('turn-checked-before-passed') && seat !== this.toCall) reject('not-your-turn');
    if (this.passed.has(seat) && !this.mis('passed-may-bid-again') && !P.passMayReEnter) reject('already-passed');
    if (seat !== this.toCall) reject('not-your-turn');
    if (call !== 'PASS') {
      const why = this.bidRefusal(seat, call);
      if (why) reject(why);
    }
    this.called.add(seat);
    if (this.raiseOffered) {
      // The lone bidder's one extra call (toggle raise-after-all-pass; misreading
      // declarer-may-raise): a higher bid or a pass, and the auction closes.
      if (call !== 'PASS') {
        this.highBid = call;
        this.bids.push([seat, call]);
      }
      this.endAuction();
      return;
    }
    if (call === 'PASS') {
      this.passed.add(seat);
      this.passRun += 1;
    } else {
      this.highBid = call;
      this.highBidder = seat;
      this.bids.push([seat, call]);
      this.passRun = 0;
      if (this.mis('passed-may-bid-again') || P.passMayReEnter) this.passed.delete(seat);
    }
    const n = this.dealtSeats.length;
    if (P.auction === 'one-round' || this.mis('single-round-auction')) {
      // Seed 002 Торговля: one call each, the dealer last; the highest bid is the contract.
      // (dealer-sits-out: the three players, the dealer's right-hand neighbour last.)
      this.calls += 1;
      if (this.calls < n) {
        this.toCall = this.nextDealt(seat);
        return;
      }
      if (this.highBid === null) this.allPassed();
      else this.endAuction();
      return;
    }
    if (P.passMayReEnter) {
      // pass-may-re-enter: round and round from the dealer's left; the first calls all
      // passes throw the deal in; after a bid, the other players passing in succession end it.
      if (this.highBid === null && this.passRun === n) this.allPassed();
      else if (this.highBid !== null && this.passRun === n - 1) this.closeAuction(call);
      else this.toCall = this.leftOf(seat);
      return;
    }
    if (this.passed.size === n) {
      this.allPassed(); // ruling 14: thrown in
      return;
    }
    if (this.highBid !== null && this.passed.size === n - 1) {
      this.closeAuction(call);
      return;
    }
    let s = this.leftOf(seat);
    if (!this.mis('passed-may-bid-again')) while (this.passed.has(s)) s = this.leftOf(s);
    this.toCall = s;
  }

  // The others have passed after the high bid: the auction ends, or the high bidder is
  // offered one more call first (raise-after-all-pass; the misreading declarer-may-raise).
  closeAuction(lastCall) {
    // The raise is offered when the others passed after the bid; a bid made when the
    // others had all passed already closes the auction (README, open points).
    const raise = this.mis('declarer-may-raise') || (this.P.raiseAfterAllPass && lastCall === 'PASS');
    if (raise) {
      this.raiseOffered = true;
      this.toCall = this.highBidder;
      return;
    }
    this.endAuction();
  }

  // Every player passed: a throw-in (ruling 14), or under all-pass-no-trumps (seed 002
  // Вариант) a no-trump deal with no contract, each for himself, the dealer's left leading.
  allPassed() {
    this.toCall = null;
    if (this.P.allPassNoTrumps) {
      this.contract = { bid: null, allPass: true, misere: false, trump: null, nt: true, level: null };
      this.declarer = null;
      this.phase = 'play';
      this.toPlay = this.leftOf(this.dealer);
      return;
    }
    this.finishDeal(this.zero(), null, null);
  }

  // The bid a new bid must outrank: the highest so far (ruling 10), or under the
  // misreading partner-need-not-outbid the opponents' highest.
  referenceBid(seat) {
    if (!this.mis('partner-need-not-outbid')) return this.highBid;
    let best = null;
    for (const [s, b] of this.bids) {
      if (this.sideOf(s) === this.sideOf(seat)) continue;
      if (best === null || this.P.bidRank.get(b) > this.P.bidRank.get(best)) best = b;
    }
    return best;
  }

  // Ruling 11: misère needs a seven standing (by value, 8S too, under misere-by-value).
  sevenStands(bid) {
    if (this.mis('misere-by-value') && bid === '8S') return true;
    return isSevenLevel(bid);
  }

  endAuction() {
    this.toCall = null;
    this.raiseOffered = false;
    if (this.P.inkles && isSixLevel(this.highBid)) {
      // inkles: a six only signals; an auction it wins is thrown in as if all had passed.
      this.finishDeal(this.zero(), null, null);
      return;
    }
    this.contract = PR.parseContract(this.P, this.highBid);
    this.declarer = this.highBidder;
    this.kittyTaken = [...this.kitty];
    this.hands[this.declarer].push(...this.kitty); // ruling 15
    this.kitty = [];
    this.phase = 'kitty';
    this.kittyActor = this.declarer;
  }

  // Ruling 17: the declarer leads first; under dealers-left-leads (and the misreading
  // opening-lead-left-of-dealer) the first player on the dealer's left who plays the deal.
  firstLeader() {
    if (!this.P.dealersLeftLeads && !this.mis('opening-lead-left-of-dealer')) return this.declarer;
    const active = this.activeSeats;
    let s = this.leftOf(this.dealer);
    while (!active.includes(s)) s = this.leftOf(s);
    return s;
  }

  discard(seat, cards) {
    if (this.phase === 'over') reject(this.overCode());
    if (this.phase !== 'kitty') reject('wrong-phase');
    if (seat !== this.kittyActor) reject('not-your-turn');
    const k = this.kittySize;
    if (!Array.isArray(cards) || cards.length !== k || new Set(cards).size !== k) reject('discard-needs-three');
    const hand = this.hands[seat];
    if (cards.some((c) => !hand.includes(c))) reject('card-not-held');
    if (this.mis('kitty-cards-not-discardable') && cards.some((c) => this.kittyTaken.includes(c))) reject('card-not-held');
    this.hands[seat] = hand.filter((c) => !cards.includes(c));
    if (this.P.doubleNullo && this.isMisere && seat === this.declarer) {
      // double-nullo: the partner takes the declarer's discards and discards as many; until
      // then no card is out of play.
      this.kittyActor = this.partnersOf(this.declarer)[0];
      this.hands[this.kittyActor].push(...cards);
      return;
    }
    this.discards = [...cards];
    this.startPlay();
  }

  // sans-kitty: instead of discarding, the declarer of a suit or no-trump contract puts the
  // kitty back face down, unused, and plays with the ten cards dealt.
  sansKitty(seat) {
    if (this.phase === 'over') reject(this.overCode());
    if (this.phase !== 'kitty') reject('wrong-phase');
    if (seat !== this.kittyActor) reject('not-your-turn');
    if (!this.P.sansKitty || this.isMisere) reject('sans-kitty-not-allowed');
    const hand = this.hands[seat];
    for (const c of this.kittyTaken) hand.splice(hand.indexOf(c), 1);
    this.kitty = [...this.kittyTaken];
    this.startPlay();
  }

  startPlay() {
    this.phase = 'play';
    this.toPlay = this.firstLeader(); // ruling 17
  }

  nominate(seat, suit) {
    if (this.phase === 'over') reject(this.overCode());
    if (this.phase === 'none') reject('wrong-phase');
    if (!this.canNominate(seat) || !SUITS.includes(suit)) reject('nomination-not-allowed');
    this.nominated = suit;
  }

  play(seat, card, names) {
    const P = this.P;
    if (this.phase === 'over') reject(this.overCode());
    if (this.phase !== 'play') reject('wrong-phase');
    if (seat !== this.toPlay) reject('not-your-turn');
    const hand = this.hands[seat];
    if (!hand.includes(card)) reject('card-not-held');
    const hasNames = names !== undefined && names !== null;
    const last = this.tricksPlayed === P.trickCount - 1;
    let led;
    if (this.trick === null) {
      if (this.isSuitlessJoker(card) && this.mis('joker-lead-no-suit')) {
        led = null; // misreading: no suit named, nobody has to follow
      } else if (this.isSuitlessJoker(card)) {
        const misLastOnly = this.mis('joker-lead-last-trick-only');
        if (P.jokerLeadLastTrickOnly && !last) reject('joker-lead-last-trick-only');
        if (misLastOnly && !last) reject('joker-lead-all-suits-led');
        if (P.jokerLead !== 'any' && !misLastOnly && this.suitsLed.size === 4 && !last && !this.mis('joker-lead-any-time'))
          reject('joker-lead-all-suits-led');
        if (!hasNames) reject('joker-lead-needs-suit');
        const anyName =
          P.jokerLead === 'any' ||
          this.mis('joker-lead-repeat-suit') ||
          ((misLastOnly || this.mis('joker-last-trick-any-suit')) && last);
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
      if (led !== null && !(this.isSuitlessJoker(card) && this.mis('joker-lead-not-counted-as-led'))) this.suitsLed.add(led);
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
    const side = this.sideOf(best);
    this.tricks[side] += 1;
    this.trickSides.push(side);
    if (this.losesMisere(best)) this.declarerOwnTricks += 1;
    this.tricksPlayed += 1;
    this.toPlay = this.mis('lead-rotates') ? this.nextActive(t.leader) : best;
    if (this.isMisere && this.losesMisere(best) && this.P.misereEndsEarly && !this.mis('misere-continues')) {
      this.scorePlayedDeal(); // ruling 30: the misère is broken
    } else if (this.tricksPlayed === this.P.trickCount) {
      this.scorePlayedDeal();
    } else if (this.mis('end-check-mid-deal') && !this.isMisere) {
      const dside = this.sideOf(this.declarer);
      if (this.tricks[dside] >= this.contract.level && this.scores[dside] + this.P.bidValue(this.contract.bid) >= 500)
        this.scorePlayedDeal();
    }
  }

  // Whether a trick won by `seat` counts against the misère: the declarer's own (ruling 30),
  // or under double-nullo the partner's too.
  losesMisere(seat) {
    return seat === this.declarer || (this.P.doubleNullo && this.isMisere && this.sideOf(seat) === this.sideOf(this.declarer));
  }

  // Whether the open-misère declarer's hand is face up by now (the contract being open).
  openHandShown() {
    if (this.P.openShown === 'start') return this.phase === 'play' || this.phase === 'over';
    if (this.P.openShown === 'lead') return this.tricksPlayed >= 1 || this.trick !== null;
    return this.tricksPlayed >= 1;
  }

  // Ruling 24 (seed 002: never compulsory).
  jokerAlwaysFree() {
    return this.mis('joker-always-in-nt') && !this.isMisere && this.trump === null;
  }
  jokerMustBePlayed(seat) {
    if (this.mis('joker-must-play-in-nt') && this.contract && this.contract.nt) return true;
    if (this.mis('joker-must-play-declarer-only') && seat !== this.declarer) return false;
    return this.isMisere && this.P.jokerMustInMisere && !this.mis('joker-optional-in-misere');
  }

  scorePlayedDeal() {
    this.toPlay = null;
    if (this.allPass) {
      // Seed 002 Вариант: 10 a trick, nothing deducted, no contract.
      const score = this.zero();
      for (const sd of this.P.sideNames) score[sd] = 10 * this.tricks[sd];
      this.finishDeal(score, null, null);
      return;
    }
    const side = this.sideOf(this.declarer);
    const declTricks = this.isMisere ? this.declarerOwnTricks : this.tricks[side];
    const { score, made } = scoreContract(this, this.contract.bid, side, declTricks, this.tricks);
    this.finishDeal(score, made, side);
  }

  // Rulings 29-34 and the profiles' end rules; dealer rotation (5).
  finishDeal(score, made, declSide) {
    const P = this.P;
    this.phase = 'over';
    this.toCall = null;
    this.toPlay = null;
    this.trick = null;
    const before = { ...this.scores };
    // Defenders' limit (toggles defender-cap-490/480, reading 2: trick points never take a
    // side above the limit; misreading defence-cap-490 on the default profile).
    // Toggles defender-cap-490/480, reading 1 (the format page's toggle table: "a side with
    // 490 or more scores nothing for its tricks against the contract"): a defending side
    // already at the limit scores no trick points; below it, all of them.
    if (P.defenderCap !== null && declSide !== null) {
      for (const def of P.sideNames) {
        if (def !== declSide && this.scores[def] >= P.defenderCap && score[def] > 0) score = { ...score, [def]: 0 };
      }
    }
    // Misreading defence-cap-490 (default profile): reading 2, trick points stop at 490.
    const cap = this.mis('defence-cap-490') ? 490 : null;
    if (cap !== null && declSide !== null) {
      for (const def of P.sideNames) {
        if (def === declSide || !(score[def] > 0)) continue;
        const lim = Math.max(this.scores[def], cap);
        score = { ...score, [def]: Math.max(0, Math.min(this.scores[def] + score[def], lim) - this.scores[def]) };
      }
    }
    this.dealScore = score;
    this.made = made;
    for (const sd of P.sideNames) this.scores[sd] += score[sd];
    if (P.end === 'own-contract') this.endOwnContract(made, declSide);
    else this.endAnyMeans(declSide, before);
    const stay = (made === null && !this.allPass && this.mis('dealer-stays-on-throw-in')) || (this.gameOver && this.mis('dealer-stays-at-game-end'));
    if (!stay) this.dealer = this.mis('dealer-rotates-right') ? this.rightOf(this.dealer) : this.leftOf(this.dealer);
  }

  // Rulings 31-33.
  endOwnContract(made, declSide) {
    const sides = this.P.sideNames;
    const wins = (x) => (this.mis('win-needs-more-than-500') ? x > 500 : x >= 500);
    const loses = (x) => (this.mis('lose-below-minus-500') ? x < -500 : x <= -500);
    const ownContract = !(this.mis('misere-not-own-contract') && this.contract && this.contract.misere);
    const other = (s) => sides.find((x) => x !== s);
    if (made === true && ownContract && wins(this.scores[declSide])) {
      this.gameOver = true;
      this.winner = declSide;
    } else if (this.mis('win-by-defence') && sides.some((s) => wins(this.scores[s]))) {
      this.gameOver = true;
      this.winner = sides.find((s) => wins(this.scores[s]));
    } else if (this.P.loseAtMinus500 && !this.mis('minus-500-not-ending')) {
      for (const s of sides) {
        if (loses(this.scores[s]) && !(this.mis('minus-500-only-if-other-not-negative') && this.scores[other(s)] < 0)) {
          this.gameOver = true;
          this.winner = other(s);
        }
      }
    }
  }

  // Seed 003 Победа в игре (and, by choice, the American profiles; README): whoever
  // reaches 500 wins, by contract or defending; the contractor first; among the others, the
  // one who took the first trick of the deal (site/profiles/three-handed.md); then the
  // higher score; then the
  // first clockwise from the contractor's (or, with none, the dealer's) left.
  endAnyMeans(declSide, before) {
    const sides = this.P.sideNames;
    if (this.P.barAt !== null) for (const s of sides) if (this.scores[s] <= this.P.barAt) this.fallen.add(s);
    if (this.fallen.size === sides.length) {
      // Seed 003 is silent here; the suite's reading: nobody can win, so the game is over.
      this.gameOver = true;
      return;
    }
    // "Reaching" 500: a side that scored in this deal and now has 500 or more (a side
    // already at 500 from the setup does not win by a throw-in; README), and has never
    // fallen to -500 under seed 003's bar.
    const reached = sides.filter((s) => this.scores[s] >= 500 && this.dealScore[s] > 0 && !this.fallen.has(s));
    if (!reached.length) return;
    this.gameOver = true;
    if (declSide !== null && reached.includes(declSide)) {
      this.winner = declSide;
      return;
    }
    const reachAt = (s) => {
      // seed 003: the one who took the first trick of the deal (when the contractor took
      // it, the one who took a trick first); Infinity if the tricks are not known
      const i = this.trickSides.indexOf(s);
      return i < 0 ? Infinity : i;
    };
    const from = this.declarer !== null ? this.declarer : this.dealer;
    const clock = [];
    let seat = this.leftOf(from);
    for (let i = 0; i < this.seats.length; i++) {
      if (!clock.includes(this.sideOf(seat))) clock.push(this.sideOf(seat));
      seat = this.leftOf(seat);
    }
    reached.sort((a, b) => reachAt(a) - reachAt(b) || this.scores[b] - this.scores[a] || clock.indexOf(a) - clock.indexOf(b));
    this.winner = reached[0];
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
    const P = this.P;
    let pre = null;
    if (result !== 'thrown-in' && result.tricks !== null && typeof result.tricks === 'object') {
      // A map of tricks by side (this engine's reading for several defenders; README).
      const side = this.sideOf(result.declarer);
      result = { ...result, defender_tricks: result.tricks, tricks: result.tricks[side] || 0 };
    }
    if (result !== 'thrown-in') {
      const contract = PR.parseContract(P, result.contract);
      const side = this.sideOf(result.declarer);
      const defenders = P.sideNames.filter((s) => s !== side);
      const sideTricks = this.zero();
      sideTricks[side] = result.tricks;
      {
        if (defenders.length === 1) sideTricks[defenders[0]] = P.trickCount - result.tricks;
        else if (!contract.misere) {
          // Several defenders scoring apart: the result must say who took what.
          const split = result.defender_tricks;
          if (!split) throw new Unsupported('a deal_result with several defenders needs each defender\'s tricks');
          for (const d of defenders) sideTricks[d] = split[d] || 0;
        }
      }
      pre = { contract, side, sideTricks };
    }
    this.resetDeal();
    // A recorded result leaves no deal on the table (scenario format: "No deal on the table").
    this.recorded = true;
    if (result === 'thrown-in') {
      this.finishDeal(this.zero(), null, null);
      return;
    }
    this.contract = pre.contract;
    this.declarer = result.declarer;
    const { score, made } = scoreContract(this, result.contract, pre.side, result.tricks, pre.sideTricks);
    this.finishDeal(score, made, pre.side);
  }

  // ---- legal actions ----------------------------------------------------------------

  toAct() {
    if (this.phase === 'auction') return this.toCall;
    if (this.phase === 'kitty') return this.kittyActor;
    if (this.phase === 'play') return this.toPlay;
    return null;
  }

  legal() {
    const P = this.P;
    if (this.phase === 'auction') {
      const out = ['PASS'];
      const seat = this.toCall;
      const from = this.highBid === null ? -1 : P.bidRank.get(this.highBid);
      for (const b of P.bidOrder) {
        if (P.bidRank.get(b) <= from) continue;
        if (b === 'MIS' && P.misereNeedsSeven && !isSevenLevel(this.highBid)) continue;
        if (P.misere[b] && P.misere[b].blind && this.called.has(seat)) continue;
        if (P.inkles && isSixLevel(b) && this.called.has(seat)) continue;
        out.push(b);
      }
      return out;
    }
    if (this.phase === 'kitty') {
      // Every set of as many cards as the kitty holds, each in deck order.
      const hand = this.sortCards(this.hands[this.kittyActor]);
      const out = [];
      const pick = (from, chosen) => {
        if (chosen.length === this.kittySize) {
          out.push(`DISCARD ${chosen.join(' ')}`);
          return;
        }
        for (let i = from; i <= hand.length - (this.kittySize - chosen.length); i++) pick(i + 1, [...chosen, hand[i]]);
      };
      pick(0, []);
      if (this.P.sansKitty && !this.isMisere) out.push(SANS_KITTY);
      return out;
    }
    if (this.phase === 'play') {
      const seat = this.toPlay;
      const hand = this.sortCards(this.hands[seat]);
      const out = [];
      if (this.trick === null) {
        for (const c of hand) {
          if (this.isSuitlessJoker(c) && this.mis('joker-lead-no-suit')) out.push(JOKER);
          else if (this.isSuitlessJoker(c)) for (const s of this.jokerLeadNames()) out.push(`JK:${s}`);
          else out.push(c);
        }
        if (this.canNominate(seat)) for (const s of SUITS) out.push(`NOMINATE ${s}`);
        return out;
      }
      const led = this.trick.led;
      if (this.holdsSuit(seat, led)) {
        const o = hand.filter((c) => this.followSuit(c) === led);
        if (this.jokerAlwaysFree() && hand.some((c) => this.isSuitlessJoker(c)) && !o.includes(JOKER)) o.push(JOKER);
        return o;
      }
      if (this.jokerMustBePlayed(seat) && hand.some((c) => this.isSuitlessJoker(c))) return [JOKER];
      return hand;
    }
    return [];
  }

  sortCards(cards) {
    const idx = this.P.deckIndex;
    return [...cards].sort((a, b) => idx.get(a) - idx.get(b));
  }

  // ---- observations -----------------------------------------------------------------

  // A game start before its first deal, or a recorded result: nothing is on the table.
  onTable() {
    return this.phase !== 'none' && !this.recorded;
  }

  bySide(o) {
    const r = {};
    for (const sd of this.P.sideNames) r[sd] = o[sd];
    return r;
  }

  // ---- perft: legal action sequences within the deal, counted by playing them out --------

  // A copy to try actions on: every field copied except the profile and functions, which
  // are shared.
  copy() {
    const twin = Object.create(Object.getPrototypeOf(this));
    const deep = (v) => {
      if (Array.isArray(v)) return v.map(deep);
      if (v instanceof Set) return new Set([...v].map(deep));
      if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, deep(x)]));
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
      return v;
    };
    for (const [k, v] of Object.entries(this)) twin[k] = k === 'P' || typeof v === 'function' ? v : deep(v);
    return twin;
  }

  // Take one action given as an action string (the form `legal` lists).
  take(action) {
    const seat = this.toAct();
    const words = action.split(' ');
    if (this.phase === 'auction') return this.call(seat, action);
    if (words[0] === 'DISCARD') return this.discard(seat, words.slice(1));
    if (action === SANS_KITTY) return this.sansKitty(seat);
    if (words[0] === 'NOMINATE') return this.nominate(seat, words[1]);
    const [card, names] = action.split(':');
    return this.play(seat, card, names === undefined ? null : names);
  }

  perft(depth) {
    if (this.phase !== 'auction' && this.phase !== 'kitty' && this.phase !== 'play') return 0;
    if (this.toAct() === null) return 0;
    const actions = this.legal();
    if (depth === 1) return actions.length;
    let total = 0;
    for (const action of actions) {
      const next = this.copy();
      next.take(action);
      total += next.perft(depth - 1);
    }
    return total;
  }

  observe(key) {
    const seats = this.seats;
    if (!this.onTable()) {
      switch (key) {
        case 'to_act': case 'high_bid': case 'high_bidder': case 'nominated': case 'sitting_out':
        case 'trick': case 'last_trick': case 'tricks': case 'exposed':
          return null;
        case 'legal': case 'passed': case 'kitty': case 'discards': case 'suits_led':
          return [];
        case 'legal_count':
          return 0;
        case 'perft':
          return [0, 0, 0];
        case 'hands':
          return Object.fromEntries(seats.map((s) => [s, []]));
        case 'hand_sizes':
          return Object.fromEntries(seats.map((s) => [s, 0]));
        default:
      }
    }
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
      case 'perft':
        return [1, 2, 3].map((depth) => this.perft(depth));
      case 'high_bid':
        return this.highBid;
      case 'high_bidder':
        return this.highBidder;
      case 'passed':
        return seats.filter((s) => this.passed.has(s));
      case 'contract':
        return this.contract ? this.contract.bid : null;
      case 'declarer':
        return this.declarer;
      case 'hands':
        return Object.fromEntries(seats.map((s) => [s, this.sortCards(this.hands[s])]));
      case 'hand_sizes':
        return Object.fromEntries(seats.map((s) => [s, this.hands[s].length]));
      case 'kitty':
        return this.sortCards(this.kitty);
      case 'discards':
        return this.sortCards(this.discards);
      case 'nominated':
        return this.nominated;
      case 'sitting_out': {
        // One seat; where both partners of a side of three sit out, the first of them in
        // seat order (scenario-format.md).
        const out = this.sittingOutSeats;
        if (out.length === 0) return null;
        return [...out].sort((a, b) => this.seats.indexOf(a) - this.seats.indexOf(b))[0];
      }
      case 'trick':
        return this.trick ? trickObj(this.trick, false) : null;
      case 'last_trick':
        return this.lastTrick ? trickObj(this.lastTrick, true) : null;
      case 'suits_led':
        return SUITS.filter((s) => this.suitsLed.has(s));
      case 'tricks':
        return this.bySide(this.tricks);
      case 'deal_score':
        return this.dealScore ? this.bySide(this.dealScore) : null;
      case 'made':
        return this.made;
      case 'scores':
        return this.bySide(this.scores);
      case 'dealer':
        return this.dealer;
      case 'exposed':
        // Ruling 18: exposed from the end of the first trick onward (open misère only); the
        // toggles open-misere-shown-after-lead / -before-lead show it earlier.
        if (this.mis('open-misere-never-exposed')) return null;
        if (this.contract && this.contract.open && !this.recorded && this.openHandShown())
          return this.sortCards(this.hands[this.declarer]);
        if (this.mis('open-misere-exposed-at-start') && this.contract && this.contract.bid === 'OMIS' && !this.recorded && this.phase !== 'kitty')
          return this.sortCards(this.hands[this.declarer]);
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

function rankOf(c) {
  return c === JOKER ? null : c.slice(0, -1);
}
function printedSuit(c) {
  return c === JOKER ? null : c.slice(-1);
}
function isSixLevel(bid) {
  return bid !== null && /^6(S|C|D|H|NT)$/.test(bid);
}
function isSevenLevel(bid) {
  return bid !== null && /^7(S|C|D|H|NT)$/.test(bid);
}

// Score one deal: `declTricks` are the declaring side's tricks (the declarer's own in a
// misère); `sideTricks` every side's tricks.
function scoreContract(g, bid, declSide, declTricks, sideTricks) {
  const P = g.P;
  const mis = g.mis;
  const c = PR.parseContract(P, bid);
  const score = g.zero();
  // The opposing sides; a resting dealer (dealer-sits-out) scores nothing for the deal.
  const resting = P.dealerSitsOut ? g.sideOf(g.dealer) : null;
  const defenders = P.sideNames.filter((s) => s !== declSide && s !== resting);
  let made;
  const v = P.bidValue(bid);
  if (c.misere) {
    made = declTricks === 0;
    score[declSide] = made ? v : -v; // ruling 30
    if (P.misereDefenders === 'ten-per-bidder-trick') {
      // Seed 002 Нулевая заявка: each opponent 10 for every trick the bidder took (one
      // score per opposing side; README).
      if (!made) for (const d of defenders) score[d] = 10 * declTricks;
    }
    if (mis('misere-defenders-score') && !made) for (const d of defenders) score[d] = 10 * declTricks;
    if (mis('misere-defenders-score-always')) for (const d of defenders) score[d] = 10 * sideTricks[d];
  } else {
    made = declTricks >= c.level;
    let won = v;
    if (declTricks === P.trickCount && !mis('no-slam-bonus') && !P.noSlamBonus) {
      if (mis('slam-always-250')) won = 250;
      else if (v < 250) won = 250;
    }
    if (mis('overtricks-10-each')) won += 10 * (declTricks - c.level);
    score[declSide] = made ? won : -v; // ruling 29
    for (const d of defenders) {
      score[d] = 10 * sideTricks[d];
      if (mis('defenders-score-nothing') || (mis('defenders-score-only-when-set') && made)) score[d] = 0;
    }
  }
  return { score, made };
}

// ---- set-ups ------------------------------------------------------------------------

function setUp(setup, profileName = 'australian-4', variants = []) {
  const P = PR.makeProfile(profileName, variants);
  const checkCards = (cards, what) => {
    for (const c of cards) if (!P.deckSet.has(c)) throw new Error(`unknown card ${c} in ${what}`);
  };
  const g = new Game(P, { dealer: setup.dealer, scores: setup.scores });
  switch (setup.start) {
    case 'game':
      return g;
    case 'deck':
      g.dealDeck(setup.deck);
      return g;
    case 'auction':
      for (const s of P.seats) {
        const h = setup.hands[s] || []; // a resting dealer (dealer-sits-out) holds nothing
        checkCards(h, `${s}'s hand`);
        g.hands[s] = [...h];
      }
      checkCards(setup.kitty, 'the kitty');
      g.kitty = setup.kitty.slice(0, g.kittySize);
      if (setup.dead) {
        checkCards(setup.dead, 'the dead hand');
        g.dead = [...setup.dead];
      }
      g.startAuction();
      return g;
    case 'play': {
      for (const s of P.seats) {
        const h = setup.hands[s] || [];
        checkCards(h, `${s}'s hand`);
        g.hands[s] = [...h];
      }
      g.contract = PR.parseContract(P, setup.contract);
      g.declarer = setup.declarer;
      g.highBid = setup.contract;
      g.highBidder = setup.declarer;
      g.passed = new Set(g.dealtSeats.filter((s) => s !== setup.declarer));
      g.nominated = setup.nominated || null;
      g.suitsLed = new Set(setup.suits_led || []);
      for (const sd of P.sideNames) g.tricks[sd] = (setup.tricks && setup.tricks[sd]) || 0;
      if (g.contract.misere) g.declarerOwnTricks = g.tricks[g.sideOf(setup.declarer)];
      g.tricksPlayed = P.trickCount - g.hands[setup.declarer].length;
      g.phase = 'play';
      g.toPlay = setup.leader || setup.declarer;
      if (g.tricksPlayed === 0) g.toPlay = g.firstLeader();
      return g;
    }
    default:
      throw new Error(`unknown start ${setup.start}`);
  }
}

module.exports = { Game, Rejected, Unsupported, setUp, scoreContract };
