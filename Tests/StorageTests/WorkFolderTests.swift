import Foundation
import Storage
import TestSupport
import Testing

@Suite struct WorkFolderTests {
    let directory = TemporaryDirectory()
    var parent: String { directory.file("tmp") }

    /// What a process killed mid-upload leaves: its lock file (no longer locked) and its folder.
    func leaveCrashedFolder(named name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(parent)/\(name)", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: "\(parent)/\(name).lock"))
        let partial = "\(parent)/\(name)/half.upload"
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: partial))
        return partial
    }

    @Test func aCrashedProcessFolderIsSweptAtTheNextClaim() throws {
        let partial = try leaveCrashedFolder(named: "dead")
        try Data([1]).write(to: URL(fileURLWithPath: "\(parent)/loose.upload"))
        let folder = try WorkFolder.claim(in: parent)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: "\(parent)/dead.lock"))
        #expect(!FileManager.default.fileExists(atPath: "\(parent)/loose.upload"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: parent).sorted()
                == [
                    (folder.path as NSString).lastPathComponent, (folder.path as NSString).lastPathComponent + ".lock",
                ].sorted())
    }

    @Test func aLiveProcessFolderIsKeptWhateverItsAge() throws {
        let live = try WorkFolder.claim(in: parent)
        let file = "\(live.path)/arriving.upload"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.modificationDate: Date.distantPast], ofItemAtPath: file)
        let other = try WorkFolder.claim(in: parent)
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(other.path != live.path)
    }

    @Test func aFolderGoesWithItsOwner() throws {
        var folder: WorkFolder? = try WorkFolder.claim(in: parent)
        let path = try #require(folder?.path)
        try Data([1]).write(to: URL(fileURLWithPath: "\(path)/x"))
        folder = nil
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
