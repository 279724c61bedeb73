import Foundation
import FuzzTargets

/// A target's seeds, made from the shared corpus: the files themselves, or the part of each the
/// target reads (an EXIF block, an ICC profile, ffprobe's JSON); and its examples. Written once per machine, into
/// the build folder, never into the repository: only what libFuzzer finds beyond them is kept.
enum Seeds {
    static func write(_ target: FuzzTarget, corpus: String, into folder: String) async -> Int32 {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var written = 0
            for seedFolder in target.seedFolders {
                let source = (corpus as NSString).appendingPathComponent(seedFolder)
                for name in try files.contentsOfDirectory(atPath: source).sorted() {
                    guard let bytes = await target.seed((source as NSString).appendingPathComponent(name)), !bytes.isEmpty else { continue }
                    let seed = (folder as NSString).appendingPathComponent("\(seedFolder)-\(name)")
                    guard files.createFile(atPath: seed, contents: Data(bytes.prefix(target.maxLength))) else { return 1 }
                    written += 1
                }
            }
            for (index, example) in target.examples.enumerated() {
                guard
                    files.createFile(atPath: (folder as NSString).appendingPathComponent("example-\(index)"), contents: Data(example.utf8))
                else { return 1 }
                written += 1
            }
            print("\(target.name): \(written) seeds")
            return 0
        } catch {
            FileHandle.standardError.write(Data("Cannot write the seeds of \(target.name): \(error)\n".utf8))
            return 1
        }
    }
}
