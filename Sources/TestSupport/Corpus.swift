public import Foundation

/// The shared media corpus (`../shared/corpus` beside the checkout), read by relative path so the
/// tests run the same on a developer's machine and in CI's fresh clone.
public enum Corpus {
    /// The package root, found from this file's own path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    public static let root: URL =
        packageRoot
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    /// The absolute path of a corpus file given as `photos/x.jpg`.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// The file names in one corpus folder (`photos`, `videos`, `bad`), sorted.
    public static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return names.sorted().map { "\(folder)/\($0)" }
    }

    /// Photos CameraRoll must decode: those CHECKS.tsv says Debian 12's libvips decodes, and those
    /// it decodes with libheif 1.19 from bookworm-backports (CHECKS.tsv was made with libheif 1.15,
    /// which refuses current iPhone HEICs for their HDR gain-map auxiliary images).
    public static let decodablePhotos: [String] = {
        let decodedWithNewerLibheif: Set = ["photos/pigallery2__IMG_0307.HEIC"]
        let checks = entries()
        return files(in: "photos").filter { checks[$0]?.vipsFullDecode.hasPrefix("ok") ?? false || decodedWithNewerLibheif.contains($0) }
    }()

    /// One row of MANIFEST.tsv joined with CHECKS.tsv.
    public struct Entry: Sendable {
        public let path: String
        public let exercises: String
        public let sha256: String
        public let vipsFullDecode: String
        public let ffprobeStreams: String
    }

    /// MANIFEST.tsv and CHECKS.tsv joined by path.
    public static func entries() -> [String: Entry] {
        let manifest = table("MANIFEST.tsv")
        let checks = table("CHECKS.tsv")
        var result: [String: Entry] = [:]
        for (path, row) in manifest {
            let check = checks[path] ?? [:]
            result[path] = Entry(
                path: path, exercises: row["exercises"] ?? "", sha256: check["sha256"] ?? "",
                vipsFullDecode: check["vips_full_decode"] ?? "",
                ffprobeStreams: check["ffprobe_streams"] ?? "")
        }
        return result
    }

    private static func table(_ name: String) -> [String: [String: String]] {
        guard let text = try? String(contentsOfFile: path(name), encoding: .utf8) else { return [:] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [:] }
        let header = lines.removeFirst().components(separatedBy: "\t")
        var rows: [String: [String: String]] = [:]
        for line in lines {
            let fields = line.components(separatedBy: "\t")
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() where index < fields.count {
                row[name] = fields[index]
            }
            if let path = row["path"] { rows[path] = row }
        }
        return rows
    }
}
