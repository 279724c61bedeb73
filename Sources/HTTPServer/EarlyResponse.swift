internal import CMicroHTTPD

/// An error answer written to the client while the request body is still arriving.
///
/// libmicrohttpd 0.9.75 accepts `MHD_queue_response` only right after the headers and after the
/// whole body, never in between, so a body we stop reading halfway (too large, too slow, disk
/// full) could otherwise end only in a bare disconnect. The caller returns `MHD_NO` right after,
/// and MHD closes the connection; until then MHD itself writes nothing while it reads a body.
enum EarlyResponse {
    static func send(_ error: HTTPError, on connection: Connection) {
        // A few hundred bytes fit in any socket buffer; if not, the client gets a cut answer
        // followed by the close, which it would have got anyway.
        connection.sendEarly(message(for: error))
    }

    static func message(for error: HTTPError) -> [UInt8] {
        let body = error.jsonBody
        let reason = MHD_get_reason_phrase_for(UInt32(error.status)).map { String(cString: $0) } ?? ""
        let head =
            "HTTP/1.1 \(error.status) \(reason)\r\n" + "Content-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\n" + "X-Content-Type-Options: nosniff\r\n" + "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
