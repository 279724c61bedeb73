import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// `cameraroll migrate`: a library copied from the data folder into PostgreSQL and S3 and back
/// is the same library, a cut-short copy continues, and an original that is not its bytes stops it.
@Suite struct LibraryCopyTests {
    @Test func aLibraryGoesToTheClusterAndBackTheSame() async throws {
        let embedded = try LibraryFixture()
        var ids = [try await embedded.importCorpus("photos/exifsamples__Canon_40D.jpg", saveToCameraRoll: true).asset.id]
        ids.append(try await embedded.importCorpus("videos/androidx-media__sample.mp4").asset.id)
        let trashed = try await embedded.importCorpus("photos/exifsamples__Nikon_D70.jpg").asset
        ids.append(try await embedded.library.catalog.trash(trashed.id, owner: .first).id)
        ids.append(try await embedded.importCorpus("photos/exifsamples__DSCN0010.jpg", source: .camera).asset.id)

        let cluster = try await LibraryFixture(.postgreSQLAndS3)
        var reports: [CopyReport] = []
        reports.append(try await embedded.library.ingest.copyEverything(into: cluster.library))
        #expect(reports[0].assetsCopied == 4 && reports[0].assetsAlreadyThere == 0)
        let again = try await embedded.library.ingest.copyEverything(into: cluster.library)
        #expect(again.assetsCopied == 0 && again.assetsAlreadyThere == 4, "a second run finds everything there")

        let back = try LibraryFixture()
        #expect(try await cluster.library.ingest.copyEverything(into: back.library).assetsCopied == 4)
        for copy in [cluster.library, back.library] {
            // Every column the same: trashed, unsaved capture, Camera Roll, sizes, dates.
            for id in ids { #expect(try await copy.catalog.asset(id, owner: .first) == embedded.library.catalog.asset(id, owner: .first)) }
            #expect(
                try await copy.catalog.albums(owner: .first).map(\.count) == embedded.library.catalog.albums(owner: .first).map(\.count))
            // Counted again from the rows once the entries are in: the same days, none twice.
            for source in [LibrarySource.photoLibrary, .savedPhotosAlbum] {
                #expect(
                    try await copy.catalog.days(AssetQuery(source: source), owner: .first)
                        == embedded.library.catalog.days(AssetQuery(source: source), owner: .first))
            }
            #expect(try await copy.verify().isEmpty)
        }
        for id in ids {
            let asset = try await embedded.library.catalog.asset(id, owner: .first)
            let original = try Data(contentsOf: URL(fileURLWithPath: try await embedded.library.originalFile(of: asset)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: try await back.library.originalFile(of: asset))) == original)
        }
    }

    @Test func anOriginalThatIsNotItsBytesStopsTheCopy() async throws {
        let embedded = try LibraryFixture()
        let asset = try await embedded.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        let path = try await embedded.library.originalFile(of: asset)
        chmod(path, 0o600)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: path))
        let target = try await LibraryFixture(.postgreSQL)
        do {
            _ = try await embedded.library.ingest.copyEverything(into: target.library)
            Issue.record("a damaged original was copied")
        } catch {
            #expect(error.code == .corrupt)
        }
        #expect(try await target.library.catalog.count(.photoLibrary, owner: .first) == 0)
        #expect(target.workFiles.isEmpty)
    }
}
