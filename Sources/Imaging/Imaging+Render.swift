internal import CShims
internal import CVips
package import Vocabulary

extension Imaging {
    /// Renders several outputs from one decode of the file: the image is loaded once, at the
    /// smallest size the largest output allows (shrink-on-load), turned upright (and then
    /// `reoriented`, in the same turn), and every output is cut and resized from that; crops are
    /// in the reoriented image's pixels. Outputs come back in the order of `requests`. `damage`
    /// says what the decode lets through.
    public func render(
        _ path: String, _ requests: [RenderRequest], damage: DamagePolicy = .refuseTruncation, reoriented: Reorientation = .none
    ) throws(ImagingError) -> [RenderedImage] {
        try render(ImageFile(path), requests, damage: damage, reoriented: reoriented)
    }

    public func render(
        _ file: ImageFile, _ requests: [RenderRequest], damage: DamagePolicy = .refuseTruncation, reoriented: Reorientation = .none
    ) throws(ImagingError) -> [RenderedImage] {
        try decoding(file) { () throws(ImagingError) -> [RenderedImage] in try renderUnchecked(file, requests, damage, reoriented) }
    }

    private func renderUnchecked(
        _ file: ImageFile, _ requests: [RenderRequest], _ damage: DamagePolicy, _ reoriented: Reorientation
    ) throws(ImagingError) -> [RenderedImage] {
        guard !requests.isEmpty else { return [] }
        let (format, path, header) = (file.format, file.path, try open(file))
        let orientation = reoriented.composed(withOrientation: self.orientation(of: header, format: format, path: path))
        let upright = Self.uprightSize(header.size, orientation)
        let plans = try requests.map { request throws(ImagingError) in try Plan(request, source: upright) }

        let shrink = format.shrinksOnLoad ? Self.shrinkFactor(for: plans) : 1
        let loaded: VipsImage
        // libjpeg straight into memory is a sixth quicker than libvips' loader for a shrunk
        // decode (a thumbnail's, a display size's); at full size libvips streams it instead.
        if format == .jpeg && (damage == .refuseDamage || (shrink > 1 && shrunkJPEGDecoder == .libjpeg)) {
            // Outputs all of the whole picture are made from the largest (below), so that one is
            // resized as the rows are decoded, and the whole decode is never held.
            let whole = plans.allSatisfy { $0.region == PixelRect(size: upright) }
            let largest = plans.max { $0.output.pixelCount < $1.output.pixelCount }
            loaded = try JPEGDecoder.decode(
                path, shrink: shrink, maxPixels: maxPixels, header: header, policy: damage,
                resizedTo: whole ? largest.map { Self.uprightSize($0.output, orientation) } : nil)
        } else {
            loaded = shrink == 1 ? header : try VipsRuntime.load(format, path: path, shrink: shrink)
        }
        // Each output is cut and resized from the decode as it is stored, then turned upright:
        // turning the decode first would turn many more pixels, hold all of them in memory, and
        // leave the resize to libvips' slower one.
        var base = loaded
        let loadedUpright = Self.uprightSize(loaded.size, orientation)
        let ratioX = Double(loadedUpright.width) / Double(upright.width)
        let ratioY = Double(loadedUpright.height) / Double(upright.height)

        // Sequential access reads the file once; a second region needs the decode in memory.
        if Set(plans.map(\.region)).count > 1 { base = try base.inMemory() }

        var results = [RenderedImage?](repeating: nil, count: plans.count)
        // Largest first: each smaller output of the same region is resized from the previous
        // one, already in sRGB and in memory, instead of from the decode.
        let order = plans.indices.sorted { plans[$0].output.pixelCount > plans[$1].output.pixelCount }
        var previous: (region: PixelRect, image: VipsImage)?
        for index in order {
            let plan = plans[index]
            let pixels: VipsImage
            if let previous, previous.region == plan.region {
                pixels = try Self.resize(previous.image, to: plan.output)
            } else {
                let scaled = PixelRect(
                    x: Int((Double(plan.region.x) * ratioX).rounded()),
                    y: Int((Double(plan.region.y) * ratioY).rounded()),
                    width: Int((Double(plan.region.width) * ratioX).rounded()),
                    height: Int((Double(plan.region.height) * ratioY).rounded()))
                let stored = Reorientation.storedRect(
                    of: Self.clamped(scaled, to: loadedUpright), orientation: orientation, storedSize: loaded.size)
                let resized = try Self.resize(base, stored, to: Self.uprightSize(plan.output, orientation))
                var rendered = try Self.toSRGB(try Self.upright(resized, orientation))
                if order.count > 1 { rendered = try rendered.inMemory() }
                pixels = rendered
            }
            previous = (plan.region, pixels)
            results[index] = try Self.encode(pixels, plan.request.encoding)
        }
        return results.compactMap { $0 }
    }

    /// Turns the image upright. Every orientation but a mirror needs rows out of file order,
    /// which sequential access cannot give, so the (already shrunk) decode is put in memory first.
    static func upright(_ image: VipsImage, _ orientation: Int) throws(ImagingError) -> VipsImage {
        if orientation == 1 { return image }
        var source = image
        if (image.int("orientation") ?? 1) != orientation {
            source = try image.apply("rotate") { cr_vips_copy_with_orientation($0, $1, Int32(orientation)) }
        }
        if (3...8).contains(orientation) { source = try source.inMemory() }
        return try source.apply("rotate") { cr_vips_autorot($0, $1) }
    }

    /// The EXIF orientation still to apply to what the loader gives (1...8).
    func orientation(of image: VipsImage, format: ImageFormat, path: String) -> Int {
        switch format {
        case .heif, .avif:
            return HEIFOrientation.correction(path: path, exif: image.blob("exif-data"))
        default:
            let orientation = image.int("orientation") ?? 1
            return (1...8).contains(orientation) ? orientation : 1
        }
    }

    /// The size after the orientation is applied.
    package static func uprightSize(_ size: PixelSize, _ orientation: Int) -> PixelSize {
        (5...8).contains(orientation) ? PixelSize(width: size.height, height: size.width) : size
    }

    /// Where one request reads from and what size it makes, known before decoding.
    package struct Plan {
        let request: RenderRequest
        package let region: PixelRect
        package let output: PixelSize

        package init(_ request: RenderRequest, source: PixelSize) throws(ImagingError) {
            guard request.box.width > 0, request.box.height > 0 else {
                throw ImagingError(.invalidRequest, "The box must be at least 1x1 pixels.")
            }
            let crop = request.crop ?? PixelRect(size: source)
            guard crop.isInside(source) else {
                throw ImagingError(.invalidRequest, "The crop \(crop) is not inside the \(source) image.")
            }
            output = FitGeometry.outputSize(of: crop.size, in: request.box, fit: request.fit)
            region = FitGeometry.visibleRegion(of: crop, for: output, fit: request.fit)
            self.request = request
        }
    }

    /// The largest JPEG/WebP shrink-on-load factor that still leaves every region at least as
    /// large as its output, so quality is never lost to it.
    static func shrinkFactor(for plans: [Plan]) -> Int {
        for factor in [8, 4, 2] {
            let fits = plans.allSatisfy { plan in
                plan.region.width / factor >= plan.output.width && plan.region.height / factor >= plan.output.height
            }
            if fits { return factor }
        }
        return 1
    }

    static func extract(_ image: VipsImage, _ rect: PixelRect) throws(ImagingError) -> VipsImage {
        let area = clamped(rect, to: image.size)
        if area == PixelRect(size: image.size) { return image }
        return try image.apply("crop") {
            cr_vips_extract_area($0, $1, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
        }
    }

    /// `rect` moved and cut to lie inside an image of `size` (rounding may take it a pixel past).
    static func clamped(_ rect: PixelRect, to size: PixelSize) -> PixelRect {
        var area = rect
        area.x = min(max(area.x, 0), size.width - 1)
        area.y = min(max(area.y, 0), size.height - 1)
        area.width = min(max(area.width, 1), size.width - area.x)
        area.height = min(max(area.height, 1), size.height - area.y)
        return area
    }

    /// The part of `image` in `rect` resized to exactly `size`. A decode held in memory is
    /// downscaled by CResize, three to four times quicker than libvips' scalar reduce.
    static func resize(_ image: VipsImage, _ rect: PixelRect, to size: PixelSize) throws(ImagingError) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let area = clamped(rect, to: image.size)
        switch cr_vips_resize_in_memory(
            image.pointer, &out, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height), Int32(size.width),
            Int32(size.height))
        {
        case 0: return VipsImage(out!)
        case 1: return try libvipsResize(try extract(image, area), to: size)
        default: throw ImagingError(.tooLarge, "There is not enough memory to resize the image.")
        }
    }

    static func resize(_ image: VipsImage, to size: PixelSize) throws(ImagingError) -> VipsImage {
        try resize(image, PixelRect(size: image.size), to: size)
    }

    /// Resizes to exactly `size`: libvips rounds its output size, so an off-by-one result is
    /// trimmed or edge-extended by that one pixel.
    static func libvipsResize(_ image: VipsImage, to size: PixelSize) throws(ImagingError) -> VipsImage {
        if image.size == size { return image }
        let hscale = Double(size.width) / Double(image.width)
        let vscale = Double(size.height) / Double(image.height)
        var resized = try image.apply("resize") { cr_vips_resize($0, $1, hscale, vscale) }
        if resized.width > size.width || resized.height > size.height {
            let width = min(resized.width, size.width)
            let height = min(resized.height, size.height)
            resized = try resized.apply("resize") { cr_vips_extract_area($0, $1, 0, 0, Int32(width), Int32(height)) }
        }
        if resized.size != size {
            resized = try resized.apply("resize") { cr_vips_embed_copy($0, $1, Int32(size.width), Int32(size.height)) }
        }
        return resized
    }

    /// Converts to 8-bit sRGB: through the embedded ICC profile when there is one (CMYK without
    /// one assumes a standard CMYK profile), else by libvips' colourspace conversion. An embedded
    /// sRGB profile needs no transform, and building one costs as much as a small decode.
    static func toSRGB(_ image: VipsImage) throws(ImagingError) -> VipsImage {
        var result = image
        let interpretation = image.interpretation
        let profile = image.blob("icc-profile-data")
        let needsTransform = profile.map { !ICCProfile.isSRGB($0) || interpretation != VIPS_INTERPRETATION_sRGB } ?? false
        if needsTransform || interpretation == VIPS_INTERPRETATION_CMYK {
            let fallback = interpretation == VIPS_INTERPRETATION_CMYK ? "cmyk" : "srgb"
            result = try result.apply("colour") { cr_vips_icc_to_srgb($0, $1, fallback) }
        } else if interpretation != VIPS_INTERPRETATION_sRGB {
            result = try result.apply("colour") { cr_vips_colourspace($0, $1, VIPS_INTERPRETATION_sRGB) }
        }
        if !result.isEightBit {
            result = try result.apply("colour") { cr_vips_cast_uchar($0, $1) }
        }
        return result
    }

    static func encode(_ image: VipsImage, _ encoding: RenderRequest.Encoding) throws(ImagingError) -> RenderedImage {
        var source = image
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch encoding {
        case .jpeg(let quality):
            if source.hasAlpha { source = try source.apply("flatten") { cr_vips_flatten_white($0, $1) } }
            status = cr_vips_jpegsave_buffer(source.pointer, &buffer, &length, Int32(quality))
        case .webp(let quality):
            // Effort 0 of 6: measured here on 256-pixel thumbnails, a quarter of the default's
            // encoding time for files a fifth larger (4 KB instead of 3.3 KB).
            status = cr_vips_webpsave_buffer(source.pointer, &buffer, &length, Int32(quality), 0)
        }
        guard status == 0, let buffer else { throw VipsFailure.current(during: "encode") }
        defer { g_free(buffer) }
        var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        if case .webp = encoding { bytes = WebPContainer.strippingMetadata(bytes) }
        return RenderedImage(size: source.size, data: bytes, mimeType: encoding.mimeType)
    }
}
