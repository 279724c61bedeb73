/// The library writes `?` for each argument, as SQLite takes it; PostgreSQL numbers them (`$1`).
/// A `?` inside a string literal ('…'), a quoted name ("…") or a comment is text, not a
/// parameter, and stays as it is.
package enum Placeholders {
    package static func numbered(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 8)
        var count = 0
        var quote: Character?
        var inLineComment = false
        for character in sql {
            if inLineComment {
                if character == "\n" { inLineComment = false }
            } else if let open = quote {
                // A doubled quote inside a literal closes and reopens it, which comes out the same.
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "-" && output.last == "-" {
                inLineComment = true
            } else if character == "?" {
                count += 1
                output += "$\(count)"
                continue
            }
            output.append(character)
        }
        return output
    }
}
