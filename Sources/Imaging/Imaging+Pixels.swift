internal import CShims
internal import CVips
public import Vocabulary

extension Imaging {
    /// The upright image, fitted to `box`, as 8-bit sRGB pixels without alpha (3 bytes a pixel,
    /// row by row). This is how a rendered output is compared with what it should show.
    public func pixels(of path: String, fittedTo box: PixelSize) throws(ImagingError) -> (size: PixelSize, rgb: [UInt8]) {
        let file = try ImageFile(path)
        return try decoding(file) { () throws(ImagingError) -> (size: PixelSize, rgb: [UInt8]) in
            try pixelsUnchecked(of: file, fittedTo: box)
        }
    }

    private func pixelsUnchecked(of file: ImageFile, fittedTo box: PixelSize) throws(ImagingError) -> (size: PixelSize, rgb: [UInt8]) {
        let header = try open(file)
        let orientation = self.orientation(of: header, format: file.format, path: file.path)
        let plan = try Plan(RenderRequest(box: box, encoding: .jpeg(quality: 100)), source: Self.uprightSize(header.size, orientation))
        var image = try Self.toSRGB(try Self.resize(try Self.upright(header, orientation), to: plan.output))
        if image.hasAlpha { image = try image.apply("flatten") { cr_vips_flatten_white($0, $1) } }
        var length = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &length) else {
            throw VipsFailure.current(during: "decode")
        }
        defer { g_free(memory) }
        return (image.size, Array(UnsafeRawBufferPointer(start: memory, count: length)))
    }
}
