public import Foundation

/// A real phone movie that imports but from which no rendition can be made: its sound track is
/// relabelled MPEG-H 3D Audio (its `mp4a` sample entry renamed `mhm1`, the `esds` inside it
/// `free`), a codec ffmpeg 5.1 names but cannot decode. ffprobe reads it, its first frame
/// decodes (so it gets a poster), browsers are not given it as it is (no browser plays MPEG-H),
/// and every ffmpeg run that maps its sound fails at once.
public enum UnconvertibleMovie {
    public static let source = "videos/pigallery2__video_rotate.mp4"

    public static func bytes() throws -> Data {
        var data = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(source)))
        for (old, new) in [("mp4a", "mhm1"), ("esds", "free")] {
            // Each name occurs once in this file: as a box type, not inside the sample data.
            guard let range = data.range(of: Data(old.utf8)) else { throw CocoaError(.fileReadCorruptFile) }
            data.replaceSubrange(range, with: Data(new.utf8))
        }
        return data
    }
}
