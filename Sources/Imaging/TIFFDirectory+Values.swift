extension TIFFDirectory {
    /// The directory of the TIFF header at `tiff` (an EXIF block's, after `Exif\0\0` in a JPEG),
    /// and where its first IFD, IFD0, starts.
    static func header(_ reader: ByteReader, at tiff: Int) -> (directory: TIFFDirectory, ifd0: Int)? {
        guard let bigEndian = isBigEndian(reader, at: tiff), let first = reader.integer(UInt32.self, at: tiff + 4, bigEndian: bigEndian)
        else { return nil }
        return (TIFFDirectory(reader: reader, base: tiff, bigEndian: bigEndian), Int(first))
    }

    /// The same for an EXIF block as libvips gives it (`exif-data`), with or without the
    /// `Exif\0\0` of a JPEG's APP1.
    static func exif(_ reader: ByteReader) -> (directory: TIFFDirectory, ifd0: Int)? {
        header(reader, at: reader.matches(Array("Exif\0\0".utf8), at: 0) ? 6 : 0)
    }

    /// Where the IFD that entry `tag` of the IFD at `offset` points to starts (the EXIF IFD's
    /// 0x8769, the GPS IFD's 0x8825).
    func pointer(_ tag: UInt16, inIFDAt offset: Int) -> Int? {
        entry(tag, inIFDAt: offset).flatMap(value)
    }

    /// The first `wanted` values of a SHORT, LONG, RATIONAL or SRATIONAL entry, as numbers; nil
    /// for any other type, fewer values, a value past the end or a fraction over zero, which
    /// stands for no number at all.
    func numbers(_ entry: Entry, first wanted: Int = 1) -> [Double]? {
        guard entry.count >= wanted, let bytes = valueBytes(entry) else { return nil }
        let start = bytes.lowerBound
        var numbers: [Double] = []
        for index in 0..<wanted {
            let number: Double?
            switch entry.type {
            case 3: number = integer(UInt16.self, at: start + 2 * index).map(Double.init)
            case 4: number = integer(UInt32.self, at: start + 4 * index).map(Double.init)
            case 5: number = fraction(UInt32.self, at: start + 8 * index)
            case 10: number = fraction(Int32.self, at: start + 8 * index)
            default: number = nil
            }
            guard let number else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// An ASCII entry's text up to its NUL, or UTF-8 (EXIF 3.0's type 129) read the same way.
    func text(_ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 129, let bytes = valueBytes(entry),
            let slice = reader.slice(at: bytes.lowerBound, length: bytes.count)
        else { return nil }
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }

    private func integer<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, at offset: Int) -> T? {
        reader.integer(type, at: offset, bigEndian: bigEndian)
    }

    /// A numerator and a denominator of `T`, each four bytes.
    private func fraction<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> Double? {
        guard let numerator = integer(UInt32.self, at: offset), let denominator = integer(UInt32.self, at: offset + 4) else { return nil }
        let (top, bottom) = (T(truncatingIfNeeded: numerator), T(truncatingIfNeeded: denominator))
        return bottom == 0 ? nil : Double(top) / Double(bottom)
    }
}
