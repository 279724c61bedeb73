import Testing

@testable import PostgreSQL

@Suite struct PlaceholdersTests {
    @Test func questionMarksBecomeNumberedParameters() {
        #expect(Placeholders.numbered("SELECT * FROM a WHERE x = ? AND y IN (?, ?)") == "SELECT * FROM a WHERE x = $1 AND y IN ($2, $3)")
    }

    @Test func questionMarksInLiteralsNamesAndCommentsStay() {
        #expect(
            Placeholders.numbered("SELECT '?', 'it''s ?', \"odd?name\" FROM t WHERE a = ? -- why?\nAND b = ?")
                == "SELECT '?', 'it''s ?', \"odd?name\" FROM t WHERE a = $1 -- why?\nAND b = $2")
    }
}
