internal import CJPEGDecoder
internal import CShims
internal import CVips
package import Vocabulary

/// JPEG decoded by libjpeg-turbo itself, for the decode that decides whether a file is accepted.
/// libvips can refuse a JPEG on any libjpeg warning or on none, only notices a warning when it
/// asks for the rows after it, and its warning text is shared by every thread; libjpeg's
/// message codes tell the harmless warnings (extraneous bytes between segments, an unknown
/// JFIF revision) from the damage (a scan that stops early, lost restarts, bad Huffman codes).
package enum JPEGDecoder {
    enum Damage: Equatable {
        case none
        case harmless
        case truncated
        case corrupt
        case unsupported
        /// Not decoded: its header (which libvips' may not have read alike) declares too many pixels.
        case tooLarge
        /// Not decoded: the file cannot be opened.
        case unchecked
    }

    /// The file's pixels at 1/`shrink` scale, as libvips' shrink-on-load would give them, with
    /// the header's ICC profile. Damage libjpeg reports is thrown as `policy` says: with
    /// `.refuseTruncation`, damage it decoded around (grey blocks) is let through.
    ///
    /// With `resizedTo`, the pixels come resized to that size (as CResize resizes them, on a
    /// second thread while the file is decoded), or at the decode's size when it cannot be done.
    static func decode(
        _ path: String, shrink: Int, maxPixels: Int, header: VipsImage, policy: DamagePolicy, resizedTo: PixelSize? = nil
    ) throws(ImagingError) -> VipsImage {
        var image = CRJPEGImage(resizedTo: resizedTo)
        let (damage, detail) = run(path, shrink: shrink, maxPixels: maxPixels, keepCorrupt: policy == .refuseTruncation, into: &image)
        // Pixels come with a corrupt verdict only when the policy lets that damage through.
        if damage == .none || damage == .harmless || (damage == .corrupt && image.pixels != nil) {
            guard let pixels = image.pixels,
                let decoded = cr_vips_image_from_pixels(pixels, image.width, image.height, image.bands, header.pointer)
            else { throw VipsFailure.current(during: "decode") }
            return VipsImage(decoded)
        }
        if damage == .unchecked { throw ImagingError(.unreadable, "The image file cannot be read.", detail: detail) }
        throw error(for: damage, detail: detail) ?? ImagingError(.corrupt, ImagingError.undecodable, detail: detail)
    }

    /// What libjpeg says of the file's data, decoding it at 1/8 scale without keeping pixels:
    /// the error to report, or nil when it finds no damage (or cannot tell).
    package static func damage(_ path: String, maxPixels: Int) -> ImagingError? {
        let (damage, detail) = run(path, shrink: 8, maxPixels: maxPixels, keepCorrupt: false, into: nil)
        return error(for: damage, detail: detail)
    }

    private static func error(for damage: Damage, detail: String) -> ImagingError? {
        switch damage {
        case .truncated: .truncated(detail: detail)
        case .corrupt: ImagingError(.corrupt, ImagingError.undecodable, detail: detail)
        case .unsupported:
            ImagingError(.corrupt, "The photo is a kind of JPEG this server cannot decode (12-bit or lossless).", detail: detail)
        case .tooLarge: ImagingError(.tooLarge, "The image has more pixels than the limit.", detail: detail)
        case .none, .harmless, .unchecked: nil
        }
    }

    private static func run(
        _ path: String, shrink: Int, maxPixels: Int, keepCorrupt: Bool, halvesFrom: Int = Int(CR_JPEG_HALVES_SMALLEST),
        into image: UnsafeMutablePointer<CRJPEGImage>?
    ) -> (Damage, detail: String) {
        var text = [CChar](repeating: 0, count: 200)
        let verdict = cr_jpeg_decode(path, Int32(shrink), Int64(maxPixels), keepCorrupt ? 1 : 0, halvesFrom, image, &text, text.count)
        let detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let damage: Damage =
            switch verdict {
            case CR_JPEG_WHOLE: .none
            case CR_JPEG_HARMLESS: .harmless
            case CR_JPEG_TRUNCATED: .truncated
            case CR_JPEG_CORRUPT: .corrupt
            case CR_JPEG_UNSUPPORTED: .unsupported
            case CR_JPEG_TOO_LARGE: .tooLarge
            default: .unchecked
            }
        return (damage, detail)
    }
}

extension JPEGDecoder {
    /// The file's pixels at 1/`shrink` scale, decoded in halves where it can be (a file of
    /// `halvesFrom` bytes or more; 0: never) or in one go, and libjpeg's verdict: to compare the
    /// two ways. With `resizedTo`, resized as the decode for a render resizes them; in halves, as
    /// they are decoded for a picture of `halvesStreamedFrom` pixels or more.
    package static func pixels(
        _ path: String, shrink: Int, halvesFrom: Int, maxPixels: Int = 1 << 30, resizedTo: PixelSize? = nil,
        halvesStreamedFrom: Int = Int(CR_JPEG_HALVES_STREAMED_FROM)
    ) -> (verdict: String, width: Int, height: Int, bands: Int, pixels: [UInt8], inHalves: Bool) {
        var image = CRJPEGImage(resizedTo: resizedTo, halvesStreamedFrom: halvesStreamedFrom)
        let (damage, _) = run(path, shrink: shrink, maxPixels: maxPixels, keepCorrupt: false, halvesFrom: halvesFrom, into: &image)
        guard let pixels = image.pixels else { return ("\(damage)", 0, 0, 0, [], false) }
        defer { free(pixels) }
        let count = Int(image.width) * Int(image.height) * Int(image.bands)
        return (
            "\(damage)", Int(image.width), Int(image.height), Int(image.bands), Array(UnsafeBufferPointer(start: pixels, count: count)),
            image.in_halves == 1
        )
    }

    /// false when the first bytes of a file already show that it cannot be cut: the decode then
    /// reads no further to plan a cut.
    package static func mayBeCut(start: [UInt8]) -> Bool {
        start.withUnsafeBufferPointer { buffer in
            var plan = CRJPEGPlan()
            guard let base = buffer.baseAddress else { return true }
            return cr_jpeg_plan_start(base, buffer.count, &plan) >= 0
        }
    }

    /// Where a decode in halves cuts the file (the MCU rows above the cut), and the lower half as
    /// the JPEG of its own that is decoded; nil when the file is decoded in one go.
    package static func lowerHalf(of bytes: [UInt8]) -> (rowsBefore: Int, jpeg: [UInt8])? {
        bytes.withUnsafeBufferPointer { buffer -> (Int, [UInt8])? in
            var split = CRJPEGSplit()
            guard let base = buffer.baseAddress, cr_jpeg_plan_split(base, buffer.count, &split) == 1 else { return nil }
            var size = 0
            guard let half = cr_jpeg_lower_half(base, buffer.count, &split, &size) else { return nil }
            defer { free(half) }
            return (Int(split.rows_before), Array(UnsafeBufferPointer(start: half, count: size)))
        }
    }

    /// The same as `lowerHalf(of:)`, but planned and renumbered from `piece` bytes at a time, as a
    /// decode reads the file: the start grown by a piece until the scan is seen, then the data.
    package static func lowerHalf(of bytes: [UInt8], inPiecesOf piece: Int) -> (rowsBefore: Int, jpeg: [UInt8])? {
        bytes.withUnsafeBufferPointer { buffer -> (Int, [UInt8])? in
            guard let base = buffer.baseAddress, piece > 0 else { return nil }
            var plan = CRJPEGPlan()
            var seen: Int32 = 0
            for end in stride(from: piece, through: buffer.count + piece - 1, by: piece) {
                seen = cr_jpeg_plan_start(base, min(end, buffer.count), &plan)
                if seen != 0 { break }
            }
            guard seen == 1 else { return nil }
            var planned: Int32 = 0
            while planned == 0 && plan.offset < buffer.count {
                planned = cr_jpeg_plan_data(&plan, base + plan.offset, min(piece, buffer.count - plan.offset))
            }
            guard planned == 1, let head = cr_jpeg_lower_head(base, &plan.split) else { return nil }
            defer { free(head) }
            var tail = Array(buffer[plan.split.tail_start...])
            var renumber = CRJPEGRenumber(markers_before: plan.split.markers_before, after_ff: 0, ended: 0)
            tail.withUnsafeMutableBufferPointer { data in
                for start in stride(from: 0, to: data.count, by: piece) {
                    cr_jpeg_renumber(&renumber, data.baseAddress! + start, min(piece, data.count - start))
                }
            }
            return (Int(plan.split.rows_before), Array(UnsafeBufferPointer(start: head, count: plan.split.scan_start)) + tail)
        }
    }
}

extension CRJPEGImage {
    fileprivate init(resizedTo size: PixelSize?, halvesStreamedFrom: Int = Int(CR_JPEG_HALVES_STREAMED_FROM)) {
        self.init()
        if let size {
            resize_width = Int32(clamping: size.width)
            resize_height = Int32(clamping: size.height)
        }
        halves_streamed_from = Int64(halvesStreamedFrom)
    }
}
