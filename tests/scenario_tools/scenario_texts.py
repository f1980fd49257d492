"""Scenario texts shared by the loading and command-line tests."""

GOOD = """\
id: ZZ22
title: A declarer may be outbid by a higher bid
rules: [bid-must-outrank]
assert: A bid of 6C outranks 6S.
setup:
  start: deck
  dealer: W
  deck: ordered
steps:
  - {seat: N, call: 6S}
  - {seat: E, call: 6C}
  - expect: {high_bid: 6C, high_bidder: E, to_act: S}
"""
