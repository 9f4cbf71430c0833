"""Serve a static site folder over HTTP on loopback, for crawls that must not leave the machine.

Used for the generated demo site and for the shared real-site snapshots, whose file names
carry raw non-ASCII characters, spaces and apostrophes. The stdlib handler already
percent-decodes request paths as UTF-8; what it gets wrong for crawling is handled here:

* ``.html`` is sent as ``text/html; charset=utf-8`` only when the bytes really are UTF-8.
  A header charset overrides the page's own ``<meta charset>``, so claiming UTF-8 for a GBK
  page would hand the crawler mojibake; such pages get a bare ``text/html`` and the page
  decides.
* A directory without ``index.html`` is a 404, not a generated file listing: listings are no
  part of the site and would add pages the ground truth does not know.
* Per-request logging is off (debug-level through :mod:`logging` instead), so a crawl's log
  shows the crawler, not thousands of access lines.

``python -m demosite.serve DIR [--port N]`` (from ``example_project/``) prints the base URL
and serves until interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import logging
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path
from typing import Any

__all__ = ["main", "serve"]

logger = logging.getLogger(__name__)

_HTML_SUFFIXES = (".html", ".htm")
_TYPES = {
    ".xml": "application/xml; charset=utf-8",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}


def _is_utf8(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return True


class _Handler(SimpleHTTPRequestHandler):
    """Static files with crawl-friendly types, no listings and quiet logging."""

    def guess_type(self, path: str | Any) -> str:
        path = str(path)
        if path.lower().endswith(_HTML_SUFFIXES):
            return "text/html; charset=utf-8" if _is_utf8(path) else "text/html"
        known = _TYPES.get(os.path.splitext(path)[1].lower())
        return known if known is not None else super().guess_type(path)

    def translate_path(self, path: str) -> str:
        # http.server reads the request line as latin-1; a client that sent raw UTF-8 bytes
        # instead of percent-escapes would otherwise get a 404 for a file that exists
        if any(ord(char) > 0x7F for char in path):
            with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
                path = path.encode("latin-1").decode("utf-8")
        return super().translate_path(path)

    def list_directory(self, path: str | Any) -> BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s - " + format, self.address_string(), *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # crawlers drop connections mid-response; a traceback per drop is noise
        logger.debug("error while serving %s", client_address, exc_info=True)


@contextlib.contextmanager
def serve(root: Path, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``root`` in a background thread; yield the base URL (no trailing slash).

    ``port=0`` picks a free port, so parallel tests and crawls do not collide.
    """
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"cannot serve {root}: not a directory")
    handler = functools.partial(_Handler, directory=str(root.resolve()))
    server = _Server((host, port), handler)
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": 0.1},
        name="demosite-serve",
        daemon=True,
    )
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m demosite.serve", description="Serve a static site on loopback."
    )
    parser.add_argument("root", type=Path, help="directory to serve as the document root")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free port)")
    args = parser.parse_args(argv)
    stop = threading.Event()
    # SIGTERM (e.g. from a test or a process manager) ends the loop like Ctrl-C does, so the
    # server is shut down and its socket closed instead of the process dying mid-response
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with serve(args.root, host=args.host, port=args.port) as url:
        print(f"{url}/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
