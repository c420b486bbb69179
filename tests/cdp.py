"""A headless Chromium driven over the DevTools protocol, for the site's test.

    with Browser() as browser:
        page = browser.page()            # a new tab, its requests recorded
        page.go("file:///.../index.html")
        page.eval("document.title")

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
        self.process = subprocess.Popen([CHROMIUM, *flags, "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        for domain in ("Page", "Runtime", "Network"):
            page.send(f"{domain}.enable")
        return page


class Page:
    def __init__(self, browser, session):
        self.browser, self.session = browser, session

    def send(self, method, **params):
        return self.browser.send(method, self.session, **params)

    def requests(self):
        """Every URL this page asked for so far."""
        return [e["params"]["request"]["url"] for e in self.browser.events
                if e.get("sessionId") == self.session
                and e.get("method") == "Network.requestWillBeSent"]

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

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        pathlib.Path(path).write_bytes(base64.b64decode(data["data"]))
