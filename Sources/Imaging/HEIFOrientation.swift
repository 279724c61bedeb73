internal import CExif
internal import CHeif

/// How to show a HEIF or AVIF upright. libheif applies the file's `irot` and `imir` transforms
/// and ignores EXIF; cameras do not always agree: an iPhone writes both consistently, the ProCam
/// app writes only EXIF orientation 6, and a Nokia 8.3 writes an `irot` its EXIF (orientation 1)
/// and its pixels contradict. The EXIF orientation, which describes the stored pixels, decides
/// when it is there; the result is the orientation still to apply after libheif's transforms.
/// libheif itself lists the transforms it applies, and libexif reads the EXIF.
package enum HEIFOrientation {
    /// The EXIF orientation to apply to libheif's output.
    package static func correction(path: String, exif: [UInt8]?) -> Int {
        guard let wanted = exif.flatMap(exifOrientation), (1...8).contains(wanted) else { return 1 }
        let applied = appliedTransforms(path).reduce(identity) { multiply($1, $0) }
        return orientation(of: multiply(matrices[wanted - 1], inverse(applied)))
    }

    /// A transform of pixel positions, as the matrix (a, b, c, d) of x' = a·x + b·y, y' = c·x + d·y
    /// with y pointing down.
    package typealias Matrix = (Int, Int, Int, Int)

    private static let identity: Matrix = (1, 0, 0, 1)
    private static let clockwise: Matrix = (0, -1, 1, 0)
    private static let mirror: Matrix = (-1, 0, 0, 1)
    private static let flip: Matrix = (1, 0, 0, -1)

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

    /// The Orientation tag (0x0112) of IFD0, read by libexif from an EXIF block with or without
    /// its "Exif\0\0" prefix (libexif wants the prefix).
    package static func exifOrientation(_ exif: [UInt8]) -> Int? {
        let prefix = Array("Exif\u{0}\u{0}".utf8)
        let block = exif.starts(with: prefix) ? exif : prefix + exif
        guard let size = UInt32(exactly: block.count),
            let data = block.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, size) })
        else { return nil }
        defer { exif_data_unref(data) }
        guard let entry = exif_content_get_entry(data.pointee.ifd.0, EXIF_TAG_ORIENTATION),
            entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1, entry.pointee.size >= 2,
            let value = entry.pointee.data
        else { return nil }
        return Int(exif_get_short(value, exif_data_get_byte_order(data)))
    }

    /// Whether libheif refuses the primary image for its size (the security limit libvips gives it),
    /// learnt from the file itself: libvips' error text says so too, but that buffer is one for
    /// every thread, and another decode failing at the same moment would be read as this one.
    package static func exceedsDecoderLimit(_ path: String) -> Bool {
        guard let context = heif_context_alloc() else { return false }
        defer { heif_context_free(context) }
        var handle: OpaquePointer?
        guard heif_context_read_from_file(context, path, nil).code == heif_error_Ok,
            heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle
        else { return false }
        defer { heif_image_handle_release(handle) }
        let pixels = UInt64(max(0, heif_image_handle_get_width(handle))) * UInt64(max(0, heif_image_handle_get_height(handle)))
        // libvips' heifload sets this limit on libheif's context (libheif's own default is larger).
        return pixels > 16384 * 16384
    }

    /// The transforms libheif applies to the primary image, in the order it applies them, as
    /// matrices (`clap` crops, which turn nothing, are left out); none when libheif cannot read the file.
    package static func appliedTransforms(_ path: String) -> [Matrix] {
        guard let context = heif_context_alloc() else { return [] }
        defer { heif_context_free(context) }
        var primary: heif_item_id = 0
        guard heif_context_read_from_file(context, path, nil).code == heif_error_Ok,
            heif_context_get_primary_image_ID(context, &primary).code == heif_error_Ok
        else { return [] }
        let count = heif_item_get_transformation_properties(context, primary, nil, 0)
        guard count > 0 else { return [] }
        var properties = [heif_property_id](repeating: 0, count: Int(count))
        let listed = heif_item_get_transformation_properties(context, primary, &properties, count)
        return properties.prefix(Int(max(0, listed))).compactMap { property -> Matrix? in
            let degrees = heif_item_get_property_transform_rotation_ccw(context, primary, property)
            if degrees >= 0 { return power(clockwise, (4 - Int(degrees) / 90 % 4) % 4) }
            switch heif_item_get_property_transform_mirror(context, primary, property) {
            case heif_transform_mirror_direction_horizontal: return mirror
            case heif_transform_mirror_direction_vertical: return flip
            default: return nil
            }
        }
    }
}
