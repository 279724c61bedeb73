internal import CMicroHTTPD

extension ServerCore {
    /// A `.file` route's body arrives in the calls that follow; its file is made by the disk threads.
    func beginBody(of request: Request, route: Router.Route, maxBytes: Int, length: Int?, _ context: RequestContext) {
        let body = BodyWriter(directory: configuration.bodyDirectory, disk: disk, backlog: configuration.bodyBacklog)
        context.state.withLock { state in
            state.request = request
            state.body = body
            state.phase = .receiving(route, maxBytes: maxBytes, length: length)
        }
    }

    /// One piece of body: to the disk threads, unless it makes the body too large or shows the
    /// client too slow.
    /// A client gone before the end of the length it declared ends the request here (its route
    /// may salvage what came), not when the connection times out.
    func receive(
        _ data: UnsafeRawBufferPointer, on connection: Connection, _ context: RequestContext, maxBytes: Int, length: Int?
    ) -> MHD_Result {
        guard let body = context.state.withLock({ $0.body }) else { return .NO }
        let size = body.received + data.count
        var failure: HTTPError?
        let elapsed = context.elapsed
        if size > maxBytes {
            // Chunked bodies announce no length, so the limit is enforced as they arrive.
            failure = Self.tooLarge(maxBytes)
        } else if elapsed > configuration.minimumBodyRateGrace, .seconds(size) < elapsed * configuration.minimumBodyRate {
            failure = HTTPError(408, "too_slow", "The request body arrived too slowly.")
        } else {
            switch body.take(data) {
            case .failed(let error): failure = storageError(error)
            case .queued:
                if let length, size < length, connection.peerHasClosed { return .NO }
            }
        }
        guard let failure else { return .YES }
        context.state.withLock { state in
            state.body?.discard()
            state.body = nil
            state.phase = .answered
            state.status = failure.status
            state.bodyBytes = failure.jsonBody.count
        }
        EarlyResponse.send(failure, on: connection)
        return .NO
    }

    /// The whole body has arrived: the handler runs once it is all on disk.
    func finishBody(on connection: Connection, _ context: RequestContext, handler: @escaping Router.Handler) -> MHD_Result {
        guard let (request, body) = context.state.withLock({ state in state.request.flatMap { r in state.body.map { (r, $0) } } })
        else { return .NO }
        return runHandler(
            { [self] request in
                var request = request
                do throws(BodyFile.Failure) {
                    request.body = try await body.finish()
                } catch {
                    throw storageError(error)
                }
                return try await handler(request)
            }, for: request, on: connection, context)
    }

    /// A full disk is the client's to retry later (507); anything else is ours to look into.
    private func storageError(_ failure: BodyFile.Failure) -> HTTPError {
        if failure.isNoSpace {
            return HTTPError(507, "no_space", "The server has no room for this upload right now.")
        }
        configuration.log("storing a request body failed: errno \(failure.code)")
        return HTTPError(500, "internal", "Something went wrong on the server.")
    }
}
