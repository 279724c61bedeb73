import Credentials
import Dispatch
import Foundation
import IPAddress
import PhotoLibrary
import Places
import Synchronization

extension FuzzTarget {
    static let libraryTargets: [FuzzTarget] = [
        FuzzTarget(
            "cursor", "a listing cursor a client sends back, and a listing's month or day jump",
            examples: [Cursor(key: "2026-12-01T10:00:00", id: "abc").encoded, "2024-12", "2024-02-29"]
        ) { bytes in
            let given = text(bytes)
            if let after = Library.periodAfter(given) {
                let written = { (period: String) in
                    [7, 10].contains(period.utf8.count)
                        && period.utf8.enumerated().allSatisfy { [4, 7].contains($0) ? $1 == 0x2D : (0x30...0x39).contains($1) }
                }
                require(written(given), "only a YYYY-MM or YYYY-MM-DD is taken as a period")
                require(written(after) && after > given, "the period after is a later one")
                require(after.utf8.count == 10 && Library.isMoment(after + "T00:00:00"), "the period after starts on a day")
            }
            guard let cursor = Cursor(given) else { return }
            require(Cursor(cursor.encoded) == cursor, "a cursor reads back as itself")
        },
        FuzzTarget(
            "search", "a listing's search text (?search=), as SQLite's index of words reads it",
            examples: ["IMG_0001", "\"canon\" OR nikon*", "NEAR(eos 40d)", "ab", "^x:y", "-(", "🙂🙂🙂"]
        ) { bytes in
            var asked = AssetQuery()
            asked.search = text(bytes)
            let query = asked
            let found = blocking { () async throws(LibraryError) in try await searchable.catalog.assets(query, owner: .first) }
            if case .failure(let error) = found {
                require(
                    error.code == .invalidRequest,
                    "a search is found or refused as the client's, not \(error.code): \(error.message) \(error.detail ?? "")")
            }
        },
        FuzzTarget(
            "file-name", "a file name a client gives (X-Filename, tus' filename), as kept and as downloaded",
            examples: ["IMG_0001.JPG", "C:\\Users\\ann\\beach.jpg", "photo\u{202E}gpj.exe", "nul", ".."]
        ) { bytes in
            guard let kept = PortableFilename.kept(text(bytes)) else { return }
            require(
                kept.utf8.count <= PortableFilename.maxBytes && !kept.contains("/") && !kept.contains("\\") && kept != "." && kept != "..",
                "a kept name is one name")
            require(PortableFilename.kept(kept) == kept, "a kept name is kept as it is")
            for format in [AssetFormat.image(.jpeg), .movie(.mp4)] {
                guard let file = PortableFilename.forDesktop(kept, format: format) else { continue }
                require(file.utf8.count <= PortableFilename.maxBytes && PortableFilename.kept(file) == file, "a file's name is a kept name")
                require(PortableFilename.forDesktop(file, format: format) == file, "a file's name is as safe as it gets")
                require(
                    file.unicodeScalars.first != "." && file.unicodeScalars.last != "." && !file.unicodeScalars.contains(":"),
                    "no dot at either end, no stream")
            }
        },
        FuzzTarget(
            "tesseract-tsv", "what Tesseract says it read in a photo (its TSV), whose words the photo decides",
            examples: [
                "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
                    + "1\t1\t0\t0\t0\t0\t0\t0\t854\t48\t-1\t\n5\t1\t1\t1\t1\t1\t10\t8\t120\t30\t96.5\tRECEIPT\n"
                    + "5\t1\t1\t1\t1\t2\t140\t8\t60\t30\t12.0\t|\n"
            ]
        ) { bytes in
            let read = RecognizedText(tsv: text(bytes))
            require(read.words.utf8.count <= RecognizedText.maxCharacters, "a photo's words are bounded")
            require(!read.words.unicodeScalars.contains { $0.properties.generalCategory == .control }, "no control character is kept")
            require(
                RecognizedText(
                    tsv: "header\n"
                        + read.words.split(separator: " ").map { "5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t99\t\($0)" }.joined(separator: "\n"))
                    == read,
                "its words read again are themselves")
        },
        FuzzTarget(
            "gazetteer", "the gazetteer's tables as the install step writes them: countries, a NUL, then places",
            examples: [
                "DE\tGermany\tDeutschland\tAllemagne\nFJ\tFiji\n\u{0}52.52437\t13.41053\tBerlin\tState of Berlin\tDE\n"
                    + "-16.80000\t179.99000\tLabasa\tNorthern\tFJ\n-16.8\t-179.5\tNowhere\t\tFJ"
            ]
        ) { bytes in
            let input = Array(bytes)
            let split = input.firstIndex(of: 0) ?? input.endIndex
            let (countries, places) = (Array(input[..<split]), Array(input[min(split + 1, input.endIndex)...]))
            guard let gazetteer = try? Gazetteer(places: places, countries: countries) else { return }
            let lines = places.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            require(gazetteer.count == lines.filter { !$0.isEmpty }.count, "every line is a place")
            for line in lines.prefix(64) where !line.isEmpty {
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                guard let latitude = Double(String(decoding: fields[0], as: UTF8.self)),
                    let longitude = Double(String(decoding: fields[1], as: UTF8.self))
                else { return require(false, "a place's position reads as numbers") }
                let found = gazetteer.place(latitude: latitude, longitude: longitude)
                require(found != nil, "a place's own position names a place")
                require(found.map { gazetteer.country(named: $0.country) == $0.country } ?? true, "its country is known by its name")
            }
        },
    ]

    static let credentialsTargets: [FuzzTarget] = [
        FuzzTarget(
            "ip-address", "a client's address as text, and its network",
            examples: ["192.168.1.7", "::ffff:10.0.0.7", "2001:db8::1%eth0", "fe80::1:2:3:4"]
        ) { bytes in
            guard let address = IPAddress(text(bytes)) else { return }
            require(IPAddress(address.description) == address, "an address reads back from its own spelling")
            require(address.network.network == address.network, "a network is its own network")
        },
        FuzzTarget("capability", "a capability URL's cap= and edit= parameters", examples: ["1999999999.00ff\u{0}0.5,1.5"]) { bytes in
            let parts = text(bytes).split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let edit = parts.count > 1 ? parts[1] : nil
            require(!capabilities.grants(parts[0], assetID: "asset", kind: "trimmed", edit: edit), "only a signed capability grants")
        },
        FuzzTarget(
            "user-name", "a person's name, as sign-in and users add read it",
            examples: ["Anna", " Zoë ", "ZOE\u{0308}", "İlknur", "two\nlines", ""]
        ) { bytes in
            let key = UserName.key(text(bytes))
            require(UserName.key(key) == key, "a name's key is its own key")
            guard let name = try? UserName.validated(text(bytes)) else { return }
            require((try? UserName.validated(name)) == name, "a name kept stays as it is")
            require(UserName.key(name) == key, "a name and how it was typed are one person")
        },
        FuzzTarget(
            "storage-size", "a storage quota as users quota reads it",
            examples: ["20GB", "500 MB", "1.5tb", "1073741824", "0.4", "1e9", "12..5GB", "-1GB", "1000TB", "1001TB", "nan"]
        ) { bytes in
            guard let size = try? StorageSize.bytes(text(bytes)) else { return }
            require((1...StorageSize.largest).contains(size), "a quota is within its bounds")
            require((try? StorageSize.bytes(String(size))) == size, "a count of bytes reads as itself")
            let shown = StorageSize.text(size)
            let back =
                (try? StorageSize.bytes(shown.replacingOccurrences(of: " bytes", with: "").replacingOccurrences(of: " byte", with: "")))
                ?? -1
            require(abs(Double(back - size)) <= Double(size) * 0.051, "a size shown reads back as about itself: \(shown)")
        },
        FuzzTarget(
            "session-token", "a sign-in session's cookie, as servers sharing a library sign them (<id>.<user>.<expiry>.<HMAC>)",
            examples: ["0123456789abcdef0123456789abcdef.1.1999999999.00ff", "0123456789abcdef0123456789abcdef.-1.0."]
        ) { bytes in
            require(signedSessions.session(text(bytes), stamps: { _ in "a stamp" }) == nil, "only a signed token is a session")
        },
        FuzzTarget(
            "share-token", "a shared link's token, from /s/<token> and /api/shared/<token> (<link id><signature>, 64 hex digits)",
            examples: [shareTokens.token(for: "0123456789abcdef0123456789abcdef"), String(repeating: "0", count: 64), "0123"]
        ) { bytes in
            let token = text(bytes)
            guard let id = shareTokens.linkID(of: token) else { return }
            require(token.lowercased() == shareTokens.token(for: id), "only a token this key made names a link")
        },
        FuzzTarget("cbor", "CBOR as a passkey's authenticator writes it (attestation objects, COSE keys)", maxLength: 1024) { bytes in
            let input = Array(bytes)
            guard let decoded = try? CBOR.decode(input) else { return }
            guard let (prefix, rest) = try? CBOR.decodePrefix(input[...]) else { fatalError("a whole item is an item first") }
            require(prefix == decoded && rest.isEmpty, "a whole item leaves nothing after it")
        },
        FuzzTarget(
            "passkey-registration", "a passkey's attestation object, from POST /api/passkeys, checked as registrations are",
            maxLength: 2048
        ) { bytes in
            do throws(CredentialsError) {
                let registered = try WebAuthn.registration(
                    attestationObject: Array(bytes), clientDataJSON: Array(passkeyClientData.utf8), challenge: "challenge",
                    origin: { $0 == "https://photos.example" }, relyingParty: "photos.example")
                require(registered.publicKey.count == 65 && registered.publicKey.first == 4, "a P-256 point, uncompressed")
                require(
                    !registered.credentialID.isEmpty && registered.credentialID.count <= 1023, "a credential id of a size WebAuthn allows")
            } catch {
                require(error.code == .invalidPasskey, "refused as a passkey, not otherwise: \(error.code)")
            }
        },
        FuzzTarget(
            "base64url", "base64url text, as passkeys' answers and challenges carry bytes",
            examples: ["AAAA", "-_-_", "YQ", "YQ==", "Y", "!!!!"]
        ) { bytes in
            guard let decoded = Base64URL.bytes(text(bytes)) else { return }
            require(Base64URL.bytes(Base64URL.text(decoded)) == decoded, "bytes read back from their own text")
            require(Base64URL.text(decoded) == text(bytes).replacingOccurrences(of: "=", with: ""), "one value, one spelling")
        },
        FuzzTarget(
            "web-origin", "a site's origin, from Origin headers and the owner's list of allowed apps",
            examples: ["https://blog.example", "http://127.0.0.1:9090/", "http://[::1]:8080", "null", "HTTPS://Blog.Example:443"]
        ) { bytes in
            if let header = try? WebOrigin(header: text(bytes)) {
                require(header.description == text(bytes), "a header is taken as written")
            }
            guard let origin = try? WebOrigin(text(bytes)) else { return }
            require((try? WebOrigin(origin.description)) == origin, "an origin reads back from its own spelling")
            require(origin.description.split(separator: "/").count == 2, "a scheme and an authority, no path")
            require(origin.description.allSatisfy { $0.isASCII && !$0.isWhitespace }, "written in plain ASCII")
        },
    ]
}

private let capabilities = CapabilityURLs()

/// The browser's side of a registration, fixed, so that the fuzzed bytes reach the CBOR reader.
private let passkeyClientData = #"{"type":"webauthn.create","challenge":"challenge","origin":"https://photos.example"}"#

/// Tokens of this process's own key: a fuzzed token names a link only if this key signed it.
private let shareTokens = ShareTokens(key: .random())

/// An empty library of this process's own: FTS5 parses a search whether or not anything matches.
private let searchable: Library = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cameraroll-fuzz-search-\(getpid())").path
    return try! Library(folder: DataFolder(folder))
}()

/// Sessions signed as servers sharing a library sign them, signed out through this process's
/// empty library.
private let signedSessions: SignInSessions = {
    let shared = blocking { () async throws(LibraryError) in
        do throws(CredentialsError) {
            return try await SharedCredentials.open(database: searchable.database, following: false)
        } catch {
            throw LibraryError(.database, error.message)
        }
    }
    return SignInSessions(signedWith: .random(), shared: try! shared.get())
}()

/// An async call awaited on the calling thread, as libFuzzer's one-input function must.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws(LibraryError) -> T) -> Result<T, LibraryError> {
    let outcome = Mutex<Result<T, LibraryError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do throws(LibraryError) {
            let value = try await body()
            outcome.withLock { $0 = .success(value) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return outcome.withLock { $0! }
}
