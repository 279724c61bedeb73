import Foundation

/// Which boot of this machine is running, to tell bytes left in its cache (which a restart of the
/// process keeps) from bytes on disk (which a restart of the machine keeps).
public enum MachineBoot {
    /// Linux's id of this boot, new each time the machine starts; nil where there is none.
    public static func current() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
}
