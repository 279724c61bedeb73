internal import CMicroHTTPD

extension ServerCore {
    /// Opens the body file of a `.file` route; the body arrives in the calls that follow.
    func beginBody(
        of request: Request, route: Router.Route, maxBytes: Int, length: Int?, on connection: Connection, _ context: RequestContext
    ) -> MHD_Result {
        let body: BodyFile
        do {
            body = try BodyFile.create(in: configuration.bodyDirectory)
        } catch {
            return answer(storageError(error).response, on: connection, context)
        }
        context.state.withLock { state in
            state.request = request
            state.body = body
            state.phase = .receiving(route, maxBytes: maxBytes, length: length)
        }
        return .YES
    }

    /// One piece of body: onto disk, unless it makes the body too large or shows the client too
    /// slow. A client gone before the end of the length it declared ends the request here (its
    /// route may salvage what came), not when the connection times out.
    func receive(
        _ data: UnsafeRawBufferPointer, on connection: Connection, _ context: RequestContext, maxBytes: Int, length: Int?
    ) -> MHD_Result {
        var received = 0
        let failure: HTTPError? = context.state.withLock { state in
            guard let size = state.body?.size else { return HTTPError(500, "internal", "Something went wrong on the server.") }
            // Chunked bodies announce no length, so the limit is enforced as they arrive.
            guard size + data.count <= maxBytes else { return Responder.tooLarge(maxBytes) }
            do throws(BodyFile.Failure) {
                try state.body?.append(data)
            } catch {
                return storageError(error)
            }
            received = size + data.count
            let elapsed = context.elapsed
            if elapsed > configuration.minimumBodyRateGrace, .seconds(received) < elapsed * configuration.minimumBodyRate {
                return HTTPError(408, "too_slow", "The request body arrived too slowly.")
            }
            return nil
        }
        guard let failure else {
            if let length, received < length, connection.peerHasClosed { return .NO }
            return .YES
        }
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

    /// The whole body is on disk: close the file and hand it to the handler.
    func finishBody(on connection: Connection, _ context: RequestContext, handler: @escaping Router.Handler) -> MHD_Result {
        let request: Request? = context.state.withLock { state in
            guard var request = state.request, var body = state.body else { return nil }
            body.close()
            state.body = body
            request.body = RequestBody(path: body.path, size: body.size)
            return request
        }
        guard let request else { return .NO }
        return runHandler(handler, for: request, on: connection, context)
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
