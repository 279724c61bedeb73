import Foundation
import HTTPServer
import TestSupport

/// A self-signed P-256 certificate for 127.0.0.1 made by the `openssl` program for one test, and
/// the client side of HTTPS: `openssl s_client` carries the exact bytes a test writes and
/// verifies the server against this certificate alone.
struct TestCertificate: Sendable {
    let folder: TemporaryDirectory
    let identity: TLSIdentity
    var path: String { folder.file("certificate.pem") }

    static func make() async throws -> TestCertificate {
        let folder = TemporaryDirectory("http-tls")
        let made = try await Executable.run(
            program: "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.file("key.pem"), "-out", folder.file("certificate.pem"),
            ])
        guard made.status == 0 else { throw Failure(description: "openssl req: \(made.stderr)") }
        let identity = TLSIdentity(
            certificateChain: try String(contentsOfFile: folder.file("certificate.pem"), encoding: .utf8),
            privateKey: try String(contentsOfFile: folder.file("key.pem"), encoding: .utf8))
        return TestCertificate(folder: folder, identity: identity)
    }

    /// Sends `request` over TLS on a new connection and returns what came back until the server
    /// closed it; empty if the handshake or the verification failed. `options` go to s_client
    /// (a protocol version, a cipher list).
    func exchange(_ request: [UInt8], port: Int, options: [String] = []) async throws -> [UInt8] {
        // -quiet keeps s_client reading after our input ends, until the server closes.
        let client = try await Executable.run(
            program: "/usr/bin/openssl",
            [
                "s_client", "-quiet", "-verify_return_error", "-CAfile", path, "-verify_ip", "127.0.0.1", "-connect",
                "127.0.0.1:\(port)",
            ] + options, input: Data(request))
        return [UInt8](client.output)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
