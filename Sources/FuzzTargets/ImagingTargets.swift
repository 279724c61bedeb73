import Imaging

extension FuzzTarget {
    static let imagingTargets: [FuzzTarget] = [
        FuzzTarget("image-format", "the magic bytes that pick an image loader", seeds: ["photos", "bad"], maxLength: 64) { bytes in
            let format = ImageFormat.sniff(bytes)
            require(ImageFormat.sniff(bytes.prefix(ImageFormat.sniffLength)) == format, "sniffing reads only the first bytes")
        },
        FuzzTarget(
            "file-structure", "PNG chunks and CRCs, GIF blocks, WebP chunks (libwebpdemux), ISO boxes", seeds: ["photos", "bad"],
            maxLength: 1 << 16
        ) { bytes in
            let file = ByteReader(bytes)
            for format in [ImageFormat.png, .gif, .webp, .heif] { _ = FileStructure.problem(in: file, format) }
        },
        FuzzTarget(
            "exif-orientation", "the EXIF orientation tag, read by libexif", seeds: ["photos"], maxLength: 1 << 16,
            seed: exifBlock
        ) { bytes in
            if let orientation = HEIFOrientation.exifOrientation(Array(bytes)) {
                require(orientation >= 0 && orientation <= 0xFFFF, "an orientation is a 16-bit value")
            }
        },
        FuzzTarget(
            "exif-text", "EXIF values as libexif renders them: text and dates",
            examples: [
                "2008:05:30 15:56:01 (2008:05:30 15:56:01, ASCII, 20 components, 20 bytes)\u{0}+02:00 (+02:00, ASCII, 7 components, 7 bytes)"
            ]
        ) { bytes in
            let parts = text(bytes).split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            if let value = ExifText.value(parts[0]) {
                require(value.count <= ExifText.maxLength, "values are capped")
                require(!value.unicodeScalars.contains { $0.properties.generalCategory == .control }, "values hold no control characters")
            }
            if let date = ExifText.date(parts[0], offset: parts.count > 1 ? parts[1] : nil) {
                require(date.count == 19 || date.count == 25, "dates are ISO 8601, with an offset or without")
            }
        },
        FuzzTarget(
            "icc-profile", "an embedded ICC profile's colour space and description, read by lcms2", seeds: ["photos"],
            maxLength: 1 << 16, seed: iccProfile
        ) { bytes in
            _ = ICCProfile.isSRGB(Array(bytes))
        },
        FuzzTarget("webp-container", "WebP chunks rewritten by libwebpmux", seeds: ["photos", "bad"], maxLength: 1 << 15) { bytes in
            let original = Array(bytes)
            let stripped = WebPContainer.strippingMetadata(original)
            if stripped != original {
                ByteReader.reading(stripped) { require(!WebPContainer.isTruncated($0), "a rebuilt container is whole") }
            }
        },
        FuzzTarget("heif-transforms", "the irot and imir transforms libheif applies", seeds: ["photos", "bad"], maxLength: 1 << 15) {
            bytes in
            // libheif sees what the server gives it: files sniffed as HEIF or AVIF, whose structure holds.
            guard let format = ImageFormat.sniff(bytes), format == .heif || format == .avif,
                FileStructure.problem(in: ByteReader(bytes), format) == nil
            else { return }
            withFile(bytes, suffix: ".heic") { path in
                require(HEIFOrientation.appliedTransforms(path).count <= 64, "libheif lists what the file holds")
                require((1...8).contains(HEIFOrientation.correction(path: path, exif: nil)), "a correction is an orientation")
            }
        },
        FuzzTarget("jpeg-decoder", "libjpeg-turbo's decode and our reading of its messages", seeds: ["photos", "bad"], maxLength: 1 << 15) {
            bytes in
            withFile(bytes, suffix: ".jpg") { path in _ = JPEGDecoder.damage(path, maxPixels: 16_000_000) }
        },
        FuzzTarget(
            "image-import", "an upload's whole way through Imaging: sniff, structure, probe, the import's render",
            seeds: ["photos", "bad"], maxLength: 1 << 15
        ) { bytes in
            guard let imaging else { return }
            withFile(bytes, suffix: ".upload") { path in
                guard (try? imaging.checkStructure(path)) != nil, let info = try? imaging.probe(path) else { return }
                let box = PixelSize(width: 128, height: 128)
                for damage in [DamagePolicy.refuseDamage, .refuseTruncation] {
                    guard let outputs = try? imaging.render(path, [RenderRequest(box: box, encoding: .webp(quality: 50))], damage: damage)
                    else { continue }
                    require(outputs[0].size == FitGeometry.outputSize(of: info.size, in: box, fit: .contain), "renders are exact")
                }
            }
        },
    ]
}

/// A small pixel limit keeps each run quick: what the fuzzer is after is the parsing.
private let imaging = try? Imaging(maxPixels: 16_000_000)

@Sendable private func exifBlock(_ path: String) -> [UInt8]? { imaging?.metadataBlock("exif-data", of: path) }

@Sendable private func iccProfile(_ path: String) -> [UInt8]? { imaging?.metadataBlock("icc-profile-data", of: path) }
