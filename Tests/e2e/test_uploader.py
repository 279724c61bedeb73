"""The library page's uploader in Chromium: keyboard only, drag and drop, paste and a folder, a
duplicate and a refusal said in plain words with the grid left as it was, thumbnails of photos
and videos, Pause, Resume, Cancel and Retry now on a row, a warning before leaving mid-upload,
and an upload that a reload, a cut connection or a restarted server interrupts goes on from
where the server has it, every byte once."""
import base64
import hashlib
import subprocess
import time
import urllib.error

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen

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


def make_movie(path, seconds):
    """A movie of about 1.3 MB a second (ffmpeg's test pattern, nearly lossless), for uploads of
    several pieces."""
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", f"testsrc2=size=1280x720:rate=30:duration={seconds}",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "12", "-pix_fmt", "yuv420p", str(path)], check=True, timeout=300)
    return path


def throttle(browser, bytes_per_second):
    """Slows the page's uploads down (Chromium's network emulation), so that a test can act mid-upload."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": bytes_per_second})


def acknowledged(browser):
    """What the page keeps of its uploads in IndexedDB: each one's file name, and where the server has it."""
    return browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const opening = indexedDB.open('cameraroll-uploads', 1);
        opening.onsuccess = () => {
            const all = opening.result.transaction('uploads').objectStore('uploads').getAll();
            all.onsuccess = () => done(all.result.map((r) => ({name: r.filename, url: r.url, offset: r.offset})));
        };
        opening.onerror = () => done([]);""")


def states(browser):
    return {row["name"]: row["state"] for row in rows(browser)}


def row_button(browser, label):
    """A row's control by its accessible name (the action and the file's name)."""
    return wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, f"button[aria-label='{label}']")))


def warns_before_leaving(browser):
    """Whether the page asks before it is left: a cancelable beforeunload it cancels."""
    return browser.execute_script("""
        const leaving = new Event('beforeunload', {cancelable: true});
        window.dispatchEvent(leaving);
        return leaving.defaultPrevented;""")


def same_bytes(server, asset_id, path):
    original, _ = server.fetch(f"/media/{asset_id}/original")
    return hashlib.sha256(original).digest() == hashlib.sha256(path.read_bytes()).digest()


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

    # Tab reaches the real button (after the skip link, the search field and the links to the
    # other pages), and Enter opens the file chooser (here, a recorded click).
    browser.execute_script("window.chooserOpened = 0; document.querySelector('#upload').click = () => { window.chooserOpened += 1; };")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.text == "Skip to photos"
    # (Below a wide screen the button is its icon: it is found by the name screen readers say.)
    named = lambda: browser.switch_to.active_element.get_attribute("aria-label")
    for _ in range(6):
        if named() == "Add Photos or Videos":
            break
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert named() == "Add Photos or Videos"
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
    # One line sums the batch up, and the status line says it once the last one ends; a refusal's
    # bar is not shown full as if it had gone through.
    summary = browser.find_element(By.ID, "upload-summary")
    wait(browser).until(lambda driver: summary.text == "2 added, 1 refused" or summary.text == "1 added, 1 already in your library, 1 refused")
    assert summary.text == "1 added, 1 already in your library, 1 refused"
    assert browser.find_element(By.ID, "status").text == "Uploads: 1 added, 1 already in your library, 1 refused."
    assert not browser.find_element(By.XPATH, "//li[contains(@class,'refused')]//progress").is_displayed()
    assert not browser.find_element(By.ID, "upload-total").is_displayed(), "no batch on its way"
    link = browser.find_element(By.XPATH, "//li[contains(@class,'done')][.//span[text()='again.jpg']]//a")
    link.click()
    wait(browser).until(lambda driver: driver.execute_script("return document.querySelector('#viewer').open"))
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser).until(lambda driver: not driver.execute_script("return document.querySelector('#viewer').open"))
    # Hide Details folds the rows away; Clear takes the finished ones, and the panel with them.
    details = browser.find_element(By.ID, "upload-details")
    details.click()
    assert details.get_attribute("aria-expanded") == "false" and details.text == "Show Details"
    assert not browser.find_element(By.ID, "upload-list").is_displayed()
    browser.find_element(By.ID, "upload-clear").click()
    assert rows(browser) == []
    assert not browser.find_element(By.ID, "uploads").is_displayed()


def test_a_reload_mid_upload_goes_on_from_where_the_server_has_it(server, browser, tmp_path):
    movie = make_movie(tmp_path / "long.mp4", 14)
    assert movie.stat().st_size > 16 << 20, "at least three pieces"
    browser.get(server.base + "/library")
    # Slow uploads down so that the reload comes between pieces.
    throttle(browser, 4 << 20)
    browser.find_element(By.ID, "upload").send_keys(str(movie))

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
    assert same_bytes(server, done["assetID"], movie)


def test_an_upload_the_network_cuts_goes_on_by_itself(server, browser, tmp_path):
    """Through a proxy that cuts two pieces part-way, as a phone's Wi-Fi would: nobody touches
    anything, the row ends Added, and the asset is the file, byte for byte."""
    movie = make_movie(tmp_path / "cut.mp4", 8)
    proxy = CuttingProxy(server.port, [3 << 20, (2 << 20) + 99])
    try:
        browser.get(proxy.base + "/library")
        browser.find_element(By.ID, "upload").send_keys(str(movie))
        wait(browser, 180).until(lambda driver: [row["state"] for row in rows(driver)] == ["done"])
        # The page reads its view again through the proxy: before it closes.
        asset_id = wait(browser).until(lambda driver: grid_ids(driver))[0]
    finally:
        proxy.close()
    assert proxy.cuts == 2
    assert rows(browser)[0]["message"].startswith("Added.")
    assert same_bytes(server, asset_id, movie)


def test_an_upload_goes_on_by_itself_after_the_server_restarts(server, browser, tmp_path):
    """The server stops mid-upload and comes back: the row waits, says so, and goes on from the
    bytes the server kept, without anyone touching it; the page warns before it is left until then."""
    movie = make_movie(tmp_path / "restart.mp4", 14)
    browser.get(server.base + "/library")
    assert not warns_before_leaving(browser)
    throttle(browser, 4 << 20)
    browser.find_element(By.ID, "upload").send_keys(str(movie))
    wait(browser, 120).until(lambda driver: any(record["offset"] > 0 for record in acknowledged(driver)))
    assert warns_before_leaving(browser), "leaving mid-upload asks first"
    before = acknowledged(browser)[0]
    server.halt()
    wait(browser, 60).until(lambda driver: states(driver) == {"restart.mp4": "retrying"})
    assert "Trying again in" in rows(browser)[0]["message"]
    assert warns_before_leaving(browser), "an upload waiting for the server is still on its way"
    server.start()
    wait(browser, 180).until(lambda driver: states(driver) == {"restart.mp4": "done"})
    assert not warns_before_leaving(browser)
    done = server.call("GET", before["url"])
    assert done["offset"] == movie.stat().st_size and same_bytes(server, done["assetID"], movie)


def test_pause_resume_cancel_and_retry_now_on_a_row(server, browser, tmp_path):
    first = make_movie(tmp_path / "first.mp4", 14)
    second = make_movie(tmp_path / "second.mp4", 8)
    browser.get(server.base + "/library")
    throttle(browser, 2 << 20)
    browser.find_element(By.ID, "upload").send_keys(f"{first}\n{second}")
    wait(browser, 60).until(lambda driver: {record["name"] for record in acknowledged(driver) if record["url"]} == {"first.mp4", "second.mp4"})

    # Pause: the row says so, and the server's offset stops where it is.
    row_button(browser, "Pause first.mp4").click()
    wait(browser).until(lambda driver: states(driver)["first.mp4"] == "paused")
    assert next(row for row in rows(browser) if row["name"] == "first.mp4")["message"] == "Paused."
    url = next(record["url"] for record in acknowledged(browser) if record["name"] == "first.mp4")
    # The piece cut by the pause keeps what reached the server (as a cut connection's does);
    # after that, nothing more comes.
    offsets = []
    wait(browser).until(lambda driver: offsets.append(server.call("GET", url)["offset"]) or offsets[-2:].count(offsets[-1]) == 2)
    time.sleep(3)
    assert server.call("GET", url)["offset"] == offsets[-1]

    # Cancel: the server forgets the upload, and the browser its copy of the file.
    other = next(record["url"] for record in acknowledged(browser) if record["name"] == "second.mp4")
    row_button(browser, "Cancel second.mp4").click()
    wait(browser).until(lambda driver: states(driver)["second.mp4"] == "cancelled")
    wait(browser).until(lambda driver: [record["name"] for record in acknowledged(driver)] == ["first.mp4"])

    # The page lets go of its copy first (a reload must not resume it), then asks the server.
    def forgotten(_):
        try:
            server.call("GET", other)
        except urllib.error.HTTPError as error:
            assert error.code == 404
            return True
        return False
    wait(browser).until(forgotten, "the cancelled upload is still on the server")

    # Resume, then the server goes away long enough for the pause between tries to grow to
    # 16 s: Retry now tries at once once it is back.
    row_button(browser, "Resume first.mp4").click()
    wait(browser).until(lambda driver: states(driver)["first.mp4"] == "uploading")
    server.halt()
    wait(browser, 60).until(lambda driver: "Trying again in 16 s" in rows(driver)[0]["message"])
    server.start()
    asked = time.monotonic()
    row_button(browser, "Retry now first.mp4").click()
    wait(browser, 10).until(lambda driver: states(driver)["first.mp4"] in ("uploading", "done"))
    assert time.monotonic() - asked < 10, "sooner than the 16 s the row was waiting for"
    throttle(browser, -1)
    wait(browser, 120).until(lambda driver: states(driver) == {"first.mp4": "done", "second.mp4": "cancelled"})
    assert same_bytes(server, server.call("GET", url)["assetID"], first)


def test_paste_and_a_folder_add_their_files(server, browser, tmp_path):
    browser.get(server.base + "/library")
    browser.execute_script("""
        const [encoded] = arguments;
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))], 'pasted.jpg', {type: 'image/jpeg'}));
        document.dispatchEvent(new ClipboardEvent('paste', {clipboardData: transfer, bubbles: true, cancelable: true}));
    """, base64.b64encode((CORPUS / PHOTO).read_bytes()).decode())
    wait(browser, 60).until(lambda driver: states(driver) == {"pasted.jpg": "done"})

    folder = tmp_path / "Holiday"
    folder.mkdir()
    for name in ("lychee__train.jpg", "exifsamples__Canon_40D.jpg"):
        (folder / name).write_bytes((CORPUS / "photos" / name).read_bytes())
    (folder / "notes.txt").write_text("not a photo")
    browser.find_element(By.ID, "upload-folder").send_keys(str(folder))
    wait(browser, 60).until(lambda driver: states(driver) == {
        "pasted.jpg": "done", "lychee__train.jpg": "done", "exifsamples__Canon_40D.jpg": "done"})
    # The line is written once a frame: waited for, then exactly this.
    wait(browser).until(lambda driver: driver.find_element(By.ID, "upload-summary").text == "3 added, 1 not a photo or video")
    assert browser.find_element(By.ID, "status").text == "Uploads: 3 added, 1 not a photo or video."
    assert len(server.call("GET", "/api/assets?source=photoLibrary")["assets"]) == 3


def thumbnail(browser, name):
    """A row's thumbnail: its source and whether it shows a picture."""
    return browser.execute_script("""
        const row = [...document.querySelectorAll('.upload-row')].find((r) => r.querySelector('.name').textContent === arguments[0]);
        const image = row?.querySelector('img.thumb');
        return image ? {src: image.getAttribute('src') || '', shown: image.complete && image.naturalWidth > 0} : null;""", name)


def test_a_video_row_shows_its_first_frame_and_a_photo_chromium_cannot_read_the_servers_thumbnail(server, browser):
    browser.get(server.base + "/library")
    drop(browser, "videos/androidx-media__bear-vp9.webm", "bear.webm", "video/webm")
    wait(browser, 30).until(lambda driver: (thumbnail(driver, "bear.webm") or {}).get("shown"))
    assert thumbnail(browser, "bear.webm")["src"].startswith("data:image/jpeg"), "drawn from the file, before the server has it"
    drop(browser, "photos/lychee__sewing-threads.heic", "threads.heic", "image/heic")
    wait(browser, 60).until(lambda driver: states(driver).get("threads.heic") == "done")
    wait(browser, 30).until(lambda driver: (thumbnail(driver, "threads.heic") or {}).get("shown"))
    assert "/thumbnail?size=256" in thumbnail(browser, "threads.heic")["src"]
