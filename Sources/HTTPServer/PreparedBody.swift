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
/// A GET with validators or a range, a HEAD, or a response with other headers gets a response
/// made for it, which sends the same bytes from the same place.
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
            guard let handle = bytes.response(sending: 0..<bytes.count) else { return nil }
            addHeaders(handle)
            made = Made(handle: handle, headers: headers)
            return handle
        }
    }
}

extension StableBytes {
    /// A libmicrohttpd response that sends these bytes (`part` of them) from where they are,
    /// holding a reference to them until libmicrohttpd frees it.
    func response(sending part: Range<Int>) -> OpaquePointer? {
        let (buffer, retained) = retainedAddress()
        guard
            let handle = MHD_create_response_from_buffer_with_free_callback_cls(
                part.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress.map { $0 + part.lowerBound }),
                { StableBytes.release(retained: $0!) }, retained)
        else {
            StableBytes.release(retained: retained)
            return nil
        }
        return handle
    }
}
