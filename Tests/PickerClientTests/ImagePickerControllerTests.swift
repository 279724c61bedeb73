import CameraRollServer
import Foundation
import HTTPServer
import ImagePicker
import PhotoLibrary
import PickerClient
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift client against the web app on a real loopback port: a program presents a picker,
/// the page's steps are played as the events the page sends, and the client hands back the
/// info with every link absolute, Live Photos' included, by `await` and to its delegate alike.
@Suite struct ImagePickerControllerTests {
    /// How a pick ends: one item, several (`selectionLimit: 2`), or a cancel.
    enum Ending: String, CaseIterable, Sendable {
        case single, several, cancel
    }

    @Test(arguments: Ending.allCases)
    func theResultsLinksAreAbsoluteAndTheDelegateHearsThem(ending: Ending) async throws {
        let directory = TemporaryDirectory("cameraroll-client")
        let library = try Library(folder: DataFolder(directory.path))
        let movie = try await library.ingest.importFile(at: Corpus.path("videos/lychee__train.mov"), source: .imported, owner: .first).asset
            .id
        let still = try await library.ingest.importFile(at: Corpus.path("photos/lychee__train.jpg"), source: .imported, owner: .first).asset
            .id
        let photo = try await library.ingest.importFile(
            at: Corpus.path("photos/exifsamples__Canon_40D.jpg"), source: .imported, owner: .first
        ).asset.id
        var settings = Configuration(bodyDirectory: library.temporaryFolder)
        settings.port = 0
        let server = Server(configuration: settings, router: try WebApp(library: library).router)
        try server.start()
        defer { Task.detached { await server.stop() } }
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))

        let picker = ImagePickerController(server: base)
        picker.configuration.mediaTypes = [.image]
        picker.configuration.livePhotos = true
        if ending == .several { picker.configuration.selectionLimit = 2 }
        let delegate = Delegate()
        picker.delegate = delegate
        let presentation = try await picker.present()
        #expect(presentation.pageURL.absoluteString == "\(base.absoluteString)/picker/\(presentation.sessionID)")

        let events: [[String: Any]] =
            switch ending {
            case .single: [["event": "open"], ["event": "choose", "assetID": still]]
            case .several: [["event": "open"], ["event": "add", "assetIDs": [photo, still]]]
            case .cancel: [["event": "open"], ["event": "cancel"]]
            }
        for event in events {
            var request = URLRequest(url: base.appendingPathComponent("api/picker/sessions/\(presentation.sessionID)/events"))
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: event)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(event)")
        }

        let results = try await picker.results()
        guard ending != .cancel else {
            #expect(results == nil)
            #expect(delegate.heard == ["cancel"])
            return
        }
        let picked = try #require(results)
        #expect(picked.map(\.assetID) == (ending == .several ? [photo, still] : [still]), "in the user's order")
        let live = try #require(picked.last?.livePhoto)
        let origin = base.absoluteString
        #expect(live.imageURL.hasPrefix("\(origin)/media/\(still)/"), "\(live.imageURL)")
        #expect(live.movieURL.hasPrefix("\(origin)/media/\(movie)/compatible?cap="), "\(live.movieURL)")
        #expect(picked.allSatisfy { $0.originalImage?.hasPrefix("\(origin)/media/\($0.assetID)/") == true })
        let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: live.movieURL)))
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "the movie's link opens as it is")

        // The book's delegate hears the first item; PHPicker's, every item in order.
        #expect(delegate.heard == ["info \(picked[0].assetID)", "results \(picked.map(\.assetID).joined(separator: ","))"])
        #expect(delegate.results == picked, "the delegate hears what await returns")
    }

    /// Records what an `ImagePickerControllerDelegate` hears, in order.
    final class Delegate: ImagePickerControllerDelegate {
        var heard: [String] = []
        var results: [PickerInfo] = []

        func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: PickerInfo) {
            heard.append("info \(info.assetID)")
        }

        func imagePickerController(_ picker: ImagePickerController, didFinishPicking results: [PickerInfo]) {
            heard.append("results \(results.map(\.assetID).joined(separator: ","))")
            self.results = results
        }

        func imagePickerControllerDidCancel(_ picker: ImagePickerController) {
            heard.append("cancel")
        }
    }
}
