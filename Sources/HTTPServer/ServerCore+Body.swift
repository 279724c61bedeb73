internal import CMicroHTTPD

extension ServerCore {
    /// Opens the body file of a `.file` route; the body arrives in the calls that follow.
    func beginBody(
        of request: Request, route: Router.Route, maxBytes: Int, length: Int?, on connection: Connection, _ context: RequestContext
    ) -> MHD_Result {
        let body: BodyFile
        do {
            body = try BodyFile.create(in: configuration.bodyDirectory, hashing: route.body.hashesBody)
        } catch {
            logged(error)
            return answer(error.answer.response, on: connection, context)
        }
        context.lifecycle.withLock { $0.receive(request, into: body, route: route, maxBytes: maxBytes, length: length) }
        return .YES
    }

    /// One piece of body: onto disk, unless it makes the body too large or shows the client too
    /// slow. A client gone before the end of the length it declared ends the request here (its
    /// route may salvage what came), not when the connection times out.
    func receive(
        _ data: UnsafeRawBufferPointer, on connection: Connection, _ context: RequestContext, length: Int?
    ) -> MHD_Result {
        let elapsed = context.elapsed
        switch context.lifecycle.withLock({ $0.append(data, elapsed: elapsed, configuration: configuration) }) {
        case .stored(let total):
            if let length, total < length, connection.peerHasClosed { return .NO }
            return .YES
        case .refused(let failure, let disk):
            if let disk { logged(disk) }
            EarlyResponse.send(failure, on: connection)
            return .NO
        }
    }

    /// The whole body is on disk: close the file and hand it to the handler.
    func finishBody(on connection: Connection, _ context: RequestContext, handler: @escaping Router.Handler) -> MHD_Result {
        guard let request = context.lifecycle.withLock({ $0.bodyComplete() }) else { return .NO }
        return runHandler(handler, for: request, on: connection, context)
    }

    /// A full disk is the client's to retry later; anything else is ours to look into.
    private func logged(_ failure: BodyFile.Failure) {
        if !failure.isNoSpace { configuration.log("storing a request body failed: errno \(failure.code)") }
    }
}
