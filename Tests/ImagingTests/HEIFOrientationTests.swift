import TestSupport
import Testing
import Vocabulary

@testable import Imaging

/// Cameras disagree about HEIF rotation; the EXIF orientation of the stored pixels decides.
@Suite struct HEIFOrientationTests {
    @Test(arguments: [
        ("photos/exifsamples__iphone_13_pro_max.HEIC", 3024, 4032),  // irot 90° CW and EXIF 6 agree
        ("photos/photoprism__iphone_7.heic", 3024, 4032),  // no irot, EXIF 6
        ("photos/exifsamples__HMD_Nokia_8.3_5G.heif", 4608, 3456),  // irot 90° CW, EXIF 1 and the pixels say landscape
        ("photos/libvips__avif-orientation-6.avif", 3024, 4032),
        ("photos/lychee__sewing-threads.heic", 4000, 3000),
        ("photos/pigallery2__IMG_0307.HEIC", 4284, 5712),  // iPhone 16 Pro Max, HDR gain map: needs libheif 1.19
    ])
    func heifPhotosComeOutUpright(file: String, width: Int, height: Int) throws {
        let imaging = try Imaging()
        let info = try imaging.probe(Corpus.path(file))
        #expect(info.width == width && info.height == height)
        let output = try imaging.render(
            Corpus.path(file), [RenderRequest(box: PixelSize(width: 400, height: 400), encoding: .jpeg(quality: 80))])
        #expect(output[0].size == FitGeometry.outputSize(of: info.size, in: PixelSize(width: 400, height: 400), fit: .contain))
    }

    @Test func theCorrectionUndoesIrotWhereEXIFDisagrees() {
        let exif6 = tiff(orientation: 6)
        let exif1 = tiff(orientation: 1)
        #expect(HEIFOrientation.exifOrientation(exif6) == 6)
        #expect(HEIFOrientation.exifOrientation(Array("Exif\u{0}\u{0}".utf8) + tiff(orientation: 3, little: false)) == 3)
        #expect(HEIFOrientation.exifOrientation([1, 2, 3]) == nil)
        // irot 3 is three quarter turns anticlockwise: one clockwise.
        let iPhone13 = HEIFOrientation.appliedTransforms(Corpus.path("photos/exifsamples__iphone_13_pro_max.HEIC"))
        #expect(iPhone13.count == 1 && iPhone13[0] == (0, -1, 1, 0))
        #expect(HEIFOrientation.appliedTransforms(Corpus.path("photos/photoprism__iphone_7.heic")).isEmpty)
        #expect(HEIFOrientation.appliedTransforms(Corpus.path("bad/libheif__github_15.heic")).isEmpty)
        #expect(HEIFOrientation.correction(path: Corpus.path("photos/exifsamples__iphone_13_pro_max.HEIC"), exif: exif6) == 1)
        #expect(HEIFOrientation.correction(path: Corpus.path("photos/photoprism__iphone_7.heic"), exif: exif6) == 6)
        #expect(HEIFOrientation.correction(path: Corpus.path("photos/exifsamples__HMD_Nokia_8.3_5G.heif"), exif: exif1) == 8)
        #expect(HEIFOrientation.correction(path: Corpus.path("photos/exifsamples__HMD_Nokia_8.3_5G.heif"), exif: nil) == 1)
    }

    private func tiff(orientation: Int, little: Bool = true) -> [UInt8] {
        func bytes(_ value: Int, _ count: Int) -> [UInt8] {
            let big = (0..<count).map { UInt8((value >> (8 * (count - 1 - $0))) & 0xFF) }
            return little ? big.reversed() : big
        }
        let header: [UInt8] = (little ? Array("II".utf8) : Array("MM".utf8)) + bytes(42, 2) + bytes(8, 4)
        return header + bytes(1, 2) + bytes(0x0112, 2) + bytes(3, 2) + bytes(1, 4) + bytes(orientation, 2) + [0, 0] + bytes(0, 4)
    }
}
