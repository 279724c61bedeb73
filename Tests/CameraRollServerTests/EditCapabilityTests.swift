import Imaging
import PhotoLibrary
import Testing
import Vocabulary

@testable import CameraRollServer

/// An edit as URLs spell it: crops as before turns existed (links already given out keep
/// working), turns and mirrors as t<quarter turns> and m.
@Suite struct EditCapabilityTests {
    @Test func editsAreSpelledAndReadBack() {
        let crop = PixelRect(x: 1, y: 2, width: 30, height: 40)
        let cases: [(Edit, String)] = [
            (.crop(crop), "1,2,30,40"),
            (.image(ImageEdit(reorientation: Reorientation(quarterTurns: 1, mirrored: true), crop: crop)), "t1m,1,2,30,40"),
            (.image(ImageEdit(reorientation: Reorientation(quarterTurns: 2, mirrored: false))), "t2"),
            (.image(ImageEdit(reorientation: Reorientation(quarterTurns: 0, mirrored: true))), "t0m"),
            (.trim(start: 0.5, end: 2), "0.5,2.0"),
        ]
        for (edit, text) in cases {
            #expect(edit.capabilityText == text)
            #expect(Edit(capabilityText: text) == edit, "\(text)")
        }
        for bad in ["t0", "t4", "t1x", "t1,1,2,3", "t1m,0.5,1", "tm", "t11", ",", "", "t1,1,2,3,4,5"] {
            #expect(Edit(capabilityText: bad) == nil, "\(bad)")
        }
    }
}
