"""Every command in the docs runs as written.

The shell blocks of ``README.md``, ``docs/*.md`` and ``hardware/**/*.md`` are read as a reader
would copy them: a block labelled ``sh``, ``bash``, ``shell`` or ``console``, or an unlabelled one
whose first command starts with a command word (``COMMAND_WORDS``, or a path such as
``.venv/bin/tablectl``). In a transcript (lines starting ``$ ``) only those lines are commands;
a line ending in ``\\`` goes on on the next, a here-document and a ``for ... done`` are one command.

Each command then runs in a copy of the repository (the project's ``.venv`` borrowed, ``$HOME``
a temporary folder: nothing is written to the repository), by the first of ``RULES`` it matches:

- ``skip``: what cannot run here, each with its reason (root on a deployed Pi, the club's network,
  a seat unit on USB...);
- ``device``: a command for a device this machine does not have: it must start and get as far as
  looking for the device (``expect``), then it is stopped;
- ``server``: a server that runs until stopped: it must come up (``expect``: its page answers, or
  a line of its output), then it is stopped with Ctrl-C;
- ``synopsis`` (any command with ``[optional]`` parts or a placeholder in capitals, ``FILE``): not
  runnable as written, so its program's ``--help`` must list every option it shows;
- anything else must exit 0 within ``LIMIT`` seconds.

``FIXTURES`` are the files a command expects from an earlier step of its page (the bench config
of bring-up.md, a deck file). The docs change (README and docs/ are being rewritten): the test
follows their blocks; only the small tables below name commands.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from drivers.addresses import CONSOLE_PORT, LOCAL_HOST, TABLE_PORT
from tests.conftest import CORPUS

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "hardware").rglob("*.md")))
LIMIT = 240.0
"""Seconds a command may take (a condition waited on, never a measured figure)."""
UP_WITHIN = 180.0
"""Seconds a server or a device command may take to say it is up, or looking for its device."""

COMMAND_WORDS = frozenset({
    ".", "apt", "apt-get", "bash", "cat", "cd", "chmod", "chown", "cp", "curl", "echo", "env", "export", "for",
    "git", "install", "journalctl", "ls", "make", "mkdir", "mosquitto", "mosquitto_passwd", "mosquitto_pub",
    "mosquitto_sub", "mpremote", "mv", "openssl", "pip", "pip3", "python", "python3", "rm", "scp", "sh", "sqlite3",
    "ssh", "sudo", "sudoedit", "systemctl", "tablectl", "tar", "ufw",
})
"""The first words that make an unlabelled block a shell block (besides paths: ``.venv/bin/...``, ``./``)."""

_SHELL_LABELS = ("sh", "bash", "shell", "console")


@dataclass(frozen=True)
class Rule:
    kind: str          # skip, device, server
    pattern: str       # a regular expression searched in the command
    reason: str        # why (skip), or what the command must show (device, server)
    expect: str = ""   # device/server: a regular expression of its output, or an http:// URL that answers


RULES: tuple[Rule, ...] = (
    Rule("skip", r"^make test\b", "the whole suite, this test included: it runs in make test"),
    Rule("skip", r"^make bench\b", "the benchmarks: minutes of measuring (bench/); make test runs the suite"),
    Rule("skip", r"^make pi-check\b", "builds a Debian arm64 root and runs the suite under emulation: about an hour "
                                      "the first time (hardware/pi/README.md)"),
    Rule("skip", r"^make (hardware|hardware-tools)\b", "the boards' checks: make test runs them (tests/hardware/)"),
    Rule("skip", r"^make lock\b", "asks the package index for the newest versions and rewrites requirements.lock"),
    Rule("skip", r"^make screenshots\b",
         "redraws the README's pictures: the same width tests run in make test (tests/web_ui/test_pages_widths.py)"),
    Rule("skip", r"(^|[;&|]\s*)(sudo|sudoedit)\b", "root on a deployed Pi or room machine (/opt/bridgetable, "
                                                  "/etc/bridgetable, systemd, the bridgetable user)"),
    Rule("skip", r"\b(ssh|scp)\b", "reaches the club's Pis over the network"),
    Rule("skip", r"\b(systemctl|journalctl)\b", "a deployed machine's systemd services"),
    Rule("skip", r"\bmpremote\b", "a seat unit's Pico on USB"),
    Rule("skip", r"club-pi\.local", "the club's room machine on the LAN"),
    Rule("skip", r"/etc/bridgetable\b", "a deployed table's config"),
    Rule("skip", r"/opt/bridgetable\b", "a deployed machine's copy of the project"),
    Rule("skip", r"\bpip3? install\b", "installs from the package index into a new environment (the Pi's extras); "
                                       "make setup does it here"),
    Rule("skip", r"--handling [1-9]", "a timing run at a person's pace (52 x the handling: minutes); the same "
                                      "tool runs without it"),
    Rule("skip", r"drivers\.open_table\(", "lights and buzzes the seat units of the table's config (hardware)"),
    Rule("skip", r"tablectl doctor --config table\.toml\b", "watches the devices of the table's own config"),
    Rule("device", r"--reader nfc:usb|tablectl enrol\b(?!.*--reader)(?!.*sim://)",
         "a USB NFC reader (none here): the command starts and waits for it", r"no reader found on usb"),
    Rule("server", r"^make run\b(?!-)", "the simulated room's console answers", f"http://{LOCAL_HOST}:{CONSOLE_PORT}/"),
    Rule("server", r"^make run-table\b", "the simulated table's page answers", f"http://{LOCAL_HOST}:{TABLE_PORT}/"),
)

FIXTURES: dict[str, str] = {
    # bring-up.md, "the simulated table": the config of hardware/config.md's last example
    "bench.toml": '[table]\nname = "Bench"\n\n[seats.N]\nunit = "sim://"\n',
    # decks.md, "Replacing a card": the club's deck file, board7's ace of spades in it
    "decks/club.json": '{"format": "bridgetable-decks", "version": 1,\n'
                       ' "decks": {"board7": {"SA": "04A1B2C3D4E5F6", "SK": "04A1B2C3D4E5F7"}}}\n',
}


@dataclass(frozen=True)
class Command:
    where: str   # file:line
    text: str
    inside: str = ""  # an earlier ``cd`` of its block into a folder of a deployed machine (then skipped)

    def __str__(self) -> str:
        return f"{self.where}: {self.text.splitlines()[0][:70]}"


# -- reading the docs ------------------------------------------------------------------------------

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")


def fenced_blocks(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, label, lines) of each fenced block of a Markdown file, dedented to its fence."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        indent, fence, label = len(m[1]), m[2], m[3].lower()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (lines[j].strip() and set(lines[j].strip()) == {fence[0]}
                                      and len(lines[j].strip()) >= len(fence)):
            line = lines[j]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            j += 1
        yield i + 1, label, body
        i = j + 1


def logical_commands(body: list[str]) -> list[tuple[int, str]]:
    """(offset, command) of a block: continuations joined, a here-document or a loop kept whole;
    in a transcript only the ``$ `` lines; comment lines and blank lines left out."""
    transcript = any(line.startswith("$ ") for line in body)
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(body):
        line = body[i]
        start = i
        i += 1
        if transcript:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [line]
        while parts[-1].rstrip().endswith("\\") and i < len(body):
            parts.append(body[i])
            i += 1
        heredoc = _HEREDOC.search(parts[0])
        if heredoc is not None:
            while i < len(body):
                parts.append(body[i])
                i += 1
                if body[i - 1].strip() == heredoc[1]:
                    break
        depth = _loop_depth(parts[0])
        while depth > 0 and i < len(body):
            parts.append(body[i])
            depth += _loop_depth(body[i])
            i += 1
        out.append((start, "\n".join(parts)))
    return out


def _loop_depth(line: str) -> int:
    words = line.split()
    opens = sum(1 for w in words[:1] if w in ("for", "while", "until", "if", "case"))
    closes = sum(1 for w in words if w.rstrip(";") in ("done", "fi", "esac"))
    return opens - closes


def first_word(command: str) -> str:
    words = command.split()
    return words[0] if words else ""


def is_shell(label: str, commands: list[tuple[int, str]]) -> bool:
    if label in _SHELL_LABELS:
        return True
    if label or not commands:
        return False
    word = first_word(commands[0][1])
    return word in COMMAND_WORDS or (word.startswith((".venv/", "./", "~/")) and "://" not in word)


def doc_commands() -> list[Command]:
    found = []
    for path in DOCS:
        for line, label, body in fenced_blocks(path):
            commands = logical_commands(body)
            if is_shell(label, commands):
                where = path.relative_to(ROOT).as_posix()
                inside = ""
                for offset, text in commands:
                    command = Command(f"{where}:{line + 1 + offset}", text, inside)
                    found.append(command)
                    rule = rule_of(command)
                    if not inside and first_word(text) == "cd" and rule is not None and rule.kind == "skip":
                        inside = text  # the rest of the block runs there: skipped with it
    return found



def rule_of(command: Command) -> Rule | None:
    if command.inside:
        return Rule("skip", "", f"runs where `{command.inside}` took it: a folder of a deployed machine")
    return next((r for r in RULES if re.search(r.pattern, command.text, re.MULTILINE)), None)


COMMANDS = doc_commands()


_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9_$])[A-Z][A-Z_]{2,}(?![a-z0-9_])")
"""A word to replace in capitals (``FILE``, ``OUT.pbn``, ``PASSWORD@HOST``), not a card (``SA``) nor ``$HOME``."""


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def is_placeholder(word: str) -> bool:
    return word.startswith("[") or (not re.match(r"^[A-Z_]+=", word) and _PLACEHOLDER.search(word) is not None)


def is_synopsis(text: str) -> bool:
    """``tablectl replay FILE [--json]``, ``enrol ... / doctor ...``: a form to fill in, not a command."""
    words = _words(text)
    return "/" in words or any(is_placeholder(w) for w in words)


# -- the sandbox -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A copy of the repository (its tracked and new files) with the project's .venv borrowed,
    the files of ``FIXTURES``, and the environment the commands run in."""
    base = tmp_path_factory.mktemp("docs-commands")
    copy = base / "repo"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=False)
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.decode().split("\0")):
            source = ROOT / name
            if source.is_file():
                (copy / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, copy / name)
    else:  # not a git checkout: the tree, without what is built or kept locally
        shutil.copytree(ROOT, copy, symlinks=True, ignore=shutil.ignore_patterns(
            ".venv", ".git", "__pycache__", ".*_cache", ".hypothesis", ".demo-data", ".room-demo", ".console-data"))
    venv = Path(sys.prefix)
    (copy / ".venv").mkdir()
    for entry in venv.iterdir():  # the same environment, its own stamp: make never reinstalls it here
        if entry.name != ".installed":
            (copy / ".venv" / entry.name).symlink_to(entry)
    (copy / ".venv" / ".installed").touch()
    for name, text in FIXTURES.items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)  # a checkout, as a club's copy is (install.md)
    home = base / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": f"{copy / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("VIRTUAL_ENV", None)
    if CORPUS.is_dir():
        env["BRIDGE_CORPUS"] = str(CORPUS)
    yield copy, env


def _start(text: str, cwd: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], list[str]]:
    """``text`` run by bash in its own process group; its output lines gathered as they come."""
    child = subprocess.Popen(["bash", "-c", text], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    lines: list[str] = []

    def read() -> None:
        assert child.stdout is not None
        for raw in child.stdout:
            lines.append(raw.decode(errors="replace"))

    threading.Thread(target=read, daemon=True).start()
    return child, lines


def _stop(child: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> int:
    """Stop ``child``'s whole group (Ctrl-C, then SIGKILL after a minute); its exit status."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, sig)
    try:
        return child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        return child.wait()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _port_taken(url: str) -> bool:
    host, _, port = url.split("/")[2].partition(":")
    with socket.socket() as s:
        return s.connect_ex((host, int(port or 80))) == 0


def _until_up(child: subprocess.Popen[bytes], lines: list[str], expect: str) -> bool:
    """Wait until ``expect`` (a URL that answers, or a line of output) or the command ends."""
    deadline = time.monotonic() + UP_WITHIN
    while time.monotonic() < deadline:
        if expect.startswith("http") and _answers(expect):
            return True
        if not expect.startswith("http") and re.search(expect, "".join(lines)):
            return True
        if child.poll() is not None:
            time.sleep(0.2)  # the last lines
            return not expect.startswith("http") and re.search(expect, "".join(lines)) is not None
        time.sleep(0.2)
    return False


# -- the test -----------------------------------------------------------------------------------------

def test_the_docs_commands_are_found() -> None:
    """The reading itself: the README's first command is found, and a transcript's output is no command."""
    texts = [c.text for c in COMMANDS]
    assert any(t.startswith("make run") for t in texts), texts[:10]
    assert not any(t.startswith(("devices:", "present ", "{")) for t in texts)
    block = ["$ mkdir -p /tmp/units", "output line", "$ tablectl doctor --config a.toml \\", "    --seconds 0"]
    assert logical_commands(block) == [(0, "mkdir -p /tmp/units"), (2, "tablectl doctor --config a.toml \\\n"
                                                                         "    --seconds 0")]
    assert is_synopsis("tablectl replay FILE --json") and not is_synopsis("make run   # the room, on port 8000")


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_every_command_in_the_docs_runs_as_written(command: Command, sandbox: tuple[Path, dict[str, str]]) -> None:
    cwd, env = sandbox
    rule = rule_of(command)
    if rule is not None and rule.kind == "skip":
        pytest.skip(f"{command.where}: {rule.reason}")
    if is_synopsis(command.text):
        _check_synopsis(command, cwd, env)
    elif rule is not None:
        _run_until_up(command, rule, cwd, env)
    else:
        child, lines = _start(command.text, cwd, env)
        try:
            code = child.wait(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            _stop(child, signal.SIGKILL)
            pytest.fail(f"{command.where}: still running after {LIMIT:g} s:\n{command.text}\n{''.join(lines)[-3000:]}")
        time.sleep(0.1)
        assert code == 0, f"{command.where}: exit {code}:\n{command.text}\n{''.join(lines)[-3000:]}"


def _run_until_up(command: Command, rule: Rule, cwd: Path, env: dict[str, str]) -> None:
    if rule.expect.startswith("http") and _port_taken(rule.expect):
        pytest.skip(f"{command.where}: {rule.expect} is in use on this machine by another program")
    child, lines = _start(command.text, cwd, env)
    try:
        up = _until_up(child, lines, rule.expect)
    finally:
        _stop(child)
    assert up, (f"{command.where}: expected {rule.reason} ({rule.expect}):\n{command.text}\n"
                f"{''.join(lines)[-3000:]}")


def _check_synopsis(command: Command, cwd: Path, env: dict[str, str]) -> None:
    """Each form of the synopsis (``a / b``): its program's ``--help`` answers and lists its options."""
    forms = " ".join(_words(command.text.replace("\\\n", " "))).split(" / ")
    program = _words(forms[0])[0]
    for i, form in enumerate(forms):
        tokens = _words(form) if i == 0 else [program, *_words(form)]
        head: list[str] = []
        for token in tokens:
            if token.startswith("-") or is_placeholder(token) or ("/" in token and head):
                break
            head.append(token)
        if Path(head[0]).name not in ("tablectl", "python", "python3"):
            pytest.skip(f"{command.where}: a synopsis of {head[0]}, which has no --help to check it against")
        shown = subprocess.run(["bash", "-c", shlex.join([*head, "--help"])], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=120)
        assert shown.returncode == 0, f"{command.where}: {shlex.join(head)} --help:\n{shown.stdout}{shown.stderr}"
        options = re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", form)
        missing = [o for o in options if o not in shown.stdout]
        assert not missing, f"{command.where}: {shlex.join(head)} has no {', '.join(missing)}:\n{shown.stdout}"
