import Foundation
import QRCode
import TestSupport
import Testing

/// The terminal rendering read back: its half blocks turned into pixels and decoded by zbarimg.
@Suite struct QRCodeTests {
    /// The pixels the terminal lines show: each character is two modules, its top and bottom half.
    static func pixels(of lines: [String]) -> [[Bool]] {
        lines.flatMap { line -> [[Bool]] in
            let cells = line.replacingOccurrences(of: "\u{1B}[38;5;16;48;5;231m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
            let top = cells.map { $0 == "▀" || $0 == "█" }
            let bottom = cells.map { $0 == "▄" || $0 == "█" }
            return [top, bottom]
        }
    }

    /// A plain PBM (P1) with each module `scale` pixels wide, 1 meaning black.
    static func pbm(_ pixels: [[Bool]], scale: Int = 4) -> String {
        let width = (pixels.first?.count ?? 0) * scale
        var rows: [String] = []
        for row in pixels {
            let line = row.flatMap { Array(repeating: $0 ? "1" : "0", count: scale) }.joined(separator: " ")
            rows += Array(repeating: line, count: scale)
        }
        return "P1\n\(width) \(pixels.count * scale)\n" + rows.joined(separator: "\n") + "\n"
    }

    func decode(_ pixels: [[Bool]]) async throws -> String {
        let directory = TemporaryDirectory("qrcode")
        try Self.pbm(pixels).write(toFile: directory.file("code.pbm"), atomically: true, encoding: .ascii)
        let output = try await Executable.run(program: "/usr/bin/zbarimg", ["--quiet", "--raw", directory.file("code.pbm")])
        return output.stdout.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: ["https://192.168.1.20:8443/", "https://[2001:db8::7]:8443/", "https://photo-box.local:8443/"])
    func theTerminalRenderingDecodesToTheURL(url: String) async throws {
        let lines = try QRCode(url).terminalLines()
        #expect(try await decode(Self.pixels(of: lines)) == url)
    }

    @Test func everyLineSetsBlackOnWhiteAndResetsAfterwards() throws {
        let code = try QRCode("https://192.168.1.20:8443/")
        let lines = code.terminalLines(quietZone: 4)
        #expect(lines.count == (code.size + 8 + 1) / 2)
        for line in lines {
            #expect(line.hasPrefix("\u{1B}[38;5;16;48;5;231m"))
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
        // The quiet zone is light: the first line is blank, and so is every line's start.
        let pixels = Self.pixels(of: lines)
        #expect(pixels[0].allSatisfy { !$0 })
        #expect(pixels.allSatisfy { !$0[0] && !$0[3] && !$0[$0.count - 1] })
    }

    /// What a terminal shows if it swaps the colours: zbarimg reads nothing, so the decoding above
    /// depends on the rendering getting dark and light right.
    @Test func theSameCodeInvertedDoesNotDecode() async throws {
        let lines = try QRCode("https://192.168.1.20:8443/").terminalLines()
        let inverted = Self.pixels(of: lines).map { $0.map { !$0 } }
        #expect(try await decode(inverted) == "")
    }
}
