import Foundation
import PhotoLibrary
import Storage

/// `cameraroll export ID DEST`: the original's bytes, unchanged, readable by their owner only.
/// DEST may be a folder, where the file keeps its original name.
enum ExportCommand {
    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly(["force"])
        guard arguments.positional.count == 2 else { throw UsageError("Usage: cameraroll export ID DEST") }
        let library = try await context.openLibrary()
        let asset = try await library.catalog.asset(arguments.positional[0], owner: nil)
        var destination = arguments.positional[1]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            destination = (destination as NSString).appendingPathComponent(asset.originalFilename ?? asset.id)
        }
        if FileManager.default.fileExists(atPath: destination) && !arguments.flag("force") {
            throw LibraryError(.io, "\(destination) exists; add --force to replace it.")
        }
        // As private as the library it comes from, and replaced whole: a file that was there
        // stays until the copy is complete.
        let original = try await library.originalFile(of: asset)
        do throws(StorageError) {
            try PrivateFile.copy(original, to: destination)
        } catch {
            throw LibraryError(.io, "The original could not be written to \(destination): \(error.message)")
        }
        Terminal.out(destination)
        return 0
    }
}
