import Foundation

/// A storage quota as people write it: "20GB", "500 MB", "1.5TB" or a count of bytes. Units are
/// decimal, as phones and disks show sizes (1 GB is 10^9 bytes).
package enum StorageSize {
    /// The most a quota may be: a petabyte, far beyond any family's disk, well inside Int64.
    package static let largest: Int64 = 1_000_000_000_000_000

    private static let units: [(names: [String], size: Double)] = [
        (["", "b"], 1), (["k", "kb"], 1e3), (["m", "mb"], 1e6), (["g", "gb"], 1e9), (["t", "tb"], 1e12),
    ]

    package static func bytes(_ text: String) throws(CredentialsError) -> Int64 {
        let refusal = CredentialsError(.invalidQuota, "A quota is a size such as 20GB, 500MB or 1.5TB, up to 1000TB.")
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard trimmed.count <= 32 else { throw refusal }
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, let value = Double(number),
            let size = units.first(where: { $0.names.contains(unit) })?.size
        else { throw refusal }
        let bytes = (value * size).rounded()
        guard bytes >= 1, bytes <= Double(largest) else { throw refusal }
        return Int64(bytes)
    }

    /// A size as a person reads it: "20 GB", "1.5 TB", "512 bytes".
    package static func text(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        let (name, size) = [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)].first { Double(bytes) >= $0.1 } ?? ("KB", 1e3)
        let value = Double(bytes) / size
        let rounded = value >= 100 ? value.rounded() : (value * 10).rounded() / 10
        let digits = rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
        return "\(digits) \(name)"
    }
}
