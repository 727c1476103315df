"""The installed page's icons, drawn here: a white tick on the studio's accent blue, as PNG
(8-bit RGBA, zlib at level 9). `python3 Tests/browser/make_icons.py` writes them into the page
(Sources/RoutineStudio/Page/icons/); test_phone.py checks the files are what this draws.

The "any" icons are a rounded square with clear corners; the maskable one fills the square and
keeps the tick inside the middle 80%, the part every launcher's mask leaves."""

import pathlib
import struct
import sys
import zlib

PAGE = pathlib.Path(__file__).resolve().parents[2] / "Sources/RoutineStudio/Page/icons"
ACCENT = (0x2F, 0x6F, 0xDB)
WHITE = (0xFF, 0xFF, 0xFF)
# The tick's two strokes, in units of the icon's side, and their width.
TICK = [((0.28, 0.52), (0.44, 0.68)), ((0.44, 0.68), (0.74, 0.36))]
STROKE = 0.075
SAMPLES = 4


def distance(px, py, a, b):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


def inside_rounded(x, y, radius):
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius


def draw(size, maskable):
    # The maskable icon's tick is scaled into the safe zone, around the middle.
    scale = 0.8 if maskable else 1.0
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            cover = tick = 0
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    x = (i + (si + 0.5) / SAMPLES) / size
                    y = (j + (sj + 0.5) / SAMPLES) / size
                    if maskable or inside_rounded(x, y, 0.18):
                        cover += 1
                        tx, ty = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
                        if min(distance(tx, ty, a, b) for a, b in TICK) <= STROKE / 2:
                            tick += 1
            alpha = cover / SAMPLES**2
            mix = tick / cover if cover else 0
            rgb = [round(ACCENT[k] * (1 - mix) + WHITE[k] * mix) for k in range(3)]
            row += bytes(rgb + [round(alpha * 255)])
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size, raw):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False), "maskable-512.png": (512, True)}


def render():
    return {name: draw(size, maskable) for name, (size, maskable) in ICONS.items()}


if __name__ == "__main__":
    PAGE.mkdir(parents=True, exist_ok=True)
    for name, data in render().items():
        (PAGE / name).write_bytes(data)
        print(f"{PAGE / name}: {len(data)} bytes", file=sys.stderr)
