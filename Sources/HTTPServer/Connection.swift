internal import CMicroHTTPD
internal import CMicroHTTPDShims
import IPAddress

/// One libmicrohttpd connection, as the access handler and the completion callback see it.
/// Valid only between those calls, or while the connection is suspended.
///
/// Sendable because one call crosses threads: `resume`, which libmicrohttpd allows from any
/// thread while the connection is suspended. Everything else runs in MHD's own callbacks.
struct Connection: @unchecked Sendable {
    let handle: OpaquePointer

    /// Every request header, in the order the client sent them, repeats included, and whether
    /// each came as one well-formed line (see `HeaderLine`).
    var headers: ReceivedHeaders {
        var received = ReceivedHeaders()
        withUnsafeMutablePointer(to: &received) { pointer in
            _ = MHD_get_connection_values(
                handle, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    let received = cls.assumingMemoryBound(to: ReceivedHeaders.self)
                    received.pointee.fields.add(key, value)
                    if !HeaderLine.isWellFormed(name: key, value: value) { received.pointee.wellFormed = false }
                    return .YES
                }, pointer)
        }
        return received
    }

    struct ReceivedHeaders {
        var fields = Headers()
        var wellFormed = true
    }

    /// Which connection this is, while it is open (libmicrohttpd may reuse the memory after).
    var identity: Int { Int(bitPattern: UnsafeRawPointer(handle)) }

    var address: IPAddress? {
        cr_mhd_connection_sockaddr(handle).flatMap { IPAddress(socketAddress: $0) }
    }

    /// The idle timeout in whole seconds. Set only on MHD's thread, never while suspended.
    var timeoutSeconds: UInt32 {
        get { cr_mhd_connection_timeout(handle) }
        nonmutating set { cr_mhd_connection_set_timeout(handle, newValue) }
    }

    var clientAddress: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard cr_mhd_connection_client_address(handle, buffer.baseAddress!, buffer.count) == 0 else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// Writes bytes to the client while MHD itself is not writing (see `EarlyResponse`).
    func sendEarly(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { cr_mhd_connection_send_early(handle, $0.baseAddress, $0.count) }
    }

    /// The status of the response on the connection, if one was queued (by us or by MHD itself).
    var queuedStatus: Int? {
        let status = cr_mhd_connection_http_status(handle)
        return status == 0 ? nil : Int(status)
    }

    /// Whether the client has closed its side with nothing left unread (see the shim for why
    /// libmicrohttpd may not notice by itself).
    var peerHasClosed: Bool { cr_mhd_connection_peer_closed(handle) == 1 }

    func suspend() { MHD_suspend_connection(handle) }

    func resume() { MHD_resume_connection(handle) }

    /// Queues a built response and gives up our reference to it; false if MHD refused it.
    func queue(_ response: ResponseBuilder.Built) -> Bool {
        defer { if response.isOurs { MHD_destroy_response(response.handle) } }
        return MHD_queue_response(handle, UInt32(response.status), response.handle) == .YES
    }
}
