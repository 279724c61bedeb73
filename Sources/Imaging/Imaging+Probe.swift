extension Imaging {
    /// Reads what an image is from its header: format, displayed size, orientation and the
    /// metadata a library lists. Pixels are not decoded.
    public func probe(_ path: String) throws(ImagingError) -> ImageInfo {
        try probe(ImageFile(path))
    }

    public func probe(_ file: ImageFile) throws(ImagingError) -> ImageInfo {
        try decoding(file) { () throws(ImagingError) -> ImageInfo in try probeUnchecked(file) }
    }

    private func probeUnchecked(_ file: ImageFile) throws(ImagingError) -> ImageInfo {
        let (format, image) = (file.format, try open(file))
        let orientation = self.orientation(of: image, format: format, path: file.path)
        let upright = Self.uprightSize(image.size, orientation)
        let fields = image.fieldNames
        let exif = image.blob("exif-data")
        return ImageInfo(
            format: format,
            width: upright.width,
            height: upright.height,
            orientation: orientation,
            captureDate: ExifText.date(
                image.string("exif-ifd2-DateTimeOriginal") ?? image.string("exif-ifd0-DateTime"),
                offset: image.string("exif-ifd2-OffsetTimeOriginal")),
            cameraMake: ExifText.value(image.string("exif-ifd0-Make")),
            cameraModel: ExifText.value(image.string("exif-ifd0-Model")),
            hasGPS: fields.contains { $0.hasPrefix("exif-ifd3-GPSLatitude") || $0.hasPrefix("exif-ifd3-GPSLongitude") },
            hasICCProfile: image.has("icc-profile-data"),
            hasAlpha: image.hasAlpha,
            pageCount: max(1, image.pageCount),
            contentIdentifier: exif.flatMap(AppleMakerNote.contentIdentifier),
            isScreenshot: ScreenshotMark.isScreenshot(userComment: image.string("exif-ifd2-UserComment"), xmp: image.blob("xmp-data")),
            exif: exif.map(ExifDetails.init(exif:)) ?? ExifDetails())
    }
}

extension Imaging {
    /// A metadata block of the file as its loader gives it (`exif-data`, `icc-profile-data`):
    /// what the fuzz targets of the EXIF and ICC readers are seeded with.
    package func metadataBlock(_ field: String, of path: String) -> [UInt8]? {
        (try? open(ImageFile(path)))?.blob(field)
    }
}
