import Foundation
import Testing

@testable import PhotoLibrary

/// The library's stored moments are written without Foundation's formatter; they must stay the
/// text that formatter wrote, which the databases in the field hold and compare as text.
@Suite struct TimestampTests {
    @Test func aTimestampIsWhatISO8601FormatStyleWrote() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        // Fractions just under a millisecond, which a product of seconds and 1000 rounds up.
        let edges: [Double] = [
            0, 0.0005, 0.999, 0.9999, 59.9995, 951_782_400.001, 1_798_761_599.999, 4_102_444_800.5, 2_710_369_399.607,
            3_464_777_074.443, 783_796_141.857,
        ]
        // The same spread of moments on every run, over 1970 to 2100.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let spread = (0..<20_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 4_102_444_800
        }
        for seconds in edges + spread {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Library.timestamp(date) == date.formatted(style), "at \(seconds)")
        }
    }

    @Test func timestampsSortAsTheirMomentsDo() {
        let earlier = Library.timestamp(Date(timeIntervalSince1970: 1_764_806_400.25))
        let later = Library.timestamp(Date(timeIntervalSince1970: 1_764_806_400.5))
        #expect(earlier == "2025-12-04T00:00:00.250Z")
        #expect(earlier < later)
    }
}
