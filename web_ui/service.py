"""What the web pages need from the running table: the ``TableService`` interface.

The web layer renders controller state and sends arbiter decisions back; it never touches
drivers or storage. ``tablectl.runtime.TableRuntime`` (the composition root's running
table: drivers -> sensing -> table -> SQLite log) implements this interface, and the web
tests use small in-memory implementations of it.

Threading: ``snapshot`` and ``submit`` may be called from any thread (the runtime
serialises them); ``subscribe`` callbacks are called from the runtime's thread, so a web
server hands them to its event loop with ``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from controller.actions import Action
from controller.sensing.events import DeviceHealth
from controller.sensing.translate import Notice
from controller.table import Step, TableState

__all__ = ["PUBLIC_RECORDS", "PublicRecords", "RecordFormat", "Snapshot", "Submitted", "TableService", "WebSettings"]

RecordFormat = Literal["pbn", "lin", "jsonl"]
PublicRecords = Literal["never", "after_session", "finished_boards"]
PUBLIC_RECORDS: tuple[PublicRecords, ...] = ("never", "after_session", "finished_boards")
"""When anybody may download the finished boards' records (``/api/records.pbn``): ``never`` (the
arbiter only), ``after_session`` (once the session has ended, or the arbiter has published them:
at a duplicate event the same boards are still to be played at other tables), ``finished_boards``
(each board once it is finished)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table at one moment: ``seq`` grows by one with every change (action, notice, health).

    ``now`` is the table clock (seconds, the table log's ``t``) when the snapshot was taken;
    ``notices`` are the sensing layer's recent notices (newest last, a bounded number);
    ``health`` the latest report of each device.
    """

    seq: int
    state: TableState
    now: float
    health: tuple[DeviceHealth, ...] = ()
    notices: tuple[Notice, ...] = ()


@dataclass(frozen=True, slots=True)
class Submitted:
    """What ``submit`` did: the table's ``Step`` (its events say ``rejected`` and why when the
    table refused the action, in which case the state is unchanged) and the new ``seq``."""

    step: Step
    seq: int

    @property
    def rejected(self) -> str | None:
        """Why the table refused the action, or None if it took it."""
        for ev in self.step.events:
            if ev.kind == "rejected":
                return ev.detail or "rejected"
        return None


class TableService(Protocol):
    """The running table as the web pages see it."""

    def snapshot(self) -> Snapshot:
        """The table now."""
        ...

    def submit(self, action: Action) -> Submitted:
        """Stamp ``action`` with the table clock, log it durably, then apply it.

        Used for the arbiter's rulings, manual entries and corrections. A refused action
        is logged as refused and changes nothing.
        """
        ...

    def subscribe(self, callback: Callable[[int], None]) -> Callable[[], None]:
        """Call ``callback(seq)`` after every change; returns the function that unsubscribes."""
        ...

    def records(self, fmt: RecordFormat) -> str:
        """The boards played so far as PBN, LIN or the table log (JSON Lines)."""
        ...


@dataclass(frozen=True, slots=True)
class WebSettings:
    """How the composition root configures the pages: ``web_ui.app.create_app(service, settings)``.

    ``check_pin(pin)`` says whether a PIN is the arbiter's (the runtime holds only its hash,
    ``drivers.config.hash_pin``); ``spectator_delay`` (seconds) holds back what the spectator
    page shows; ``table_name`` titles the pages; ``max_public_clients`` caps the table's and
    spectators' WebSockets together (more are refused with 1013, "try again later"; the arbiter's
    are not counted); ``link_key`` and ``table_id`` let the Director's console open the arbiter
    page with a signed link (``web_ui.arbiter_link``; without both, no link opens it); ``hosts``
    are the names the pages answer to besides this machine's own (``web_ui.security.HostCheck``);
    ``public_records`` says when the finished boards' records are public (``PUBLIC_RECORDS``;
    None: ``after_session`` at a duplicate table, ``finished_boards`` in the other codes).
    """

    check_pin: Callable[[str], bool]
    spectator_delay: float = 0.0
    table_name: str = "Table 1"
    max_public_clients: int = 200
    link_key: bytes | None = None
    table_id: str | None = None
    hosts: tuple[str, ...] = ()
    public_records: PublicRecords | None = None
