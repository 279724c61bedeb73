/// The two parts of a stream segment as HLS wants them: a fragmented MP4's initialization (its
/// `ftyp` and `moov`, which an HLS playlist names in `EXT-X-MAP`) and its media (from the first
/// `moof` on). Our own ffmpeg writes the segments, but the walk trusts no box size.
package enum FragmentedMP4 {
    /// The offset of the first top-level `moof` box, or nil when the boxes before it do not add
    /// up (a size past the end, smaller than its header) or there is none.
    package static func firstFragmentOffset(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        while bytes.count - offset >= 8 {
            let type = bytes[(offset + 4)..<(offset + 8)]
            if type.elementsEqual("moof".utf8) { return offset }
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            var header = 8
            if size == 1 {
                // A 64-bit size follows the type; one past Int's range is past any file's end.
                guard bytes.count - offset >= 16, bytes[offset + 8] & 0x80 == 0 else { return nil }
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            }
            // Size 0 runs to the end of the file: no `moof` after it.
            guard size >= header, size <= bytes.count - offset else { return nil }
            offset += size
        }
        return nil
    }
}
