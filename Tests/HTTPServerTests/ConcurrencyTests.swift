import HTTPServer
import TestSupport
import Testing

/// Many requests at once to handlers that answer at once, so a handler's task often finishes
/// while libmicrohttpd is still inside the call that suspended its connection. Every request must
/// get its own answer, on connections kept alive, pipelined, or opened for one request.
@Suite struct ConcurrencyTests {
    static let clients = 20
    static let requestsPerClient = 25

    enum Style: CaseIterable {
        case keptAlive
        case pipelined
        case connectionPerRequest
    }

    static func router() -> Router {
        var router = Router()
        router.get("/quick/:n") { request in .text(request.parameter("n")) }
        // Odd numbers are left to the async handler, so both paths share connections.
        let echo: Router.Handler = { request in .text(request.parameter("n")) }
        let evenOnly: Router.FastHandler = { request in
            (Int(request.parameter("n").split(separator: "-").last ?? "") ?? 0).isMultiple(of: 2) ? .text(request.parameter("n")) : nil
        }
        router.get("/mixed/:n", fast: evenOnly, echo)
        return router
    }

    /// The bodies that came back for one client's requests, in order; "" for a request that got
    /// no reply, "<status>" for one that got another status than 200.
    static func run(_ style: Style, client: Int, prefix: String, port: Int) async throws -> [String] {
        let targets = (0..<requestsPerClient).map { "/\(prefix)/\(client)-\($0)" }
        let describe = { (reply: HTTPReply?) -> String in
            guard let reply else { return "" }
            return reply.status == 200 ? reply.text : "<\(reply.status)>"
        }
        switch style {
        case .keptAlive:
            let connection = try await RawConnection.open(port: port)
            var bodies: [String] = []
            for target in targets {
                await connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                bodies.append(describe(await connection.readReply()))
            }
            return bodies
        case .pipelined:
            let connection = try await RawConnection.open(port: port)
            await connection.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            var bodies: [String] = []
            for _ in targets { bodies.append(describe(await connection.readReply())) }
            return bodies
        case .connectionPerRequest:
            var bodies: [String] = []
            for target in targets {
                let connection = try await RawConnection.open(port: port)
                await connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                bodies.append(describe(HTTPReply(await connection.readToEnd())))
            }
            return bodies
        }
    }

    @Test(.timeLimit(.minutes(5)), arguments: ["quick", "mixed"])
    func quickHandlersAnswerEveryRequest(prefix: String) async throws {
        let live = try LiveServer(router: Self.router())
        let answers = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for client in 0..<Self.clients {
                let style = Style.allCases[client % Style.allCases.count]
                group.addTask { (client, try await Self.run(style, client: client, prefix: prefix, port: live.port)) }
            }
            return try await group.reduce(into: [Int: [String]]()) { $0[$1.0] = $1.1 }
        }
        for client in 0..<Self.clients {
            let expected = (0..<Self.requestsPerClient).map { "\(client)-\($0)" }
            #expect(answers[client] == expected, "client \(client), \(Style.allCases[client % Style.allCases.count])")
        }
        let total = Self.clients * Self.requestsPerClient
        #expect(await eventually { live.log.all.count == total })
        #expect(live.log.all.allSatisfy { $0.hasPrefix("GET /\(prefix)/") && $0.contains(" 200 ") })
        await live.stop()
    }
}
