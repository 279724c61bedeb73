"""Steps every browser test takes: waiting, pressing a button by its name, going into the
picker's frame and back, finding an item in a grid, and waiting for the service worker to hold
the app's shell."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait


def wait(browser, seconds=30):
    return WebDriverWait(browser, seconds)


def button(browser, name):
    return wait(browser).until(seen.element_to_be_clickable((By.XPATH, f"//button[normalize-space()='{name}']")))


def radio(browser, name):
    """A radio button (the Camera's Photo and Video) once it can be pressed: the modes show once
    the picker has read its configuration."""
    return wait(browser).until(seen.element_to_be_clickable((By.XPATH, f"//button[@role='radio' and normalize-space()='{name}']")))


def grid_item(browser, asset_id):
    """An item's tile in the picker's or the Photos app's grid, scrolled to: the grid places only
    the rows near the screen, so the user (and the test) scrolls down to an item further on."""
    tile = f"#grid .tile[data-asset='{asset_id}']"

    def scrolled_to(driver):
        if driver.find_elements(By.CSS_SELECTOR, tile):
            return True
        # A popup may not be on the picker's page yet: nothing to scroll then.
        driver.execute_script("const grid = document.querySelector('#grid'); if (grid) grid.scrollTop += grid.clientHeight / 2")
        return False
    wait(browser).until(scrolled_to)
    return wait(browser).until(seen.element_to_be_clickable((By.CSS_SELECTOR, tile)))


def in_picker(browser):
    frame = wait(browser).until(seen.presence_of_element_located((By.CSS_SELECTOR, "dialog iframe")))
    browser.switch_to.frame(frame)


def back_to_app(browser):
    browser.switch_to.default_content()
    wait(browser).until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "dialog") == [])


def shell_kept_offline(browser):
    """Waits until the service worker has cached the shell, then reloads so that it controls the page."""
    wait(browser).until(lambda driver: driver.execute_script(
        "return navigator.serviceWorker.ready.then(async () => (await caches.keys()).length === 1)"))
    wait(browser).until(lambda driver: driver.execute_script(
        "return caches.keys().then(async ([name]) => (await (await caches.open(name)).keys()).length >= 20)"))
    browser.refresh()
    wait(browser).until(lambda driver: driver.execute_script("return navigator.serviceWorker.controller !== null"))
