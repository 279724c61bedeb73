internal import CVips
import Foundation

/// Turns libvips' error buffer into an `ImagingError`, in one place. The buffer is shared by all
/// threads, so it is read and cleared in one call, and its text may belong to another failure.
enum VipsFailure {
    /// The failure libvips just reported. Whether the file was truncated is decided from the
    /// file itself, by `Imaging.decoding`; the error text is only a detail for logs.
    static func current(during operation: String) -> ImagingError {
        var text = ""
        if let raw = vips_error_buffer_copy() {
            text = String(cString: raw)
            g_free(raw)
        }
        return classify(text, during: operation)
    }

    /// The text is a detail for the log and never decides the code: libvips keeps one error
    /// buffer for all threads, so it may hold another decode's words. What a code rests on is
    /// learnt from the file (`Imaging.decoding`, `tooLarge`).
    static func classify(_ raw: String, during operation: String) -> ImagingError {
        let detail = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return ImagingError(.corrupt, ImagingError.undecodable, detail: detail.isEmpty ? operation : "\(operation): \(detail)")
    }

    /// libheif's own size limit (268 megapixels) stops an image before libvips' header does.
    static func tooLarge(_ failure: ImagingError) -> ImagingError {
        ImagingError(.tooLarge, "The image is larger than the decoder allows.", detail: failure.detail)
    }
}
