"""Browser tests: the built `cameraroll serve` on a loopback port, driven by Debian's Chromium."""
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from datetime import datetime
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chromium.remote_connection import ChromiumRemoteConnection
from selenium.webdriver.common.by import By

from pages import wait

ROOT = Path(__file__).resolve().parents[2]
# Helpers both suites use (cutting_proxy, veth_namespace).
sys.path.insert(0, str(ROOT / "Tests" / "support"))
from veth_namespace import VethNamespace  # noqa: E402
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
BINARY = ROOT / ".build" / "debug" / "cameraroll"
OUTPUT = ROOT / "test-output" / "e2e"
FAILURES = OUTPUT / "failures"


class Server:
    def __init__(self, host="127.0.0.1", password=None, names=None, environment=None, arguments=()):
        self.names = names
        self.arguments = list(arguments)
        self.environment = {**os.environ, **(environment or {})}
        self.data = Path(tempfile.mkdtemp(prefix="cameraroll-e2e-"))
        # Beside the data folder, not in it: the log of every start, until stop().
        self.log = Path(tempfile.mkstemp(prefix="cameraroll-e2e-", suffix=".log")[1])
        self.host = host
        with socket.socket() as probe:
            probe.bind((host, 0))
            self.port = probe.getsockname()[1]
        # Beyond loopback the server speaks HTTPS, on a certificate signed by the local authority it
        # makes in its data folder.
        self.secure = host not in ("127.0.0.1", "::1")
        self.base = f"{'https' if self.secure else 'http'}://127.0.0.1:{self.port}"
        if password:
            subprocess.run([str(BINARY), "--data", str(self.data / "data"), "passwd"], input=password + "\n", text=True,
                           check=True, capture_output=True)
        self.start()

    @property
    def authority(self):
        return str(self.data / "data" / "tls" / "authority.pem") if self.secure else None

    def open(self, request, timeout):
        context = ssl.create_default_context(cafile=self.authority) if self.secure else None
        return urllib.request.urlopen(request, timeout=timeout, context=context)

    def start(self):
        """Runs the server on this object's port and data folder and waits until it answers."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(BINARY), "--data", str(self.data / "data"), "serve", "--host", self.host, "--port", str(self.port)]
                + (["--name", self.names] if self.names else []) + self.arguments,
                stdout=log, stderr=subprocess.STDOUT, env=self.environment)
        _servers.add(self)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if self.call("GET", "/healthz")["status"] == "ok":
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def halt(self):
        """Stops the server, keeping its data folder for a start() again."""
        self.process.terminate()
        self.process.wait(timeout=30)

    def call(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        with self.open(request, 120) as response:
            return json.loads(response.read() or b"{}")

    def fetch(self, path):
        """The raw bytes and headers of a GET (media)."""
        with self.open(self.base + path, 300) as response:
            return response.read(), response.headers

    def playable_video(self, asset_id, path=None):
        """A movie's bytes as a browser gets them: asking starts a rendition when the original is
        not playable everywhere, answered 202 until it is ready."""
        deadline = time.time() + 300
        while True:
            with self.open(self.base + (path or f"/media/{asset_id}/video"), 300) as response:
                if response.status == 200:
                    return response.read(), response.headers
            if time.time() > deadline:
                raise TimeoutError("the rendition was not made in time")
            time.sleep(0.5)

    def upload(self, corpus_path, query=""):
        return self.upload_bytes((CORPUS / corpus_path).read_bytes(), query)

    def upload_bytes(self, data, query=""):
        return self.call("POST", f"/api/assets{query}", body=data, headers={"Content-Type": "application/octet-stream"})

    def picker(self, configuration):
        return self.call("POST", "/api/picker/sessions", body=json.dumps(configuration).encode(),
                         headers={"Content-Type": "application/json"})

    def session(self, session_id, wait=0):
        return self.call("GET", f"/api/picker/sessions/{session_id}?wait={wait}")

    def stop(self):
        self.halt()
        _servers.discard(self)
        shutil.rmtree(self.data, ignore_errors=True)
        self.log.unlink(missing_ok=True)


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def family():
    """The owner (with a password) and Anna, each with a library of their own."""
    running = Server(password="the owner's password")
    subprocess.run([str(BINARY), "--data", str(running.data / "data"), "users", "add", "anna"], input="anna's password\n",
                   text=True, check=True, capture_output=True)
    yield running
    running.stop()


def chromium_options(*arguments):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,700",
                     "--disable-dev-shm-usage") + arguments:
        options.add_argument(argument)
    # Every console message, for a failure's artifacts: by default chromedriver keeps the errors alone.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def make_browser(camera, host_rules=None, scale=None, cameras=1):
    options = chromium_options()
    if scale:
        options.add_argument(f"--force-device-scale-factor={scale}")
    if host_rules:
        options.add_argument(f"--host-resolver-rules={host_rules}")
    if camera:
        # Chromium's fake cameras do not say which way they face.
        options.add_argument("--use-fake-device-for-media-stream" + (f"=device-count={cameras}" if cameras > 1 else ""))
        options.add_argument("--use-fake-ui-for-media-stream")
    return witnessed(webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options))


# The browsers of the test being run, from its setup until its call's outcome is known.
_witnesses = None
# The servers running now, whose logs a failure keeps.
_servers = set()


class Witness:
    """A browser of the running test, and what it showed when the test quit it, if it did."""

    def __init__(self, driver):
        self.driver = driver
        self.seen = None
        really_quit = driver.quit

        def look_then_quit():
            # A test that quits its own browser (in a finally) does so before anyone knows it failed.
            if self in (_witnesses or ()):
                self.seen = look(driver)
            really_quit()
        driver.quit = look_then_quit


def witnessed(driver):
    """Registers a new browser with the running test: if the test fails, each of its windows is kept."""
    if _witnesses is not None:
        _witnesses.append(Witness(driver))
    return driver


def look(driver):
    """What a browser shows: the console, and each window's address, title, screenshot and HTML,
    as {file name: content}, and the problems met reading them."""
    seen, problems = {}, []

    def keep(name, read):
        try:
            seen[name] = read()
        except Exception as error:  # a window gone or a page wedged must not cost the rest
            problems.append(f"{name}: {said(error)}")

    # Chromium keeps one console log for the whole session, every window's in it, whichever is
    # current; each read takes what came since the last.
    keep("console.log", lambda: "".join(
        f"{datetime.fromtimestamp(entry['timestamp'] / 1000).isoformat(timespec='milliseconds')} "
        f"{entry['level']} {entry['message']}\n" for entry in driver.get_log("browser")))
    try:
        handles = driver.window_handles
    except Exception as error:
        return seen, problems + [f"its windows: {said(error)}"]
    try:
        current = driver.current_window_handle
    except Exception:  # the test closed the window it was in
        current = None
    for number, handle in enumerate(handles, 1):
        window = f"window{number}"
        try:
            driver.switch_to.window(handle)
        except Exception as error:
            problems.append(f"{window}: {said(error)}")
            continue
        keep(f"{window}.txt", lambda: f"URL: {driver.current_url}\nTitle: {driver.title}\n"
             + ("The window the test was in\n" if handle == current else ""))
        # Apart: a page too wedged to run a script still has its address kept.
        keep(f"{window}-text.txt", lambda: driver.execute_script("return document.body?.innerText ?? ''"))
        keep(f"{window}.png", driver.get_screenshot_as_png)
        keep(f"{window}.html", lambda: driver.execute_script("return document.documentElement.outerHTML"))
    return seen, problems


def said(error):
    # Selenium's messages go on with chromedriver's stack, and its exceptions' repr is their name alone.
    first_line = str(error).strip().split("\n", 1)[0]
    return f"{type(error).__name__}: {first_line}"


# How much of each log and page the report of a failure quotes.
GIST_LINES = 25


def keep_failure(folder, witnesses):
    """Writes what each browser showed, and the log of each server running, into `folder`; a
    problem is a warning, never the test's failure. Returns the gist for the report: where the
    folder is not at hand (a CI run), the report is all there is to read."""
    folder.mkdir(parents=True)
    gist = [f"screenshots, console, HTML and server logs in {folder}"]
    for number, server in enumerate(sorted(_servers, key=lambda server: server.port), 1):
        try:
            shutil.copyfile(server.log, folder / f"server{number}-port{server.port}.log")
            gist.append(f"--- server {number} (port {server.port}), the end of its log:")
            gist += server.log.read_text(errors="replace").splitlines()[-GIST_LINES:]
        except OSError as error:
            warnings.warn(f"server {number}'s log, not kept: {said(error)}")
    for number, witness in enumerate(witnesses, 1):
        seen, problems = witness.seen or look(witness.driver)
        for name, content in seen.items():
            (folder / f"browser{number}-{name}").write_bytes(content if isinstance(content, bytes) else content.encode())
            if name.endswith(".txt"):
                gist.append(f"--- browser {number}, {name.removesuffix('.txt')}:")
                gist += content.splitlines()[:GIST_LINES]
            elif name == "console.log":
                gist.append(f"--- browser {number}, the end of its console:")
                gist += content.splitlines()[-GIST_LINES:]
        for problem in problems:
            warnings.warn(f"browser {number} of the failed test, not kept: {problem}")
    return "\n".join(gist)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item):
    global _witnesses
    _witnesses = []
    yield
    _witnesses = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    global _witnesses
    report = (yield).get_result()
    if call.when != "call":
        return
    # Looked at before any fixture's teardown quits its browser or stops the server.
    witnesses, _witnesses = _witnesses or [], None
    folder = FAILURES / item.name.replace("/", "_")
    try:
        # Of the latest run alone: a test that passes now leaves no folder of an earlier failure.
        shutil.rmtree(folder, ignore_errors=True)
        if report.failed and (witnesses or _servers):
            report.sections.append(("Browsers at the failure", keep_failure(folder, witnesses)))
    except Exception as error:
        warnings.warn(f"the failed test's browsers were not kept in {folder}: {said(error)}")


@pytest.fixture
def browser():
    driver = make_browser(camera=False)
    yield driver
    driver.quit()


@pytest.fixture
def second_browser():
    """Another person's browser beside `browser`: its own profile, so its own cookies."""
    driver = make_browser(camera=False)
    yield driver
    driver.quit()


@pytest.fixture
def camera_browser():
    """Chromium with its fake camera and microphone, permission granted."""
    driver = make_browser(camera=True)
    yield driver
    driver.quit()


@pytest.fixture
def two_camera_browser():
    """Chromium with two fake cameras, neither saying which way it faces."""
    driver = make_browser(camera=True, cameras=2)
    yield driver
    driver.quit()


@pytest.fixture
def screenshots(request):
    """Saves screenshots under test-output/e2e, named after the test: shoot(browser, label)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)

    def take(driver, label):
        driver.save_screenshot(str(OUTPUT / f"{request.node.name}-{label}.png"))
    return take


@pytest.fixture
def shot(screenshots, browser):
    return lambda label: screenshots(browser, label)


def tiles(browser):
    """The Photos app's tiles in the page (those with their item), in the grid's order."""
    return browser.execute_script("""return [...document.querySelectorAll('#grid .tile[data-asset]')]
        .map((tile) => ({id: tile.dataset.asset, index: Number(tile.dataset.index), label: tile.getAttribute('aria-label'),
                         selected: tile.getAttribute('aria-selected')}))""")


def snackbar_text(browser):
    """What the Photos app's snackbar says while it shows ("" once it has gone)."""
    return browser.execute_script("""const bar = document.querySelector('#snackbar');
        return bar.classList.contains('open') ? bar.querySelector('.snackbar-text').textContent : ''""")


def open_library(browser, server, hash=""):
    browser.get(f"{server.base}/library{hash}")
    wait(browser).until(lambda driver: tiles(driver) or driver.find_element(By.ID, "empty").is_displayed()
                        or driver.find_element(By.ID, "albums").is_displayed())


def outbox_digests(browser):
    """The SHA-256 of each capture waiting in the page's outbox (IndexedDB)."""
    return browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const request = indexedDB.open("cameraroll-outbox", 1);
        request.onupgradeneeded = () => request.result.createObjectStore("captures", { keyPath: "id" });
        request.onsuccess = () => {
          const all = request.result.transaction("captures").objectStore("captures").getAll();
          all.onsuccess = async () => done(await Promise.all(all.result.map(async (item) => {
            const digest = await crypto.subtle.digest("SHA-256", await item.blob.arrayBuffer());
            return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
          })));
        };""")


class Lan(VethNamespace):
    """A client inside the namespace reaches the server at `server_address` and is, to the
    server, another device on the LAN, at `client_address`."""

    def __init__(self):
        super().__init__("test", "")
        self.client_address = self.client_addresses[0]
        # The certificate the client trusts (the server's local authority, as a phone installs it).
        self.cafile = None

    def request(self, method, url, headers=None, body=None, cafile=None):
        """One request from inside the namespace: {status, headers, body}."""
        ask = {"method": method, "url": url, "headers": headers or {}, "body": body, "cafile": cafile or self.cafile}
        result = self.run(["/usr/bin/python3", str(Path(__file__).with_name("lan_client.py")), json.dumps(ask)],
                          capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"{method} {url} from the LAN failed: {result.stderr.strip()[-2000:]}"
        return json.loads(result.stdout)


@pytest.fixture
def lan():
    network = Lan()
    yield network
    network.remove()


@pytest.fixture
def lan_server(lan):
    # Started once the namespace's address exists, so that the certificate it makes names it.
    running = Server(host="0.0.0.0", password="the owner's password")
    lan.cafile = running.authority
    yield running
    running.stop()


def lan_browser_on(lan, trust=None, server=None):
    """Chromium with a (fake) camera inside the LAN namespace, driven through a chromedriver
    there: a second device. Given `trust` (a CA certificate file), it trusts that authority as a
    phone does once it is installed; otherwise it accepts the server's certificate as a phone's
    owner does past the warning. Given `server`, it returns once the browser reaches it."""
    home = Path(tempfile.mkdtemp(prefix="cameraroll-device-"))
    if trust:
        nssdb = home / ".pki" / "nssdb"
        nssdb.mkdir(parents=True)
        subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True, capture_output=True)
        subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "CameraRoll", "-i", trust],
                       check=True, capture_output=True)
    port = 9515
    driver_log = home / "chromedriver.log"
    driver_process = lan.popen(["env", f"HOME={home}", "/usr/bin/chromedriver", f"--port={port}",
                                f"--allowed-ips={lan.server_address}", f"--log-path={driver_log}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://{lan.client_address}:{port}"
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/status", timeout=2).read()
            break
        except OSError as error:
            if time.time() > deadline or driver_process.poll() is not None:
                driver_process.kill()
                log = driver_log.read_text(errors="replace")[-2000:] if driver_log.exists() else "(no log)"
                raise RuntimeError(f"the LAN device's chromedriver never answered at {url}: {error}; its log: {log}")
            time.sleep(0.2)
    options = chromium_options("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream")
    options.accept_insecure_certs = trust is None
    # Chromium's own connection, so that the device's browser takes CDP commands (its screen and touch) too.
    browser = witnessed(webdriver.Remote(command_executor=ChromiumRemoteConnection(url, "goog", "chrome"), options=options))
    if server:
        # The first page only once the browser reaches the server: a veth link just set up may
        # drop the first packets, and a page that failed to load is not retried by anyone.
        deadline = time.time() + 30
        while time.time() < deadline:
            browser.get(f"https://{lan.server_address}:{server.port}/healthz")
            if '"ok"' in browser.page_source:
                break
            time.sleep(0.5)

    def close():
        browser.quit()
        driver_process.terminate()
        driver_process.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)
    return browser, close
