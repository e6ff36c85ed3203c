"""Photographing the bot's messages as the Discord client shows them: SimCord's Preview
draws a message and headless Chromium (Debian's `chromium`, as the replay page's tests use)
takes its picture at each width asked for, with a `.txt` beside it saying what was
captured.

What a capture measures is taken from the page the Preview drew, never from an image: the
message's height in pixels and the position of each line of its text (so the tests can
ask whether a line is on the first phone screen), and its characters as Discord counts
them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.screens_messages import characters, message_text
from bench.screens_world import Table

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
TALL = 6000  # the viewport's height for a capture: the whole message, whatever its length
PHONE_SCREEN = 740  # px of message area on a phone's first screen (Discord's app on a 400 x 866 phone)

# The page's text, line box by line box, relative to the top of the captured message:
# each text node's client rects, with the text of its block (its paragraph, field or line).
_TEXT_POSITIONS = """() => {
  const root = document.getElementById('focused-content')
    || document.querySelector('.channel-message[data-message-id]')
    || document.getElementById('preview-app');
  const top = root.getBoundingClientRect().top;
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!text) continue;
    let block = node.parentElement;
    while (block && block !== root && getComputedStyle(block).display.startsWith('inline')) {
      block = block.parentElement;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const box = block ? block.getBoundingClientRect() : rects[0];
    out.push({
      text, block: block ? block.innerText : text,
      top: Math.min(...rects.map(r => r.top)) - top,
      bottom: Math.max(...rects.map(r => r.bottom)) - top,
      blockTop: box.top - top, blockBottom: box.bottom - top,
    });
  }
  return out;
}"""


@dataclass
class TextLine:
    """One text node of a captured message: where it is, and the block it belongs to."""

    text: str
    block: str
    top: float
    bottom: float
    block_top: float
    block_bottom: float


@dataclass
class Capture:
    """One message photographed at one width."""

    name: str  # lobby, status, notice, me, standings
    width: int
    path: Path
    height: int
    characters: int
    text: str  # what the message says (its content, embeds and components as text)
    lines: list[TextLine]
    diagnostics: list[str]  # SimCord's: a missing attachment, an unsupported component, a render error
    complete: bool
    more: int = 0  # messages after it in the same answer (an interaction's follow-ups), not captured


def waiting_block(capture: Capture, awaited: list[str]) -> TextLine | None:
    """The first block of text (a line or paragraph) that says who is awaited: it reads
    "waiting" and names every awaited member."""
    for line in sorted(capture.lines, key=lambda x: x.top):
        block = line.block.casefold()
        if "waiting" in block and all(name.casefold() in block for name in awaited):
            return line
    return None


class SharedBrowser:
    """Our Chromium, handed to each Preview's capture in place of the Playwright-installed
    browser it would launch (this machine has Debian's, not Playwright's). A capture's page
    reports the position of every line of text just before its screenshot."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.last_lines: list[dict[str, Any]] = []

    # the Browser's face, as ManagedCapture uses it
    @property
    def version(self) -> str:
        return str(self.browser.version)

    async def new_context(self, **options: Any) -> Any:
        return _Context(self, await self.browser.new_context(**options))

    async def close(self) -> None:  # the Preview closing: ours stays open for the next one
        return None


class _Context:
    def __init__(self, shared: SharedBrowser, context: Any) -> None:
        self._shared, self._context = shared, context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    async def new_page(self) -> Any:
        return _Page(self._shared, await self._context.new_page(), self)

    async def new_cdp_session(self, page: Any) -> Any:
        return await self._context.new_cdp_session(getattr(page, "_page", page))


class _Page:
    def __init__(self, shared: SharedBrowser, page: Any, context: _Context) -> None:
        self._shared, self._page, self.context = shared, page, context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    async def screenshot(self, **options: Any) -> Any:
        self._shared.last_lines = await self._page.evaluate(_TEXT_POSITIONS)
        return await self._page.screenshot(**options)


@asynccontextmanager
async def chromium() -> AsyncIterator[SharedBrowser]:
    from playwright.async_api import async_playwright

    if not CHROMIUM.exists():
        raise RuntimeError("Debian's chromium is needed at /usr/bin/chromium: apt-get install chromium")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield SharedBrowser(browser)
        finally:
            await browser.close()


class Photographer:
    """Captures of one table's messages at the widths asked for, into `out`."""

    def __init__(self, shared: SharedBrowser, out: Path, widths: tuple[int, ...]) -> None:
        self.shared, self.out, self.widths = shared, out, widths

    async def take(self, table: Table, name: str, channel: Any, viewer: Any, target: Any) -> list[Capture]:
        """`target` (a message or an interaction's answer) in `channel` as `viewer` sees it."""
        captures = []
        message = target.response if hasattr(target, "response") else target
        text, size = message_text(message), characters(message)
        more = len(getattr(target, "followups", None) or [])
        async with table.env.preview(
            channel, viewers=[viewer], display="fixed", width=self.widths[0], height=TALL
        ) as preview:
            preview._capture_manager._browser = self.shared  # our Chromium (see SharedBrowser)
            for width in self.widths:
                path = self.out / f"{table.game.id}-{name}-{width}.png"
                shot = await preview.screenshot(
                    path, target=target, viewport=(width, TALL), allow_incomplete=True
                )
                diagnostics = [
                    f"{d.get('code')}: {d.get('message')}" for d in shot.diagnostics if d.get("code")
                ]
                lines = [
                    TextLine(x["text"], x["block"], x["top"], x["bottom"], x["blockTop"], x["blockBottom"])
                    for x in self.shared.last_lines
                ]
                capture = Capture(
                    name, width, path, shot.output_height, size, text, lines, diagnostics, shot.complete, more
                )
                path.with_suffix(".txt").write_text(_sidecar(table, capture), encoding="utf-8")
                captures.append(capture)
        return captures


def _sidecar(table: Table, c: Capture) -> str:
    head = [
        f"{table.game.title}, {table.title.players} players, seed {table.title.seed}: {c.name}",
        f"{c.width} px wide, {c.height} px high; {c.characters} characters",
        f"diagnostics: {'; '.join(c.diagnostics) or 'none'}",
        *([f"followed by {c.more} more messages in the same answer, not captured"] if c.more else []),
        "",
    ]
    return "\n".join(head) + c.text + "\n"
