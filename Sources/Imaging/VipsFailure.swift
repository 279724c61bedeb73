internal import CVips
import Foundation

/// Turns libvips' error buffer into an `ImagingError`, in one place. The buffer is shared by all
/// threads, so it is read and cleared in one call.
enum VipsFailure {
    static func current(during operation: String, path: String? = nil) -> ImagingError {
        var text = ""
        if let raw = vips_error_buffer_copy() {
            text = String(cString: raw)
            g_free(raw)
        }
        return classify(text, during: operation, path: path)
    }

    /// The decoders' wording decides between truncated and corrupt; the file's path, which
    /// libvips puts into its messages, is taken out.
    static func classify(_ raw: String, during operation: String, path: String?) -> ImagingError {
        var detail = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if let path, !path.isEmpty {
            detail = detail.replacingOccurrences(of: path, with: "image")
        }
        let lowered = detail.lowercased()
        // libheif enforces its own size limit (16384 pixels a side) before libvips' header.
        if lowered.contains("security limit exceeded") {
            return ImagingError(.tooLarge, "The image is larger than the decoder allows.")
        }
        detail = detail.split(separator: "\n").first.map(String.init) ?? ""
        let truncationWords = ["premature end", "truncated", "unexpected end", "not enough data", "out of order read", "read error"]
        if truncationWords.contains(where: lowered.contains) {
            return ImagingError(.truncated, "The image file ends before its data does (\(operation)).")
        }
        let suffix = detail.isEmpty ? "" : ": \(String(detail.prefix(200)))"
        return ImagingError(.corrupt, "The image data cannot be decoded (\(operation))\(suffix).")
    }
}
