import Foundation
import Imaging
import PhotoLibrary
import TestSupport
import Testing

/// The API's asset carries what the viewer's info panel shows: the lens, the exposure and the
/// location, each left out when the photo does not state it.
@Suite struct ExifDetailsAPITests {
    /// An asset's fields, which have ExifDetails' names, as a client reads them: JSONDecoder,
    /// since JSONSerialization reads some numbers a last digit off (-0.8955305555555555 as …553),
    /// as browsers' JSON.parse does not.
    static func details(_ body: Data) throws -> ExifDetails { try JSONDecoder().decode(ExifDetails.self, from: body) }

    struct Page: Decodable { var assets: [ExifDetails] }

    @Test func theAssetsJSONCarriesThemAndLeavesOutWhatIsUnknown() async throws {
        let live = try LiveServer()
        let uploaded = try await live.upload("photos/lychee__train.jpg")
        #expect(uploaded.status == 201)
        let id = try #require(uploaded.json["id"] as? String)
        let stored = try await live.library.catalog.asset(id, owner: .first).exif
        #expect(stored.lensModel == "iPhone 6s back camera 4.15mm f/2.2" && stored.iso == 25 && stored.latitude != nil)
        #expect(try Self.details(uploaded.body) == stored)
        #expect(try Self.details(await live.get("/api/assets/\(id)").body) == stored)
        #expect(try JSONDecoder().decode(Page.self, from: await live.get("/api/assets").body).assets == [stored])

        for file in ["photos/libpng__basn6a08.png", "videos/androidx-media__bear-vp9.webm"] {
            let bare = try await live.upload(file).json
            #expect(bare["id"] != nil)
            let fields = ["lensModel", "fNumber", "exposureTime", "iso", "focalLength", "latitude", "longitude"]
            #expect(fields.allSatisfy { bare[$0] == nil }, "\(file): nothing stated, nothing said")
            #expect(bare["place"] == nil)
        }
    }

    /// Where a photo was taken, in words, beside its position; a search for the place finds it;
    /// and Settings reads that nothing waits in the background once the server has looked up
    /// what it holds.
    @Test func theAssetsJSONNamesThePlaceAndSearchFindsIt() async throws {
        let live = try LiveServer()
        let uploaded = try await live.upload("photos/exifsamples__DSCN0010.jpg")
        let id = try #require(uploaded.json["id"] as? String)
        for answer in [uploaded.json, try await live.get("/api/assets/\(id)").json] {
            let place = try #require(answer["place"] as? [String: String])
            #expect(place == ["name": "Arezzo", "region": "Tuscany", "country": "Italy", "countryCode": "IT"])
        }
        for search in ["arezzo", "Italia"] {
            let page = try await live.get("/api/assets?search=\(search)").json
            #expect((page["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id], "\(search)")
        }
        // A movie's position is its container's (an iPhone's ISO 6709 tag), its place named the same way.
        let movie = try await live.upload("videos/lychee__train.mov").json
        #expect(movie["latitude"] as? Double == 52.2097 && movie["longitude"] as? Double == -0.8955 && movie["hasGPS"] as? Bool == true)
        #expect((movie["place"] as? [String: String])?["country"] == "United Kingdom")
        try await live.library.geocoder.findPlaces()
        let background = try await live.get("/api/background")
        #expect(background.status == 200)
        #expect(background.json["work"] as? [Any] != nil && (background.json["work"] as? [Any])?.isEmpty == true)
    }
}
