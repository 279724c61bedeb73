/// Why a picker configuration, transition or edit was refused. `code` is stable.
public struct PickerError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The book's alert for a source the device does not have.
    public static let sourceUnavailable = PickerError(
        "source_unavailable", "Device doesn't support that media source.")

    public var description: String { "\(code): \(message)" }
}
