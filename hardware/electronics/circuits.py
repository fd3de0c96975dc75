"""The seat unit's board and the pad board as netlists: parts, pins and nets, from the firmware's pin map.

Plain data, no EDA tool: ``make hardware`` (hardware/electronics/build.py) hands these to
SKiDL for its electrical rule check and the KiCad netlist, and writes the BOM from them.
Every GPIO number comes from ``firmware_bridge/firmware/seatfw/board.py`` and every Pico
pin name from ``hardware/diagrams/diagrams.toml`` (the drawings' source), so the boards,
the drawings and the firmware cannot disagree. The matching values come from
``antenna.py``; the pad-select wiring follows ``seatfw/pads.py`` (the last byte shifted
out lands in the first register of the chain: pad ``k`` is bit ``k`` of the 16-bit word).

Pin kinds are SKiDL's: in, out, bidir, passive, pwr_in, pwr_out, nc.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from firmware_bridge.firmware.seatfw import board  # noqa: E402  (the firmware's own pin map)

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import antenna  # noqa: E402

PINS_TOML = ROOT / "hardware" / "diagrams" / "diagrams.toml"


@dataclass(frozen=True)
class Pin:
    num: str
    name: str
    kind: str


@dataclass(frozen=True)
class Part:
    """One part on a board, with what the BOM needs to order it."""

    ref: str
    value: str
    footprint: str
    pins: tuple[Pin, ...]
    mpn: str = ""
    maker: str = ""
    second: str = ""           # a second source: "maker MPN"
    price_eur: float = 0.0     # indicative unit price at 100 pieces
    fit: str = "smt"           # smt (the fab assembles), tht (solder by hand), pcb (copper, nothing to buy)
    note: str = ""

    def pin(self, name: str) -> Pin:
        found = [p for p in self.pins if p.name == name or p.num == name]
        if len(found) != 1:
            raise KeyError(f"{self.ref} ({self.value}) has no single pin {name!r}")
        return found[0]


@dataclass(frozen=True)
class Board:
    """Parts and nets; a net is a name and the (ref, pin name) pairs it joins."""

    name: str
    parts: tuple[Part, ...]
    nets: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    power: tuple[str, ...] = ()   # nets fed from off the board (driven: the ERC's power sources)

    def part(self, ref: str) -> Part:
        for p in self.parts:
            if p.ref == ref:
                return p
        raise KeyError(ref)


def _pins(*spec: tuple[str, str, str]) -> tuple[Pin, ...]:
    return tuple(Pin(n, name, kind) for n, name, kind in spec)


def _two(kind: str = "passive") -> tuple[Pin, ...]:
    return _pins(("1", "1", kind), ("2", "2", kind))


class _Nets:
    def __init__(self) -> None:
        self.nets: dict[str, list[tuple[str, str]]] = {}

    def join(self, net: str, *ends: tuple[str, str]) -> None:
        self.nets.setdefault(net, []).extend(ends)

    def frozen(self) -> dict[str, tuple[tuple[str, str], ...]]:
        return {k: tuple(v) for k, v in self.nets.items()}


def pico_pin_names() -> list[str]:
    """The Pico's physical pins 1-40 by name, from the drawings' source."""
    with PINS_TOML.open("rb") as f:
        names = list(tomllib.load(f)["pico"]["pins"])
    if len(names) != 40:
        raise ValueError(f"diagrams.toml: [pico] pins lists {len(names)} pins, not 40")
    return names


def firmware_pins() -> dict[str, int]:
    """Every GPIO the firmware uses, by the name of its board.py constant."""
    pins = {f"ROW_PINS[{k}]": g for k, g in enumerate(board.ROW_PINS)}
    pins.update({f"COL_PINS[{k}]": g for k, g in enumerate(board.COL_PINS)})
    pins.update({f"SEAT_PINS[{k}]": g for k, g in enumerate(board.SEAT_PINS)})
    for const in ("BUZZER_PIN", "BUTTON_PIN", "LED_PIN", "MISO_PIN", "SCK_PIN", "MOSI_PIN", "PLAY_CS_PIN",
                  "PLAY_RST_PIN", "SPREAD_CS_PIN", "SPREAD_RST_PIN", "PAD_LATCH_PIN"):
        pins[const] = getattr(board, const)
    if len(set(pins.values())) != len(pins):
        raise ValueError("board.py gives one GPIO two roles")
    return pins


# -- common parts ------------------------------------------------------------------------------------

def _r(ref: str, value: str, mpn: str, second: str) -> Part:
    return Part(ref, value, "Resistor_SMD:R_0805_2012Metric", _two(), mpn, "Yageo", second, 0.01)


def _c(ref: str, value: str, mpn: str, second: str, size: str = "0805", maker: str = "Yageo") -> Part:
    fp = {"0603": "Capacitor_SMD:C_0603_1608Metric", "0805": "Capacitor_SMD:C_0805_2012Metric"}[size]
    return Part(ref, value, fp, _two(), mpn, maker, second, 0.02)


C100N = ("100 nF X7R", "CC0805KRX7R9BB104", "Samsung CL21B104KBCNNNC")


def _header(ref: str, value: str, names: Iterable[str], footprint: str, mpn: str, maker: str, second: str,
            price: float) -> Part:
    pins = tuple(Pin(str(i), name, "passive") for i, name in enumerate(names, start=1))
    return Part(ref, value, footprint, pins, mpn, maker, second, price, "tht")


READER_HEADER = ("SDA", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V")
PAD_CONNECTOR = ("3V3", "GND", "5V", "GND2", "MISO", "MOSI", "SCK", "CS", "RST", "LATCH")


def _pad_connector(ref: str) -> Part:
    return _header(ref, "pad board 2x5", PAD_CONNECTOR, "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical",
                   "T821110A1S100CEU", "Amphenol", "Wurth 61201021621", 0.45)


# -- the seat unit ------------------------------------------------------------------------------------

def seat_unit() -> Board:
    """The seat unit's carrier board: a Pico in sockets, the readers' headers, J1 to the bidding box."""
    names = pico_pin_names()
    kinds = {"GND": "pwr_in", "3V3(OUT)": "pwr_out", "VBUS": "pwr_out", "VSYS": "pwr_out",
             "RUN": "nc", "ADC_VREF": "nc", "3V3_EN": "nc"}
    pico = Part("U1", "Raspberry Pi Pico", "bridgetable:RaspberryPi_Pico_Sockets",
                tuple(Pin(str(i), name if name != "GND" else f"GND{i}", kinds.get(name, "bidir"))
                      for i, name in enumerate(names, start=1)),
                "SC0915", "Raspberry Pi", "Raspberry Pi SC0917 (Pico H)", 4.20, "tht",
                "in two 1x20 sockets (Sullins PPTC201LFBN-RC), so a unit can be swapped")
    rows, cols = list(board.ROW_PINS), list(board.COL_PINS)
    j1_names = [f"R{k}" for k in range(len(rows))] + [f"C{k}" for k in range(len(cols))]
    j1_names += [f"NC{i}" for i in range(14 - len(j1_names))]
    parts = [
        pico,
        _header("J1", "bidding box 2x7", j1_names, "Connector_IDC:IDC-Header_2x07_P2.54mm_Vertical",
                "T821114A1S100CEU", "Amphenol", "Wurth 61201421621", 0.50),
        _header("J2", "play MFRC522 module", READER_HEADER,
                "Connector_PinSocket_2.54mm:PinSocket_1x08_P2.54mm_Vertical", "PPTC081LFBN-RC", "Sullins",
                "Samtec SSW-108-01-T-S", 0.60),
        _header("J3", "spread MFRC522 module (no pad board)", READER_HEADER,
                "Connector_PinSocket_2.54mm:PinSocket_1x08_P2.54mm_Vertical",
                "PPTC081LFBN-RC", "Sullins", "Samtec SSW-108-01-T-S", 0.60),
        _header("J4", "arbiter button", ("SW", "GND"), "Connector_JST:JST_XH_B2B-XH-A_1x02_P2.50mm_Vertical",
                "B2B-XH-A(LF)(SN)", "JST", "Wurth 61300211121 (pin header)", 0.10),
        _pad_connector("J5"),
        _header("JP1", "seat jumper 0", ("1", "2"), "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
                "61300211121", "Wurth", "Harwin M20-9990245", 0.08),
        _header("JP2", "seat jumper 1", ("1", "2"), "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
                "61300211121", "Wurth", "Harwin M20-9990245", 0.08),
        Part("Q1", "MMBT3904", "Package_TO_SOT_SMD:SOT-23", _pins(("1", "B", "in"), ("2", "E", "passive"),
             ("3", "C", "passive")), "MMBT3904LT1G", "onsemi", "Nexperia MMBT3904,215", 0.04),
        _r("R1", "1 kΩ", "RC0805FR-071KL", "Vishay CRCW08051K00FKEA"),
        _r("R2", "330 Ω", "RC0805FR-07330RL", "Vishay CRCW0805330RFKEA"),
        Part("D1", "1N4148W", "Diode_SMD:D_SOD-123", _pins(("1", "K", "passive"), ("2", "A", "passive")),
             "1N4148W-7-F", "Diodes Inc", "onsemi 1N4148W", 0.03, note="across the buzzer"),
        Part("D2", "LED green", "LED_SMD:LED_0805_2012Metric", _pins(("1", "K", "passive"), ("2", "A", "passive")),
             "150080GS75000", "Wurth", "Kingbright APT2012SGC", 0.10),
        Part("BZ1", "active buzzer 5 V", "Buzzer_Beeper:Buzzer_12x9.5RM7.6", _pins(("1", "+", "passive"),
             ("2", "-", "passive")), "CEM-1205C", "CUI Devices", "PUI Audio AI-1223-TWT-5V-2-R", 0.90, "tht"),
        _c("C1", *C100N),
        _c("C2", "10 µF X5R", "CL21A106KOQNNNE", "Murata GRM21BR61A106KE19L", maker="Samsung"),
    ]
    n = _Nets()
    gp = {f"GP{g}": f"{i}" for i, name in enumerate(names, start=1) if name.startswith("GP") for g in [int(name[2:])]}

    def pico_pin(gpio: int) -> tuple[str, str]:
        return ("U1", gp[f"GP{gpio}"])

    for k, g in enumerate(rows):
        n.join(f"ROW{k}", pico_pin(g), ("J1", f"R{k}"))
    for k, g in enumerate(cols):
        n.join(f"COL{k}", pico_pin(g), ("J1", f"C{k}"))
    n.join("BUZZER", pico_pin(board.BUZZER_PIN), ("R1", "1"))
    n.join("BUZZER_B", ("R1", "2"), ("Q1", "B"))
    n.join("BUZZER_C", ("Q1", "C"), ("BZ1", "-"), ("D1", "A"))
    n.join("BUTTON", pico_pin(board.BUTTON_PIN), ("J4", "SW"))
    n.join("LED", pico_pin(board.LED_PIN), ("R2", "1"))
    n.join("LED_A", ("R2", "2"), ("D2", "A"))
    n.join("MISO", pico_pin(board.MISO_PIN), ("J2", "MISO"), ("J3", "MISO"), ("J5", "MISO"))
    n.join("SCK", pico_pin(board.SCK_PIN), ("J2", "SCK"), ("J3", "SCK"), ("J5", "SCK"))
    n.join("MOSI", pico_pin(board.MOSI_PIN), ("J2", "MOSI"), ("J3", "MOSI"), ("J5", "MOSI"))
    n.join("PLAY_CS", pico_pin(board.PLAY_CS_PIN), ("J2", "SDA"))
    n.join("PLAY_RST", pico_pin(board.PLAY_RST_PIN), ("J2", "RST"))
    n.join("SPREAD_CS", pico_pin(board.SPREAD_CS_PIN), ("J3", "SDA"), ("J5", "CS"))
    n.join("SPREAD_RST", pico_pin(board.SPREAD_RST_PIN), ("J3", "RST"), ("J5", "RST"))
    n.join("PAD_LATCH", pico_pin(board.PAD_LATCH_PIN), ("J5", "LATCH"))
    for k, g in enumerate(board.SEAT_PINS):
        n.join(f"SEAT{k}", pico_pin(g), (f"JP{k + 1}", "1"))
    n.join("+3V3", ("U1", str(names.index("3V3(OUT)") + 1)), ("J2", "3.3V"), ("J3", "3.3V"), ("J5", "3V3"),
           ("C1", "1"))
    n.join("+5V", ("U1", str(names.index("VBUS") + 1)), ("BZ1", "+"), ("D1", "K"), ("J5", "5V"), ("C2", "1"))
    gnd = [("U1", str(i)) for i, name in enumerate(names, start=1) if name == "GND"]
    n.join("GND", *gnd, ("J2", "GND"), ("J3", "GND"), ("J4", "GND"), ("J5", "GND"), ("J5", "GND2"),
           ("JP1", "2"), ("JP2", "2"), ("Q1", "E"), ("D2", "K"), ("C1", "2"), ("C2", "2"))
    for j in ("J2", "J3"):
        n.join(f"{j}_IRQ", (j, "IRQ"))        # not connected: the firmware polls
    for i, name in enumerate(j1_names, start=1):
        if name.startswith("NC"):
            n.join(f"J1_{name}", ("J1", str(i)))
    n.join("VSYS", ("U1", str(names.index("VSYS") + 1)))
    return Board("seat-unit", tuple(parts), n.frozen(), power=("+3V3", "+5V", "GND", "VSYS"))


# -- the pad board ------------------------------------------------------------------------------------

MFRC522_PINS = (
    ("1", "I2C", "in"), ("2", "PVDD", "pwr_in"), ("3", "DVDD", "pwr_in"), ("4", "DVSS", "pwr_in"),
    ("5", "PVSS", "pwr_in"), ("6", "NRSTPD", "in"), ("7", "MFIN", "in"), ("8", "MFOUT", "out"),
    ("9", "SVDD", "pwr_in"), ("10", "TVSS", "pwr_in"), ("11", "TX1", "out"), ("12", "TVDD", "pwr_in"),
    ("13", "TX2", "out"), ("14", "TVSS2", "pwr_in"), ("15", "AVDD", "pwr_in"), ("16", "VMID", "passive"),
    ("17", "RX", "in"), ("18", "AVSS", "pwr_in"), ("19", "AUX1", "out"), ("20", "AUX2", "out"),
    ("21", "OSCIN", "in"), ("22", "OSCOUT", "out"), ("23", "IRQ", "out"), ("24", "NSS", "in"),
    ("25", "D1", "bidir"), ("26", "D2", "bidir"), ("27", "D3", "bidir"), ("28", "D4", "bidir"),
    ("29", "SCK", "in"), ("30", "MOSI", "in"), ("31", "MISO", "out"), ("32", "EA", "in"),
    ("33", "EP", "pwr_in"),
)
HC595_PINS = (
    ("15", "QA", "out"), ("1", "QB", "out"), ("2", "QC", "out"), ("3", "QD", "out"), ("4", "QE", "out"),
    ("5", "QF", "out"), ("6", "QG", "out"), ("7", "QH", "out"), ("8", "GND", "pwr_in"), ("9", "QH'", "out"),
    ("10", "SRCLR", "in"), ("11", "SRCLK", "in"), ("12", "RCLK", "in"), ("13", "OE", "in"), ("14", "SER", "in"),
    ("16", "VCC", "pwr_in"),
)
QOUT = ("QA", "QB", "QC", "QD", "QE", "QF", "QG", "QH")


def pad_select_output(pad: int) -> tuple[int, str]:
    """The shift register (0: the first in the chain, on MOSI) and output that switch ``pad`` on.

    ``PadSelect.select`` sends the 16-bit word most significant byte first, each byte MSB
    first: the last byte (pads 0-7) stays in the first register, bit 0 at QA.
    """
    if not 0 <= pad < 16:
        raise ValueError(f"no pad {pad} on a 16-pad board")
    return pad // 8, QOUT[pad % 8]


def pad_board(pads: int = board.SPREAD_PADS) -> Board:
    """The spread zone's pad board: an MFRC522, its filter and matching, 16 switched loops, two 74HCT595."""
    if pads != 16:
        raise ValueError(f"the pad board has 16 pads; board.py's SPREAD_PADS is {pads}")
    m = antenna.rounded()
    pf = lambda farad: f"{round(farad * 1e12):d} pF C0G"  # noqa: E731
    c0g = "Murata"
    parts: list[Part] = [
        Part("U1", "MFRC522", "Package_DFN_QFN:QFN-32-1EP_5x5mm_P0.5mm_EP3.45x3.45mm", _pins(*MFRC522_PINS),
             "MFRC52202HN1,151", "NXP", "Fudan FM17522 (pin-compatible; test before a series)", 3.10,
             note="HVQFN32: fab assembly (hot air by hand is possible, not easy)"),
        Part("Y1", "27.12 MHz", "Crystal:Crystal_SMD_3225-4Pin_3.2x2.5mm",
             _pins(("1", "X1", "passive"), ("2", "GND1", "passive"), ("3", "X2", "passive"), ("4", "GND2", "passive")),
             "ABM8-27.120MHZ-B2-T", "Abracon", "ECS ECS-271.2-10-36Q-ES", 0.45),
        _c("C1", "15 pF C0G", "GRM1885C1H150JA01D", "Yageo CC0603JRNPO9BN150", "0603", c0g),
        _c("C2", "15 pF C0G", "GRM1885C1H150JA01D", "Yageo CC0603JRNPO9BN150", "0603", c0g),
        Part("L1", "1.0 µH", "Inductor_SMD:L_1210_3225Metric", _two(), "LQH32CN1R0M23L", "Murata",
             "TDK NLV32T-1R0J-PF", 0.20, note="EMC filter L0, TX1"),
        Part("L2", "1.0 µH", "Inductor_SMD:L_1210_3225Metric", _two(), "LQH32CN1R0M23L", "Murata",
             "TDK NLV32T-1R0J-PF", 0.20, note="EMC filter L0, TX2"),
        _c("C3", pf(m.c0), "GRM1885C1H121JA01D", "Yageo CC0603JRNPO9BN121", "0603", c0g),
        _c("C4", pf(m.c0), "GRM1885C1H121JA01D", "Yageo CC0603JRNPO9BN121", "0603", c0g),
        _c("C5", pf(m.c1), "GRM1885C1H330JA01D", "Yageo CC0603JRNPO9BN330", "0603", c0g),
        _c("C6", pf(m.c1), "GRM1885C1H330JA01D", "Yageo CC0603JRNPO9BN330", "0603", c0g),
        _c("C7", pf(m.c2), "GRM1885C1H221JA01D", "Yageo CC0603JRNPO9BN221", "0603", c0g),
        _c("C8", pf(m.c2), "GRM1885C1H221JA01D", "Yageo CC0603JRNPO9BN221", "0603", c0g),
        _c("C9", "1 nF C0G", "GRM1885C1H102JA01D", "Yageo CC0603JRNPO9BN102", "0603", c0g),
        _r("R1", "2.2 kΩ", "RC0805FR-072K2L", "Vishay CRCW08052K20FKEA"),
        _r("R2", "1 kΩ", "RC0805FR-071KL", "Vishay CRCW08051K00FKEA"),
        _c("C10", *C100N), _c("C11", *C100N), _c("C12", *C100N), _c("C13", *C100N), _c("C14", *C100N),
        _c("C15", "4.7 µF X5R", "CL21A475KAQNNNE", "Murata GRM21BR61C475KA88L", maker="Samsung"),
        _c("C16", *C100N), _c("C17", *C100N),
        _r("R3", "10 kΩ", "RC0805FR-0710KL", "Vishay CRCW080510K0FKEA"),
        Part("U2", "74HCT595", "Package_SO:TSSOP-16_4.4x5mm_P0.65mm", _pins(*HC595_PINS), "74HCT595PW,118",
             "Nexperia", "TI SN74HCT595PWR", 0.25, note="pads 0-7 (first in the chain, SER on MOSI)"),
        Part("U3", "74HCT595", "Package_SO:TSSOP-16_4.4x5mm_P0.65mm", _pins(*HC595_PINS), "74HCT595PW,118",
             "Nexperia", "TI SN74HCT595PWR", 0.25, note="pads 8-15"),
        _pad_connector("J1"),
    ]
    n = _Nets()
    # host side
    for name in ("MISO", "MOSI", "SCK"):
        n.join(name, ("J1", name))
    n.join("MISO", ("U1", "MISO"))
    n.join("MOSI", ("U1", "MOSI"), ("U2", "SER"))
    n.join("SCK", ("U1", "SCK"), ("U2", "SRCLK"), ("U3", "SRCLK"))
    n.join("CS", ("J1", "CS"), ("U1", "NSS"))
    n.join("RST", ("J1", "RST"), ("U1", "NRSTPD"))
    n.join("LATCH", ("J1", "LATCH"), ("U2", "RCLK"), ("U3", "RCLK"))
    n.join("CHAIN", ("U2", "QH'"), ("U3", "SER"))
    n.join("QH_OUT", ("U3", "QH'"))
    n.join("+3V3", ("J1", "3V3"), ("U1", "PVDD"), ("U1", "DVDD"), ("U1", "AVDD"), ("U1", "TVDD"), ("U1", "SVDD"),
           ("U1", "EA"), ("C10", "1"), ("C11", "1"), ("C12", "1"), ("C13", "1"), ("C15", "1"))
    n.join("+5V", ("J1", "5V"), ("U2", "VCC"), ("U3", "VCC"), ("U2", "SRCLR"), ("U3", "SRCLR"),
           ("C16", "1"), ("C17", "1"))
    gnd = [("J1", "GND"), ("J1", "GND2"), ("U2", "GND"), ("U3", "GND"), ("U2", "OE"), ("U3", "OE"),
           ("Y1", "GND1"), ("Y1", "GND2"), ("C1", "2"), ("C2", "2"), ("C3", "2"), ("C4", "2"), ("C7", "2"),
           ("C8", "2"), ("C10", "2"), ("C11", "2"), ("C12", "2"), ("C13", "2"), ("C14", "2"), ("C15", "2"),
           ("C16", "2"), ("C17", "2"), ("R3", "2")]
    gnd += [("U1", p) for p in ("DVSS", "PVSS", "TVSS", "TVSS2", "AVSS", "EP", "I2C")]   # I2C low: SPI mode
    n.join("GND", *gnd)
    # reader: crystal, VMID, RX, the unused pins
    n.join("OSCIN", ("U1", "OSCIN"), ("Y1", "X1"), ("C1", "1"))
    n.join("OSCOUT", ("U1", "OSCOUT"), ("Y1", "X2"), ("C2", "1"))
    n.join("VMID", ("U1", "VMID"), ("C14", "1"), ("R2", "2"))
    n.join("RX", ("U1", "RX"), ("R2", "1"), ("C9", "2"))
    n.join("RX_TAP", ("C9", "1"), ("R1", "2"))
    n.join("MFIN", ("U1", "MFIN"), ("R3", "1"))
    for pin in ("MFOUT", "AUX1", "AUX2", "IRQ", "D1", "D2", "D3", "D4"):
        n.join(f"U1_{pin}", ("U1", pin))
    # the antenna path, one side each: TX -> L0 -> C0 node -> C1 -> pad bus (C2 to ground)
    for side, (tx, l0, c0, c1, c2) in enumerate((("TX1", "L1", "C3", "C5", "C7"), ("TX2", "L2", "C4", "C6", "C8")),
                                                start=1):
        n.join(f"TX{side}", ("U1", tx), (l0, "1"))
        n.join(f"TX{side}_F", (l0, "2"), (c0, "1"), (c1, "1"), *([("R1", "1")] if side == 1 else []))
        n.join(f"BUS{side}", (c1, "2"), (c2, "1"))
    # the pads: a loop each, its ends switched onto BUS1 and BUS2 by a back-to-back MOSFET pair
    for k in range(pads):
        loop = Part(f"ANT{k}", "printed pad loop", "bridgetable:PadLoop_40x40mm_3T", _two(), fit="pcb",
                    note="printed loop: 40 x 40 mm, 3 turns, 0.5 mm track and gap (antenna.py)")
        parts.append(loop)
        chip, out = pad_select_output(k)
        sel = f"SEL{k}"
        n.join(sel, (f"U{2 + chip}", out))
        for end, bus in (("1", "BUS1"), ("2", "BUS2")):
            q = Part(f"Q{k}{'AB'[int(end) - 1]}", "BSS138DW", "Package_TO_SOT_SMD:SOT-363_SC-70-6",
                     _pins(("1", "S1", "passive"), ("2", "G1", "in"), ("3", "D2", "passive"),
                           ("4", "S2", "passive"), ("5", "G2", "in"), ("6", "D1", "passive")),
                     "BSS138DW-7-F", "Diodes Inc", "Nexperia BSS138BKS", 0.08,
                     note="two N-MOSFETs back to back (sources joined): a switch that blocks both ways")
            parts.append(q)
            n.join(bus, (q.ref, "D1"))
            n.join(f"PAD{k}_{end}", (q.ref, "D2"), (loop.ref, end))
            n.join(f"PAD{k}_{end}_S", (q.ref, "S1"), (q.ref, "S2"))
            n.join(sel, (q.ref, "G1"), (q.ref, "G2"))
    return Board("pad-board", tuple(parts), n.frozen(), power=("+3V3", "+5V", "GND"))


def boards() -> tuple[Board, ...]:
    return (seat_unit(), pad_board())


def problems(b: Board) -> list[str]:
    """What a netlist must never have, checked without an EDA tool (SKiDL's ERC checks the pin kinds).

    Every ref once; every net end a real pin; no pin on two nets; every pin that is not
    ``nc`` on a net; no net of one pin unless its pin is left open on purpose (``nc`` or a
    named spare: J1's NC pins, a reader's IRQ, the MFRC522's unused outputs).
    """
    out: list[str] = []
    refs = [p.ref for p in b.parts]
    out += [f"{b.name}: {r} used twice" for r in sorted({r for r in refs if refs.count(r) > 1})]
    seen: dict[tuple[str, str], str] = {}
    for net, ends in b.nets.items():
        for ref, pin in ends:
            try:
                num = b.part(ref).pin(pin).num
            except KeyError as e:
                out.append(f"{b.name}: net {net}: {e.args[0]}")
                continue
            if (ref, num) in seen and seen[(ref, num)] != net:
                out.append(f"{b.name}: {ref} pin {pin} on nets {seen[(ref, num)]} and {net}")
            seen[(ref, num)] = net
    for p in b.parts:
        for pin in p.pins:
            if pin.kind != "nc" and (p.ref, pin.num) not in seen:
                out.append(f"{b.name}: {p.ref} pin {pin.num} ({pin.name}) is on no net")
    return out


def open_on_purpose(b: Board, net: str) -> bool:
    """A one-pin net that is a deliberate no-connect (the ERC is told so)."""
    return net.startswith(("J1_NC", "J2_IRQ", "J3_IRQ", "U1_", "QH_OUT", "VSYS"))
