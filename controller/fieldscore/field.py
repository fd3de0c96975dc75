"""The same boards played in several sections: scored in each section and across the field (pure).

An event of several sections that play the same boards (the same numbers, the same deals) is
scored two ways, and both are kept:

- **in each section:** a board's results are compared only with the other results of its
  section; each section's pairs are ranked among themselves (North-South and East-West apart
  in a Mitchell). A board played fewer times than the section's most-played board is factored
  by Neuberg's formula to that section's count.
- **across the field:** every result of the board, from every section, is compared with every
  other: matchpoints against the whole field (top 2n-2 with n the results of the board in all
  sections), Neuberg factoring to the most results any board has in the field, so that a small
  section's boards weigh as much as a large one's; IMPs against the field's Butler datum, or
  cross-IMPs against every result of the field. Every pair of the event is ranked in one field
  (or one per direction in a Mitchell).

This is the practice of the federations' scoring programs. ACBLscore matchpoints each section and
combines the sections for an overall ranking, the section's matchpoints factored to a common top
(clubs' directors describe it so: "Match Pointing Two Sections", daily-recap.com, 2015), or
matchpoints the boards across the field when the event is run so; masterpoints are given for a
pair's place in its section and overall. The EBU scores large events across the field, with
Neuberg's formula for boards played different numbers of times. Which ranking decides the event
(its prizes and places) is the Director's choice for the event: ``Official`` (the session file's
``official``); the other is shown beside it.

A pair is known by its section, number and direction: sections number their pairs alike (pair 1
of section A is not pair 1 of section B), and each keeps its own standing in both rankings
(``FieldStanding``). Team events have one ranking (their matches are scored between two rooms).

The two are ``score_event`` under two sets of conventions: ``in_each_section`` (each section's
results compared alone, ``rank_by_section``) and ``across_the_field``. A results file written from
either carries them in its conventions line, so it reads back ranked as it was and checks clean.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from controller.fieldscore.event import rank_standings, score_event
from controller.fieldscore.model import Conventions, Event, EventScore, Scoring, Standing

__all__ = ["FieldStanding", "Official", "SectionsScore", "across_the_field", "in_each_section", "pair_key",
           "score_sections", "sections_score"]


class Official(Enum):
    """Which ranking of an event of several sections is the official one (the Director's choice)."""

    FIELD = "field"        # every result compared across the field, one ranking of every pair
    SECTION = "section"    # each section's results compared within it, each section ranked apart

    @classmethod
    def parse(cls, text: str) -> Official:
        """``field`` or ``section`` (any case; "across the field" and "sections" too)."""
        t = text.strip().lower()
        if t in ("field", "across", "across the field", "across-the-field"):
            return cls.FIELD
        if t in ("section", "sections", "by section", "per section"):
            return cls.SECTION
        raise ValueError(f"{text!r}: field or section expected")


PairKey = tuple[str | None, str, str | None]
"""(section, pair, direction): a pair of an event of sections (direction None: a pair that sat both ways)."""


def pair_key(st: Standing) -> PairKey:
    """The key of ``st``'s pair: section (None: none), number, direction."""
    return (st.section or None, st.pair, st.direction)


@dataclass(frozen=True, slots=True)
class FieldStanding:
    """One pair's two standings: ranked in its section (``in_section``) and across the field
    (``across``); either None when that ranking has no place for it."""

    section: str | None
    pair: str
    direction: str | None
    in_section: Standing | None
    across: Standing | None

    def official(self, official: Official) -> Standing | None:
        return self.across if official is Official.FIELD else self.in_section


@dataclass(frozen=True, slots=True)
class SectionsScore:
    """An event of sections scored both ways: ``in_section`` (each section alone, ranked in its
    section), ``across`` (across the field, one ranking), which of them is ``official``, and each
    pair's two standings in the official ranking's order."""

    in_section: EventScore
    across: EventScore
    official: Official
    standings: tuple[FieldStanding, ...]

    @property
    def official_score(self) -> EventScore:
        return self.across if self.official is Official.FIELD else self.in_section


def score_sections(event: Event, official: Official = Official.FIELD,
                   conventions: Conventions | None = None) -> SectionsScore:
    """Score ``event`` in each section and across the field (module doc); ``official`` names the
    ranking that decides the event."""
    conv = conventions if conventions is not None else event.conventions
    across = score_event(event, across_the_field(conv))
    if event.scoring is Scoring.TEAMS:
        return sections_score(across, across, official)
    in_section = score_event(event, in_each_section(conv))
    return sections_score(in_section, across, official)


def in_each_section(conventions: Conventions) -> Conventions:
    """``conventions`` for the section ranking: each section's results compared alone, its pairs
    ranked apart."""
    return replace(conventions, across_sections=False, rank_by_section=True)


def across_the_field(conventions: Conventions) -> Conventions:
    """``conventions`` for the field ranking: every section's results compared, one ranking."""
    return replace(conventions, across_sections=True, rank_by_section=False)


def sections_score(in_section: EventScore, across: EventScore, official: Official) -> SectionsScore:
    """The two scorings of one event put together (``in_section`` ranked within each section,
    as ``in_each_section`` scores it), each pair's two standings."""
    if in_section is not across and not in_section.event.conventions.rank_by_section:
        again = rank_standings(in_section.standings, in_section.event.scoring, in_section.by_direction,
                               by_section=True)
        in_section = replace(in_section, standings=again)
    mine = {pair_key(st): st for st in in_section.standings}
    field = {pair_key(st): st for st in across.standings}
    first, second = (field, mine) if official is Official.FIELD else (mine, field)
    keys = list(first) + [k for k in second if k not in first]
    standings = tuple(FieldStanding(k[0], k[1], k[2], mine.get(k), field.get(k)) for k in keys)
    return SectionsScore(in_section, across, official, standings)
