"""The page's Move and Scale arithmetic (crop-geometry.js) against the cases the Swift model
answers in Tests/ImagePickerTests/CropGeometryAgreementTests.swift."""
import json

from conftest import ROOT

CASES = json.loads((ROOT / "Tests" / "Fixtures" / "crop-geometry-cases.json").read_text())["cases"]


def test_the_page_answers_like_the_model(server, browser):
    browser.get(server.base + "/library")
    answers = browser.execute_async_script("""
        const [cases, done] = arguments;
        import('/app/crop-geometry.js').then(({ CropGeometry }) => done(cases.map((example) => {
          const [width, height] = example.image;
          const geometry = example.crop ? CropGeometry.fromCropRect(width, height, example.crop, example.aspect)
                                        : new CropGeometry(width, height, example.aspect);
          for (const [operation, ...values] of example.steps) {
            if (operation === 'zoom') geometry.zoomBy(...values);
            else geometry.pan(...values);
          }
          return geometry.cropRect;
        })));""", CASES)
    assert len(answers) == len(CASES) > 100
    differing = [(example, answer) for example, answer in zip(CASES, answers) if answer != example["expected"]]
    assert differing == []
