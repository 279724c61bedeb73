/// The video containers on the upload allow-list, recognised from their first bytes.
///
/// The raw values are stable: they are stored with assets and sent to clients.
public enum ContainerFormat: String, Sendable, Codable, CaseIterable {
    /// ISO base media (MP4, 3GP, M4V) and QuickTime MOV: ffmpeg reads them with one demuxer.
    case mp4
    /// Matroska, including WebM.
    case matroska
    /// RIFF AVI.
    case avi

    /// The container of a file given its first bytes (64 are plenty), or nil when it is none of ours.
    ///
    /// Images are sniffed before this, so HEIF and AVIF (which also start with `ftyp`) never get here.
    public static func sniff(_ header: [UInt8]) -> ContainerFormat? {
        if header.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if header.count >= 12, header[0..<4].elementsEqual("RIFF".utf8),
            header[8..<12].elementsEqual("AVI ".utf8)
        {
            return .avi
        }
        if header.count >= 8 {
            let boxType = String(decoding: header[4..<8], as: UTF8.self)
            if boxType == "ftyp" || quickTimeFirstAtoms.contains(boxType) { return .mp4 }
        }
        return nil
    }

    /// Old QuickTime files have no `ftyp` box and start straight with one of these atoms.
    private static let quickTimeFirstAtoms: Set<String> = ["moov", "mdat", "wide", "free", "skip", "pnot"]

    /// The ffmpeg demuxer that reads this container. It is always forced with `-f`, so a file can
    /// never talk ffmpeg into a demuxer we did not choose (HLS, concat, image sequences).
    public var ffmpegDemuxer: String {
        switch self {
        case .mp4: "mov"
        case .matroska: "matroska"
        case .avi: "avi"
        }
    }

    /// The media type to serve the original with. Matroska is announced as WebM because that is
    /// the only Matroska flavour browsers play; others get a rendition instead.
    public var mimeType: String {
        switch self {
        case .mp4: "video/mp4"
        case .matroska: "video/webm"
        case .avi: "video/x-msvideo"
        }
    }
}
