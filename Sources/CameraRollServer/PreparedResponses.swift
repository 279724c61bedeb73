import HTTPServer
import PhotoLibrary
import Synchronization

/// The answers for derivatives the library keeps in memory (thumbnails), kept whole with their
/// bytes as a `PreparedBody`: a grid asks for the same thumbnails again and again, and each is
/// then sent as it was made the first time, not made into a response anew.
final class PreparedResponses: Sendable {
    private let kept = Mutex<Kept>(Kept())

    private struct Kept {
        var responses: [String: Response] = [:]
        var bytes = 0
    }

    /// A bound on the bytes held (a copy of the library's, made once more for libmicrohttpd);
    /// when it is reached they are let go together and kept again as they are asked for.
    static let budget = 32 << 20

    /// The answer for `made`, made by `answer` the first time; a derivative whose bytes the
    /// library does not keep is answered anew each time, from its file.
    func response(for made: Derivative, answer: (Derivative) -> Response) -> Response {
        guard let bytes = made.bytes else { return answer(made) }
        if let response = kept.withLock({ $0.responses[made.etag] }) { return response }
        var response = answer(made)
        response.body = .prepared(PreparedBody(bytes))
        kept.withLock { kept in
            if kept.bytes + bytes.count > Self.budget { kept = Kept() }
            kept.responses[made.etag] = response
            kept.bytes += bytes.count
        }
        return response
    }
}
