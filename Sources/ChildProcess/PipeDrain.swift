import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads one pipe of a child process to its end on a thread of its own.
///
/// Both pipes are drained at the same time: a child that fills the pipe we are not reading
/// would block forever. The read blocks, so it runs on a plain thread, never on the cooperative pool.
struct PipeDrain: Sendable {
    /// Bytes kept from the start of the stream (0 keeps nothing).
    var keepHead = 0
    /// Bytes kept from the end of the stream (0 keeps nothing).
    var keepTail = 0
    /// Called with each complete line, on the reading thread.
    var onLine: (@Sendable (String) -> Void)?

    struct Result: Sendable {
        var head = Data()
        var headOverflowed = false
        var tail = Data()
    }

    func start(_ handle: FileHandle) -> OneShot<Result> {
        let done = OneShot<Result>()
        let thread = Thread { done.fulfill(drain(handle)) }
        thread.name = "child-pipe-reader"
        thread.start()
        return done
    }

    private func drain(_ handle: FileHandle) -> Result {
        var result = Result()
        var pendingLine = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                read(handle.fileDescriptor, bytes.baseAddress, bytes.count)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            let chunk = buffer[0..<count]
            if keepHead > 0 {
                let room = keepHead - result.head.count
                result.head.append(contentsOf: chunk.prefix(max(0, room)))
                if count > room { result.headOverflowed = true }
            }
            if keepTail > 0 {
                result.tail.append(contentsOf: chunk.suffix(keepTail))
                if result.tail.count > keepTail { result.tail.removeFirst(result.tail.count - keepTail) }
            }
            if let onLine {
                pendingLine.append(contentsOf: chunk)
                while let newline = pendingLine.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(String(decoding: pendingLine[pendingLine.startIndex..<newline], as: UTF8.self))
                    pendingLine.removeSubrange(pendingLine.startIndex...newline)
                }
            }
        }
        if let onLine, !pendingLine.isEmpty { onLine(String(decoding: pendingLine, as: UTF8.self)) }
        return result
    }
}
