internal import CShims
internal import CVips
internal import Glibc
package import Vocabulary

/// How a render is resized, reached with plain pixels: what the tests compare CResize's
/// downscale with.
package enum Resizer {
    package enum Engine: Sendable {
        /// What a render uses: CResize for a downscale of pixels in memory, else libvips.
        case render
        /// libvips' own resize, always.
        case libvips
    }

    /// `pixels` (`bands` bytes a pixel, rows without padding) cut to `region` and resized to
    /// `size`; nil when libvips refuses.
    package static func resized(
        _ pixels: [UInt8], width: Int, height: Int, bands: Int, region: PixelRect? = nil, to size: PixelSize, by engine: Engine
    ) -> [UInt8]? {
        guard pixels.count == width * height * bands, let copy = malloc(max(pixels.count, 1)) else { return nil }
        pixels.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: pixels.count) }
        guard let made = cr_vips_image_from_pixels(copy.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bands), nil)
        else { return nil }
        let image = VipsImage(made)
        let area = region ?? PixelRect(size: image.size)
        let resized: VipsImage?
        switch engine {
        case .render: resized = try? Imaging.resize(image, area, to: size)
        case .libvips: resized = try? Imaging.libvipsResize(try Imaging.extract(image, area), to: size)
        }
        guard let resized, resized.size == size else { return nil }
        var length = 0
        guard let memory = vips_image_write_to_memory(resized.pointer, &length) else { return nil }
        defer { g_free(memory) }
        return Array(UnsafeRawBufferPointer(start: memory, count: length))
    }
}
