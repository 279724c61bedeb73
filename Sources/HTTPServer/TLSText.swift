internal import Glibc

/// A `TLSIdentity` as the C strings libmicrohttpd is given. The daemon keeps them for as long as
/// it runs: MHD stores the pointers, and its documentation does not promise it is done with them
/// once started.
struct TLSText {
    let certificateChain: CString
    let privateKey: CString

    init(_ identity: TLSIdentity) {
        certificateChain = CString(identity.certificateChain)
        privateKey = CString(identity.privateKey)
    }

    /// One string in C memory, freed with its last reference.
    final class CString {
        let pointer: UnsafeMutablePointer<CChar>

        init(_ text: String) {
            pointer = text.withCString { strdup($0)! }
        }

        deinit {
            // A private key should not outlive its use in freed memory.
            memset(pointer, 0, strlen(pointer))
            free(pointer)
        }
    }
}
