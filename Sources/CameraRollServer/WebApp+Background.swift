import HTTPServer
import PhotoLibrary

/// What the library works on in the background, for Settings: each task with how far it has
/// come ("Finding places: 1,234 of 20,000"); none when it is idle. The counts are the whole
/// library's (work is done for everyone's items at once), never an item of anyone's.
extension WebApp {
    func addBackgroundRoutes(to router: inout Router) {
        router.get("/api/background") { request in
            _ = try owner(request)
            return .json(
                BackgroundJSON(work: [library.geocoder.work, library.wordReader.work].compactMap { $0 }.map(BackgroundJSON.Work.init)))
        }
    }
}

struct BackgroundJSON: Encodable {
    struct Work: Encodable {
        var title: String
        var done: Int
        var total: Int

        init(_ work: BackgroundWork) { (title, done, total) = (work.title, work.done, work.total) }
    }

    var work: [Work]
}
