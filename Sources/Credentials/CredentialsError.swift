public import Failures

/// Why a password, a sign-in or the owner's file was refused. The message is for whoever
/// asked, a client too; `detail` (a file's path) for the server's own user alone.
public typealias CredentialsError = Failure<CredentialsFailures>

/// Its codes:
/// - `weakPassword`: a password shorter than the least allowed.
/// - `cryptoFailed`: libcrypto could not hash a password or make a key.
/// - `writeFailed`: a file or a row could not be written or locked.
/// - `unreadableOwner`: an earlier version's owner password is there and cannot be read.
/// - `unreadableUsers`: the list of people is there and cannot be read.
/// - `unknownUser`: nobody of that name.
/// - `nameTaken`: someone has that name already.
/// - `invalidUserName`: a name that is empty, too long or has control characters.
/// - `invalidQuota`: a storage quota that is not a size, or is none or too large.
/// - `notAllowed`: a change the people's rules refuse (the last admin removed, a library handed
///   to someone who is not an admin).
/// - `unreadableCapabilityKey`: the key that signs capability links cannot be read or is damaged.
/// - `invalidOrigin`: a site's origin not written as browsers write one.
/// - `invalidAppName`: an app's name that is empty, too long or has control characters.
/// - `invalidLinkLifetime`: a link lifetime outside what is allowed.
/// - `invalidPasskey`: a passkey's answer (WebAuthn) that does not verify: not CBOR this server
///   reads, another site's or challenge's, or a signature that does not match its key.
/// - `unknownPasskey`: no passkey of that id (removed, or another person's).
/// - `passkeyTaken`: a passkey registered here already.
/// - `invalidPasskeyName`: a passkey's name that is empty, too long or has control characters.
/// - `storageUnavailable`: the shared database cannot be reached: nothing was done, try again.
/// - `storageFailed`: the shared database failed.
public enum CredentialsFailures: FailureDomain {}

extension CredentialsError.Code {
    public static let weakPassword = Self("weak_password"), cryptoFailed = Self("crypto_failed")
    public static let writeFailed = Self("write_failed"), unreadableOwner = Self("unreadable_owner")
    public static let unreadableUsers = Self("unreadable_users"), unknownUser = Self("unknown_user")
    public static let nameTaken = Self("name_taken"), invalidUserName = Self("invalid_user_name")
    public static let notAllowed = Self("not_allowed"), invalidQuota = Self("invalid_quota")
    public static let unreadableCapabilityKey = Self("unreadable_capability_key"), invalidOrigin = Self("invalid_origin")
    public static let invalidAppName = Self("invalid_app_name"), invalidLinkLifetime = Self("invalid_link_lifetime")
    public static let storageUnavailable = Self("storage_unavailable"), storageFailed = Self("storage_failed")
    public static let invalidPasskey = Self("invalid_passkey"), unknownPasskey = Self("unknown_passkey")
    public static let passkeyTaken = Self("passkey_taken"), invalidPasskeyName = Self("invalid_passkey_name")
}
