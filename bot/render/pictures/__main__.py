"""`python -m bot.render.pictures --gallery DIR`: a picture of every kind of round, in nb, nn,
sv and en, with its alternative text beside it (DIR/<lang>/<kind>.png and .txt)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.render.pictures import draw_table
from bot.render.pictures.gallery import NAMES, every_position
from classroom.i18n import LANGS


def write_gallery(folder: Path) -> list[Path]:
    """Write the gallery; returns the pictures written."""
    written: list[Path] = []
    positions = every_position()
    for lang in LANGS:
        out = folder / lang
        out.mkdir(parents=True, exist_ok=True)
        for position in positions:
            picture = draw_table(position.view, NAMES, lang)
            path = out / f"{position.name}.png"
            path.write_bytes(picture.png)
            path.with_suffix(".txt").write_text(picture.alt + "\n", encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.render.pictures", description=__doc__)
    parser.add_argument("--gallery", type=Path, required=True, metavar="DIR")
    args = parser.parse_args(argv)
    written = write_gallery(args.gallery)
    total = sum(path.stat().st_size for path in written)
    print(f"{len(written)} pictures ({total // 1024} KB) in {args.gallery}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
