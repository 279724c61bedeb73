/// A value bound to or read from SQLite.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Types that bind to a statement parameter.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One result row, by column name.
public struct Row: Sendable {
    let columns: [String: SQLValue]

    public subscript(_ name: String) -> SQLValue { columns[name] ?? .null }

    public func int(_ name: String) -> Int? {
        switch self[name] {
        case .integer(let value): Int(value)
        case .real(let value): Int(value)
        default: nil
        }
    }

    public func double(_ name: String) -> Double? {
        switch self[name] {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    public func string(_ name: String) -> String? {
        if case .text(let value) = self[name] { return value }
        return nil
    }

    public func bool(_ name: String) -> Bool { (int(name) ?? 0) != 0 }
}
