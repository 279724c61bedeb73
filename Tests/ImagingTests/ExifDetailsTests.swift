import Foundation
import TestSupport
import Testing

@testable import Imaging

/// A photo's lens, exposure and location as the probe reads them from its EXIF, against Debian's
/// exiftool (independent of our reader) on the corpus, and against hand-made blocks for what no
/// camera of the corpus writes wrong.
@Suite struct ExifDetailsTests {
    let imaging: Imaging
    init() throws { imaging = try Imaging() }

    /// exiftool's raw numbers (`-n`) of the EXIF group only: not the MakerNote's or XMP's lens.
    static func exiftool(_ file: String) async throws -> [String: String] {
        let tags =
            ["LensModel", "LensMake", "Make", "FNumber", "ExposureTime", "ISO", "FocalLength"]
            + ["GPSLatitude", "GPSLatitudeRef", "GPSLongitude", "GPSLongitudeRef"]
        let run = try await Executable.run(program: "/usr/bin/exiftool", ["-j", "-n"] + tags.map { "-EXIF:\($0)" } + [file])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]])
        return try #require(objects.first).mapValues { "\($0)" }
    }

    /// A number as exiftool prints it, when it is one our reader would keep: positive and finite.
    static func positive(_ text: String?) -> Double? {
        text.flatMap { Double($0.split(separator: " ").first ?? "") }.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    static func signed(_ text: String?, _ reference: String?, negative: String) -> Double? {
        guard let value = text.flatMap(Double.init) else { return nil }
        return reference == negative ? -value : value
    }

    /// exiftool prints ten significant digits of a fraction (0.003095975232 for 1/323).
    static func close(_ ours: Double?, _ theirs: Double?) -> Bool {
        guard let ours, let theirs else { return ours == nil && theirs == nil }
        return abs(ours - theirs) <= 1e-9 * max(1, abs(theirs))
    }

    /// All but the DNG: libvips' tiffload gives a TIFF's EXIF neither as a block nor as fields,
    /// so its lens is as unread as its camera (exiftool reads both).
    static let photosWithEXIF = Corpus.decodablePhotos.filter { !$0.hasSuffix(".dng") }

    @Test(arguments: photosWithEXIF)
    func theProbeReadsWhatExiftoolReads(file: String) async throws {
        let path = Corpus.path(file)
        let ours = try imaging.probe(path).exif
        let theirs = try await Self.exiftool(path)
        let text = { (tag: String) in theirs[tag].flatMap(ExifText.cleaned) }
        #expect(ours.lensModel == ExifDetails.lens(model: text("LensModel"), make: text("LensMake"), cameraMake: text("Make")), "\(file)")
        #expect(Self.close(ours.fNumber, Self.positive(theirs["FNumber"])), "\(file): f-number \(String(describing: ours.fNumber))")
        #expect(Self.close(ours.exposureTime, Self.positive(theirs["ExposureTime"])), "\(file): \(String(describing: ours.exposureTime))")
        #expect(ours.iso == Self.positive(theirs["ISO"]).map { Int($0) }, "\(file): ISO")
        #expect(Self.close(ours.focalLength, Self.positive(theirs["FocalLength"])), "\(file): \(String(describing: ours.focalLength))")
        // Compared in the test only, never printed: coordinates stay out of logs.
        #expect(Self.close(ours.latitude, Self.signed(theirs["GPSLatitude"], theirs["GPSLatitudeRef"], negative: "S")), "\(file): latitude")
        #expect(
            Self.close(ours.longitude, Self.signed(theirs["GPSLongitude"], theirs["GPSLongitudeRef"], negative: "W")), "\(file): longitude")
    }

    /// The corpus's own cases, so that the comparison above cannot pass by reading nothing.
    @Test func theCorpusHasLensesExposuresAndLocations() throws {
        let train = try imaging.probe(Corpus.path("photos/lychee__train.jpg")).exif
        #expect(train.lensModel == "iPhone 6s back camera 4.15mm f/2.2")
        #expect(train.fNumber == 2.2 && train.iso == 25 && train.focalLength == 4.15)
        #expect(try #require(train.longitude) < 0, "west of Greenwich")
        let heic = try imaging.probe(Corpus.path("photos/pigallery2__IMG_7943.HEIC")).exif
        #expect(heic.lensModel == "iPhone 13 Pro back triple camera 5.7mm f/1.5" && heic.iso == 50)
        #expect(heic.latitude != nil && heic.longitude != nil)
        let kodak = try imaging.probe(Corpus.path("photos/exifsamples__Kodak_CX7530.jpg")).exif
        #expect(try #require(kodak.latitude) < 0, "south of the equator")
        let canon = try imaging.probe(Corpus.path("photos/exifsamples__Canon_40D.jpg")).exif
        #expect(canon.exposureTime == 1.0 / 160 && canon.lensModel == nil && canon.latitude == nil)
        let png = try imaging.probe(Corpus.path("photos/libpng__basn6a08.png")).exif
        #expect(png == ExifDetails(), "no EXIF, no details")
    }

    static let wellFormed = CraftedExif(
        ifd0: [.init(0x010F, .ascii("Canon"))],
        exif: [
            .init(0x829A, .rationals([(1, 125)])), .init(0x829D, .rationals([(22, 10)])), .init(0x8827, .shorts([200])),
            .init(0x920A, .rationals([(42, 10)])), .init(0xA433, .ascii("SIGMA")), .init(0xA434, .ascii("17-70mm F2.8-4 DC")),
        ],
        gps: [
            .init(0x0001, .ascii("N")), .init(0x0002, .rationals([(41, 1), (24, 1), (1956, 100)])),
            .init(0x0003, .ascii("W")), .init(0x0004, .rationals([(2, 1), (10, 1), (0, 1)])),
        ])

    @Test(arguments: [true, false]) func aWellFormedBlockIsReadInEitherByteOrder(bigEndian: Bool) throws {
        var block = Self.wellFormed
        block.bigEndian = bigEndian
        let details = ExifDetails(exif: block.bytes)
        #expect(details.lensModel == "SIGMA 17-70mm F2.8-4 DC", "a lens maker other than the camera's goes first")
        #expect(details.fNumber == 2.2 && details.iso == 200 && details.focalLength == 4.2)
        let exposure = try #require(details.exposureTime)
        #expect(exposure == 1.0 / 125 && (1 / exposure).rounded() == 125 && abs(1 / exposure - 125) < 1e-9, "prints as 1/125")
        #expect(details.latitude == 41 + 24.0 / 60 + 19.56 / 3600)
        #expect(details.longitude == -(2 + 10.0 / 60))
        #expect(ExifDetails(exif: Array(block.bytes.dropFirst(6))) == details, "the block without Exif\\0\\0 too")
    }

    @Test func theLensIsItsModelWithItsMakeWhereThatAddsSomething() {
        #expect(ExifDetails.lens(model: "iPhone 6s back camera", make: "Apple", cameraMake: "Apple") == "iPhone 6s back camera")
        #expect(ExifDetails.lens(model: "XF23mmF2 R WR", make: "FUJIFILM", cameraMake: "FUJIFILM") == "XF23mmF2 R WR")
        #expect(ExifDetails.lens(model: "M.14-42mm", make: "OLYMPUS", cameraMake: "OLYMPUS IMAGING CORP.") == "M.14-42mm")
        #expect(ExifDetails.lens(model: "Sigma 35mm F1.4 DG", make: "SIGMA", cameraMake: "Canon") == "Sigma 35mm F1.4 DG")
        #expect(ExifDetails.lens(model: "35mm F1.4 DG", make: "SIGMA", cameraMake: "Canon") == "SIGMA 35mm F1.4 DG")
        #expect(ExifDetails.lens(model: "EF50mm f/1.8", make: nil, cameraMake: "Canon") == "EF50mm f/1.8")
        #expect(ExifDetails.lens(model: nil, make: "Canon", cameraMake: "Canon") == nil, "a make alone names no lens")
    }

    /// What a case spoils, and so expects to be nil.
    enum Spoiled: Sendable {
        case fNumber, exposureTime, iso, focalLength, location

        func clear(_ details: inout ExifDetails) {
            switch self {
            case .fNumber: details.fNumber = nil
            case .exposureTime: details.exposureTime = nil
            case .iso: details.iso = nil
            case .focalLength: details.focalLength = nil
            case .location: (details.latitude, details.longitude) = (nil, nil)
            }
        }
    }

    static let latitude = [(UInt32(41), UInt32(1)), (24, 1), (1956, 100)]

    /// Each case puts one malformed entry in the well-formed block: that value, or the location
    /// it is half of, is nil, and the rest are read as before.
    @Test(arguments: [
        ("a zero denominator", CraftedExif.Entry(0x829D, .rationals([(22, 0)])), Spoiled.fNumber),
        ("0/0", CraftedExif.Entry(0x829A, .rationals([(0, 0)])), .exposureTime),
        ("0, which says unknown", CraftedExif.Entry(0x829D, .rationals([(0, 1)])), .fNumber),
        ("a negative fraction", CraftedExif.Entry(0x920A, .signedRationals([(-42, 10)])), .focalLength),
        ("text for a number", CraftedExif.Entry(0x829D, .ascii("2.2")), .fNumber),
        ("text for the ISO", CraftedExif.Entry(0x8827, .ascii("200")), .iso),
        ("a fraction for the ISO", CraftedExif.Entry(0x8827, .rationals([(401, 2)])), .iso),
        ("no value at all", CraftedExif.Entry(0x8827, .shorts([]), count: 0), .iso),
        ("an exposure of two days", CraftedExif.Entry(0x829A, .longs([172_800])), .exposureTime),
        ("a value past the end", CraftedExif.Entry(0x829D, .rationals([(22, 10)]), count: 1000), .fNumber),
        ("a type TIFF does not have", CraftedExif.Entry(0x920A, .rationals([(42, 10)]), type: 99), .focalLength),
        ("latitude 91°", CraftedExif.Entry(0x0002, .rationals([(91, 1), (0, 1), (0, 1)])), .location),
        ("longitude 180° 0' 1\"", CraftedExif.Entry(0x0004, .rationals([(180, 1), (0, 1), (1, 1)])), .location),
        ("60 minutes", CraftedExif.Entry(0x0002, .rationals([(41, 1), (60, 1), (0, 1)])), .location),
        ("seconds over zero", CraftedExif.Entry(0x0004, .rationals([(2, 1), (10, 1), (5, 0)])), .location),
        ("negative degrees", CraftedExif.Entry(0x0002, .signedRationals([(-41, 1), (24, 1), (1956, 100)])), .location),
        ("two of the three parts", CraftedExif.Entry(0x0002, .rationals(latitude), count: 2), .location),
        ("degrees as text", CraftedExif.Entry(0x0002, .ascii("41.4054")), .location),
        ("no hemisphere", CraftedExif.Entry(0x0001, .ascii("")), .location),
        ("a hemisphere that is none", CraftedExif.Entry(0x0003, .ascii("X")), .location),
        ("a hemisphere as a number", CraftedExif.Entry(0x0001, .shorts([78])), .location),
    ])
    func aMalformedValueIsNil(what: String, entry: CraftedExif.Entry, spoiled: Spoiled) {
        var block = Self.wellFormed
        block.exif = block.exif.map { $0.tag == entry.tag ? entry : $0 }
        block.gps = block.gps.map { $0.tag == entry.tag ? entry : $0 }
        var expected = ExifDetails(exif: Self.wellFormed.bytes)
        spoiled.clear(&expected)
        #expect(ExifDetails(exif: block.bytes) == expected, "\(what)")
    }

    @Test func aDirectoryPastTheEndIsNoDirectory() {
        var block = Self.wellFormed
        block.gps = []
        block.ifd0.append(CraftedExif.Entry(0x8825, .longs([0xFFFF_FFF0])))
        var expected = ExifDetails(exif: Self.wellFormed.bytes)
        Spoiled.location.clear(&expected)
        #expect(ExifDetails(exif: block.bytes) == expected)
    }

    /// A block cut anywhere reads what is left whole, and nothing that was not there.
    @Test func aTruncatedBlockLosesValuesAndInventsNone() {
        let bytes = Self.wellFormed.bytes
        let whole = ExifDetails(exif: bytes)
        for length in 0..<bytes.count {
            let details = ExifDetails(exif: Array(bytes.prefix(length)))
            #expect(details.lensModel == nil || whole.lensModel?.hasSuffix(details.lensModel ?? "") == true, "\(length)")
            #expect(details.fNumber == nil || details.fNumber == whole.fNumber, "\(length)")
            #expect(details.exposureTime == nil || details.exposureTime == whole.exposureTime, "\(length)")
            #expect(details.iso == nil || details.iso == whole.iso, "\(length)")
            #expect(details.latitude == nil || (details.latitude, details.longitude) == (whole.latitude, whole.longitude), "\(length)")
        }
        #expect(ExifDetails(exif: []) == ExifDetails() && ExifDetails(exif: Array("Exif\0\0MM".utf8)) == ExifDetails())
    }
}
