import Testing

@testable import CameraRollServer

/// A download's file name in any script: ASCII for old clients, RFC 5987's UTF-8 for the rest.
@Suite struct ContentDispositionTests {
    @Test func namesInAnyScriptAreEncodedAsRFC5987Says() {
        #expect(
            ContentDisposition.attachment("Café 🏖.jpg")
                == "attachment; filename=\"Caf_ _.jpg\"; filename*=UTF-8''Caf%C3%A9%20%F0%9F%8F%96.jpg")
        #expect(ContentDisposition.attachment("a\"b\\c.jpg") == "attachment; filename=\"a_b_c.jpg\"; filename*=UTF-8''a%22b%5Cc.jpg")
        #expect(ContentDisposition.attachment("del\u{7F}.jpg") == "attachment; filename=\"del_.jpg\"; filename*=UTF-8''del%7F.jpg")
        #expect(ContentDisposition.attachment("IMG_0001.JPG") == "attachment; filename=\"IMG_0001.JPG\"; filename*=UTF-8''IMG_0001.JPG")
    }
}
