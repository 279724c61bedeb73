internal import CQRencode
public import Failures
internal import Glibc

/// A QR code made by libqrencode: a square of dark and light modules, without its quiet zone.
public struct QRCode: Sendable {
    public let size: Int
    private let modules: [Bool]

    /// Medium error correction: a phone reads it off a screen at an angle, and a URL stays small.
    public init(_ text: String) throws(QRCodeError) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw errno == ERANGE
                ? QRCodeError(.tooLong, "The text is too long for a QR code.") : QRCodeError(.failed, "The QR code could not be made.")
        }
        defer { QRcode_free(code) }
        size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what the module is for.
        modules = UnsafeBufferPointer(start: code.pointee.data, count: size * size).map { $0 & 1 == 1 }
    }

    /// Whether the module at column `x`, row `y` is dark; outside the code (its quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        (0..<size).contains(x) && (0..<size).contains(y) && modules[y * size + x]
    }

    /// The code for a terminal: two rows of modules per line as Unicode half blocks, in black on
    /// white set explicitly (fixed colours of the 256-colour palette, which themes do not
    /// remap), so it reads the right way round on light and dark terminals alike, inside a light
    /// quiet zone of `quietZone` modules.
    public func terminalLines(quietZone: Int = 4) -> [String] {
        let range = -quietZone..<(size + quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { top in
            let cells = range.map { x in
                switch (isDark(x: x, y: top), isDark(x: x, y: top + 1)) {
                case (false, false): " "
                case (true, false): "▀"
                case (false, true): "▄"
                case (true, true): "█"
                }
            }
            return Self.blackOnWhite + cells.joined() + Self.reset
        }
    }

    static let blackOnWhite = "\u{1B}[38;5;16;48;5;231m"
    static let reset = "\u{1B}[0m"
}

/// Why a QR code could not be made.
public typealias QRCodeError = Failure<QRCodeFailures>

/// Its codes:
/// - `tooLong`: the text is longer than the largest code holds.
/// - `failed`: libqrencode could not make the code.
public enum QRCodeFailures: FailureDomain {}

extension QRCodeError.Code {
    public static let tooLong = Self("qr_too_long"), failed = Self("qr_failed")
}
