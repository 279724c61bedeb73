import Foundation
import PhotoLibrary
import Places
import PostgreSQL
import Storage

/// The lifetime library's figures: a library of `size` items (one real import of `files[0]`,
/// the rest its row cloned in SQL, `Library.cloneRows`), with an album of 10,000 (a tenth of a
/// smaller library) and the planner's statistics on; then each view's first page, a deep page,
/// the timeline's days, a month jump, searches and suggestions, the median of five reads of
/// each through the library's API (milliseconds), and the import of `files[1...]` into it
/// (seconds per file). The clones are at the first file's place but for two trips (2% each)
/// and have words read in one in 1,000, so that searches find most, a few, or almost none.
/// On PostgreSQL when `database` names one, else on SQLite in a data folder of its own.
func measureListings(size: Int, files: [String], database url: String?) async throws -> [String: Any] {
    // CAMERAROLL_BENCH_KEEP names a folder to make the library in and leave, for a look after.
    let kept = ProcessInfo.processInfo.environment["CAMERAROLL_BENCH_KEEP"]
    let folder = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-bench-\(UUID().uuidString)").path
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: folder) } }
    let data = DataFolder(folder)
    let library: Library
    if let url {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        library = try Library(
            folder: data, database: try await PostgresDatabase(url: url, migrations: LibrarySchema.postgreSQL),
            blobs: try FileBlobStore(root: data.blobs), partialUploads: try FilePartialUploads(root: data.uploads))
    } else {
        library = try Library(folder: data)
    }
    let source = try await library.ingest.importFile(at: files[0], owner: .first).asset.id
    let variety = CloneVariety(
        trips: [
            Place(name: "Rome", region: "Lazio", country: "Italy", countryCode: "IT"),
            Place(name: "Kyoto", region: "Kyoto", country: "Japan", countryCode: "JP"),
        ], pictureWords: "TOTAL 12.50 receipt")
    let filling = try await seconds {
        try await library.catalog.cloneRows(of: source, count: size - 1, variety: variety) { done in
            FileHandle.standardError.write(Data("\rrows: \(done + 1) of \(size)".utf8))
        }
        FileHandle.standardError.write(Data("\n".utf8))
    }
    let album = try await library.catalog.createAlbum(title: "Ten thousand", owner: .first).id
    try await library.catalog.fillAlbum(album, count: min(10_000, size / 10))
    try await library.catalog.analyze()

    func page(_ collection: AssetCollection, _ change: (inout AssetQuery) -> Void = { _ in }) -> AssetQuery {
        var query = AssetQuery(limit: 60)
        query.collection = collection
        change(&query)
        return query
    }
    // The cursor half a million items down (half the library in a smaller one).
    var deep = page(.library)
    var walked = 0
    while walked < min(500_000, size / 2) {
        var step = deep
        step.limit = AssetQuery.maxLimit
        guard let next = try await library.catalog.assets(step, owner: .first).nextCursor else { break }
        deep.cursor = next
        walked += AssetQuery.maxLimit
    }
    let views: [(String, AssetQuery)] = [
        ("first page", page(.library)), ("deep page", deep), ("month jump", page(.library) { $0.startingAt = "2015-06" }),
        ("favourites", page(.favorites)), ("recently added", page(.recentlyAdded)), ("recently deleted", page(.recentlyDeleted)),
        ("album", page(.album(album))), ("search (a miss)", page(.library) { $0.search = "no such name" }),
        ("search (a name)", page(.library) { $0.search = "IMG_4711." }),
        ("search (home, most items)", page(.library) { $0.search = "Denmark" }),
        ("search (a trip, 2%)", page(.library) { $0.search = "Kyoto" }),
        ("search (a country's other name, 2%)", page(.library) { $0.search = "Italia" }),
        ("search (words in photos, 0.1%)", page(.library) { $0.search = "receipt" }),
    ]
    // The median of five reads, after one that warms the caches.
    func milliseconds(_ read: () async throws -> Void) async throws -> Double {
        try await read()
        var times: [Double] = []
        for _ in 0..<5 { times.append(try await seconds(read) * 1000) }
        return median(times)
    }
    var figures: [String: Double] = [:]
    for (name, query) in views {
        figures[name] = try await milliseconds { _ = try await library.catalog.assets(query, owner: .first) }
    }
    let timelines = [
        ("timeline", page(.library)), ("album timeline", page(.album(album))),
        ("search timeline (a trip, 2%)", page(.library) { $0.search = "Kyoto" }),
        ("search timeline (home, most items)", page(.library) { $0.search = "Denmark" }),
    ]
    for (name, query) in timelines {
        figures[name] = try await milliseconds { _ = try await library.catalog.days(query, owner: .first) }
    }
    for (name, typed) in [("suggestions (a country)", "den"), ("suggestions (a year)", "2015")] {
        figures[name] = try await milliseconds { _ = try await library.catalog.suggestions(for: typed, owner: .first) }
    }
    var imports: [Double] = []
    for file in files.dropFirst() {
        imports.append(try await seconds { _ = try await library.ingest.importFile(at: file, owner: .first) })
    }
    try await library.flush()
    return [
        "size": size, "engine": url == nil ? "sqlite" : "postgresql", "fillSeconds": filling, "milliseconds": figures,
        "importSeconds": imports.isEmpty ? 0 : median(imports),
    ]
}
