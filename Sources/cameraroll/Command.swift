/// A command: what it does with its arguments, and the options of its own that take a value, so
/// that the word after one is read as that value, never as one of the program's options.
struct Command {
    let valued: Set<String>
    let run: (Arguments, Context) async throws -> Int32

    init(valued: Set<String> = [], run: @escaping (Arguments, Context) async throws -> Int32) {
        // An option of a command named like one of the program's would never reach the command.
        precondition(valued.isDisjoint(with: GlobalOptions.names))
        self.valued = valued
        self.run = run
    }

    static func named(_ name: String) -> Command? {
        switch name {
        case "serve": Command(valued: ServeCommand.valued, run: ServeCommand.run)
        case "pick": Command(valued: PickCommand.valued, run: PickCommand.run)
        case "import": Command(valued: ImportCommand.valued, run: ImportCommand.run)
        case "list": Command(valued: ListCommand.valued, run: ListCommand.run)
        case "export": Command(run: ExportCommand.run)
        case "trash", "restore", "delete", "gc":
            Command { arguments, context in try await MaintenanceCommand.run(name, arguments, context) }
        case "doctor": Command(run: DoctorCommand.run)
        case "passwd": Command(run: PasswordCommand.run)
        case "users": Command(valued: UsersCommand.valued, run: UsersCommand.run)
        case "migrate": Command(valued: MigrateCommand.valued, run: MigrateCommand.run)
        case "apps": Command(valued: AppsCommand.valued, run: AppsCommand.run)
        default: nil
        }
    }
}
