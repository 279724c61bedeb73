internal import CCurl
internal import CCurlShims
import Foundation
import Storage

/// One HTTP request to an object store and its answer, through libcurl's easy interface; it
/// blocks, so callers make it on an executor of theirs. Bodies stream from and to files, so an
/// original of gigabytes never sits in memory. Every exchange has deadlines: a store that does
/// not connect, or stops sending or taking bytes (an OSD gone: its requests hang), is an outage
/// within seconds, never a request that waits forever.
struct HTTPExchange {
    enum Body {
        case none
        case file(path: String, size: Int)
        /// `size` bytes of a file from `offset`: one part of a multipart upload.
        case part(path: String, offset: Int, size: Int)
        /// A small body made in memory (a multipart upload's list of parts).
        case bytes([UInt8])
    }

    enum Destination {
        /// Small answers (errors, listings), at most `memoryLimit` bytes.
        case memory
        case file(String)
        /// The end of a file there is already.
        case appending(String)
    }

    struct Reply {
        var status: Int
        var body: [UInt8]
        /// The answer's headers, by lowercased name.
        var headers: [String: String] = [:]
    }

    struct Deadlines {
        var connect: Duration = .seconds(5)
        /// The longest the transfer may go without a byte moving.
        var stall: Duration = .seconds(15)
        /// The longest a whole exchange without a large body may take.
        var total: Duration = .seconds(30)
    }

    static let memoryLimit = 16 << 20

    static func perform(
        _ method: String, url: String, headers: [SignableRequest.Header], body: Body = .none, into destination: Destination = .memory,
        deadlines: Deadlines = Deadlines()
    ) throws(StorageError) -> Reply {
        guard let handle = curl_easy_init() else {
            throw StorageError(.unavailable, "The object store cannot be reached.", detail: "curl_easy_init")
        }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        // Curl asks for 100-continue before large bodies; the store answers at once anyway, and
        // the round trip is saved.
        for line in headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }

        cameraroll_curl_set_string(handle, CURLOPT_URL, url)
        cameraroll_curl_set_list(handle, CURLOPT_HTTPHEADER, list)
        // Threads, not signals, carry the timeouts: a signal would land on any thread of ours.
        cameraroll_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        cameraroll_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        cameraroll_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(deadlines.connect))
        cameraroll_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        cameraroll_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, milliseconds(deadlines.stall) / 1000))
        switch method {
        case "HEAD": cameraroll_curl_set_long(handle, CURLOPT_NOBODY, 1)
        case "GET": break
        default: cameraroll_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }

        var input: UnsafeMutablePointer<FILE>?
        defer { if let input { fclose(input) } }
        let outgoing = Outgoing()
        switch body {
        case .none:
            if method == "PUT" || method == "POST" {
                cameraroll_curl_set_long(handle, CURLOPT_UPLOAD, 1)
                cameraroll_curl_set_offset(handle, CURLOPT_INFILESIZE_LARGE, 0)
                cameraroll_curl_set_data_callback(handle, CURLOPT_READFUNCTION, nothing)
            }
            cameraroll_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(deadlines.total))
        case .file(let path, let size):
            guard let file = fopen(path, "rb") else { throw unopened() }
            input = file
            cameraroll_curl_set_long(handle, CURLOPT_UPLOAD, 1)
            cameraroll_curl_set_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(size))
            // curl's own fread from the FILE given.
            cameraroll_curl_set_pointer(handle, CURLOPT_READDATA, UnsafeMutableRawPointer(file))
        case .part(let path, let offset, let size):
            guard let file = fopen(path, "rb") else { throw unopened() }
            input = file
            guard fseeko(file, off_t(offset), SEEK_SET) == 0 else { throw unopened() }
            outgoing.file = file
            outgoing.remaining = size
            upload(handle, size: size, outgoing)
        case .bytes(let bytes):
            outgoing.memory = bytes
            outgoing.remaining = bytes.count
            upload(handle, size: bytes.count, outgoing)
        }

        let received = Received()
        var output: UnsafeMutablePointer<FILE>?
        defer { if let output { fclose(output) } }
        switch destination {
        case .memory:
            cameraroll_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, collect)
            cameraroll_curl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(received).toOpaque())
        case .file(let path), .appending(let path):
            let mode = if case .appending = destination { "ab" } else { "wb" }
            guard let file = fopen(path, mode) else { throw unopened() }
            output = file
            cameraroll_curl_set_pointer(handle, CURLOPT_WRITEDATA, UnsafeMutableRawPointer(file))
        }

        cameraroll_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, collectHeader)
        cameraroll_curl_set_pointer(handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(received).toOpaque())
        let code = withExtendedLifetime((received, outgoing)) { curl_easy_perform(handle) }
        if let output, fflush(output) != 0 || ferror(output) != 0 {
            throw StorageError(.io, "A file could not be written.", detail: "download")
        }
        guard code == CURLE_OK else {
            throw StorageError(
                .unavailable, "The object store is not answering.", detail: "\(method): \(String(cString: curl_easy_strerror(code)))")
        }
        return Reply(status: cameraroll_curl_response_code(handle), body: received.bytes, headers: received.headers)
    }

    /// A body read through `readOutgoing`, at most `size` bytes of it.
    private static func upload(_ handle: UnsafeMutableRawPointer, size: Int, _ outgoing: Outgoing) {
        cameraroll_curl_set_long(handle, CURLOPT_UPLOAD, 1)
        cameraroll_curl_set_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(size))
        cameraroll_curl_set_data_callback(handle, CURLOPT_READFUNCTION, readOutgoing)
        cameraroll_curl_set_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(outgoing).toOpaque())
    }

    /// A local file that cannot be opened, said without its path.
    private static func unopened() -> StorageError {
        StorageError(.io, "A file could not be read or written.", detail: "open: \(String(cString: strerror(errno)))")
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}

/// An answer's bytes and headers as curl hands them over, on the thread of the exchange.
private final class Received {
    var bytes: [UInt8] = []
    var headers: [String: String] = [:]
}

/// What is left to send of a body curl reads through `readOutgoing`: from a file (which curl's
/// own fread would read past the part's end) or from memory.
private final class Outgoing {
    var file: UnsafeMutablePointer<FILE>?
    var memory: [UInt8] = []
    var sent = 0
    var remaining = 0
}

/// curl's read callback for a part of a file or a body in memory; 0 at the end, and
/// CURL_READFUNC_ABORT when the file ends before the part does.
private func readOutgoing(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return Int(CURL_READFUNC_ABORT) }
    let outgoing = Unmanaged<Outgoing>.fromOpaque(context).takeUnretainedValue()
    let wanted = min(size * count, outgoing.remaining)
    guard wanted > 0 else { return 0 }
    let given: Int
    if let file = outgoing.file {
        given = fread(data, 1, wanted, file)
        guard given > 0 else { return Int(CURL_READFUNC_ABORT) }
    } else {
        outgoing.memory.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(data).copyMemory(from: bytes.baseAddress! + outgoing.sent, byteCount: wanted)
        }
        given = wanted
    }
    outgoing.sent += given
    outgoing.remaining -= given
    return given
}

/// curl's header callback: one line at a time, `Name: value` kept by lowercased name.
private func collectHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let data, let context else { return 0 }
    let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if let (name, value) = ResponseHeader.parse(line) { received.headers[name] = value }
    return length
}

/// A line of an answer's head as curl hands it over (the status line and the blank line end
/// included, which are no headers).
package enum ResponseHeader {
    /// The header's lowercased name and its value without the whitespace around it.
    package static func parse(_ line: String) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.hasPrefix("HTTP/") else { return nil }
        return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// curl's write callback for answers kept in memory; past the limit, it stops the transfer.
private func collect(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let received = Unmanaged<Received>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard received.bytes.count + length <= HTTPExchange.memoryLimit else { return 0 }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        received.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// curl's read callback for a request with an empty body.
private func nothing(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int { 0 }
