"""A headless Chromium driven over the DevTools protocol: the suite's one client of it, for the
site's test and the notebook's.

    with Browser() as browser:
        page = browser.page()            # a new tab, its requests and errors recorded
        page.go("file:///.../index.html")
        page.eval("document.title")
        page.errors()                    # what the page logged as an error, so far

Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM). It is started with a fresh profile
in a temporary folder, which is removed with it, and with --no-sandbox only when running as
root, where Chromium's own sandbox refuses to start. The protocol is spoken over
websocket-client: one JSON message a command, answered by id; events are kept as they come.
"""

import base64
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import websocket

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


class Browser:
    def __init__(self, timeout=30):
        self.timeout = timeout
        self.profile = self.process = self.socket = None
        self.next_id = 0
        self.events = []

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="site-test-chromium-")
        flags = ["--headless=new", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
                 "--no-first-run", "--no-default-browser-check", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-extensions", "--mute-audio",
                 "--window-size=1200,900"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")
        # Its temporary folder inside the profile: a browser leaves its singleton folder
        # (org.chromium.Chromium.*) there, and the profile goes with the test.
        scratch = pathlib.Path(self.profile, "tmp")
        scratch.mkdir()
        self.process = subprocess.Popen([CHROMIUM, *flags, "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, "TMPDIR": str(scratch)})
        port_file = pathlib.Path(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout
        while not (port_file.is_file() and len(port_file.read_text().split()) == 2):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"{CHROMIUM} did not open its DevTools port")
            time.sleep(0.05)
        port, path = port_file.read_text().split()
        self.socket = websocket.create_connection(f"ws://127.0.0.1:{port}{path}",
                                                  timeout=self.timeout, suppress_origin=True)
        return self

    def __exit__(self, *exc):
        if self.socket:
            self.socket.close()
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, session=None, **params):
        """Send a command and return its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self):
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Network", "Log"):
            page.send(f"{domain}.enable")
        return page


class Page:
    def __init__(self, browser, session):
        self.browser, self.session = browser, session

    def send(self, method, **params):
        return self.browser.send(method, self.session, **params)

    def _events(self, method):
        return [e.get("params", {}) for e in self.browser.events
                if e.get("sessionId") == self.session and e.get("method") == method]

    def requests(self):
        """Every URL this page asked for so far."""
        return [params["request"]["url"] for params in self._events("Network.requestWillBeSent")]

    def errors(self):
        """What the page reported as an error so far, one line each: every console.error and
        console.assert, every uncaught exception, and every browser log entry at level error
        (a resource that failed to load, for one)."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                words = " ".join(str(a.get("value", a.get("description", "")))
                                 for a in params.get("args", []))
                found.append(f"console.{params['type']}: {words}")
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append("uncaught: " + details.get("exception", {}).get(
                    "description", details.get("text", "")))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                found.append(f"log: {entry.get('text')} {entry.get('url', '')}".strip())
        return found

    def go(self, url):
        self.send("Page.navigate", url=url)
        self.wait("document.readyState === 'complete' && document.body !== null")

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, timeout=60):
        """Wait until `expression` is true in the page; the seconds it took."""
        started = time.monotonic()
        while not self.eval(f"Boolean({expression})"):
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"waited {timeout}s for {expression}")
            time.sleep(0.1)
        return time.monotonic() - started

    def press(self, key, code, number):
        """A key pressed and let go, as the keyboard sends it, to whatever has the focus."""
        text = {"Enter": "\r", " ": " "}.get(key, "")
        self.send("Input.dispatchKeyEvent", type="keyDown", key=key, code=code,
                  windowsVirtualKeyCode=number, text=text)
        self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                  windowsVirtualKeyCode=number)

    def screenshot(self, path, clip=None):
        """A PNG of the viewport at `path`; with `clip` (x, y, width, height in CSS pixels), of
        that part of the page instead, however far down it is."""
        if clip is None:
            data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        else:
            x, y, width, height = clip
            data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                             clip={"x": x, "y": y, "width": max(width, 1),
                                   "height": max(height, 1), "scale": 1})
        pathlib.Path(path).write_bytes(base64.b64decode(data["data"]))
