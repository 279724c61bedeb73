package import PhotoLibrary

/// The files under `/media/<id>/stream/`: `index.m3u8` (the HLS playlist), `<n>.mp4` (segment `n`,
/// what the Media Source player appends), and for HLS `<n>-init.mp4` and `<n>.m4s`, its two parts.
/// Names with extensions, because strict HLS clients (ffmpeg's demuxer) play only segments whose
/// URLs end in one they know.
package enum StreamFile: Equatable, Sendable {
    case playlist
    case segment(Int)
    case part(Int, MediaJobs.StreamPart)

    package init?(_ name: String) {
        if name == "index.m3u8" {
            self = .playlist
            return
        }
        let endings: [(String, (Int) -> StreamFile)] = [
            ("-init.mp4", { .part($0, .initialization) }), (".m4s", { .part($0, .media) }), (".mp4", { .segment($0) }),
        ]
        for (ending, file) in endings where name.hasSuffix(ending) {
            let digits = name.dropLast(ending.count)
            // Plain decimal digits only (no sign, no leading zeros), so every segment has one name.
            guard (1...7).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                digits == "0" || digits.first != "0", let index = Int(digits)
            else { return nil }
            self = file(index)
            return
        }
        return nil
    }

    package var name: String {
        switch self {
        case .playlist: "index.m3u8"
        case .segment(let index): "\(index).mp4"
        case .part(let index, .initialization): "\(index)-init.mp4"
        case .part(let index, .media): "\(index).m4s"
        }
    }
}
