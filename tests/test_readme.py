"""The README promises things the code must keep true."""

from __future__ import annotations

import re
from pathlib import Path

from scrapy_denoise.integration.settings import settings_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_settings_table_matches_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- settings-table -->\n(.*?)\n<!-- /settings-table -->", text, re.S)
    assert match, "README has no generated settings table"
    assert match.group(1).strip() == settings_table().strip()


def test_quickstart_commands_exist_in_the_makefile() -> None:
    makefile = (README.parent / "Makefile").read_text(encoding="utf-8")
    text = README.read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert f"make {target}" in text
        assert re.search(rf"^{target}:", makefile, re.M)
