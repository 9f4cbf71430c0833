"""Settings of the example project: Scrapy defaults plus the scrapy-denoise add-on.

The add-on is the whole integration: page filter, item filter, extraction and storage. The
database defaults to a SQLite file in this folder so the example runs anywhere; point
``DENOISE_DATABASE_URL`` at PostgreSQL (``postgresql+psycopg://user@host/db``) to share it
between crawler processes, e.g. ``scrapy crawl news -s DENOISE_DATABASE_URL=...``.
"""

from __future__ import annotations

from pathlib import Path

BOT_NAME = "news"
SPIDER_MODULES = ["news.spiders"]
NEWSPIDER_MODULE = "news.spiders"

ADDONS = {"scrapy_denoise.integration.Addon": 0}

DENOISE_DATABASE_URL = f"sqlite:///{Path(__file__).resolve().parent.parent / 'news.sqlite3'}"

# Be polite on real sites; the demo overrides these for its loopback server.
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS_PER_DOMAIN = 8
AUTOTHROTTLE_ENABLED = True
USER_AGENT = "scrapy-denoise example project"

FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
