/// Bytes at one address that never changes, never written after they are filled, until the
/// last reference goes: a C library (libmicrohttpd) may send them from there while it holds a
/// reference (`retainedAddress`), with no copy of its own. Sendable by hand for that reason:
/// the memory is read-only once made.
public final class StableBytes: @unchecked Sendable, Equatable {
    private let storage: UnsafeRawBufferPointer

    public convenience init(_ bytes: [UInt8]) {
        self.init(count: bytes.count) { buffer in
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return true
        }!
    }

    /// `count` bytes that `fill` writes (a file's, read straight into them); nil when it fails.
    public init?(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Bool) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        guard fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])) else {
            buffer.deallocate()
            return nil
        }
        storage = UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)
    }

    deinit {
        UnsafeMutableRawPointer(mutating: storage.baseAddress)?.deallocate()
    }

    public var count: Int { storage.count }

    /// A copy of the bytes.
    public var bytes: [UInt8] { Array(storage) }

    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(storage)
    }

    /// The bytes' address, for a C library that sends them later: the object is retained for
    /// it, and `release(retained:)` gives that reference back once it is done.
    public func retainedAddress() -> (bytes: UnsafeRawBufferPointer, retained: UnsafeMutableRawPointer) {
        (storage, Unmanaged.passRetained(self).toOpaque())
    }

    /// Gives back a reference `retainedAddress()` took.
    public static func release(retained: UnsafeMutableRawPointer) {
        Unmanaged<StableBytes>.fromOpaque(retained).release()
    }

    public static func == (left: StableBytes, right: StableBytes) -> Bool {
        left === right || left.storage.elementsEqual(right.storage)
    }
}
