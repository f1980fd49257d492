#!/usr/bin/env ruby
# frozen_string_literal: true

# Protocol v1 adapter for waldo/five_hundred, a Ruby Five Hundred library
# (https://github.com/waldo/five_hundred).
#
# The engine is not part of this repository: the adapter loads it from the checkout named
# by FIVEHUNDRED_WALDO_PATH.  It maps the engine's objects onto the protocol and decides
# nothing about the rules itself: every call, discard and card goes to the engine, and
# every observation is read from the engine's own state, so the suite sees the engine's
# faults instead of an adapter's corrections.  What the engine has no call for is answered
# "skipped" with the reason (README.md lists each one).
#
#   FIVEHUNDRED_WALDO_PATH=/path/to/five_hundred \
#     fivehundred verify --impl 'ruby adapters/third-party/waldo/adapter.rb'
#
# stdout carries protocol messages only; anything else goes to stderr.

require "json"
require "open3"

PROTOCOL = 1
REPOSITORY = "https://github.com/waldo/five_hundred"
PINNED_COMMIT = "f360427cf24158904b3cdac4c5bed0e5a5f84aad"
CHECKOUT_VARIABLE = "FIVEHUNDRED_WALDO_PATH"

# Seats in protocol order; the engine's Game#players lists its players in the same
# clockwise order (team 0, team 1, team 0, team 1), so seat i is players[i].
SEATS = %w[N E S W].freeze
SIDES = { "NS" => 0, "EW" => 1 }.freeze
SUITS = { "S" => :spades, "C" => :clubs, "D" => :diamonds, "H" => :hearts }.freeze
SUIT_LETTERS = SUITS.invert.freeze

# The suite's canonical deck order (spades, clubs, diamonds, hearts, each from the ace
# down, then the joker): the order of the cards in a "DISCARD …" action string.
CANONICAL_DECK = (
  %w[S C D H].flat_map do |suit|
    ranks = %w[A K Q J 10 9 8 7 6 5]
    ranks += ["4"] if %w[D H].include?(suit)
    ranks.map { |rank| rank + suit }
  end + ["JK"]
).freeze

OBSERVATIONS = %w[
  phase to_act legal legal_count high_bid high_bidder passed contract declarer hands
  hand_sizes kitty discards nominated sitting_out trick last_trick suits_led tricks
  deal_score made scores dealer game_over winner
].freeze

# Raised for a scenario the engine cannot express: the reply is "skipped" with the reason.
class CannotExpress < StandardError; end

def checkout_hint
  "set #{CHECKOUT_VARIABLE} to a checkout of #{REPOSITORY} at #{PINNED_COMMIT} " \
    "(git clone #{REPOSITORY} DIR && git -C DIR checkout #{PINNED_COMMIT})"
end

# Loads the engine from the user's checkout, or says in one line what to do and exits.
def load_engine
  path = ENV.fetch(CHECKOUT_VARIABLE, "")
  if path.empty?
    warn "waldo adapter: #{CHECKOUT_VARIABLE} is not set; #{checkout_hint}"
    exit 2
  end
  library = File.join(path, "lib")
  unless File.file?(File.join(library, "five_hundred.rb"))
    warn "waldo adapter: #{path.inspect} has no lib/five_hundred.rb; #{checkout_hint}"
    exit 2
  end
  $LOAD_PATH.unshift(library)
  require "five_hundred"
  path
end

# The short commit of the checkout, so that a report names the engine actually tested.  A
# folder inside some other repository (or not in one at all) has no commit of its own.
def checkout_version(path)
  output, status = Open3.capture2e("git", "-C", path, "rev-parse", "--show-toplevel", "HEAD")
  top, commit = output.split("\n").map(&:strip)
  own = status.success? && top && File.realpath(top) == File.realpath(path)
  return "unknown (not a git checkout)" unless own && commit&.match?(/\A\h{40}\z/)

  if commit != PINNED_COMMIT
    warn "waldo adapter: the checkout is at #{commit}, not the pinned #{PINNED_COMMIT}"
  end
  commit[0, 7]
rescue SystemCallError
  "unknown (git not found)"
end

# ---- notation ---------------------------------------------------------------------------

def engine_card(code)
  engine_code = code == "JK" ? "Jo" : code[0..-2] + code[-1].downcase
  card = FiveHundred::Deck.card(engine_code)
  raise ArgumentError, "the engine's deck has no card for #{code}" if card.nil?

  card
end

def suite_card(card)
  return "JK" if card.joker?

  card.code[0..-2] + card.code[-1].upcase
end

def engine_bid_code(call)
  { "PASS" => "pass", "MIS" => "cm", "OMIS" => "om" }.fetch(call, call.downcase)
end

def suite_call(code)
  { "pass" => "PASS", "cm" => "MIS", "om" => "OMIS" }.fetch(code, code.upcase)
end

def suit_letter(symbol)
  SUIT_LETTERS[symbol]
end

def sorted_canonically(codes)
  codes.sort_by { |code| CANONICAL_DECK.index(code) || CANONICAL_DECK.size }
end

# ---- positions the engine cannot be given through its calls -----------------------------

# Stands first in the engine's list of rounds and carries the side totals a scenario
# starts from; Game#score_for adds every round's score, so the engine's own totals and its
# own game-end checks then start from these scores.  It decides nothing.
class ScoresBeforeTheScenario
  def initialize(by_team)
    @by_team = by_team
  end

  def score_for(team)
    @by_team.fetch(team, 0)
  end
end

# Stands in the engine's list of tricks for a trick played before a play start: the setup
# says which side won it and, at most, which suits were led, and nothing else (nobody
# showed out in it, its cards are unknown).  The engine counts it for the side that won it
# and treats it as played, so the deal ends after ten tricks, as in a game.
class TrickBeforeTheScenario
  attr_reader :winner, :led_suit

  def initialize(winner, led_suit)
    @winner = winner
    @led_suit = led_suit
  end

  def complete? = true
  def followed_suit?(_player) = true
  def card_played_by(_player) = nil
  def cards = []
  def players = []
  def first_card = nil
end

# ---- the table ----------------------------------------------------------------------------

# One scenario's game: the engine's Game and the round on the table (nil before a game
# start's first deal step).  The engine starts its next round by itself the moment a round
# ends; the protocol's table keeps showing the finished round until a deal step.
class Table
  attr_reader :game, :round

  def initialize(setup)
    @game = FiveHundred::Game.new
    dealer = SEATS.index(setup.fetch("dealer"))
    @game.instance_variable_set(:@dealer_order, [0, 1, 2, 3].rotate(dealer))
    4.times { @game.join(FiveHundred::Player.new) }
    carry_scores(setup["scores"]) if setup["scores"]
    @round = nil
    start(setup)
  end

  def players
    @game.players
  end

  def seat_of(player)
    index = players.index { |candidate| candidate.equal?(player) }
    index.nil? ? nil : SEATS[index]
  end

  def player_at(seat)
    players[SEATS.index(seat)]
  end

  def team_of_side(side)
    @game.teams[SIDES.fetch(side)]
  end

  def side_of(team)
    SIDES.key(@game.teams.index { |candidate| candidate.equal?(team) })
  end

  # ---- set-up

  def carry_scores(scores)
    carried = ScoresBeforeTheScenario.new(scores.to_h { |side, points| [team_of_side(side), points] })
    @game.rounds.unshift(carried)
  end

  def start(setup)
    case setup.fetch("start")
    when "game" then nil
    when "deck"
      @round = @game.current_round
      lay_out_deck(setup.fetch("deck"))
    when "auction"
      @round = @game.current_round
      give_hands(setup.fetch("hands"))
      @round.instance_variable_set(:@kitty, setup.fetch("kitty").map { |code| engine_card(code) })
    when "play"
      @round = @game.current_round
      start_in_play(setup)
    else
      raise CannotExpress, "unknown start #{setup['start']}"
    end
  end

  def give_hands(hands)
    hands.each { |seat, codes| player_at(seat).assign_cards(codes.map { |code| engine_card(code) }) }
  end

  # The engine deals a shuffled deck of its own; the ordered deck's hands and kitty replace
  # them, dealt in the suite's packets (3, 4, 3 to each player, one card to the kitty after
  # each round of packets) starting left of the engine's current dealer.
  def lay_out_deck(deck)
    hands = Array.new(4) { [] }
    kitty = []
    position = 0
    first = (players.index(@game.current_dealer) + 1) % 4
    [3, 4, 3].each do |size|
      4.times do |offset|
        hands[(first + offset) % 4].concat(deck[position, size])
        position += size
      end
      kitty << deck[position]
      position += 1
    end
    players.each_with_index { |player, index| player.assign_cards(hands[index].map { |code| engine_card(code) }) }
    @round.instance_variable_set(:@kitty, kitty.map { |code| engine_card(code) })
  end

  # A play start: the auction ended with the contract standing and the other three passed,
  # the declarer has discarded (the kitty and the discards are unknown, so empty), and the
  # tricks already won stand in the engine's trick list.
  def start_in_play(setup)
    raise CannotExpress, "the engine has no nomination of the joker's suit (setup names one)" if setup["nominated"]

    give_hands(setup.fetch("hands"))
    declarer = player_at(setup.fetch("declarer"))
    contract = FiveHundred::Bid.new(engine_bid_code(setup.fetch("contract")))
    bidding = @round.instance_variable_get(:@bidding_set)
    entries = bidding.instance_variable_get(:@bid_entries)
    entries << { player: declarer, bid: contract }
    players.each { |player| entries << { player: player, bid: FiveHundred::Bid.pass } unless player.equal?(declarer) }
    bidding.instance_variable_set(:@highest_bid, contract)
    bidding.instance_variable_set(:@bidders, [declarer])
    @round.instance_variable_set(:@kitty, [])
    @round.start_kitty_phase!
    @round.discard_kitty!([])
    earlier_tricks(setup)
    leader = player_at(setup.fetch("leader", setup.fetch("declarer")))
    seated = trick_set.instance_variable_get(:@players)
    raise CannotExpress, "the engine does not seat #{seat_of(leader)} in this contract" unless seated.include?(leader)

    trick_set.set_current_player(leader)
  end

  def earlier_tricks(setup)
    tricks = setup.fetch("tricks", {})
    led = (setup["suits_led"] || []).map { |letter| SUITS.fetch(letter) }
    seated = trick_set.instance_variable_get(:@players)
    earlier = []
    SIDES.each_key do |side|
      team = team_of_side(side)
      winner = seated.find { |player| player.team.equal?(team) }
      tricks.fetch(side, 0).times { earlier << TrickBeforeTheScenario.new(winner, led[earlier.size]) }
    end
    list = trick_set.instance_variable_get(:@tricks)
    list.unshift(*earlier)
  end

  # ---- reading the engine

  def trick_set
    @round.trick_set
  end

  def dealing?
    !@round.nil?
  end

  def state
    @round&.state
  end

  def contract_bid
    return nil if @round.nil? || state == :bidding

    bid = @round.highest_bid
    bid.empty? ? nil : bid
  end

  # The player the engine says is to act: its current bidder, the winning bidder at the
  # kitty, its current player in play.  The engine's calls take no seat: they always act
  # for this player, so an action by any other seat is one the engine does not take.
  def actor
    case state
    when :bidding then @round.current_bidder
    when :kitty then @round.winning_bidder
    when :playing then @round.current_player
    end
  end

  # The engine's tricks (its trick set is a null object until the auction ends).
  def tricks_of_engine
    trick_set.nil? ? [] : trick_set.instance_variable_get(:@tricks)
  end

  def real_tricks
    tricks_of_engine.grep(FiveHundred::RoundSets::Trick)
  end

  def cards_played
    real_tricks.sum { |trick| trick.cards.size }
  end
end

# ---- actions ------------------------------------------------------------------------------

ACCEPTED = { "outcome" => "accepted" }.freeze
REJECTED = { "outcome" => "rejected" }.freeze

def outcome(accepted)
  accepted ? ACCEPTED : REJECTED
end

def act(table, step)
  return new_deal(table, step.fetch("deal")) if step.key?("deal")
  raise CannotExpress, "the engine cannot record a deal's result without playing it" if step.key?("deal_result")
  raise CannotExpress, "the engine has no call to nominate the joker's suit" if step.key?("nominate")
  raise CannotExpress, "the engine has no sans-kitty call" if step.key?("sans_kitty")

  player = table.player_at(step.fetch("seat"))
  # No deal on the table, or a seat the engine does not have acting: the engine's calls
  # cannot make this action at all.
  return REJECTED unless table.dealing? && table.actor.equal?(player)

  if step.key?("call") then call(table, step.fetch("call"))
  elsif step.key?("discard") then discard(table, step.fetch("discard"))
  elsif step.key?("play") then play(table, step.fetch("play"), step["names"])
  else raise ArgumentError, "unknown step #{step.keys.join(', ')}"
  end
end

def call(table, call)
  code = engine_bid_code(call)
  return REJECTED if code == "empty" || !FiveHundred::Bid.all.key?(code) # a bid the engine does not have

  bidding = table.round.instance_variable_get(:@bidding_set)
  before = bidding.instance_variable_get(:@bid_entries).size
  table.round.bid(FiveHundred::Bid.new(code))
  outcome(bidding.instance_variable_get(:@bid_entries).size > before)
end

def discard(table, codes)
  before = table.state
  table.round.discard_kitty(codes.map { |code| engine_card(code) })
  outcome(before == :kitty && table.state == :playing)
end

def play(table, code, names)
  card = engine_card(code)
  if card.joker?
    card = joker_as_played(table, card, names)
  elsif names
    raise CannotExpress, "the engine's play call cannot name a suit with a card other than the joker"
  end
  before = table.cards_played
  table.round.play_card(card)
  outcome(table.cards_played > before)
end

# In a trump contract the engine plays the joker as itself.  In no trumps and misère it
# plays the joker as one of its suited variations: the suit named on a lead, the suit led
# when following (its trick set requires exactly that), and the bare joker when no suit is
# named on a lead (which the engine refuses).
def joker_as_played(table, joker, names)
  trump = table.trick_set.trump_suit
  return joker.variations.fetch(SUITS.fetch(names)) if names
  return joker unless %i[none misere].include?(trump)

  led = table.trick_set.current_trick.led_suit
  led.nil? ? joker : joker.variations.fetch(led)
end

# A new deal.  The engine has already dealt the next round the moment the last one ended
# (unless the game is over); the table moves to it and the ordered deck replaces the
# engine's shuffled cards.  With no next round from the engine there is nothing to deal.
def new_deal(table, deck)
  upcoming = table.game.current_round
  return REJECTED if upcoming.nil? || upcoming.equal?(table.round) || table.game.state == :complete

  table.instance_variable_set(:@round, upcoming)
  table.lay_out_deck(deck)
  ACCEPTED
end

# ---- observations ---------------------------------------------------------------------

PHASES = { bidding: "auction", kitty: "kitty", playing: "play", complete: "over" }.freeze

def sides_map
  SIDES.keys.to_h { |side| [side, yield(side)] }
end

def legal(table)
  case table.state
  when :bidding then table.round.valid_bids.map { |bid| suite_call(bid.code) }
  when :kitty then legal_discards(table)
  when :playing then legal_cards(table)
  else []
  end
end

# The engine has no list of legal discards; it judges each one.  Every three cards of the
# declarer's hand is put to the engine's own check.
def legal_discards(table)
  held = table.round.winning_bidder.cards
  held.combination(3).select { |cards| table.round.discard_kitty_valid?(cards) }.map do |cards|
    "DISCARD #{sorted_canonically(cards.map { |card| suite_card(card) }).join(' ')}"
  end.uniq
end

def legal_cards(table)
  leading = table.trick_set.current_trick.first_card?
  suitless = %i[none misere].include?(table.trick_set.trump_suit)
  table.round.valid_cards.map do |card|
    if card.joker? && suitless && leading
      letter = suit_letter(card.suit[table.trick_set.trump_suit])
      letter ? "JK:#{letter}" : "JK"
    else
      suite_card(card)
    end
  end.uniq
end

def trick_view(table, trick, with_winner)
  leader = trick.card_set.keys.first
  view = {
    "leader" => table.seat_of(leader),
    "led" => suit_letter(trick.led_suit),
    "cards" => trick.card_set.to_h { |player, card| [table.seat_of(player), suite_card(card)] }
  }
  view["winner"] = table.seat_of(trick.winner) if with_winner
  view
end

def observe_no_deal(table, key)
  case key
  when "phase" then "none"
  when "legal", "passed", "kitty", "discards", "suits_led" then []
  when "legal_count" then 0
  when "hands" then SEATS.to_h { |seat| [seat, []] }
  when "hand_sizes" then SEATS.to_h { |seat| [seat, 0] }
  when "contract", "declarer", "deal_score", "made" then nil
  when "scores", "dealer", "game_over", "winner" then observe(table, key)
  end
end

def observe(table, key)
  return observe_no_deal(table, key) if !table.dealing? && !%w[scores dealer game_over winner].include?(key)

  round = table.round
  contract = table.contract_bid
  case key
  when "phase" then PHASES.fetch(table.state)
  when "to_act" then table.actor && table.seat_of(table.actor)
  when "legal" then legal(table)
  when "legal_count" then legal(table).size
  when "high_bid" then round.highest_bid.empty? ? nil : suite_call(round.highest_bid.code)
  when "high_bidder" then round.highest_bid.empty? ? nil : table.seat_of(round.winning_bidder)
  when "passed" then table.players.select { |player| round.bid_for_player(player).passed? }.map { |player| table.seat_of(player) }
  when "contract" then contract && suite_call(contract.code)
  when "declarer" then contract && table.seat_of(round.winning_bidder)
  when "hands" then table.players.each_with_index.to_h { |player, index| [SEATS[index], player.cards.map { |card| suite_card(card) }] }
  when "hand_sizes" then table.players.each_with_index.to_h { |player, index| [SEATS[index], player.cards.size] }
  when "kitty" then round.instance_variable_get(:@kitty).map { |card| suite_card(card) }
  when "discards"
    contract && table.state != :kitty ? round.winning_bidder.discarded_kitty.map { |card| suite_card(card) } : []
  when "nominated" then nil # the engine has no nomination
  when "sitting_out" then sitting_out(table, contract)
  when "trick" then current_trick(table)
  when "last_trick" then last_trick(table)
  when "suits_led" then suits_led(table)
  when "tricks"
    contract ? sides_map { |side| round.tricks_won_for(table.team_of_side(side)) } : sides_map { 0 }
  when "deal_score"
    table.state == :complete ? sides_map { |side| round.score_for(table.team_of_side(side)) } : nil
  when "made"
    table.state == :complete && contract ? round.bid_achieved_for?(round.winning_bidder.team) == true : nil
  when "scores" then sides_map { |side| table.game.score_for(table.team_of_side(side)) }
  when "dealer" then table.seat_of(table.game.current_dealer)
  when "game_over" then table.game.state == :complete
  when "winner"
    winner = table.game.winner
    winner.is_a?(FiveHundred::Team) ? table.side_of(winner) : nil
  else raise CannotExpress, "the adapter cannot observe #{key}"
  end
end

# The seat the engine's trick set left out of a misère (it seats three players).
def sitting_out(table, contract)
  return nil unless contract&.misere?

  seated = table.trick_set.instance_variable_get(:@players)
  absent = table.players.reject { |player| seated.include?(player) }
  absent.size == 1 ? table.seat_of(absent.first) : nil
end

def current_trick(table)
  return nil unless table.state == :playing

  trick = table.trick_set.current_trick
  trick.first_card? || trick.complete? ? nil : trick_view(table, trick, false)
end

def last_trick(table)
  return nil unless table.contract_bid

  done = table.tricks_of_engine.select(&:complete?)
  last = done.last
  last.is_a?(FiveHundred::RoundSets::Trick) ? trick_view(table, last, true) : nil
end

def suits_led(table)
  return [] unless table.contract_bid

  table.tricks_of_engine.filter_map do |trick|
    next trick.led_suit if trick.is_a?(TrickBeforeTheScenario)

    trick.first_card? ? nil : trick.led_suit
  end.map { |suit| suit_letter(suit) }.compact.uniq
end

# ---- the protocol -------------------------------------------------------------------------

def run_scenario(scenario)
  profile = scenario.fetch("profile")
  raise CannotExpress, "the engine plays only the four-handed Australian game, not #{profile}" unless profile == "australian-4"
  raise CannotExpress, "the engine has no variant toggles" unless scenario.fetch("variants", []).empty?

  table = Table.new(scenario.fetch("setup"))
  steps = scenario.fetch("steps").map do |step|
    if step.key?("observe")
      { "observed" => step.fetch("observe").to_h { |key| [key, observe(table, key)] } }
    else
      act(table, step)
    end
  end
  { "steps" => steps }
end

def answer(message, implementation)
  case message["cmd"]
  when "hello"
    {
      "protocol" => PROTOCOL,
      "implementation" => implementation,
      "capabilities" => {
        "profiles" => ["australian-4"],
        "legal_actions" => true,
        "error_codes" => false,
        "observations" => OBSERVATIONS
      }
    }
  when "bye" then nil
  when "run"
    seq = message.fetch("seq")
    begin
      { "seq" => seq, "result" => run_scenario(message.fetch("scenario")) }
    rescue CannotExpress => e
      { "seq" => seq, "skipped" => { "reason" => e.message } }
    rescue StandardError => e
      context = { "id" => message.dig("scenario", "id"), "backtrace" => (e.backtrace || []).first(12) }
      { "seq" => seq, "errored" => { "message" => "#{e.class}: #{e.message}", "context" => context } }
    end
  else
    raise ArgumentError, "unknown cmd #{message['cmd'].inspect}"
  end
end

def main
  protocol_out = $stdout
  protocol_out.sync = true
  $stdout = $stderr # whatever else writes to stdout goes to stderr
  path = load_engine
  implementation = {
    "name" => "waldo/five_hundred",
    "version" => checkout_version(path),
    "language" => "ruby",
    "homepage" => REPOSITORY
  }
  $stdin.set_encoding(Encoding::UTF_8)
  $stdin.each_line do |line|
    next if line.strip.empty?

    reply = answer(JSON.parse(line), implementation)
    return 0 if reply.nil?

    protocol_out.write(JSON.generate(reply), "\n")
  end
  0
rescue JSON::ParserError, ArgumentError, KeyError => e
  warn "waldo adapter: cannot answer a message: #{e.message}"
  2
end

exit(main) if $PROGRAM_NAME == __FILE__
