"""Every page names every module it imports, however deep, in a modulepreload link (the server
writes them in): a module found only when the one importing it has arrived costs a round trip
more before the first paint (three of the Photos app's were found that way when its first
thumbnails measured 360 ms at a million items). Checked on the pages as served, against the
imports in the scripts themselves."""
import re

import pytest

from conftest import ROOT

WEB = ROOT / "Sources" / "CameraRollServer" / "Web"


def imports(module):
    return re.findall(r'^import .*? from "\./([^"]+)";', (WEB / module).read_text(), re.M)


@pytest.mark.parametrize("path", ["/", "/library", "/picker/any", "/settings", "/signin", "/choose", "/s/any"])
def test_a_page_preloads_every_module_it_imports(server, path):
    html = server.fetch(path)[0].decode()
    entries = re.findall(r'<script type="module" src="/app/([^"]+)">', html)
    assert len(entries) == 1, f"{path} has its module script"
    reached, waiting = [], list(entries)
    while waiting:
        module = waiting.pop(0)
        if module not in reached:
            reached.append(module)
            waiting += imports(module)
    preloaded = re.findall(r'<link rel="modulepreload" href="/app/([^"]+)">', html)
    assert sorted(preloaded) == sorted(reached[1:]), f"{path}: each imported module preloaded once, and nothing else"
