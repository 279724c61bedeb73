import Foundation

/// How people's names are compared: "Anna", "anna " and "ANNA" are one person, and so are the
/// composed and decomposed spellings of "Zoë".
enum UserName {
    static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }
}
