'use strict';
// Named misreadings: small, deliberate deviations from the default profile, each one a way
// that real programs or published rules get Five Hundred wrong. They exist to measure how
// well the scenario corpus catches a wrong engine (see MISREADINGS.md and
// catch-misreadings.sh). None is on unless asked for:
//
//   node adapter.js --misreading NAME [--misreading NAME2 ...]
//   FIVEHUNDRED_MISREADINGS=name1,name2 node adapter.js
//   node adapter.js --misreadings-for TABLE.json   # {"ID": ["NAME", ...], ...}: these on
//                                                   # while scenario ID runs, none elsewhere
//
// Each entry: the ruling it breaks (slug and number in shared/RULINGS.md), what the engine
// then does, and where published rules or programs read the game this way, when known.

const AM = ['american-2', 'american-3', 'american-4', 'american-5', 'american-6'];
const AM3 = [...AM, 'three-handed'];
const DEFAULT = ['australian-4']; // the default profile, with or without toggles

const LIST = [
  // ---- deck and ranks
  ['left-bower-printed-suit', 'trump-order', 2, 'The left bower stays a plain card of its printed suit: not a trump, ranks as an ordinary jack.', ''],
  ['left-bower-follow-ignored', 'follow-suit', 19, 'The left bower wins as a trump, but the must-follow check treats it as its printed suit (a trump lead does not oblige it; a lead of its printed suit does).', ''],
  ['right-bower-below-left', 'trump-order', 2, 'The left bower outranks the right bower.', ''],
  ['joker-below-bowers', 'trump-order', 2, 'In a suit contract the joker ranks below both bowers (above the ace).', ''],
  ['jacks-bowers-in-no-trumps', 'no-trump-ranks', 4, 'In no trumps and misère each jack ranks above the ace of its suit.', ''],
  // ---- deal
  ['packets-3-2-3-2', 'deal-packets', 6, 'Packets of 3, 2, 3, 2 (one card to the kitty after each of the first three rounds).', ''],
  ['deal-starts-at-dealer', 'deal-packets', 6, 'The first packet goes to the dealer instead of the player on the dealer\'s left.', ''],
  ['kitty-last-three', 'deal-packets', 6, 'Packets 3-4-3 to the players, then the last three cards of the deck to the kitty.', ''],
  ['kitty-after-first-round', 'deal-packets', 6, 'Three cards to the kitty at once after the first round of threes, then fours, then threes.', 'Seed 002 (the American/Hoyle description): the widow is dealt as three cards after the first round.'],
  ['kitty-size-2', 'kitty-exchange', 15, 'The kitty has two cards (the deck\'s last card is not dealt; an auction start keeps the first two kitty cards) and the declarer discards two.', 'Seed 002: a two-card widow when the joker is not used.'],
  ['dealer-stays-on-throw-in', 'dealer-rotation', 5, 'After four passes the same dealer deals again.', 'The "official team rules" text 500rules.txt (same dealer redeals), per shared/notes/rules-sites-and-disputes.md §1.8.'],
  ['dealer-rotates-right', 'dealer-rotation', 5, 'The deal passes to the right (anticlockwise).', ''],
  // ---- auction
  ['dealer-bids-first', 'first-call', 8, 'The dealer makes the first call.', ''],
  ['turn-checked-before-passed', 'pass-is-final', 13, 'A call by a passed seat out of turn is refused as not-your-turn instead of already-passed (check order only).', ''],
  ['passed-may-bid-again', 'pass-is-final', 13, 'A passed player is not skipped and may bid again; the auction ends when the other three players\' latest calls are passes.', 'Trickster Cards option bidAfterPass = Always (notes §1.9); Wikipedia lists "unrestricted bidding" as a variation (notes §1.7).'],
  ['partner-need-not-outbid', 'bid-must-outrank', 10, 'A bid need only outrank the opponents\' highest bid, not partner\'s.', ''],
  ['misere-by-value', 'bid-order', 9, 'Misère is placed by its value (250): between 8S and 8C; open misère by its value (500) just above 10H.', 'Seed 002 (Avondale table: nullo 250 beats 8S, is beaten by 8C); 500rules.txt (notes §1.8); Trickster option Misere250Before8SBid (notes §1.9).'],
  ['misere-without-seven', 'misere-needs-seven', 11, 'Misère may be bid whenever it outranks the highest bid, with no seven before it.', 'Seed 004, listed as a variation.'],
  ['open-misere-needs-seven', 'open-misere-any-time', 12, 'Open misère is refused (misere-needs-seven) until a seven-level bid or higher has been made.', ''],
  ['declarer-may-raise', 'auction-end', 14, 'When the other three have passed, the high bidder gets one more call and may raise its own bid.', 'web500 (danricho/web500): the last bidder gets one chance to raise (notes §1.9); seed 004 lists the opposite as a variation.'],
  ['single-round-auction', 'auction-end', 14, 'Each player calls exactly once, starting left of the dealer; the highest bid after four calls is the contract.', 'Seed 002 (American rules: one opportunity each); Trickster "American" preset; 500rules.txt (notes §1.8, §1.9).'],
  // ---- kitty and play
  ['kitty-cards-not-discardable', 'kitty-exchange', 15, 'The declarer may not discard a card taken from the kitty (refused as card-not-held).', ''],
  ['opening-lead-left-of-dealer', 'opening-lead', 17, 'The player on the dealer\'s left leads to the first trick (the next active player if that one sits out).', 'Wikipedia: "in some versions, the player to dealer\'s left leads first" (notes §1.7).'],
  ['lead-rotates', 'opening-lead', 17, 'Each trick is led by the player to the left of the previous leader, not by the trick\'s winner.', ''],
  // ---- misère
  ['misere-partner-plays', 'misere-partner-out', 16, 'The misère declarer\'s partner plays as usual: four-card tricks, nobody sits out.', ''],
  ['misere-continues', 'misere-score', 30, 'A misère is played out to ten tricks; the declarer\'s first trick does not end the deal (the score is the same).', ''],
  ['misere-defenders-score-always', 'misere-score', 30, 'In a misère the defenders score 10 for each trick they took, made or lost.', ''],
  ['finished-deal-wrong-phase', 'misere-score', 30, 'An action after the deal has ended is refused as wrong-phase instead of deal-over (code only).', ''],
  ['misere-defenders-score', 'misere-score', 30, 'When a misère is lost the defenders score 10 for each trick the declarer took.', 'Seed 002: the opponents score 10 for each trick the nullo bidder wins.'],
  ['open-misere-exposed-at-start', 'open-misere-exposure', 18, 'The open-misère hand is exposed from the start of play, before the first trick ends.', ''],
  ['open-misere-never-exposed', 'open-misere-exposure', 18, 'The open-misère hand is never exposed.', 'web500 does not build open misère (notes §1.9).'],
  // ---- joker without trumps
  ['joker-always-in-nt', 'suitless-joker-following', 24, 'In no trumps a suitless joker may be played on any lead, even by a player who can follow.', 'Seed 002 says the joker is "the highest card of any suit" in no trumps.'],
  ['joker-optional-in-misere', 'suitless-joker-following', 24, 'In a misère a player void in the suit led need not play the suitless joker.', ''],
  ['joker-lead-any-time', 'joker-lead-all-suits-led', 26, 'A suitless joker may be led at any time; once all four suits have been led any suit may be named.', ''],
  ['joker-lead-last-trick-only', 'joker-lead', 25, 'A suitless joker may be led only to the last trick.', 'Seed 004, listed as a variation.'],
  ['joker-lead-no-suit', 'joker-lead', 25, 'A suitless joker lead names no suit (a name given is ignored); the others may play any card.', ''],
  ['joker-lead-repeat-suit', 'joker-lead', 25, 'A suitless joker lead may name a suit that has already been led.', 'Old Hoyle text: whoever leads the joker "calls for any suit" (notes §1.8); seed 002 likewise names no restriction.'],
  ['joker-last-trick-any-suit', 'joker-lead-all-suits-led', 26, 'A suitless joker led to the last trick may name any suit, even one already led while some suit is still unled.', ''],
  ['nominated-joker-below-ace', 'nominated-joker', 22, 'A nominated joker ranks between the king and the ace of its suit.', ''],
  ['nominated-joker-not-highest', 'nominated-joker', 22, 'A nominated joker is the lowest card of its suit.', ''],
  ['nominated-joker-wins-anyway', 'nominated-joker', 22, 'A nominated joker played on another suit\'s lead still wins the trick.', ''],
  ['nominate-any-holder', 'joker-nomination', 21, 'Any player holding the joker may nominate its suit (before the first lead).', ''],
  ['nominate-any-time', 'joker-nomination', 21, 'The declarer may nominate at any time while holding the joker, not only before the first lead.', ''],
  ['joker-must-play-declarer-only', 'suitless-joker-following', 24, 'In a misère only the declarer, void in the suit led, must play a suitless joker; the defenders may keep it.', ''],
  ['joker-must-play-in-nt', 'suitless-joker-following', 24, 'In no trumps too, a player void in the suit led who holds a suitless joker must play it.', ''],
  ['joker-lead-not-counted-as-led', 'joker-lead', 25, 'A joker lead does not count as a lead of the suit it names (that suit may be named or led as new later).', ''],
  ['nominate-without-joker', 'joker-nomination', 21, 'The declarer may nominate a suit for the joker without holding it (the nomination then binds whoever holds it).', ''],
  ['nominate-in-suit-contract', 'joker-nomination', 21, 'A nomination is accepted (and reported) in a suit contract too, though it changes nothing there.', ''],
  // ---- contract values and scoring
  ['value-10nt-500', 'contract-values', 28, '10NT is worth 500 instead of 520.', ''],
  ['defenders-score-nothing', 'deal-score', 29, 'The defenders score nothing for their tricks.', 'Wikipedia lists "removing trick points" as a variation (notes §1.7).'],
  ['defenders-score-only-when-set', 'deal-score', 29, 'The defenders score 10 a trick only when the contract is defeated.', ''],
  ['no-slam-bonus', 'deal-score', 29, 'A slam scores the contract\'s value, even below 250.', ''],
  ['slam-always-250', 'deal-score', 29, 'A slam scores 250 whatever the contract is worth (a slam in 8H scores 250, not 300).', ''],
  ['overtricks-10-each', 'deal-score', 29, 'The declarers also score 10 for each trick over the contract.', ''],
  // ---- end of the game
  ['win-by-defence', 'win-on-own-contract', 32, 'A side that reaches 500 by any points (defenders\' trick points included) wins.', 'Trickster: the game ends at ±500 and the higher score wins (notes §1.9).'],
  ['win-needs-more-than-500', 'win-on-own-contract', 32, 'A side must exceed 500 to win; exactly 500 is not enough.', ''],
  ['minus-500-not-ending', 'lose-at-minus-500', 33, 'A side at -500 or lower does not lose; the game goes on.', 'Engines without the "out the back door" rule.'],
  ['minus-500-only-if-other-not-negative', 'lose-at-minus-500', 33, 'A side at -500 or lower loses only if the other side\'s score is not negative too.', 'Wikipedia lists this as a variation (notes §1.7).'],
  ['misere-not-own-contract', 'win-on-own-contract', 32, 'A made misère or open misère does not count as making one\'s own contract: it cannot win the game.', ''],
  ['lose-below-minus-500', 'lose-at-minus-500', 33, 'A side loses only below -500; exactly -500 goes on.', ''],
  ['end-check-mid-deal', 'end-check', 31, 'The game ends the moment the declarers have made a contract that takes them to 500; the rest of the deal is not played (later plays are refused as deal-over).', ''],
  ['dealer-stays-at-game-end', 'dealer-rotation', 5, 'After the deal that ends the game the dealer does not move on.', ''],
  ['defence-cap-490', 'no-ties', 34, 'Defenders\' trick points stop at 490: a defending side cannot reach 500 by defending.', 'Seed 004, listed as a variation (the 490 rule).'],

  // ==== the other rule sets: each entry names the rule point it breaks (a field of one of
  // the reference's rule components, component.field, where the rule set differs from the default) and, last, the rule
  // sets it applies to ('american-4' with any toggles; 'australian-4+inkles' only with it)
  // ---- deal
  ['widow-after-second-round', 'pack.packets', null, 'The widow is dealt after the round of four instead of after the first round of three.', '', AM3],
  ['widow-dealt-last', 'pack.packets', null, 'The widow is the last cards of the pack, after the rounds of three, four and three.', '', AM3],
  ['widow-one-card-a-round', 'pack.packets', null, 'The widow is dealt one card after each round, as in the Australian deal.', 'Seed 000, the default profile\'s deal.', AM3],
  ['first-packet-to-dealer', 'pack.packets', null, 'The first packet of each round goes to the dealer instead of the player on the dealer\'s left.', '', AM3],
  ['dead-hand-dealt-first', 'pack.dead_hands', null, 'At two, the dead hand gets its packet before the two players in each round, not after them.', '', ['american-2']],
  ['dead-hand-last-ten', 'pack.dead_hands', null, 'At two, the players and the widow are dealt as at three without the third player and the dead hand is the last ten cards.', '', ['american-2']],
  ['deck-24-widow-of-three', 'pack.kitty_size', null, 'With the 24-card deck the widow keeps three cards (one card is left undealt) and the contractor discards three.', '', ['american-2+deck-24']],
  // ---- auction
  ['bidding-goes-round', 'auction.procedure', null, 'Bidding goes round until all but one have passed (a pass is final) instead of one call each.', 'Seed 003 and the default profile bid this way.', AM],
  ['dealer-calls-first-at-other-tables', 'auction.procedure', null, 'The dealer makes the first call (with one call each, the dealer\'s call would come first instead of last).', '', AM],
  ['three-handed-one-round', 'auction.procedure', null, 'The three-handed game has one round of calls, as seed 002\'s American game.', 'Seed 002 (one opportunity each).', ['three-handed']],
  ['nullo-below-eight-spades', 'ladder.order', null, 'Nullo ranks below 8♠ (just above 7NT, the default profile\'s place for misère) instead of between 8♠ and 8♣.', 'Seed 000, the default profile\'s misère.', AM],
  ['nullo-above-eight-clubs', 'ladder.order', null, 'Nullo ranks between 8♣ and 8♦ instead of between 8♠ and 8♣.', '', AM],
  ['nullo-needs-seven', 'ladder.misere_needs', null, 'Nullo may be bid only over a seven-level bid, as the default profile\'s misère.', 'Seed 000, the default profile\'s misère.', AM],
  ['three-handed-nullo', 'ladder.order', null, 'The three-handed game has Nullo (250, between 8♠ and 8♣), as seed 002\'s American game.', 'Seed 002.', ['three-handed']],
  ['re-entry-ends-on-two-passes', 'auction.procedure', null, 'Under pass-may-re-enter the auction ends when two players pass in succession after a bid, not the three others.', '', ['australian-4+pass-may-re-enter']],
  ['blind-misere-outranks-open', 'ladder.ties', null, 'Blind misère ranks above open misère (an open misère may not be bid over it, it may be bid over open misère).', '', ['australian-4+blind-misere']],
  ['inkles-six-is-played', 'auction.inkles', null, 'Under inkles an auction won by a six is played as the contract instead of thrown in.', '', ['australian-4+inkles']],
  // ---- play
  ['nullo-partner-plays', 'table.sides', null, 'The Nullo bidder\'s partners play as usual; nobody sits out.', '', ['american-4', 'american-5', 'american-6']],
  ['nullo-ends-at-first-trick', 'misere.ends_on_declarer_trick', null, 'A Nullo ends as soon as the bidder takes a trick, as the default profile\'s misère.', 'Seed 000, the default profile\'s misère.', AM],
  ['american-joker-nomination', 'joker.nomination', null, 'The no-trump or Nullo declarer holding the joker may nominate its suit, as in the default profile.', 'Seed 000.', AM3],
  ['american-joker-lead-unled-suit', 'joker.lead_unled_suit', null, 'A suitless joker lead must name a suit not yet led (once all four are led, only to the last trick), as in the default profile.', 'Seed 000.', AM3],
  ['american-joker-must-in-nullo', 'joker.must_play_in_misere', null, 'Against Nullo a player void in the suit led must play a suitless joker, as in the default profile\'s misère.', 'Seed 000.', AM],
  ['numerals-below-ten', 'pack.deck', null, 'The six-handed 13s, 12s and 11s rank below the ten instead of between the jack and the ten.', '', ['american-6']],
  ['numerals-above-jack', 'pack.deck', null, 'The six-handed 13s, 12s and 11s rank between the queen and the jack.', '', ['american-6']],
  ['five-handed-p5-defends', 'table.sides', null, 'At five, P5 plays on East and West\'s side instead of North and South\'s.', '', ['american-5']],
  ['six-handed-p6-with-north', 'table.sides', null, 'At six, P6\'s tricks count for North\'s side instead of East\'s.', '', ['american-6']],
  ['last-trick-only-binds-nominated', 'joker.lead_last_trick_only', null, 'Under joker-leads-last-trick-only a nominated joker, too, may be led only to the last trick.', '', ['australian-4+joker-leads-last-trick-only']],
  ['double-nullo-partner-sits-out', 'misere.double_nullo', null, 'Under double-nullo the misère declarer\'s partner still sits out.', '', ['australian-4+double-nullo']],
  ['sans-kitty-in-misere', 'play.sans_kitty', null, 'Under sans-kitty a misère declarer may play without the kitty too.', '', ['australian-4+sans-kitty']],
  ['all-pass-dealer-leads', 'auction.all_pass', null, 'Under all-pass-no-trumps the dealer, not the player on the dealer\'s left, leads a passed deal.', '', AM.map((p) => `${p}+all-pass-no-trumps`)],
  ['all-pass-tricks-score-nothing', 'auction.all_pass', null, 'Under all-pass-no-trumps a passed deal is played but its tricks score nothing.', '', AM.map((p) => `${p}+all-pass-no-trumps`)],
  // ---- scoring and the end of the game
  ['american-slam-no-bonus', 'scoring.slam_value', null, 'All ten tricks score only the contract\'s value, even below 250.', '', AM3],
  ['american-defenders-score-nothing', 'scoring.defender_trick_points', null, 'The opponents score nothing for their tricks against a suit or no-trump contract.', '', AM3],
  ['nullo-defenders-score-nothing', 'misere.defender_points', null, 'A lost Nullo gives the opponents nothing, as the default profile\'s misère.', 'Seed 000.', AM],
  ['nullo-defenders-score-own-tricks', 'misere.defender_points', null, 'Against Nullo the opponents score 10 for each trick they took, not for each the bidder took.', '', AM],
  ['defender-cap-after-deal', 'scoring.defender_cap', null, 'The defender cap looks at the score after the deal: a side that would pass the cap keeps only the points up to the cap\'s edge (none once at it).', '', ['australian-4+defender-cap-490', 'australian-4+defender-cap-480']],
  ['defender-cap-above-only', 'scoring.defender_cap', null, 'The defender cap applies only to a side above the limit, not at it.', '', ['australian-4+defender-cap-490', 'australian-4+defender-cap-480']],
  ['less-twenty-misere-too', 'ladder.values', null, 'Under avondale-less-twenty the misères are worth 20 less too (230, 480).', '', ['australian-4+avondale-less-twenty']],
  ['american-lose-at-minus-500', 'end.lose_score', null, 'A player or side at -500 or lower loses and the game ends, the highest score winning.', 'Seed 000, the default profile.', AM],
  ['american-defence-cannot-win', 'end.rule', null, 'Only the contractor reaching 500 on a made contract wins; the opponents cannot win by their trick points.', 'Seed 000, the default profile.', AM3],
  ['higher-score-wins-ties', 'end.rule', null, 'When several reach 500 in one deal, the highest score wins (not the contractor first).', 'Trickster: the higher score wins (notes §1.9).', AM3],
  ['first-trick-tiebreak-ignored', 'end.rule', null, 'When only opponents reach 500 together, the higher score wins instead of the one who took the first trick.', '', AM3],
  ['fallen-player-wins-anyway', 'end.barred_at', null, 'A three-handed player who fell to -500 can still win by reaching 500 later.', 'The reading before suite 1.6 (the toggle fallen-player-may-win).', ['three-handed']],
];

const INFO = new Map(
  LIST.map(([name, slug, number, what, where, profiles = DEFAULT]) => [name, { name, slug, number, what, where, profiles }]),
);

// Whether misreading `name` acts on profile `P` (its name and its Set of toggles): one of
// its rule sets is P's profile, with at least the toggles the rule set names.
function appliesTo(name, P) {
  return INFO.get(name).profiles.some((label) => {
    const [base, ...toggles] = label.split('+');
    return P.name === base && toggles.every((t) => P.variants.has(t));
  });
}

function requested() {
  const names = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--misreading' && i + 1 < argv.length) names.push(argv[++i]);
    else if (argv[i].startsWith('--misreading=')) names.push(argv[i].slice('--misreading='.length));
  }
  const env = process.env.FIVEHUNDRED_MISREADINGS;
  if (env) names.push(...env.split(',').map((s) => s.trim()).filter(Boolean));
  return names;
}

function known(name) {
  if (!INFO.has(name)) {
    console.error(`independent-js: unknown misreading ${JSON.stringify(name)}; known: ${[...INFO.keys()].join(', ')}`);
    process.exit(2);
  }
  return name;
}

const ACTIVE = new Set(requested().map(known));

// --misreadings-for TABLE: the misreadings on depend on the scenario being run, so one
// process can try many misreadings, each on the scenarios that should catch it
// (tests/protocol/test_misreadings_caught.py).  Every name is checked at start-up.
const PER_SCENARIO = (() => {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((a) => a === '--misreadings-for' || a.startsWith('--misreadings-for='));
  if (at < 0) return null;
  const file = argv[at].includes('=') ? argv[at].slice(argv[at].indexOf('=') + 1) : argv[at + 1];
  if (ACTIVE.size > 0) {
    console.error('independent-js: --misreadings-for decides the misreadings of every scenario; it cannot go with --misreading or FIVEHUNDRED_MISREADINGS');
    process.exit(2);
  }
  if (file === undefined) {
    console.error('independent-js: --misreadings-for needs a file: {"scenario id": ["misreading", ...], ...}');
    process.exit(2);
  }
  let table;
  try {
    table = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`independent-js: --misreadings-for ${JSON.stringify(file)}: ${error.message}`);
    process.exit(2);
  }
  const lists = table !== null && typeof table === 'object' && !Array.isArray(table) ? Object.values(table) : [null];
  if (!lists.every((names) => Array.isArray(names) && names.every((n) => typeof n === 'string'))) {
    console.error(`independent-js: --misreadings-for ${JSON.stringify(file)}: expected {"scenario id": ["misreading", ...], ...}`);
    process.exit(2);
  }
  lists.forEach((names) => names.forEach(known));
  return table;
})();

function select(scenarioId) {
  // Called before each run: with a table, the scenario's own misreadings, or none.
  if (PER_SCENARIO === null) return;
  ACTIVE.clear();
  const names = Object.hasOwn(PER_SCENARIO, scenarioId) ? PER_SCENARIO[scenarioId] : [];
  for (const name of names) ACTIVE.add(name);
}

function on(name) {
  if (!INFO.has(name)) throw new Error(`unknown misreading ${name}`);
  return ACTIVE.has(name);
}

// Whether misreading `name` is on and acts on profile `P`.
function active(name, P) {
  return on(name) && appliesTo(name, P);
}

module.exports = { on, active, appliesTo, select, LIST, INFO, ACTIVE, PER_SCENARIO, DEFAULT };

if (require.main === module) {
  // node misreadings.js: the names, one a line; --table: the Markdown table of MISREADINGS.md.
  if (process.argv.includes('--table')) {
    console.log('| # | name | rule sets | breaks | what the engine does | who reads the game this way |');
    console.log('|---|---|---|---|---|---|');
    [...INFO.values()].forEach(({ name, slug, number, what, where, profiles }, i) => {
      const breaks = number === null ? `rule point \`${slug}\`` : `ruling ${number} \`${slug}\``;
      console.log(`| ${i + 1} | \`${name}\` | ${profiles.join(', ')} | ${breaks} | ${what} | ${where || '—'} |`);
    });
  } else for (const [name] of LIST) console.log(name);
}
