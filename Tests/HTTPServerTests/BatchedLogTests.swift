import Foundation
import TestSupport
import Testing

@testable import HTTPServer

@Suite struct BatchedLogTests {
    let folder = TemporaryDirectory("batched-log")

    /// A log into a new file, and what the file holds.
    private func logToFile(delay: Duration) -> (BatchedLog, () -> String) {
        let path = folder.file("log-\(UUID().uuidString)")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        return (BatchedLog(descriptor: descriptor, delay: delay), { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "?" })
    }

    @Test func linesWaitForTheDelayThenComeTogetherInOrder() async {
        let (log, written) = logToFile(delay: .milliseconds(300))
        log.write("GET /a 200 1 0ms")
        log.write("GET /b 200 2 0ms")
        #expect(written() == "")
        #expect(await eventually { written() == "GET /a 200 1 0ms\nGET /b 200 2 0ms\n" })
        log.write("GET /c 200 3 0ms")
        log.flush()
        #expect(written() == "GET /a 200 1 0ms\nGET /b 200 2 0ms\nGET /c 200 3 0ms\n")
    }

    @Test func aFullBatchIsWrittenAtOnce() {
        let (log, written) = logToFile(delay: .seconds(3600))
        let line = String(repeating: "x", count: 999)
        let fitting = BatchedLog.batchBytes / 1000
        for _ in 0..<fitting { log.write(line) }
        #expect(written() == "")
        log.write(line)
        #expect(written() == String(repeating: line + "\n", count: fitting + 1))
    }
}
