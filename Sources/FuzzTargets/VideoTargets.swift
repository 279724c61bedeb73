import Foundation
import Video

extension FuzzTarget {
    static let videoTargets: [FuzzTarget] = [
        FuzzTarget("container-format", "the magic bytes that pick an ffmpeg demuxer", seeds: ["videos", "bad"], maxLength: 64) { bytes in
            _ = ContainerFormat.sniff(Array(bytes))
        },
        FuzzTarget("fmp4-split", "the top-level boxes of a stream segment, split for HLS", seeds: ["videos"], maxLength: 1 << 16) { bytes in
            let bytes = Array(bytes)
            if let offset = FragmentedMP4.firstFragmentOffset(bytes) {
                require(offset >= 0 && offset + 8 <= bytes.count, "the fragment starts inside the file")
                require(bytes[(offset + 4)..<(offset + 8)].elementsEqual("moof".utf8), "the split is at a moof")
            }
        },
        FuzzTarget(
            "probe-output", "ffprobe's JSON about a file, whose every field the file decides", seeds: ["videos"], maxLength: 1 << 16,
            seed: ffprobeJSON
        ) { bytes in
            guard let output = try? JSONDecoder().decode(ProbeOutput.self, from: Data(bytes)) else { return }
            let duration = ProbedVideo.declaredDuration(output)
            if let duration { require(duration > 0 && duration.isFinite, "a declared duration is believable") }
            if let probed = ProbedVideo(output, container: .mp4, duration: duration ?? 1) {
                require(probed.info.width > 0 && probed.info.height > 0, "a usable video has a size")
                if let rate = probed.info.captureFrameRate { require(rate > 0 && rate <= 10_000, "a frame rate is a camera's") }
                require((probed.info.latitude == nil) == (probed.info.longitude == nil), "a position has both its parts")
            }
        },
        FuzzTarget(
            "iso6709", "a movie's position as its container states it (ISO 6709)",
            examples: ["+52.2097-000.8955+103.640/", "+40.680-074.500/", "+5212.582-00053.730/", "+521234.5-0005343.8/"]
        ) { bytes in
            guard let position = ISO6709.position(text(bytes)) else { return }
            require(abs(position.latitude) <= 90 && abs(position.longitude) <= 180, "a position is on the Earth")
            let again = ISO6709.position(String(format: "%+013.9f%+014.9f/", position.latitude, position.longitude))
            require(
                again.map { abs($0.latitude - position.latitude) < 1e-6 && abs($0.longitude - position.longitude) < 1e-6 } == true,
                "a position written again in degrees reads as itself")
        },
    ]
}

/// What ffprobe says of a corpus video, run as the server runs it.
@Sendable private func ffprobeJSON(_ path: String) async -> [UInt8]? {
    guard let header = FileHandle(forReadingAtPath: path).flatMap({ try? $0.read(upToCount: 64) }),
        let format = ContainerFormat.sniff(Array(header))
    else { return nil }
    return await seedTool("/usr/bin/ffprobe", FFmpegArguments.probe(path, format: format))
}
