"""Sharing into CameraRoll from another app: Chromium reads the manifest's share target, and a
share launched as the phone's browser launches it (a multipart POST of its own, `Sec-Fetch-Site:
none`) lands in the library, whose page then says what came."""
import json
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from conftest import CORPUS, tiles
from pages import wait


def shared_form(files):
    """The body Chromium writes for the share: each file a `media` part."""
    boundary = f"----WebKitFormBoundary{uuid.uuid4().hex[:16]}"
    body = b""
    for name, kind, data in files:
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="media"; filename="{name}"\r\n'
                 f"Content-Type: {kind}\r\n\r\n").encode() + data + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), boundary


class KeepRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


def test_chromium_reads_the_share_target_and_the_library_says_what_came(server, browser):
    browser.get(server.base + "/library")
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["errors"] == [], manifest["errors"]
    written = json.loads(manifest["data"])["share_target"]
    assert written["action"] == "/share" and written["method"] == "POST" and written["enctype"] == "multipart/form-data"
    assert written["params"]["files"] == [{"name": "media", "accept": ["image/*", "video/*"]}]
    assert manifest["manifest"]["shareTarget"]["action"] == server.base + "/share", manifest["manifest"].get("shareTarget")

    body, boundary = shared_form([
        ("IMG_0001.jpg", "image/jpeg", (CORPUS / "photos" / "exifsamples__Canon_40D.jpg").read_bytes()),
        ("tokyo.jpg", "image/jpeg", (CORPUS / "photos" / "androidx-media__tokyo.jpg").read_bytes()),
        ("notes.txt", "text/plain", b"not a photo"),
    ])
    request = urllib.request.Request(server.base + "/share", data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": "null", "Sec-Fetch-Site": "none",
        "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"})
    try:
        urllib.request.build_opener(KeepRedirect).open(request, timeout=120)
        raise AssertionError("a share is answered with a redirect")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303
        location = answer.headers["Location"]
    assert location.startswith("/library?shared=2&refused=1&reason=notes.txt") and location.endswith("#/recent"), location

    browser.get(server.base + location)
    status = browser.find_element(By.ID, "status")
    wait(browser).until(lambda driver: "2 items shared into your library. 1 item refused (notes.txt:" in status.text)
    wait(browser).until(lambda driver: len(tiles(driver)) == 2)
    assert browser.execute_script("return location.search") == "", "said once: the note leaves the address"
    assert browser.execute_script("return location.hash") == "#/recent"
