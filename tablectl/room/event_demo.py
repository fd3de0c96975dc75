"""``tablectl room demo --rooms N --tables T``: an event of N rooms on this machine (docs/event-topology.md).

Each room (section A, B, ...) has its own Mosquitto (the files of ``tablectl.room.bridge.init_event``:
passwords, ACL, and its bridge to the centre), its own console (a ``tablectl console`` process with
its own page: the room's Director) and its T tables (``tablectl demo`` processes, tables ``A1`` to
``AT``, ``B1`` to ``BT``...). The central broker takes every room's bridge; the head console (this
process, ``Console(head=True)``) serves its page on ``--port`` and sees every table of the event.
The room consoles serve on ``--port``+1 to +N, the tables on the ports after them. When the corpus
has the boards for it, every section plays the same Mitchell (one session file with its sections);
else each table plays ``--boards`` boards in order.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from controller.errors import BridgeTableError
from drivers.config import hash_pin

__all__ = ["MAX_ROOMS", "run_event_demo"]

MAX_ROOMS = 26
"""Rooms of a demo event at most: sections A to Z."""


def run_event_demo(args: argparse.Namespace) -> int:
    """Run the event until Ctrl-C (module doc); the exit status."""
    from tablectl.demo import corpus_file, no_corpus
    from tablectl.ports import PORT_TAKEN_EXIT, taken_ports_message
    from tablectl.room.bridge import RoomPlan, init_event
    from tablectl.room.console import Console
    from tablectl.room.process import BrokerError, MosquittoMissing, MosquittoProcess, free_port, runnable_config
    from tablectl.room.serve import (
        DEMO_CLUB,
        MAX_DEMO_TABLES,
        _demo_session,
        _serve_console,
        _the_pin,
        _watch,
        stop_children,
        table_process,
    )
    from tablectl.serve import ServerOptions, setup_logging, show_pin
    from web_ui.arbiter_link import ENV as LINK_ENV
    from web_ui.arbiter_link import table_key

    started = time.monotonic()
    setup_logging(args.verbose)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    rooms, per_room = args.rooms, args.tables
    if not 1 <= rooms <= MAX_ROOMS or per_room < 1 or rooms * per_room > MAX_DEMO_TABLES:
        print(f"tablectl room demo: --rooms 1 to {MAX_ROOMS}, --tables 1 or more, at most {MAX_DEMO_TABLES} tables "
              "in all", file=sys.stderr)
        return 2
    sections = [chr(ord("A") + i) for i in range(rooms)]
    tables = {r: [f"{r}{k}" for k in range(1, per_room + 1)] for r in sections}
    every = [t for r in sections for t in tables[r]]
    ports = [args.port + i for i in range(1 + rooms + len(every))]
    if (taken := taken_ports_message("127.0.0.1", ports)) is not None:
        print(f"tablectl room demo: {taken}; the head console gets --port, the rooms' consoles the next "
              f"{rooms}, the tables those after", file=sys.stderr)
        return PORT_TAKEN_EXIT
    try:
        pin, made_up = _the_pin(args)
    except ValueError as exc:
        print(f"tablectl room demo: {exc}", file=sys.stderr)
        return 2
    root = Path(args.data_dir)
    for sub in ("event", "head-console", *(f"console-{r}" for r in sections), *(f"table-{t}" for t in every)):
        shutil.rmtree(root / sub, ignore_errors=True)  # a demo event starts afresh
    root.mkdir(parents=True, exist_ok=True)
    table_port = dict(zip(every, ports[1 + rooms:], strict=True))
    urls = {t: f"http://127.0.0.1:{p}" for t, p in table_port.items()}
    brokers: list[MosquittoProcess] = []
    try:
        files = init_event(root / "event", DEMO_CLUB,
                           [RoomPlan(r, tuple(tables[r]), "127.0.0.1", free_port("127.0.0.1")) for r in sections],
                           listen="127.0.0.1", port=free_port("127.0.0.1"))
        for room in (files.centre, *files.rooms.values()):
            broker = MosquittoProcess(runnable_config(room.conf), room.port)
            broker.start()
            brokers.append(broker)
    except (MosquittoMissing, BrokerError, BridgeTableError, OSError) as exc:
        print(f"tablectl room demo: the event's brokers cannot start: {exc}", file=sys.stderr)
        for broker in reversed(brokers):
            broker.stop()
        return 2
    dealing = args.deal or not corpus_file().is_file()
    if dealing and not args.deal:
        print(no_corpus(corpus_file(), "the tables deal their"), flush=True)
    session, orders = _demo_session(root, per_room, args.boards_per_round, sections)
    consoles: list[subprocess.Popen[bytes]] = []
    children: list[subprocess.Popen[bytes]] = []
    stopping = threading.Event()
    head = Console(files.centre.address_of("console"), root / "head-console", session=session, head=True)
    try:
        head.start()
        for i, r in enumerate(sections, start=1):
            room = files.rooms[r]
            cmd = [sys.executable, "-m", "tablectl", "console", "--host", "127.0.0.1", "--port", str(ports[i]),
                   "--data-dir", str(root / f"console-{r}")]
            cmd += ["--session", str(root / "session.toml")] if session is not None else []
            for t in tables[r]:
                cmd += ["--table-url", f"{t}={urls[t]}"]
            env = {**os.environ, "BRIDGE_CLUB_URL": room.url("console"), "BRIDGE_ARBITER_PIN": pin,
                   LINK_ENV: room.link_master.decode()}
            (root / f"console-{r}").mkdir(parents=True, exist_ok=True)
            with (root / f"console-{r}" / "console.out").open("wb") as out:
                consoles.append(subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                                 start_new_session=True))
        for index, t in enumerate(every, start=1):
            room = files.rooms[files.room_of(t)]
            children.append(table_process(args, index, t, table_port[t], root / f"table-{t}", room.url(t), pin,
                                          table_key(room.link_master, t).decode(), orders.get(t), dealing))
        print(f"The event '{DEMO_CLUB}': {rooms} rooms of {per_room} tables, each room on its own broker bridged "
              f"to the centre on 127.0.0.1:{files.centre.port} (files: {files.directory})")
        print(f"  head console         http://127.0.0.1:{ports[0]}/   (every table of the event)")
        for i, r in enumerate(sections, start=1):
            print(f"  room {r} console       http://127.0.0.1:{ports[i]}/   tables {tables[r][0]} to {tables[r][-1]}: "
                  f"http://127.0.0.1:{table_port[tables[r][0]]}/ to http://127.0.0.1:{table_port[tables[r][-1]]}/")
        if made_up is not None:
            print(f"  {show_pin(made_up, root, 'PIN (the consoles and every table arbiter page)')}")
        print(f"  started in {time.monotonic() - started:.1f} s; Ctrl-C stops the event", flush=True)
        threading.Thread(target=_watch, args=(children, root, stopping, every), daemon=True).start()
        return _serve_console(head, hash_pin(pin), ServerOptions("127.0.0.1", ports[0], graceful=3.0), DEMO_CLUB,
                              None, urls)
    finally:  # in order: the tables, the rooms' consoles, the head console, then the brokers under them
        stopping.set()
        stop_children(children)
        stop_children(consoles)
        head.stop()
        for broker in reversed(brokers):
            broker.stop()
