'use strict';
// The plain state of one scenario — the cards in each hand, the calls and cards played,
// whose turn it is, the side totals — and the moves from phase to phase.  Every
// judgement is a call into the engine's gameLogic.ts: whether a call is high enough
// (isValidBid, getBidValue), which cards may be played (getLegalPlays, effectiveSuit),
// who wins a trick (resolveTrick), what a deal scores (calculateRoundScore) and whether
// the game is over (checkGameOver).
//
// gameLogic.ts has no turn order or phases: the app moves a game along in its Supabase
// edge functions, which need a database and cannot run here.  The moves below follow
// those functions at the engine's commit, each cited by file and line, and decide
// nothing about the rules; where a step needs a judgement gameLogic.ts does not make
// (a kitty discard, a nomination, naming the joker's suit), the scenario is skipped.

const {
  SEATS,
  BIDS,
  seatIndex,
  toEngineCard,
  fromEngineCard,
  toEngineBid,
  contractTrump,
  contractTricks,
  fromEngineLed,
  bySide,
} = require('./notation');

// The scenario needs something the engine cannot do: reported as skipped, with this reason.
class NotSupported extends Error {}

const TEN_TRICKS = 10; // play-card/index.ts 144-146: the deal is scored after trick 10
const NO_DISCARD =
  'a kitty discard: gameLogic.ts has no function that judges one (the app checks it inside its discard-kitty edge function)';
const NO_NOMINATION = 'a joker nomination: the engine has none (gameLogic.ts has no nominated suit anywhere)';

// The calls gameLogic.ts can spell (its Bid type): pass, the 25 bids, nullo and open nullo.
const ENGINE_CALLS = new Set(['PASS', ...BIDS]);

function next(seat) {
  return (seat + 1) % 4; // place-bid/index.ts 148, play-card/index.ts 118: clockwise
}

// The ordered deck dealt as the scenario format defines it (3-1-4-1-3-1, starting left
// of the dealer): the protocol's own deal, which the engine (it only shuffles) cannot take.
function dealOrderedDeck(dealer, deck) {
  const hands = [[], [], [], []];
  const kitty = [];
  let position = 0;
  for (const size of [3, 4, 3]) {
    let seat = next(dealer);
    for (let n = 0; n < 4; n += 1) {
      hands[seat].push(...deck.slice(position, position + size).map(toEngineCard));
      position += size;
      seat = next(seat);
    }
    kitty.push(toEngineCard(deck[position]));
    position += 1;
  }
  return { hands, kitty };
}

function accepted() {
  return { outcome: 'accepted' };
}

function rejected() {
  // The engine answers with error messages of its own, not the suite's codes; the
  // adapter declares error_codes: false and gives none.
  return { outcome: 'rejected' };
}

class Table {
  constructor(engine, setup) {
    this.engine = engine;
    this.scores = setup.scores ? [setup.scores.NS, setup.scores.EW] : [0, 0];
    this.gameOver = { over: false };
    this.clearDeal();
    switch (setup.start) {
      case 'game':
        this.nextDealer = seatIndex(setup.dealer);
        break;
      case 'deck':
        this.startDeal(seatIndex(setup.dealer), dealOrderedDeck(seatIndex(setup.dealer), setup.deck));
        break;
      case 'auction':
        this.startDeal(seatIndex(setup.dealer), {
          hands: SEATS.map((seat) => setup.hands[seat].map(toEngineCard)),
          kitty: setup.kitty.map(toEngineCard),
        });
        break;
      case 'play':
        this.startPlay(setup);
        break;
      default:
        throw new NotSupported(`a ${setup.start} start`);
    }
  }

  // Nothing on the table: before the first deal of a game start, and after a recorded deal.
  clearDeal() {
    this.phase = 'none';
    this.onTable = false;
    this.turn = null;
    this.hands = [[], [], [], []];
    this.kitty = [];
    this.calls = [];
    this.highest = null;
    this.contract = null;
    this.trick = null;
    this.lastTrick = null;
    this.tricks = [0, 0];
    this.dealScore = null;
  }

  // deal-cards/index.ts: hands and kitty dealt, the seat left of the dealer bids first (89-90).
  startDeal(dealer, { hands, kitty }) {
    this.clearDeal();
    this.phase = 'auction';
    this.onTable = true;
    this.nextDealer = next(dealer); // deal-cards/index.ts 46-49: the next deal rotates the dealer
    this.hands = hands;
    this.kitty = kitty;
    this.turn = next(dealer);
  }

  startPlay(setup) {
    if (setup.nominated) throw new NotSupported(`a position with the joker's suit nominated: ${NO_NOMINATION}`);
    const dealer = seatIndex(setup.dealer);
    this.phase = 'play';
    this.onTable = true;
    this.nextDealer = next(dealer);
    this.hands = SEATS.map((seat) => setup.hands[seat].map(toEngineCard));
    const held = this.hands.map((hand) => hand.length);
    if (Math.min(...held) !== Math.max(...held)) {
      throw new NotSupported(
        'a position where a seat holds no cards (the misère partner sitting out): the engine has every seat play to every trick (play-card/index.ts 116-119)',
      );
    }
    const declarer = seatIndex(setup.declarer);
    this.setContract(setup.contract, declarer, this.engine.getBidValue(toEngineBid(setup.contract)));
    this.highest = { seat: declarer, call: setup.contract };
    const tricks = setup.tricks ?? { NS: 0, EW: 0 };
    this.tricks = [tricks.NS, tricks.EW];
    const leader = seatIndex(setup.leader ?? setup.declarer);
    this.trick = { leader, plays: [] };
    this.turn = leader;
  }

  setContract(call, declarer, value) {
    this.contract = { call, declarer, value, trump: contractTrump(call) };
  }

  // ---- actions ---------------------------------------------------------------------

  act(step) {
    if ('call' in step) return this.call(seatIndex(step.seat), step.call);
    if ('play' in step) return this.play(seatIndex(step.seat), step.play, step.names);
    if ('discard' in step) throw new NotSupported(NO_DISCARD);
    if ('nominate' in step) throw new NotSupported(NO_NOMINATION);
    throw new NotSupported(`the action ${JSON.stringify(Object.keys(step))}`);
  }

  // place-bid/index.ts: the phase and the turn (38-47), the engine's isValidBid against
  // the value of the highest bid so far (62-67), then the auction's end (85-101).
  call(seat, call) {
    if (this.phase !== 'auction' || seat !== this.turn) return rejected();
    if (!ENGINE_CALLS.has(call)) throw new NotSupported(`the call ${call}: the engine's Bid type has no such bid`);
    const bid = toEngineBid(call);
    const highestValue = this.highest ? this.highest.value : 0;
    if (!this.engine.isValidBid(bid, highestValue)) return rejected();
    const made = { seat, call, pass: bid.type === 'pass', value: this.engine.getBidValue(bid) };
    this.calls.push(made);
    if (!made.pass) this.highest = made; // place-bid/index.ts 150-154
    const lastThree = this.calls.slice(-3);
    const anyBid = this.calls.some((c) => !c.pass);
    if (!anyBid && this.calls.length === 4) {
      // place-bid/index.ts 92-98: all four passed; the deal ends unscored.
      this.phase = 'over';
      this.turn = null;
      this.dealScore = [0, 0];
    } else if (anyBid && lastThree.length === 3 && lastThree.every((c) => c.pass)) {
      // place-bid/index.ts 101-138: the highest bid wins; its bidder takes the kitty.
      const won = this.calls.filter((c) => !c.pass).reduce((best, c) => (c.value > best.value ? c : best));
      this.setContract(won.call, won.seat, won.value);
      this.hands[won.seat] = [...this.hands[won.seat], ...this.kitty];
      this.kitty = [];
      this.phase = 'kitty';
      this.turn = won.seat;
    } else {
      this.turn = next(seat);
    }
    return accepted();
  }

  ledSuit() {
    const first = this.trick.plays[0];
    return first ? this.engine.effectiveSuit(this.engine.parseCard(first.card), this.contract.trump) : null;
  }

  // play-card/index.ts: the phase and the turn (38-46), the engine's getLegalPlays with
  // the led suit from effectiveSuit (71-85), then the trick and the deal (114-187).
  play(seat, card, names) {
    if (this.phase !== 'play' || seat !== this.turn) return rejected();
    const engineCard = toEngineCard(card);
    const trump = this.contract.trump;
    const isFirstPlay = this.trick.plays.length === 0;
    const legal = this.engine.getLegalPlays(this.hands[seat], trump, this.ledSuit(), isFirstPlay);
    if (!legal.includes(engineCard)) return rejected();
    if (names !== undefined) {
      // The engine's play takes a card and nothing else.  A joker it treats as suitless
      // (effectiveSuit 'JOKER') is led as the bare joker, which is all the app can do;
      // a name on any other play cannot be put to the engine.
      const suitless = this.engine.effectiveSuit(this.engine.parseCard(engineCard), trump) === 'JOKER';
      if (!(isFirstPlay && suitless)) {
        throw new NotSupported(`a play naming a suit (${card} naming ${names}): the engine's plays carry no suit name`);
      }
    }
    this.hands[seat] = this.hands[seat].filter((c) => c !== engineCard);
    this.trick.plays.push({ seat, card: engineCard });
    if (this.trick.plays.length < 4) {
      this.turn = next(seat);
      return accepted();
    }
    const led = this.ledSuit();
    const parsed = this.trick.plays.map((p) => ({ seat: p.seat, card: this.engine.parseCard(p.card) }));
    const winner = this.engine.resolveTrick(parsed, trump, led);
    this.tricks[winner % 2] += 1;
    this.lastTrick = { ...this.trick, led, winner };
    if (this.tricks[0] + this.tricks[1] >= TEN_TRICKS) {
      this.trick = { leader: winner, plays: [] };
      this.score(this.tricks);
    } else {
      this.trick = { leader: winner, plays: [] };
      this.turn = winner;
    }
    return accepted();
  }

  // play-card/index.ts 151-177: the engine scores the deal and says whether the game is over.
  score(teamTricks) {
    const { call, declarer, value, trump } = this.contract;
    const { team0Delta, team1Delta } = this.engine.calculateRoundScore({
      contractorTeam: declarer % 2,
      contractorSeat: declarer,
      contractTricks: contractTricks(call),
      contractValue: value,
      trump,
      team0Tricks: teamTricks[0],
      team1Tricks: teamTricks[1],
      isNullo: trump === 'nullo',
      isOpenNullo: trump === 'open_nullo',
    });
    this.dealScore = [team0Delta, team1Delta];
    this.scores = [this.scores[0] + team0Delta, this.scores[1] + team1Delta];
    this.gameOver = this.engine.checkGameOver(this.scores[0], this.scores[1]);
    this.phase = 'over';
    this.turn = null;
  }

  // ---- steps between deals -----------------------------------------------------------

  // deal-cards/index.ts 45: a new deal only between deals of a game that is not over.
  deal(deck) {
    if (this.gameOver.over || this.phase !== 'none' && this.phase !== 'over') return rejected();
    this.startDeal(this.nextDealer, dealOrderedDeck(this.nextDealer, deck));
    return accepted();
  }

  // A whole deal's result, scored by the engine as play-card scores a deal played out.
  recordDealResult(result) {
    if (this.gameOver.over || this.phase !== 'none' && this.phase !== 'over') return rejected();
    const dealer = this.nextDealer;
    this.clearDeal();
    this.nextDealer = next(dealer);
    this.phase = 'over';
    if (result === 'thrown-in') {
      this.dealScore = [0, 0]; // place-bid/index.ts 92-98: a deal all four passed scores nothing
      return accepted();
    }
    const declarer = seatIndex(result.declarer);
    const trump = contractTrump(result.contract);
    if ((trump === 'nullo' || trump === 'open_nullo') && result.tricks !== 0) {
      throw new NotSupported(
        'a lost misère recorded without play: the engine scores the defenders by their tricks in a misère, and the result does not say how many they took',
      );
    }
    this.setContract(result.contract, declarer, this.engine.getBidValue(toEngineBid(result.contract)));
    const teamTricks = [0, 0];
    teamTricks[declarer % 2] = result.tricks;
    teamTricks[1 - (declarer % 2)] = TEN_TRICKS - result.tricks;
    this.score(teamTricks);
    return accepted();
  }

  // ---- observations ------------------------------------------------------------------

  legal() {
    if (this.phase === 'auction') {
      const highestValue = this.highest ? this.highest.value : 0;
      return ['PASS', ...BIDS.filter((bid) => this.engine.isValidBid(toEngineBid(bid), highestValue))];
    }
    if (this.phase === 'kitty') throw new NotSupported(`the legal actions at the kitty, ${NO_DISCARD}`);
    if (this.phase !== 'play') return [];
    const isFirstPlay = this.trick.plays.length === 0;
    return this.engine
      .getLegalPlays(this.hands[this.turn], this.contract.trump, this.ledSuit(), isFirstPlay)
      .map(fromEngineCard);
  }

  shownTrick(trick, withWinner) {
    const cards = {};
    for (const p of trick.plays) cards[SEATS[p.seat]] = fromEngineCard(p.card);
    const shown = { leader: SEATS[trick.leader], led: fromEngineLed(withWinner ? trick.led : this.ledSuit()), cards };
    if (withWinner) shown.winner = SEATS[trick.winner];
    return shown;
  }

  observe(key) {
    const seatMap = (f) => Object.fromEntries(SEATS.map((seat, i) => [seat, f(i)]));
    switch (key) {
      case 'phase':
        return this.phase;
      case 'to_act':
        return this.turn === null ? null : SEATS[this.turn];
      case 'legal':
        return this.legal();
      case 'legal_count':
        return this.legal().length;
      case 'high_bid':
        return this.onTable && this.highest ? this.highest.call : null;
      case 'high_bidder':
        return this.onTable && this.highest ? SEATS[this.highest.seat] : null;
      case 'contract':
        return this.contract ? this.contract.call : null;
      case 'declarer':
        return this.contract ? SEATS[this.contract.declarer] : null;
      case 'hands':
        return seatMap((i) => this.hands[i].map(fromEngineCard));
      case 'hand_sizes':
        return seatMap((i) => this.hands[i].length);
      case 'kitty':
        return this.kitty.map(fromEngineCard);
      case 'trick':
        return this.trick && this.trick.plays.length > 0 ? this.shownTrick(this.trick, false) : null;
      case 'last_trick':
        return this.lastTrick ? this.shownTrick(this.lastTrick, true) : null;
      case 'tricks':
        return this.onTable ? bySide(this.tricks) : null;
      case 'deal_score':
        return this.dealScore ? bySide(this.dealScore) : null;
      case 'scores':
        return bySide(this.scores);
      case 'game_over':
        return this.gameOver.over;
      case 'winner':
        return this.gameOver.over ? ['NS', 'EW'][this.gameOver.winner] : null;
      default:
        throw new NotSupported(`the observation ${key}`);
    }
  }
}

// The observation keys the adapter answers (its hello reply's capabilities.observations).
const OBSERVATIONS = [
  'phase',
  'to_act',
  'high_bid',
  'high_bidder',
  'contract',
  'declarer',
  'hands',
  'hand_sizes',
  'kitty',
  'trick',
  'last_trick',
  'tricks',
  'deal_score',
  'scores',
  'game_over',
  'winner',
];

module.exports = { Table, NotSupported, OBSERVATIONS };
