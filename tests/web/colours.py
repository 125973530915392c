"""Colour distance for the palette tests: sRGB to CIELAB (D65), CIEDE2000, and the
colour-vision deficiencies simulated with Machado, Oliveira and Fernandes (2009)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

BOARD_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "board.js"

Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], ...]

# Machado et al. 2009, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE TVCG 15(6), table of matrices at severity 1.0 (dichromacy), applied to
# linear RGB.
SIMULATIONS: dict[str, Matrix | None] = {
    "normal vision": None,
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def board_colours() -> tuple[dict[str, str], list[str]]:
    """CARD_COLORS and PLAYER_COLORS as board.js declares them."""
    js = BOARD_JS.read_text()
    cards_src = re.search(r"export const CARD_COLORS = \{(.*?)\};", js, re.S)
    players_src = re.search(r"export const PLAYER_COLORS = (\[.*?\]);", js, re.S)
    assert cards_src and players_src, "board.js no longer declares its colours as expected"
    cards = dict(re.findall(r'(\w+):\s*"(#[0-9a-fA-F]{6})"', cards_src.group(1)))
    players = json.loads(players_src.group(1))
    return {k: v.lower() for k, v in cards.items()}, [p.lower() for p in players]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_lab(hex_colour: str, simulation: Matrix | None = None) -> Lab:
    rgb = [_linear(int(hex_colour[i : i + 2], 16)) for i in (1, 3, 5)]
    if simulation is not None:
        rgb = [
            min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
            for row in simulation
        ]
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (dc / s_c) * (d_h / s_h)
    )


def distance(one: str, other: str, simulation: Matrix | None = None) -> float:
    return ciede2000(to_lab(one, simulation), to_lab(other, simulation))
