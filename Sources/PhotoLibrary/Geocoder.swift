import Executors
import Foundation
import Places
import Storage
import Synchronization

/// A position looked up by this edition of the gazetteer: its place, or none near.
struct PlaceLookup: Sendable {
    var place: Place?
}

/// Names where assets were taken: each new asset with a position gets its place at import, and
/// those a library holds from before (or from another edition of the gazetteer) get theirs in
/// the background (`findPlaces`), from their own index. The gazetteer is read once, on this
/// part's lane, when a place is first asked for; a lookup then costs microseconds, so a place is
/// never queued: two servers of a cluster that look up the same asset write the same place once
/// (the write asks that none is there yet).
public final class Geocoder: LibraryPart {
    let stores: LibraryStores
    private let lane = BlockingExecutor(name: "places", threads: 1)
    private let gazetteer = Mutex<Task<Gazetteer?, Never>?>(nil)
    private let finding = BackgroundTally()
    /// How many assets one transaction of `findPlaces` names.
    static let batch = 500

    init(_ stores: LibraryStores) {
        self.stores = stores
    }

    /// The place at a position, as an import keeps it (`PlaceLookup`); nil without a position,
    /// or when the gazetteer cannot be read (said in the log once), for `findPlaces` to try again.
    func lookUp(latitude: Double?, longitude: Double?) async -> PlaceLookup? {
        guard let latitude, let longitude, let gazetteer = await loaded() else { return nil }
        return PlaceLookup(place: gazetteer.place(latitude: latitude, longitude: longitude))
    }

    /// The other words a search for `text` looks for: the English name of the country it names
    /// in another language ("Deutschland": "Germany"), as places are kept.
    package func synonyms(of text: String) async -> [String] {
        guard !text.isEmpty, let english = await loaded()?.country(named: text), Gazetteer.folded(english) != Gazetteer.folded(text) else {
            return []
        }
        return [english]
    }

    /// What `findPlaces` has done so far, while it runs.
    public var work: BackgroundWork? { finding.work }

    /// Finds the place of every asset with a position that no gazetteer of this edition has
    /// looked up, `batch` at a time, until none is left or the task is cancelled; answers how
    /// many it looked up. Nothing is done without a gazetteer.
    @discardableResult
    public func findPlaces() async throws(LibraryError) -> Int {
        // The gazetteer's megabytes are read at a server's start only when something awaits them.
        let waiting = try await assets(where: Self.awaitingPlace)
        guard waiting > 0, let gazetteer = await loaded() else { return 0 }
        finding.begin("Finding places", total: waiting)
        defer { finding.end() }
        var done = 0
        while !Task.isCancelled {
            let positions = try await read { connection throws(StorageError) in
                try connection.query(
                    "SELECT id, latitude, longitude FROM assets WHERE \(Self.awaitingPlace) ORDER BY id LIMIT ?", [Self.batch]
                ).map { row throws(StorageError) in (try row.text("id"), try row.real("latitude"), try row.optionalReal("longitude")) }
            }
            guard !positions.isEmpty else { break }
            let places = positions.map { id, latitude, longitude in
                (id, longitude.flatMap { gazetteer.place(latitude: latitude, longitude: $0) })
            }
            try await write(.cached) { connection throws(StorageError) in
                for (id, place) in places {
                    try connection.run(
                        "UPDATE assets SET place = ?, place_words = ?, place_edition = ? WHERE id = ? AND place_edition IS NULL",
                        Self.columns(of: place) + [id])
                }
            }
            done += positions.count
            finding.advance(by: positions.count)
        }
        return done
    }

    /// The condition of `assets_awaiting_place` (migration 0023), which its rows are read by.
    static let awaitingPlace = "latitude IS NOT NULL AND place_edition IS NULL"

    /// The values of `place`, `place_words` and `place_edition` for a place looked up now.
    static func columns(of place: Place?) -> [any SQLBindable] {
        let json = place.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        return [json, place?.words, Gazetteer.edition]
    }

    /// The gazetteer, read on this part's lane by the first who asks.
    private func loaded() async -> Gazetteer? {
        let task = gazetteer.withLock { task in
            if let task { return task }
            let reading = Task { [lane, options] in
                await lane.run { () -> Gazetteer? in
                    do {
                        return try Gazetteer.bundled()
                    } catch {
                        options.log("places: \(error)")
                        return nil
                    }
                }
            }
            task = reading
            return reading
        }
        return await task.value
    }
}
