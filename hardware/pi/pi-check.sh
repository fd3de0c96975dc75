#!/usr/bin/env bash
# `make pi-check`: the project on the Pi's own OS (Debian bookworm arm64, Python 3.11), on
# this x86 machine under qemu-user. hardware/pi/README.md says what it does and why.
#
# 1. tools: debootstrap, qemu-user-static, binfmt-support (Debian's), installed when missing;
#    binfmt_misc mounted and the qemu-aarch64 handler enabled (the kernel then runs arm64
#    programs through qemu, in the root too: the handler's F flag keeps its interpreter open);
# 2. root: bookworm arm64 by debootstrap from the mirror this machine's apt uses, cached in
#    .cache/pi-root/rootfs (made once; `rm -rf .cache/pi-root` starts again);
# 3. the project: its git files copied to /opt/bridgetable in the root, a venv there with
#    every package of requirements.lock (arm64 wheels, or built there), and RPi.GPIO built
#    as a Pi 4 would (the pi4 extra); the venv is kept while requirements.lock is unchanged;
# 4. the pure tests (no broker, no browser) and a simulated table (bench/table.py: the real
#    `tablectl run` with four seat units on ptys, a WebSocket client) in the root, then
#    bench/frames.py, and bench/emulation.py natively and in the root: the emulation factor.
# Prints each step's duration and writes the figures to .cache/pi-root/last-run.txt.
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT_DIR"
CACHE=${PI_CACHE:-$ROOT_DIR/.cache/pi-root}
ROOTFS=$CACHE/rootfs
SUITE=bookworm
PY=${PY:-$ROOT_DIR/.venv/bin/python}
TESTS=${PI_TESTS:-tests/controller tests/drivers tests/firmware_bridge tests/records}
BOARDS=${PI_BOARDS:-3}
REPORT=$CACHE/last-run.txt
START=$(date +%s)
mkdir -p "$CACHE"
: > "$REPORT.new"

say() { echo "pi-check: $*"; echo "$*" >> "$REPORT.new"; }
step_start() { STEP_T=$(date +%s); echo "pi-check: -- $1"; }
step_end() { say "$1: $(( $(date +%s) - STEP_T )) s"; }
die() { echo "pi-check: FAILED: $*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi

# -- 1. tools --------------------------------------------------------------------------------------
step_start tools
missing=
command -v debootstrap >/dev/null || missing="$missing debootstrap"
[ -x /usr/bin/qemu-aarch64-static ] || missing="$missing qemu-user-static"
command -v update-binfmts >/dev/null || missing="$missing binfmt-support"
if [ -n "$missing" ]; then
  echo "pi-check: installing Debian's$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  $SUDO mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
    || die "the kernel has no binfmt_misc (or this sandbox may not mount it): arm64 programs cannot run here"
fi
$SUDO update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
  || die "update-binfmts could not enable qemu-aarch64: the kernel refuses to run arm64 programs through qemu"
grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 \
  || die "the qemu-aarch64 handler lacks the F flag: programs in the root could not find qemu"
step_end "tools and binfmt"

# -- 2. the root -----------------------------------------------------------------------------------
PACKAGES=python3,python3-venv,python3-pip,python3-dev,build-essential,ca-certificates
if [ ! -f "$ROOTFS/.pi-check-root" ] || [ "$(cat "$ROOTFS/.pi-check-root")" != "$SUITE $PACKAGES" ]; then
  step_start "debootstrap $SUITE arm64 (once; kept in $ROOTFS)"
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$mirror" ] || die "no Debian mirror in this machine's apt sources: set PI_MIRROR"
  mirror=${PI_MIRROR:-$mirror}
  rm -rf "$ROOTFS.tmp"
  $SUDO debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" "$SUITE" "$ROOTFS.tmp" "$mirror" \
    > "$CACHE/debootstrap.log" 2>&1 || die "debootstrap failed: $CACHE/debootstrap.log"
  rm -rf "$ROOTFS"
  mv "$ROOTFS.tmp" "$ROOTFS"
  echo "$SUITE $PACKAGES" > "$ROOTFS/.pi-check-root"
  step_end "debootstrap (first run only)"
else
  say "root: cached in $ROOTFS"
fi

# Mounts for the root's processes (ptys for the simulated seat units, /proc for VmRSS), undone on exit.
MOUNTS=()
cleanup() {
  for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do $SUDO umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
  mkdir -p "$ROOTFS/$m"
  mountpoint -q "$ROOTFS/$m" && continue
  case $m in
    proc) $SUDO mount -t proc proc "$ROOTFS/proc" ;;
    sys) $SUDO mount -t sysfs sys "$ROOTFS/sys" ;;
    dev) $SUDO mount --bind /dev "$ROOTFS/dev" ;;
    dev/pts) $SUDO mount --bind /dev/pts "$ROOTFS/dev/pts" ;;
  esac
  MOUNTS+=("$ROOTFS/$m")
done
cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# pip in the root trusts what this machine's pip trusts (a network that re-signs TLS has its CA there).
cp -L /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/host-ca-certificates.crt"
in_root() {
  $SUDO chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin:/usr/sbin:/sbin \
    PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt PIP_DEFAULT_TIMEOUT=120 "$@"
}

arch=$(in_root uname -m)
pyver=$(in_root python3 -c 'import platform; print(platform.python_version())')
[ "$arch" = aarch64 ] || die "the root runs as $arch, not aarch64"
say "root: Debian $(cat "$ROOTFS/etc/debian_version") $arch, Python $pyver"

# -- 3. the project in the root --------------------------------------------------------------------
step_start "copy the project"
rm -rf "$ROOTFS/opt/bridgetable"
mkdir -p "$ROOTFS/opt/bridgetable"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$ROOTFS/opt/bridgetable"
step_end "copy"

lock_hash=$(sha256sum requirements.lock | cut -c1-16)
if [ "$(cat "$ROOTFS/opt/venv/.lock-hash" 2>/dev/null || true)" != "$lock_hash" ]; then
  step_start "pip install -r requirements.lock in the root (arm64)"
  rm -rf "$ROOTFS/opt/venv"
  in_root python3 -m venv /opt/venv
  in_root /opt/venv/bin/python -m pip install --disable-pip-version-check \
    -r /opt/bridgetable/requirements.lock > "$CACHE/pip.log" 2>&1 \
    || { tail -30 "$CACHE/pip.log"; die "a package of requirements.lock does not install on arm64: $CACHE/pip.log"; }
  # The pi4 extra: RPi.GPIO has no wheel; it must build from source on the Pi's OS.
  in_root /opt/venv/bin/python -m pip wheel --disable-pip-version-check --no-deps -w /tmp/pi4 \
    RPi.GPIO >> "$CACHE/pip.log" 2>&1 || die "RPi.GPIO (the pi4 extra) does not build on arm64: $CACHE/pip.log"
  echo "$lock_hash" > "$ROOTFS/opt/venv/.lock-hash"
  step_end "pip install (once per requirements.lock)"
else
  say "venv: cached (requirements.lock unchanged)"
fi
in_root /opt/venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
  -e /opt/bridgetable > "$CACHE/pip-project.log" 2>&1 || die "the project does not install: $CACHE/pip-project.log"
in_root /opt/venv/bin/python -m pip check > "$CACHE/pip-check.log" 2>&1 \
  || { cat "$CACHE/pip-check.log"; die "pip check: the installed packages disagree"; }
sdists=$(grep -oE "(Building wheel for|Running setup.py install for) [^ :]*" "$CACHE/pip.log" \
  | awk '{print $NF}' | sort -u | tr "\n" " ")
say "built from source in the root (no arm64 wheel on the index): ${sdists:-none}"

# -- 4. tests and figures --------------------------------------------------------------------------
run_py() { in_root /usr/bin/env PYTHONDONTWRITEBYTECODE=1 /bin/sh -c "cd /opt/bridgetable && /opt/venv/bin/python $*"; }

step_start "pure tests in the root: $TESTS"
# A test that waits on a simulated device with a short timeout (nfcpy's PN532 gives a command
# 0.25 s) can miss it under emulation on a loaded machine: failures get one more run on their
# own, and are reported as timing under emulation if they pass then; failing twice fails the check.
if ! run_py "-m pytest -p no:cacheprovider $TESTS" > "$CACHE/pytest.log" 2>&1; then
  failed=$(grep -E '^FAILED ' "$CACHE/pytest.log" | awk '{print $2}' | tr '\n' ' ')
  [ -n "$failed" ] || { tail -40 "$CACHE/pytest.log"; die "the pure tests fail on arm64: $CACHE/pytest.log"; }
  run_py "-m pytest -p no:cacheprovider $failed" > "$CACHE/pytest-again.log" 2>&1 \
    || { tail -40 "$CACHE/pytest-again.log"; die "tests fail twice on arm64: $failed ($CACHE/pytest-again.log)"; }
  say "passed on a second run (timing under emulation): $failed"
fi
say "pure tests: $(grep -E '[0-9]+ (passed|failed)' "$CACHE/pytest.log" | tail -1)"
step_end "pure tests (arm64, emulated)"

step_start "simulated table in the root (bench/table.py --boards $BOARDS)"
run_py "bench/table.py --boards $BOARDS --idle 5" > "$CACHE/table.log" 2>&1 \
  || { tail -30 "$CACHE/table.log"; die "the simulated table fails on arm64: $CACHE/table.log"; }
cat "$CACHE/table.log" | tee -a "$REPORT.new"
step_end "simulated table"

step_start "bench/frames.py in the root"
run_py "bench/frames.py --codec-frames 5000 --latency-frames 500 --boards 10" > "$CACHE/frames.log" 2>&1 \
  || { tail -30 "$CACHE/frames.log"; die "bench/frames.py fails on arm64: $CACHE/frames.log"; }
cat "$CACHE/frames.log" | tee -a "$REPORT.new"
step_end "frames"

step_start "emulation factor: bench/emulation.py natively and in the root"
native=$("$PY" bench/emulation.py)
emulated=$(run_py bench/emulation.py)
say "native:   $native"
say "emulated: $emulated"
"$PY" - "$native" "$emulated" <<'PY' | tee -a "$REPORT.new"
import json, sys
n, e = (json.loads(s) for s in sys.argv[1:3])
for key in ("codec_s", "table_s"):
    print(f"emulation factor ({key[:-2]}): {e[key] / n[key]:.1f}x  ({n[key]:.3f} s native, {e[key]:.3f} s arm64 emulated)")
PY
step_end "emulation factor"

say "pi-check: passed in $(( $(date +%s) - START )) s"
mv "$REPORT.new" "$REPORT"
echo "pi-check: figures in $REPORT"
