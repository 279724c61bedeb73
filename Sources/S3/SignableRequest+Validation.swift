extension SignableRequest {
    /// Refuses what would be signed as one thing and sent as another: a line break in a header
    /// would end it early on the wire yet stay inside it in the canonical request, and a `Host`
    /// among the headers would be sent beside the one signed from `host`.
    func validate() throws(SigningError) {
        guard !method.isEmpty, method.utf8.allSatisfy(\.isTokenCharacter) else {
            throw SigningError(.invalidRequest, "The method is not an HTTP token.")
        }
        guard !host.isEmpty, host.utf8.allSatisfy(\.isHostCharacter) else {
            throw SigningError(.invalidRequest, "The host is not a host name or address with an optional port.")
        }
        guard path.hasPrefix("/") else {
            throw SigningError(.invalidRequest, "The path does not start with a slash.")
        }
        for header in headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(\.isTokenCharacter) else {
                throw SigningError(.invalidRequest, "A header's name is not an HTTP token.")
            }
            guard header.value.utf8.allSatisfy(\.isFieldValueCharacter) else {
                throw SigningError(.invalidRequest, "A header's value holds a control character.")
            }
            guard header.name.lowercased() != "host" else {
                throw SigningError(.invalidRequest, "The Host header comes from the request's host, not its headers.")
            }
        }
    }
}

extension UInt8 {
    /// RFC 9110's `tchar`.
    fileprivate var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(self)
        }
    }

    /// Visible ASCII but the characters that would end the authority of a URL; non-ASCII names
    /// are sent in their `xn--` form.
    fileprivate var isHostCharacter: Bool {
        (0x21...0x7E).contains(self) && !"/?#@\\".utf8.contains(self)
    }

    /// RFC 9110's field-value: anything but control characters, tab allowed.
    fileprivate var isFieldValueCharacter: Bool {
        self == UInt8(ascii: "\t") || (self >= 0x20 && self != 0x7F)
    }
}
