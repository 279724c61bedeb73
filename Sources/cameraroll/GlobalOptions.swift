/// The options that are the whole program's rather than one command's: `--data DIR`,
/// `--database URL`, `--storage s3://BUCKET` and `--help`. As with git and docker they go before
/// the command or among its own options (`cameraroll list --data DIR`, where a script adds them
/// last). A word after `--` is the command's, and so is the value of one of its options
/// (`apps add ORIGIN --name --data`), whatever it looks like.
struct GlobalOptions {
    static let valued: Set<String> = ["data", "database", "storage"]
    static let names = valued.union(["help"])

    private var values: [String: String] = [:]
    private(set) var help = false

    var data: String? { values["data"] }
    var database: String? { values["database"] }
    var storage: String? { values["storage"] }

    /// The options as the words before the command and those after it gave them. One given
    /// twice with different values is refused: which one was meant is anybody's guess, and a
    /// wrong guess would open another library.
    init(_ parts: [Arguments]) throws(UsageError) {
        for name in Self.valued.sorted() {
            let given = parts.flatMap { $0.values(name) }
            guard Set(given).count <= 1 else { throw UsageError("--\(name) is given twice, with different values; give it once.") }
            values[name] = given.first
        }
        help = parts.contains { $0.flag("help") }
    }

    /// The words before the command (where only these options may be), the command, and the
    /// words after it.
    static func split(_ words: [String]) -> (leading: [String], command: String?, rest: [String]) {
        var index = 0
        while index < words.count, words[index].hasPrefix("--"), words[index] != "--" {
            index += valued.contains(String(words[index].dropFirst(2))) ? 2 : 1
        }
        guard index < words.count else { return (words, nil, []) }
        return (Array(words[..<index]), words[index], Array(words[(index + 1)...]))
    }
}
