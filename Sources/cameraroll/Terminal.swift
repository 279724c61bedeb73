import Foundation

/// Standard output and error, and whether a person is watching them.
enum Terminal {
    static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// One write(2) of the line and its newline.
    static func error(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// Rewrites the current line of standard error (for progress).
    static func status(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    static func clearStatus() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    /// Rows in columns as wide as their widest cell; the first row is the heading.
    static func table(_ rows: [[String]]) {
        guard let heading = rows.first else { return }
        let widths = heading.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            out(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }

    static func json(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        out(String(decoding: data, as: UTF8.self))
    }
}
