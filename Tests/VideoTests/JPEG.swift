import Foundation

/// Just enough JPEG parsing to check a poster frame: the magic bytes and the frame size.
enum JPEG {
    static func isJPEG(_ data: Data) -> Bool {
        data.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Width and height from the first start-of-frame segment.
    static func size(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC3).contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}
