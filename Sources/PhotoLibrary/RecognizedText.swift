/// The words Tesseract read in a picture, from its TSV output (`tesseract IMAGE stdout tsv`):
/// a header line, then a line per page, block, paragraph, line and word, whose twelfth field is
/// the word's text and eleventh its confidence (0 to 100; -1 on the lines that are not words).
/// Only words it is sure of are kept, and only those with two letters or digits: on a photo
/// without text, Tesseract reads leaves and bricks as "|", "ii" and "~", at low confidence.
package struct RecognizedText: Equatable {
    /// The words in reading order, each once, separated by spaces.
    package var words: String

    /// How sure Tesseract must be of a word (its percentage) for it to be kept.
    static let minimumConfidence = 60.0
    /// At most this much text is kept of a picture (a page of a book is one photo).
    package static let maxCharacters = 4000

    package init(tsv: String) {
        var seen = Set<String>()
        var kept: [String] = []
        var length = 0
        for line in tsv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 12, fields[0] == "5", let confidence = Double(fields[10]), confidence >= Self.minimumConfidence
            else { continue }
            let word = String(fields[11].unicodeScalars.filter { !$0.properties.isWhitespace && $0.properties.generalCategory != .control })
            guard word.unicodeScalars.count(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) >= 2,
                length + word.utf8.count + 1 <= Self.maxCharacters, seen.insert(word.lowercased()).inserted
            else { continue }
            kept.append(word)
            length += word.utf8.count + 1
        }
        words = kept.joined(separator: " ")
    }
}
