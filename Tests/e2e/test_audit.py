"""The accessibility audit: axe-core (its axe-selenium-python wheel, which `make`'s install step
puts in .build/python) on every page and every state a person meets there, at a phone's size
(390x844, touch) and a desktop's (1280x900), in light and in dark: no critical or serious
violation."""
import json
import sys

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen

from conftest import OUTPUT, ROOT, Server, make_browser, open_library, tiles
from pages import wait

sys.path.insert(0, str(ROOT / ".build" / "python"))
from axe_selenium_python import Axe  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True},
         "desktop": {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}}
SCHEMES = ("light", "dark")
PHOTOS = ["photos/exifsamples__Canon_40D.jpg", "photos/lychee__aarhus.jpg", "photos/androidx-media__london.jpg"]


@pytest.fixture(scope="module")
def site():
    """One server for the module's pages: a library with photos, a video, an album, an item in
    Recently Deleted and two share links (one with a password)."""
    running = Server()
    ids = [running.upload(name)["id"] for name in PHOTOS]
    movie = running.upload("videos/androidx-media__sample.mp4")["id"]
    album = running.call("POST", "/api/albums", body=json.dumps({"title": "Trips"}).encode(),
                         headers={"Content-Type": "application/json"})
    running.call("POST", f"/api/albums/{album['id']}/assets", body=json.dumps({"ids": ids[:2]}).encode(),
                 headers={"Content-Type": "application/json"})
    running.call("POST", "/api/assets/trash", body=json.dumps({"ids": [ids[2]]}).encode(),
                 headers={"Content-Type": "application/json"})
    link = {"expiresIn": 3600, "removeLocation": True, "allowDownload": True}
    running.links = [running.base + running.call("POST", "/api/shares", body=json.dumps({**link, "albumID": album["id"], **extra}).encode(),
                                  headers={"Content-Type": "application/json"})["url"]
                     for extra in ({}, {"password": "grandma knows"})]
    running.movie = movie
    yield running
    running.stop()


@pytest.fixture(scope="module")
def device():
    driver = make_browser(camera=True)
    yield driver
    driver.quit()


def ready(browser, selector):
    wait(browser).until(seen.visibility_of_element_located((By.CSS_SELECTOR, selector)))


def open_viewer(browser, site):
    open_library(browser, site)
    wait(browser).until(lambda driver: len(tiles(driver)) >= 2)
    browser.find_element(By.CSS_SELECTOR, "#grid .tile[data-asset]").click()
    ready(browser, "#viewer .viewer-image, #viewer img")


def select_two(browser, site):
    open_library(browser, site)
    wait(browser).until(lambda driver: len(tiles(driver)) >= 2)
    browser.find_element(By.ID, "select").click()
    for tile in browser.find_elements(By.CSS_SELECTOR, "#grid .tile[data-asset]")[:2]:
        tile.click()
    ready(browser, "#selection-bar")


def album_chooser(browser, site):
    select_two(browser, site)
    browser.find_element(By.CSS_SELECTOR, "#selection-bar [data-action=album]").click()
    ready(browser, "#album-chooser")


def picker(browser, site):
    session = site.picker({"sourceType": "photoLibrary", "mediaTypes": ["public.image", "public.movie"]})
    browser.get(f"{site.base}/picker/{session['id']}")
    wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#grid .tile[data-asset]"))


def share_page(browser, url):
    browser.get(url)
    wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, ".share-grid img, #password, form"))


# Each page in the states a person sees it in: (name, how to get there).
PAGES = {
    "camera": lambda browser, site: (browser.get(site.base + "/"), ready(browser, "#pick")),
    "library": lambda browser, site: (open_library(browser, site), wait(browser).until(lambda driver: len(tiles(driver)) >= 2)),
    "library-viewer": open_viewer,
    "library-selecting": select_two,
    "library-album-chooser": album_chooser,
    "library-albums": lambda browser, site: (open_library(browser, site, "#/albums"), ready(browser, "#albums .album-card")),
    "library-album": lambda browser, site: (open_library(browser, site, "#/albums"), ready(browser, "#albums .album-card"),
                                            browser.find_elements(By.CSS_SELECTOR, "#albums .album-card[href]")[-1].click(),
                                            wait(browser).until(lambda driver: len(tiles(driver)) == 2)),
    "library-deleted": lambda browser, site: (open_library(browser, site, "#/deleted"), wait(browser).until(lambda driver: len(tiles(driver)) == 1)),
    "library-empty-view": lambda browser, site: (open_library(browser, site, "#/unsaved"), ready(browser, "#empty")),
    "settings": lambda browser, site: (browser.get(site.base + "/settings"), ready(browser, "main")),
    "signin": lambda browser, site: (browser.get(site.base + "/signin"), ready(browser, "#password")),
    "picker": picker,
    "chooser": lambda browser, site: (browser.get(site.base + "/choose"), ready(browser, "main")),
    "chooser-example": lambda browser, site: (browser.get(site.base + "/app/chooser-example.html"), ready(browser, "h1")),
    "share": lambda browser, site: share_page(browser, site.links[0]),
    "share-password": lambda browser, site: share_page(browser, site.links[1]),
}


def serious(browser):
    axe = Axe(browser)
    axe.inject()
    results = axe.run()
    return [f"{violation['id']} ({violation['impact']}): {violation['help']}; "
            + "; ".join(f"{node['target']} {node.get('failureSummary', '')[:200]}" for node in violation["nodes"][:3])
            for violation in results["violations"] if violation["impact"] in ("critical", "serious")]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_passes_axe_at_phone_and_desktop_size_in_light_and_dark(site, device, page):
    found = {}
    try:
        for size, metrics in SIZES.items():
            device.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            device.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": metrics["mobile"], "maxTouchPoints": 5})
            for scheme in SCHEMES:
                device.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                # Each state from a page of its own: nothing left open from the one before.
                device.get("about:blank")
                PAGES[page](device, site)
                if size == "phone":
                    # Each page as a phone shows it (docs/screenshots takes its pictures from these).
                    OUTPUT.mkdir(parents=True, exist_ok=True)
                    device.save_screenshot(str(OUTPUT / f"phone-{page}-{scheme}.png"))
                problems = serious(device)
                if problems:
                    found[f"{size} {scheme}"] = problems
    finally:
        device.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        device.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    assert not found, json.dumps(found, indent=1)
