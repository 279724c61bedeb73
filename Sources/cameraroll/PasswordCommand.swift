import Credentials
import Foundation

/// `cameraroll passwd`: sets or changes the owner's password (the first admin's), which anyone
/// not on this computer signs in with (with `--database`, everyone, on every server sharing it).
/// Asked twice without echo at a terminal; a script pipes it in on one line of standard input.
enum PasswordCommand {
    static func run(_ arguments: Arguments, _ context: Context) async throws -> Int32 {
        try arguments.allowOnly([])
        guard arguments.positional.isEmpty else { throw UsageError("passwd takes no arguments; it asks for the password.") }
        let users = try await context.credentials().users
        guard await set(whose: "owner", users.setFirstAdminPassword) else { return 1 }
        // Sessions carry a stamp of the password, so the old password's end here and now.
        Terminal.out("The owner password is set (\(users.location)). Devices signed in with the old one are signed out.")
        return 0
    }

    /// Asks for the password (twice at a terminal, else one line of standard input) and stores
    /// it with `store`; false, having said why, when nothing was changed.
    static func set(whose: String, _ store: (String) async throws(CredentialsError) -> Void) async -> Bool {
        let password: String
        if isatty(STDIN_FILENO) == 1 {
            guard let first = prompt("New \(whose) password: "), let second = prompt("Again: ") else { return false }
            guard first == second else {
                Terminal.error("cameraroll: the two passwords differ; nothing was changed.")
                return false
            }
            password = first
        } else {
            guard let line = readLine(strippingNewline: true) else {
                Terminal.error("cameraroll: no password on standard input; nothing was changed.")
                return false
            }
            password = line
        }
        do {
            try await store(password)
            return true
        } catch {
            Terminal.error("cameraroll: \(error.message)")
            return false
        }
    }

    /// A password to sign in with: asked once without echo at a terminal, else the first line of
    /// standard input; nil when there is none.
    static func ask(_ text: String) -> String? {
        isatty(STDIN_FILENO) == 1 ? prompt(text) : readLine(strippingNewline: true)
    }

    /// Reads a line from the terminal with echo off, restoring the terminal whatever happens.
    private static func prompt(_ text: String) -> String? {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
