import Digests
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

    /// Written lowercase, two digits a byte, and read back as they were.
    @Test func bytesAreWrittenAsTheyAreRead() {
        let bytes: [UInt8] = [0x00, 0x0F, 0xA0, 0xFF, 0x7E]
        #expect(Hex.text(bytes) == "000fa0ff7e")
        #expect(Hex.bytes(Hex.text(bytes).utf8) == bytes)
        #expect(Hex.text([UInt8]()) == "")
    }

    /// FIPS 180-2's "abc" and RFC 4231's second HMAC case.
    @Test func digestsAreTheStandardsOwn() {
        #expect(Hex.text(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.text(Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
