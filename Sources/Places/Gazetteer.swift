import Foundation

/// The places of the world a photo's position is named by, all on this machine: GeoNames'
/// towns and cities of 1,000 people or more (CC BY 4.0), and every country's names in the
/// languages Debian's iso-codes is translated into, as the install step writes them
/// (`scripts/places.py`). Nothing here asks the network.
///
/// The places are kept as the file's own bytes, with each place's position and where its line
/// begins: 155,000 places cost about 9 MB, and a name is decoded only when it is the answer. A
/// grid of one-degree cells (each place's position in the list of its cell's places, in cell
/// order) finds the nearest place from the few cells within `reach`: a few hundred distances,
/// not a scan.
public struct Gazetteer: Sendable {
    /// Which gazetteer named a library's places, kept with each asset it looked up: a library
    /// looks its assets up again when a later edition changes what it answers.
    public static let edition = 1
    /// How far the nearest place may be, in metres: a photo farther from any town than this
    /// (at sea, deep in a desert) has no place.
    public static let reach = 100_000.0

    private static let metresPerDegree = 111_195.0
    private static let rows = 180, columns = 360

    private let table: [UInt8]
    /// By place, in cell order: where its line begins, its position.
    private let lines: [Int32]
    private let latitudes: [Float]
    private let longitudes: [Float]
    /// Where each cell's places begin in the lists above; the last entry is their count.
    private let cellStarts: [Int32]
    /// English names by ISO 3166-1 code.
    private let countries: [String: String]
    /// Every name of a country, folded (`folded`), to its English name.
    private let countryNames: [String: String]

    /// The gazetteer the program was built with (the `Data` the install step wrote).
    public static func bundled() throws(PlacesError) -> Gazetteer {
        guard let folder = Bundle.module.url(forResource: "Data", withExtension: nil),
            let places = FileManager.default.contents(atPath: folder.appendingPathComponent("places.tsv").path),
            let countries = FileManager.default.contents(atPath: folder.appendingPathComponent("countries.tsv").path)
        else {
            throw PlacesError(.missing, "The gazetteer is not installed: run make, whose install step writes it.")
        }
        return try Gazetteer(places: Array(places), countries: Array(countries))
    }

    /// The gazetteer of these files' bytes: `places`' lines are latitude, longitude, name, region,
    /// country code; `countries`' are code, English name, then its other names; fields are
    /// separated by tabs. Any line otherwise is `damaged`, with its number.
    public init(places: [UInt8], countries countryTable: [UInt8]) throws(PlacesError) {
        var countries: [String: String] = [:]
        var countryNames: [String: String] = [:]
        var others: [(name: String, english: String)] = []
        var number = 0
        for line in Self.lines(of: countryTable) {
            number += 1
            let fields = line.fields
            let text = { (field: Range<Int>) in String(decoding: countryTable[field], as: UTF8.self) }
            // Each English name is one country's: it names that country whatever other names
            // other languages share with it ("Congo").
            guard fields.count >= 2, let code = Self.countryCode(countryTable[fields[0]]), !fields[1].isEmpty, countries[code] == nil,
                countryNames.updateValue(text(fields[1]), forKey: Self.folded(text(fields[1]))) == nil
            else { throw Self.damaged("countries", line: number) }
            countries[code] = text(fields[1])
            others += fields.dropFirst(2).filter { !$0.isEmpty }.map { (Self.folded(text($0)), text(fields[1])) }
        }
        for (name, english) in others where countryNames[name] == nil { countryNames[name] = english }
        var found: [(line: Int32, latitude: Float, longitude: Float, cell: Int)] = []
        number = 0
        for line in Self.lines(of: places) {
            number += 1
            let fields = line.fields
            guard fields.count == 5, let latitude = Self.degrees(places[fields[0]], within: 90),
                let longitude = Self.degrees(places[fields[1]], within: 180), !fields[2].isEmpty,
                let code = Self.countryCode(places[fields[4]]), countries[code] != nil, line.start <= Int(Int32.max)
            else { throw Self.damaged("places", line: number) }
            found.append((Int32(line.start), Float(latitude), Float(longitude), Self.cell(latitude, longitude)))
        }
        // A counting sort by cell: each cell's places side by side, found from `cellStarts`.
        var starts = [Int32](repeating: 0, count: Self.rows * Self.columns + 1)
        for place in found { starts[place.cell + 1] += 1 }
        for cell in 1..<starts.count { starts[cell] += starts[cell - 1] }
        var next = starts
        var order = [Int](repeating: 0, count: found.count)
        for (index, place) in found.enumerated() {
            order[Int(next[place.cell])] = index
            next[place.cell] += 1
        }
        table = places
        lines = order.map { found[$0].line }
        latitudes = order.map { found[$0].latitude }
        longitudes = order.map { found[$0].longitude }
        cellStarts = starts
        self.countries = countries
        self.countryNames = countryNames
    }

    /// How many places it knows.
    public var count: Int { lines.count }

    /// The place nearest to a position in signed decimal degrees (north and east positive), or
    /// nil when none is within `reach` or the position is none on Earth.
    public func place(latitude: Double, longitude: Double) -> Place? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let degrees = Self.reach / Self.metresPerDegree
        let south = max(-90, latitude - degrees)
        let north = min(90, latitude + degrees)
        // A degree of longitude narrows towards the poles: the box is as wide as `reach` is at
        // its edge nearest a pole, and the whole circle there.
        let widest = max(abs(south), abs(north))
        let across = widest >= 89 ? 360 : degrees / cos(widest * .pi / 180)
        let firstColumn = across >= 180 ? 0 : Self.column(longitude - across)
        let columnCount = across >= 180 ? Self.columns : (Self.column(longitude + across) - firstColumn + Self.columns) % Self.columns + 1
        var best: (index: Int, distance: Double)?
        for row in Self.row(south)...Self.row(north) {
            for step in 0..<columnCount {
                let cell = row * Self.columns + (firstColumn + step) % Self.columns
                for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let distance = Self.distance(latitude, longitude, Double(latitudes[index]), Double(longitudes[index]))
                    if distance <= Self.reach, distance < best?.distance ?? .infinity { best = (index, distance) }
                }
            }
        }
        return best.map { place(at: $0.index) }
    }

    /// The English name of the country `text` names in any language iso-codes knows, in any case
    /// and with or without accents ("deutschland", "Italia"): what search looks for instead.
    public func country(named text: String) -> String? {
        countryNames[Self.folded(text)]
    }

    /// `text` as names are compared: lower case, without accents, its spaces single.
    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func place(at index: Int) -> Place {
        let start = Int(lines[index])
        let end = table[start...].firstIndex(of: UInt8(ascii: "\n")) ?? table.endIndex
        let fields = Self.Line(start: start, end: end, bytes: table).fields
        let text = { (field: Range<Int>) in String(decoding: table[field], as: UTF8.self) }
        let code = text(fields[4])
        return Place(
            name: text(fields[2]), region: fields[3].isEmpty ? nil : text(fields[3]), country: countries[code] ?? code,
            countryCode: code)
    }

    /// Great-circle distance in metres (haversine), on a sphere of the Earth's mean radius.
    private static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (latitude2 - latitude1) * radians
        let dLongitude = (longitude2 - longitude1) * radians
        let a = pow(sin(dLatitude / 2), 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * pow(sin(dLongitude / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }

    private static func row(_ latitude: Double) -> Int { min(rows - 1, max(0, Int((latitude + 90).rounded(.down)))) }
    private static func column(_ longitude: Double) -> Int { ((Int((longitude + 180).rounded(.down)) % columns) + columns) % columns }
    private static func cell(_ latitude: Double, _ longitude: Double) -> Int { row(latitude) * columns + column(longitude) }

    /// A field of decimal degrees as the install step writes them ("-33.86785"), within ±`limit`.
    static func degrees(_ field: ArraySlice<UInt8>, within limit: Double) -> Double? {
        var bytes = field[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var whole = 0.0
        var fraction = 0.0
        var scale = 1.0
        var digits = 0
        var seenPoint = false
        for byte in bytes {
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 12 {
                digits += 1
                let digit = Double(byte - UInt8(ascii: "0"))
                if seenPoint {
                    scale /= 10
                    fraction += digit * scale
                } else {
                    whole = whole * 10 + digit
                }
            } else {
                return nil
            }
        }
        let value = (whole + fraction) * (negative ? -1 : 1)
        return digits > 0 && abs(value) <= limit ? value : nil
    }

    private static func countryCode(_ field: ArraySlice<UInt8>) -> String? {
        guard field.count == 2, field.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        return String(decoding: field, as: UTF8.self)
    }

    private static func damaged(_ file: String, line: Int) -> PlacesError {
        PlacesError(.damaged, "The gazetteer's \(file) are damaged (line \(line)): run make again to write them.")
    }

    /// A line of a table: where it is in `bytes`, without its line feed.
    struct Line {
        let start: Int
        let end: Int
        let bytes: [UInt8]

        /// Its tab-separated fields, as ranges of `bytes`.
        var fields: [Range<Int>] {
            var fields: [Range<Int>] = []
            var fieldStart = start
            for index in start..<end where bytes[index] == UInt8(ascii: "\t") {
                fields.append(fieldStart..<index)
                fieldStart = index + 1
            }
            fields.append(fieldStart..<end)
            return fields
        }
    }

    /// The lines of `bytes`, the last one with or without its line feed (an empty line is one too,
    /// which no table has).
    static func lines(of bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(Line(start: start, end: index, bytes: bytes))
            start = index + 1
        }
        if start < bytes.count { lines.append(Line(start: start, end: bytes.count, bytes: bytes)) }
        return lines
    }
}
