import CameraRollServer
import Certificates
import Foundation
import HTTPServer
import QRCode

/// Where `serve` listens and whether over HTTPS. Loopback is plain HTTP (browsers count
/// http://127.0.0.1 as secure); any other address is HTTPS, because a phone's browser gives the
/// camera only to secure pages, and so is loopback given `--cert` and `--key`.
struct Listening {
    /// nil with `--lan`: every address, `::` where the machine has IPv6, else 0.0.0.0.
    let host: String?
    let port: Int
    /// The machine's names and addresses, found once at start, with `--name`'s names among the
    /// host names: what the certificate covers, what the terminal lists.
    let names: MachineNames
    /// `--name`: host names the server answers to besides its addresses and the machine's own.
    let extraNames: [String]
    let certificate: ServerCertificate?
    /// Where the certificate came from, for the instructions printed at start.
    let source: Source

    enum Source {
        case none
        case user
        /// CameraRoll's own certificate, signed by its local authority, whose file phones install.
        case made(
            origin: CertificateFolder.Origin, authority: LocalAuthority, authorityFile: String, authorityOrigin: CertificateFolder.Origin)
    }

    static let valued: Set<String> = ["host", "port", "cert", "key", "name"]
    static let options = valued.union(["lan"])

    init(_ arguments: Arguments, certificateFolder: String) throws {
        let lan = arguments.flag("lan")
        if lan, arguments.value("host") != nil {
            throw UsageError("--lan listens on every address; give --lan or --host, not both.")
        }
        let certificateFile = arguments.value("cert")
        let keyFile = arguments.value("key")
        guard (certificateFile == nil) == (keyFile == nil) else { throw UsageError("--cert and --key go together.") }
        // An IPv6 address may come in URL brackets; it is kept bare, as sockets and certificates take it.
        host = lan ? nil : (arguments.value("host") ?? "127.0.0.1").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let secure = host.map { !WebApp.isLoopback($0) } ?? true || certificateFile != nil
        guard let port = Int(arguments.value("port") ?? (secure ? "8443" : "8080")), (0...65535).contains(port) else {
            throw UsageError("--port takes a number from 0 to 65535.")
        }
        self.port = port
        extraNames = (arguments.value("name") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var names = MachineNames.current()
        names.hostNames += extraNames.filter { !names.hostNames.contains($0) }
        if let host, !Self.isEveryAddress(host), !names.addresses.contains(host) { names.addresses.append(host) }
        self.names = names
        if let certificateFile, let keyFile {
            certificate = try ServerCertificate(certificateFile: certificateFile, keyFile: keyFile)
            source = .user
        } else if secure {
            let folder = CertificateFolder(path: certificateFolder)
            let (authority, authorityOrigin) = try folder.authority(for: names)
            let (made, origin) = try folder.certificate(for: names, signedBy: authority)
            certificate = made
            source = .made(origin: origin, authority: authority, authorityFile: folder.authorityPath, authorityOrigin: authorityOrigin)
        } else {
            certificate = nil
            source = .none
        }
    }

    /// The local authority's certificate, for the web app to give to phones.
    var authorityFile: String? {
        guard case .made(_, _, let file, _) = source else { return nil }
        return file
    }

    /// Serving this computer only: nobody else can reach it, so nobody needs to sign in.
    var onlyThisComputer: Bool { host.map(WebApp.isLoopback) ?? false }

    static func isEveryAddress(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::"
    }

    /// Starts `configuration` on this address, with the certificate when there is one.
    func start(_ configuration: Configuration, router: Router) throws(HTTPError) -> (Server, host: String) {
        var configuration = configuration
        configuration.port = port
        configuration.tls = certificate.map { TLSIdentity(certificateChain: $0.certificatePEM, privateKey: $0.privateKeyPEM) }
        let candidates = host.map { [$0] } ?? ["::", "0.0.0.0"]
        for candidate in candidates {
            configuration.host = candidate
            let server = Server(configuration: configuration, router: router)
            do {
                try server.start()
                return (server, candidate)
            } catch  where host == nil && candidate == "::" && error.code != "address_in_use" {
                // No IPv6 on this machine: every IPv4 address still serves.
                continue
            }
        }
        throw HTTPError(500, "start_failed", "Cannot start the HTTP server on any address.")
    }

    /// What a person needs at start: the URL, and for HTTPS from other devices, a URL per
    /// address, a QR code of the first, and how to trust the certificate.
    func announce(boundTo boundHost: String, port: Int, library: String) {
        let scheme = certificate == nil ? "http" : "https"
        guard !WebApp.isLoopback(boundHost) else {
            Terminal.out("CameraRoll is serving \(scheme)://\(Self.shown(boundHost)):\(port) (library: \(library)). Ctrl-C stops it.")
            trustInstructions(downloadFrom: nil)
            return
        }
        let addresses =
            Self.isEveryAddress(boundHost)
            ? names.lanAddresses.filter { boundHost != "0.0.0.0" || !$0.contains(":") } : [boundHost]
        let place =
            Self.isEveryAddress(boundHost) ? "\(scheme) on every address, port \(port)" : "\(scheme)://\(Self.shown(boundHost)):\(port)"
        Terminal.out("CameraRoll is serving \(place) (library: \(library)). Ctrl-C stops it.")
        let urls = addresses.map { "\(scheme)://\(Self.shown($0)):\(port)/" }
        if urls.isEmpty {
            Terminal.out("This machine has no network address other devices could use; connect it to a network.")
        } else {
            Terminal.out("Open it on a phone or tablet on the same network:")
            for url in urls { Terminal.out("  \(url)") }
            if let code = try? QRCode(urls[0]) {
                for line in code.terminalLines() { Terminal.out("  \(line)") }
            }
        }
        trustInstructions(downloadFrom: urls.first)
    }

    /// `base` is a URL phones can open, ending in a slash.
    private func trustInstructions(downloadFrom base: String?) {
        guard let certificate else { return }
        switch source {
        case .none:
            return
        case .user:
            Terminal.out("Certificate (yours), SHA-256 fingerprint: \(certificate.sha256Fingerprint)")
        case .made(let origin, let authority, let authorityFile, let authorityOrigin):
            if case .replaced(let reason) = authorityOrigin {
                Terminal.out("A new local authority was made (\(reason)); phones that trusted the old one must install this one.")
            }
            if case .replaced(let reason) = origin {
                Terminal.out("A new certificate was made (\(reason)); phones that trust the local authority need do nothing.")
            }
            Terminal.out(
                "Phones warn until they trust CameraRoll's local authority. On each phone, once, install it and trust it"
                    + " (README, \"Use it from a phone\").")
            if let base {
                Terminal.out("Download it on the phone, accepting the warning this once: \(base)\(WebApp.authorityPath.dropFirst())")
            }
            Terminal.out(
                """
                Check that the phone shows this SHA-256 fingerprint for it:
                  \(authority.sha256Fingerprint)
                The authority's file: \(authorityFile)
                """)
        }
    }

    private static func shown(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
