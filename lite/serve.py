"""Serve the built site (site/) on this machine under a sub-path, as a teacher's web server or a
pages service would publish it (`make site-serve`: http://127.0.0.1:8000/course/)."""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class SubPathHandler(http.server.SimpleHTTPRequestHandler):
    """Files of ``directory`` under ``prefix`` (e.g. /course/); anything else is 404. Pyodide's
    module and WebAssembly files get the MIME types a browser requires of them."""

    prefix = "/course/"
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json", ".whl": "application/zip"}

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path.removeprefix(self.prefix))

    def send_head(self) -> Any:
        if self.path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return None
        if not self.path.startswith(self.prefix):
            self.send_error(404, f"the site is under {self.prefix}")
            return None
        return super().send_head()

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def server(directory: Path, prefix: str = "/course/", port: int = 8000, verbose: bool = False) -> http.server.ThreadingHTTPServer:
    """A server of ``directory`` under ``prefix`` on 127.0.0.1:``port`` (0: any free port), not yet serving."""
    if not (directory / "index.html").exists():
        raise SystemExit(f"{directory} holds no site: run `make site` first")
    handler = type("Handler", (SubPathHandler,), {"prefix": "/" + prefix.strip("/") + "/"})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    httpd.verbose = verbose  # type: ignore[attr-defined]
    return httpd


def serve_in_thread(directory: Path, prefix: str = "/course/") -> tuple[http.server.ThreadingHTTPServer, str]:
    """``server`` on a free port, serving in a daemon thread; and the site's URL."""
    httpd = server(directory, prefix, port=0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/{prefix.strip('/')}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "site")
    parser.add_argument("--prefix", default="/course/")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    httpd = server(args.dir, args.prefix, args.port, verbose=True)
    print(f"serving {args.dir} at http://127.0.0.1:{args.port}/{args.prefix.strip('/')}/ (Ctrl-C stops)", flush=True)
    with httpd:
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
