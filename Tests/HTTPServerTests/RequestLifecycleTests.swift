import Foundation
import TestSupport
import Testing

@testable import HTTPServer

/// The request's phases as the server walks them, without libmicrohttpd: the connection is a
/// number, and what the lifecycle hands back to resume is checked against it.
@Suite struct RequestLifecycleTests {
    typealias Lifecycle = RequestLifecycle<Int>

    static let routes: (plain: Router.Route, piece: Router.Route, upload: Router.Route) = {
        var router = Router()
        router.get("/plain") { _ in .text("handled") }
        router.add("PATCH", "/piece", body: .file(maxBytes: 8), handler: { _ in .text("") }, salvage: { _ in })
        router.add("POST", "/upload", body: .file(maxBytes: 8)) { _ in .text("") }
        return (router.routes[0], router.routes[1], router.routes[2])
    }()

    /// A step the lifecycle did not take.
    struct Failed: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// After 10 s, a body slower than 100 bytes a second is refused.
    static let configuration = {
        var configuration = Configuration(bodyDirectory: "/nonexistent")
        configuration.minimumBodyRateGrace = .seconds(10)
        configuration.minimumBodyRate = 100
        return configuration
    }()

    func append(_ bytes: String, to lifecycle: inout Lifecycle, elapsed: Duration = .seconds(1)) -> Lifecycle.Received {
        Array(bytes.utf8).withUnsafeBytes { lifecycle.append($0, elapsed: elapsed, configuration: Self.configuration) }
    }

    /// A lifecycle whose body streams into a new file in `directory`.
    func receiving(_ route: Router.Route, in directory: TemporaryDirectory) throws -> (Lifecycle, path: String) {
        var lifecycle = Lifecycle()
        lifecycle.headed(method: route.method, headers: Headers())
        let body = try BodyFile.create(in: directory.path, hashing: route.body.hashesBody)
        lifecycle.receive(Request(method: route.method, path: route.pattern), into: body, route: route, maxBytes: 8, length: nil)
        return (lifecycle, body.path)
    }

    @Test func aRequestWithoutBodyIsHandledWhileSuspendedAndAnsweredOnResume() throws {
        var lifecycle = Lifecycle()
        guard case .start = lifecycle.called() else { throw Failed("a new request starts") }
        lifecycle.headed(method: "GET", headers: Headers())
        lifecycle.accept(Self.routes.plain, Request(method: "GET", path: "/plain"))
        guard case .handle(let route, let request) = lifecycle.called() else { throw Failed("an accepted request is handled") }
        #expect(route === Self.routes.plain && request.path == "/plain")

        lifecycle.suspend(7)
        guard case .none = lifecycle.called() else { throw Failed("a suspended connection is not served") }
        #expect(lifecycle.handlerOfClientGone { _ in false } == nil)
        #expect(lifecycle.deliver(.text("first")) == 7)
        // A stop that answers after the handler did finds the request answered already.
        #expect(lifecycle.deliver(.text("second")) == nil)
        guard case .answer(let response) = lifecycle.called(), case .bytes(let body) = response.body else {
            throw Failed("the handler's answer is queued on the next call")
        }
        #expect(String(decoding: body, as: UTF8.self) == "first")

        lifecycle.answered(status: 200, bodyBytes: 5)
        guard case .none = lifecycle.called() else { throw Failed("a queued response ends the calls") }
        let completion = lifecycle.complete(stopping: false)
        #expect(completion.method == "GET" && completion.status == 200 && completion.bodyBytes == 5)
        #expect(completion.wasKept && completion.salvage == nil && lifecycle.isFinished)
        #expect(lifecycle.deliver(.text("late")) == nil)
    }

    @Test func aRefusalWaitsForTheNextCallAndIsNotKept() throws {
        var lifecycle = Lifecycle()
        lifecycle.refuseLater(HTTPError(403, "forbidden", "No.").response)
        guard case .answer(let response) = lifecycle.called() else { throw Failed("the refusal is answered on the next call") }
        #expect(response.status == 403)
        lifecycle.answered(status: 403, bodyBytes: nil)
        let completion = lifecycle.complete(stopping: false)
        #expect(!completion.wasKept && completion.status == 403)
    }

    @Test func onlyAHandlerWhoseClientHasGoneIsCancelled() throws {
        var lifecycle = Lifecycle()
        let task = Task<Void, Never> {}
        lifecycle.suspend(3)
        lifecycle.handling(in: task)
        #expect(lifecycle.handlerOfClientGone { $0 == 4 } == nil)
        #expect(lifecycle.handlerOfClientGone { $0 == 3 } == task)
        _ = lifecycle.deliver(.text(""))
        // Answered: nothing left to cancel, whatever the connection says.
        #expect(lifecycle.handlerOfClientGone { _ in true } == nil)
    }

    @Test func aCompleteBodyIsHandedToTheHandlerAsTheRequestsBody() throws {
        let directory = TemporaryDirectory("lifecycle")
        var (lifecycle, path) = try receiving(Self.routes.upload, in: directory)
        guard case .receive(let route, nil) = lifecycle.called() else { throw Failed("a body is received") }
        #expect(route === Self.routes.upload)
        guard case .stored(4) = append("abcd", to: &lifecycle), case .stored(8) = append("efgh", to: &lifecycle) else {
            throw Failed("pieces within the limit are stored")
        }
        let completed = lifecycle.bodyComplete()
        let request = try #require(completed)
        #expect(request.body?.path == path && request.body?.size == 8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abcdefgh")
        lifecycle.suspend(1)
        _ = lifecycle.deliver(.text(""))
        lifecycle.answered(status: 201, bodyBytes: 0)
        #expect(lifecycle.complete(stopping: false).salvage == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aBodyBeyondItsLimitIsRefusedAndItsFileRemoved() throws {
        let directory = TemporaryDirectory("lifecycle")
        var (lifecycle, path) = try receiving(Self.routes.upload, in: directory)
        _ = append("abcde", to: &lifecycle)
        guard case .refused(let failure, nil) = append("fghi", to: &lifecycle) else { throw Failed("nine bytes of eight are refused") }
        #expect(failure.status == 413 && !FileManager.default.fileExists(atPath: path))
        guard case .none = lifecycle.called() else { throw Failed("a refused body ends the calls") }
        let completion = lifecycle.complete(stopping: false)
        #expect(completion.status == 413 && completion.bodyBytes == failure.jsonBody.count)
    }

    @Test func aBodyArrivingTooSlowlyIsRefusedOnlyAfterTheGrace() throws {
        let directory = TemporaryDirectory("lifecycle")
        var (lifecycle, _) = try receiving(Self.routes.upload, in: directory)
        guard case .stored = append("a", to: &lifecycle, elapsed: .seconds(9)) else { throw Failed("within the grace any rate goes") }
        guard case .refused(let failure, _) = append("b", to: &lifecycle, elapsed: .seconds(11)) else {
            throw Failed("two bytes in eleven seconds are refused")
        }
        #expect(failure.status == 408 && failure.code == "too_slow")
    }

    @Test func aBodyCutShortGoesToItsRoutesSalvageUnlessTheServerIsStopping() throws {
        let directory = TemporaryDirectory("lifecycle")
        var (salvaged, path) = try receiving(Self.routes.piece, in: directory)
        _ = append("abc", to: &salvaged)
        let completion = salvaged.complete(stopping: false)
        let (_, request, body) = try #require(completion.salvage)
        #expect(request.body?.path == path && request.body?.size == 3 && body.path == path)
        #expect(FileManager.default.fileExists(atPath: path), "the salvage reads the file before it is discarded")

        var (stopping, stoppingPath) = try receiving(Self.routes.piece, in: directory)
        _ = append("abc", to: &stopping)
        #expect(stopping.complete(stopping: true).salvage == nil && !FileManager.default.fileExists(atPath: stoppingPath))

        var (noSalvage, noSalvagePath) = try receiving(Self.routes.upload, in: directory)
        _ = append("abc", to: &noSalvage)
        #expect(noSalvage.complete(stopping: false).salvage == nil && !FileManager.default.fileExists(atPath: noSalvagePath))
    }
}
