"""Boards the demo deals and plays by itself when no record corpus is at hand.

``dealer`` shuffles the 52 cards from a seed; ``bidding`` and ``cardplay`` are a simple
policy of the project's own (point-count openings, natural responses and raises to a
contract the partnership's points deserve; follow suit, win cheaply, discard low, lead
from the top of a sequence or the fourth best); ``board`` plays a dealt board through
them into a ``BoardRecord``, the same value the demo's players take from a PBN file.

Everything here is pure: cards are ints 0..51 (``Card.index``), hands 52-bit masks
(``controller.legality``), and the same seed always gives the same board.
"""
