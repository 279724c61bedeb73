import TestSupport
import Testing

@testable import Imaging

/// Profiles as cameras and editors embed them, read by lcms2.
@Suite struct ICCProfileTests {
    func profile(of photo: String) throws -> [UInt8] {
        let image = try Imaging().open(ImageFile(Corpus.path(photo)))
        return try #require(image.blob("icc-profile-data"), "\(photo) has no ICC profile")
    }

    @Test(arguments: [
        "photos/androidx-media__london.jpg",  // ICC v4 "sRGB IEC61966-2.1"
        "photos/exifsamples__Canon_40D.jpg",  // HP's v2 profile
        "photos/lychee__undefined-exif-tag.jpg",  // "sRGB"
        "photos/libjpeg-turbo__monkey16.png",  // "sRGB2014"
    ])
    func recognisesSRGBProfiles(photo: String) throws {
        #expect(ICCProfile.isSRGB(try profile(of: photo)))
    }

    @Test(arguments: [
        "photos/sharp__p3.png", "photos/pillow__xmp_test.jpg", "photos/libvips__sample-xyb.jpg",
        "photos/sharp__Channel_digital_image_CMYK_color.jpg", "photos/sharp__16-bit-grey-alpha.png",
    ])
    func everythingElseIsTransformed(photo: String) throws {
        #expect(!ICCProfile.isSRGB(try profile(of: photo)))
    }

    @Test func brokenProfilesAreNotSRGB() throws {
        let srgb = try profile(of: "photos/exifsamples__Canon_40D.jpg")
        #expect(!ICCProfile.isSRGB([]))
        #expect(!ICCProfile.isSRGB(Array(srgb.prefix(140))))
        #expect(!ICCProfile.isSRGB([UInt8](repeating: 0xFF, count: 4096)))
    }
}
