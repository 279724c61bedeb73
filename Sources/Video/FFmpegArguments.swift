import Foundation

/// The command lines we give ffprobe and ffmpeg. Every one of them is built here, so the rules
/// that keep hostile files in check are written once:
/// - the input format is forced with `-f` and, through `-format_whitelist`, no other demuxer may
///   open (this stops playlists smuggled inside a container from pulling in HLS);
/// - `-protocol_whitelist file` and `file:` paths: no network, no `concat:`, no `subfile:`;
/// - `-nostdin`, `-hide_banner -v error`: no interaction, and only errors on stderr;
/// - outputs are `file:` paths with a forced `-f`, overwritten with `-y` because the caller named them.
package enum FFmpegArguments {
    /// Stream and format facts as JSON.
    package static func probe(_ input: String, format: ContainerFormat) -> [String] {
        common + demuxer(format) + ["-print_format", "json", "-show_format", "-show_streams", url(input)]
    }

    /// One `pts_time,duration_time` line per packet of one stream, for files without a
    /// believable duration.
    static func packetTimes(_ input: String, format: ContainerFormat, stream: Int) -> [String] {
        common + demuxer(format) + [
            "-select_streams", String(stream), "-show_entries", "packet=pts_time,duration_time",
            "-of", "csv=p=0", url(input),
        ]
    }

    /// One upright JPEG frame at `seconds`. ffmpeg's autorotation stays on, so the frame is upright.
    static func poster(
        _ input: String, format: ContainerFormat, videoStream: Int, at seconds: Double, output: String
    ) -> [String] {
        ["-nostdin"] + common + ["-ss", timestamp(seconds)] + demuxer(format) + ["-i", url(input)]
            + [
                "-map", "0:\(videoStream)", "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "2",
                // `update` writes exactly the name given: no `%d` pattern expansion in the path.
                "-f", "image2", "-update", "1", "-y", url(output),
            ]
    }

    /// A scrub strip: `frames` frames of `width`x`height` in a row, as one JPEG. Keyframes only
    /// (`-skip_frame nokey`), picked `frames` times evenly over `duration` by the fps filter
    /// (which repeats a frame where keyframes are sparser), then tiled. The last keyframe is
    /// held to the end (`tpad`): a movie with one keyframe would leave the row unfilled, and an
    /// unfilled row is never written.
    static func scrubStrip(
        _ input: String, format: ContainerFormat, videoStream: Int, duration: Double, frames: Int, width: Int, height: Int,
        output: String
    ) -> [String] {
        let rate = String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), Double(frames) / max(duration, 0.001))
        return ["-nostdin"] + common + ["-skip_frame", "nokey"] + demuxer(format) + ["-i", url(input)]
            + [
                "-map", "0:\(videoStream)", "-an", "-sn", "-dn",
                "-vf",
                "tpad=stop_mode=clone:stop_duration=\(timestamp(duration)),fps=\(rate),scale=\(width):\(height),setsar=1,tile=\(frames)x1",
                "-frames:v", "1", "-c:v", "mjpeg", "-q:v", "5", "-f", "image2", "-update", "1", "-y", url(output),
            ]
    }

    /// The playable rendition: H.264 + AAC in MP4, upright, even-sized, `faststart` for streaming.
    /// `range` re-encodes only [start, end) (seeking on input, so the cut is frame-accurate).
    static func rendition(
        _ input: String, format: ContainerFormat, videoStream: Int, audioStream: Int?,
        range: ClosedRange<Double>? = nil, output: String
    ) -> [String] {
        var arguments = ["-nostdin"] + common + ["-nostats", "-progress", "pipe:1"]
        if let range { arguments += ["-ss", timestamp(range.lowerBound)] }
        arguments += demuxer(format) + ["-i", url(input)]
        if let range { arguments += ["-t", timestamp(range.upperBound - range.lowerBound)] }
        arguments += ["-map", "0:\(videoStream)"]
        if let audioStream { arguments += ["-map", "0:\(audioStream)"] }
        arguments += [
            // Autorotation turns the frames upright first, so the even sizes are the displayed ones.
            "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
        ]
        arguments += audioStream == nil ? ["-an"] : ["-c:a", "aac", "-b:a", "128k"]
        arguments += [
            // A rendition is served to browsers; location and device tags stay with the original.
            "-map_metadata", "-1", "-map_chapters", "-1", "-sn", "-dn",
            // Phone files often start audio well after video; the default queue of 128 packets
            // is not enough to bridge that gap.
            "-max_muxing_queue_size", "1024",
            "-movflags", "+faststart", "-f", "mp4", "-y", url(output),
        ]
        return arguments
    }

    /// The playable rendition of an H.264 movie (`Playability.isRemuxable`): the video copied
    /// into an MP4 as it is, the sound copied when browsers play it in MP4 and encoded as AAC when
    /// not. An AVI's packets may have no presentation times; ffmpeg makes them (`+genpts`).
    static func remux(
        _ input: String, format: ContainerFormat, videoStream: Int, audioStream: Int?, copiesAudio: Bool, output: String
    ) -> [String] {
        var arguments = ["-nostdin"] + common + ["-nostats", "-progress", "pipe:1"]
        if format == .avi { arguments += ["-fflags", "+genpts"] }
        arguments += demuxer(format) + ["-i", url(input), "-map", "0:\(videoStream)"]
        if let audioStream { arguments += ["-map", "0:\(audioStream)"] }
        arguments += ["-c:v", "copy"]
        arguments += audioStream == nil ? ["-an"] : copiesAudio ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "128k"]
        arguments += [
            "-map_metadata", "-1", "-map_chapters", "-1", "-sn", "-dn", "-max_muxing_queue_size", "1024",
            "-movflags", "+faststart", "-f", "mp4", "-y", url(output),
        ]
        return arguments
    }

    /// One segment of a streamed movie (`StreamLayout`): [start, start + length) re-encoded as a
    /// fragmented MP4 that starts at zero with a keyframe, `width`x`height`, at most 60 frames a
    /// second, stereo AAC. `superfast` because a person is waiting for it; High profile forced
    /// so that every segment matches the codecs the player declared; no B-frames, so that
    /// frames are shown in the order they are stored and a segment's frames start at zero and
    /// end at its length (B-frames shift them by two frames, across the next segment's start).
    static func streamSegment(
        _ input: String, format: ContainerFormat, videoStream: Int, audioStream: Int?,
        start: Double, length: Double, width: Int, height: Int, output: String
    ) -> [String] {
        var arguments = ["-nostdin"] + common + ["-ss", timestamp(start)] + demuxer(format) + ["-i", url(input)]
        arguments += ["-t", timestamp(length), "-map", "0:\(videoStream)"]
        if let audioStream { arguments += ["-map", "0:\(audioStream)"] }
        arguments += [
            "-vf", "scale=\(width):\(height)", "-fpsmax", "60",
            "-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-profile:v", "high", "-bf", "0",
            "-pix_fmt", "yuv420p",
        ]
        arguments += audioStream == nil ? ["-an"] : ["-c:a", "aac", "-b:a", "128k", "-ac", "2"]
        arguments += [
            "-map_metadata", "-1", "-map_chapters", "-1", "-sn", "-dn", "-max_muxing_queue_size", "1024",
            "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-f", "mp4", "-y", url(output),
        ]
        return arguments
    }

    /// `-version` prints the version line first; it reads no input (and ffprobe never reads stdin,
    /// so it has no `-nostdin`).
    static func version(_ tool: ProcessRunner.Tool) -> [String] {
        switch tool {
        case .ffmpeg: ["-nostdin", "-version"]
        case .ffprobe: ["-version"]
        }
    }

    private static let common = ["-hide_banner", "-v", "error", "-protocol_whitelist", "file"]

    private static func demuxer(_ format: ContainerFormat) -> [String] {
        ["-format_whitelist", format.ffmpegDemuxer, "-f", format.ffmpegDemuxer]
    }

    /// `file:` plus an absolute path: ffmpeg takes the rest literally, so a name that looks like a
    /// URL or another protocol (`http:`, `concat:`) stays a file name.
    static func url(_ path: String) -> String {
        "file:" + URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Seconds in a form ffmpeg reads the same in every locale.
    static func timestamp(_ seconds: Double) -> String {
        String(format: "%.6f", locale: Locale(identifier: "en_US_POSIX"), max(0, seconds))
    }
}
