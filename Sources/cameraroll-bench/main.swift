import Foundation
import Imaging
import PhotoLibrary
import Storage
import Vocabulary

// In-process measurements that bench/run.py compares with the reference tools. Each command
// prints one JSON object on standard output.
//
//   thumbnail ROUNDS FILE...   median milliseconds per file for the 256-pixel WebP thumbnail
//   display ROUNDS FILE...     median milliseconds per file for a JPEG fitting 1170x2532
//   import ROUNDS FILE...      seconds per round to import all files into a fresh library,
//                              with the 256/512 thumbnails and a 1170x2532 display size, as
//                              many at once as there are cores (as `cameraroll import`)
//   hash ROUNDS FILE           MB/s hashing a file as the blob store does (libcrypto SHA-256)
//   listings SIZE FILE...      a library of SIZE items cloned from FILE's row: milliseconds per
//                              view, and seconds per import of the other files into it; on the
//                              PostgreSQL database CAMERAROLL_BENCH_DATABASE names, if set

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let rounds = Int(arguments[1]), rounds > 0 else {
    FileHandle.standardError.write(
        Data("usage: cameraroll-bench thumbnail|display|import|hash ROUNDS FILE... | listings SIZE FILE...\n".utf8))
    exit(2)
}
let files = Array(arguments.dropFirst(2))

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let started = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func printJSON(_ value: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

switch arguments[0] {
case "thumbnail", "display":
    let imaging = try Imaging()
    let request =
        arguments[0] == "thumbnail"
        ? RenderRequest(box: PixelSize(width: 256, height: 256), encoding: .webp(quality: 80))
        : RenderRequest(box: PixelSize(width: 1170, height: 2532), encoding: .jpeg(quality: 85))
    var result: [String: Any] = [:]
    for file in files {
        _ = try imaging.render(file, [request])  // warm the page cache and libvips
        var times: [Double] = []
        for _ in 0..<rounds {
            times.append(try await seconds { _ = try imaging.render(file, [request]) } * 1000)
        }
        result[file] = median(times)
    }
    printJSON(result)

case "import":
    var options = Library.Options()
    options.importDisplayBox = PixelSize(width: 1170, height: 2532)
    var times: [Double] = []
    for _ in 0..<rounds {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try Library(folder: DataFolder(folder), options: options)
        // As `cameraroll import` does: as many at once as there are cores.
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        times.append(
            try await seconds {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, file) in files.enumerated() {
                        if index >= width { try await group.next() }
                        group.addTask { _ = try await library.ingest.importFile(at: file, owner: .first) }
                    }
                    try await group.waitForAll()
                }
            })
    }
    printJSON(["seconds": times, "median": median(times), "files": files.count])

case "hash":
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-bench-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let staging = try StagingArea(folder: "\(folder)/tmp")
    var rates: [Double] = []
    for _ in 0..<rounds {
        var size = 0
        let elapsed = try await seconds { size = try staging.stage(adopting: files[0]).size }
        rates.append(Double(size) / 1_000_000 / elapsed)
    }
    printJSON(["mbPerSecond": median(rates)])

case "listings":
    printJSON(
        try await measureListings(size: rounds, files: files, database: ProcessInfo.processInfo.environment["CAMERAROLL_BENCH_DATABASE"]))

default:
    FileHandle.standardError.write(Data("unknown measurement \(arguments[0])\n".utf8))
    exit(2)
}
