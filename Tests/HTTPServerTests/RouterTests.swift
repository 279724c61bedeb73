import Testing

@testable import HTTPServer

@Suite struct RouterTests {
    static let router: Router = {
        var router = Router()
        router.get("/photos/:id/sizes/:size") { _ in .text("") }
        router.get("/photos") { _ in .text("") }
        router.delete("/photos/:id") { _ in .text("") }
        router.get("/media/:id/thumbnail", fast: { _ in nil }) { _ in .text("") }
        return router
    }()

    func found(_ method: String, _ path: String) -> (pattern: String, parameters: [String: String])? {
        guard case .found(let route, let parameters) = Self.router.match(method: method, path: path) else { return nil }
        return (route.pattern, parameters)
    }

    @Test func bindsParametersOfTheRouteThatMatches() {
        #expect(found("GET", "/photos/a b/sizes/large")?.parameters == ["id": "a b", "size": "large"])
        #expect(found("GET", "/photos/日本/sizes/s")?.parameters == ["id": "日本", "size": "s"])
        #expect(found("GET", "/photos")?.pattern == "/photos")
        #expect(found("GET", "/media/x1/thumbnail")?.parameters == ["id": "x1"])
        #expect(found("DELETE", "/photos/9")?.parameters == ["id": "9"])
    }

    @Test func emptySegmentsDoNotCount() {
        #expect(found("GET", "//photos//7///sizes/s/")?.parameters == ["id": "7", "size": "s"])
        #expect(found("GET", "/photos/")?.pattern == "/photos")
    }

    @Test func literalsMatchWholeSegments() {
        #expect(found("GET", "/photo") == nil)
        #expect(found("GET", "/photosx") == nil)
        #expect(found("GET", "/photos/1/sizes") == nil)
        #expect(found("GET", "/photos/1/sizes/s/extra") == nil)
    }

    @Test func headIsServedByGetAndOtherMethodsAreListed() {
        #expect(found("HEAD", "/photos")?.pattern == "/photos")
        guard case .methodNotAllowed(let allowed) = Self.router.match(method: "POST", path: "/photos/3") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["DELETE"])
        guard case .methodNotAllowed(let forGet) = Self.router.match(method: "PUT", path: "/photos") else {
            Issue.record("expected 405")
            return
        }
        #expect(forGet == ["GET", "HEAD"])
        guard case .notFound = Self.router.match(method: "GET", path: "/nothing") else {
            Issue.record("expected 404")
            return
        }
    }
}
