import Foundation
package import HTTPServer
import Imaging
package import PhotoLibrary
import Vocabulary

/// The body of `PUT /api/assets/<id>/edit`: for a photo any of `{"rotation": 0|90|180|270,
/// "flipped": true, "cropRect": {x, y, width, height}}` (turned clockwise, then mirrored, then
/// cut, the crop in the turned photo's pixels); for a movie `{"trim": {start, end}}`; `{}` or
/// `null` (or a photo neither turned nor cut) to remove the edit. Errors name the field.
package enum EditRequest {
    private struct Body: Decodable {
        struct Rect: Decodable { var x, y, width, height: Double }
        struct Range: Decodable { var start, end: Double }
        var cropRect: Rect?
        var rotation: Double?
        var flipped: Bool?
        var trim: Range?
    }

    package static func parse(_ body: RequestBody?) throws(HTTPError) -> Edit? {
        guard let body, let data = FileManager.default.contents(atPath: body.path), !data.isEmpty else {
            throw HTTPError.badRequest(
                "invalid_edit", "Send {\"cropRect\": {...}, \"rotation\": 90, \"flipped\": true} or {\"trim\": {...}} as JSON.")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw HTTPError.badRequest("invalid_json", "The body is not JSON.")
        }
        return try parse(json: object)
    }

    /// An edit as JSON already read (a picker event's `edit`).
    package static func parse(json object: Any) throws(HTTPError) -> Edit? {
        if object is NSNull { return nil }
        guard let fields = object as? [String: Any] else {
            throw HTTPError.badRequest("invalid_edit", "The edit must be a JSON object.")
        }
        if let unknown = Set(fields.keys).subtracting(["cropRect", "rotation", "flipped", "trim"]).sorted().first {
            throw invalid(unknown, "is not an edit; send cropRect, rotation, flipped or trim")
        }
        if fields["trim"] != nil, let photo = ["cropRect", "rotation", "flipped"].first(where: { fields[$0] != nil }) {
            throw invalid(photo, "goes with a photo, trim with a movie; send one or the other")
        }
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: try JSONSerialization.data(withJSONObject: fields))
        } catch let error as DecodingError {
            throw invalid(field(of: error), field(of: error) == "flipped" ? "must be true or false" : "must be a number")
        } catch {
            throw HTTPError.badRequest("invalid_json", "The body is not JSON.")
        }
        if let range = decoded.trim { return .trim(start: range.start, end: range.end) }
        let rotation = try whole(decoded.rotation ?? 0, "rotation")
        guard [0, 90, 180, 270].contains(rotation) else { throw invalid("rotation", "must be 0, 90, 180 or 270 (clockwise)") }
        let crop = try decoded.cropRect.map { rect throws(HTTPError) in
            PixelRect(
                x: try whole(rect.x, "cropRect.x"), y: try whole(rect.y, "cropRect.y"),
                width: try whole(rect.width, "cropRect.width"), height: try whole(rect.height, "cropRect.height"))
        }
        let edit = ImageEdit(reorientation: Reorientation(quarterTurns: rotation / 90, mirrored: decoded.flipped ?? false), crop: crop)
        return edit.isNone ? nil : .image(edit)
    }

    private static func invalid(_ field: String, _ problem: String) -> HTTPError {
        HTTPError.badRequest("invalid_edit", "\(field): \(problem).")
    }

    private static func whole(_ value: Double, _ field: String) throws(HTTPError) -> Int {
        guard let pixels = PixelNumber.read(value) else { throw invalid(field, "must be a whole number of pixels") }
        return pixels
    }

    /// The dotted path of the field a decoding error is about.
    private static func field(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(let key, let c): return (c.codingPath + [key]).map(\.stringValue).joined(separator: ".")
        @unknown default: return "edit"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "edit" : path
    }
}
