# frozen_string_literal: true

# A fake of the part of waldo/five_hundred's API that adapters/third-party/waldo/adapter.rb
# calls: the same class names, methods and instance variables, with simple made-up
# behaviour, so that the adapter's mapping is tested without the engine (which this
# repository never holds).  It is not the engine and not a Five Hundred engine: bids rank
# by one ladder, a card must follow the suit led when it can, the highest card of the suit
# led wins (the joker above all), a made contract scores 100, the defenders 10 a trick, and
# 500 ends the game.  The dealer moves left after every deal.

module FiveHundred
  SUIT_SYMBOLS = { "s" => :spades, "c" => :clubs, "d" => :diamonds, "h" => :hearts }.freeze
  RANK_VALUES = %w[4 5 6 7 8 9 10 J Q K A].each_with_index.to_h { |rank, index| [rank, index + 4] }.freeze

  # A card: its code in the engine's notation ("10h", "Jo"), its suit under every trump
  # (a Hash, as the adapter reads card.suit[trump]) and, for the joker, suited copies.
  class FakeCard
    attr_reader :code, :suit, :value, :variations

    def initialize(code, suit_symbol, value, variations = {})
      @code = code
      @suit = Hash.new(suit_symbol)
      @value = value
      @variations = variations
    end

    def joker?
      @code == "Jo"
    end

    def ==(other)
      other.is_a?(FakeCard) && other.code == code && other.suit[nil] == suit[nil]
    end
  end

  class Deck
    def self.all_cards
      @all_cards ||= begin
        plain = SUIT_SYMBOLS.flat_map do |letter, symbol|
          ranks = RANK_VALUES.keys
          ranks -= ["4"] if %w[s c].include?(letter)
          ranks.map { |rank| FakeCard.new(rank + letter, symbol, RANK_VALUES.fetch(rank)) }
        end
        copies = SUIT_SYMBOLS.values.to_h { |symbol| [symbol, FakeCard.new("Jo", symbol, 99)] }
        plain + [FakeCard.new("Jo", :none, 99, copies)]
      end
    end

    def self.card(code)
      all_cards.find { |card| card.code == code }
    end
  end

  class Bid
    LADDER = %w[empty 6s 6c 6d 6h 6nt 7s 7c 7d 7h 7nt cm 8s 8c 8d 8h 8nt 9s 9c 9d 9h 9nt
                10s 10c 10d om 10h 10nt].freeze
    TRUMPS = { "s" => :spades, "c" => :clubs, "d" => :diamonds, "h" => :hearts, "nt" => :none }.freeze

    attr_reader :code

    def self.all
      (LADDER + ["pass"]).to_h { |code| [code, {}] }
    end

    def self.pass
      new("pass")
    end

    def self.empty
      new("empty")
    end

    def initialize(code)
      raise ArgumentError, "no bid #{code}" unless Bid.all.key?(code)

      @code = code
    end

    def empty? = @code == "empty"
    def passed? = @code == "pass"
    def misere? = %w[cm om].include?(@code)
    def ==(other) = other.is_a?(Bid) && other.code == code

    def level
      misere? ? 0 : @code.to_i
    end

    def suit
      return :misere if misere?

      TRUMPS.fetch(@code.sub(/\A\d+/, ""), :none)
    end

    def above?(other)
      LADDER.index(code) > LADDER.index(other.code)
    end
  end

  class Team
    attr_reader :players

    def initialize
      @players = []
    end
  end

  class Player
    attr_accessor :team
    attr_reader :cards, :discarded_kitty

    def initialize
      @cards = []
      @discarded_kitty = []
    end

    def assign_cards(cards)
      @cards = cards.dup
    end

    def holds?(card)
      @cards.any? { |held| held.code == card.code }
    end

    def give_up(card)
      @cards.reject! { |held| held.code == card.code }
    end

    def take_kitty(cards)
      @cards += cards
    end

    def lay_away(cards)
      @discarded_kitty = cards
      cards.each { |card| give_up(card) }
    end
  end

  # Answers nil? with true, like the engine's placeholder before the auction ends.
  class Nothing
    def nil? = true
  end

  module RoundSets
    class Bidding
      def initialize(bidders)
        @bidders = bidders
        @highest_bid = Bid.empty
        @bid_entries = [{ player: nil, bid: Bid.empty }]
      end

      attr_reader :highest_bid

      def current_bidder = @bidders.first
      def passes = @bid_entries.count { |entry| entry[:bid].passed? }
      def over? = (passes >= 3 && !@highest_bid.empty?) || passes == 4

      def acceptable?(bid)
        !over? && (bid.passed? || bid.above?(@highest_bid))
      end

      def bid(bid)
        return nil unless acceptable?(bid)

        @bid_entries << { player: current_bidder, bid: bid }
        if bid.passed?
          @bidders.shift
        else
          @highest_bid = bid
          @bidders.rotate!
        end
        true
      end

      def winning_bidder
        @bid_entries.reverse.find { |entry| !entry[:bid].passed? && !entry[:bid].empty? }&.fetch(:player)
      end

      def bid_for_player(player)
        entry = @bid_entries.reverse.find { |candidate| candidate[:player].equal?(player) }
        entry ? entry[:bid] : Bid.empty
      end
    end

    class Trick
      attr_reader :card_set

      def initialize(seats)
        @seats = seats
        @card_set = {}
      end

      def first_card? = @card_set.empty?
      def complete? = @card_set.size == @seats
      def cards = @card_set.values

      def led_suit
        first = @card_set.values.first
        first&.suit&.[](nil)
      end

      def winner
        return nil unless complete?

        @card_set.max_by { |_player, card| card.joker? || card.suit[nil] == led_suit ? card.value : 0 }.first
      end
    end

    class TrickSet
      attr_reader :trump_suit

      def initialize(trump_suit, players)
        @trump_suit = trump_suit
        @players = players.dup
        @players.delete_at(2) if trump_suit == :misere
        @tricks = [Trick.new(@players.size)]
      end

      def current_trick = @tricks.last
      def current_player = @players.first

      def set_current_player(player)
        @players.rotate! until @players.first.equal?(player)
      end

      def allowed?(card)
        player = current_player
        return false unless player.holds?(card)
        return true if current_trick.first_card? || card.joker?

        led = current_trick.led_suit
        card.suit[nil] == led || player.cards.none? { |held| !held.joker? && held.suit[nil] == led }
      end

      def valid_cards
        current_player.cards.select { |card| allowed?(card) }
      end

      def play(card)
        return nil unless allowed?(card)

        current_trick.card_set[current_player] = card
        current_player.give_up(card)
        if current_trick.complete?
          set_current_player(current_trick.winner)
          @tricks << Trick.new(@players.size) unless complete?
        else
          @players.rotate!
        end
        true
      end

      def tricks_won(team)
        @tricks.count { |trick| trick.complete? && trick.winner&.team.equal?(team) }
      end

      def complete?
        @tricks.size == 10 && current_trick.complete?
      end
    end
  end

  class Round
    attr_reader :state, :trick_set

    def initialize(game, first_bidder)
      @game = game
      @state = :bidding
      @bidding_set = RoundSets::Bidding.new(game.players.rotate(game.players.index(first_bidder)))
      @trick_set = Nothing.new
      deck = Deck.all_cards.shuffle
      game.players.each_with_index { |player, index| player.assign_cards(deck[index * 10, 10]) }
      @kitty = deck[40, 3]
    end

    def highest_bid = @bidding_set.highest_bid
    def current_bidder = @bidding_set.current_bidder
    def winning_bidder = @bidding_set.winning_bidder
    def bid_for_player(player) = @bidding_set.bid_for_player(player)
    def current_player = @trick_set.current_player
    def valid_cards = @trick_set.valid_cards

    def valid_bids
      Bid.all.keys.map { |code| Bid.new(code) }.select { |bid| @bidding_set.acceptable?(bid) }
    end

    # Like the engine's, its return value says nothing about whether the bid was taken.
    def bid(bid)
      return nil unless @state == :bidding

      @bidding_set.bid(bid)
      if @bidding_set.over?
        highest_bid.empty? ? finish : start_kitty_phase!
      end
      nil
    end

    def start_kitty_phase!
      @state = :kitty
      declarer = winning_bidder
      @trick_set = RoundSets::TrickSet.new(highest_bid.suit, @game.players.rotate(@game.players.index(declarer)))
      declarer.take_kitty(@kitty)
      @kitty = []
    end

    def discard_kitty_valid?(cards)
      @state == :kitty && cards.size == 3 && cards.map(&:code).uniq.size == 3 &&
        cards.all? { |card| winning_bidder.holds?(card) }
    end

    def discard_kitty(cards)
      discard_kitty!(cards) if discard_kitty_valid?(cards)
    end

    def discard_kitty!(cards)
      winning_bidder.lay_away(cards)
      @state = :playing
    end

    def play_card(card)
      return nil unless @state == :playing

      @trick_set.play(card)
      finish if @trick_set.complete?
      nil
    end

    def tricks_won_for(team)
      @trick_set.nil? ? 0 : @trick_set.tricks_won(team)
    end

    def bid_achieved_for?(team)
      tricks_won_for(team) >= highest_bid.level if winning_bidder&.team.equal?(team)
    end

    def score_for(team)
      return 0 unless @state == :complete && !highest_bid.empty?
      return tricks_won_for(team) * 10 unless winning_bidder.team.equal?(team)

      bid_achieved_for?(team) ? 100 : -100
    end

    def finish
      @state = :complete
      @game.round_complete
    end
  end

  class Game
    attr_reader :teams, :rounds, :winner

    def initialize
      @teams = [Team.new, Team.new]
      @dealer_order = [0, 1, 2, 3].rotate(rand(4))
      @rounds = []
      @winner = []
    end

    def players
      [@teams[0].players[0], @teams[1].players[0], @teams[0].players[1], @teams[1].players[1]]
    end

    def join(player)
      team = @teams.min_by { |candidate| candidate.players.size }
      team.players << player
      player.team = team
      @rounds << Round.new(self, players[@dealer_order[1]]) if players.none?(&:nil?)
      self
    end

    def current_round = @rounds.last
    def current_dealer = players[@dealer_order[0]]

    def score_for(team)
      @rounds.sum { |round| round.score_for(team) }
    end

    def state
      return :setup if @rounds.empty?
      return :complete if @winner.is_a?(Team)

      current_round.state
    end

    def round_complete
      @dealer_order.rotate!
      reached = @teams.find { |team| score_for(team) >= 500 }
      if reached
        @winner = reached
      else
        @rounds << Round.new(self, players[@dealer_order[1]])
      end
    end
  end
end
