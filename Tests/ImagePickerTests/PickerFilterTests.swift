import Foundation
import ImagePicker
import Testing

/// PHPickerFilter as JSON: kinds combined with any, all and not, read strictly and bounded.
@Suite struct PickerFilterTests {
    func decode(_ json: String) throws -> PickerFilter {
        try JSONDecoder().decode(PickerFilter.self, from: Data(json.utf8))
    }

    @Test func combinationsReadAsWrittenAndAdmitAsPHPickerFilter() throws {
        let filter = try decode(#"{"any": ["livePhotos", {"all": ["videos", {"not": "slomoVideos"}]}]}"#)
        #expect(filter == .any([.kind(.livePhotos), .all([.kind(.videos), .not(.kind(.slomoVideos))])]))
        let kinds = { (names: Set<PickerFilter.Kind>) in filter.admits { names.contains($0) } }
        #expect(kinds([.images, .livePhotos]), "a Live Photo")
        #expect(kinds([.videos]), "a video at its own speed")
        #expect(!kinds([.videos, .slomoVideos]), "not a slow-motion one")
        #expect(!kinds([.images, .screenshots]))
        let again = try JSONDecoder().decode(PickerFilter.self, from: try JSONEncoder().encode(filter))
        #expect(again == filter, "written back as read")
        #expect(try decode(#""screenshots""#) == .kind(.screenshots))
    }

    @Test(arguments: [
        #""panoramas""#, #"{}"#, #"{"any": []}"#, #"{"any": ["images"], "not": "videos"}"#, #"{"nor": ["images"]}"#, "3",
        #"{"not": ["images"]}"#,
    ])
    func whatIsNoFilterIsRefused(json: String) {
        #expect(throws: DecodingError.self) { try decode(json) }
    }

    @Test func deepOrWideFiltersAreRefused() throws {
        var deep = #""images""#
        for _ in 0..<PickerFilter.maxDepth { deep = #"{"not": \#(deep)}"# }
        #expect(throws: DecodingError.self) { try decode(deep) }
        let wide = #"{"any": [\#(Array(repeating: #""videos""#, count: PickerFilter.maxNodes).joined(separator: ","))]}"#
        #expect(throws: DecodingError.self) { try decode(wide) }
        let fits = #"{"any": [\#(Array(repeating: #""videos""#, count: PickerFilter.maxNodes - 1).joined(separator: ","))]}"#
        #expect(try decode(fits).admits { $0 == .videos })
    }

    @Test func aConfigurationCarriesItsFilterAndTheCameraTakesNone() throws {
        let configuration = try JSONDecoder().decode(
            PickerConfiguration.self, from: Data(#"{"mediaTypes": ["public.image"], "filter": {"not": "screenshots"}}"#.utf8))
        #expect(configuration.filter == .not(.kind(.screenshots)))
        try configuration.validate()
        var camera = configuration
        camera.sourceType = .camera
        #expect(throws: PickerError.self) { try camera.validate() }
        let written = try JSONDecoder().decode(PickerConfiguration.self, from: try JSONEncoder().encode(configuration))
        #expect(written == configuration)
    }
}
