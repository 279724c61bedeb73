import Foundation
import ImagePicker
import Testing

/// The picker page does Move and Scale in JavaScript (Web/crop-geometry.js) and the server
/// trusts the cropRect it sends; both implementations must answer every case of one shared
/// file the same way. Tests/e2e/test_crop_geometry.py runs the same cases in the browser.
@Suite struct CropGeometryAgreementTests {
    struct Case: Decodable {
        var image: [Int]
        var aspect: CropGeometry.Aspect
        var crop: CropRect?
        var steps: [Step]
        var expected: CropRect
    }

    /// ["zoom", factor, anchorX, anchorY] or ["pan", dx, dy, frameWidth].
    struct Step: Decodable {
        var operation: String
        var values: [Double]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            operation = try container.decode(String.self)
            values = []
            while !container.isAtEnd { values.append(try container.decode(Double.self)) }
        }
    }

    struct Cases: Decodable { var cases: [Case] }

    static let cases: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/crop-geometry-cases.json")
        guard let data = try? Data(contentsOf: file), let decoded = try? JSONDecoder().decode(Cases.self, from: data) else { return [] }
        return decoded.cases
    }()

    @Test func theSharedCasesAreThere() {
        #expect(Self.cases.count > 100)
    }

    @Test(arguments: cases)
    func theModelAnswersLikeThePage(_ example: Case) {
        let (width, height) = (example.image[0], example.image[1])
        var geometry =
            if let crop = example.crop {
                CropGeometry(imageWidth: width, imageHeight: height, cropRect: crop, aspect: example.aspect)
            } else {
                CropGeometry(imageWidth: width, imageHeight: height, aspect: example.aspect)
            }
        for step in example.steps {
            let values = step.values
            if step.operation == "zoom" {
                geometry.zoom(by: values[0], anchorX: values[1], anchorY: values[2])
            } else {
                geometry.pan(dx: values[0], dy: values[1], frameWidth: values[2])
            }
        }
        #expect(geometry.cropRect == example.expected, "\(example.image) \(example.aspect) \(example.steps.map(\.operation))")
    }
}

extension CropGeometryAgreementTests.Case: CustomTestStringConvertible {
    var testDescription: String { "\(image[0])x\(image[1]) \(aspect.rawValue), \(steps.count) steps" }
}
