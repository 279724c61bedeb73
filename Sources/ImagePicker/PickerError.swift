public import Failures

/// Why a picker configuration, transition or edit was refused, or a pick failed.
public typealias PickerError = Failure<PickerFailures>

/// Its codes:
/// - `sourceUnavailable`: the source type is not one this device has.
/// - `invalidConfiguration`: a configuration UIImagePickerController would refuse.
/// - `invalidSelection`: a selection of too many or too few items, or one twice.
/// - `invalidTransition`: an event the picker's state does not allow.
/// - `invalidInfo`: a result whose info keys do not go together.
/// - `invalidMediaType`: a result of a media type the picker does not offer.
/// - `notFound`: no picker session has that id (it may have expired).
/// - `tooManySessions`: too many picker sessions are open.
/// - `storageUnavailable`: the sessions' store cannot be reached: nothing was done, try again.
/// - `storageFailed`: the sessions' store failed, or a stored session is damaged.
/// - `badURL`: the server's URL cannot be used.
/// - `serverUnreachable`: the server does not answer.
/// - `serverError`: the server answered with something other than a pick.
/// - `notPresented`: `result` was asked before `present`.
public enum PickerFailures: FailureDomain {}

extension PickerError.Code {
    public static let sourceUnavailable = Self("source_unavailable"), invalidConfiguration = Self("invalid_configuration")
    public static let invalidSelection = Self("invalid_selection"), invalidTransition = Self("invalid_transition")
    public static let invalidInfo = Self("invalid_info"), invalidMediaType = Self("invalid_media_type")
    public static let notFound = Self("not_found"), tooManySessions = Self("too_many_sessions")
    public static let storageUnavailable = Self("storage_unavailable"), storageFailed = Self("storage_failed")
    public static let badURL = Self("bad_url"), serverUnreachable = Self("server_unreachable")
    public static let serverError = Self("server_error"), notPresented = Self("not_presented")

    /// The code the picker's server answered a request with (any of the server's codes).
    package init(answered name: String) { self.init(name) }
}

extension PickerError {
    /// The book's alert for a source the device does not have.
    public static let sourceUnavailable = PickerError(.sourceUnavailable, "Device doesn't support that media source.")
}
