"""The chooser for other sites: a test site on another loopback port (another origin) includes
/app/chooser.js and opens CameraRoll's picker in a popup, as a blog editor would. The owner
allows sites (or is asked), the site gets the book's info and loads the picked bytes
cross-origin, and sites that are not allowed get nothing."""
import hashlib
import http.server
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BINARY, CORPUS, Server, lan_browser_on
from pages import button, grid_item, wait

PHOTO = "photos/recurser__Landscape_1.jpg"

SITE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>My blog</title>
<script src="{server}/app/chooser.js"></script></head>
<body>
<h1>My blog</h1>
<button id="choose">Add a photo</button>
<script>
window.outcome = null;
window.options = {{ sourceType: "photoLibrary", mediaTypes: ["public.image"] }};
document.querySelector("#choose").addEventListener("click", () => {{
  CameraRoll.choose(window.options).then((outcome) => {{ window.outcome = outcome; }},
                                         (error) => {{ window.outcome = {{ error: error.code }}; }});
}});
// What this page's own code gets from a URL of CameraRoll's: the bytes' SHA-256 (or their
// count where the page is not a secure context), or how it failed.
window.load = async (url) => {{
  let response;
  try {{ response = await fetch(url, {{ credentials: "omit" }}); }} catch (error) {{ return "blocked"; }}
  if (!response.ok) return `status ${{response.status}}`;
  const bytes = await response.arrayBuffer();
  if (!crypto.subtle) return `bytes ${{bytes.byteLength}}`;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}};
</script>
</body></html>
"""


class Site:
    """Another web site: its own HTTP server on another port, serving the page that uses the chooser."""

    def __init__(self, server_base, host="127.0.0.1"):
        page = SITE_PAGE.format(server=server_base).encode()
        example = {name: urllib.request.urlopen(f"http://127.0.0.1:{server_base.rsplit(':', 1)[1]}/app/{name}").read()
                   for name in ("chooser-example.html", "chooser-example.js", "chooser-example.css")} \
            if server_base.startswith("http://") else {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                name = self.path.split("?")[0].lstrip("/")
                body = page if name in ("", "index.html") else example.get(name)
                if body is None:
                    self.send_error(404)
                    return
                kind = {"js": "text/javascript", "css": "text/css"}.get(name.rsplit(".", 1)[-1], "text/html")
                self.send_response(200)
                self.send_header("Content-Type", f"{kind}; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.origin = f"http://{host}:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def site(server):
    running = Site(server.base)
    yield running
    running.close()


def apps(server, *words):
    return subprocess.run([str(BINARY), "--data", str(server.data / "data"), "apps", *words],
                          check=True, capture_output=True, text=True).stdout


def allow(server, site, lifetime=None):
    apps(server, "add", site.origin, "--name", "My blog", *(["--link-lifetime", lifetime] if lifetime else []))


def open_chooser(browser, site, **options):
    """Opens the site, presses its button, and switches to the chooser's popup."""
    browser.get(site.origin + "/")
    if options:
        browser.execute_script("Object.assign(window.options, arguments[0])", options)
    opener = browser.current_window_handle
    browser.find_element(By.ID, "choose").click()
    wait(browser).until(lambda driver: len(driver.window_handles) == 2)
    browser.switch_to.window(next(handle for handle in browser.window_handles if handle != opener))

    # The popup opens blank and then navigates: a look at it in between is "aborted by navigation".
    def loaded(driver):
        try:
            return driver.current_url != "about:blank" and driver.execute_script("return document.readyState") == "complete"
        except WebDriverException as error:
            if "aborted by navigation" in str(error):
                return False
            raise

    wait(browser).until(loaded)
    return opener


def outcome(browser, opener, seconds=30):
    browser.switch_to.window(opener)
    return wait(browser, seconds).until(lambda driver: driver.execute_script("return window.outcome"))


def load(browser, url):
    return browser.execute_async_script("window.load(arguments[0]).then(arguments[arguments.length - 1])", url)


def sha256(path):
    return hashlib.sha256((CORPUS / path).read_bytes()).hexdigest()


def pick(browser, asset_id):
    grid_item(browser, asset_id).click()


def test_an_allowed_site_gets_the_pick_and_loads_it_cross_origin(server, site, browser, shot):
    photo = server.upload(PHOTO)
    allow(server, site)
    opener = open_chooser(browser, site)
    # The popup is CameraRoll's own page, and it names who gets the photo.
    wait(browser).until(lambda driver: driver.current_url.startswith(server.base + "/picker/"))
    named = wait(browser).until(seen.visibility_of_element_located((By.ID, "picker-for")))
    assert named.text == f"Choose a photo for My blog ({site.origin.split('//')[1]})"
    assert browser.title == "Choose a photo for My blog — CameraRoll"
    shot("popup")
    pick(browser, photo["id"])
    result = outcome(browser, opener)
    assert result["status"] == "finished"
    info = result["info"]
    assert info["mediaType"] == "public.image" and info["assetID"] == photo["id"]
    # Another site's pick leaves out location and captions by default (privacy per pick); this
    # photo has neither, so its bytes are the original's.
    assert info["originalImage"].startswith(f"{server.base}/media/{photo['id']}/without/location-captions?cap=")
    assert "&app=" in info["originalImage"]
    assert len(browser.window_handles) == 1, "the chooser closes its popup"
    # The page's own code reads the bytes, byte-exact, with no cookie and no sign-in.
    assert load(browser, info["originalImage"]) == sha256(PHOTO)
    headers = server.fetch(info["originalImage"].removeprefix(server.base))[1]
    assert headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    # Only what was picked: another kind of the same photo is refused to the site.
    assert load(browser, info["originalImage"].replace("/without/location-captions?", "/thumbnail?")) == "status 403"
    assert load(browser, f"{server.base}/api/assets") == "blocked"
    shot("site")


def test_a_site_not_allowed_gets_nothing_and_is_asked(server, site, browser, shot):
    server.upload(PHOTO)
    browser.get(site.origin + "/")
    # Its own requests: no CORS headers, so its page reads nothing.
    assert browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0] + "/api/picker/sessions", {method: "POST", headers: {"Content-Type": "application/json"},
              body: JSON.stringify({sourceType: "photoLibrary"})}).then(() => done("read"), () => done("blocked"));""",
                                        server.base) == "blocked"
    request = urllib.request.Request(server.base + "/api/picker/sessions", method="OPTIONS", headers={"Origin": site.origin})
    try:
        urllib.request.urlopen(request)
        refused = None
    except urllib.error.HTTPError as error:
        refused = error
    assert refused.code == 403 and "Access-Control-Allow-Origin" not in refused.headers
    # The chooser asks the owner, naming the site by what the browser says it is.
    opener = open_chooser(browser, site)
    consent = wait(browser).until(seen.visibility_of_element_located((By.ID, "consent")))
    host = site.origin.split("//")[1]
    assert consent.find_element(By.ID, "consent-title").text == f"{host} wants to use your picker"
    assert [element.text for element in consent.find_elements(By.TAG_NAME, "button")] == ["Allow once", "Always", "Deny"]
    shot("asked")
    button(browser, "Deny").click()
    assert outcome(browser, opener) == {"status": "denied"}
    assert json.loads(apps(server, "list", "--json")) == []


def test_allow_once_serves_one_pick_and_keeps_nothing(server, site, browser):
    photo = server.upload(PHOTO)
    opener = open_chooser(browser, site)
    button(browser, "Allow once").click()
    pick(browser, photo["id"])
    result = outcome(browser, opener)
    assert result["status"] == "finished"
    assert load(browser, result["info"]["originalImage"]) == sha256(PHOTO)
    assert json.loads(apps(server, "list", "--json")) == []
    # The next time, it asks again.
    open_chooser(browser, site)
    wait(browser).until(seen.visibility_of_element_located((By.ID, "consent")))


def test_always_keeps_the_site_among_the_allowed_apps(server, site, browser):
    photo = server.upload(PHOTO)
    opener = open_chooser(browser, site)
    button(browser, "Always").click()
    pick(browser, photo["id"])
    assert outcome(browser, opener)["status"] == "finished"
    kept = json.loads(apps(server, "list", "--json"))
    assert [app["origin"] for app in kept] == [site.origin]
    # The next time, straight to the picker.
    open_chooser(browser, site)
    wait(browser).until(lambda driver: "/picker/" in driver.current_url)


def test_cancel_and_closing_the_window_give_nothing(server, site, browser):
    server.upload(PHOTO)
    allow(server, site)
    opener = open_chooser(browser, site)
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]")))
    session_id = browser.current_url.rsplit("/", 1)[1]
    button(browser, "Cancel").click()
    assert outcome(browser, opener) == {"status": "cancelled", "closed": False}
    assert server.session(session_id)["status"] == "cancelled"
    browser.execute_script("window.outcome = null")
    open_chooser(browser, site)
    popup = browser.current_window_handle
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, "[data-asset]")))
    session_id = browser.current_url.rsplit("/", 1)[1]
    browser.close()
    assert popup not in browser.window_handles
    assert outcome(browser, opener) == {"status": "cancelled", "closed": True}
    # The site told the server, so the session does not wait for an hour.
    assert server.session(session_id)["status"] == "cancelled"


def test_a_message_from_a_third_window_is_ignored(server, site, browser):
    photo = server.upload(PHOTO)
    allow(server, site)
    opener = open_chooser(browser, site)
    wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
    session_id = browser.current_url.rsplit("/", 1)[1]
    popup = browser.current_window_handle
    # A frame of CameraRoll's origin on the site's page (the server's health check: not a page
    # that refuses frames) sends everything the popup could, with the right session id.
    browser.switch_to.window(opener)
    browser.execute_script("""
        const frame = document.createElement("iframe");
        frame.id = "third";
        frame.src = arguments[0] + "/healthz";
        document.body.append(frame);""", server.base)
    browser.switch_to.frame(wait(browser).until(seen.presence_of_element_located((By.ID, "third"))))
    wait(browser).until(lambda driver: driver.execute_script("return document.readyState") == "complete")
    browser.execute_script("""
        for (const message of [{cameraroll: "denied", nonce: "x"}, {picker: arguments[0], status: "finished",
             info: {mediaType: "public.image", originalImage: "https://evil.example/x.jpg"}}])
          parent.postMessage(message, "*");""", session_id)
    browser.switch_to.default_content()
    time.sleep(1)
    assert browser.execute_script("return window.outcome") is None
    browser.switch_to.window(popup)
    pick(browser, photo["id"])
    result = outcome(browser, opener)
    assert result["status"] == "finished" and result["info"]["assetID"] == photo["id"]


def test_a_link_stops_working_when_it_expires_and_when_the_app_is_removed(server, site, browser):
    photo = server.upload(PHOTO)
    allow(server, site, lifetime="4s")
    opener = open_chooser(browser, site)
    pick(browser, photo["id"])
    link = outcome(browser, opener)["info"]["originalImage"]
    assert load(browser, link) == sha256(PHOTO)
    time.sleep(5)
    # Refused, in words the site can read: it is still an allowed app.
    assert load(browser, link) == "status 403"

    apps(server, "add", site.origin, "--name", "My blog", "--link-lifetime", "1h")
    browser.execute_script("window.outcome = null")
    opener = open_chooser(browser, site)
    pick(browser, photo["id"])
    link = outcome(browser, opener)["info"]["originalImage"]
    assert load(browser, link) == sha256(PHOTO)
    apps(server, "remove", site.origin)
    assert load(browser, link) == "blocked"
    # Nor does the running server hand the site anything else.
    assert browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0] + "/api/picker/sessions", {method: "POST", headers: {"Content-Type": "application/json"},
              body: "{}"}).then(() => done("read"), () => done("blocked"));""", server.base) == "blocked"


def test_the_camera_works_in_the_popup(server, site, camera_browser, screenshots):
    allow(server, site)
    opener = open_chooser(camera_browser, site, sourceType="camera")
    wait(camera_browser).until(lambda driver: driver.execute_script(
        "const v = document.querySelector('#preview'); return v && v.videoWidth > 0"))
    assert camera_browser.find_element(By.ID, "picker-for").text.startswith("Take a photo for My blog")
    screenshots(camera_browser, "camera")
    button(camera_browser, "Take Photo").click()
    button(camera_browser, "Use Photo").click()
    result = outcome(camera_browser, opener)
    assert result["status"] == "finished" and result["info"]["mediaType"] == "public.image"
    asset = server.call("GET", f"/api/assets/{result['info']['assetID']}")
    assert asset["source"] == "camera" and asset["width"] > 0
    assert len(load(camera_browser, result["info"]["originalImage"])) == 64


def test_keyboard_only(server, site, browser):
    photo = server.upload(PHOTO)
    browser.get(site.origin + "/")
    opener = browser.current_window_handle
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("id") == "choose"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser).until(lambda driver: len(driver.window_handles) == 2)
    browser.switch_to.window(next(handle for handle in browser.window_handles if handle != opener))
    wait(browser).until(seen.visibility_of_element_located((By.ID, "consent")))
    # The first answer has the focus; Tab reaches the others.
    assert browser.switch_to.active_element.text == "Allow once"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    tile = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
    for _ in range(20):
        if browser.switch_to.active_element == tile:
            break
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == tile
    tile.send_keys(Keys.ENTER)
    assert outcome(browser, opener)["status"] == "finished"


def test_the_example_page_works_from_another_origin(server, site, browser):
    photo = server.upload(PHOTO)
    allow(server, site)
    browser.get(f"{site.origin}/chooser-example.html?server={server.base}")
    opener = browser.current_window_handle
    wait(browser).until(lambda driver: driver.execute_script("return Boolean(globalThis.CameraRoll)"))
    button(browser, "Choose…").click()
    wait(browser).until(lambda driver: len(driver.window_handles) == 2)
    browser.switch_to.window(next(handle for handle in browser.window_handles if handle != opener))
    pick(browser, photo["id"])
    browser.switch_to.window(opener)
    status = wait(browser).until(lambda driver: driver.find_element(By.ID, "status").text.startswith("Chosen:")
                                 and driver.find_element(By.ID, "status").text)
    assert status == f"Chosen: {(CORPUS / PHOTO).stat().st_size} bytes, loaded from this page."


def test_a_device_signed_in_on_the_lan_lands_in_the_picker_signed_in(lan, screenshots):
    server = Server(host="0.0.0.0", password="the owner's password")
    lan.cafile = server.authority
    base = f"https://{lan.server_address}:{server.port}"
    # Plain HTTP on the same address: another scheme is another site, so the popup's first
    # request carries no SameSite=Strict cookie.
    site = Site(base, host=lan.server_address)
    browser, close = lan_browser_on(lan, server=server)
    try:
        photo = server.upload(PHOTO)
        allow(server, site)
        browser.get(base + "/signin")
        browser.find_element(By.ID, "password").send_keys("the owner's password")
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "submit"))).click()
        wait(browser).until(lambda driver: driver.current_url == base + "/")
        opener = open_chooser(browser, site)
        wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
        screenshots(browser, "signed-in-picker")
        pick(browser, photo["id"])
        result = outcome(browser, opener)
        assert result["status"] == "finished"
        assert load(browser, result["info"]["originalImage"]) == f"bytes {(CORPUS / PHOTO).stat().st_size}"
    finally:
        close()
        site.close()
        server.stop()


def test_the_settings_page_allows_and_removes_sites(server, browser, shot):
    browser.get(server.base + "/")
    browser.find_element(By.LINK_TEXT, "Settings").click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "no-apps")))
    browser.find_element(By.ID, "origin").send_keys("ftp://blog.example")
    button(browser, "Allow").click()
    wait(browser).until(lambda driver: driver.find_element(By.ID, "status").text.startswith("An origin is http:// or https://"))
    browser.find_element(By.ID, "origin").clear()
    browser.find_element(By.ID, "origin").send_keys("https://Blog.Example/")
    browser.find_element(By.ID, "name").send_keys("My blog")
    browser.find_element(By.CSS_SELECTOR, "#lifetime option[value='86400']").click()
    button(browser, "Allow").click()
    row = wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#apps li")))
    assert row.text.splitlines()[:2] == ["My blog", "https://blog.example · links last 1 day"]
    shot("allowed")
    kept = json.loads(apps(server, "list", "--json"))
    assert [(app["origin"], app["name"], app["linkLifetime"]) for app in kept] == [("https://blog.example", "My blog", 86400)]
    browser.find_element(By.CSS_SELECTOR, "[aria-label='Remove My blog']").click()
    wait(browser).until(seen.visibility_of_element_located((By.ID, "no-apps")))
    assert "may no longer use your picker" in browser.find_element(By.ID, "status").text
    assert json.loads(apps(server, "list", "--json")) == []


def test_a_site_gets_several_items_in_the_order_picked(server, site, browser):
    first = server.upload(PHOTO)
    second = server.upload("photos/exifsamples__Canon_40D.jpg")
    allow(server, site)
    opener = open_chooser(browser, site, selectionLimit=2, selection="ordered")
    named = wait(browser).until(seen.visibility_of_element_located((By.ID, "picker-for")))
    assert named.text.startswith("Choose up to 2 photos for My blog")
    pick(browser, second["id"])
    pick(browser, first["id"])
    wait(browser).until(seen.element_to_be_clickable((By.ID, "add"))).click()
    result = outcome(browser, opener)
    assert result["status"] == "finished"
    assert [info["assetID"] for info in result["results"]] == [second["id"], first["id"]]
    assert all(info["originalImage"].startswith(f"{server.base}/media/") for info in result["results"]), "absolute URLs"
    assert result["info"]["assetID"] == second["id"]


def exif_of(server, link):
    """exiftool's tags (by group) of what a link serves."""
    body, _ = server.fetch(link.removeprefix(server.base))
    return json.loads(subprocess.run(["exiftool", "-j", "-G1", "-"], input=body, capture_output=True, check=True).stdout)[0]


def test_a_sites_pick_leaves_out_location_and_captions_unless_the_user_keeps_them(server, site, browser):
    """Privacy per pick: another site's picker starts with both switches on and says what the
    item carries, and the site gets the photo with no location; the next time the user keeps the
    location, and the site gets it without captions only. The library's original keeps all."""
    photo = server.upload("photos/lychee__train.jpg")
    allow(server, site)

    def pick_keeping_location(keep):
        open_chooser(browser, site)
        location = wait(browser).until(seen.visibility_of_element_located((By.ID, "remove-location")))
        captions = browser.find_element(By.ID, "remove-captions")
        assert location.is_selected() and captions.is_selected(), "on by default for a site"
        item = wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']")))
        browser.execute_script("arguments[0].focus()", item)
        carries = browser.find_element(By.ID, "carries")
        wait(browser).until(lambda driver: "location removed" in carries.text)
        assert "iPhone 6s" in carries.text and "Apple" in carries.text
        if keep:
            location.click()
            wait(browser).until(lambda driver: "with location" in carries.text)
        opener = next(handle for handle in browser.window_handles if handle != browser.current_window_handle)
        item.click()
        return outcome(browser, opener)["info"]["originalImage"]

    removed = pick_keeping_location(False)
    assert removed.startswith(f"{server.base}/media/{photo['id']}/without/location-captions?cap=")
    assert len(load(browser, removed)) == 64, "the site loads it"
    tags = exif_of(server, removed)
    assert not any(name.startswith("GPS:") for name in tags), "no location by default"
    assert tags["IFD0:Model"] == "iPhone 6s", "the rest stays"

    browser.execute_script("window.outcome = null")
    kept = pick_keeping_location(True)
    assert kept.startswith(f"{server.base}/media/{photo['id']}/without/captions?cap=")
    assert "GPS:GPSLatitude" in exif_of(server, kept), "the location the user kept"
    assert "GPS:GPSLatitude" in exif_of(server, f"/media/{photo['id']}/original"), "the library's original never changes"
