/// Whether a picture may hold text, cheaply, before Tesseract spends a second or more on it:
/// lines of dark type on a light ground (or the other way) are rows of pixels whose brightness
/// jumps by a third of its range many times across (each letter's strokes), where skies, faces,
/// leaves and gravel change smoothly or by less. Measured on a 512-pixel glance: a page of
/// three lines has 9% such rows; the corpus' landscapes, street scenes and portraits have 0 to
/// 2.5%. It is tuned for pages, receipts, screenshots and signs that fill much of the picture:
/// a small sign far away in a busy photo is passed over.
enum TextLikelihood {
    /// A jump between two pixels beside each other, in 8-bit luminance.
    static let jump = 80
    /// A row with this many jumps per 100 pixels is a row of type.
    static let jumpsPerHundred = 6
    /// A picture with this share of such rows (in percent) may hold text.
    static let rowsPercent = 5

    /// `rgb`: 8-bit sRGB pixels without alpha, `width` a row (`Imaging.pixels`).
    static func mayHoldText(rgb: [UInt8], width: Int) -> Bool {
        guard width > 1, rgb.count >= width * 3 else { return false }
        let height = rgb.count / (width * 3)
        var busyRows = 0
        for row in 0..<height {
            var jumps = 0
            var previous = luminance(rgb, row * width * 3)
            for column in 1..<width {
                let current = luminance(rgb, (row * width + column) * 3)
                if abs(current - previous) >= jump { jumps += 1 }
                previous = current
            }
            if jumps * 100 >= jumpsPerHundred * width { busyRows += 1 }
        }
        return busyRows * 100 >= rowsPercent * height
    }

    private static func luminance(_ rgb: [UInt8], _ offset: Int) -> Int {
        (Int(rgb[offset]) * 299 + Int(rgb[offset + 1]) * 587 + Int(rgb[offset + 2]) * 114) / 1000
    }
}
