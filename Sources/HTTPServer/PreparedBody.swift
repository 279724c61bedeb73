internal import CMicroHTTPD
internal import Glibc
public import Memo
internal import Synchronization

/// Bytes answered over and over (a cached thumbnail). libmicrohttpd's response for them is made
/// once, with the headers of the first response that carries them, and queued as it is for every
/// plain GET whose response has the same headers: no response to build, no headers to add and no
/// bytes to copy for each request, nor one copy of them of its own: it sends them from where
/// they are kept.
///
/// A GET with validators or a range, a HEAD, or a response with other headers is answered from
/// a copy of `bytes` as any other body.
public final class PreparedBody: Sendable {
    public let bytes: StableBytes
    private let made = Mutex<Made?>(nil)

    /// libmicrohttpd's response (we hold one reference) and the headers it was made with.
    private struct Made: @unchecked Sendable {
        let handle: OpaquePointer
        let headers: Headers
    }

    public init(_ bytes: StableBytes) {
        self.bytes = bytes
    }

    deinit {
        // A connection still sending it holds its own reference; the bytes go with the last one.
        made.withLock { made in made.map { MHD_destroy_response($0.handle) } }
    }

    /// The made response for a 200 with these headers, or nil when it was made for others. The
    /// handle stays ours: queueing it takes libmicrohttpd's own reference. `addHeaders` adds
    /// them to a response just made.
    func handle(for headers: Headers, addHeaders: (OpaquePointer) -> Void) -> OpaquePointer? {
        made.withLock { made in
            if let made { return made.headers == headers ? made.handle : nil }
            // The response holds a reference to the bytes until libmicrohttpd frees it.
            let (buffer, retained) = bytes.retainedAddress()
            guard
                let handle = MHD_create_response_from_buffer_with_free_callback_cls(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), { StableBytes.release(retained: $0!) },
                    retained)
            else {
                StableBytes.release(retained: retained)
                return nil
            }
            addHeaders(handle)
            made = Made(handle: handle, headers: headers)
            return handle
        }
    }
}
