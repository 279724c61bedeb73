import Digests
import Storage

/// The owner's password as stored: scrypt with a random salt, slow and memory-hard so a stolen
/// file is expensive to guess from. The parameters are kept with the hash so they can grow.
public struct PasswordHash: Codable, Sendable, Equatable {
    public var algorithm = "scrypt"
    public var n: UInt64
    public var r: UInt64
    public var p: UInt64
    public var salt: String
    public var hash: String

    /// 2^15 × 8 × 128 bytes = 32 MiB and about a tenth of a second per try on this class of machine.
    public static let standardCost: UInt64 = 1 << 15
    public static let minimumLength = 8

    public init(password: String, n: UInt64 = standardCost) throws(CredentialsError) {
        guard password.count >= Self.minimumLength else {
            throw CredentialsError(.weakPassword, "The password must have at least \(Self.minimumLength) characters.")
        }
        let salt = Crypto.randomBytes(16)
        guard let key = Crypto.scrypt(Array(password.utf8), salt: salt, n: n, r: 8, p: 1, length: 32) else {
            throw CredentialsError(.cryptoFailed, "The password could not be hashed.")
        }
        self.n = n
        r = 8
        p = 1
        self.salt = Hex.text(salt)
        hash = Hex.text(key)
    }

    /// What a sign-in as nobody is checked against, so that it costs what a wrong password does:
    /// a random key with the standard cost, which no password's key equals in practice.
    public static let nobodys = PasswordHash(
        n: standardCost, salt: Hex.text(Crypto.randomBytes(16)), hash: Hex.text(Crypto.randomBytes(32)))

    private init(n: UInt64, salt: String, hash: String) {
        self.n = n
        r = 8
        p = 1
        self.salt = salt
        self.hash = hash
    }

    public func verifies(_ password: String) -> Bool {
        guard algorithm == "scrypt", let salt = Hex.bytes(salt.utf8), let expected = Hex.bytes(hash.utf8),
            let key = Crypto.scrypt(Array(password.utf8), salt: salt, n: n, r: r, p: p, length: expected.count)
        else { return false }
        return Crypto.equal(key, expected)
    }
}
