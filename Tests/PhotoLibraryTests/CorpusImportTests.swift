import Foundation
import Imaging
import PhotoLibrary
import TestSupport
import Testing
import Vocabulary

/// Every decodable photo and every video must import.
let importablePhotos = Corpus.decodablePhotos
let importableVideos = Corpus.files(in: "videos")

@Suite struct CorpusImportTests {
    @Test func theCorpusIsThere() {
        #expect(importablePhotos.count > 80)
        #expect(importableVideos.count > 25)
    }

    @Test(arguments: importablePhotos)
    func everyDecodablePhotoImports(file: String) async throws {
        let fixture = try LibraryFixture()
        let result = try await fixture.importCorpus(file)
        let asset = result.asset
        #expect(!result.isDuplicate)
        #expect(asset.mediaType == .image)
        #expect(asset.width > 0 && asset.height > 0)
        #expect(asset.byteSize == (try FileManager.default.attributesOfItem(atPath: Corpus.path(file))[.size] as? Int))
        #expect(asset.blobHash == Corpus.entries()[file]?.sha256)
        #expect(asset.source == .imported)
        #expect(asset.originalFilename == (file as NSString).lastPathComponent)
        let thumbnail = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 256, owner: .first)
        #expect(max(thumbnail.size?.width ?? 0, thumbnail.size?.height ?? 0) == min(256, max(asset.width, asset.height)))
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))
    }

    @Test(arguments: importableVideos)
    func everyVideoImports(file: String) async throws {
        let fixture = try LibraryFixture()
        let asset = try await fixture.importCorpus(file).asset
        #expect(asset.mediaType == .movie)
        #expect((asset.duration ?? 0) > 0)
        #expect(asset.width > 0 && asset.height > 0)
        let poster = try await fixture.library.derivatives.poster(of: asset.id, owner: .first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster.path)).starts(with: [0xFF, 0xD8]))
        let thumbnail = try await fixture.library.derivatives.thumbnail(of: asset.id, size: 512, owner: .first)
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))
    }

    @Test func rotatedVideosAreMeasuredUpright() async throws {
        let fixture = try LibraryFixture()
        let portrait = try await fixture.importCorpus("videos/androidx-media__portrait_4k60.mp4").asset
        #expect(portrait.width == 2160 && portrait.height == 3840)
        let display = try await fixture.library.derivatives.display(of: portrait.id, box: PixelSize(width: 400, height: 400), owner: .first)
        #expect(display.size == PixelSize(width: 225, height: 400))
    }

    /// What each file of bad/ must come to: refused with this code, or (nil) imported because it
    /// is a valid file whose harm is only in its metadata or its name.
    static let badExpectations: [String: String?] = [
        "androidx-media__black_large.webp": nil,  // 144 Mpx is under the 200 Mpx limit
        "androidx-media__invalid-bitstream.webm": "corrupt",
        "androidx-media__sample_malformed_free_box.mp4": "corrupt",
        "androidx-media__sample_mdat_too_long.mp4": nil,  // ffmpeg plays it
        "androidx-media__sample_missing_stsd.mp4": nil,  // its video track is fine
        "exifsamples__corrupted.jpg": "corrupt",  // its end is there; the scan data is damaged
        "exifsamples__image00971.jpg": nil,
        "libheif__clusterfuzz-testcase-minimized-file-fuzzer-5752063708495872.heic": "corrupt",
        "libheif__github_15.heic": "unsupported_type",
        "libjpeg-turbo__monkey12.jpg": "corrupt",
        "libpng__badadler.png": nil,
        "libpng__badcrc.png": "corrupt",
        "libpng__huge_IDAT.png": "truncated",  // the IDAT it declares runs past the end
        "libvips__17000x17000.avif": "too_large",
        "libvips__invalid_multiframe.gif": nil,  // the first frame is whole
        "libvips__looks-like-svg.webp": nil,
        "libvips__truncated.gif": "truncated",
        "mp4parse__bug-1655846.avif": "truncated",  // its last box runs past the end
        "mp4parse__chunk_out_of_range.mp4": "corrupt",
        "mp4parse__test_case_1185230.mp4": "corrupt",
        "mp4parse__zero_empty_stsc.mp4": "corrupt",
        "payloads__CVE-2021-22204_exiftool_echo.jpg": "unsupported_type",
        "payloads__SVG_XSS1.svg": "unsupported_type",
        "payloads__SVG_XSS_green_triangle.svg": "unsupported_type",
        "payloads__convert_local_etc_passwd.svg": "unsupported_type",
        "payloads__imagemagick_CVE-2022-44268_convert_etc_passwd.png": nil,
        "payloads__payload_in_all_known_metadata.jpg": nil,
        "payloads__read_passwd.avi": "corrupt",
        "payloads__read_passwd_bypass.mp4": "corrupt",
        "payloads__ssrf_ffmpeg.avi": "unsupported_type",
        "payloads__ssrf_svg_image.svg": "unsupported_type",
        "photoprism__broken.jpg": "truncated",
        "photoprism__empty.jpg": "empty",
        "photoprism__quicktime-jpeg.mov": "corrupt",
        "photoprism__this-is-a-jpeg.png": nil,
        "photoprism__wrong.heic": nil,
        "pigallery2__corrupted_city.JPG": "corrupt",
        "pigallery2__imageSizeError.jpg": "truncated",
        "pillow__broken.png": "corrupt",
        "pillow__decompression_bomb.gif": "truncated",
        "pillow__hopper_bad_exif.jpg": "corrupt",  // bad Huffman codes: libvips shows bands of noise
        "pillow__invalid-exif.jpg": nil,
        "pillow__junk_jpeg_header.jpg": nil,
        "pillow__png_decompression_dos.png": nil,
        "pillow__truncated_image.png": "truncated",
        "pillow__truncated_jpeg.jpg": "truncated",
        "pillow__unknown_compression_method.png": "corrupt",  // its iCCP chunk fails its CRC
        "pillow__zero_width.gif": "truncated",
        "sharp__65536-uint32-limit.png": "too_large",
        "sharp__corrupt-header.jpg": "corrupt",
        "sharp__giant-image.jpg": "too_large",
        "sharp__testimgl.jpg": "corrupt",
        "sharp__truncated.jpg": "truncated",
    ]

    @Test func everyBadFileHasAnExpectation() {
        let names = Set(Corpus.files(in: "bad").map { ($0 as NSString).lastPathComponent })
        #expect(names == Set(Self.badExpectations.keys))
    }

    @Test(arguments: Corpus.files(in: "bad"))
    func badFilesAreRefusedCleanlyOrKeptInert(file: String) async throws {
        let fixture = try LibraryFixture()
        let name = (file as NSString).lastPathComponent
        let expected = try #require(Self.badExpectations[name])
        do throws(LibraryError) {
            let asset = try await fixture.importCorpus(file).asset
            #expect(expected == nil, "\(name) was imported; expected \(expected ?? "")")
            // Hostile metadata is data: kept as text, never interpreted.
            if let make = asset.cameraMake { #expect(!make.unicodeScalars.contains { $0.properties.generalCategory == .control }) }
        } catch {
            #expect(error.code.description == expected, "\(name): \(error)")
            #expect(!error.message.contains("/"), "\(name): the message shows a path: \(error.message)")
            #expect(try await fixture.library.catalog.count(.photoLibrary, owner: .first) == 0)
            #expect(fixture.files(in: "blobs").isEmpty, "\(name) left a blob")
        }
        #expect(fixture.workFiles.isEmpty, "\(name) left a temp file")
    }
}
