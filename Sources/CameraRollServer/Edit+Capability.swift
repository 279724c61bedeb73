import Imaging
package import PhotoLibrary
import Vocabulary

/// An edit as a URL carries it (`edit=`; in a capability URL, covered by the signature): a
/// trim's `start,end` in seconds; a crop alone's `x,y,width,height` in pixels; a turned or
/// mirrored photo's `t<quarter turns>` with `m` when mirrored, then its crop if it has one
/// (`t1m,0,0,300,400`). A number is written in its shortest exact form, so it reads back the same.
extension Edit {
    package var capabilityText: String {
        switch self {
        case .image(let edit):
            let crop = edit.crop.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }
            guard edit.reorientation != .none else { return crop ?? "" }
            let turn = "t\(edit.reorientation.quarterTurns)\(edit.reorientation.mirrored ? "m" : "")"
            return [turn, crop].compactMap { $0 }.joined(separator: ",")
        case .trim(let start, let end): return "\(start),\(end)"
        }
    }

    /// The edit the text names; nil for text this server does not write.
    package init?(capabilityText text: String) {
        var parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var reorientation = Reorientation.none
        if let first = parts.first, first.hasPrefix("t") {
            let turn = first.dropFirst()
            let mirrored = turn.hasSuffix("m")
            guard let digit = (mirrored ? turn.dropLast() : turn).first, mirrored ? turn.count == 2 : turn.count == 1,
                let turns = Int(String(digit)), (0...3).contains(turns)
            else { return nil }
            reorientation = Reorientation(quarterTurns: turns, mirrored: mirrored)
            parts.removeFirst()
            guard reorientation != .none, parts.isEmpty || parts.count == 4 else { return nil }
            if parts.isEmpty {
                self = .image(ImageEdit(reorientation: reorientation))
                return
            }
        }
        let pixels = parts.compactMap(PixelNumber.read)
        if parts.count == 4, pixels.count == 4 {
            self = .image(
                ImageEdit(reorientation: reorientation, crop: PixelRect(x: pixels[0], y: pixels[1], width: pixels[2], height: pixels[3])))
        } else if parts.count == 2, reorientation == .none, let start = Double(parts[0]), let end = Double(parts[1]) {
            self = .trim(start: start, end: end)
        } else {
            return nil
        }
    }
}
