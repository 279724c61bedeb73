import Foundation
import PhotoLibrary

/// `cameraroll import [--json] [--camera-roll] [--user NAME] PATH...`: files and folders,
/// recursively, two at a time, into the library of NAME (by default the owner's), with a progress
/// bar on a terminal and a summary; exit 1 if any file was rejected.
enum ImportCommand {
    static let valued: Set<String> = ["user"]

    struct Imported: Encodable {
        var path: String
        var id: String
        var mediaType: String
        var width: Int
        var height: Int
        var duplicate: Bool
    }

    struct Rejected: Encodable {
        var path: String
        var code: String
        var message: String
    }

    struct Report: Encodable {
        var imported: [Imported] = []
        var rejected: [Rejected] = []
    }

    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(["json", "camera-roll", "user"])
        guard !arguments.positional.isEmpty else { throw UsageError("Name at least one file or folder to import.") }
        let owner = try await context.owner(named: arguments.value("user"))
        let library = try await context.openLibrary()
        let saveToCameraRoll = arguments.flag("camera-roll")

        var report = Report()
        var files: [String] = []
        for path in arguments.positional {
            switch FileList.expand(path) {
            case .files(let found): files += found
            case .missing: report.rejected.append(Rejected(path: path, code: "not_found", message: "No such file or folder."))
            }
        }

        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        // A child task that returned its index from inside a typed-throws do/catch got index 0 in
        // release builds (Swift 6.3.1), so the import itself is a function of its own.
        let outcomes = await withTaskGroup(of: (Int, Result<ImportResult, LibraryError>).self) { group in
            var outcomes = [Result<ImportResult, LibraryError>?](repeating: nil, count: files.count)
            var progress = ProgressBar(total: files.count)
            var started = 0
            var done = 0
            var rejected = 0
            while done < files.count {
                // Keep `width` imports running; take each result as it comes.
                while started < files.count && started - done < width {
                    let index = started
                    let path = files[index]
                    group.addTask { (index, await importOne(library, path, saveToCameraRoll, owner)) }
                    started += 1
                }
                guard let (index, outcome) = await group.next() else { break }
                outcomes[index] = outcome
                done += 1
                if case .failure = outcome { rejected += 1 }
                progress.update(done: done, rejected: rejected, current: files[index])
            }
            progress.finish()
            return outcomes
        }

        for (path, outcome) in zip(files, outcomes) {
            switch outcome {
            case .success(let result):
                let asset = result.asset
                report.imported.append(
                    Imported(
                        path: path, id: asset.id, mediaType: asset.mediaType.rawValue, width: asset.width,
                        height: asset.height, duplicate: result.isDuplicate))
            case .failure(let error):
                report.rejected.append(Rejected(path: path, code: error.code.description, message: error.message))
            case nil:
                break
            }
        }
        try? await library.flush()

        if arguments.flag("json") {
            Terminal.json(report)
        } else {
            printSummary(report)
        }
        return report.rejected.isEmpty ? 0 : 1
    }

    private static func importOne(_ library: Library, _ path: String, _ saveToCameraRoll: Bool, _ owner: Owner) async -> Result<
        ImportResult, LibraryError
    > {
        do throws(LibraryError) {
            return .success(try await library.ingest.importFile(at: path, saveToCameraRoll: saveToCameraRoll, owner: owner))
        } catch {
            return .failure(error)
        }
    }

    private static func printSummary(_ report: Report) {
        let duplicates = report.imported.filter(\.duplicate).count
        let fresh = report.imported.count - duplicates
        var line = "Imported \(fresh) file\(fresh == 1 ? "" : "s")"
        if duplicates > 0 { line += ", \(duplicates) already in the library" }
        if !report.rejected.isEmpty { line += ", rejected \(report.rejected.count)" }
        Terminal.out(line + ".")
        for rejected in report.rejected {
            Terminal.out("  \(rejected.path): \(rejected.code): \(rejected.message)")
        }
    }
}

/// The files a path names: itself, or everything below a folder, in a stable order.
enum FileList {
    enum Found {
        case files([String])
        case missing
    }

    static func expand(_ path: String) -> Found {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard isDirectory.boolValue else { return .files([path]) }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return .files([]) }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                files.append((path as NSString).appendingPathComponent(relative))
            }
        }
        return .files(files.sorted())
    }
}
