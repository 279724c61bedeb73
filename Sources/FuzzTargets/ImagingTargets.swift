import Foundation
import Imaging
import Vocabulary

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
            "apple-makernote", "a Live Photo still's content identifier: EXIF IFDs to Apple's MakerNote, read by us",
            seeds: ["photos"], maxLength: 1 << 16, seed: exifBlock
        ) { bytes in
            if let identifier = AppleMakerNote.contentIdentifier(exif: Array(bytes)) {
                require(!identifier.isEmpty && identifier.utf8.count <= 4 * 65, "an identifier is the tag's text, within its bound")
                require(!identifier.utf8.contains(0), "an identifier ends at its NUL")
            }
        },
        FuzzTarget(
            "exif-details", "a photo's lens, exposure and location: numbers and text of the EXIF and GPS IFDs, read by us",
            seeds: ["photos"], maxLength: 1 << 16, seed: exifBlock
        ) { bytes in
            let details = ExifDetails(exif: Array(bytes))
            for (number, limit) in [(details.fNumber, 1000.0), (details.exposureTime, 86_400), (details.focalLength, 10_000)] {
                require(number.map { $0.isFinite && $0 > 0 && $0 <= limit } ?? true, "a number is positive, finite and within its range")
            }
            require(details.iso.map { (1...10_000_000).contains($0) } ?? true, "an ISO is a positive whole number within its range")
            require((details.latitude == nil) == (details.longitude == nil), "a location is both coordinates or neither")
            require(details.latitude.map { $0.isFinite && abs($0) <= 90 } ?? true, "a latitude is within ±90°")
            require(details.longitude.map { $0.isFinite && abs($0) <= 180 } ?? true, "a longitude is within ±180°")
            if let lens = details.lensModel {
                require(!lens.isEmpty && lens.count <= ExifText.maxLength, "a lens's name is capped")
                require(!lens.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a lens's name has no controls")
            }
            // It crosses a process boundary as JSON, inside ImageInfo (a HEIF's decode apart).
            let json = try? JSONEncoder().encode(details)
            require(json.flatMap { try? JSONDecoder().decode(ExifDetails.self, from: $0) } == details, "the details survive JSON")
        },
        FuzzTarget(
            "motion-photo", "a Motion Photo's XMP: the length of the movie it says the file ends with, read by us",
            seeds: ["photos"], maxLength: 1 << 15,
            examples: [
                #"<x:xmpmeta><rdf:Description GCamera:MicroVideo="1" GCamera:MicroVideoOffset="4096"/></x:xmpmeta>"#,
                #"<x:xmpmeta Camera:MotionPhoto="1"><Container:Item Item:Semantic="MotionPhoto" Item:Length="28803"/></x:xmpmeta>"#,
            ]
        ) { bytes in
            let head = Array(bytes)
            if let xmp = MotionPhoto.xmpPacket(head), let length = MotionPhoto.movieLength(xmp: xmp) {
                require(length >= 0 && length < 1_000_000_000_000, "a stated length is twelve digits at most")
            }
            if let length = MotionPhoto.announcedLength(head: head, fileSize: head.count + 1) {
                require(length >= 8 && length <= head.count, "a movie fits in the file")
            }
        },
        FuzzTarget(
            "jpeg-redaction", "a JPEG's segments and EXIF IFDs, walked by us to take a pick's location and captions out",
            seeds: ["photos", "bad"], maxLength: 1 << 16
        ) { bytes in
            let original = Array(bytes)
            for removal: JPEGRedaction.Removal in [.location, .captions, [.location, .captions]] {
                guard let redacted = JPEGRedaction.redacted(original, removing: removal) else { continue }
                require(redacted.count <= original.count, "redaction only takes away")
                require(JPEGRedaction.redacted(redacted, removing: removal) == redacted, "what is redacted has nothing more to remove")
            }
        },
        FuzzTarget(
            "screenshot-mark", "an image's XMP UserComment, read by us to tell a screenshot", seeds: ["photos"], maxLength: 1 << 15,
            seed: xmpPacket,
            examples: [
                #"<x:xmpmeta><exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li></rdf:Alt></exif:UserComment></x:xmpmeta>"#,
                #"<rdf:Description exif:UserComment="Screenshot"/>"#,
            ]
        ) { bytes in
            let xmp = Array(bytes)
            let said = ScreenshotMark.isScreenshot(userComment: nil, xmp: xmp)
            require(!said || String(decoding: xmp, as: UTF8.self).contains("Screenshot"), "the mark is the word itself")
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
            "jpeg-halves", "a JPEG cut at a restart marker and decoded in two halves at once, or resized as it is decoded",
            seeds: ["photos"], maxLength: 1 << 16, seed: withRestartMarkers
        ) { bytes in
            let inMemory = JPEGDecoder.lowerHalf(of: Array(bytes))
            for piece in [1, 7, 4096] {
                let pieces = JPEGDecoder.lowerHalf(of: Array(bytes), inPiecesOf: piece)
                let same = pieces?.rowsBefore == inMemory?.rowsBefore && pieces?.jpeg == inMemory?.jpeg
                require(same, "a plan read in pieces is the one read whole")
            }
            if let (rows, lower) = inMemory {
                require(rows > 0 && lower.count < bytes.count, "the lower half is a part of the file")
                for length in [4, bytes.count / 3, bytes.count] {
                    require(JPEGDecoder.mayBeCut(start: Array(bytes.prefix(length))), "no start of a file that is cut rules the cut out")
                }
            }
            withFile(bytes, suffix: ".jpg") { path in
                let halves = JPEGDecoder.pixels(path, shrink: 8, halvesFrom: 1, maxPixels: 16_000_000)
                let whole = JPEGDecoder.pixels(path, shrink: 8, halvesFrom: 0, maxPixels: 16_000_000)
                if !halves.pixels.isEmpty && !whole.pixels.isEmpty {
                    require(halves.width == whole.width && halves.height == whole.height, "both ways decode the same picture")
                }
                // Resized on a second thread as the rows come, which damage may stop at any row.
                let size = PixelSize(width: max(whole.width / 2, 1), height: max(whole.height / 3, 1))
                for (halvesFrom, streamedFrom) in [(0, 0), (1, 0), (1, Int.max)] {
                    let resized = JPEGDecoder.pixels(
                        path, shrink: 8, halvesFrom: halvesFrom, maxPixels: 16_000_000, resizedTo: size, halvesStreamedFrom: streamedFrom)
                    if !resized.pixels.isEmpty && !whole.pixels.isEmpty {
                        require(resized.width == size.width && resized.height == size.height, "the decode comes resized")
                    }
                }
            }
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

@Sendable private func xmpPacket(_ path: String) -> [UInt8]? { imaging?.metadataBlock("xmp-data", of: path) }

@Sendable private func iccProfile(_ path: String) -> [UInt8]? { imaging?.metadataBlock("icc-profile-data", of: path) }

/// The photo made small, with restart markers every four MCUs: the corpus' photos with markers
/// are megabytes, and their first 64 KB (what the fuzzer takes) have no end to cut them at.
@Sendable private func withRestartMarkers(_ path: String) async -> [UInt8]? {
    await seedTool("/usr/bin/vips", ["thumbnail", path, ".jpg[Q=60,restart-interval=4,strip]", "200"])
}
