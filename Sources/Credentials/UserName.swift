import Foundation

/// How people's names are compared: "Anna", "anna " and "ANNA" are one person, and so are the
/// composed and decomposed spellings of "Zoë".
package enum UserName {
    package static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().precomposedStringWithCanonicalMapping
    }

    /// A name as people type it: trimmed, 1 to 64 characters, on one line, without control
    /// characters (it is shown on pages and typed at sign-in).
    package static func validated(_ text: String) throws(CredentialsError) -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw CredentialsError(.invalidUserName, "A name is 1 to 64 characters, on one line.")
        }
        return name
    }
}
