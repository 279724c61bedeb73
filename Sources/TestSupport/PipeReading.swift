public import Foundation

extension FileHandle {
    /// Everything until the end, read again after a signal interrupts a read. Foundation's
    /// `readDataToEndOfFile` and `readData(ofLength:)` trap on EINTR (a `try!` inside), which a
    /// child process's SIGCHLD can cause in a test process that runs many of them.
    public func readAllRetryingInterrupts(upTo limit: Int = .max) -> Data {
        var data = Data()
        while data.count < limit {
            do {
                guard let chunk = try read(upToCount: min(64 * 1024, limit - data.count)), !chunk.isEmpty else { break }
                data.append(chunk)
            } catch let error as NSError
                where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EINTR) || error.code == Int(EINTR)
            {
                continue
            } catch {
                break
            }
        }
        return data
    }
}
