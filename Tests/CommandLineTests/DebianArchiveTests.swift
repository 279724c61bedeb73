import Foundation
import TestSupport
import Testing

/// `make install-deps` adds bookworm-backports from the archive the machine already takes
/// bookworm from (`scripts/debian-archive`), never from a host written into the script: a
/// mirror or a proxy the machine is set up with keeps working. Tested on an apt state of its own
/// (`APT_CONFIG`), as `apt-get update` would have left it.
@Suite struct DebianArchiveTests {
    static let script = Corpus.packageRoot.appendingPathComponent("scripts/debian-archive").path

    /// An apt state whose sources are `sources` (file name and text), of which the archives in
    /// `fetched` (a list file's prefix, such as `mirror.example_debian`) have been fetched.
    static func archive(of suite: String, sources: [String: String], fetched: [String: String]) async throws -> Executable.Output {
        let folder = TemporaryDirectory("apt-state")
        let (parts, lists) = (folder.file("sources.list.d"), folder.file("lists"))
        for path in [parts, lists + "/partial"] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        for (name, text) in sources { try text.write(toFile: "\(parts)/\(name)", atomically: true, encoding: .utf8) }
        for (prefix, origin) in fetched {
            let release = "Origin: \(origin)\nLabel: \(origin)\nCodename: bookworm\nArchitectures: amd64\nComponents: main\n"
            try release.write(toFile: "\(lists)/\(prefix)_dists_bookworm_Release", atomically: true, encoding: .utf8)
            try Data().write(to: URL(fileURLWithPath: "\(lists)/\(prefix)_dists_bookworm_main_binary-amd64_Packages"))
        }
        let configuration = """
            Dir::Etc::sourcelist "/dev/null";
            Dir::Etc::sourceparts "\(parts)";
            Dir::State::lists "\(lists)";
            APT::Architecture "amd64";
            """
        try configuration.write(toFile: folder.file("apt.conf"), atomically: true, encoding: .utf8)
        return try await Executable.run(program: script, [suite], environment: ["APT_CONFIG": folder.file("apt.conf")])
    }

    @Test func theArchiveIsTheOneTheMachineTakesBookwormFrom() async throws {
        let deb822 = "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\nComponents: main\n"
        let found = try await Self.archive(
            of: "bookworm", sources: ["debian.sources": deb822], fetched: ["mirror.example_debian": "Debian"])
        #expect(found.status == 0 && found.stdout == "http://mirror.example/debian/\n", "\(found.stderr)")

        let oneLine = "deb http://proxy.lan:3142/debian bookworm main\n"
        let proxied = try await Self.archive(
            of: "bookworm", sources: ["debian.list": oneLine], fetched: ["proxy.lan:3142_debian": "Debian"])
        #expect(proxied.stdout == "http://proxy.lan:3142/debian/\n", "\(proxied.stderr)")
    }

    @Test func anotherOriginsArchiveOrNoneIsNoAnswer() async throws {
        let other = "Types: deb\nURIs: http://apt.example/ubuntu\nSuites: bookworm\nComponents: main\n"
        let notDebian = try await Self.archive(
            of: "bookworm", sources: ["other.sources": other], fetched: ["apt.example_ubuntu": "Example"])
        #expect(notDebian.status == 1 && notDebian.stdout.isEmpty)
        let none = try await Self.archive(of: "bookworm", sources: [:], fetched: [:])
        #expect(none.status == 1 && none.stdout.isEmpty)
    }
}
