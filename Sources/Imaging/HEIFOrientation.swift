import Foundation

/// How to show a HEIF or AVIF upright. libheif applies the file's `irot` rotation and ignores
/// EXIF; cameras do not always agree: an iPhone writes both consistently, the ProCam app writes
/// only EXIF orientation 6, and a Nokia 8.3 writes an `irot` its EXIF (orientation 1) and its
/// pixels contradict. The EXIF orientation, which describes the stored pixels, decides when it
/// is there; the result is the orientation still to apply after libheif's rotation.
enum HEIFOrientation {
    /// The EXIF orientation to apply to libheif's output.
    static func correction(path: String, exif: [UInt8]?) -> Int {
        guard let wanted = exif.flatMap(exifOrientation), (1...8).contains(wanted) else { return 1 }
        let applied = irotQuarterTurns(path)
        // Correction = wanted ∘ applied⁻¹; libheif's irot k turns the image k × 90° anticlockwise.
        let appliedMatrix = power(clockwise, (4 - applied) % 4)
        return orientation(of: multiply(matrices[wanted - 1], inverse(appliedMatrix)))
    }

    typealias Matrix = (Int, Int, Int, Int)

    private static let identity: Matrix = (1, 0, 0, 1)
    private static let clockwise: Matrix = (0, -1, 1, 0)
    private static let mirror: Matrix = (-1, 0, 0, 1)

    /// EXIF orientations 1...8 as transforms from stored to displayed pixels.
    private static let matrices: [Matrix] = [
        identity, mirror, power(clockwise, 2), multiply(mirror, power(clockwise, 2)),
        multiply(mirror, clockwise), clockwise, multiply(mirror, power(clockwise, 3)), power(clockwise, 3),
    ]

    private static func orientation(of matrix: Matrix) -> Int {
        (matrices.firstIndex { $0 == matrix } ?? 0) + 1
    }

    private static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (a.0 * b.0 + a.1 * b.2, a.0 * b.1 + a.1 * b.3, a.2 * b.0 + a.3 * b.2, a.2 * b.1 + a.3 * b.3)
    }

    private static func power(_ matrix: Matrix, _ times: Int) -> Matrix {
        (0..<times).reduce(identity) { result, _ in multiply(result, matrix) }
    }

    /// These transforms are orthogonal, so the inverse is the transpose.
    private static func inverse(_ matrix: Matrix) -> Matrix {
        (matrix.0, matrix.2, matrix.1, matrix.3)
    }

    /// Orientation (tag 0x0112) from IFD0 of an EXIF block, with or without its "Exif\0\0" prefix.
    static func exifOrientation(_ exif: [UInt8]) -> Int? {
        var tiff = exif[...]
        if tiff.starts(with: Array("Exif\u{0}\u{0}".utf8)) { tiff = tiff.dropFirst(6) }
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { return nil }
        let little = bytes[0] == 0x49
        func read(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            let slice = bytes[offset..<offset + count]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let ifd = read(4, 4), let entries = read(ifd, 2) else { return nil }
        for index in 0..<min(entries, 512) {
            let entry = ifd + 2 + index * 12
            if read(entry, 2) == 0x0112 { return read(entry + 8, 2) }
        }
        return nil
    }

    /// The `irot` of the file's item properties (meta → iprp → ipco), in quarter turns
    /// anticlockwise; 0 when there is none.
    static func irotQuarterTurns(_ path: String) -> Int {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return 0 }
        let bytes = [UInt8](data.prefix(4 << 20))
        guard let meta = child("meta", in: bytes, from: 0, to: bytes.count, headerExtra: 0),
            let iprp = child("iprp", in: bytes, from: meta.body + 4, to: meta.end, headerExtra: 0),
            let ipco = child("ipco", in: bytes, from: iprp.body, to: iprp.end, headerExtra: 0),
            let irot = child("irot", in: bytes, from: ipco.body, to: ipco.end, headerExtra: 0),
            irot.body < bytes.count
        else { return 0 }
        return Int(bytes[irot.body] & 3)
    }

    private static func child(_ type: String, in bytes: [UInt8], from start: Int, to end: Int, headerExtra: Int) -> (body: Int, end: Int)? {
        var offset = start
        while offset + 8 <= min(end, bytes.count) {
            let size = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
            let name = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8 else { return nil }
            if name == type { return (offset + 8 + headerExtra, min(offset + size, end)) }
            offset += size
        }
        return nil
    }
}
