/// HTTP header fields: names compared without case, a name may repeat, order is kept.
public struct Headers: Sendable, Equatable, Sequence {
    private var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of a field.
    public subscript(_ name: String) -> String? {
        get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
        set {
            fields.removeAll { $0.name.lowercased() == name.lowercased() }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Every value of a field, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
