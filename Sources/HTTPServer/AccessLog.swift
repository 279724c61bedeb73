/// The access-log line of one request: `GET /path 200 1234 5ms`, with `-` for what is unknown
/// (no status when the client never got an answer from us, no size when no body was counted).
///
/// It is made for every request, so it is written byte by byte into a buffer on the stack and
/// becomes a string once. The path is the one sent, without the query: query values may be
/// private (tokens, places).
enum AccessLog {
    static func line(method: String, rawURI: [UInt8], status: Int?, bodyBytes: Int?, elapsed: Duration) -> String {
        let path = rawURI.prefix { $0 != UInt8(ascii: "?") }
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        // Each path byte takes at most 3 characters, and each number at most 20.
        let capacity = method.utf8.count + 3 * path.count + 3 * 20 + 8
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = Writer(buffer: buffer)
            for byte in method.utf8 { line.put(byte) }
            line.put(UInt8(ascii: " "))
            RawURI.appendLoggable(path) { line.put($0) }
            line.put(UInt8(ascii: " "))
            line.put(status)
            line.put(UInt8(ascii: " "))
            line.put(bodyBytes)
            line.put(UInt8(ascii: " "))
            line.put(milliseconds)
            line.put(UInt8(ascii: "m"))
            line.put(UInt8(ascii: "s"))
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<line.count]), as: UTF8.self)
        }
    }

    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        /// A number in decimal, or `-` for none.
        mutating func put(_ number: Int?) {
            guard var number, number >= 0 else { return put(UInt8(ascii: "-")) }
            let start = count
            repeat {
                put(UInt8(ascii: "0") + UInt8(number % 10))
                number /= 10
            } while number > 0
            buffer[start..<count].reverse()
        }
    }
}
