import Failures
import Testing

/// The one error shape: codes are values only their module makes, two errors are the same by
/// code and message, the detail is the domain's to clean, and the cause stays reachable.
@Suite struct FailureTests {
    enum Parsing: FailureDomain {
        static func cleaned(detail: String) -> String? { detail.isEmpty ? nil : detail.uppercased() }
    }
    typealias ParsingError = Failure<Parsing>

    struct Underneath: Error, Equatable { let errno: Int32 }

    @Test func aCodeIsMatchedAsAValueAndWrittenAsItsName() {
        let error = ParsingError(.tooDeep, "The text nests too deeply.")
        #expect(error.code == .tooDeep && error.code != .unexpectedEnd)
        let matched =
            switch error.code {
            case .unexpectedEnd: "end"
            case .tooDeep: "depth"
            default: "other"
            }
        #expect(matched == "depth")
        #expect(error.code.description == "too_deep")
        #expect("\(error)" == "too_deep: The text nests too deeply.")
    }

    @Test func theDetailIsTheDomainsToCleanAndDoesNotMakeTwoErrorsDiffer() {
        let first = ParsingError(.unexpectedEnd, "The text ends early.", detail: "at byte 12")
        let second = ParsingError(.unexpectedEnd, "The text ends early.", detail: "")
        #expect(first.detail == "AT BYTE 12" && second.detail == nil)
        #expect(first == second)
        #expect(first != ParsingError(.unexpectedEnd, "Another message."))
        #expect("\(first)" == "unexpected_end: The text ends early. (AT BYTE 12)")
    }

    @Test func wordsThatNameFilesAreTakenOut() {
        let said = #"cannot open /srv/a b.jpg, "/tmp/c" or file:/d/e: 1/25 fps"#
        #expect(Parsing.withoutPaths(said) == "cannot open file: b.jpg, file: or file: 1/25 fps")
    }

    @Test func theCauseIsKept() {
        let error = ParsingError(.unexpectedEnd, "The text could not be read.", cause: Underneath(errno: 5))
        #expect((error.cause as? Underneath) == Underneath(errno: 5))
        #expect(ParsingError(.tooDeep, "x").cause == nil)
    }
}

extension FailureTests.ParsingError.Code {
    static let unexpectedEnd = Self("unexpected_end"), tooDeep = Self("too_deep")
}
