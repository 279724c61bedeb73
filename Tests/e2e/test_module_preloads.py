"""The pages whose first paint is measured (the Camera app, the Photos app, the picker) name
every module they import, however deep, in a modulepreload link: a module found only when the
one importing it has arrived costs a round trip more before the first thumbnails (three of the
Photos app's were found that way when its first thumbnails measured 360 ms at a million items)."""
import re

import pytest

from conftest import ROOT

WEB = ROOT / "Sources" / "CameraRollServer" / "Web"


def imports(module):
    return re.findall(r'^import .*? from "\./([^"]+)";', (WEB / module).read_text(), re.M)


@pytest.mark.parametrize("page", ["index.html", "library.html", "picker.html"])
def test_a_page_preloads_every_module_it_imports(page):
    html = (WEB / page).read_text()
    entries = re.findall(r'<script type="module" src="/app/([^"]+)"', html)
    assert entries, f"{page} has a module script"
    reached, waiting = [], list(entries)
    while waiting:
        module = waiting.pop(0)
        if module not in reached:
            reached.append(module)
            waiting += imports(module)
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/app/([^"]+)">', html))
    assert [module for module in reached if module not in entries and module not in preloaded] == []
    assert preloaded <= set(reached), "a preload of a module nobody imports"
