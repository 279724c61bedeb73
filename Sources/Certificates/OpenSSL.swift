internal import CCrypto
internal import Foundation

/// An OpenSSL object we own, freed by its type's own function once the last reference goes.
class OpenSSLObject {
    let handle: OpaquePointer
    private let free: (OpaquePointer) -> Void

    init(handle: OpaquePointer, free: @escaping (OpaquePointer) -> Void) {
        self.handle = handle
        self.free = free
    }

    deinit {
        free(handle)
    }
}

/// An `EVP_PKEY` we own.
final class PrivateKey: OpenSSLObject {
    private init(handle: OpaquePointer) {
        super.init(handle: handle, free: EVP_PKEY_free)
    }

    /// A new ECDSA P-256 key: small, quick to make, and accepted by every current browser.
    static func makeP256() throws(CertificateError) -> PrivateKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { throw OpenSSL.failure(.generationFailed, "making a key") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &key) == 1, let key
        else { throw OpenSSL.failure(.generationFailed, "making a P-256 key") }
        return PrivateKey(handle: key)
    }

    convenience init(pem: String) throws(CertificateError) {
        guard let key = OpenSSL.reading(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw OpenSSL.failure(.invalid, "Reading the private key as PEM")
        }
        self.init(handle: key)
    }

    /// PKCS #8, unencrypted: the file's mode is what protects it.
    var pem: String {
        get throws(CertificateError) {
            try OpenSSL.writing("the private key") { PEM_write_bio_PrivateKey($0, handle, nil, nil, 0, nil, nil) }
        }
    }
}

/// An `X509` we own.
final class X509Certificate: OpenSSLObject {
    private init(handle: OpaquePointer) {
        super.init(handle: handle, free: X509_free)
    }

    /// The first certificate of a PEM text (the server's own, in a chain).
    convenience init(pem: String) throws(CertificateError) {
        guard let certificate = OpenSSL.reading(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw OpenSSL.failure(.invalid, "Reading the certificate as PEM")
        }
        self.init(handle: certificate)
    }

    /// An authority that signs only server certificates (pathlen 0), kept on this machine:
    /// it is what a phone installs and trusts once, so later server certificates need nothing
    /// from it.
    static func authority(key: PrivateKey, commonName: String, from start: Date, to end: Date) throws(CertificateError)
        -> X509Certificate
    {
        try make(
            for: key, commonName: commonName, from: start, to: end, signedBy: nil,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
    }

    /// A server's certificate for `names`, signed by `issuer`: it is no authority itself.
    static func server(
        key: PrivateKey, commonName: String, names: MachineNames, from start: Date, to end: Date,
        signedBy issuer: (certificate: X509Certificate, key: PrivateKey)
    ) throws(CertificateError) -> X509Certificate {
        let alternativeNames = names.hostNames.map { "DNS:\($0)" } + names.addresses.map { "IP:\($0)" }
        return try make(
            for: key, commonName: commonName, from: start, to: end, signedBy: issuer,
            extensions: [
                (NID_subject_alt_name, alternativeNames.joined(separator: ",")), (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"), (NID_ext_key_usage, "serverAuth"), (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ])
    }

    /// A version 3 certificate of `key`'s public half, signed by `issuer`, or by `key` itself when
    /// there is none.
    private static func make(
        for key: PrivateKey, commonName: String, from start: Date, to end: Date,
        signedBy issuer: (certificate: X509Certificate, key: PrivateKey)?, extensions: [(Int32, String)]
    ) throws(CertificateError) -> X509Certificate {
        guard let handle = X509_new() else { throw OpenSSL.failure(.generationFailed, "making a certificate") }
        let certificate = X509Certificate(handle: handle)
        var startTime = time_t(start.timeIntervalSince1970)
        var endTime = time_t(end.timeIntervalSince1970)
        // 2 means version 3, the one with extensions.
        guard X509_set_version(handle, 2) == 1, certificate.setRandomSerial(),
            X509_time_adj_ex(X509_getm_notBefore(handle), 0, 0, &startTime) != nil,
            X509_time_adj_ex(X509_getm_notAfter(handle), 0, 0, &endTime) != nil,
            X509_set_pubkey(handle, key.handle) == 1,
            let name = X509_get_subject_name(handle),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
            X509_set_issuer_name(handle, issuer.map { X509_get_subject_name($0.certificate.handle) } ?? name) == 1
        else { throw OpenSSL.failure(.generationFailed, "filling in the certificate") }
        for (nid, value) in extensions {
            try certificate.add(nid, value, issuer: issuer?.certificate ?? certificate)
        }
        guard X509_sign(handle, (issuer?.key ?? key).handle, EVP_sha256()) > 0 else {
            throw OpenSSL.failure(.generationFailed, "signing the certificate")
        }
        return certificate
    }

    /// 128 random bits, the top one clear so the number stays positive in DER.
    private func setRandomSerial() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { return false }
        bytes[0] &= 0x7F
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
        defer { BN_free(number) }
        return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(handle)) != nil
    }

    private func add(_ nid: Int32, _ value: String, issuer: X509Certificate) throws(CertificateError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer.handle, handle, nil, nil, 0)
        guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw OpenSSL.failure(.generationFailed, "adding the extension \(value)")
        }
        defer { X509_EXTENSION_free(extensionValue) }
        guard X509_add_ext(handle, extensionValue, -1) == 1 else {
            throw OpenSSL.failure(.generationFailed, "adding the extension \(value)")
        }
    }

    var pem: String {
        get throws(CertificateError) {
            try OpenSSL.writing("the certificate") { PEM_write_bio_X509($0, handle) }
        }
    }

    /// SHA-256 of the DER, as browsers and phones show it: uppercase hex pairs between colons.
    var sha256Fingerprint: String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(handle, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    var notAfter: Date? {
        var parts = tm()
        guard ASN1_TIME_to_tm(X509_get0_notAfter(handle), &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The names among `names` this certificate is not valid for.
    func uncovered(_ names: MachineNames) -> [String] {
        names.hostNames.filter { X509_check_host(handle, $0, $0.utf8.count, 0, nil) != 1 }
            + names.addresses.filter { X509_check_ip_asc(handle, $0, 0) != 1 }
    }

    func isSigned(byThePrivateHalfOf key: PrivateKey) -> Bool {
        X509_check_private_key(handle, key.handle) == 1
    }

    /// Whether `issuer` signed this certificate and may sign certificates at all (its name, key
    /// identifier and key usage fit, and the signature checks out with its key).
    func isIssued(by issuer: X509Certificate) -> Bool {
        guard X509_check_issued(issuer.handle, handle) == X509_V_OK, let key = X509_get0_pubkey(issuer.handle) else { return false }
        return X509_verify(handle, key) == 1
    }
}

extension X509Certificate {
    /// The first certificate of `certificatePEM` and the key of `privateKeyPEM`, checked to belong
    /// together and to have a readable expiry, so a mistake is named here rather than as a server
    /// that cannot start.
    static func pair(certificatePEM: String, privateKeyPEM: String) throws(CertificateError) -> (
        certificate: X509Certificate, key: PrivateKey, notAfter: Date
    ) {
        let certificate = try X509Certificate(pem: certificatePEM)
        let key = try PrivateKey(pem: privateKeyPEM)
        guard certificate.isSigned(byThePrivateHalfOf: key) else {
            throw CertificateError(.keyMismatch, "The private key does not belong to the certificate.")
        }
        guard let notAfter = certificate.notAfter else {
            throw CertificateError(.invalid, "The certificate's expiry date cannot be read.")
        }
        return (certificate, key, notAfter)
    }
}

/// libcrypto's memory BIOs and error queue, in one place.
enum OpenSSL {
    static func reading<Result>(_ text: String, _ body: (OpaquePointer) -> Result?) -> Result? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func writing(_ what: String, _ body: (OpaquePointer) -> Int32) throws(CertificateError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure(.generationFailed, "encoding \(what)") }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { throw failure(.generationFailed, "encoding \(what)") }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        guard BIO_read(bio, &bytes, Int32(bytes.count)) == Int32(bytes.count) else { throw failure(.generationFailed, "encoding \(what)") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An error with libcrypto's reason for the latest failure, which also empties its
    /// thread's error queue so an old reason never shows up under a later failure.
    static func failure(_ code: CertificateError.Code, _ doing: String) -> CertificateError {
        var reason = ""
        while case let error = ERR_get_error(), error != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(error, &text, text.count)
            reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let what = doing.prefix(1).uppercased() + doing.dropFirst()
        return CertificateError(code, reason.isEmpty ? "\(what) failed." : "\(what) failed: \(reason).")
    }
}
