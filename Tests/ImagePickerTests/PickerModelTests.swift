import Foundation
import ImagePicker
import Testing

@Suite struct PickerModelTests {
    let photo = PickerInfo(mediaType: .image, assetID: "a1", originalImage: "/media/a1/original")
    let edited = PickerInfo(
        mediaType: .image, assetID: "a1", originalImage: "/media/a1/original", editedImage: "/media/a1/edited",
        cropRect: CropRect(x: 0, y: 0, width: 10, height: 10))
    let movie = PickerInfo(mediaType: .movie, assetID: "m1", mediaURL: "/media/m1/video")

    @Test func libraryPickWithoutEditingFinishesAtOnce() throws {
        var session = try PickerSession(configuration: PickerConfiguration(sourceType: .photoLibrary))
        #expect(try session.handle(.open) == [.showLibrary])
        #expect(try session.handle(.chose(photo)) == [.deliver([photo])])
        #expect(session.state == .finished([photo]))
    }

    @Test func aMultipleSelectionIsAddedInTheUsersOrderWithoutEditing() throws {
        var configuration = PickerConfiguration(sourceType: .photoLibrary, mediaTypes: [.image, .movie], allowsEditing: true)
        configuration.selectionLimit = 2
        var session = try PickerSession(configuration: configuration)
        _ = try session.handle(.open)
        let other = PickerInfo(mediaType: .image, assetID: "a2", originalImage: "/media/a2/original")
        #expect(throws: PickerError.self, "more than the limit") { try session.handle(.added([photo, movie, other])) }
        #expect(throws: PickerError.self, "none") { try session.handle(.added([])) }
        #expect(throws: PickerError.self, "twice") { try session.handle(.added([photo, photo])) }
        #expect(session.state == .picking, "a refused Add changes nothing")
        #expect(try session.handle(.added([movie, photo])) == [.deliver([movie, photo])])
        #expect(session.state == .finished([movie, photo]))

        var single = try PickerSession(configuration: configuration)
        _ = try single.handle(.open)
        #expect(
            try single.handle(.chose(photo)) == [.showEditor(assetID: "a1", mediaType: .image)], "one item chosen (a capture) is edited")
    }

    @Test func cameraWithEditingGoesThroughTheEditor() throws {
        var configuration = PickerConfiguration(sourceType: .camera, mediaTypes: [.image, .movie], allowsEditing: true)
        configuration.cameraCaptureMode = .video
        var session = try PickerSession(configuration: configuration)
        #expect(try session.handle(.open) == [.showCamera])
        #expect(try session.handle(.chose(movie)) == [.showEditor(assetID: "m1", mediaType: .movie)])
        #expect(try session.handle(.back) == [.showCamera])
        _ = try session.handle(.chose(photo))
        #expect(try session.handle(.edited(edited)) == [.deliver([edited])])
    }

    @Test func everyOtherTransitionIsRefused() throws {
        var session = try PickerSession(
            configuration: PickerConfiguration(sourceType: .savedPhotosAlbum, mediaTypes: [.image], allowsEditing: true))
        #expect(throws: PickerError.self) { try session.handle(.chose(photo)) }
        _ = try session.handle(.open)
        #expect(throws: PickerError.self) { try session.handle(.open) }
        #expect(throws: PickerError.self) { try session.handle(.edited(edited)) }
        #expect(throws: PickerError.self) { try session.handle(.chose(movie)) }
        _ = try session.handle(.chose(photo))
        let other = PickerInfo(
            mediaType: .image, assetID: "zz", originalImage: "/x", editedImage: "/y", cropRect: CropRect(x: 0, y: 0, width: 1, height: 1))
        #expect(throws: PickerError.self) { try session.handle(.edited(other)) }
        #expect(try session.handle(.cancel) == [.deliverCancel])
        #expect(session.state == .cancelled)
        #expect(throws: PickerError.self) { try session.handle(.cancel) }
        #expect(throws: PickerError.self) { try session.handle(.edited(edited)) }
    }

    @Test func inconsistentInfoIsRefused() {
        #expect(throws: PickerError.self) { try PickerInfo(mediaType: .image, assetID: "x").validate() }
        #expect(throws: PickerError.self) { try PickerInfo(mediaType: .movie, assetID: "x", originalImage: "/o").validate() }
        #expect(throws: PickerError.self) {
            try PickerInfo(mediaType: .image, assetID: "x", originalImage: "/o", editedImage: "/e").validate()
        }
    }

    @Test func availabilityFollowsWhatTheClientAndServerReport() throws {
        let noCamera = Availability(libraryMediaTypes: [.photoLibrary: [.image, .movie], .savedPhotosAlbum: []])
        #expect(!noCamera.isSourceTypeAvailable(.camera))
        #expect(noCamera.isSourceTypeAvailable(.photoLibrary))
        #expect(!noCamera.isSourceTypeAvailable(.savedPhotosAlbum))
        #expect(noCamera.availableMediaTypes(for: .photoLibrary) == [.image, .movie])
        #expect(throws: PickerError.sourceUnavailable) { try noCamera.offeredMediaTypes(PickerConfiguration(sourceType: .camera)) }
        let stillsOnly = Availability(cameraMediaTypes: [.image])
        var configuration = PickerConfiguration(sourceType: .camera, mediaTypes: [.image, .movie])
        #expect(try stillsOnly.offeredMediaTypes(configuration) == [.image])
        configuration.mediaTypes = [.movie]
        configuration.cameraCaptureMode = .video
        #expect(throws: PickerError.sourceUnavailable) { try stillsOnly.offeredMediaTypes(configuration) }
    }

    @Test func configurationsDecodeWithTheBooksDefaultsAndAreValidated() throws {
        let decoded = try JSONDecoder().decode(PickerConfiguration.self, from: Data(#"{"sourceType":"camera"}"#.utf8))
        #expect(decoded.sourceType == .camera && decoded.mediaTypes == [.image] && !decoded.allowsEditing)
        #expect(decoded.videoMaximumDuration == 600 && decoded.selectionLimit == 1 && decoded.cameraDevice == .rear)
        for bad in [
            #"{"mediaTypes":[]}"#, #"{"videoMaximumDuration":-1}"#, #"{"selectionLimit":0}"#,
            #"{"sourceType":"camera","cameraCaptureMode":"video"}"#, #"{"preselectedAssetIdentifiers":["a","b"]}"#,
            #"{"selectionLimit":3,"preselectedAssetIdentifiers":["a","a"]}"#,
        ] {
            let configuration = try JSONDecoder().decode(PickerConfiguration.self, from: Data(bad.utf8))
            #expect(throws: PickerError.self, "\(bad)") { try configuration.validate() }
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(PickerConfiguration.self, from: Data(#"{"sourceType":"scanner"}"#.utf8))
        }
        #expect(SourceType.allCases.map(\.title) == ["Camera", "Photos", "Camera Roll"])
    }

    /// UIKit spells Live Photos as a media type; the configuration keeps it as a switch on images,
    /// and gives it back in the same spelling, so that a stored session reads as it was.
    @Test func aLivePhotoIsAMediaTypeInJSONAndASwitchHere() throws {
        let json = Data(#"{"mediaTypes":["public.image","com.apple.live-photo"]}"#.utf8)
        let decoded = try JSONDecoder().decode(PickerConfiguration.self, from: json)
        #expect(decoded.livePhotos && decoded.mediaTypes == [.image])
        try decoded.validate()
        let again = try JSONDecoder().decode(PickerConfiguration.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded)
        #expect(try !JSONDecoder().decode(PickerConfiguration.self, from: Data(#"{"mediaTypes":["public.image"]}"#.utf8)).livePhotos)
        let alone = try JSONDecoder().decode(PickerConfiguration.self, from: Data(#"{"mediaTypes":["com.apple.live-photo"]}"#.utf8))
        #expect(throws: PickerError.self) { try alone.validate() }
        for bad in [#"{"mediaTypes":["public.image","com.apple.live-photo","com.apple.live-photo"]}"#, #"{"mediaTypes":["public.gif"]}"#] {
            #expect(throws: (any Error).self, "\(bad)") { try JSONDecoder().decode(PickerConfiguration.self, from: Data(bad.utf8)) }
        }
    }
}
