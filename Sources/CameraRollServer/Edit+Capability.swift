import Imaging
package import PhotoLibrary

/// An edit as a capability URL carries it (`edit=`, covered by the signature): a trim's
/// `start,end` in seconds, a crop's `x,y,width,height` in pixels. A number is written in its
/// shortest exact form, so it reads back the same.
extension Edit {
    package var capabilityText: String {
        switch self {
        case .crop(let rect): "\(rect.x),\(rect.y),\(rect.width),\(rect.height)"
        case .trim(let start, let end): "\(start),\(end)"
        }
    }

    /// The edit the text names; nil for text this server does not write.
    package init?(capabilityText text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let pixels = parts.compactMap { Int($0) }
        if parts.count == 4, pixels.count == 4 {
            self = .crop(PixelRect(x: pixels[0], y: pixels[1], width: pixels[2], height: pixels[3]))
        } else if parts.count == 2, let start = Double(parts[0]), let end = Double(parts[1]) {
            self = .trim(start: start, end: end)
        } else {
            return nil
        }
    }
}
