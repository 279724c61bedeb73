/// An error a handler throws that says how to answer: its status, a stable code and a message
/// for people. Anything else a handler throws becomes a 500 with a generic body, its detail
/// only in the log.
public protocol HTTPResponseError: Error {
    var status: Int { get }
    var code: String { get }
    var message: String { get }
    /// The answer: by default the JSON body alone, for an error that needs headers too
    /// (`Retry-After`) to say.
    var response: Response { get }
}

/// The server's own errors, and a ready-made one for handlers.
public struct HTTPError: HTTPResponseError, Sendable, Equatable {
    public let status: Int
    public let code: String
    public let message: String

    public init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public static func notFound(_ message: String = "There is nothing here.") -> HTTPError {
        HTTPError(404, "not_found", message)
    }

    public static func badRequest(_ code: String, _ message: String) -> HTTPError {
        HTTPError(400, code, message)
    }
}

extension HTTPResponseError {
    /// The JSON body every error response has: `{"code": "...", "message": "..."}`.
    public var jsonBody: [UInt8] {
        Array("{\"code\":\(JSONText.quoted(code)),\"message\":\(JSONText.quoted(message))}".utf8)
    }

    public var response: Response {
        .bytes(jsonBody, contentType: "application/json; charset=utf-8", status: status)
    }
}

/// Minimal JSON string quoting for the error bodies the server writes itself.
enum JSONText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
