import Foundation
import S3
import TestSupport
import Testing

/// The `cameraroll` program itself, run as a child process on a temp data folder.
@Suite struct CommandLineTests {
    let directory = TemporaryDirectory("cameraroll-cli")
    var data: String { directory.file("data") }

    struct ImportReport: Decodable {
        struct Imported: Decodable {
            let path: String
            let id: String
            let mediaType: String
            let width: Int
            let height: Int
            let duplicate: Bool
        }
        struct Rejected: Decodable {
            let path: String
            let code: String
            let message: String
        }
        let imported: [Imported]
        let rejected: [Rejected]
    }

    func importJSON(_ paths: [String], environment: [String: String] = [:]) async throws -> (Int32, ImportReport?) {
        let output = try await Executable.run(["--data", data, "import", "--json"] + paths, environment: environment)
        return (output.status, try? JSONDecoder().decode(ImportReport.self, from: Data(output.stdout.utf8)))
    }

    @Test func importPrintsTheDocumentedJSON() async throws {
        let portrait = Corpus.path("photos/recurser__Portrait_6.jpg")
        let movie = Corpus.path("videos/androidx-media__portrait_4k60.mp4")
        let (status, report) = try await importJSON([portrait, movie])
        #expect(status == 0)
        let imported = try #require(report).imported
        #expect(imported.map(\.path) == [portrait, movie])
        #expect(imported[0].mediaType == "public.image" && imported[0].width == 1200 && imported[0].height == 1800)
        #expect(imported[1].mediaType == "public.movie" && imported[1].width == 2160 && imported[1].height == 3840)
        #expect(imported.allSatisfy { !$0.duplicate })

        let (again, second) = try await importJSON([portrait])
        #expect(again == 0)
        #expect(second?.imported.first?.duplicate == true)
        #expect(second?.imported.first?.id == imported[0].id)
    }

    @Test func rejectedFilesAreNamedWithACodeAndTheExitStatusIsOne() async throws {
        let bad = Corpus.path("bad/sharp__truncated.jpg")
        let missing = directory.file("nope.jpg")
        let good = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let (status, report) = try await importJSON([bad, good, missing])
        #expect(status == 1)
        let rejected = try #require(report).rejected
        #expect(Set(rejected.map(\.path)) == [bad, missing])
        #expect(rejected.first { $0.path == bad }?.code == "truncated")
        #expect(rejected.first { $0.path == missing }?.code == "not_found")
        #expect(report?.imported.map(\.path) == [good])
    }

    /// `--data d` is the folder d in the current one (a one-letter relative path once trapped
    /// inside Foundation's path functions).
    @Test func aRelativeDataFolderIsTheCurrentFolders() async throws {
        let photo = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let output = try await Executable.run(["--data", "d", "import", photo], in: directory.path)
        #expect(output.status == 0, "\(output.stderr)")
        let list = try await Executable.run(["--data", directory.file("d"), "list", "--json"])
        let assets = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(assets?.count == 1)
    }

    /// The program's options may follow the command, among its own, as with git and docker.
    @Test func globalOptionsMayFollowTheCommand() async throws {
        let photo = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let imported = try await Executable.run(["import", "--data", data, "--json", photo])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try JSONDecoder().decode(ImportReport.self, from: Data(imported.stdout.utf8))
        #expect(report.imported.map(\.path) == [photo])
        for words in [["list", "--data", data, "--json"], ["list", "--json", "--data=\(data)"], ["--data", data, "list", "--json"]] {
            let list = try await Executable.run(words)
            #expect(list.status == 0, "\(words): \(list.stderr)")
            let assets = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            #expect(assets?.map { $0["id"] as? String } == [report.imported.first?.id], "\(words)")
        }
        // Checked as they are before the command.
        let wrong = try await Executable.run(["list", "--data", data, "--database", "mysql://x"])
        #expect(wrong.status == 2 && wrong.stderr.contains("PostgreSQL URL"), "\(wrong.stderr)")
        let bucket = try await Executable.run(["list", "--data", data, "--storage", "bucket"])
        #expect(bucket.status == 2 && bucket.stderr.contains("s3://BUCKET"), "\(bucket.stderr)")
    }

    /// Given twice, before and after the command or twice after it, an option must say the same.
    @Test func aGlobalOptionGivenTwiceMustAgree() async throws {
        let other = directory.file("other")
        for words in [["--data", data, "list", "--data", other], ["list", "--data", data, "--data=\(other)"]] {
            let refused = try await Executable.run(words)
            #expect(refused.status == 2 && refused.stderr.contains("--data is given twice"), "\(words): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: other) && !FileManager.default.fileExists(atPath: data))
        let same = try await Executable.run(["--data", data, "list", "--data", data])
        #expect(same.status == 0, "\(same.stderr)")
    }

    /// After `--` every word is the command's, and an option's value is its own, whatever they look like.
    @Test func wordsAfterTwoDashesAndOptionValuesAreNeverGlobalOptions() async throws {
        try FileManager.default.copyItem(atPath: Corpus.path("photos/exifsamples__Canon_40D.jpg"), toPath: directory.file("--data"))
        let imported = try await Executable.run(["import", "--data", data, "--json", "--", "--data"], in: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try JSONDecoder().decode(ImportReport.self, from: Data(imported.stdout.utf8))
        #expect(report.imported.map(\.path) == ["--data"] && report.rejected.isEmpty)

        let added = try await Executable.run(["apps", "add", "https://blog.example", "--name", "--data", "--data", data])
        #expect(added.status == 0 && added.stdout.contains("--data (https://blog.example) may use the picker"), "\(added.stderr)")
        let apps = try await Executable.run(["apps", "list", "--json", "--data", data])
        let names = (try JSONSerialization.jsonObject(with: Data(apps.stdout.utf8)) as? [[String: Any]])?.map { $0["name"] as? String }
        #expect(names == ["--data"], "\(apps.stdout)")
    }

    /// `--help` anywhere before `--`, and the help says where the program's options may go.
    @Test(arguments: [["--help"], ["help"], ["list", "--help"], ["import", "--json", "--help"]])
    func helpSaysGlobalOptionsMayFollowTheCommand(_ words: [String]) async throws {
        let output = try await Executable.run(words)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Usage: cameraroll [GLOBAL OPTIONS] COMMAND [OPTIONS]"))
        #expect(output.stdout.contains("before or after the command"))
    }

    @Test func foldersAreImportedRecursivelyWithAHumanSummary() async throws {
        let output = try await Executable.run(["--data", data, "import", Corpus.path("videos")])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Imported \(Corpus.files(in: "videos").count) files."))
        let list = try await Executable.run(["--data", data, "list", "--json", "--media", "movie"])
        let assets = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(assets?.count == Corpus.files(in: "videos").count)
    }

    @Test func listShowsATableAndFilters() async throws {
        _ = try await importJSON([Corpus.path("photos/exifsamples__Canon_40D.jpg"), Corpus.path("videos/androidx-media__sample.mp4")])
        let table = try await Executable.run(["--data", data, "list"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("exifsamples__Canon_40D.jpg"))
        #expect(table.stdout.contains("2 items"))
        let saved = try await Executable.run(["--data", data, "list", "--source", "savedPhotosAlbum"])
        #expect(saved.stdout.contains("0 items"))
    }

    /// With `--database`, what is imported is in PostgreSQL: the folder has no SQLite file, and
    /// another process with the same database lists it.
    @Test func aLibraryOnPostgreSQLKeepsItsRowsThere() async throws {
        let database = try await ThrowawayPostgres.newDatabase()
        let imported = try await Executable.run(
            ["--data", data, "--database", database, "import", Corpus.path("photos/exifsamples__Canon_40D.jpg")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(data)/library.sqlite"))
        let listed = try await Executable.run(["--data", data, "--database", database, "list"])
        #expect(listed.stdout.contains("exifsamples__Canon_40D.jpg") && listed.stdout.contains("1 item"), "\(listed.stdout)")
        let after = try await Executable.run(["list", "--database", database, "--data", data])
        #expect(after.stdout == listed.stdout, "\(after.stderr)")
        let unreachable = try await Executable.run(["--data", data, "--database", "postgresql://nobody@127.0.0.1:1/none", "list"])
        #expect(unreachable.status == 1 && unreachable.stderr.contains("storage_unavailable"), "\(unreachable.stderr)")
        let wrong = try await Executable.run(["--data", data, "--database", "mysql://x", "list"])
        #expect(wrong.status == 2)
    }

    /// `migrate --to` copies the folder's library into PostgreSQL and S3, where `--database` and
    /// `--storage` find it from any folder; `--from` copies it into another folder.
    @Test func migrateCopiesALibraryIntoTheClusterAndBack() async throws {
        _ = try await importJSON([Corpus.path("photos/exifsamples__Canon_40D.jpg"), Corpus.path("videos/androidx-media__sample.mp4")])
        let database = try await ThrowawayPostgres.newDatabase()
        let gateway = try await ThrowawayCeph.start()
        let bucket = ThrowawayCeph.newBucketName()
        let s3 = [
            "AWS_ENDPOINT_URL": gateway.endpoint, "AWS_ACCESS_KEY_ID": gateway.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": gateway.secretAccessKey,
        ]
        let client = S3Client(bucket: try S3Bucket.from(url: "s3://\(bucket)", environment: s3))
        try await offThePool { try client.createBucket() }
        let copied = try await Executable.run(
            ["--data", data, "migrate", "--to", database, "--to-storage", "s3://\(bucket)"], environment: s3)
        #expect(copied.status == 0 && copied.stdout.contains("Copied 2 assets"), "\(copied.stdout) \(copied.stderr)")
        let again = try await Executable.run(
            ["--data", data, "migrate", "--to", database, "--to-storage", "s3://\(bucket)"], environment: s3)
        #expect(again.stdout.contains("Copied 0 assets") && again.stdout.contains("2 were there already"), "\(again.stdout)")
        let cluster = ["--data", directory.file("elsewhere"), "--database", database, "--storage", "s3://\(bucket)"]
        let listed = try await Executable.run(cluster + ["list"], environment: s3)
        #expect(listed.stdout.contains("2 items"), "\(listed.stdout) \(listed.stderr)")
        let back = try await Executable.run(
            ["--data", directory.file("back"), "migrate", "--from", database, "--from-storage", "s3://\(bucket)"], environment: s3)
        #expect(back.status == 0 && back.stdout.contains("Copied 2 assets"), "\(back.stdout) \(back.stderr)")
        #expect(try await Executable.run(["--data", directory.file("back"), "list"]).stdout.contains("2 items"))
        #expect(try await Executable.run(["--data", data, "migrate", "--to", database, "--from", database]).status == 2)
        #expect(try await Executable.run(["--data", data, "--database", database, "migrate", "--to", database]).status == 2)
    }

    @Test func exportWritesTheOriginalBytes() async throws {
        let source = Corpus.path("photos/pillow__xmp_test.jpg")
        let (_, report) = try await importJSON([source])
        let id = try #require(report?.imported.first?.id)
        let destination = directory.file("out.jpg")
        let output = try await Executable.run(["--data", data, "export", id, destination])
        #expect(output.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(contentsOf: URL(fileURLWithPath: source)))
        // A copy of a private library is as private as the library.
        #expect(try FileManager.default.attributesOfItem(atPath: destination)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: data)[.posixPermissions] as? Int == 0o700)
        let refused = try await Executable.run(["--data", data, "export", id, destination])
        #expect(refused.status == 1)
        chmod(destination, 0o644)
        let forced = try await Executable.run(["--data", data, "export", "--force", id, destination])
        #expect(forced.status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: destination)[.posixPermissions] as? Int == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(contentsOf: URL(fileURLWithPath: source)))
        let unknown = try await Executable.run(["--data", data, "export", "no-such-id", destination])
        #expect(unknown.status == 1 && unknown.stderr.contains("not_found"))
    }

    @Test func doctorReportsEveryDependency() async throws {
        let output = try await Executable.run(["--data", data, "doctor"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        for name in ["libvips", "libheif", "libexif", "ffmpeg", "ffprobe", "SQLite"] {
            #expect(output.stdout.contains(name))
        }
        #expect(!output.stdout.contains("MISSING"))
    }

    @Test func doctorFailsClearlyWithoutFFmpeg() async throws {
        let output = try await Executable.run(["--data", data, "doctor"], environment: ["CAMERAROLL_FFMPEG": "/nonexistent/ffmpeg"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("MISSING"))
        #expect(output.stderr.contains("make install-deps"))
    }

    @Test(arguments: [
        ["frobnicate"], ["import"], ["import", "--no-such-flag", "x"], ["list", "--source", "everything"], ["--bogus", "list"],
    ])
    func usageErrorsExitWithTwo(arguments: [String]) async throws {
        let output = try await Executable.run(["--data", data] + arguments)
        #expect(output.status == 2)
        #expect(!output.stderr.isEmpty)
    }

    /// A crash between the blob's commit and the row's leaves an orphan blob and no row; the
    /// library stays sound, collects the orphan, and takes the same file again.
    @Test func aCrashBetweenBlobAndRowLeavesNoDanglingRow() async throws {
        let file = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let crashed = try await Executable.run(["--data", data, "import", file], environment: ["CAMERAROLL_CRASH_AT": "after-blob-commit"])
        #expect(crashed.status == 70)
        let list = try await Executable.run(["--data", data, "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])?.isEmpty == true)
        let blobs = FileManager.default.enumerator(atPath: "\(data)/blobs")?.allObjects.compactMap { $0 as? String }.filter {
            $0.count > 64
        }
        #expect(blobs?.count == 1)

        let (status, report) = try await importJSON([file])
        #expect(status == 0 && report?.imported.first?.duplicate == false)
        #expect(try await Executable.run(["--data", data, "gc"]).status == 0)
        let exported = try await Executable.run([
            "--data", data, "export", try #require(report?.imported.first?.id), directory.file("x.jpg"),
        ])
        #expect(exported.status == 0)
    }

    @Test func aCrashAfterTheRowKeepsTheImport() async throws {
        let file = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        let crashed = try await Executable.run(
            ["--data", data, "import", file], environment: ["CAMERAROLL_CRASH_AT": "after-database-commit"])
        #expect(crashed.status == 70)
        let (status, report) = try await importJSON([file])
        #expect(status == 0 && report?.imported.first?.duplicate == true)
    }
}

/// `cameraroll passwd`, and `serve` refusing to serve beyond this computer without it.
@Suite struct PasswordCommandTests {
    let directory = TemporaryDirectory("cameraroll-passwd")
    var data: String { directory.file("data") }

    @Test func aPasswordFromStandardInputIsStoredHashed() async throws {
        let set = try await Executable.run(["--data", data, "passwd"], input: "a long enough password\n")
        #expect(set.status == 0, "\(set.stderr)")
        let stored = try String(contentsOfFile: directory.file("data/users.json"), encoding: .utf8)
        #expect(stored.contains("scrypt") && !stored.contains("a long enough password"))
        let short = try await Executable.run(["--data", data, "passwd"], input: "short\n")
        #expect(short.status == 1 && short.stderr.contains("at least 8 characters"))
        let none = try await Executable.run(["--data", data, "passwd"], input: "")
        #expect(none.status == 1)
        #expect(try String(contentsOfFile: directory.file("data/users.json"), encoding: .utf8) == stored, "refusals change nothing")
    }

    /// A library whose owner password an earlier version set: its owner is the first admin, and
    /// `users passwd` changes that password.
    @Test func theOwnerOfAnEarlierLibraryIsItsFirstAdmin() async throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        // As `cameraroll passwd` wrote it before there were people.
        try Data(#"{"algorithm":"scrypt","n":32768,"r":8,"p":1,"salt":"00112233445566778899aabbccddeeff","hash":"ab"}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("data/owner.json")))
        let listed = try await Executable.run(["--data", data, "users", "list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let people = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]])
        #expect(people.count == 1 && people.first?["name"] as? String == "owner" && people.first?["admin"] as? Bool == true)
        #expect(people.first?["passwordSet"] as? Bool == true && !listed.stdout.contains("salt"))

        let unknown = try await Executable.run(["--data", data, "users", "passwd", "anna"], input: "a long enough password\n")
        #expect(unknown.status == 1 && unknown.stderr.contains("anna"))
        let set = try await Executable.run(["--data", data, "users", "passwd", "owner"], input: "a long enough password\n")
        #expect(set.status == 0, "\(set.stderr)")
        let stored = try String(contentsOfFile: directory.file("data/users.json"), encoding: .utf8)
        #expect(stored.contains("scrypt") && !stored.contains("00112233445566778899aabbccddeeff"), "the new password's salt")
        let table = try await Executable.run(["--data", data, "users", "list"])
        #expect(table.stdout.contains("owner") && table.stdout.contains("yes"))
    }

    @Test func peopleAreAddedFromTheCommandLine() async throws {
        #expect(try await Executable.run(["--data", data, "passwd"], input: "the owner's password\n").status == 0)
        let added = try await Executable.run(["--data", data, "users", "add", "Anna"], input: "anna's password\n")
        #expect(added.status == 0 && added.stdout.contains("Anna can sign in"), "\(added.stderr)")
        let twice = try await Executable.run(["--data", data, "users", "add", "anna", "--admin"], input: "anna's password\n")
        #expect(twice.status == 1 && twice.stderr.contains("already"))
        let listed = try await Executable.run(["--data", data, "users", "list", "--json"])
        let people = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]])
        #expect(people.map { $0["name"] as? String } == ["owner", "Anna"])
        #expect(people.map { $0["admin"] as? Bool } == [true, false])
        #expect(people.map { $0["id"] as? Int } == [1, 2])

        // Each imports into and lists their own library.
        let photo = Corpus.path("photos/exifsamples__Canon_40D.jpg")
        #expect(try await Executable.run(["--data", data, "import", "--user", "anna", photo]).status == 0)
        let hers = try await Executable.run(["--data", data, "list", "--json", "--user", "Anna"])
        #expect((try JSONSerialization.jsonObject(with: hers.output) as? [Any])?.count == 1, "\(hers.stderr)")
        let mine = try await Executable.run(["--data", data, "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: mine.output) as? [Any])?.count == 0)
        let nobody = try await Executable.run(["--data", data, "list", "--user", "ben"])
        #expect(nobody.status == 2 && nobody.stderr.contains("ben"))

        // A quota as people write it; a size that does not read changes nothing.
        #expect(try await Executable.run(["--data", data, "users", "quota", "anna", "1.5GB"]).status == 0)
        let badQuota = try await Executable.run(["--data", data, "users", "quota", "anna", "lots"])
        #expect(badQuota.status == 1 && badQuota.stderr.contains("20GB"))
        let quotas = try await Executable.run(["--data", data, "users", "list", "--json"])
        #expect(
            (try JSONSerialization.jsonObject(with: quotas.output) as? [[String: Any]])?.map { $0["quota"] as? Int } == [
                nil, 1_500_000_000,
            ])
        #expect(try await Executable.run(["--data", data, "users", "list"]).stdout.contains("1.5 GB"))

        // Removed, her photo waits in the owner's Recently Deleted; she is not in the list.
        let toNobody = try await Executable.run(["--data", data, "users", "remove", "anna", "--to", "ben"])
        #expect(toNobody.status == 1 && toNobody.stderr.contains("ben"))
        let toHerself = try await Executable.run(["--data", data, "users", "remove", "anna", "--to", "Anna"])
        #expect(toHerself.status == 1 && toHerself.stderr.contains("admin"))
        let unnamed = try await Executable.run(["--data", data, "users", "remove", "anna"])
        #expect(unnamed.status == 2 && unnamed.stderr.contains("--to"))
        let removed = try await Executable.run(["--data", data, "users", "remove", "anna", "--to", "owner", "--json"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let outcome = try #require(try JSONSerialization.jsonObject(with: removed.output) as? [String: Any])
        #expect((outcome["library"] as? [String: Int]) == ["moved": 1, "merged": 0, "albums": 0])
        let left = try await Executable.run(["--data", data, "users", "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: left.output) as? [[String: Any]])?.map { $0["name"] as? String } == ["owner"])
        let herID = try #require((try JSONSerialization.jsonObject(with: hers.output) as? [[String: Any]])?.first?["id"] as? String)
        #expect(
            (try JSONSerialization.jsonObject(with: try await Executable.run(["--data", data, "list", "--json"]).output) as? [Any])?.count
                == 0)
        #expect(try await Executable.run(["--data", data, "restore", herID]).status == 0)
        let restored = try await Executable.run(["--data", data, "list", "--json"])
        #expect((try JSONSerialization.jsonObject(with: restored.output) as? [[String: Any]])?.first?["id"] as? String == herID)
        let lastAdmin = try await Executable.run(["--data", data, "users", "remove", "owner", "--to", "owner"])
        #expect(lastAdmin.status == 1)
    }

    @Test func servingBeyondThisComputerNeedsAPassword() async throws {
        let refused = try await Executable.run(["--data", data, "serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 2 && refused.stderr.contains("cameraroll passwd"))
    }
}

/// `cameraroll apps`: the sites allowed to open the picker, as the settings page keeps them.
@Suite struct AppsCommandTests {
    let directory = TemporaryDirectory("cameraroll-apps")
    var data: String { directory.file("data") }

    struct App: Decodable, Equatable {
        let id: String
        let origin: String
        let name: String
        let linkLifetime: Int
    }

    func list() async throws -> [App] {
        let listed = try await Executable.run(["--data", data, "apps", "list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        return try JSONDecoder().decode([App].self, from: Data(listed.stdout.utf8))
    }

    @Test func appsAreAddedListedAndRemoved() async throws {
        #expect(try await Executable.run(["--data", data, "apps", "list"]).stdout.contains("No site may use the picker yet"))
        let added = try await Executable.run([
            "--data", data, "apps", "add", "HTTPS://Blog.Example/", "--name", "My blog", "--link-lifetime", "2h",
        ])
        #expect(
            added.status == 0 && added.stdout.contains("My blog (https://blog.example) may use the picker")
                && added.stdout.contains("2 hours"))
        _ = try await Executable.run(["--data", data, "apps", "add", "http://127.0.0.1:9090"])
        let apps = try await list()
        #expect(apps.map(\.origin) == ["https://blog.example", "http://127.0.0.1:9090"])
        #expect(apps.map(\.name) == ["My blog", "127.0.0.1:9090"] && apps.map(\.linkLifetime) == [7200, 3600])
        let table = try await Executable.run(["--data", data, "apps", "list"]).stdout
        #expect(table.contains("ORIGIN") && table.contains("https://blog.example") && table.contains("1 hour"))
        let removed = try await Executable.run(["--data", data, "apps", "remove", apps[0].id])
        #expect(removed.status == 0 && removed.stdout.contains("My blog (https://blog.example) may no longer use the picker"))
        #expect(try await Executable.run(["--data", data, "apps", "remove", "http://127.0.0.1:9090"]).status == 0)
        let missing = try await Executable.run(["--data", data, "apps", "remove", "http://127.0.0.1:9090"])
        #expect(missing.status == 1 && missing.stderr.contains("no allowed app"))
        #expect(try await list().isEmpty)
    }

    @Test(arguments: [
        (["apps", "add", "blog.example"], Int32(1), "An origin is http:// or https://"),
        (["apps", "add", "https://blog.example/path"], 1, "An origin is http:// or https://"),
        (["apps", "add", "https://blog.example", "--link-lifetime", "forever"], 2, "--link-lifetime is a number"),
        (["apps", "add", "https://blog.example", "--link-lifetime", "31d"], 2, "--link-lifetime is a number"),
        (["apps", "add", "https://blog.example", "--name", ""], 1, "An app's name is 1 to 100 characters"),
        (["apps", "add"], 2, "apps add takes one origin"),
        (["apps", "frobnicate"], 2, "apps add, apps list or apps remove"),
        (["apps", "list", "--name", "x"], 2, "Unknown option --name"),
    ])
    func mistakesAreRefusedAndChangeNothing(_ words: [String], _ status: Int32, _ message: String) async throws {
        let refused = try await Executable.run(["--data", data] + words)
        #expect(refused.status == status && refused.stderr.contains(message), "\(refused.stderr)")
        #expect(try await list().isEmpty)
    }
}
