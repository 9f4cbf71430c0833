"""The reports in a real browser: headless Chromium driven over the DevTools protocol.

Chromium is started with ``--remote-debugging-pipe`` (the protocol as NUL-separated JSON on
file descriptors 3 and 4, no network port, no websocket library), opens a page report and a
store summary, moves the mouse over blocks, and takes screenshots. Checks:

* the legend and every fate's colour are drawn, and coloured outlines appear inside the
  framed page (pixel counts on the screenshot);
* pointing at a block in the framed page fills the side panel (the report's own script
  reaches into the sandboxed frame; the frame itself runs nothing);
* nothing from the hostile page ran or loaded: titles and DOM unchanged, no network request
  to its URLs, and no console message of a blocked script or a CSP violation, which means
  the sanitiser left nothing for the sandbox or the policy to block.

Screenshots go to ``tmp_path``, and also to ``$DENOISE_SCREENSHOT_DIR`` when set, to look at.
Without Chromium the test skips (outside CI); CI must install it (Debian: ``chromium``).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from report_pages import EVIL, HOSTILE, SITE, fill_store, site_page

from scrapy_denoise import Denoiser
from scrapy_denoise.report.page_report import (
    FATES,
    build_page_report,
    write_page_report,
)
from scrapy_denoise.report.summary import collect_summary, write_summary
from scrapy_denoise.store import Store

WIDTH, HEIGHT = 1400, 900
_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _chromium() -> str:
    exe = os.environ.get("DENOISE_CHROMIUM") or next(
        (found for name in _CANDIDATES if (found := shutil.which(name))), None
    )
    if exe:
        return exe
    if os.environ.get("CI"):
        pytest.fail("Chromium is missing in CI: install Debian's 'chromium' package")
    pytest.skip("headless Chromium not found (apt-get install chromium, or set DENOISE_CHROMIUM)")


def _high_fd(fd: int) -> int:
    """``fd`` moved above 9, so that the shell's ``3<&a 4>&b`` never reads a descriptor
    it has just replaced (pytest's own captures make low numbers unpredictable)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Browser:
    """A minimal DevTools protocol client over ``--remote-debugging-pipe``."""

    def __init__(self, exe: str, profile: Path) -> None:
        to_browser_r, self._w = os.pipe()
        self._r, from_browser_w = os.pipe()
        to_browser_r, from_browser_w = _high_fd(to_browser_r), _high_fd(from_browser_w)
        args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        # The protocol pipe must be fds 3 (commands in) and 4 (replies out) in the browser;
        # bash, not sh: dash cannot redirect from descriptors above 9.
        shell = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        self.proc = subprocess.Popen(
            ["bash", "-c", shell, exe, *args],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def call(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + 30
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def wait_event(self, name: str, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for k, event in enumerate(self.events):
                if event.get("method") == name:
                    del self.events[k]
                    return event
            self.events.append(self._read(deadline))

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self._r], [], [], remaining)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise EOFError("Chromium closed the protocol pipe")
                self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def close(self) -> None:
        with contextlib.suppress(OSError, EOFError, TimeoutError, RuntimeError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)


class Tab:
    """One page target with the domains the checks need."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Page", "Network", "Log", "Runtime"):
            self.call(f"{domain}.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        )

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, self.session)

    def open(self, path: Path) -> None:
        self.call("Page.navigate", {"url": path.resolve().as_uri()})
        self.browser.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def mouse(self, kind: str, x: float, y: float) -> None:
        params: dict[str, Any] = {"type": kind, "x": x, "y": y}
        if kind != "mouseMoved":
            params.update(button="left", clickCount=1)
        self.call("Input.dispatchMouseEvent", params)

    def screenshot(self, path: Path) -> Png:
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        path.write_bytes(data)
        keep = os.environ.get("DENOISE_SCREENSHOT_DIR")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
        return Png(data)

    def messages(self) -> list[str]:
        """Console and log messages so far (the browser reports blocked content there)."""
        out = []
        for event in self.browser.events:
            if event.get("method") == "Log.entryAdded":
                out.append(event["params"]["entry"].get("text", ""))
            elif event.get("method") == "Runtime.consoleAPICalled":
                out.append(" ".join(str(a.get("value")) for a in event["params"]["args"]))
            elif event.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(event["params"]))
        return out

    def requests(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.browser.events
            if e.get("method") == "Network.requestWillBeSent"
        ]


class Png:
    """Decode an 8-bit, non-interlaced RGB(A) PNG (what Chromium writes) to count colours."""

    def __init__(self, data: bytes) -> None:
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        pos, idat = 8, b""
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(
                    ">IIBBBBB", body
                )
                assert depth == 8 and colour in (2, 6) and interlace == 0
                self.channels = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        raw = zlib.decompress(idat)
        stride = self.width * self.channels
        rows: list[bytearray] = []
        prev = bytearray(stride)
        for y in range(self.height):
            start = y * (stride + 1)
            kind_byte, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
            bpp = self.channels
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if kind_byte == 1:
                    line[i] = (line[i] + a) & 0xFF
                elif kind_byte == 2:
                    line[i] = (line[i] + b) & 0xFF
                elif kind_byte == 3:
                    line[i] = (line[i] + (a + b) // 2) & 0xFF
                elif kind_byte == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    line[i] = (line[i] + pred) & 0xFF
            rows.append(line)
            prev = line
        self.rows = rows

    def count(self, colour: str, box: tuple[float, float, float, float] | None = None) -> int:
        """Pixels within 24 per channel of ``#rrggbb`` inside ``box`` (x0, y0, x1, y1)."""
        want = [int(colour[k : k + 2], 16) for k in (1, 3, 5)]
        x0, y0, x1, y1 = box or (0, 0, self.width, self.height)
        n = 0
        ch = self.channels
        for y in range(max(int(y0), 0), min(int(y1), self.height)):
            row = self.rows[y]
            for x in range(max(int(x0), 0), min(int(x1), self.width)):
                i = x * ch
                if (
                    abs(row[i] - want[0]) < 24
                    and abs(row[i + 1] - want[1]) < 24
                    and abs(row[i + 2] - want[2]) < 24
                ):
                    n += 1
        return n


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    exe = _chromium()
    b = Browser(exe, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield b
    finally:
        b.close()


def _frame_rect(tab: Tab) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = tab.eval(
        "(() => { const r = document.getElementById('denoise-frame').getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })()"
    )
    return x0, y0, x1, y1


def _block_point(tab: Tab, fate: str) -> tuple[float, float]:
    """Viewport coordinates of the first block with ``fate`` in the framed page."""
    x, y = tab.eval(
        "(() => { const f = document.getElementById('denoise-frame');"
        f" const el = f.contentDocument.querySelector('[data-denoise-fate=\"{fate}\"]');"
        " el.scrollIntoView({block: 'center'});"
        " const fr = f.getBoundingClientRect(), r = el.getBoundingClientRect();"
        " return [fr.left + r.left + Math.min(20, r.width / 2), fr.top + r.top + r.height / 2];"
        " })()"
    )
    return x, y


def test_page_report_renders_fates_and_panel(browser: Browser, tmp_path: Path) -> None:
    # 24 pages before the reported one: line statistics removes a line only once it is on
    # more than 21 pages (keep limit 1 + max(RC, 60) // 3)
    with Denoiser() as denoiser:
        for i in range(1, 25):
            page_url, body = site_page(i)
            denoiser.extract(body, page_url)
        url, page = site_page(0)
        report = build_page_report(page, url, denoiser=denoiser)
    counts = report.counts()
    assert all(counts[fate] for fate in FATES), counts
    path = write_page_report(report, tmp_path / "site-report.html")
    tab = Tab(browser)
    tab.open(path)
    assert tab.eval("document.documentElement.dataset.reportReady") == "1"
    assert int(tab.eval("document.documentElement.dataset.frameBlocks")) == len(report.blocks)
    assert tab.eval("document.querySelectorAll('#legend li').length") == len(FATES)

    png = tab.screenshot(tmp_path / "report-site.png")
    frame = _frame_rect(tab)
    for fate, (_, colour, _) in FATES.items():
        assert png.count(colour) >= 100, f"{fate} colour missing from the screenshot"
    assert png.count(FATES["kept"][1], frame) >= 300
    assert png.count(FATES["template"][1], frame) >= 100

    # Pointing at a block in the sandboxed frame shows its features in the side panel.
    x, y = _block_point(tab, "template")
    tab.mouse("mouseMoved", x, y)
    panel = tab.eval("document.getElementById('block-details').textContent")
    assert "removed by a site template" in panel and "template library" in panel
    assert "link density" in panel
    # A click pins the block: moving on to another block leaves the panel as it was.
    tab.mouse("mousePressed", x, y)
    tab.mouse("mouseReleased", x, y)
    kx, ky = _block_point(tab, "kept")
    tab.mouse("mouseMoved", kx, ky)
    assert "removed by a site template" in tab.eval(
        "document.getElementById('block-details').textContent"
    )
    # The list on the side selects blocks too, and the frame marks the selection.
    tab.eval("document.querySelector('#block-list button[data-id=\"0\"]').click()")
    selected = tab.eval(
        "document.getElementById('denoise-frame').contentDocument"
        ".querySelector('[data-denoise-selected]').getAttribute('data-denoise-id')"
    )
    assert selected == "0"
    tab.screenshot(tmp_path / "report-site-selected.png")
    assert not [u for u in tab.requests() if not u.startswith(("file:", "about:", "data:"))]


def test_hostile_page_runs_nothing_and_loads_nothing(browser: Browser, tmp_path: Path) -> None:
    with Denoiser(store=False) as denoiser:
        report = build_page_report(HOSTILE, f"{SITE}/2024/05/hostile.html", denoiser=denoiser)
    path = write_page_report(report, tmp_path / "hostile-report.html")
    tab = Tab(browser)
    tab.open(path)
    time.sleep(0.3)  # let anything that might run, run
    assert tab.eval("document.documentElement.dataset.reportReady") == "1"
    assert tab.eval("document.title").startswith("Denoise report")
    assert tab.eval("document.documentElement.getAttribute('data-pwned')") is None
    frame_doc = "document.getElementById('denoise-frame').contentDocument"
    assert tab.eval(f"{frame_doc}.title") == "Hostile page"
    assert tab.eval(f"{frame_doc}.getElementById('pwned')") is None
    assert tab.eval(f"{frame_doc}.documentElement.getAttribute('data-pwned')") is None
    assert tab.eval(f"{frame_doc}.querySelectorAll('script, iframe, object, embed').length") == 0
    assert tab.eval(f"{frame_doc}.URL") == "about:srcdoc"
    # The page's text is there, as text.
    assert "</iframe><script>alert(1)</script>" in tab.eval(f"{frame_doc}.body.textContent")
    # Clicking a link inside the frame goes nowhere.
    tab.eval(f"{frame_doc}.querySelector('a').scrollIntoView()")
    x, y = _link_point(tab)
    tab.mouse("mousePressed", x, y)
    tab.mouse("mouseReleased", x, y)
    time.sleep(0.2)
    assert tab.eval(f"{frame_doc}.URL") == "about:srcdoc"
    tab.screenshot(tmp_path / "report-hostile.png")

    assert not [u for u in tab.requests() if EVIL in u or u.startswith("http")]
    blocked = [
        m
        for m in tab.messages()
        if "Content Security Policy" in m or "Blocked script" in m or "PWNED" in m
    ]
    assert not blocked, blocked


def _link_point(tab: Tab) -> tuple[float, float]:
    x, y = tab.eval(
        "(() => { const f = document.getElementById('denoise-frame');"
        " const a = f.contentDocument.querySelector('a');"
        " const fr = f.getBoundingClientRect(), r = a.getBoundingClientRect();"
        " return [fr.left + r.left + r.width / 2, fr.top + r.top + r.height / 2]; })()"
    )
    return x, y


def test_summary_renders_charts(browser: Browser, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with Store.open(url) as store:
        fill_store(store)
        path = write_summary(collect_summary(store), tmp_path / "summary.html", store_url=url)
    tab = Tab(browser)
    tab.open(path)
    assert tab.eval("document.querySelectorAll('section.site').length") == 2
    assert tab.eval("document.querySelectorAll('svg.chart').length") == 7
    bars = tab.eval("document.querySelectorAll('svg.chart rect').length")
    assert bars >= 12
    # the score chart's bars are drawn inside the chart, not squashed or off its box
    inside = tab.eval(
        "(() => { const svg = document.querySelector('svg.chart');"
        " const box = svg.getBoundingClientRect();"
        " const rects = [...svg.querySelectorAll('rect[fill=\"#d95f02\"]')];"
        " return rects.length > 1 && rects.every(r => { const b = r.getBoundingClientRect();"
        " return b.height >= 1 && b.top >= box.top && b.bottom <= box.bottom; }); })()"
    )
    assert inside is True
    assert tab.eval("document.querySelectorAll('section.site .reasons tbody tr').length") >= 3
    assert tab.eval("document.querySelectorAll('section.site p.note').length") == 1
    png = tab.screenshot(tmp_path / "summary.png")
    assert png.count("#1b9e77") >= 500  # article bars (articles over time, article scores)
    assert png.count("#d95f02") >= 100  # noise pages' scores
    assert png.count("#e7298a") >= 100  # noise line bars
    assert not [m for m in tab.messages() if "Content Security Policy" in m]
