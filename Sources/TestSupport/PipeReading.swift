public import Foundation
import Glibc

extension FileHandle {
    /// Everything until the end (or a read error), with reads a signal interrupts read again.
    /// By read(2) itself, not Foundation: `read(upToCount:)` loops over several read(2)s and, when
    /// one of them is interrupted (a child's SIGCHLD, in a test process that runs many), throws
    /// away the bytes the earlier ones read, which cut exiftool's JSON and an HTTPS body short
    /// under a loaded suite; `readDataToEndOfFile` traps on the same error.
    public func readAllRetryingInterrupts(upTo limit: Int = .max) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < limit {
            let wanted = min(buffer.count, limit - data.count)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}
