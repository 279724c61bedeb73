import Storage
import Testing

@Suite struct HexTests {
    @Test func digitsSpellBytesTwoAByte() {
        #expect(Hex.bytes("00ff10Ab".utf8) == [0x00, 0xFF, 0x10, 0xAB])
        #expect(Hex.bytes("".utf8) == [])
    }

    /// One spelling a byte: a sign, a space or an odd digit out is no hex.
    @Test func anythingButDigitsIsRefused() {
        for text in ["+f", "-1", " f", "0", "0g", "0x00"] { #expect(Hex.bytes(text.utf8) == nil, "\(text)") }
    }
}
