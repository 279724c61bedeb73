import Foundation
import FuzzTargets
import PhotoLibrary
import TestSupport
import Testing

/// Every input a fuzz run kept (Fuzz/corpus: each one reached code no other did) and every crash
/// it ever found (Fuzz/crashes, kept after the fix as regression cases) runs again through its
/// target: a parser that traps on any of them fails this test, by crashing it.
@Suite(.serialized) struct ReplayTests {
    static let fuzzFolder = Corpus.packageRoot.appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, of target: String) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func savedInputsAndCrashesRunClean(target name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        let corpus = Self.inputs("corpus", of: name)
        #expect(!corpus.isEmpty, "Fuzz/corpus/\(name) is empty: run `make fuzz FUZZ_TARGETS=\(name)` and commit what it keeps")
        let inputs = corpus + Self.inputs("crashes", of: name)
        try await offThePool {
            for input in inputs { try Data(contentsOf: input).withUnsafeBytes { target.run($0) } }
        }
    }

    /// Crashes of libheif that a fuzz run found (its own assertions abort the process): the server
    /// first decodes such files in a child process, so each must come back as a refusal of one
    /// import, with the test process (the server, here) alive to see it.
    @Test(arguments: FuzzTarget.all.map(\.name).filter { !inputs("contained", of: $0).isEmpty })
    func containedCrashesAreRefusedImports(target name: String) async throws {
        let directory = TemporaryDirectory()
        var options = Library.Options()
        options.imageDecoder = ImageDecoderCommand(executable: Executable.path, arguments: [ImportDecoder.command])
        let library = try Library(folder: DataFolder(directory.path), options: options)
        for input in Self.inputs("contained", of: name) {
            do throws(LibraryError) {
                _ = try await library.ingest.importFile(at: input.path, owner: .first)
            } catch {
                #expect(
                    [LibraryError.Code.corrupt, .truncated, .unsupportedType, .tooLarge].contains(error.code),
                    "\(input.lastPathComponent): \(error)")
            }
        }
    }

    @Test func targetNamesAreUnique() {
        let names = FuzzTarget.all.map(\.name)
        #expect(Set(names).count == names.count)
    }
}
