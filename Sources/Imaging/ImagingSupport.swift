internal import CHeif
import Foundation

/// What the image engine can do on this machine, for `cameraroll doctor`.
public struct ImagingSupport: Sendable {
    public var libvipsVersion: String
    /// libheif's version when libvips loaded it (HEIF and AVIF need it).
    public var libheifVersion: String?
    /// Whether libheif is 1.19 or later: earlier ones refuse the HEICs of current iPhones
    /// ("Too many auxiliary image references", for their HDR gain maps).
    public var readsCurrentIPhoneHEIC: Bool
    /// libexif's version when libvips loaded it.
    public var libexifVersion: String?
    /// Whether an EXIF orientation is actually read: without libexif, libvips silently skips
    /// autorotation and portrait photos come out on their side.
    public var readsOrientation: Bool

    /// Starts libvips and checks it against a tiny JPEG stored turned (orientation 6, 3x4).
    public static func check() throws(ImagingError) -> ImagingSupport {
        try VipsRuntime.ensureStarted()
        let version = (try? VipsRuntime.started.get()) ?? "unknown"
        let libraries = loadedLibraries()
        var readsOrientation = false
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-doctor-\(UUID().uuidString).jpg").path
        if let bytes = Data(base64Encoded: orientationSample), FileManager.default.createFile(atPath: path, contents: bytes) {
            defer { try? FileManager.default.removeItem(atPath: path) }
            if let info = try? Imaging().probe(path) {
                readsOrientation = info.orientation == 6 && info.width == 4 && info.height == 3
            }
        }
        return ImagingSupport(
            libvipsVersion: version,
            libheifVersion: VipsRuntime.hasOperation("heifload") ? String(cString: heif_get_version()) : nil,
            readsCurrentIPhoneHEIC: heif_get_version_number_major() > 1 || heif_get_version_number_minor() >= 19,
            libexifVersion: libraries["libexif"], readsOrientation: readsOrientation)
    }

    /// Shared libraries mapped into this process, by name, with the version their file carries.
    private static func loadedLibraries() -> [String: String] {
        // procfs files report a size of 0, so they are read to their end rather than by size.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return [:] }
        let maps = String(decoding: data, as: UTF8.self)
        var found: [String: String] = [:]
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            let file = (path as NSString).resolvingSymlinksInPath
            let name = (file as NSString).lastPathComponent
            guard let range = name.range(of: ".so.") else { continue }
            found[String(name[..<range.lowerBound])] = String(name[range.upperBound...])
        }
        return found
    }

    private static let orientationSample =
        "/9j/4QCwRXhpZgAATU0AKgAAAAgABgESAAMAAAABAAYAAAEaAAUAAAABAAAAVgEbAAUAAAABAAAAXgEoAAMAAAABAAIAAAITAAMAAAABAAEAAIdpAAQAAAABAAAAZgAAAAAAAABIAAAAAQAAAEgAAAABAAWQAAAHAAAABDAyMTCgAAAHAAAABDAxMDCgAQADAAAAAf//AACgAgAEAAAAAQAAAAOgAwAEAAAAAQAAAAQAAAAA/9sAQwAbEhQXFBEbFxYXHhwbIChCKyglJShROj0wQmBVZWRfVV1baniZgWpxkHNbXYW1hpCeo6utq2eAvMm6pseZqKuk/9sAQwEcHh4oIyhOKytOpG5dbqSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSk/8AAEQgABAADAwEiAAIRAQMRAf/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQACEQMRAD8ArXICXDqqrgH+6KKKKpkn/9k="
}
