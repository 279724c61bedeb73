/// What a photo's EXIF says about how and where it was taken, besides its date and camera: what
/// the viewer's info panel shows. A value is nil unless the file states it well. A number with a
/// zero denominator, of a type EXIF does not give it, or out of range counts as absent.
public struct ExifDetails: Sendable, Codable, Equatable {
    /// The lens as its maker names it (LensModel, after LensMake where that adds something).
    public var lensModel: String?
    /// The aperture's f-number: 2.2 for f/2.2.
    public var fNumber: Double?
    /// Seconds the shutter was open: 0.008 for 1/125 s.
    public var exposureTime: Double?
    /// The ISO sensitivity (PhotographicSensitivity, which EXIF 2.2 called ISOSpeedRatings).
    public var iso: Int?
    /// The lens's own focal length in millimetres, not its 35 mm equivalent.
    public var focalLength: Double?
    /// Where it was taken, in signed decimal degrees (north and east positive): both or neither.
    public var latitude: Double?
    public var longitude: Double?

    public init(
        lensModel: String? = nil, fNumber: Double? = nil, exposureTime: Double? = nil, iso: Int? = nil, focalLength: Double? = nil,
        latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.lensModel = lensModel
        self.fNumber = fNumber
        self.exposureTime = exposureTime
        self.iso = iso
        self.focalLength = focalLength
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension ExifDetails {
    /// The details of an EXIF block as libvips gives it (`exif-data`, with or without the
    /// `Exif\0\0` of a JPEG's APP1); all nil when it is no EXIF.
    ///
    /// Read by us from the block's bytes through `TIFFDirectory`, which this module already
    /// walks with checked reads (and fuzzes). libvips' `exif-ifd2-…` fields are libexif's
    /// renderings ("f/2.2", "1/110 sec.", "48, 18, 10"; libvips 8.14 puts the fraction first), a
    /// text format of theirs that rounds and changes between versions; libexif itself would give
    /// the fractions, but by default it "fixes" what it loads, dropping entries it deems misplaced.
    package init(exif: [UInt8]) {
        self = ByteReader.reading(exif) { reader in
            guard let header = TIFFDirectory.exif(reader), let ifd0 = Tags(header.directory, at: header.ifd0) else {
                return ExifDetails()
            }
            var details = ExifDetails()
            if let exif = Tags(header.directory, at: ifd0.pointer(0x8769)) {
                details.lensModel = Self.lens(model: exif.text(0xA434), make: exif.text(0xA433), cameraMake: ifd0.text(0x010F))
                details.fNumber = exif.positive(0x829D, atMost: 1000)
                // Hours-long exposures exist; a day is past any a camera times.
                details.exposureTime = exif.positive(0x829A, atMost: 86_400)
                details.iso = exif.positive(0x8827, atMost: 10_000_000).flatMap { Int(exactly: $0) }
                details.focalLength = exif.positive(0x920A, atMost: 10_000)
            }
            if let gps = Tags(header.directory, at: ifd0.pointer(0x8825)),
                let latitude = gps.coordinate(0x0002, hemisphere: 0x0001, signs: ("N", "S"), limit: 90),
                let longitude = gps.coordinate(0x0004, hemisphere: 0x0003, signs: ("E", "W"), limit: 180)
            {
                (details.latitude, details.longitude) = (latitude, longitude)
            }
            return details
        }
    }

    /// LensModel alone names most lenses ("iPhone 6s back camera 4.15mm f/2.2", "EF-S15-85mm
    /// f/3.5-5.6 IS USM"); LensMake goes before it only where neither it nor the camera's make
    /// already says it (a Sigma lens on a Canon). A make without a model names no lens.
    static func lens(model: String?, make: String?, cameraMake: String?) -> String? {
        guard let model else { return nil }
        guard let make, !model.lowercased().contains(make.lowercased()),
            !(cameraMake?.lowercased().hasPrefix(make.lowercased()) ?? false)
        else { return model }
        return ExifText.cleaned("\(make) \(model)")
    }
}

/// One IFD's entries by tag (the first of a tag counts, as each is read once), and their values.
private struct Tags {
    let directory: TIFFDirectory
    let entries: [UInt16: TIFFDirectory.Entry]

    init?(_ directory: TIFFDirectory, at offset: Int?) {
        guard let offset, let found = directory.entries(inIFDAt: offset) else { return nil }
        self.directory = directory
        entries = Dictionary(found.entries.map { ($0.tag, $0) }) { first, _ in first }
    }

    /// Where the IFD this entry points to starts.
    func pointer(_ tag: UInt16) -> Int? { entries[tag].flatMap(directory.value) }

    func text(_ tag: UInt16) -> String? { entries[tag].flatMap(directory.text).flatMap(ExifText.cleaned) }

    /// The entry's number when it is more than 0 and at most `limit`; 0 is what cameras write
    /// for a value they do not know (a manual lens's f-number).
    func positive(_ tag: UInt16, atMost limit: Double) -> Double? {
        guard let number = entries[tag].flatMap({ directory.numbers($0) })?.first, number > 0, number <= limit else { return nil }
        return number
    }

    /// Degrees, minutes and seconds (three fractions) signed by the hemisphere's letter; nil when
    /// a part is missing or out of its range, or the letter is neither: a location in the wrong
    /// hemisphere would be worse than none.
    func coordinate(_ tag: UInt16, hemisphere: UInt16, signs: (positive: String, negative: String), limit: Double) -> Double? {
        guard let parts = entries[tag].flatMap({ directory.numbers($0, first: 3) }), let letter = text(hemisphere)?.uppercased(),
            parts[0] >= 0, (0..<60).contains(parts[1]), (0..<60).contains(parts[2])
        else { return nil }
        let degrees = parts[0] + parts[1] / 60 + parts[2] / 3600
        guard degrees <= limit else { return nil }
        switch letter {
        case signs.positive: return degrees
        case signs.negative: return -degrees
        default: return nil
        }
    }
}
