"""``controller`` is the pure core: it imports no drivers, web, clock, threads or hardware."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = ["drivers", "web_ui", "firmware_bridge", "threading", "asyncio", "time", "serial",
           "nfc", "RPi", "fastapi", "socket", "sqlite3"]


def test_controller_imports_nothing_impure() -> None:
    code = f"""
import sys, importlib, pkgutil
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {BLOCKED!r}:
            raise ImportError('controller must not import ' + name)
        return None
sys.meta_path.insert(0, Block())
import controller
for m in pkgutil.walk_packages(controller.__path__, 'controller.'):
    importlib.import_module(m.name)
print('ok')
"""
    # the interpreter itself has imported some of these already: start clean
    out = subprocess.run([sys.executable, "-I", "-S", "-c",
                          "import sys; sys.path[:0] = " + repr(sys.path) + "\n" + code],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
