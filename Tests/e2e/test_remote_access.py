"""CameraRoll served beyond this computer (`serve --host 0.0.0.0`, HTTPS on the certificate it
makes), asked by a client in its own network namespace that trusts its local authority: sign-in,
CSRF, lock-out, and a picker's caller seeing only what was picked. The server's own computer
(loopback) needs none of it."""
import hashlib
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from conftest import lan_browser_on, outbox_digests
from pages import shell_kept_offline


def test_a_device_on_the_lan_signs_in_and_sends_the_csrf_token(lan, lan_server):
    photo = lan_server.upload("photos/exifsamples__jolla.jpg")
    base = f"https://{lan.server_address}:{lan_server.port}"
    assert lan.request("GET", base + "/healthz")["status"] == 200
    refused = lan.request("GET", base + "/api/assets")
    assert refused["status"] == 401 and json.loads(refused["body"])["code"] == "sign_in_required"
    page = lan.request("GET", base + "/library")
    assert page["status"] == 303 and page["headers"]["Location"] == "/signin?next=/library"
    assert lan.request("GET", base + "/signin")["status"] == 200

    wrong = lan.request("POST", base + "/api/session", {"Content-Type": "application/json"}, json.dumps({"password": "guess"}))
    assert wrong["status"] == 401
    signed = lan.request("POST", base + "/api/session", {"Content-Type": "application/json"},
                         json.dumps({"password": "the owner's password"}))
    assert signed["status"] == 200
    cookie = signed["headers"]["Set-Cookie"].split(";")[0]
    csrf = json.loads(signed["body"])["csrfToken"]
    listed = lan.request("GET", base + "/api/assets", {"Cookie": cookie})
    assert listed["status"] == 200 and [item["id"] for item in json.loads(listed["body"])["assets"]] == [photo["id"]]

    without = lan.request("DELETE", base + f"/api/assets/{photo['id']}", {"Cookie": cookie})
    assert without["status"] == 403 and json.loads(without["body"])["code"] == "csrf"
    assert lan_server.call("GET", f"/api/assets/{photo['id']}")["trashed"] is False
    deleted = lan.request("DELETE", base + f"/api/assets/{photo['id']}", {"Cookie": cookie, "X-CSRF-Token": csrf})
    assert deleted["status"] == 200
    assert lan_server.call("GET", f"/api/assets/{photo['id']}")["trashed"] is True

    lan.request("DELETE", base + "/api/session", {"Cookie": cookie, "X-CSRF-Token": csrf})
    assert lan.request("GET", base + "/api/assets", {"Cookie": cookie})["status"] == 401


def test_repeated_wrong_passwords_lock_the_device_out(lan, lan_server):
    base = f"https://{lan.server_address}:{lan_server.port}"
    guess = lambda password: lan.request("POST", base + "/api/session", {"Content-Type": "application/json"},
                                         json.dumps({"password": password}))
    assert [guess(f"guess {index}")["status"] for index in range(5)] == [401] * 5
    locked = guess("the owner's password")
    assert locked["status"] == 429 and int(locked["headers"]["Retry-After"]) > 60
    assert lan_server.call("GET", "/api/session")["local"] is True, "the server's own computer is not locked out"


def test_a_pickers_caller_gets_the_picked_item_and_nothing_else(lan, lan_server):
    picked = lan_server.upload("photos/exifsamples__jolla.jpg")
    other = lan_server.upload("photos/lychee__train.jpg")
    base = f"https://{lan.server_address}:{lan_server.port}"
    created = lan.request("POST", base + "/api/picker/sessions", {"Content-Type": "application/json"},
                          json.dumps({"sourceType": "photoLibrary"}))
    assert created["status"] == 201
    session = json.loads(created["body"])
    # Its page is the same file for anyone (a popup another site opens brings no cookie on its
    # first request); what the page shows and does needs the owner.
    assert lan.request("GET", base + session["url"])["status"] == 200
    step = lan.request("POST", base + f"/api/picker/sessions/{session['id']}/events", {"Content-Type": "application/json"},
                       json.dumps({"event": "open"}))
    assert step["status"] == 401, "picking needs the owner"
    # The owner picks, here on the server's computer.
    for event in ({"event": "open"}, {"event": "choose", "assetID": picked["id"]}):
        lan_server.call("POST", f"/api/picker/sessions/{session['id']}/events", json.dumps(event).encode(),
                        {"Content-Type": "application/json"})
    result = json.loads(lan.request("GET", base + f"/api/picker/sessions/{session['id']}?wait=5")["body"])
    assert result["status"] == "finished"
    original = lan.request("GET", base + result["info"]["originalImage"])
    assert original["status"] == 200
    assert lan.request("GET", base + result["info"]["originalImage"].replace(picked["id"], other["id"]))["status"] == 401
    assert lan.request("GET", base + f"/api/assets/{picked['id']}")["status"] == 401
    assert lan.request("GET", base + f"/media/{other['id']}/thumbnail")["status"] == 401


def sign_in(browser, base):
    browser.get(base + "/")
    WebDriverWait(browser, 30).until(lambda driver: "/signin" in driver.current_url)
    browser.find_element(By.ID, "password").send_keys("the owner's password")
    WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "submit"))).click()
    WebDriverWait(browser, 30).until(lambda driver: driver.current_url == base + "/")


def test_signing_in_from_another_devices_browser(lan, lan_server, screenshots):
    photo = lan_server.upload("photos/lychee__aarhus.jpg")
    browser, close = lan_browser_on(lan, server=lan_server)
    try:
        base = f"https://{lan.server_address}:{lan_server.port}"
        browser.get(base + "/")
        WebDriverWait(browser, 30).until(lambda driver: "/signin" in driver.current_url)
        password = browser.find_element(By.ID, "password")
        password.send_keys("not it at all")
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "submit"))).click()
        WebDriverWait(browser, 30).until(lambda driver: "not the owner's password" in driver.find_element(By.ID, "status").text)
        screenshots(browser, "wrong")
        # By name, as anyone of the family signs in; the owner is the first admin, "owner".
        browser.find_element(By.ID, "user").send_keys("Owner")
        password.clear()
        password.send_keys("the owner's password")
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "submit"))).click()
        WebDriverWait(browser, 30).until(lambda driver: driver.current_url == base + "/")
        sign_out = WebDriverWait(browser, 30).until(seen.visibility_of_element_located((By.ID, "sign-out")))
        # Over HTTPS another device gets the camera too.
        assert WebDriverWait(browser, 30).until(seen.visibility_of_element_located((By.ID, "new"))).text == "New Photo or Video"
        # Picking sends events with an edit: changes that need the session's CSRF token.
        browser.find_element(By.ID, "pick").click()
        browser.switch_to.frame(WebDriverWait(browser, 30).until(seen.presence_of_element_located((By.CSS_SELECTOR, "dialog iframe"))))
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"[data-asset='{photo['id']}']"))).click()
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "editor-choose"))).click()
        browser.switch_to.default_content()
        WebDriverWait(browser, 30).until(lambda driver: driver.execute_script(
            "const i = document.querySelector('#image'); return !i.hidden && i.complete && i.naturalWidth > 0"))
        assert ",3024,3024&" in browser.execute_script("return document.querySelector('#image').src"), "the pick's crop, named by the URL"
        screenshots(browser, "signed-in")
        sign_out.click()
        WebDriverWait(browser, 30).until(lambda driver: "/signin" in driver.current_url)
        browser.get(base + "/library")
        WebDriverWait(browser, 30).until(lambda driver: "/signin?next=%2Flibrary" in driver.current_url
                                         or "/signin?next=/library" in driver.current_url)
    finally:
        close()


def test_a_device_that_trusts_the_authority_installs_the_app_and_queues_captures_offline(lan, lan_server, screenshots):
    browser, close = lan_browser_on(lan, trust=lan_server.authority, server=lan_server)
    try:
        base = f"https://{lan.server_address}:{lan_server.port}"
        sign_in(browser, base)
        # A trusted certificate: the service worker registers and keeps the shell.
        shell_kept_offline(browser)

        lan_server.halt()
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "new"))).click()
        browser.switch_to.frame(WebDriverWait(browser, 30).until(seen.presence_of_element_located((By.CSS_SELECTOR, "dialog iframe"))))
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "shutter"))).click()
        WebDriverWait(browser, 30).until(seen.element_to_be_clickable((By.ID, "use"))).click()
        browser.switch_to.default_content()
        WebDriverWait(browser, 30).until(lambda driver: "Waiting for the server" in driver.find_element(By.ID, "status").text)
        screenshots(browser, "queued")
        kept = outbox_digests(browser)
        assert len(kept) == 1

        lan_server.start()  # its sessions outlive the restart, so the phone stays signed in
        WebDriverWait(browser, 60).until(lambda driver: driver.find_element(By.ID, "status").text == "Saved to Camera Roll")
        saved = lan_server.call("GET", "/api/assets?source=savedPhotosAlbum")["assets"]
        original, _ = lan_server.fetch(f"/media/{saved[0]['id']}/original")
        assert len(saved) == 1 and hashlib.sha256(original).hexdigest() == kept[0]
    finally:
        close()


def test_a_stranger_can_hold_only_a_few_pickers_open(lan, lan_server):
    base = f"https://{lan.server_address}:{lan_server.port}"
    statuses = [lan.request("POST", base + "/api/picker/sessions", {"Content-Type": "application/json"}, "{}")["status"]
                for _ in range(11)]
    assert statuses == [201] * 10 + [429]
    assert lan_server.picker({"sourceType": "photoLibrary"})["status"] == "pending", "the owner still can"
