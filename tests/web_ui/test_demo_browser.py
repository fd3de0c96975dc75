"""The demo as a club sees it, in a real headless Chromium: ``tablectl demo`` runs as its own
process (simulated sensors playing a real corpus board, an irregularity injected, no automatic
ruling), the arbiter logs in on his page with the PIN, the alert shows the law and the
options, he rules with a button, and the table page shows the ruling and then the board's result."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.free_ports import free_base_port
from tests.web_ui.test_browser import ARGS, CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
PIN = "8642"

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                       reason="no /usr/bin/chromium (make installs it)"),
]


@pytest.fixture
def demo(tmp_path: Path, corpus: Path) -> Iterator[str]:
    port = free_base_port(1)
    env = dict(os.environ, PYTHONUNBUFFERED="1", BRIDGE_CORPUS=str(corpus))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "demo", "--port", str(port), "--data-dir", str(tmp_path),
         "--arbiter-pin", PIN, "--speed", "40", "--irregularity-rate", "1", "--auto-rule-after", "-1",
         "--boards", "1", "--seed", "3", "--no-tempo"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed: list[str] = []
    serving = threading.Event()

    def read() -> None:  # keep reading what the demo prints, so that its pipe never fills
        for line in proc.stdout or ():
            printed.append(line)
            if "started in" in line:
                serving.set()

    threading.Thread(target=read, daemon=True).start()
    if not serving.wait(60):  # the demo prints its URLs and its start-up time once it serves
        proc.kill()
        pytest.fail("tablectl demo did not start serving:\n" + "".join(printed))
    assert f"http://127.0.0.1:{port}/arbiter" in "".join(printed)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "the demo did not stop cleanly on SIGTERM"


def test_a_demo_board_with_an_irregularity_is_ruled_from_the_arbiter_page(demo: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            table = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
            table.goto(demo + "/")
            expect(table.locator("#status")).to_have_text("live")

            arbiter = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                          has_touch=True).new_page()
            arbiter.goto(demo + "/arbiter")
            arbiter.fill("#pin", PIN)
            arbiter.click("#login-button")
            expect(arbiter.locator("#status")).to_have_text("live")
            # The simulated players play until the injected irregularity; the table then waits.
            expect(arbiter.locator("#alert")).to_contain_text(re.compile(r"\(Law \d+"), timeout=90_000)
            expect(table.locator("#banner")).to_be_visible()

            for _ in range(6):  # the first option the table takes (an option may need more)
                button = arbiter.locator("#pending form.option button").first
                option = button.get_attribute("data-option")
                button.click()
                answer = arbiter.locator("#action-info:has-text('done'), #action-error:has-text('refused')")
                expect(answer).to_be_visible()
                if "done" in answer.inner_text():
                    break
            else:
                pytest.fail("the table refused every option the arbiter page offered")
            assert option is not None
            # the players read the same sentence of the ruling as the arbiter (the catalogue's, with seats and cards)
            ruled = arbiter.locator("#pending .ruling").filter(has_text="Ruled: ").first
            expect(ruled).to_be_visible()
            sentence = ruled.inner_text().removeprefix("Ruled: ")
            expect(table.locator("#irregularities")).to_contain_text(sentence)

            # The players go on and finish the board; its result reaches the table page.
            expect(table.locator("#score .result")).to_contain_text(re.compile(r"Board \d+: .*NS -?\d+"),
                                                                   timeout=120_000)
        finally:
            browser.close()
