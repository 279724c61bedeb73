/// A command line split into flags, options with values, and positional words. Small on
/// purpose: the commands are few and their options simple.
struct Arguments {
    private(set) var positional: [String] = []
    private var flags: Set<String> = []
    /// Every value each option was given, in order: most options take the last, some all.
    private var values: [String: [String]] = [:]

    /// `valued` names the options that take a value (`--data DIR` or `--data=DIR`).
    init(_ words: [String], valued: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || !word.hasPrefix("--") || word == "-" {
                positional.append(word)
            } else if word == "--" {
                onlyPositional = true
            } else if let equals = word.firstIndex(of: "=") {
                let name = String(word[word.index(word.startIndex, offsetBy: 2)..<equals])
                guard valued.contains(name) else { throw UsageError("--\(name) takes no value.") }
                values[name, default: []].append(String(word[word.index(after: equals)...]))
            } else {
                let name = String(word.dropFirst(2))
                if valued.contains(name) {
                    guard index < words.count else { throw UsageError("--\(name) needs a value.") }
                    values[name, default: []].append(words[index])
                    index += 1
                } else {
                    flags.insert(name)
                }
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of an option given more than once (`--trusted-proxy A --trusted-proxy B`).
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The same command line without the options `names`: what a command gets once the program
    /// has taken its own.
    func removing(_ names: Set<String>) -> Arguments {
        var rest = self
        rest.flags.subtract(names)
        rest.values = values.filter { !names.contains($0.key) }
        return rest
    }

    /// Refuses flags no command knows, so a typo is not silently ignored.
    func allowOnly(_ known: Set<String>) throws(UsageError) {
        if let unknown = flags.union(values.keys).subtracting(known).sorted().first {
            throw UsageError("Unknown option --\(unknown).")
        }
    }
}

/// A mistake in how the program was called; exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
