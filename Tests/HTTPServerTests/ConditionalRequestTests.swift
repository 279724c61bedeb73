import Testing

@testable import HTTPServer

@Suite struct ConditionalRequestTests {
    let etag = "\"v1\""
    let date = "Wed, 21 Oct 2015 07:28:00 GMT"

    @Test func ifNoneMatchComparesWeakly() {
        #expect(ConditionalRequest(ifNoneMatch: "\"v1\"").isNotModified(etag: etag, lastModified: nil))
        #expect(ConditionalRequest(ifNoneMatch: "\"v0\", W/\"v1\"").isNotModified(etag: etag, lastModified: nil))
        #expect(ConditionalRequest(ifNoneMatch: "*").isNotModified(etag: etag, lastModified: nil))
        #expect(!ConditionalRequest(ifNoneMatch: "\"v2\"").isNotModified(etag: etag, lastModified: nil))
        #expect(!ConditionalRequest(ifNoneMatch: "*").isNotModified(etag: nil, lastModified: date))
    }

    @Test func ifModifiedSinceCountsOnlyWithoutIfNoneMatch() {
        #expect(ConditionalRequest(ifModifiedSince: date).isNotModified(etag: etag, lastModified: date))
        #expect(!ConditionalRequest(ifModifiedSince: "Thu, 22 Oct 2015 07:28:00 GMT").isNotModified(etag: etag, lastModified: date))
        #expect(!ConditionalRequest(ifNoneMatch: "\"v2\"", ifModifiedSince: date).isNotModified(etag: etag, lastModified: date))
        #expect(!ConditionalRequest().isNotModified(etag: etag, lastModified: date))
    }

    @Test func ifRangeNeedsTheCurrentStrongTagOrDate() {
        #expect(ConditionalRequest().allowsRange(etag: etag, lastModified: date))
        #expect(ConditionalRequest(ifRange: "\"v1\"").allowsRange(etag: etag, lastModified: date))
        #expect(ConditionalRequest(ifRange: date).allowsRange(etag: etag, lastModified: date))
        #expect(!ConditionalRequest(ifRange: "\"v0\"").allowsRange(etag: etag, lastModified: date))
        #expect(!ConditionalRequest(ifRange: "W/\"v1\"").allowsRange(etag: "W/\"v1\"", lastModified: nil))
    }
}
