import Foundation
import Imaging
import PhotoLibrary
import TestSupport
import Testing
import Vocabulary

/// A library is its owner's alone: no other account on the machine may list or read any of it.
@Suite struct DataFolderModeTests {
    @Test func everythingALibraryWritesIsPrivate() async throws {
        let fixture = try LibraryFixture()
        let photo = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        _ = try await fixture.library.derivatives.display(of: photo.id, box: PixelSize(width: 40, height: 30), owner: .first)
        // Matroska is never played as it is, so this one gets a rendition.
        let movie = try await fixture.importCorpus("videos/pigallery2__video_mkv.mkv").asset
        _ = try await fixture.library.mediaJobs.playableVideo(of: movie.id, owner: .first)

        let entries = FolderModes(fixture.folder.root)
        // What the walk must have seen, or it proves nothing.
        for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm", "blobs", "derived", "tmp"] {
            #expect(entries.modes[name] != nil, "\(name) is missing")
        }
        #expect(entries.files.contains { $0.hasPrefix("blobs/") })
        #expect(entries.files.contains { $0.hasSuffix("/thumb-256.webp") })
        #expect(entries.files.contains { $0.hasSuffix("/display-40x30-contain.jpg") || $0.hasSuffix("/display-40x30-contain.webp") })
        #expect(entries.files.contains { $0.hasSuffix("/playable.mp4") })

        #expect(entries.mode(of: "") == 0o700)
        #expect(entries.folders.filter { entries.modes[$0] != 0o700 } == [])
        // Originals are read-only as well: nothing of ours ever writes to one again.
        let originals = entries.files.filter { $0.hasPrefix("blobs/") }
        #expect(originals.filter { entries.modes[$0] != 0o400 } == [])
        #expect(entries.files.filter { !$0.hasPrefix("blobs/") && entries.modes[$0] != 0o600 } == [])
    }

    /// A folder an earlier version made open to everyone is closed when a library opens it: the
    /// root alone already keeps everything below it from other accounts.
    @Test func anOpenFolderFromAnEarlierVersionIsClosedAtOpen() async throws {
        let directory = TemporaryDirectory("cameraroll-library")
        do {
            let library = try Library(folder: DataFolder(directory.path))
            _ = try await library.ingest.importFile(at: Corpus.path("photos/exifsamples__Canon_40D.jpg"), source: .imported, owner: .first)
            try await library.flush()
        }
        let folder = DataFolder(directory.path)
        for path in [folder.root, folder.blobs, folder.derived, folder.temporary] { chmod(path, 0o755) }
        chmod(folder.database, 0o644)

        let library = try Library(folder: folder)
        #expect(try await library.catalog.count(.photoLibrary, owner: .first) == 1)
        let entries = FolderModes(folder.root)
        #expect(entries.mode(of: "") == 0o700)
        for name in ["blobs", "derived", "tmp"] { #expect(entries.modes[name] == 0o700, "\(name)") }
        #expect(entries.modes["library.sqlite"] == 0o600)
        #expect(entries.modes["library.sqlite-wal"] == 0o600)
    }
}

/// The permission bits of everything below a folder, by path relative to it.
private struct FolderModes {
    let root: String
    var modes: [String: Int] = [:]
    var folders: [String] = []
    var files: [String] = []

    init(_ root: String) {
        self.root = root
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: root) else { return }
        while let relative = enumerator.nextObject() as? String {
            guard let attributes = enumerator.fileAttributes, let mode = attributes[.posixPermissions] as? Int else { continue }
            modes[relative] = mode
            if attributes[.type] as? FileAttributeType == .typeDirectory { folders.append(relative) } else { files.append(relative) }
        }
    }

    func mode(of relative: String) -> Int? {
        let path = relative.isEmpty ? root : "\(root)/\(relative)"
        return (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }
}
