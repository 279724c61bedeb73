import Testing

@testable import Imaging

@Suite struct ICCProfileTests {
    /// A minimal RGB profile with one description tag of the given type and bytes.
    func profile(space: String = "RGB ", tag: [UInt8]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 128)
        bytes.replaceSubrange(16..<20, with: Array(space.utf8))
        bytes += [0, 0, 0, 1] + Array("desc".utf8) + be32(144) + be32(tag.count)
        return bytes + tag
    }

    func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }

    func version2(_ text: String) -> [UInt8] {
        Array("desc".utf8) + [0, 0, 0, 0] + be32(text.utf8.count + 1) + Array(text.utf8) + [0]
    }

    func version4(_ text: String) -> [UInt8] {
        let units = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + [0, 0, 0, 0] + be32(1) + be32(12) + Array("enUS".utf8) + be32(units.count) + be32(28) + units
    }

    @Test func recognisesSRGBDescriptions() {
        #expect(ICCProfile.isSRGB(profile(tag: version2("sRGB IEC61966-2.1"))))
        #expect(ICCProfile.isSRGB(profile(tag: version4("sRGB built-in"))))
    }

    @Test func everythingElseIsTransformed() {
        #expect(!ICCProfile.isSRGB(profile(tag: version4("Display P3"))))
        #expect(!ICCProfile.isSRGB(profile(tag: version2("Adobe RGB (1998)"))))
        #expect(!ICCProfile.isSRGB(profile(space: "CMYK", tag: version2("sRGB lookalike"))))
        #expect(!ICCProfile.isSRGB(Array(profile(tag: version2("sRGB")).prefix(140))))
        #expect(!ICCProfile.isSRGB([]))
    }
}
