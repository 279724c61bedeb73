import Foundation
import PhotoLibrary
import TestSupport

/// A library in a fresh temp folder, removed with the fixture.
final class LibraryFixture: Sendable {
    let directory = TemporaryDirectory("cameraroll-library")
    let library: Library

    init(_ options: Library.Options = Library.Options()) throws {
        library = try Library(folder: DataFolder(directory.path), options: options)
    }

    var folder: DataFolder { library.folder }

    @discardableResult
    func importCorpus(_ file: String, source: AssetSource = .imported, saveToCameraRoll: Bool = false) async throws(LibraryError)
        -> ImportResult
    {
        try await library.importFile(at: Corpus.path(file), source: source, saveToCameraRoll: saveToCameraRoll)
    }

    /// Files below a folder of the library's data folder, relative names.
    /// What is in this library's work folder: the lock beside it is its own and does not count.
    var workFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: library.temporaryFolder)) ?? []
    }

    func files(in subfolder: String) -> [String] {
        let root = "\(folder.root)/\(subfolder)"
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var names: [String] = []
        while let name = enumerator.nextObject() as? String {
            if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular { names.append(name) }
        }
        return names
    }
}
