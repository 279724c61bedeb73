import Glibc
import Synchronization

/// The files created and deleted in one folder, as the kernel reports them (inotify). Unlike
/// looking at the folder now and then, it cannot miss a file that exists only for a moment, so
/// a test learns that a body file existed even if a loaded machine kept it from looking in time.
final class FolderEvents: Sendable {
    enum Kind: Sendable, Equatable {
        case created
        case deleted
    }

    struct Event: Sendable, Equatable {
        let kind: Kind
        let name: String
    }

    private let descriptor: Int32
    private let seen = Mutex<[Event]>([])

    /// Watching starts here, so make it before whatever the test wants to observe.
    init(_ path: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        precondition(descriptor >= 0, "inotify_init1: errno \(errno)")
        let watch = inotify_add_watch(descriptor, path, UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM))
        precondition(watch >= 0, "inotify_add_watch: errno \(errno)")
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Everything reported so far, in order.
    var all: [Event] {
        seen.withLock { seen in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                seen += Self.events(buffer[..<count])
            }
            return seen
        }
    }

    /// The files with this suffix that were created, and whether each was deleted since.
    func files(endingWith suffix: String) -> [(name: String, deleted: Bool)] {
        let events = all.filter { $0.name.hasSuffix(suffix) }
        return events.filter { $0.kind == .created }.map { created in
            (created.name, events.contains { $0.kind == .deleted && $0.name == created.name })
        }
    }

    /// `struct inotify_event` records: descriptor, mask, cookie, name length, then the name.
    private static func events(_ bytes: ArraySlice<UInt8>) -> [Event] {
        var events: [Event] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let (mask, length) = bytes[offset..<offset + header].withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self), Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            }
            let name = String(decoding: bytes[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
            if mask & UInt32(IN_CREATE) != 0 { events.append(Event(kind: .created, name: name)) }
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { events.append(Event(kind: .deleted, name: name)) }
            offset += header + length
        }
        return events
    }
}
