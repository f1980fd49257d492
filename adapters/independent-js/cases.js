#!/usr/bin/env node
// Hand-written cases for the profiles and toggles, in the protocol's scenario shape with
// the outcome this engine's reading of the rules text expects (see README.md, "Profiles").
// Run against this engine (default) or any protocol-v1 implementation:
//
//   node adapters/independent-js/cases.js                       # this engine, in process
//   node adapters/independent-js/cases.js --impl 'fivehundred serve'
//
// Exit 1 when an outcome or observation differs.

'use strict';

const PR = require('./profiles');

const ordered = (profile, variants = []) => PR.makeProfile(profile, variants).deck;
const A = (code) => (code ? { outcome: 'rejected', code } : { outcome: 'accepted' });
const OK = A();

// Each case: [id, profile, variants, setup, [ [step, expected], ... ] ]. An observe step's
// expected value is the subset of keys to compare.
const CASES = [
  ['one-round auction (american-4)', 'american-4', [], { start: 'deck', dealer: 'N', deck: ordered('american-4') }, [
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'E', call: '7S' }, A('not-your-turn')],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'S', call: '7S' }, A('already-passed')],
    [{ seat: 'W', call: 'OMIS' }, A('bid-not-available')],
    [{ seat: 'W', call: '8S' }, OK],
    [{ observe: ['to_act', 'legal', 'high_bid'] }, { to_act: 'N', high_bid: '8S', legal: ['PASS', 'MIS', '8C', '8D', '8H', '8NT', '9S', '9C', '9D', '9H', '9NT', '10S', '10C', '10D', '10H', '10NT'] }],
    [{ seat: 'N', call: 'MIS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'to_act', 'sitting_out', 'passed'] }, { phase: 'kitty', contract: 'MIS', declarer: 'N', to_act: 'N', sitting_out: 'S', passed: ['S'] }],
  ]],
  ['Nullo needs no seven, one call each, dealer last (american-3)', 'american-3', [], { start: 'deck', dealer: 'S', deck: ordered('american-3') }, [
    [{ observe: ['to_act', 'hands', 'kitty'] }, { to_act: 'N', hands: { N: ['AS', 'KS', 'QS', '10C', '9C', '8C', '7C', 'AH', 'KH', 'QH'], E: ['JS', '10S', '9S', 'AD', 'KD', 'QD', 'JD', 'JH', '10H', '9H'], S: ['8S', '7S', 'AC', '10D', '9D', '8D', '7D', '8H', '7H', 'JK'] }, kitty: ['KC', 'QC', 'JC'] }],
    [{ seat: 'N', call: 'MIS' }, OK],
    [{ seat: 'E', call: '8S' }, A('bid-not-higher')],
    [{ seat: 'E', call: '8C' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'passed'] }, { phase: 'kitty', contract: '8C', declarer: 'E', passed: ['S'] }],
  ]],
  ['all pass, thrown in (american-2)', 'american-2', [], { start: 'deck', dealer: 'N', deck: ordered('american-2') }, [
    [{ observe: ['hand_sizes', 'kitty', 'hands'] }, { hand_sizes: { N: 10, E: 10 }, kitty: ['KC', 'QC', 'JC'], hands: { E: ['AS', 'KS', 'QS', '10C', '9C', '8C', '7C', 'AH', 'KH', 'QH'] } }],
    [{ seat: 'E', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'deal_score', 'dealer', 'scores'] }, { phase: 'over', deal_score: { N: 0, E: 0 }, dealer: 'E', scores: { N: 0, E: 0 } }],
  ]],
  ['all pass played at no trumps (american-4+all-pass-no-trumps)', 'american-4', ['all-pass-no-trumps'], { start: 'deck', dealer: 'W', deck: ordered('american-4') }, [
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', call: 'PASS' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ observe: ['phase', 'to_act', 'contract', 'declarer', 'kitty'] }, { phase: 'play', to_act: 'N', contract: null, declarer: null, kitty: ['QC', 'JC', '10C'] }],
    [{ seat: 'N', nominate: 'S' }, A('nomination-not-allowed')],
  ]],
  ['raise after all pass (australian-4+raise-after-all-pass)', 'australian-4', ['raise-after-all-pass'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '7S' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'to_act', 'legal_count', 'passed'] }, { phase: 'auction', to_act: 'E', legal_count: 22, passed: ['S', 'W', 'N'] }],
    [{ seat: 'E', call: '7S' }, A('bid-not-higher')],
    [{ seat: 'E', call: 'MIS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'sitting_out'] }, { phase: 'kitty', contract: 'MIS', declarer: 'E', sitting_out: 'W' }],
  ]],
  ['blind misère on the first call only (australian-4+blind-misere)', 'australian-4', ['blind-misere'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: '7S' }, OK],
    [{ seat: 'N', call: 'BMIS' }, OK],
    [{ seat: 'E', call: 'OMIS' }, A('bid-not-higher')],
    [{ seat: 'E', call: 'BMIS' }, A('blind-misere-first-call')],
    [{ seat: 'E', call: '10H' }, OK],
    [{ seat: 'W', call: 'BMIS' }, A('blind-misere-first-call')],
    [{ observe: ['legal'] }, { legal: ['PASS', '10NT'] }],
  ]],
  ['blind misère after one\'s own bid is refused (australian-4+blind-misere)', 'australian-4', ['blind-misere'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract'] }, { phase: 'kitty', contract: '6S' }],
  ]],
  ['blind misère refused on a later call (australian-4+blind-misere)', 'australian-4', ['blind-misere'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'S', call: '6C' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', call: 'BMIS' }, A('blind-misere-first-call')],
    [{ observe: ['legal'] }, { legal: ['PASS', '6D', '6H', '6NT', '7S', '7C', '7D', '7H', '7NT', '8S', '8C', '8D', '8H', '8NT', '9S', '9C', '9D', '9H', '9NT', '10S', '10C', '10D', 'OMIS', '10H', '10NT'] }],
  ]],
  ['joker led only to the last trick (australian-4+joker-leads-last-trick-only)', 'australian-4', ['joker-leads-last-trick-only'], {
    start: 'play', dealer: 'W', contract: '7NT', declarer: 'N', leader: 'N', tricks: { NS: 5, EW: 3 },
    hands: { N: ['JK', 'AS'], E: ['KS', 'KC'], S: ['QS', 'QC'], W: ['JS', 'JC'] } }, [
    [{ observe: ['legal'] }, { legal: ['AS'] }],
    [{ seat: 'N', play: 'JK', names: 'H' }, A('joker-lead-last-trick-only')],
    [{ seat: 'N', play: 'AS' }, OK],
    [{ seat: 'E', play: 'KS' }, OK],
    [{ seat: 'S', play: 'QS' }, OK],
    [{ seat: 'W', play: 'JS' }, OK],
    [{ observe: ['legal'] }, { legal: ['JK:C', 'JK:D', 'JK:H'] }],
  ]],
  ['Nullo in six-handed: two partners out, played out, opponents paid (american-6)', 'american-6', [], {
    start: 'play', dealer: 'P6', contract: 'MIS', declarer: 'N', leader: 'E', tricks: { NSP5: 1, EWP6: 7 },
    hands: { N: ['AS', '2C'], E: ['KS', '3C'], S: [], W: ['QS', '4C'], P5: [], P6: ['JS', '5C'] } }, [
    [{ observe: ['sitting_out', 'to_act'] }, { sitting_out: 'S', to_act: 'E' }],
    [{ seat: 'E', play: 'KS' }, OK],
    [{ seat: 'W', play: 'QS' }, OK],
    [{ seat: 'P6', play: 'JS' }, OK],
    [{ seat: 'N', play: 'AS' }, OK],
    [{ observe: ['phase', 'to_act', 'tricks'] }, { phase: 'play', to_act: 'N', tricks: { NSP5: 2, EWP6: 7 } }],
    [{ seat: 'N', play: '2C' }, OK],
    [{ seat: 'E', play: '3C' }, OK],
    [{ seat: 'W', play: '4C' }, OK],
    [{ seat: 'P6', play: '5C' }, OK],
    [{ observe: ['phase', 'made', 'deal_score', 'scores'] }, { phase: 'over', made: false, deal_score: { NSP5: -250, EWP6: 20 }, scores: { NSP5: -250, EWP6: 20 } }],
  ]],
  ['American joker: led naming any suit, never compulsory (american-4)', 'american-4', [], {
    start: 'play', dealer: 'W', contract: '6NT', declarer: 'N', leader: 'E', tricks: { NS: 4, EW: 4 }, suits_led: ['S', 'C', 'D', 'H'],
    hands: { N: ['AH', 'KH'], E: ['JK', '5S'], S: ['AS', 'KS'], W: ['QS', 'QH'] } }, [
    [{ observe: ['legal'] }, { legal: ['5S', 'JK:S', 'JK:C', 'JK:D', 'JK:H'] }],
    [{ seat: 'E', play: 'JK', names: 'H' }, OK],
    [{ seat: 'S', play: 'AS' }, OK],
    [{ seat: 'W', play: 'QS' }, A('must-follow-suit')],
    [{ seat: 'W', play: 'QH' }, OK],
    [{ seat: 'N', play: 'KH' }, OK],
    [{ observe: ['last_trick'] }, { last_trick: { leader: 'E', led: 'H', winner: 'E' } }],
  ]],
  ['Nullo: joker never nominated, a void player need not play it (american-4)', 'american-4', [], {
    start: 'play', dealer: 'W', contract: 'MIS', declarer: 'N', tricks: { NS: 0, EW: 0 },
    hands: { N: ['2S', '5C', '6C', '7C', '8C', '9C', '10C', 'JC', 'QC', 'KC'].filter((c) => c !== '2S').concat(['5S']), E: ['JK', 'AD', 'KD', 'QD', 'JD', '10D', '9D', '8D', '7D', '6D'], S: [], W: ['AS', 'KS', 'QS', 'JS', '10S', '9S', '8S', '7S', '6S', 'AC'] } }, [
    [{ seat: 'N', nominate: 'S' }, A('nomination-not-allowed')],
    [{ seat: 'N', play: '5C' }, OK],
    [{ observe: ['legal'] }, { legal: ['JK', 'AD', 'KD', 'QD', 'JD', '10D', '9D', '8D', '7D', '6D'] }],
    [{ seat: 'E', play: 'AD' }, OK],
  ]],
  ['three-handed: a defender reaching 500 wins; −500 does not end (three-handed)', 'three-handed', [], {
    start: 'play', dealer: 'S', contract: '6S', declarer: 'N', leader: 'N', tricks: { N: 5, E: 4, S: 0 }, scores: { N: -480, E: 460, S: 0 },
    hands: { N: ['7H'], E: ['AH'], S: ['8H'] } }, [
    [{ seat: 'N', play: '7H' }, OK],
    [{ seat: 'E', play: 'AH' }, OK],
    [{ seat: 'S', play: '8H' }, OK],
    [{ observe: ['deal_score', 'scores', 'game_over', 'winner'] }, { deal_score: { N: -40, E: 50, S: 0 }, scores: { N: -520, E: 510, S: 0 }, game_over: true, winner: 'E' }],
  ]],
  ['defender cap, reading 1 (australian-4+defender-cap-490)', 'australian-4', ['defender-cap-490'], { start: 'game', dealer: 'N', scores: { NS: 0, EW: 470 } }, [
    [{ deal_result: { contract: '6S', declarer: 'N', tricks: 6 } }, OK],
    [{ observe: ['deal_score', 'scores', 'game_over'] }, { deal_score: { NS: 40, EW: 40 }, scores: { NS: 40, EW: 510 }, game_over: false }],
    [{ deal_result: { contract: '6S', declarer: 'N', tricks: 6 } }, OK],
    [{ observe: ['deal_score', 'scores'] }, { deal_score: { NS: 40, EW: 0 }, scores: { NS: 80, EW: 510 } }],
  ]],
  ['no misère at all (australian-4+no-misere)', 'australian-4', ['no-misere'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'OMIS' }, A('bid-not-available')],
    [{ seat: 'E', call: '7S' }, OK],
    [{ seat: 'S', call: 'MIS' }, A('bid-not-available')],
  ]],
  ['misère as the first bid (australian-4+misere-without-seven)', 'australian-4', ['misere-without-seven'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'MIS' }, OK],
    [{ seat: 'S', call: '7NT' }, A('bid-not-higher')],
    [{ seat: 'S', call: '8S' }, OK],
  ]],
  ['six-handed numerals rank between the ten and the jack (american-6)', 'american-6', [], {
    start: 'play', dealer: 'P6', contract: '6H', declarer: 'N', leader: 'N', tricks: { NSP5: 5, EWP6: 4 },
    hands: { N: ['10D'], E: ['11D'], S: ['13D'], W: ['12D'], P5: ['2D'], P6: ['9D'] } }, [
    [{ seat: 'N', play: '10D' }, OK], [{ seat: 'E', play: '11D' }, OK], [{ seat: 'S', play: '13D' }, OK],
    [{ seat: 'W', play: '12D' }, OK], [{ seat: 'P5', play: '2D' }, OK], [{ seat: 'P6', play: '9D' }, OK],
    [{ observe: ['last_trick', 'tricks'] }, { last_trick: { winner: 'S' }, tricks: { NSP5: 6, EWP6: 4 } }],
  ]],

  // ---- the toggles of suite 1.3 (site/profiles/variants.md)
  ['one sits out: american-4\'s game at a table of four (american-5+one-sits-out)', 'american-5', ['one-sits-out'], { start: 'deck', dealer: 'N', deck: ordered('american-4') }, [
    [{ observe: ['hand_sizes', 'kitty', 'scores', 'to_act'] }, { hand_sizes: { N: 10, E: 10, S: 10, W: 10 }, kitty: ['QC', 'JC', '10C'], scores: { NS: 0, EW: 0 }, to_act: 'E' }],
    [{ seat: 'E', call: 'MIS' }, OK],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'sitting_out'] }, { phase: 'kitty', contract: 'MIS', declarer: 'E', sitting_out: 'W' }],
  ]],
  ['the dealer rests: three play american-3\'s game (american-4+dealer-sits-out)', 'american-4', ['dealer-sits-out'], { start: 'deck', dealer: 'W', deck: ordered('american-4', ['dealer-sits-out']) }, [
    [{ observe: ['hands', 'kitty', 'to_act', 'scores', 'sitting_out'] }, { hands: { N: ['AS', 'KS', 'QS', '10C', '9C', '8C', '7C', 'AH', 'KH', 'QH'], E: ['JS', '10S', '9S', 'AD', 'KD', 'QD', 'JD', 'JH', '10H', '9H'], S: ['8S', '7S', 'AC', '10D', '9D', '8D', '7D', '8H', '7H', 'JK'], W: [] }, kitty: ['KC', 'QC', 'JC'], to_act: 'N', scores: { N: 0, E: 0, S: 0, W: 0 }, sitting_out: null }],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'W', call: '7S' }, A('not-your-turn')],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'passed'] }, { phase: 'kitty', contract: '6S', declarer: 'E', passed: ['N', 'S'] }],
    [{ seat: 'E', discard: ['KC', 'QC', 'JC'] }, OK],
    [{ seat: 'E', play: 'JS' }, OK],
    [{ seat: 'S', play: '8S' }, OK],
    [{ observe: ['to_act'] }, { to_act: 'N' }],
    [{ seat: 'N', play: 'AS' }, OK],
    [{ observe: ['last_trick', 'tricks', 'to_act'] }, { last_trick: { leader: 'E', winner: 'E', cards: { E: 'JS', S: '8S', N: 'AS' } }, tricks: { N: 0, E: 1, S: 0, W: 0 }, to_act: 'E' }],
  ]],
  ['the dealer rests: scores nothing, not even from a Nullo (american-4+dealer-sits-out)', 'american-4', ['dealer-sits-out'], { start: 'game', dealer: 'W' }, [
    [{ deal_result: { contract: '6S', declarer: 'E', tricks: { N: 2, E: 6, S: 2, W: 0 } } }, OK],
    [{ observe: ['deal_score', 'dealer'] }, { deal_score: { N: 20, E: 40, S: 20, W: 0 }, dealer: 'N' }],
    [{ deal_result: { contract: 'MIS', declarer: 'E', tricks: 1 } }, OK],
    [{ observe: ['deal_score', 'scores', 'dealer'] }, { deal_score: { N: 0, E: -250, S: 10, W: 10 }, scores: { N: 20, E: -210, S: 30, W: 10 }, dealer: 'E' }],
  ]],
  ['all pass at no trumps, the dealer resting (american-4+dealer-sits-out+all-pass-no-trumps)', 'american-4', ['dealer-sits-out', 'all-pass-no-trumps'], { start: 'deck', dealer: 'S', deck: ordered('american-4', ['dealer-sits-out']) }, [
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', call: 'PASS' }, OK],
    [{ observe: ['phase', 'to_act', 'contract', 'hand_sizes'] }, { phase: 'play', to_act: 'W', contract: null, hand_sizes: { N: 10, E: 10, S: 0, W: 10 } }],
  ]],
  ['three sides of two: partners opposite, one sits out of a Nullo (american-6+three-sides-of-two)', 'american-6', ['three-sides-of-two'], {
    start: 'play', dealer: 'P6', contract: 'MIS', declarer: 'N', leader: 'E', tricks: { NW: 1, EP5: 4, SP6: 3 },
    hands: { N: ['AS', '2C'], E: ['KS', '3C'], S: ['QS', '4C'], W: [], P5: ['JS', '5C'], P6: ['10S', '6C'] } }, [
    [{ observe: ['sitting_out', 'to_act'] }, { sitting_out: 'W', to_act: 'E' }],
    [{ seat: 'E', play: 'KS' }, OK], [{ seat: 'S', play: 'QS' }, OK], [{ seat: 'P5', play: 'JS' }, OK],
    [{ seat: 'P6', play: '10S' }, OK], [{ seat: 'N', play: 'AS' }, OK],
    [{ seat: 'N', play: '2C' }, OK], [{ seat: 'E', play: '3C' }, OK], [{ seat: 'S', play: '4C' }, OK],
    [{ seat: 'P5', play: '5C' }, OK], [{ seat: 'P6', play: '6C' }, OK],
    [{ observe: ['phase', 'made', 'deal_score'] }, { phase: 'over', made: false, deal_score: { NW: -250, EP5: 20, SP6: 20 } }],
  ]],
  ['open misère shown after the opening lead (australian-4+open-misere-shown-after-lead)', 'australian-4', ['open-misere-shown-after-lead'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'OMIS' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', discard: ['AS', 'KS', 'QS'] }, OK],
    [{ observe: ['exposed'] }, { exposed: null }],
    [{ seat: 'E', play: 'JC' }, OK],
    [{ observe: ['exposed'] }, { exposed: ['10C', '9C', '8C', '4D', 'AH', 'KH', 'QC', '5D', 'JK'] }],
  ]],
  ['open misère shown before the opening lead (australian-4+open-misere-shown-before-lead)', 'australian-4', ['open-misere-shown-before-lead'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'OMIS' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['exposed'] }, { exposed: null }],
    [{ seat: 'E', discard: ['AS', 'KS', 'QS'] }, OK],
    [{ observe: ['exposed'] }, { exposed: ['JC', '10C', '9C', '8C', '4D', 'AH', 'KH', 'QC', '5D', 'JK'] }],
  ]],
  ['the dealer\'s left leads, skipping the misère partner (australian-4+dealers-left-leads)', 'australian-4', ['dealers-left-leads'], { start: 'deck', dealer: 'W', deck: ordered('australian-4') }, [
    [{ seat: 'N', call: '7S' }, OK], [{ seat: 'E', call: 'PASS' }, OK], [{ seat: 'S', call: 'MIS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'S', discard: ['8S', '7S', '6S'] }, OK],
    [{ observe: ['to_act', 'sitting_out'] }, { to_act: 'E', sitting_out: 'N' }],
    [{ seat: 'S', play: 'KD' }, A('not-your-turn')],
  ]],
  ['no slam bonus: ten tricks score the contract only (australian-4+no-slam-bonus)', 'australian-4', ['no-slam-bonus'], { start: 'game', dealer: 'N' }, [
    [{ deal_result: { contract: '6S', declarer: 'E', tricks: 10 } }, OK],
    [{ observe: ['deal_score'] }, { deal_score: { NS: 0, EW: 40 } }],
    [{ deal_result: { contract: 'MIS', declarer: 'N', tricks: 0 } }, OK],
    [{ observe: ['deal_score'] }, { deal_score: { NS: 250, EW: 0 } }],
  ]],
  ['contracts worth their Avondale value less twenty (australian-4+avondale-less-twenty)', 'australian-4', ['avondale-less-twenty'], { start: 'game', dealer: 'N' }, [
    [{ deal_result: { contract: '6S', declarer: 'E', tricks: 6 } }, OK],
    [{ observe: ['deal_score'] }, { deal_score: { NS: 40, EW: 20 } }],
    [{ deal_result: { contract: '7H', declarer: 'E', tricks: 6 } }, OK],
    [{ observe: ['deal_score'] }, { deal_score: { NS: 40, EW: -180 } }],
    [{ deal_result: { contract: '6NT', declarer: 'N', tricks: 10 } }, OK],
    [{ observe: ['deal_score'] }, { deal_score: { NS: 250, EW: 0 } }],
    [{ deal_result: { contract: 'OMIS', declarer: 'N', tricks: 1 } }, OK],
    [{ observe: ['deal_score', 'scores'] }, { deal_score: { NS: -500, EW: 0 }, scores: { NS: -170, EW: -160 } }],
  ]],
  ['the forty-five-card pack: a kitty of five (australian-4+forty-five-card-pack)', 'australian-4', ['forty-five-card-pack'], { start: 'deck', dealer: 'N', deck: ordered('australian-4', ['forty-five-card-pack']) }, [
    [{ observe: ['hands', 'kitty'] }, { hands: { E: ['AS', 'KS', 'QS', 'JC', '10C', '9C', '8C', '4D', 'AH', 'KH'], N: ['5S', '4S', 'AC', '10D', '9D', '8D', '7D', '6H', '5H', '4H'] }, kitty: ['KC', 'QC', '6D', '5D', 'JK'] }],
    [{ seat: 'E', call: '6S' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['legal_count', 'hand_sizes'] }, { legal_count: 3003, hand_sizes: { N: 10, E: 15, S: 10, W: 10 } }],
    [{ seat: 'E', discard: ['KC', 'QC', '6D'] }, A('discard-needs-three')],
    [{ seat: 'E', discard: ['KC', 'QC', '6D', '5D', '4D'] }, OK],
    [{ observe: ['phase', 'to_act', 'hand_sizes'] }, { phase: 'play', to_act: 'E', hand_sizes: { N: 10, E: 10, S: 10, W: 10 } }],
  ]],
  ['a passed player may bid again (australian-4+pass-may-re-enter)', 'australian-4', ['pass-may-re-enter'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'PASS' }, OK],
    [{ seat: 'S', call: '6S' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['to_act', 'passed'] }, { to_act: 'E', passed: ['E', 'W', 'N'] }],
    [{ seat: 'E', call: '6C' }, OK],
    [{ observe: ['to_act', 'passed'] }, { to_act: 'S', passed: ['W', 'N'] }],
    [{ seat: 'S', call: 'PASS' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer'] }, { phase: 'kitty', contract: '6C', declarer: 'E' }],
  ]],
  ['four passes to start throw the deal in (australian-4+pass-may-re-enter)', 'australian-4', ['pass-may-re-enter'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'PASS' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'dealer'] }, { phase: 'over', contract: null, dealer: 'E' }],
  ]],
  ['inkles: a six only as a first call, and never the contract (australian-4+inkles)', 'australian-4', ['inkles'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '6S' }, OK],
    [{ seat: 'S', call: '6C' }, OK],
    [{ seat: 'W', call: 'PASS' }, OK],
    [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', call: '6H' }, A('six-bid-first-call')],
    [{ observe: ['legal'] }, { legal: ['PASS', '7S', '7C', '7D', '7H', '7NT', '8S', '8C', '8D', '8H', '8NT', '9S', '9C', '9D', '9H', '9NT', '10S', '10C', '10D', 'OMIS', '10H', '10NT'] }],
    [{ seat: 'E', call: 'PASS' }, OK],
    [{ observe: ['phase', 'contract', 'declarer', 'deal_score', 'kitty', 'dealer'] }, { phase: 'over', contract: null, declarer: null, deal_score: { NS: 0, EW: 0 }, kitty: ['QC', '5D', 'JK'], dealer: 'E' }],
  ]],
  ['double nullo: the partner plays and discards after the declarer (australian-4+double-nullo)', 'australian-4', ['double-nullo'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '7S' }, OK], [{ seat: 'S', call: 'MIS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK], [{ seat: 'E', call: 'PASS' }, OK],
    [{ observe: ['phase', 'to_act', 'sitting_out'] }, { phase: 'kitty', to_act: 'S', sitting_out: null }],
    [{ seat: 'S', discard: ['JS', '10S', '9S'] }, OK],
    [{ observe: ['phase', 'to_act', 'hand_sizes', 'discards'] }, { phase: 'kitty', to_act: 'N', hand_sizes: { N: 13, E: 10, S: 10, W: 10 }, discards: [] }],
    [{ seat: 'S', discard: ['7C', '6C', '5C'] }, A('not-your-turn')],
    [{ seat: 'N', discard: ['JS', '10S', '9S'] }, OK],
    [{ observe: ['phase', 'to_act', 'hand_sizes', 'discards'] }, { phase: 'play', to_act: 'S', hand_sizes: { N: 10, E: 10, S: 10, W: 10 }, discards: ['JS', '10S', '9S'] }],
  ]],
  ['sans kitty: the kitty goes back face down (australian-4+sans-kitty)', 'australian-4', ['sans-kitty'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: '6NT' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['legal_count', 'kitty'] }, { legal_count: 287, kitty: [] }],
    [{ seat: 'S', sans_kitty: true }, A('not-your-turn')],
    [{ seat: 'E', sans_kitty: true }, OK],
    [{ observe: ['phase', 'to_act', 'kitty', 'discards', 'hands'] }, { phase: 'play', to_act: 'E', kitty: ['QC', '5D', 'JK'], discards: [], hands: { E: ['AS', 'KS', 'QS', 'JC', '10C', '9C', '8C', '4D', 'AH', 'KH'] } }],
    [{ seat: 'E', sans_kitty: true }, A('wrong-phase')],
    [{ seat: 'E', nominate: 'H' }, A('nomination-not-allowed')],
  ]],
  ['sans kitty refused in a misère, and without the toggle (australian-4+sans-kitty)', 'australian-4', ['sans-kitty'], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', call: 'OMIS' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ observe: ['legal_count'] }, { legal_count: 286 }],
    [{ seat: 'E', sans_kitty: true }, A('sans-kitty-not-allowed')],
  ]],
  ['sans kitty without the toggle (australian-4)', 'australian-4', [], { start: 'deck', dealer: 'N', deck: ordered('australian-4') }, [
    [{ seat: 'E', sans_kitty: true }, A('wrong-phase')],
    [{ seat: 'E', call: '6S' }, OK], [{ seat: 'S', call: 'PASS' }, OK], [{ seat: 'W', call: 'PASS' }, OK], [{ seat: 'N', call: 'PASS' }, OK],
    [{ seat: 'E', sans_kitty: true }, A('sans-kitty-not-allowed')],
  ]],
  ['double nullo: a trick to the partner breaks it (australian-4+double-nullo)', 'australian-4', ['double-nullo'], {
    start: 'play', dealer: 'W', contract: 'MIS', declarer: 'N', leader: 'N', tricks: { NS: 0, EW: 9 },
    hands: { N: ['5S'], E: ['6S'], S: ['KS'], W: ['7S'] } }, [
    [{ seat: 'N', play: '5S' }, OK], [{ seat: 'E', play: '6S' }, OK], [{ seat: 'S', play: 'KS' }, OK], [{ seat: 'W', play: '7S' }, OK],
    [{ observe: ['phase', 'made', 'deal_score'] }, { phase: 'over', made: false, deal_score: { NS: -250, EW: 0 } }],
  ]],
];

// ---- running -------------------------------------------------------------------------
const SET_KEYS = new Set(['legal', 'passed', 'kitty', 'discards', 'suits_led', 'exposed']);
function canon(key, v) {
  if (Array.isArray(v) && (SET_KEYS.has(key) || key === 'sitting_out')) return JSON.stringify([...v].sort());
  if (key === 'hands' && v) return JSON.stringify(Object.fromEntries(Object.keys(v).sort().map((s) => [s, [...v[s]].sort()])));
  return JSON.stringify(v, v && typeof v === 'object' ? Object.keys(v).sort() : undefined);
}
function subsetOf(exp, got) {
  // trick objects: compare only the fields given
  if (exp && typeof exp === 'object' && !Array.isArray(exp) && got && typeof got === 'object') {
    return Object.keys(exp).every((k) => subsetOf(exp[k], got[k]));
  }
  return JSON.stringify(exp) === JSON.stringify(got);
}

async function main() {
  const i = process.argv.indexOf('--impl');
  let run;
  let peer = null;
  if (i >= 0) {
    const { spawn } = require('node:child_process');
    const readline = require('node:readline');
    const words = process.argv[i + 1].split(/\s+/).filter(Boolean);
    const proc = spawn(words[0], words.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    const waiting = [];
    readline.createInterface({ input: proc.stdout }).on('line', (l) => waiting.shift()(JSON.parse(l)));
    const send = (m) => new Promise((res) => { waiting.push(res); proc.stdin.write(`${JSON.stringify(m)}\n`); });
    const hello = await send({ cmd: 'hello', protocol: 1, suite: '1.1.0' });
    peer = { proc, hello };
    let seq = 0;
    run = (scenario) => send({ cmd: 'run', seq: ++seq, scenario });
  } else {
    const { setUp, Rejected } = require('./engine');
    run = async (sc) => {
      const g = setUp(sc.setup, sc.profile, sc.variants || []);
      const steps = sc.steps.map((st) => {
        if ('observe' in st) return { observed: Object.fromEntries(st.observe.map((k) => [k, g.observe(k)])) };
        try {
          if ('call' in st) g.call(st.seat, st.call);
          else if ('discard' in st) g.discard(st.seat, st.discard);
          else if ('sans_kitty' in st) g.sansKitty(st.seat);
          else if ('nominate' in st) g.nominate(st.seat, st.nominate);
          else if ('play' in st) g.play(st.seat, st.play, st.names);
          else if ('deal' in st) g.newDeal(st.deal);
          else if ('deal_result' in st) g.recordResult(st.deal_result);
          return { outcome: 'accepted' };
        } catch (e) {
          if (e instanceof Rejected) return { outcome: 'rejected', code: e.code };
          throw e;
        }
      });
      return { result: { steps } };
    };
  }
  let bad = 0;
  for (const [title, profile, variants, setup, pairs] of CASES) {
    const scenario = { id: 'ZZZZ', profile, setup, steps: pairs.map(([s]) => s) };
    if (variants.length) scenario.variants = variants;
    const reply = await run(scenario);
    if (!reply.result) {
      bad++;
      console.log(`✗ ${title}: ${JSON.stringify(reply.skipped || reply.errored).slice(0, 300)}`);
      continue;
    }
    const diffs = [];
    pairs.forEach(([step, exp], k) => {
      const got = reply.result.steps[k];
      if ('observe' in step) {
        for (const key of Object.keys(exp)) {
          const g = got.observed[key];
          const only = (o) => (o && key === 'hands' ? Object.fromEntries(Object.keys(exp[key]).map((s) => [s, o[s]])) : o);
          const ok = key === 'trick' || key === 'last_trick' ? subsetOf(exp[key], g) : canon(key, exp[key]) === canon(key, only(g));
          if (!ok) diffs.push(`step ${k + 1} ${key}: expected ${JSON.stringify(exp[key])}, got ${JSON.stringify(g)}`);
        }
      } else if (got.outcome !== exp.outcome || (exp.code && got.code !== exp.code)) {
        diffs.push(`step ${k + 1} ${JSON.stringify(step)}: expected ${JSON.stringify(exp)}, got ${JSON.stringify(got)}`);
      }
    });
    if (diffs.length) bad++;
    console.log(`${diffs.length ? '✗' : '✓'} ${title}${diffs.map((d) => `\n    ${d}`).join('')}`);
  }
  if (peer) peer.proc.stdin.end('{"cmd":"bye"}\n');
  console.log(`${CASES.length - bad} of ${CASES.length} cases as expected`);
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) main();
module.exports = { CASES };
