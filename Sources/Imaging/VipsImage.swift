internal import CShims
internal import CVips
import Vocabulary

/// Owns exactly one reference to a libvips image, released in `deinit`. libvips images are
/// immutable, so a value can be read from any thread.
final class VipsImage {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>

    init(_ pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var size: PixelSize { PixelSize(width: width, height: height) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    var isEightBit: Bool { vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }
    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    var pageCount: Int { Int(vips_image_get_n_pages(pointer)) }

    func has(_ field: String) -> Bool { vips_image_get_typeof(pointer, field) != 0 }

    func int(_ field: String) -> Int? {
        guard has(field) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, field, &value) == 0 else {
            vips_error_clear()
            return nil
        }
        return Int(value)
    }

    /// A metadata field rendered as text (EXIF values come as "value (value, ASCII, ...)").
    func string(_ field: String) -> String? {
        guard has(field) else { return nil }
        var raw: UnsafeMutablePointer<CChar>?
        guard vips_image_get_as_string(pointer, field, &raw) == 0, let raw else {
            vips_error_clear()
            return nil
        }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    func blob(_ field: String) -> [UInt8]? {
        guard has(field) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &data, &length) == 0, let data else {
            vips_error_clear()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    var fieldNames: [String] {
        guard let fields = vips_image_get_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let name = fields[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// Runs one libvips operation producing a new image; a failure becomes an `ImagingError`.
    func apply(
        _ what: String,
        _ operation: (UnsafeMutablePointer<CVips.VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let status = operation(pointer, &out)
        guard status == 0, let out else { throw VipsFailure.current(during: what) }
        return VipsImage(out)
    }

    /// Renders the pixels into memory, so that several outputs can be read from one decode.
    func inMemory() throws(ImagingError) -> VipsImage {
        guard let copy = vips_image_copy_memory(pointer) else {
            throw VipsFailure.current(during: "decode")
        }
        return VipsImage(copy)
    }
}
