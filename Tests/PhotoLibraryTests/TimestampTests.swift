import Foundation
import Testing

@testable import PhotoLibrary

/// The library's stored moments are written without Foundation's formatter; they must stay the
/// text that formatter wrote, which the databases in the field hold and compare as text (and
/// PostgreSQL reads as its own types).
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

    @Test func momentsAreDaysOfTheCalendarAndTimesOfDay() {
        for seconds in [0, 951_782_400.001, 1_798_761_599.999, 4_102_444_800.5] {
            #expect(Library.isMoment(Library.timestamp(Date(timeIntervalSince1970: seconds))))
        }
        for good in ["2024-05-01T12:00:00", "2024-02-29T23:59:59", "0001-01-01T00:00:00Z", "2026-12-03T23:49:21.123456Z"] {
            #expect(Library.isMoment(good), "\(good)")
        }
        for bad in [
            "2024-02-30T10:00:00", "2023-02-29T10:00:00", "2024-13-01T00:00:00", "2024-00-10T00:00:00", "2024-05-01T24:00:00",
            "2024-05-01T12:60:00", "2024-05-01 12:00:00", "2024-05-01", "0000-01-01T00:00:00", "2024-05-01T12:00:00.",
            "2024-05-01T12:00:00.1234567", "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00ZZ", "２０２４-05-01T12:00:00",
        ] {
            #expect(!Library.isMoment(bad), "\(bad)")
        }
        #expect(Cursor(Cursor(key: "2024-02-30T10:00:00", id: "a").encoded) == nil, "a cursor's key is a moment")
        #expect(Cursor(Cursor(key: "2024-02-29T10:00:00", id: "a").encoded) != nil)
    }

    @Test func timestampsSortAsTheirMomentsDo() {
        let earlier = Library.timestamp(Date(timeIntervalSince1970: 1_764_806_400.25))
        let later = Library.timestamp(Date(timeIntervalSince1970: 1_764_806_400.5))
        #expect(earlier == "2025-12-04T00:00:00.250Z")
        #expect(earlier < later)
    }
}
