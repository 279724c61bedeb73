import Foundation
import Storage
import TestSupport
import Testing

/// A file's SHA-256, whole and by parts (as S3's multipart uploads send it), against coreutils'
/// sha256sum of the same bytes.
@Suite struct FileDigestTests {
    let directory = TemporaryDirectory("file-digest")

    func sha256sum(_ bytes: [UInt8]) async throws -> String {
        let path = directory.file(UUID().uuidString)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let output = try await Executable.run(program: "/usr/bin/sha256sum", [path])
        return String(output.stdout.prefix(64))
    }

    /// Parts that are not a multiple of the read chunk (256 KB), one of them shorter than a chunk.
    @Test func partsAndTheWholeAreTheBytesDigests() async throws {
        var generator: UInt64 = 0x2545_F491_4F6C_DD1D
        let bytes = (0..<700_001).map { _ in
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: generator >> 56)
        }
        let path = directory.file("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let digests = try FileDigest.sha256(ofPartsOf: path, size: bytes.count, partSize: 300_000)
        #expect(digests.parts.count == 3)
        #expect(digests.parts[0] == (try await sha256sum(Array(bytes[0..<300_000]))))
        #expect(digests.parts[1] == (try await sha256sum(Array(bytes[300_000..<600_000]))))
        #expect(digests.parts[2] == (try await sha256sum(Array(bytes[600_000...]))))
        #expect(digests.whole == (try await sha256sum(bytes)))
        #expect(try FileDigest.sha256(of: path) == (digests.whole, bytes.count))
    }

    @Test func aFileShorterThanItsPartsIsAnError() throws {
        let path = directory.file("short")
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        #expect(throws: StorageError.self) { try FileDigest.sha256(ofPartsOf: path, size: 1500, partSize: 500) }
    }
}
