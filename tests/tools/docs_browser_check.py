"""Load every page of the built documentation in headless Chromium and check it.

Usage::

    python tests/tools/docs_browser_check.py BUILD_DIR [--chromium /usr/bin/chromium]

Serves ``BUILD_DIR`` (``python -m sphinx -b html docs BUILD_DIR``) on
loopback and opens a harness page in Chromium at 1280 px wide. The harness
loads each documentation page in a same-origin frame of that width and
records, after the page's own scripts ran:

* that the page loaded and has its main content;
* that the page does not scroll sideways, nor its main column overflow;
* that the landing page (``index.html``) holds a code block;
* that no code example scrolls sideways (benchmark output, ``text`` blocks,
  may: a table is not an example);
* that the footer's copyright line names its holder (not an empty ``©.``);
* that the project version is shown.

Exits 1 and lists every failing page when a check fails, 0 otherwise.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

WIDTH = 1280

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><title>docs check</title></head>
<body>
<pre id="result">pending</pre>
<script>
const pages = %(pages)s;
const version = %(version)s;
const results = [];
function check(page) {
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.style.width = "%(width)dpx";
    frame.style.height = "900px";
    const timer = setTimeout(() => resolve({page, problems: ["did not load within 20 s"]}), 20000);
    frame.onload = () => {
      clearTimeout(timer);
      const doc = frame.contentDocument;
      const problems = [];
      if (!doc || !doc.querySelector("article, [role=main], div.body")) {
        problems.push("no main content: the page did not load");
      } else {
        const root = doc.scrollingElement || doc.documentElement;
        if (root.scrollWidth > root.clientWidth + 1) {
          problems.push("the page scrolls sideways: " + root.scrollWidth + " > " + root.clientWidth);
        }
        // The main column holds its content: a wide block scrolls inside itself
        // (a table's own wrapper, a code block) and never widens the column.
        const main = doc.querySelector("article, [role=main], div.body");
        if (main) {
          const edge = main.getBoundingClientRect().right + 1;
          const view = frame.contentWindow;
          const scrolls = (el) => ["auto", "scroll"].includes(view.getComputedStyle(el).overflowX);
          for (const el of main.querySelectorAll("*")) {
            // Heading anchors sit in the margin by design; what scrolls inside
            // its own box (a code block, a table's wrapper) hides nothing.
            if (el.closest("a.headerlink") || el.querySelector(":scope > a.headerlink")) continue;
            let inside = false;
            for (let up = el.parentElement; up && up !== main; up = up.parentElement) {
              if (scrolls(up)) { inside = true; break; }
            }
            // A scroll container itself may reach into the theme's margin a little.
            const allowance = scrolls(el) ? 16 : 0;
            if (!inside && el.getBoundingClientRect().right > edge + allowance) {
              problems.push("the main column overflows by " + Math.round(el.getBoundingClientRect().right - edge + 1) +
                            " px: <" + el.tagName.toLowerCase() + "> " +
                            el.textContent.trim().slice(0, 50));
              break;
            }
          }
        }
        if (page.endsWith("index.html") && !doc.querySelector("div.highlight pre")) {
          problems.push("the landing page holds no code block");
        }
        doc.querySelectorAll("div.highlight pre").forEach((pre) => {
          const block = pre.closest("div[class*='highlight-']");
          if (block && block.classList.contains("highlight-text")) return;
          if (pre.scrollWidth > pre.clientWidth + 1) {
            problems.push("code block scrolls sideways: " + pre.textContent.split("\\n")[0].slice(0, 60));
          }
        });
        const footer = doc.querySelector("footer, div.footer");
        const copyright = footer ? (footer.textContent.match(/©\\s*([^|\\n]*)/) || [])[1] : undefined;
        if (!copyright || copyright.trim().replace(/[.\\s]/g, "") === "") {
          problems.push("empty copyright in the footer: " + JSON.stringify(copyright));
        }
        if (!doc.body.textContent.includes(version)) {
          problems.push("version " + version + " is not shown");
        }
      }
      frame.remove();
      resolve({page, problems});
    };
    frame.src = page;
    document.body.appendChild(frame);
  });
}
(async () => {
  for (const page of pages) results.push(await check(page));
  document.getElementById("result").textContent = "RESULT " + JSON.stringify(results);
})();
</script>
</body></html>
"""


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


def expected_version() -> str:
    """The version the site must show: gymspaces/_version.py of the tree this script's tests/ is in."""
    source = (Path(__file__).resolve().parents[2] / "gymspaces" / "_version.py").read_text(encoding="utf-8")
    match = re.search(r'__version__ = "([^"]+)"', source)
    if not match:
        raise SystemExit("cannot read __version__ from gymspaces/_version.py")
    return match.group(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--chromium", default="chromium")
    options = parser.parse_args(argv)
    build = options.build.resolve()
    pages = sorted(
        str(path.relative_to(build)) for path in sorted(build.glob("**/*.html"))
        if path.name not in ("genindex.html", "search.html") and "_static" not in path.parts and "_sources" not in path.parts
    )
    if not pages:
        raise SystemExit(f"no HTML pages in {build}")
    version = expected_version()
    harness = "__docs_check.html"
    (build / harness).write_text(
        HARNESS % {"pages": json.dumps(pages), "version": json.dumps(version), "width": WIDTH}, encoding="utf-8"
    )
    server, port = serve(build)
    try:
        with tempfile.TemporaryDirectory() as profile:
            command = [
                options.chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                f"--window-size={WIDTH + 40},1000",
                "--virtual-time-budget=60000",
                "--dump-dom",
                f"http://127.0.0.1:{port}/{harness}",
            ]
            dom = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False).stdout
    finally:
        server.shutdown()
        (build / harness).unlink()
    match = re.search(r"RESULT (\[.*\])", dom)
    if not match:
        print("the harness did not finish; Chromium printed:\n" + dom[-2000:], file=sys.stderr)
        return 1
    import html

    results = json.loads(html.unescape(match.group(1)))
    failing = [result for result in results if result["problems"]]
    for result in results:
        status = "FAIL" if result["problems"] else "ok"
        print(f"{status:4} {result['page']}")
        for problem in result["problems"]:
            print(f"       {problem}")
    print(f"{len(results)} pages at {WIDTH} px, {len(failing)} failing, version {version}")
    return 1 if failing or len(results) != len(pages) else 0


if __name__ == "__main__":
    sys.exit(main())
