"""The console refuses a table's message nested more than 32 deep, and only that (``tablectl.room.intake``):
the quick count of a message's brackets, which spares most messages the byte-by-byte look, never lets a deep
one through nor refuses a shallow one whose text holds brackets."""

from __future__ import annotations

import json

from tablectl.room.intake import MAX_DEPTH, Refused, Taken, read_message

CLUB = "club"
TOPIC = f"bridge/{CLUB}/table/3/alert"


def _alert(nest: int, what: str = "Revoke by E") -> bytes:
    """An alert whose ``ref`` field holds ``nest`` - 2 nested arrays (the message and its body are two levels)."""
    inner = "[" * (nest - 2) + "]" * (nest - 2)
    return (f'{{"v":1,"club":"{CLUB}","table":"3","session":"s","seq":2,"prev":1,'
            f'"body":{{"alert":"irregularity","what":{json.dumps(what)},"deep":{inner}}}}}').encode()


def test_a_message_nested_one_deeper_than_the_limit_is_refused_and_one_at_the_limit_is_taken() -> None:
    at_limit = read_message(CLUB, TOPIC, _alert(MAX_DEPTH))
    over = read_message(CLUB, TOPIC, _alert(MAX_DEPTH + 1))
    assert isinstance(at_limit, Taken)
    assert isinstance(over, Refused) and "nested" in over.reason


def test_brackets_inside_a_text_do_not_make_a_message_deep() -> None:
    many = "[{" * (4 * MAX_DEPTH)  # many brackets, all in a string: the message is 3 deep
    got = read_message(CLUB, TOPIC, _alert(3, what=many))
    assert isinstance(got, Taken) and got.msg["body"]["what"] == many
