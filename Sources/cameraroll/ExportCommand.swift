import Foundation
import PhotoLibrary

/// `cameraroll export ID DEST`: the original's bytes, unchanged. DEST may be a folder, where the
/// file keeps its original name.
enum ExportCommand {
    static func run(_ words: [String], _ context: Context) async throws -> Int32 {
        let arguments = try Arguments(words, valued: [])
        try arguments.allowOnly(["force"])
        guard arguments.positional.count == 2 else { throw UsageError("Usage: cameraroll export ID DEST") }
        let library = try context.openLibrary()
        let asset = try library.asset(arguments.positional[0])
        var destination = arguments.positional[1]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            destination = (destination as NSString).appendingPathComponent(asset.originalFilename ?? asset.id)
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: destination) {
            guard arguments.flag("force") else {
                throw LibraryError(.io, "\(destination) exists; add --force to replace it.")
            }
            try manager.removeItem(atPath: destination)
        }
        do {
            try manager.copyItem(atPath: library.originalPath(of: asset), toPath: destination)
        } catch {
            throw LibraryError(.io, "The original could not be written to \(destination).")
        }
        chmod(destination, 0o644)
        Terminal.out(destination)
        return 0
    }
}
