"""The library page's uploader in Chromium: keyboard only, drag and drop, a duplicate and a
refusal said in plain words with the grid left as it was, and an upload that a reload cuts goes
on from where the server has it, every byte once."""
import base64
import hashlib
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import CORPUS
from cutting_proxy import CuttingProxy
from pages import wait

PHOTO = "photos/lychee__aarhus.jpg"


def rows(browser):
    return browser.execute_script("""return [...document.querySelectorAll('.upload-row')].map((row) => ({
        name: row.querySelector('.name').textContent, state: row.className.replace('upload-row', '').trim(),
        message: row.querySelector('.message').textContent}))""")


def grid_ids(browser):
    return browser.execute_script("return [...document.querySelectorAll('#grid [data-asset]')].map((b) => b.dataset.asset)")


def drop(browser, path, name, kind="image/jpeg"):
    """A synthetic drop of a File made from bytes the page fetches from a data URL we give it."""
    data = path if isinstance(path, bytes) else (CORPUS / path).read_bytes()
    browser.execute_script("""
        const [encoded, name, kind] = arguments;
        const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, {type: kind}));
        document.dispatchEvent(new DragEvent('dragover', {dataTransfer: transfer, bubbles: true, cancelable: true}));
        document.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
    """, base64.b64encode(data).decode(), name, kind)


def test_keyboard_only_upload_then_drop_a_duplicate_and_a_refusal(server, browser):
    existing = server.upload("photos/lychee__train.jpg")
    browser.get(server.base + "/library")
    wait(browser).until(lambda driver: grid_ids(driver) == [existing["id"]])

    # Tab reaches the real button (after the skip link and the links to the other pages), and
    # Enter opens the file chooser (here, a recorded click).
    browser.execute_script("window.chooserOpened = 0; document.querySelector('#upload').click = () => { window.chooserOpened += 1; };")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.text == "Skip to photos"
    for _ in range(6):
        if browser.switch_to.active_element.text == "Add Photos or Videos":
            break
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.text == "Add Photos or Videos"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    assert browser.execute_script("return window.chooserOpened") == 1
    browser.find_element(By.ID, "upload").send_keys(str(CORPUS / PHOTO))

    wait(browser, 60).until(lambda driver: [row["state"] for row in rows(driver)] == ["done"])
    assert rows(browser)[0]["message"].startswith("Added.")
    # The new item takes its place in the timeline by the date it was taken (2018, after the
    # 2021 photo); the rest stays.
    wait(browser).until(lambda driver: len(grid_ids(driver)) == 2)
    ids = grid_ids(browser)
    assert ids[0] == existing["id"]
    # The row's Dismiss is reachable by keyboard too.
    dismiss = browser.find_element(By.XPATH, "//button[normalize-space()='Dismiss']")
    assert dismiss.get_attribute("aria-label") == "Dismiss lychee__aarhus.jpg"

    drop(browser, "photos/lychee__train.jpg", "again.jpg")
    drop(browser, b"these words are not a photo", "notes.jpg")
    wait(browser, 60).until(lambda driver: [row["state"] for row in rows(driver)][1:] in (["done", "refused"], ["refused", "done"]))
    by_name = {row["name"]: row for row in rows(browser)}
    assert by_name["again.jpg"]["message"].startswith("Already in your library.")
    assert by_name["notes.jpg"]["message"].startswith("Not added:") and "/" not in by_name["notes.jpg"]["message"]
    assert grid_ids(browser) == ids, "neither the duplicate nor the refusal changed the grid"
    link = browser.find_element(By.XPATH, "//li[contains(@class,'done')][.//span[text()='again.jpg']]//a")
    link.click()
    wait(browser).until(lambda driver: driver.execute_script("return document.querySelector('#viewer').open"))


def test_a_reload_mid_upload_goes_on_from_where_the_server_has_it(server, browser, tmp_path):
    movie = tmp_path / "long.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=14",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "12", "-pix_fmt", "yuv420p", str(movie)], check=True, timeout=300)
    size = movie.stat().st_size
    assert size > 16 << 20, "at least three pieces"
    browser.get(server.base + "/library")
    # Slow uploads down so that the reload comes between pieces.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 4 << 20})
    browser.find_element(By.ID, "upload").send_keys(str(movie))

    def acknowledged(driver):
        """What the page keeps of its upload in IndexedDB: where the server has it."""
        return driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const opening = indexedDB.open('cameraroll-uploads', 1);
            opening.onsuccess = () => {
                const all = opening.result.transaction('uploads').objectStore('uploads').getAll();
                all.onsuccess = () => done(all.result.map((r) => ({url: r.url, offset: r.offset})));
            };
            opening.onerror = () => done([]);""")

    wait(browser, 120).until(lambda driver: any(record["offset"] > 0 for record in acknowledged(driver)))
    before = acknowledged(browser)[0]
    browser.refresh()
    # The page resumes by itself; the server's offset never went back.
    wait(browser, 30).until(lambda driver: len(rows(driver)) == 1)
    status = server.call("GET", before["url"])
    assert status["offset"] >= before["offset"]
    wait(browser, 180).until(lambda driver: [row["state"] for row in rows(driver)] == ["done"])
    assert acknowledged(browser) == [], "the file leaves the browser once the server has it"
    done = server.call("GET", before["url"])
    original, _ = server.fetch(f"/media/{done['assetID']}/original")
    assert hashlib.sha256(original).digest() == hashlib.sha256(movie.read_bytes()).digest()


def test_an_upload_the_network_cuts_goes_on_by_itself(server, browser, tmp_path):
    """Through a proxy that cuts two pieces part-way, as a phone's Wi-Fi would: nobody touches
    anything, the row ends Added, and the asset is the file, byte for byte."""
    movie = tmp_path / "cut.mp4"
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=8",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "12", "-pix_fmt", "yuv420p", str(movie)], check=True, timeout=300)
    proxy = CuttingProxy(server.port, [3 << 20, (2 << 20) + 99])
    try:
        browser.get(proxy.base + "/library")
        browser.find_element(By.ID, "upload").send_keys(str(movie))
        wait(browser, 180).until(lambda driver: [row["state"] for row in rows(driver)] == ["done"])
    finally:
        proxy.close()
    assert proxy.cuts == 2
    assert rows(browser)[0]["message"].startswith("Added.")
    asset_id = wait(browser).until(lambda driver: grid_ids(driver))[0]
    original, _ = server.fetch(f"/media/{asset_id}/original")
    assert hashlib.sha256(original).digest() == hashlib.sha256(movie.read_bytes()).digest()
