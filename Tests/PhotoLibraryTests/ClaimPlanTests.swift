import PhotoLibrary
import Storage
import TestSupport
import Testing

/// The question asked before each removal of a blob (`Library.namesOfBlob`) is a lookup in an
/// index of each table it reads, on both engines with their statistics on, in a library whose
/// every item has a finished rendition: a scan of the renditions ran on each permanent delete.
@Suite(.serialized) struct ClaimPlanTests {
    @Test(arguments: Engine.withLocalBlobs) func whatNamesABlobIsLookedUpInIndexes(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let source = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        try await library.catalog.cloneRows(of: source.id, count: 20_000)
        _ = try await library.database.write { connection throws(StorageError) in
            try connection.run(
                """
                INSERT INTO rendition_jobs (blob_hash, derivative, state, output_hash, queued_at)
                SELECT blob_hash, 'movie', 'done', substr(blob_hash, 2) || 'f', 0 FROM assets
                """)
        }
        try await library.catalog.analyze()
        let lines = try await queryPlan(library, Library.namesOfBlob, [source.blobHash, source.blobHash, source.blobHash])
        #expect(wholeTableScans(lines, of: ["assets", "rendition_jobs"]).isEmpty, "\(engine): \(lines)")
        #expect(lines.contains { $0.contains("rendition_jobs_by_output") }, "\(engine): \(lines)")
    }
}
