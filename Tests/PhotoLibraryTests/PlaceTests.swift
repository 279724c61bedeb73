import Foundation
import Places
import Storage
import TestSupport
import Testing

@testable import PhotoLibrary

/// Where photos were taken, in words: found at import from the photo's own position, found in
/// the background for what a library held before, and searched for in English and in the
/// names people type; on both engines.
@Suite struct PlaceTests {
    static let arezzo = Place(name: "Arezzo", region: "Tuscany", country: "Italy", countryCode: "IT")

    @Test(arguments: Engine.withLocalBlobs) func aPhotoIsNamedByItsPlaceAtImportAndFoundByIt(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let italy = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset
        let tokyo = try await fixture.importCorpus("photos/androidx-media__tokyo.jpg").asset
        let nowhere = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        #expect(italy.place == Self.arezzo)
        #expect(tokyo.place?.country == "Japan" && tokyo.place?.region == "Tokyo")
        #expect(nowhere.place == nil && nowhere.exif.latitude == nil)
        // As the row keeps it.
        #expect(try await library.catalog.asset(italy.id, owner: .first).place == Self.arezzo)

        #expect(try await library.ids(searching: "arezzo") == [italy.id])
        #expect(try await library.ids(searching: "TUSCANY") == [italy.id])
        #expect(try await library.ids(searching: "Italy") == [italy.id])
        #expect(try await library.ids(searching: "italia") == [italy.id], "the country's Italian name")
        #expect(try await library.ids(searching: "Italien") == [italy.id], "and its German one")
        #expect(try await library.ids(searching: "日本") == [tokyo.id])
        #expect(try await library.ids(searching: "japan") == [tokyo.id])
        #expect(try await library.ids(searching: "Deutschland").isEmpty)
        #expect(try await library.ids(searching: "canon") == [nowhere.id], "names and cameras as before")
    }

    @Test(arguments: Engine.withLocalBlobs) func placesOfWhatALibraryHeldBeforeAreFoundInTheBackground(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let italy = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset
        let nearby = try await fixture.importCorpus("photos/exifsamples__DSCN0021.jpg").asset
        let nowhere = try await fixture.importCorpus("photos/exifsamples__Canon_40D.jpg").asset
        // As a library migrated from before places keeps them.
        _ = try await library.database.write { connection throws(StorageError) in
            try connection.run("UPDATE assets SET place = NULL, place_words = NULL, place_edition = NULL")
        }
        #expect(try await library.catalog.asset(italy.id, owner: .first).place == nil)
        #expect(try await library.ids(searching: "arezzo").isEmpty)
        #expect(library.geocoder.work == nil)

        #expect(try await library.geocoder.findPlaces() == 2, "the two with a position")
        #expect(library.geocoder.work == nil, "no work shown once it ends")
        #expect(try await library.catalog.asset(italy.id, owner: .first).place == Self.arezzo)
        #expect(try await library.catalog.asset(nearby.id, owner: .first).place == Self.arezzo)
        #expect(try await library.catalog.asset(nowhere.id, owner: .first).place == nil)
        #expect(try await library.ids(searching: "arezzo") == [italy.id, nearby.id])
        #expect(try await library.geocoder.findPlaces() == 0, "each is looked up once")
    }

    /// The background's reading finds what awaits its place from that index alone, however large
    /// the library: a library of clones of a photo whose place is known awaits none.
    @Test(arguments: [Engine.sqlite, .postgreSQL]) func whatAwaitsItsPlaceIsReadFromItsIndex(engine: Engine) async throws {
        let fixture = try await LibraryFixture(engine)
        let library = fixture.library
        let source = try await fixture.importCorpus("photos/exifsamples__DSCN0010.jpg").asset.id
        try await library.catalog.cloneRows(of: source, count: 20_000)
        try await library.catalog.analyze()
        for sql in [
            "SELECT id, latitude, longitude FROM assets WHERE \(Geocoder.awaitingPlace) ORDER BY id LIMIT ?",
            "SELECT count(*) AS found FROM assets WHERE \(Geocoder.awaitingPlace)",
        ] {
            let lines = try await queryPlan(library, sql, sql.hasSuffix("?") ? [Geocoder.batch] : [])
            #expect(wholeTableScans(lines, of: ["assets"]).isEmpty, "\(engine): \(lines)")
            #expect(lines.contains { $0.contains("assets_awaiting_place") }, "\(engine): \(lines)")
        }
        #expect(try await library.geocoder.findPlaces() == 0)
        #expect(try await library.ids(searching: "Arezzo").count == AssetQuery().limit)
    }
}
